# The prototype's Pyodide side, run by PyScript in a worker (split.html's
# <script type="py" worker name="engine">): the page's real controller, reducer,
# views, engine and bots, driven by plain-data messages from the main thread
# (main.py, MicroPython) and answering with region patches, also plain data.
# It never touches `window` or `document`: the calls go through `__export__`
# (async postMessage, no SharedArrayBuffer needed).
import asyncio
import json
import sys
import time

import js

# The snapshot (static/js/python.mjs) has already imported the session and the
# tables; a fresh start has not. Read before anything below imports them.
STARTED_FROM = "snapshot" if "game.web.session" in sys.modules else "fresh"
T0 = js.performance.now()  # ms since this worker was created

from game.web import session as ts  # noqa: E402
from game.web.controller import Controller  # noqa: E402
from game.web.drivers import NoLocks  # noqa: E402
from game.web.links import read_link  # noqa: E402
from game.web.storage import MemoryStorage  # noqa: E402
from game.web.views import news  # noqa: E402


def page_clock() -> float:
    """Now, in ms since the epoch: the main thread subtracts its own
    performance.timeOrigin to put the worker's moments on its clock."""
    return float(js.performance.timeOrigin + js.performance.now())


# split-direct.html's worker (direct-worker.mjs) posts what is drawn without a
# click at once; PyScript's worker cannot, and answers the long poll `later()`.
POST = getattr(js, "splitPush", None)


class WireScreen:
    """The Screen driver (game.web.drivers.Screen) of the worker: each draw
    becomes a message for the main thread holding only the regions whose
    markup changed since the last one sent, the dialog, <body>'s data, the
    live region's new lines, the focus and the motion asked for."""

    def __init__(self) -> None:
        self.sent: dict[str, str] = {}
        self.dialog: str | None = None
        self.read_out = 0
        self.out: list[dict] = []
        self.waiting: asyncio.Future | None = None
        self.pending_focus: list[str] = []
        self.moves = 0
        self.drawn_at = 0.0
        self.answering = False  # inside start() or act(): their answer carries the draws

    def draw(self, page, drawn) -> None:
        regions = {k: str(v) for k, v in drawn.regions.items() if self.sent.get(k) != str(v)}
        self.sent.update(regions)
        dialog = str(drawn.dialog.markup()) if drawn.dialog is not None else ""
        msg = {"title": drawn.title, "regions": regions, "body": dict(drawn.body),
               "lang": page.t.lang, "hinted": list(drawn.hinted[1])}
        if dialog != self.dialog:
            msg["dialog"] = dialog
            self.dialog = dialog
        said = news(page)
        if said is not None:
            log, lines_of, _mine = said
            fresh = log[min(self.read_out, len(log)):]
            self.read_out = len(log)
            msg["live"] = [str(line) for line in lines_of(fresh)]
        if self.moves:
            msg["moved"], self.moves = self.moves, 0
        self.push(msg)

    def push(self, msg: dict) -> None:
        if not self.out:  # when the first of the next answer's messages was drawn (run.py)
            self.drawn_at = page_clock()
        self.out.append(msg)
        if self.answering:
            return
        if POST is not None:
            POST(self.take())
        elif self.waiting is not None and not self.waiting.done():
            self.waiting.set_result(None)

    def take(self) -> str:
        out, self.out = self.out, []
        if self.pending_focus and out:
            out[-1]["focus"] = self.pending_focus[-1]
        self.pending_focus = []
        if out:
            out[-1]["drawn_at"] = self.drawn_at
        return json.dumps(out)

    def flash(self, message: str) -> None:
        self.push({"flash": message})

    def focus(self, selector: str) -> None:
        if self.answering or POST is None:
            self.pending_focus.append(selector)  # on the answer's last message
        else:
            self.push({"focus": selector})

    def moved(self, game, events, seat) -> None:
        self.moves += 1  # the main thread animates; the worker only says that something moved

    def still(self) -> None:
        pass

    def heard(self, events: int) -> None:
        self.read_out = events  # already read out (a game put on the table)

    def error(self, text: str) -> None:
        js.console.error(text)

    def download(self, name: str, text: str) -> None:
        self.push({"download": [name, text]})

    def choose_file(self, purpose: str) -> None:
        self.push({"choose_file": purpose})

    def forget_link(self) -> None:
        self.push({"forget_link": True})

    def review(self, host, transcript, me) -> None:
        self.push({"review": "not in the prototype"})


screen = WireScreen()
ctrl = None


def start(init_json: str) -> str:
    """The page is up: `init` is what only the main thread can read (the
    address's query, the browser's language, localStorage's items, the start
    screen's form and what was pressed before the worker was ready)."""
    global ctrl
    t = time.perf_counter()
    init = json.loads(init_json)
    from urllib.parse import parse_qsl

    link = read_link(parse_qsl(init["search"].lstrip("?"), keep_blank_values=True))
    store, tab_store = MemoryStorage(), MemoryStorage()
    store.items.update(init.get("storage", {}))
    lang = init.get("lang") or "en"
    ctrl = Controller(store, tab_store, screen, NoLocks(), link, lang)
    screen.answering = True
    try:
        ctrl.start(init.get("pending"), init.get("form"))
    finally:
        screen.answering = False
    out = json.loads(screen.take())
    out.append({"worker": {"from": STARTED_FROM, "python_at_ms": T0,
                           "start_ms": (time.perf_counter() - t) * 1000}})
    return json.dumps(out)


def handle(msg: dict) -> None:
    if "form" in msg:
        from game.web import page as pg

        ctrl.dispatch(pg.SetupChanged(msg["form"]))
    if "cmd" in msg:
        ctrl.command(msg["cmd"], msg.get("data", {}))
    elif "act" in msg:
        ctrl.guarded(lambda: ctrl.on_table(ts.Act(msg["act"])))
    elif "part" in msg:
        ctrl.guarded(lambda: ctrl.on_table(ts.Pick(msg["part"])))


def act(msg_json: str) -> str:
    """One DOM event as the main thread read it: a command (`data-cmd`, its
    data and the start screen's form) or a decision (`data-act`/`data-part`)."""
    t = js.performance.now()
    began = page_clock()
    msg = json.loads(msg_json)
    screen.answering = True
    try:
        handle(msg)
    finally:
        screen.answering = False
    out = json.loads(screen.take())
    # The action's time in the worker, and when it began and ended (run.py).
    out.append({"took": js.performance.now() - t, "python": [began, page_clock()]})
    return json.dumps(out)


async def later() -> str:
    """What was drawn without a click (a bot's move, a hint): the main thread
    asks again as soon as it has applied the answer (a long poll)."""
    while not screen.out:
        screen.waiting = asyncio.get_running_loop().create_future()
        await screen.waiting
    return screen.take()


def storage_items() -> str:
    """What the page would have written (the prototype keeps storage in the
    worker's memory; the real page must send each write to the main thread)."""
    return json.dumps(ctrl.keeper.store.items if ctrl is not None else {})


__export__ = ["start", "act", "later", "storage_items"]
