"""Games as files (issue 16, item 3), the part that runs in CPython:
`game.web.model.files` reads a file with the engine's own checks and says what is
wrong and where, in every language; a game downloaded from a save replays
(`python -m game replay`) to the save's state; continuing a file from step N
gives the position of its first N actions.

`malformed_files()` is shared with tests/browser/test_files.py, which opens
each of them in the page.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from game import GAMES, new_game
from game.core.state import State
from game.core.transcript import MAX_BYTES, Transcript
from game.web.model import saves
from game.web.model.files import (FileProblem, continue_save, download_name, players_text, read_file,
                            result_text, transcript_of, transcript_text)
from game.web.draw.i18n import LANGUAGES, Translator
from tests.page_kit import random_transcript

EN = Translator("en")


def _text(data: object, indent: int | None = None) -> bytes:
    return json.dumps(data, indent=indent).encode()


def malformed_files() -> list[tuple[str, bytes, str]]:
    """(file name, its bytes, the whole English message the page must show)."""
    werner = random_transcript("jekyll-hyde", 7, 30)
    duel = random_transcript("jekyll-vs-hyde", 7, 20)
    pretty = _text(werner, indent=1)
    cut = pretty[:len(pretty) // 2]  # the text breaks off: where json says it does
    try:
        json.loads(cut)
    except json.JSONDecodeError as e:
        cut_at = f"Line {e.lineno}, column {e.colno}"
    illegal = dict(werner, actions=werner["actions"][:12] + ["H3"])
    # The 13th move in Werner's game 7 needs a Jekyll card: Murder (H3) is Hyde's.
    assert new_game("jekyll-hyde", werner["options"], 7).to_json()["hands"] is not None
    hands = new_game("jekyll-hyde", werner["options"], 7).to_json()["hands"]
    unknown_card = {"game": "jekyll-hyde", "deals": [{"hands": {
        **hands, "0": ["ZZ"] + hands["0"][1:]}}]}
    huge = b'{"game": "dracula", "actions": [' + b'"x", ' * (MAX_BYTES // 5) + b'"x"]}'
    return [
        ("empty.json", b"", "The file is empty."),
        ("blank.json", b"  \n\n ", "The file is empty."),
        ("prose.json", b"Dear diary, today I won.",
         "Line 1, column 1: The JSON breaks off or has a mistake here."),
        ("truncated.json", cut, f"{cut_at}: The JSON breaks off or has a mistake here."),
        ("list.json", b"[1, 2, 3]", "It is not a game transcript: that is a JSON object with "
                                    "“game” and “actions”."),
        ("number.json", b"42", "It is not a game transcript: that is a JSON object with "
                               "“game” and “actions”."),
        ("chess.json", _text(dict(werner, game="chess")),
         "In “game”: 'chess' is not a game of this site."),
        ("no-game.json", _text({"actions": ["@3"]}),
         "In “game”: null is not a game of this site."),
        ("unknown-card.json", _text(unknown_card),
         "In “deals[0].hands.0[0]”: 'ZZ' is not a card of this game."),
        ("unknown-move.json", _text(dict(duel, actions=duel["actions"][:4] + ["Z9"])),
         "Step 5 (“Z9”): “Z9” is not a move of this game."),
        ("illegal.json", _text(illegal),
         "Step 13 (“H3”): You need a Jekyll card; Murder is not one."),
        ("huge.json", huge, "The file is larger than 1 MB: it is not a game of this site."),
        ("nested.json", b"[" * 50_000 + b"]" * 50_000, "It is nested too deeply to be a game."),
        ("future-save.json", _text({"format": saves.FORMAT, "version": 3, "game": "dracula",
                                    "transcript": {"game": "dracula"}}),
         "It is a save of another version of this site (version 3); this one reads version 2."),
        ("other-format.json", _text({"format": "chess/pgn", "moves": []}),
         "It is a file of another kind ('chess/pgn'), not a game of this site."),
        ("save-without-transcript.json", _text({"format": saves.FORMAT, "version": 1,
                                                "game": "dracula", "setup": {"me": 0}}),
         "In “transcript”: This part is missing."),
        ("picture.json", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00",
         "It is not UTF-8 text (byte 0)."),
        ("utf16.json", b"\xff\xfe" + json.dumps(werner).encode("utf-16-le"),
         "It is UTF-16 text; this site reads UTF-8: save the file again as UTF-8."),
        ("seed-as-text.json", _text(dict(werner, seed="7")),
         "In “seed”: '7' does not fit here."),
        ("actions-as-text.json", _text(dict(werner, actions="@3 HF4")),
         "In “actions”: '@3 HF4' does not fit here."),
        ("unknown-key.json", _text(dict(werner, player=1)),
         "In “player”: A transcript has no such key."),
        ("bad-option.json", _text(dict(werner, options={"players": 5})),
         "In “options.players”: This option cannot take that value."),
        ("not-a-player.json", _text(dict(werner, me=7)),
         "In “me”: 7 does not play in this game."),
        # Dracula's id over Werner's moves: the first move is not Dracula's.
        ("wrong-game-id.json", _text(dict(werner, game="dracula", options={})),
         f"Step 1 (“{werner['actions'][0]}”): That is not a move of this game."),
    ]


@pytest.mark.parametrize("name, raw, message", malformed_files(),
                         ids=[case[0] for case in malformed_files()])
def test_a_malformed_file_gets_one_message_naming_what_and_where(name, raw, message):
    with pytest.raises(FileProblem) as caught:
        read_file(raw, name)
    assert caught.value.text(EN) == message


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_in_every_language_with_its_place(lang):
    t = Translator(lang)
    for name, raw, _ in malformed_files():
        with pytest.raises(FileProblem) as caught:
            read_file(raw, name)
        problem = caught.value
        text = problem.text(t)
        assert "{" not in text and "file." not in text, (name, text)
        if "action_index" in problem.params:  # the step is named in every language
            assert str(problem.params["action_index"] + 1) in text, (name, text)
        if lang != "en" and name not in ("huge.json",):
            assert text != problem.text(EN) or name == "nested.json", (name, text)


def test_the_same_file_read_by_the_command_line_fails_at_the_same_step(tmp_path):
    """The page's step is the command line's action index plus one."""
    name, raw, _ = next(case for case in malformed_files() if case[0] == "illegal.json")
    path = tmp_path / name
    path.write_bytes(raw)
    run = subprocess.run([sys.executable, "-m", "game", "replay", str(path)],
                         capture_output=True, text=True)
    assert run.returncode == 2 and run.stderr.startswith("error: action 12 'H3'")


@pytest.mark.parametrize("game", list(GAMES))
def test_a_downloaded_game_replays_to_the_saves_state(game, tmp_path):
    """What "Download this game" writes, read by `python -m game replay`."""
    for steps in (25, None):  # in progress, and finished
        data = random_transcript(game, 11, steps)
        state = Transcript.from_json(data).replay()
        save = {"game": game, "setup": {"me": new_game(game).identity(0) if game != "jekyll-vs-hyde"
                                        else "H", "bots": {}},
                "transcript": {k: data[k] for k in ("game", "options", "seed", "actions")},
                "state": state.to_json(), "log": []}
        path = tmp_path / download_name(game, 11, "2026-11-25")
        path.write_text(transcript_text(save), encoding="utf-8")
        run = subprocess.run([sys.executable, "-m", "game", "replay", str(path)],
                             capture_output=True, text=True, check=True)
        assert json.loads(run.stdout) == state.to_json()
        opened = read_file(path.read_bytes(), path.name)
        assert opened.me == save["setup"]["me"] and opened.steps == len(data["actions"])
        assert transcript_of(save)["me"] == save["setup"]["me"]
    assert path.name == f"{game}-deal-11-2026-11-25.json"


def _replayed(data: dict, steps: int) -> State:
    return Transcript.from_json(dict(data, actions=data["actions"][:steps])).replay()


@pytest.mark.parametrize("game, me", [("jekyll-hyde", 2), ("jekyll-vs-hyde", "J"),
                                      ("dracula", 1)])
def test_continuing_from_step_n_is_the_position_of_the_first_n_actions(game, me):
    data = random_transcript(game, 5, 40, me=me)
    opened = read_file(_text(data), "game.json")
    for step in (0, 17, 40):
        save, state = continue_save(opened, step, lambda who: "random")
        assert state.to_json() == _replayed(data, step).to_json()
        assert save["transcript"]["actions"] == data["actions"][:step]
        assert save["setup"]["me"] == me and str(me) not in save["setup"]["bots"]
        assert set(save["setup"]["bots"].values()) == {"random"}
        # The shell's own reader accepts it: it is a save like any other.
        loaded, again = saves.load(saves.dump({**save, "state": state.to_json()}))
        assert again.to_json() == state.to_json() and loaded["from_file"] is True


def test_a_save_of_this_site_opens_as_its_transcript_and_its_player():
    data = random_transcript("jekyll-vs-hyde", 3, 12)
    state = Transcript.from_json(data).replay()
    save = saves.dump({"game": "jekyll-vs-hyde", "setup": {"me": "J", "bots": {"H": "random"}},
                       "transcript": data, "state": state.to_json(), "log": []})
    opened = read_file(save.encode(), "jhg.save.json")
    assert opened.me == "J" and opened.final.to_json() == state.to_json()
    broken = json.loads(save)
    broken["transcript"]["actions"][3] = "R9"
    with pytest.raises(FileProblem) as caught:
        read_file(json.dumps(broken).encode(), "x.json")
    assert caught.value.text(EN).startswith("Step 4 (“R9”): ")


def test_the_panel_says_who_plays_and_who_won():
    data = random_transcript("dracula", 9, me=1)
    opened = read_file(_text(data), "d.json")
    state = opened.final
    assert state.over
    assert players_text(opened, EN) == "Player 1, Player 2 (you)"
    winner = {"0": "Player 1 won", "1": "Player 2 won", None: "A draw"}[state.winner]
    assert result_text(opened, EN) == winner
    werner = read_file(_text(random_transcript("jekyll-hyde", 9, 10)), "w.json")
    assert players_text(werner, EN) == "Doris (you), Adam, Betty, Christian"
    assert result_text(werner, EN) == "In progress"


def test_a_file_with_its_own_deals_continues_and_takes_back_on_those_deals():
    """Undo replays the save's transcript: with the file's deals, not the seed's."""
    from game.web.model.undo import take_back

    dealt = new_game("jekyll-vs-hyde", None, 99).to_json()
    # The seed's first deal, with Jekyll's and Hyde's hands exchanged.
    deal = {"J": dealt["hands"]["H"], "H": dealt["hands"]["J"], "aside": dealt["aside"]}
    data = {"game": "jekyll-vs-hyde", "seed": 1, "deals": [deal], "me": "J", "actions": []}
    state = Transcript.from_json(data).start()
    while state.to_act != "J" or len(data["actions"]) < 3:
        data["actions"].append(state.legal_actions()[0])
        state = state.apply(data["actions"][-1])
    data["actions"].append(state.legal_actions()[0])  # the person's decision, to take back
    opened = read_file(_text(data), "dealt.json")
    save, now = continue_save(opened, opened.steps, lambda who: "random")
    assert save["transcript"]["deals"] == [deal]
    rewind = take_back(save["transcript"], "J", now)
    assert rewind.state.to_json() == state.to_json()


