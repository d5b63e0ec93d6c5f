"""The page's draws as frames (game.web.draw.frames) applied by its front
(game.web.front.screen) to a document (tests/fake_dom.py)."""

from __future__ import annotations

from game.web.model import session as ts
from tests.fake_dom import Document
from tests.front_kit import dealt
from tests.page_kit import my_turn


def bursts(doc: Document) -> list[list[str]]:
    return [[p.textContent for p in b.querySelectorAll("p")] for b in doc.querySelectorAll("#live div")]


def test_a_frame_holds_only_the_regions_that_changed_and_the_document_matches_the_draw() -> None:
    ctrl, screen, thinking = dealt(jvh_role="J")
    my_turn(ctrl, thinking)
    assert screen.doc.body.getAttribute("data-view") == "table"
    assert screen.doc.body.getAttribute("data-to-act") == "me"
    for name, markup in screen.last.regions.items():
        assert screen.doc.getElementById(name).innerHTML.count("data-part") \
            == markup.count("data-part"), name
    ctrl.redraw()
    assert screen.sent[-1]["regions"] == {}, "a redraw with nothing new sends no region"


def test_the_news_is_read_once_then_the_prompt_and_a_played_card_keeps_the_focus_in_the_hand() -> None:
    ctrl, screen, thinking = dealt(jvh_role="J")
    s = my_turn(ctrl, thinking)
    doc = screen.doc
    read = bursts(doc)
    assert read and read[-1][-1] == " ".join(doc.getElementById("prompt").textContent.split())
    cards = [el for el in doc.querySelectorAll("#screen .hand [data-part], #screen .hand [data-act]")
             if el.getAttribute("data-skip") != "true"]
    assert len(cards) >= 2
    screen.front.keys.focus(cards[-1])
    before = len(bursts(doc))
    ctrl.on_table(ts.Act(s.state.legal_actions()[-1]))
    my_turn(ctrl, thinking)
    assert len(bursts(doc)) > before, "the card played is read out"
    assert doc.activeElement.closest("#screen") is not None, "the focus stays on the table"


def test_the_keys_panel_takes_the_focus_and_gives_it_back_when_it_closes() -> None:
    ctrl, screen, thinking = dealt(jvh_role="J")
    my_turn(ctrl, thinking)
    doc = screen.doc
    hint = doc.querySelector('#screen [data-cmd="hint"]')
    screen.front.keys.focus(hint)
    screen.front.note_opener()
    ctrl.command("keys", {})
    assert doc.activeElement.getAttribute("data-cmd") == "keys-close"
    assert not doc.getElementById("modal").hidden or doc.querySelector("#keys") is not None
    ctrl.command("keys-close", {})
    assert doc.activeElement.getAttribute("data-cmd") == "hint"


def test_a_hint_redraws_only_the_tools_and_the_tools_come_with_every_new_screen() -> None:
    ctrl, screen, thinking = dealt(jvh_role="J")
    s = my_turn(ctrl, thinking)
    thinking.drop()
    ctrl.command("hint", {})  # thinking...
    asked = screen.sent[-1]["regions"]
    assert set(asked) == {"tools"} and 'aria-busy="true"' in asked["tools"]
    thinking.run(limit=1)  # ...and its answer
    answered = screen.sent[-1]["regions"]
    assert set(answered) == {"tools"}
    action = ctrl.session.fresh_hint.action
    assert screen.doc.getElementById("hint-text").getAttribute("data-action") == action
    # Every new screen's markup holds an empty #tools: the tools are sent with
    # it, even where they read as before (a refusal under the table), and fill it.
    since = len(screen.sent)
    ctrl.on_table(ts.Act(s.state.legal_actions()[0]))
    my_turn(ctrl, thinking)
    ctrl.on_table(ts.Act("nonsense"))
    last_tools, resent_unchanged = answered["tools"], 0
    for frame in screen.sent[since:]:
        regions = frame["regions"]
        if "screen" in regions:
            assert "tools" in regions
            resent_unchanged += regions["tools"] == last_tools
        last_tools = regions.get("tools", last_tools)
    assert resent_unchanged
    assert screen.doc.getElementById("tools").innerHTML == last_tools
