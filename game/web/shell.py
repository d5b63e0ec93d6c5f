"""The shared shell of the site: start screen, saves, languages, log, scores,
the bot loop and the click dispatcher. Game specifics live in game.web.tables.

The engine state is the single source of truth: every screen is re-rendered
from `state.observation(seat of the person at the screen)`, and every click
goes through `state.apply`, so an illegal click changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from html import escape
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qsl

from pyodide.ffi import create_proxy
from pyscript import document, window

from game import GAMES, GameError
from game.web import saves
from game.web.i18n import LANGUAGES, Translator, pick_language
from game.web.tables import TABLES, renderer

SPEEDS = {"instant": 0.02, "fast": 0.35, "normal": 0.8, "slow": 1.5}
KNOWN_PARAMS = {"lang", "speed", "game"}
SLICE = 0.04  # seconds of bot search between two yields to the browser
MAX_THINK = 2.0


def _q(sel: str):
    el = document.querySelector(sel)
    return None if el is None or not el else el  # jsnull is falsy


def _attr(el, name: str) -> str | None:
    """An attribute as str, or None (JS null arrives as jsnull, not None)."""
    if el is None:
        return None
    v = el.getAttribute(name)
    return v if isinstance(v, str) else None


def _storage():
    try:
        return window.localStorage
    except Exception:  # storage disabled: play without saving
        return None


class App:
    def __init__(self) -> None:
        self.store = _storage()
        self.prefs = self._load_prefs()
        self.notices: list[str] = []
        params = parse_qsl(str(window.location.search).lstrip("?"), keep_blank_values=True)
        unknown = sorted({k for k, _ in params} - KNOWN_PARAMS)
        query = dict(params)
        lang = pick_language(query.get("lang"), self.prefs.get("lang"),
                             str(window.navigator.language or ""))
        if query.get("speed") in SPEEDS:
            self.prefs["speed"] = query["speed"]
        self.t = Translator(lang)
        if unknown:
            self.notices.append(("notice.unknown_params", {"names": ", ".join(unknown)}))
        self.state = None
        self.save: dict[str, Any] = {}
        self.table = None  # the renderer module of the current game
        self.gen = 0
        self.thinking = None
        self.hint = None  # (state, action or None while thinking, words, selectors)
        self.message = ""
        self.panel = "log"
        self.broken: tuple[str, str] | None = None
        self.setup_values: dict[str, str] = {"game": self.playable()[0]}
        last = self.prefs.get("setup")
        if isinstance(last, dict):  # the choices of the last game, except its seed
            self.setup_values.update({str(k): str(v) for k, v in last.items() if k != "seed"})
        self.show_setup = False
        if query.get("game") in self.playable():  # e.g. a link from a rules page
            self.setup_values["game"] = query["game"]

    # -- persistence --------------------------------------------------------

    def _get(self, key: str) -> str | None:
        if self.store is None:
            return None
        v = self.store.getItem(key)
        return v if isinstance(v, str) else None  # JS null arrives as jsnull

    def _set(self, key: str, value: str) -> None:
        if self.store is None:
            return
        try:
            self.store.setItem(key, value)
        except Exception as e:  # quota: keep playing, say so
            self.message = self.t("msg.save_failed", reason=str(e))

    def _load_prefs(self) -> dict:
        try:
            prefs = json.loads(self._get(saves.PREFS_KEY) or "{}")
            return prefs if isinstance(prefs, dict) else {}
        except ValueError:
            return {}

    def _save_prefs(self) -> None:
        self._set(saves.PREFS_KEY, json.dumps(self.prefs))

    def persist(self) -> None:
        if self.state is None:
            return
        self.save["state"] = self.state.to_json()
        self._set(saves.KEY, saves.dump(self.save))

    def resume(self) -> None:
        text = self._get(saves.KEY)
        if not text:
            return
        try:
            data, state = saves.load(text)
            table = renderer(data["game"])
        except saves.BrokenSave as e:
            self._set_aside(text, str(e))
            return
        except Exception as e:  # never crash on a save
            self._set_aside(text, f"{type(e).__name__}: {e}")
            return
        data["transcript"].setdefault("actions", [])
        data["transcript"].setdefault("seed", 0)
        self.save, self.state, self.table = data, state, table
        try:  # a save that loads but cannot be shown is broken too
            self.table.render(state.observation(self.my_seat()), self.ctx())
        except Exception as e:
            self.save, self.state, self.table = {}, None, None
            self._set_aside(text, f"{type(e).__name__}: {e}")

    def _set_aside(self, text: str, reason: str) -> None:
        key = saves.BROKEN_PREFIX + time.strftime("%Y%m%dT%H%M%S")
        self._set(key, text)
        if self.store is not None:
            self.store.removeItem(saves.KEY)
        self.broken = (key, reason)
        self.show_setup = True

    # -- helpers ------------------------------------------------------------

    def playable(self) -> list[str]:
        return [g for g in GAMES if g in TABLES]

    @property
    def speed(self) -> float:
        return SPEEDS.get(self.prefs.get("speed", "normal"), SPEEDS["normal"])

    def my_seat(self):
        return self.table.seat_of(self.state, self.save["setup"]["me"])

    def ctx(self) -> SimpleNamespace:
        seat = self.my_seat() if self.state is not None else None
        return SimpleNamespace(t=self.t, seat=seat, thinking=self.thinking,
                               log=self.save.get("log", []))

    def human_to_act(self) -> bool:
        s = self.state
        return (s is not None and s.to_act is not None
                and self.table.identity_key(s, s.to_act) == str(self.save["setup"]["me"]))

    def waiting_for_ack(self) -> bool:
        s = self.state
        return (s is not None and not s.over
                and len(s.to_json()["history"]) > self.save.get("seen_hands", 0))

    # -- rendering ----------------------------------------------------------

    def game_id(self) -> str | None:
        """The game on the table, or the one chosen on the start screen."""
        if self.state is not None and not self.show_setup:
            return self.save["game"]
        return self.setup_values.get("game")

    def say(self, key: str) -> str:
        """A shell text in the current game's own words where it has them
        (`<game id>/<key>` in its catalog: "Next deal" rather than "Next hand")."""
        own = f"{self.game_id()}/{key}"
        return self.t(own) if self.t.has(own) else self.t(key)

    def render_all(self) -> None:
        document.documentElement.lang = self.t.lang
        document.title = self.say("app.title")
        self.render_menu()
        self.render_notices()
        self.render_screen()
        self.render_side()
        self.render_modal()
        body = document.body
        body.dataset.lang = self.t.lang
        body.dataset.actions = str(len(self.save.get("transcript", {}).get("actions", [])))
        body.dataset.toAct = ("none" if self.state is None else "over" if self.state.over
                              else "me" if self.human_to_act() else "bot")

    def render_menu(self) -> None:
        t = self.t
        langs = "".join(f'<option value="{code}"{" selected" if code == t.lang else ""}>'
                        f'{escape(t("lang." + code))}</option>' for code in LANGUAGES)
        speed = self.prefs.get("speed", "normal")
        speeds = "".join(f'<option value="{k}"{" selected" if k == speed else ""}>'
                         f'{escape(t("speed." + k))}</option>' for k in SPEEDS)
        game_buttons = ""
        if self.state is not None:
            game_buttons = "".join(
                f'<button type="button" data-cmd="panel" data-panel="{p}">'
                f'{escape(self.say("menu." + p))}</button>' for p in ("log", "last", "scores"))
        _q("#brand").textContent = self.say("app.title")
        _q("#menu").innerHTML = (
            f'<button type="button" data-cmd="new" id="new-game">{escape(t("menu.new"))}</button>'
            f'{game_buttons}'
            f'<label class="sel"><span class="sr">{escape(t("menu.speed"))}</span>'
            f'<select id="speed" data-cmd="speed" aria-label="{escape(t("menu.speed"))}">{speeds}'
            f'</select></label>'
            f'<label class="sel"><span class="sr">{escape(t("menu.lang"))}</span>'
            f'<select id="lang" data-cmd="lang" aria-label="{escape(t("menu.lang"))}">{langs}'
            f'</select></label>')

    def render_notices(self) -> None:
        t = self.t
        out = []
        for key, kw in self.notices:
            out.append(f'<div class="notice" role="status">{escape(t(key, **kw))}'
                       f'<button type="button" data-cmd="dismiss" aria-label="×">×</button></div>')
        if self.broken:
            key, reason = self.broken
            text = self._get(key) or ""
            href = "data:application/json;charset=utf-8," + str(window.encodeURIComponent(text))
            out.append(f'<div class="notice broken" role="alert" id="broken-save">'
                       f'{escape(t("notice.broken", reason=reason))} '
                       f'<a download="broken-save.json" href="{escape(href)}">'
                       f'{escape(t("notice.download"))}</a>'
                       f'<button type="button" data-cmd="dismiss-broken" aria-label="×">×</button>'
                       f'</div>')
        _q("#notices").innerHTML = "".join(out)

    def render_screen(self) -> None:
        if self.state is None or self.show_setup:
            _q("#screen").innerHTML = self.setup_html()
            document.body.dataset.view = "setup"
            return
        document.body.dataset.view = "table"
        obs = self.state.observation(self.my_seat())
        html = self.table.render(obs, self.ctx())
        msg = escape(self.message)
        _q("#screen").innerHTML = (f'{html}{self.hint_html()}<div id="message" class="message" '
                                   f'role="alert" aria-live="assertive">{msg}</div>')
        self.mark_hint()
        # The screen is redrawn on every move; a lasting live region reads out the prompt.
        prompt, live = _q("#prompt"), _q("#live")
        if prompt is not None and live is not None and live.textContent != prompt.textContent:
            live.textContent = prompt.textContent

    def setup_html(self) -> str:
        t = self.t
        game = self.setup_values.get("game")
        if game not in self.playable():
            game = self.setup_values["game"] = self.playable()[0]
        from game.bots import bot_names

        table = renderer(game)
        games = "".join(f'<option value="{g}"{" selected" if g == game else ""}>'
                        f'{escape(t("game." + g))}</option>' for g in self.playable())
        resume = ""
        if self.state is not None:
            resume = (f'<button type="button" data-cmd="resume" class="secondary">'
                      f'{escape(t("setup.back"))}</button>')
        return (f'<form id="setup" class="setup" onsubmit="return false">'
                f'<h1>{escape(t("setup.title"))}</h1>'
                f'<label class="field"><span>{escape(t("setup.game"))}</span>'
                f'<select name="game" id="f-game" data-cmd="setup-change">{games}</select></label>'
                f'{table.setup_form(t, bot_names(game), self.setup_values)}'
                f'<label class="field"><span>{escape(t("setup.seed"))}</span>'
                f'<input name="seed" id="f-seed" inputmode="numeric" pattern="[0-9]*" '
                f'value="{escape(self.setup_values.get("seed", ""))}" '
                f'placeholder="{escape(t("setup.seed_hint"))}"></label>'
                f'<div class="buttons"><button type="button" data-cmd="start" id="start" '
                f'class="primary">{escape(t("setup.start"))}</button>{resume}</div></form>')

    def render_side(self) -> None:
        side = _q("#side")
        if self.state is None or self.show_setup:
            side.innerHTML = f'<div class="help">{self.say("help.html")}</div>'
            return
        tabs = "".join(
            f'<button type="button" role="tab" data-cmd="panel" data-panel="{p}" '
            f'aria-selected="{"true" if p == self.panel else "false"}">'
            f'{escape(self.say("menu." + p))}</button>' for p in ("log", "last", "scores"))
        obs = self.state.observation(self.my_seat())
        ctx = self.ctx()
        if self.panel == "scores":
            body = self.table.score_sheet(obs, ctx)
        elif self.panel == "last":
            body = self.table.last_trick(obs, ctx)
        else:
            lines = []
            for ev in self.save["log"][-150:]:
                try:
                    lines.append(self.table.event_text(ev, ctx))
                except Exception:  # an odd entry in an old save: skip it
                    continue
            body = '<ol class="log" id="log">' + "".join(
                f"<li>{escape(x)}</li>" for x in lines) + "</ol>"
        side.innerHTML = f'<div class="tabs" role="tablist">{tabs}</div><div class="panel" ' \
                         f'id="panel-{self.panel}">{body}</div>'
        log = _q("#log")
        if log is not None:
            log.scrollTop = log.scrollHeight

    def render_modal(self) -> None:
        modal = _q("#modal")
        t = self.t
        if self.state is None or self.show_setup:
            modal.hidden = True
            return
        obs = self.state.observation(self.my_seat())
        ctx = self.ctx()
        if self.state.over and not self.save.get("closed_final"):
            body = self.table.final_summary(obs, ctx)
            buttons = (f'<button type="button" class="primary" data-cmd="new">'
                       f'{escape(t("menu.new"))}</button>'
                       f'<button type="button" data-cmd="close-final">{escape(t("modal.close"))}'
                       f'</button>')
        elif self.waiting_for_ack():
            body = self.table.hand_summary(obs, ctx)
            buttons = (f'<button type="button" class="primary" data-cmd="ack-hand" id="next-hand">'
                       f'{escape(self.say("modal.next_hand"))}</button>')
        else:
            modal.hidden = True
            return
        modal.innerHTML = f'<div class="sheet" role="dialog" aria-modal="true">{body}' \
                          f'<div class="buttons">{buttons}</div></div>'
        modal.hidden = False

    # -- actions ------------------------------------------------------------

    def human_action(self, action: str) -> None:
        if self.state is None or self.show_setup or self.state.over or self.waiting_for_ack():
            return
        obs = self.state.observation(self.my_seat())
        if not self.human_to_act():
            who = self.table.who_decides(obs, self.ctx())
            self.set_message(self.t("msg.not_your_turn", name=who))
            return
        try:
            after = self.state.apply(action)
        except GameError as e:
            self.set_message(self.table.explain(str(e), obs, self.ctx()))
            return
        self.commit(action, after)

    def set_message(self, text: str) -> None:
        self.message = text
        el = _q("#message")
        if el is not None:
            el.textContent = text
            el.classList.remove("flash")
            el.offsetWidth  # restart the CSS animation
            el.classList.add("flash")

    def commit(self, action: str, after) -> None:
        before = self.state
        new = self.table.events(before, action, after, self.ctx())
        self.table.merge_event(self.save["log"], new)
        self.save["transcript"]["actions"].append(action)
        self.state = after
        self.message = ""
        self.persist()
        self.render_all()
        self.schedule()

    def schedule(self) -> None:
        self.gen += 1
        s = self.state
        if (s is None or s.over or self.show_setup or self.waiting_for_ack()
                or self.human_to_act()):
            return
        asyncio.ensure_future(self.bot_turn(self.gen))

    async def bot_turn(self, gen: int) -> None:
        s = self.state
        obs0 = s.observation(s.to_act)
        # Longer after a trick, so people see who took it.
        delay = self.speed * self.table.pause_factor(obs0)
        self.thinking = self.table.thinking_seat(obs0)
        try:
            self.render_screen()
            await asyncio.sleep(delay)
            if gen != self.gen or self.state is not s:
                return
            player = s.to_act
            key = self.table.identity_key(s, player)
            bot = self._bot(key)
            seed = self.save["transcript"]["seed"]
            rng = random.Random(f"{seed}:{key}:{len(self.save['transcript']['actions'])}")
            obs, legal = s.observation(player), s.legal_actions()
            if hasattr(bot, "start") and len(legal) > 1:
                # A search bot thinks in short slices so the page stays responsive.
                search = bot.start(obs, rng)
                end = time.monotonic() + min(getattr(bot, "budget", 1.0), MAX_THINK)
                while not search.done(end):
                    search.step(time.monotonic() + SLICE, end)
                    await asyncio.sleep(0)
                    if gen != self.gen or self.state is not s:
                        return
                action = search.best(legal)
            else:
                action = bot.choose(obs, legal, rng)
            if gen != self.gen or self.state is not s:
                return
            after = s.apply(action)
        except Exception as e:  # a bot must never take the page down
            window.console.error(f"bot error: {type(e).__name__}: {e}")
            self.thinking = None
            self.set_message(self.t("msg.bot_error", reason=f"{type(e).__name__}: {e}"))
            return
        self.thinking = None
        self.commit(action, after)

    # -- hint: the strong bot's choice for the person's decision ----------------

    def hint_html(self) -> str:
        h = self.hint if self.hint and self.hint[0] is self.state else None
        if not self.human_to_act() or self.waiting_for_ack():
            return ""
        t = self.t
        busy = h is not None and h[1] is None
        text = t("hint.thinking") if busy else t("hint.says", what=h[2]) if h else ""
        return (f'<div class="hintbar"><button type="button" data-cmd="hint" id="hint" '
                f'title="{escape(t("hint.title"))}" aria-busy="{str(busy).lower()}"'
                f'{" disabled" if busy else ""}>{escape(t("hint.button"))}</button>'
                f'<span id="hint-text" role="status" '
                f'data-action="{escape(h[1] or "") if h else ""}">{escape(text)}</span></div>')

    def mark_hint(self) -> None:
        h = self.hint
        if not h or h[0] is not self.state or h[1] is None:
            return
        for sel in h[3]:
            for el in document.querySelectorAll("#screen " + sel):
                el.classList.add("hinted")

    def ask_hint(self) -> None:
        if (self.state is None or self.show_setup or not self.human_to_act()
                or (self.hint and self.hint[0] is self.state)):
            return
        asyncio.ensure_future(self.hint_turn(self.state))

    async def hint_turn(self, s) -> None:
        """Think in slices from the person's observation only; drop it if they act."""
        from game.web.hint import Hint, describe, hint_rng

        obs = s.observation(self.my_seat())  # the person's view: never the state itself
        self.hint = (s, None, "", [])
        self.render_screen()
        try:
            hint = Hint(obs, hint_rng(self.save["transcript"]["seed"],
                                      len(self.save["transcript"]["actions"])))
            while not hint.done():
                hint.step(SLICE)
                await asyncio.sleep(0)
                if self.state is not s or self.show_setup:
                    return  # the person acted (or left): the hint is moot
            action = hint.best()
            text, targets = describe(self.save["game"], self.table, action, obs, self.ctx())
        except Exception as e:  # a hint must never take the page down
            window.console.error(f"hint error: {type(e).__name__}: {e}")
            self.hint = None
            self.render_screen()
            return
        if self.state is s:
            self.hint = (s, action, text, targets)
            self.render_screen()

    def _bot(self, key: str):
        from game.bots import bot_names, make_bot

        cache = self.__dict__.setdefault("_bots", {})
        name = self.save["setup"]["bots"].get(key)
        game = self.save["game"]
        if name not in bot_names(game):
            name = bot_names(game)[-1]
        if (key, name) not in cache:
            cache[(key, name)] = make_bot(game, name)
        return cache[(key, name)]

    def new_game(self) -> None:
        from game import new_game
        from game.bots import bot_names

        self.read_setup()
        self.prefs["setup"] = dict(self.setup_values)
        self._save_prefs()
        game = self.setup_values["game"]
        table = renderer(game)
        setup = table.parse_setup(self.setup_values, bot_names(game))
        seed_text = self.setup_values.get("seed", "").strip()
        seed = int(seed_text) if seed_text.isdigit() else random.randrange(1, 2**31)
        state = new_game(game, setup["options"], seed)
        self.table, self.state = table, state
        self.save = {"game": game, "setup": {"me": setup["me"], "bots": setup["bots"]},
                     "transcript": {"game": game, "options": state.to_json()["options"],
                                    "seed": seed, "actions": []},
                     "log": [], "seen_hands": 0}
        self.save["log"] = table.first_events(state, self.ctx())
        self.show_setup = False
        self.message = ""
        self.thinking = None
        self.persist()
        self.render_all()
        self.schedule()

    def read_setup(self) -> None:
        for el in document.querySelectorAll("#setup select, #setup input"):
            self.setup_values[str(el.name)] = str(el.value)

    def command(self, cmd: str, el) -> None:
        if cmd == "new":
            self.gen += 1  # stop the bots of the current game
            self.show_setup = True
            self.message = ""
            self.render_all()
        elif cmd == "start":
            self.new_game()
        elif cmd == "hint":
            self.ask_hint()
        elif cmd == "resume":
            self.show_setup = False
            self.render_all()
            self.schedule()
        elif cmd == "panel":
            self.panel = _attr(el, "data-panel") or "log"
            self.render_side()
            side = _q("#side")
            if window.innerWidth < 900:
                side.scrollIntoView()
        elif cmd == "ack-hand":
            self.save["seen_hands"] = len(self.state.to_json()["history"])
            self.persist()
            self.render_all()
            self.schedule()
        elif cmd == "close-final":
            self.save["closed_final"] = True
            self.persist()
            self.render_all()
        elif cmd == "dismiss":
            self.notices = []
            self.render_notices()
        elif cmd == "dismiss-broken":
            self.broken = None
            self.render_notices()

    def on_change(self, evt) -> None:
        el = evt.target
        cmd = _attr(el, "data-cmd")
        if cmd == "lang":
            self.t = Translator(str(el.value))
            self.prefs["lang"] = self.t.lang
            self._save_prefs()
            self.render_all()
        elif cmd == "speed":
            self.prefs["speed"] = str(el.value)
            self._save_prefs()
        elif cmd == "setup-change":
            self.read_setup()
            self.render_screen()

    def on_click(self, evt) -> None:
        el = evt.target.closest("[data-cmd], [data-act]")
        if el is None or not el:  # JS null arrives as pyodide's jsnull, which is falsy
            return
        cmd = _attr(el, "data-cmd")
        if cmd:
            if str(el.tagName) in ("SELECT", "INPUT", "OPTION"):
                return
            self.command(str(cmd), el)
            return
        act = _attr(el, "data-act")
        if act:
            self.human_action(act)

    def on_key(self, evt) -> None:
        if str(evt.key) not in ("Enter", " "):
            return
        el = evt.target
        act = _attr(el, "data-act")
        if act is None or str(el.tagName) == "BUTTON":
            return
        evt.preventDefault()
        self.human_action(act)

    # -- start ---------------------------------------------------------------

    def start(self) -> None:
        self.resume()
        self._proxies = [create_proxy(self.on_click), create_proxy(self.on_change),
                         create_proxy(self.on_key)]
        document.addEventListener("click", self._proxies[0])
        document.addEventListener("change", self._proxies[1])
        document.addEventListener("keydown", self._proxies[2])
        from game.web import bench  # window.thinkBench, for benchmarks/think.py only

        bench.install(window, create_proxy, SLICE)
        self.render_all()
        loader = _q("#loader")
        if loader is not None:
            loader.remove()
        document.body.dataset.state = "ready"
        self.schedule()