def test_a_deeply_nested_save_is_refused_before_it_is_parsed():
    with pytest.raises(saves.BrokenSave, match="nested too deeply"):
        saves.load("[" * 100_000 + "]" * 100_000)
    assert saves.game_of('{"game": "dracula", "x": ' + "[" * 100_000 + "]" * 100_000 + "}") \
        is None


def test_damaged_files_open_or_get_one_message(request):
    """The fuzzer's damaged transcripts (and damaged texts of them), as files:
    each opens (and continues from some step) or gets its one message, in
    every language; nothing else is ever raised."""
    from tests.test_fuzz import damage, damage_text, run, transcripts

    languages = [Translator(lang) for lang in LANGUAGES]

    def case(rng: random.Random, values: list) -> bool:
        doc = damage(rng, values, json.loads(rng.choice(transcripts())))
        try:
            text = json.dumps(doc)
        except ValueError:  # a number str() refuses: a file cannot hold it either
            text = "[]"
        raw = damage_text(rng, values, text).encode("utf-8", "surrogatepass")
        try:
            opened = read_file(raw, "damaged.json")
        except FileProblem as problem:
            for t in languages:
                message = problem.text(t)
                assert message and "{" not in message.replace("{\"", ""), message
            return False
        assert players_text(opened, EN) and result_text(opened, EN)
        try:
            save, state = continue_save(opened, rng.randint(0, opened.steps),
                                        lambda who: "random")
        except FileProblem as problem:  # a deal number the page cannot keep in a save
            assert problem.code == "seed_out_of_range" and not 0 <= opened.transcript.seed < 2**63
            return True
        assert saves.load(saves.dump({**save, "state": state.to_json()}))[1].to_json() == \
            state.to_json()
        return True

    run(request, "transcripts", case)


