"""The live region of game.web.front.live on a document (tests/fake_dom.py)."""

from game.web.front.live import LIVE_KEPT, Live
from tests.fake_dom import Document

PAGE = '<section id="screen"><p id="prompt">Play   a card</p></section><div id="live"></div>'


def lines_of(events: list[dict[str, str]]) -> list[str]:
    return [e["said"] for e in events]


def bursts(doc: Document) -> list[list[str]]:
    live = doc.getElementById("live")
    assert live is not None
    return [[p.textContent for p in burst.querySelectorAll("p")] for burst in live.querySelectorAll("div")]


def test_each_event_is_read_once_then_the_prompt_of_the_persons_turn() -> None:
    doc = Document(PAGE)
    live = Live(doc)
    log = [{"said": "Ann plays <b>J1</b>."}]
    live.announce(log, lines_of, my_turn=True)
    live.announce(log, lines_of, my_turn=True)  # a redraw with no news: nothing
    log.append({"said": "Bob plays H2."})
    live.announce(log, lines_of, my_turn=False)
    assert bursts(doc) == [["Ann plays <b>J1</b>.", "Play a card"], ["Bob plays H2."]]


def test_an_undo_that_cut_the_log_reads_what_comes_after_it() -> None:
    doc = Document(PAGE)
    live = Live(doc)
    live.announce([{"said": "a"}, {"said": "b"}], lines_of, my_turn=False)
    live.announce([{"said": "a"}], lines_of, my_turn=False)
    live.announce([{"said": "a"}, {"said": "c"}], lines_of, my_turn=False)
    assert bursts(doc) == [["a", "b"], ["c"]]


def test_the_region_keeps_its_last_bursts_and_is_hushed_for_a_handover() -> None:
    doc = Document(PAGE)
    live = Live(doc)
    for i in range(LIVE_KEPT + 3):
        live.say([f"line {i}"])
    assert len(bursts(doc)) == LIVE_KEPT and bursts(doc)[-1] == [f"line {LIVE_KEPT + 2}"]
    live.hush()
    assert bursts(doc) == []


def test_the_coach_is_read_once_for_each_new_word() -> None:
    doc = Document(PAGE + '<div id="coach">Lead   high.</div>')
    live = Live(doc)
    live.coach()
    live.coach()
    doc.getElementById("coach").textContent = "Now follow."
    live.coach()
    assert bursts(doc) == [["Lead high."], ["Now follow."]]
