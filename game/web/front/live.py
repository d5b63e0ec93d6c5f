"""The polite live region `#live`: what a screen reader reads out, each
thing once — the log's new events (as the person at the screen sees them),
then the prompt of their turn, and a lesson's coach. (MicroPython's subset:
see game.web.front.)"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

LIVE_KEPT = 8  # bursts kept in the live region (older ones are read already)


class Heard:
    """What the live region has read out: the log's first `events` entries,
    the prompt of the person's turn ("" while it is not their turn), and
    the coach's last words (a lesson)."""

    def __init__(self, events: int = 0) -> None:
        self.events = events
        self.prompt = ""
        self.coach = ""


def words(el: "Any") -> str:
    """An element's text as it is read: its words, one space apart."""
    return " ".join(str(el.textContent).split()) if el is not None and el else ""


class Live:
    """The live region of one document. `scroll_nearest`: the options
    object `{block: "nearest"}` in the browser's own kind."""

    def __init__(self, doc: "Any", scroll_nearest: "Any" = None) -> None:
        self.doc = doc
        self.scroll_nearest = scroll_nearest
        self.heard = Heard()

    def q(self, sel: str) -> "Any":
        el = self.doc.querySelector(sel)
        return None if el is None or not el else el

    def say(self, lines: "list[str]") -> None:
        """One burst of lines, each a paragraph of plain text."""
        live = self.q("#live")
        if live is None or not lines:
            return
        burst = self.doc.createElement("div")
        for line in lines:
            p = self.doc.createElement("p")
            p.textContent = line
            burst.append(p)
        live.append(burst)
        while live.childElementCount > LIVE_KEPT:
            live.firstElementChild.remove()

    def announce(self, log: "list[dict[str, Any]]",
                 lines_of: "Callable[[list[dict[str, Any]]], list[str]]", my_turn: bool) -> None:
        """Read out the events the log gained since the last time (`lines_of`
        turns them into the person's own words), then the prompt if it is the
        person's turn: one burst per redraw that has news, none on a redraw that has none."""
        fresh = log[min(self.heard.events, len(log)):]  # the log may have been cut (an undo)
        self.heard.events = len(log)
        self.tell(lines_of(fresh), my_turn)

    def tell(self, lines: "list[str]", my_turn: bool) -> None:
        """Read out `lines` (the news), then the prompt if it is the person's
        turn and it is news or new."""
        prompt = words(self.q("#screen #prompt")) if my_turn else ""
        if prompt and (lines or prompt != self.heard.prompt):
            lines = list(lines) + [prompt]  # after the events: what the person is to do now
        self.heard.prompt = prompt
        self.say(lines)

    def hush(self) -> None:
        """The device goes to another person: nothing of the game stays to be read."""
        live = self.q("#live")
        if live is not None:
            live.textContent = ""
        self.heard.prompt = ""

    def coach(self) -> None:
        """The coach's words, read out once each (after the table's news)."""
        bubble = self.q("#coach")
        said = words(bubble)
        if said and said != self.heard.coach and self.q("#live") is not None:
            self.say([said])
            # New words: on a phone the bubble sits under the hand, perhaps below the fold.
            bubble.scrollIntoView(self.scroll_nearest)
        self.heard.coach = said