def test_a_file_with_a_deal_number_the_page_cannot_save_opens_but_does_not_continue():
    for seed in (-1, 2**63, 10**99):
        opened = read_file(_text(dict(random_transcript("dracula", 2, 0), seed=seed)), "far.json")
        assert opened.final.to_json()["seed"] == seed  # it replays (for a review)
        with pytest.raises(FileProblem) as caught:
            continue_save(opened, 0, lambda who: "random")
        assert caught.value.text(EN) == (
            "In “seed”: This deal number cannot be continued here: this site deals numbers "
            f"from 0 to {2**63 - 1}.")


@pytest.mark.parametrize("game, options, me, players, won", [
    ("jekyll-hyde", {"players": 4, "target": 100}, 0, "Doris (you), Adam, Betty, Christian",
     {"jekyll": "The Jekyll team won", "hyde": "The Hyde team won"}),
    ("jekyll-hyde", {"players": 3, "target": 100}, "Betty", "Christian, Adam, Betty (you)",
     {name: f"{name} won" for name in ("Adam", "Betty", "Christian")}),
    ("jekyll-vs-hyde", {"variant": "return-match"}, "H", "Hyde (you), Jekyll",
     {"J": "Jekyll won", "H": "Hyde won", None: "A draw"}),
])
def test_each_game_says_its_players_and_its_winner_in_its_own_words(game, options, me, players,
                                                                     won):
    """Werner's seats by name and a team's win, the three-player game's
    players by name, the duel's roles: the words each game's table gives."""
    state, rng, actions = new_game(game, options, 3), random.Random(3), []
    while not state.over:
        actions.append(rng.choice(state.legal_actions()))
        state = state.apply(actions[-1])
    data = {"game": game, "options": options, "seed": 3, "actions": actions, "me": me}
    opened = read_file(_text(data), "g.json")
    assert players_text(opened, EN) == players
    assert result_text(opened, EN) == won[opened.final.winner]


