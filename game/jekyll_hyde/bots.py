"""Bots for Dr. Jekyll & Mr. Hyde.

The heuristic bot plays for its team from its observation only.  For every
legal action it asks, in a few sampled worlds consistent with what it has
seen (its hand, the ghost's open hand, the cards played, the number of
Jekyll and Hyde backs in each other hand), how the rest of the trick would
go if every seat then played a sensible greedy card, and what the trick is
worth to its team:

- a team's own action cards are worth their multiplier times the points it
  expects to take; the other side's actions it takes are worth less, but
  taking them keeps the opponents from multiplying;
- point cards are worth their points times the multiplier it expects;
- a designated partner gives the best card for the team, a designated
  opponent the worst, so designating an opponent is good when a partner
  still plays after (the rulebook's tip) and bad otherwise;
- strong cards spent where a weaker card would do are a cost.
"""

from __future__ import annotations

import random
from typing import Any

from game.jekyll_hyde.cards import DECK, MULTIPLIER, POINTS, RANK

OWN_ACTION = 10.0  # worth of one multiplier point of the team's own side
DENIED_ACTION = 7.0  # worth of one multiplier point taken from the other side
POINT = 2.0  # worth of one card point (an expected multiplier)
SPENT_RANK = 0.35  # cost of giving up one step of trick-taking strength
WORLDS = 10  # sampled deals per decision


class HeuristicBot:
    """Greedy trick evaluation over sampled worlds; see the module docstring."""

    name = "heuristic"

    def __init__(self, worlds: int = WORLDS) -> None:
        self.worlds = worlds

    def choose(self, observation: dict[str, Any], legal: list[str], rng: random.Random,
               deadline: float | None = None) -> str:
        if len(legal) == 1:
            return legal[0]
        view = _View(observation)
        totals = dict.fromkeys(legal, 0.0)
        for _ in range(self.worlds):
            hands = view.sample(rng)
            for action in legal:
                totals[action] += view.action_value(action, hands)
        return max(legal, key=totals.__getitem__)


