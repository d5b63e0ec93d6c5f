"""Build the hand-made Dracula transcripts of this folder.

    PYTHONPATH=. python3 tests/transcripts/dracula/make_transcripts.py

Each coffin is given as it ends (9 codes, row by row, the nail in the
centre); the pack is then ordered so that the deal gives exactly those
cards, and the placements fill the cells in an order that always touches a
placed card: the four edges around the nail, then the corners.  Whole games
(the bonus examples) are found by a seeded search over arrangements.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

from game.dracula.cards import CELLS, DECK, deal_scores, line_values

HERE = Path(__file__).parent
ORDER = (1, 3, 5, 7, 0, 2, 6, 8)  # cells 01 10 12 21 00 02 20 22


def deal_cards(grid: list[str]) -> tuple[list[str], list[str]]:
    """The 9 cards of a deal in dealing order, and the 8 placements in play order."""
    cards = [grid[cell] for cell in ORDER] + [grid[4]]
    actions = [f"{grid[cell]}@{CELLS[cell]}" for cell in ORDER]
    return cards, actions


def transcript(grids: list[list[str]], way: str = "Q", first_dealer: int = 0,
               captions: list[str] | None = None) -> dict:
    deck: list[str] = []
    actions = [f"way:{way}"]
    for grid in grids:
        cards, moves = deal_cards(grid)
        deck += cards
        actions += moves
    deck += [c for c in DECK if c not in deck]
    data = {"game": "dracula", "options": {"first_dealer": first_dealer}, "seed": 0,
            "deals": [{"deck": deck}], "actions": actions}
    if captions:
        data["captions"] = captions
    return data


def scores(grid: list[str], ways=("Q", "K")) -> tuple[int, int]:
    return deal_scores(line_values(grid, ways[0]), line_values(grid, ways[1]))


def six_deals(target, rng: random.Random, tries: int = 20000) -> list[list[str]]:
    """Six coffins whose deal scores (player 0 rows, player 1 columns) make
    totals equal to `target`, a function of the per-deal scores that says yes."""
    for _ in range(tries):
        pack = list(DECK)
        rng.shuffle(pack)
        grids = [pack[9 * k:9 * k + 9] for k in range(5)]
        done = [scores(g) for g in grids]
        last = pack[45:]
        for nail in last:
            rest = [c for c in last if c != nail]
            for perm in itertools.islice(itertools.permutations(rest), 0, 40320, 7):
                grid = list(perm[:4]) + [nail] + list(perm[4:])
                if target(done + [scores(grid)]):
                    return grids + [grid]
    raise RuntimeError("no arrangement found")


def main() -> None:
    files: dict[str, dict] = {}
    files["multipliers.json"] = transcript(
        [["QH", "10H", "5H", "2S", "9C", "AS", "KD", "3H", "7C"]],
        captions=[{"en": "Player 0 deals first and chooses the way."},
                  {"en": "Player 0 scores the rows (the Queen's way), player 1 the columns "
                         "(the King's way). The nail is 9C."}]
                 + [None] * 7
                 + [{"en": "Rows: QH 10H 5H is (10+10+5) x5 = 125; 2S 9C AS is 12 x3 = 36 "
                           "(all black); KD 3H 7C is 10 x1 (a King is 0 in a row). "
                           "Columns: QH 2S KD 12, 10H 9C 3H 22 x2 = 44, 5H AS 7C 13. "
                           "Player 0 scores 125, player 1 44."}])
    files["multipliers-columns.json"] = transcript(
        [["KC", "4H", "9D", "7C", "QD", "2D", "3C", "6H", "JH"]])
    files["vampire-row-column.json"] = transcript(
        [["10S", "V1", "10C", "9S", "8S", "7S", "2D", "3D", "4H"]])
    files["vampire-nail.json"] = transcript(
        [["10H", "9H", "8H", "5C", "V2", "6C", "AS", "2S", "JS"]])
    files["two-vampires.json"] = transcript(
        [["V1", "9H", "8H", "5C", "7D", "6C", "AS", "2S", "V2"]])
    files["tie-second.json"] = transcript(
        [["AC", "KC", "AS", "5D", "3C", "10H", "9C", "6S", "4C"]])
    files["tie-third.json"] = transcript(
        [["4C", "KD", "AH", "6H", "5H", "5D", "AC", "QC", "KH"]])
    files["tie-all.json"] = transcript(
        [["4C", "7S", "10S", "7C", "7H", "3C", "2H", "3H", "8C"]])
    rng = random.Random(2009)
    grids = six_deals(lambda s: (sum(a for a, _ in s), sum(b for _, b in s)) == (245, 272), rng)
    files["bonus-245-272.json"] = transcript(grids)
    grids = six_deals(lambda s: sum(a for a, _ in s) == sum(b for _, b in s)
                      and max(a for a, _ in s) != max(b for _, b in s), rng)
    files["bonus-tie-break.json"] = transcript(grids, first_dealer=1, way="K")
    grids = six_deals(lambda s: sum(a for a, _ in s) == sum(b for _, b in s)
                      and max(a for a, _ in s) == max(b for _, b in s), rng)
    files["draw.json"] = transcript(grids)
    for name, data in files.items():
        (HERE / name).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(name)


if __name__ == "__main__":
    main()