# -- continuing a file through the real controller (the chooser and the panel's keys: -------
# tests/browser/test_files.py)

def test_a_file_of_a_game_without_a_save_continues_without_a_question():
    from game.web.model.page import FileChosen
    from tests.page_kit import deal, items, make_page

    ctrl, screen, _ = make_page(lang="de")
    deal(ctrl, "jekyll-hyde", 7)  # a Werner game; the file is Dracula's
    werner = items(ctrl)[saves.key("jekyll-hyde")]
    data = random_transcript("dracula", 4, 6)
    ctrl.perform(FileChosen("game", "dracula.json", 99, _text(data)))
    ctrl.command("file-continue", {"step": "6"})
    assert not ctrl.page.file.confirming and ctrl.page.overlay == "none"
    assert ctrl.state.game_id == "dracula" and ctrl.page.view == "table"
    assert items(ctrl)[saves.key("jekyll-hyde")] == werner
    stored = json.loads(items(ctrl)[saves.key("dracula")])
    assert stored["transcript"]["actions"][:6] == data["actions"]


def test_a_file_continued_during_a_lesson_is_a_real_game():
    """Whatever was on the table (here a lesson, never saved) gives way entirely."""
    from game.web.model.page import FileChosen, SetupChanged
    from tests.page_kit import items, make_page

    ctrl, screen, _ = make_page()
    ctrl.dispatch(SetupChanged({"game": "dracula"}))
    ctrl.command("lesson", {})
    assert ctrl.page.lesson and ctrl.session.coach is not None
    data = random_transcript("dracula", 4, 6)
    ctrl.perform(FileChosen("game", "dracula.json", 99, _text(data)))
    ctrl.command("file-continue", {"step": "6"})
    assert not ctrl.page.lesson and ctrl.session.coach is None
    assert 'id="coach"' not in screen.last.regions["side"] + screen.last.regions["screen"]
    stored = json.loads(items(ctrl)[saves.key("dracula")])
    assert stored["transcript"]["actions"][:6] == data["actions"]