class _View:
    """What the bot knows, turned into numbers once per decision."""

    def __init__(self, obs: dict[str, Any]) -> None:
        self.me = obs["player"]
        self.teams = [obs["teams"][str(s)] for s in range(4)]
        self.team = self.teams[self.me]
        self.three = obs["ghost"] is not None
        # In 3-player mode the soloist also holds the ghost's cards.
        self.mine = {self.me: list(obs["hand"])}
        if self.three and self.me == 0:
            self.mine[2] = list(obs["ghost"])
        known = set(obs["hand"])
        if self.three:
            known.update(obs["ghost"])
            self.mine.setdefault(2, list(obs["ghost"]))
        played = {p["card"] for t in obs["tricks"] for p in t["plays"]}
        played.update(p["card"] for p in obs["trick"]["plays"])
        unseen = [c for c in DECK if c not in known and c not in played]
        self.unseen = {side: [c for c in unseen if c[0] == side] for side in "JH"}
        self.hidden_seats = [s for s in range(4) if s not in self.mine]
        self.backs = obs["backs"]
        self.turn = obs["turn"]
        self.designated = obs["designated"]
        self.plays = [(p["seat"], p["card"]) for p in obs["trick"]["plays"]]
        self.carried = list(obs["carried"])
        self.last_trick = len(obs["tricks"]) == 6

    def sample(self, rng: random.Random) -> list[list[str]]:
        """A deal of the unseen cards that fits every hand's backs."""
        hands: list[list[str]] = [[] for _ in range(4)]
        for seat, cards in self.mine.items():
            hands[seat] = cards
        for side in "JH":
            pool = self.unseen[side][:]
            rng.shuffle(pool)
            for seat in self.hidden_seats:
                n = self.backs[str(seat)][side]
                hands[seat] = hands[seat] + pool[:n]
                pool = pool[n:]
        return hands

    # -- values -----------------------------------------------------------

    def worth(self, card: str, team: str) -> float:
        """What `card` is worth to `team` when it takes it."""
        mult = MULTIPLIER[card]
        if mult:
            return mult * (OWN_ACTION if card[0] == team[0].upper() else DENIED_ACTION)
        return POINTS[card] * POINT

    def trick_value(self, cards: list[str], winner_team: str | None) -> float:
        """The trick's worth to the bot's team (negative when the others take it)."""
        if winner_team is None:
            return 0.0
        value = sum(self.worth(c, winner_team) for c in cards)
        return value if winner_team == self.team else -value

    def action_value(self, action: str, hands: list[list[str]]) -> float:
        turn = self.turn
        if self.designated is not None:
            return self.place(turn, action, hands) - self.spend_cost(action, self.designated)
        if action[0] == "@":
            seat = int(action[1:])
            side = _side_of(self.teams[turn])
            options = [c for c in hands[seat] if c[0] == side]
            values = [self.place(turn, c, hands, giver=seat) for c in options]
            friend = self.teams[seat] == self.teams[turn]
            return max(values) if friend else min(values)
        giver = self.me if action in self.mine.get(self.me, ()) else 2
        return self.place(turn, action, hands, giver) - self.spend_cost(action, giver)

    def spend_cost(self, card: str, giver: int) -> float:
        """Strength used up from the bot's own hands is gone for later tricks."""
        if self.last_trick:
            return 0.0
        sign = 1.0 if self.teams[giver] == self.team else -1.0
        return sign * SPENT_RANK * RANK[card] * (card[1] != "T")

    def place(self, seat: int, card: str, hands: list[list[str]],
              giver: int | None = None) -> float:
        """Value of the trick if `card` goes in front of `seat` and play goes on greedily."""
        plays = self.plays + [(seat, card)]
        used = {card}
        nxt = (seat + 1) % 4
        while len(plays) < 4:
            plays.append((nxt, self.greedy_card(nxt, plays, hands, used)))
            used.add(plays[-1][1])
            nxt = (nxt + 1) % 4
        cards = self.carried + [c for _, c in plays]
        transformations = [s for s, c in plays if c[1] == "T"]
        if transformations:
            if self.last_trick:
                return 0.0
            # Carried cards tend to go to the team that leads the next trick.
            lead_team = self.teams[transformations[0]]
            return 0.25 * self.trick_value(cards, lead_team)
        best_seat, best_rank = -1, -1
        for s, c in plays:
            if RANK[c] > best_rank:
                best_seat, best_rank = s, RANK[c]
        return self.trick_value(cards, self.teams[best_seat])

    def greedy_card(self, seat: int, plays: list[tuple[int, str]], hands: list[list[str]],
                    used: set[str]) -> str:
        """A sensible card for `seat`'s team to put down in a known world."""
        team = self.teams[seat]
        side = _side_of(team)
        pool = [c for s in range(4) if self.teams[s] == team for c in hands[s]
                if c[0] == side and c not in used]
        if not pool:  # only the other team holds cards of this side: they give the worst
            pool = [c for s in range(4) for c in hands[s] if c[0] == side and c not in used]
            return min(pool, key=lambda c: (self.worth(c, team), RANK[c]))
        best_seat, best_rank = -1, -1
        for s, c in plays:
            if RANK[c] > best_rank:
                best_seat, best_rank = s, RANK[c]
        plain = [c for c in pool if c[1] != "T"] or pool
        cheapest = min(plain, key=lambda c: (self.worth(c, team), RANK[c]))
        if best_rank == RANK["JT"]:  # a Transformation already spoils the trick
            return cheapest
        others_to_come = any(self.teams[(seat + k) % 4] != team for k in range(1, 4 - len(plays)))
        if self.teams[best_seat] == team:
            if others_to_come:
                return cheapest
            return max(plain, key=lambda c: (self.worth(c, team), -RANK[c]))
        winners = [c for c in plain if RANK[c] > best_rank]
        if winners:
            return min(winners, key=lambda c: (RANK[c], -self.worth(c, team)))
        if len(plain) < len(pool) and not self.last_trick:
            at_stake = sum(self.worth(c, self.teams[best_seat]) for _, c in plays)
            if at_stake + sum(self.worth(c, self.teams[best_seat]) for c in self.carried) > 15:
                return next(c for c in pool if c[1] == "T")
        return cheapest


def _side_of(team: str) -> str:
    return "J" if team == "jekyll" else "H"


BOTS = {"heuristic": HeuristicBot}
# `easy` plays this share of its moves at random: at the former 0.3 normal beat
# it too seldom for a player to feel (58.9% in Werner's 4-player game); at 0.5
# each of beginner < easy < normal wins clearly (benchmarks/ladder.py's table,
# game/bots/ratings.json, has the measured figures).
EASY_RANDOM_SHARE = 0.5
