# The prototype's main thread, on MicroPython (split.html's <script type="mpy">):
# DOM events become plain-data messages for the Pyodide worker (worker.py),
# whose answers (region patches, the dialog, <body>'s data, the live region's
# lines, the focus) are applied here. Nothing of the game is decided here.
# Marks for the benchmark (run.py): performance.mark "split:mpy-up",
# "split:worker-ready"; window.splitTimes holds each action's hops (below, `hops`),
# window.splitBotTimes those of what the worker drew without a click.
import js

js.performance.mark("split:mpy-first-line")  # (what PyScript's own package costs: below)

import asyncio  # noqa: E402
import json  # noqa: E402

try:
    from pyscript import document, window, workers
    from pyscript.ffi import create_proxy
except ImportError:  # split-direct.html: MicroPython without PyScript (direct.mjs)
    document, window, workers = js.document, js.window, None

    def create_proxy(handler):
        return handler

window.performance.mark("split:mpy-up")
body = document.body
engine = None  # the worker's exports, once it is up
pending = []  # what was pressed before the worker was up: [("start"|"lesson")]
queue = []  # messages for the worker, in order
busy = [False]
took = [0.0]  # the last action's time in the worker (ms)
worker_times = {}  # the last answer's moments in the worker: "python" [start, end], "drawn_at"


def q(selector):
    return document.querySelector(selector)


def attr(el, name):
    value = el.getAttribute(name)
    return None if value is None else str(value)


def read_form():
    values = {}
    fields = document.querySelectorAll("#setup select, #setup input")
    for i in range(fields.length):
        el = fields.item(i)
        if str(el.type) == "checkbox":
            values[str(el.name)] = "on" if el.checked else ""
        else:
            values[str(el.name)] = str(el.value)
    return values


def apply(out_json):
    """The worker's answers, in order: patch what changed."""
    for msg in json.loads(out_json):
        for name, markup in msg.get("regions", {}).items():
            el = q("#" + name)
            if el is not None:
                el.innerHTML = markup  # markup made by game.web.html in the worker
        if "dialog" in msg:
            modal = q("#modal")
            modal.innerHTML = msg["dialog"]
            modal.hidden = not msg["dialog"]
        for name, value in msg.get("body", {}).items():
            body.setAttribute("data-" + name, value)
        if "title" in msg:
            document.title = msg["title"]
            document.documentElement.lang = msg["lang"]
        lines = msg.get("live")
        if lines:
            burst = document.createElement("div")
            for line in lines:
                p = document.createElement("p")
                p.textContent = line
                burst.append(p)
            q("#live").append(burst)
        if "focus" in msg:
            target = q(msg["focus"])
            if target is not None:
                target.focus()
        if "forget_link" in msg:
            window.history.replaceState(None, "", window.location.pathname)
        if "took" in msg:
            took[0] = msg["took"]
        for name in ("python", "drawn_at"):
            if name in msg:
                worker_times[name] = msg[name]
        if "worker" in msg:
            window.splitWorker = json.dumps(msg["worker"])


# Read through performance's JSON: MicroPython turns a JS number without a
# fraction into an int, and one this large (ms since the epoch) comes out wrong.
TIME_ORIGIN = float(json.loads(js.JSON.stringify(window.performance))["timeOrigin"])


def on_page_clock(epoch_ms):
    """A moment of the worker's (ms since the epoch) on this page's clock."""
    return epoch_ms - TIME_ORIGIN


def hops(marks, resumed):
    """One answer's way, in ms on this page's clock (run.py prints the gaps):
    `marks` (the click's timeStamp, the handler's start, the task's start...),
    direct.mjs's (posted, received and answered in the worker, arrived), the
    worker's Python's start and end, MicroPython resumed, the patches applied."""
    got = dict(marks)
    got["resumed"] = resumed
    got["applied"] = window.performance.now()
    if "python" in worker_times:
        got["py_start"], got["py_end"] = [on_page_clock(t) for t in worker_times.pop("python")]
    if "drawn_at" in worker_times:
        got["drawn"] = on_page_clock(worker_times.pop("drawn_at"))
    seen = getattr(window, "splitHops", None)  # split-direct.html only
    if seen is not None:
        for name in js.Object.keys(seen):  # posted, received, answered, arrived
            got[name] = getattr(seen, name)
        window.splitHops = None
    return js.JSON.parse(json.dumps(got))


