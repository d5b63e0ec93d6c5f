"""The duel's exchange is simultaneous (issue 55 item 9): the engine asks
Jekyll first, but Hyde may choose at once (the observation's `ahead`); the
page holds his choice, out of the engine's state, and gives it the moment the
engine asks him. Against a bot, in pass-and-play and at an online table
(host and guest), through the real controllers."""

from __future__ import annotations

import random
import re

import pytest

from game import GameError, new_game
from game.web.runtime import online_door as ol
from game.web.model import handover
from game.web.online import table as ot
from game.web.runtime.online_door import Decide
from game.web.model import session as ts
from game.web.model.replay import replay_states
from game.web.draw.tables import jekyll_vs_hyde as jvh
from tests.online_kit import CARD_TOKEN
from tests.page_kit import deal, make_page
from tests.test_online_play_page import Pages, click_a_legal_action


def choose(ctrl, action: str) -> None:
    """The person's clicks: each card of `action`, then the confirm button."""
    for card in jvh.parts(action):
        ctrl.on_table(ts.Pick(card))
    ctrl.command("confirm", {})


def shown(screen) -> str:
    return "".join(str(region) for region in screen.last.regions.values())


def cards_in(text: str) -> set[str]:
    return set(CARD_TOKEN.findall(text))


def test_the_engine_offers_ahead_what_it_asks_for_once_the_other_has_chosen() -> None:
    """Every exchange and green swap of random games: Hyde's `ahead` while
    Jekyll chooses is what the engine offers him once Jekyll has; an action
    `check_ahead` lets pass is one `apply` takes then, and one it refuses is
    refused with the same code."""
    rng = random.Random(9)
    checked = 0
    for seed in range(6):
        state = new_game("jekyll-vs-hyde", {}, seed)
        while not state.over:
            if state.phase in ("give", "swap") and state.to_act == "J":
                ahead = state.observation("H")["ahead"]
                assert ahead and state.observation("J")["ahead"] == []
                asked = state.apply(rng.choice(state.legal_actions()))
                assert asked.legal_actions() == ahead
                for action in (rng.choice(ahead), f"{state.phase}:R1,R2,R3"):
                    try:
                        asked.apply(action)
                    except GameError as refused:
                        with pytest.raises(GameError) as early:
                            state.check_ahead("H", action)
                        assert early.value.code == refused.code
                    else:
                        state.check_ahead("H", action)
                checked += 1
                state = asked
            else:
                assert state.observation("H")["ahead"] == []
            state = state.apply(rng.choice(state.legal_actions()))
    assert checked > 18


def test_against_a_bot_hyde_chooses_while_jekyll_thinks() -> None:
    ctrl, screen, thinking = make_page()
    deal(ctrl, "jekyll-vs-hyde", 21, jvh_role="H", jvh_bot="random")
    s = ctrl.session
    assert s.state.to_act == "J" and thinking.waiting  # the bot thinks...
    assert 'id="jvh-pick"' in shown(screen)  # ... and Hyde's cards are his to pick
    action = s.ahead[0]
    choose(ctrl, action)
    s = ctrl.session
    assert s.held == ("H", action) and not screen.flashed
    assert s.save["transcript"]["actions"] == [] and s.state.to_json()["pending"]["H"] is None
    assert "You have chosen" in str(screen.last.regions["screen"])
    while not ctrl.session.save["transcript"]["actions"]:
        assert thinking.run(limit=1)  # the bot gives: the held choice goes at once
    s = ctrl.session
    given = s.save["transcript"]["actions"]
    assert len(given) == 2 and given[1] == action and s.held is None
    assert s.observation["exchange"]["gave"] == list(jvh.parts(action))
    ctrl.on_table(ts.Undo())  # Hyde's own choice, taken back: he is asked again
    assert ctrl.session.save["transcript"]["actions"] == given[:1]
    assert ctrl.session.human_to_act and ctrl.session.held is None


def test_a_choice_the_engine_will_not_take_is_explained_before_it_is_held() -> None:
    seed = next(n for n in range(100)
                if new_game("jekyll-vs-hyde", {}, n).must_give_potion(1))
    ctrl, screen, _ = make_page()
    deal(ctrl, "jekyll-vs-hyde", seed, jvh_role="H", jvh_bot="random")
    hand = ctrl.session.observation["hand"]
    plain = next(c for c in hand if "+" not in c)
    ctrl.on_table(ts.Pick(plain))  # round 1 gives one card: a colour is not enough
    assert ctrl.session.held is None
    assert "Potion" in screen.flashed[-1] and "at least one" in screen.flashed[-1]