def drain():
    """Send the next queued message (the page's actions are ordered: one at a
    time), from the event's own handler; its answer is applied by the
    promise's callback, which sends the next. No asyncio here: a task's first
    step and an awaited promise's resumption each wait for a setTimeout,
    behind whatever the main thread has queued (a frame, the next input)."""
    if busy[0] or not queue:
        return
    busy[0] = True
    msg, marks = queue.pop(0)
    marks["task"] = window.performance.now()

    def answered(answer):
        resumed = window.performance.now()
        try:
            apply(answer)
            window.splitTimes.push(hops(marks, resumed))
        finally:
            busy[0] = False
            drain()

    def failed(error):
        js.console.error("split: the worker failed", error)
        busy[0] = False
        drain()

    engine.act(json.dumps(msg)).then(create_proxy(answered), create_proxy(failed))


def send(msg, at, handler):
    """`at`: the event's timeStamp; `handler`: when its handler began."""
    if engine is None:
        if msg.get("cmd") in ("start", "lesson"):
            pending.append(msg["cmd"])  # dealt the moment the worker is up
            body.setAttribute("data-start-pending", "")
        return
    queue.append((msg, {"click": at, "handler": handler}))
    drain()


def on_click(evt):
    handler = window.performance.now()
    el = evt.target.closest("[data-cmd], [data-act], [data-part]")
    if el is None:
        return
    cmd = attr(el, "data-cmd")
    if cmd:
        if str(el.tagName) in ("SELECT", "INPUT", "OPTION"):
            return
        if cmd == "start":
            evt.preventDefault()  # handled here, not by the form's submit
        data = {}
        for key in ("game", "key", "panel"):
            value = attr(el, "data-" + key)
            if value is not None:
                data[key] = value
        msg = {"cmd": cmd, "data": data}
        if cmd in ("start", "lesson") and q("#setup") is not None:
            msg["form"] = read_form()
        send(msg, evt.timeStamp, handler)
        return
    act, part = attr(el, "data-act"), attr(el, "data-part")
    if act:
        send({"act": act}, evt.timeStamp, handler)
    elif part:
        send({"part": part}, evt.timeStamp, handler)


def on_submit(evt):
    handler = window.performance.now()
    evt.preventDefault()  # the start screen is a form: Enter starts the game
    if q("#setup") is not None and evt.target.closest("#setup"):
        send({"cmd": "start", "data": {}, "form": read_form()}, evt.timeStamp, handler)


def on_change(evt):
    handler = window.performance.now()
    el = evt.target
    cmd = attr(el, "data-cmd")
    if cmd == "setup-change" and engine is not None:
        send({"form": read_form()}, evt.timeStamp, handler)


def storage_items():
    items = {}
    try:
        store = window.localStorage
        for i in range(store.length):
            key = str(store.key(i))
            items[key] = str(store.getItem(key))
    except Exception:
        pass  # storage refused: the worker keeps its own in memory
    return items


def pushed(answer):
    """What the worker drew without a click (bots, hints), as it posted it
    (split-direct.html: direct.mjs calls this from the message's handler)."""
    resumed = window.performance.now()
    apply(answer)
    window.splitBotTimes.push(hops({}, resumed))


async def later():
    """The same through PyScript's worker, which cannot post unasked: a long
    poll, asked again as soon as an answer is applied."""
    while True:
        pushed(await engine.later())


def pressed():
    """Start or a lesson asked for before the worker was up: here, or marked on
    <body> by first.js before this layer was up (as for today's page)."""
    for name, what in (("data-lesson-pending", "lesson"), ("data-start-pending", "start")):
        if body.hasAttribute(name) and what not in pending:
            pending.append(what)
    return pending[0] if pending else None


async def up():
    global engine
    window.splitTimes = window.Array.new()
    window.splitBotTimes = window.Array.new()
    for kind, handler in (("click", on_click), ("submit", on_submit), ("change", on_change)):
        document.addEventListener(kind, create_proxy(handler))
    worker = await workers["engine"] if workers is not None else window.splitEngine
    if workers is None:
        window.splitPushed = create_proxy(pushed)  # before start: the worker may draw at once
    asked = pressed()
    init = {"search": str(window.location.search), "lang": str(window.navigator.language or ""),
            "storage": storage_items(), "pending": asked,
            "form": read_form() if q("#setup") is not None else None}
    out = await worker.start(json.dumps(init))
    engine = worker
    apply(out)
    loader = q("#loader")
    if loader is not None:
        loader.remove()
    late = pressed()
    body.removeAttribute("data-start-pending")
    body.removeAttribute("data-lesson-pending")
    body.setAttribute("data-state", "ready")
    window.performance.mark("split:worker-ready")
    if late and not asked:  # pressed while the worker was starting
        msg = {"cmd": late, "data": {}}
        if q("#setup") is not None:
            msg["form"] = read_form()
        now = window.performance.now()
        send(msg, now, now)
    if workers is not None:
        asyncio.create_task(later())


asyncio.create_task(up())