def test_pass_and_play_hyde_chooses_first_and_the_device_goes_round_once() -> None:
    """Ann (Hyde) has the device when the exchange opens: she chooses, hands
    the device to Bob (Jekyll), who sees nothing of her choice; his choice
    completes the exchange and he leads, with no hand-over back to Ann."""
    ctrl, screen, _ = make_page()
    deal(ctrl, "jekyll-vs-hyde", 21, jvh_role="H", jvh_bot="person", jvh_name="Ann",
         jvh_name_other="Bob")
    s = ctrl.session
    assert s.at_screen == "H" and s.state.to_act == "J" and s.handover_due is None
    assert screen.last.body["view"] == "table" and 'id="jvh-pick"' in shown(screen)
    held = s.ahead[-1]
    anns = set(s.observation["hand"])
    choose(ctrl, held)
    assert ctrl.session.held == ("H", held)
    assert screen.last.body["view"] == "handover" and "data-card" not in shown(screen)
    ctrl.command("handover-ready", {})
    s = ctrl.session
    assert s.at_screen == "J" and s.human_to_act and not s.can_undo
    bobs_view = shown(screen)
    assert 'id="jvh-pick"' in bobs_view and not cards_in(bobs_view) & anns
    log = handover.seen_by(s.save["log"], "J")
    assert not cards_in(str(log)) & anns
    choose(ctrl, s.state.legal_actions()[0])
    s = ctrl.session
    transcript = s.save["transcript"]
    assert transcript["actions"][1] == held and s.state.phase == "play"
    assert s.at_screen == "J" and s.handover_due is None and not s.can_undo
    got = s.observation["exchange"]["got"]
    assert got == list(jvh.parts(held)) and set(got) <= cards_in(shown(screen))
    # The log is the one the transcript replays to (a reload rebuilds the same).
    rebuilt = [e for past in replay_states(transcript)
               for e in handover.log_events(past, s.save["setup"])]
    assert s.save["log"] == rebuilt


def online_duel(role: str) -> tuple[Pages, object]:
    """A duel at an online table: the host plays `role`, Ann the other seat."""
    pages = Pages("jekyll-vs-hyde", {"jvh_role": role, "jvh_bot": "random", "seed": "21"})
    pages.host.command("online-open", {})
    guest, _ = pages.guest("Ann")
    guest.command("online-join", {"name": "Ann"})
    pages.net.pump()
    pages.host.command("online-start", {})
    pages.net.pump()
    return pages, guest


def test_an_online_guest_chooses_while_the_host_does_and_sends_it_when_asked() -> None:
    pages, guest = online_duel("J")
    ann = guest.page.online
    assert not ann.guest.my_turn and ot.ahead(ann.seat, ann.guest)
    held = ot.ahead(ann.seat, ann.guest)[0]
    for card in jvh.parts(held):
        ol.event(guest, Decide(None, card))
    guest.command("online-confirm", {})
    pages.net.pump()
    ann = guest.page.online
    assert ann.seat.held == held and pages.net.decisions() == 0  # nothing sent yet
    assert "You have chosen" in pages.screen_html(pages.guests[0][1])
    host = pages.host.session
    assert host.state.to_json()["pending"]["H"] is None
    mine = host.state.legal_actions()[0]
    pages.host.on_table(ts.Act(mine))
    pages.net.pump()
    assert pages.host.session.save["transcript"]["actions"] == [mine, held]
    ann = guest.page.online
    assert pages.net.decisions() == 1 and ann.seat.held is None
    assert ann.guest.observation["exchange"]["gave"] == list(jvh.parts(held))


def test_an_online_host_chooses_while_the_guest_does_and_the_guest_sees_none_of_it() -> None:
    pages, guest = online_duel("H")
    s = pages.host.session
    held = s.ahead[0]
    choose(pages.host, held)
    assert pages.host.session.held == ("H", held)
    sent_before = len(pages.net.sent)
    click_a_legal_action(guest, random.Random(1))
    to_guest = [text for text in pages.net.sent[:sent_before] if '"type":"decide"' not in
                re.sub(r"\s", "", text)]
    assert to_guest and not cards_in(" ".join(to_guest)) & set(jvh.parts(held))
    pages.net.pump()
    s = pages.host.session
    actions = s.save["transcript"]["actions"]
    assert len(actions) == 2 and actions[1] == held and s.state.phase == "play"
    room = pages.host.page.online.room
    assert room.transcript["actions"] == actions and room.state is s.state
    ann = guest.page.online.guest
    assert ann.observation["exchange"]["got"] == list(jvh.parts(held))
