"""axe-core, the accessibility checker (npm, pinned in package.json's
devDependencies; never shipped with the site), on every screen of the built
site: the start screens, the pass-and-play hand-over, each game's table in every mode at each of the
person's decisions through a whole hand (with a part of a choice picked, the
side panels, a phone's width), the end-of-hand summaries and their Review, embed.html (each
scripted example at each step, a live table) and every rules page.

A violation of any impact fails, with axe's own words. axe is put into the
page by the test (the page's Content-Security-Policy admits no other script);
`AXE_CORE_JS` may name another copy of axe.min.js.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("AXE_CORE_JS") or ROOT / "node_modules" / "axe-core" / "axe.min.js")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return {version: axe.version, rules: r.passes.length + r.incomplete.length
            + r.inapplicable.length + r.violations.length,
          violations: r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => n.html.slice(0, 240) + '\\n      ' + n.failureSummary)}))};
}"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.is_file():
        pytest.skip(f"axe-core is not installed ({AXE} is missing): `npm ci` installs it")
    return AXE.read_text(encoding="utf-8")


class Axe:
    def __init__(self, page, source: str) -> None:
        self.page, self.source, self.checked = page, source, []

    def check(self, where: str) -> None:
        """No violation on the page as it is now."""
        page = self.page
        if not page.evaluate("typeof window.axe === 'object'"):
            page.evaluate(self.source)
        result = page.evaluate(RUN)
        assert result["rules"] > 50, result  # axe really ran its rules
        self.checked.append(where)
        found = result["violations"]
        assert not found, f"axe {result['version']} on {where}:\n" + "\n".join(
            f"  {v['impact']} {v['id']}: {v['help']}\n    " + "\n    ".join(v["nodes"])
            for v in found)


@pytest.fixture
def axe(page, axe_source) -> Axe:
    return Axe(page, axe_source)


SETTLED = "document.body.dataset.toAct !== 'bot' || !document.getElementById('modal').hidden"


def _settle(page) -> str:
    page.wait_for_function(SETTLED, timeout=30000)
    return "modal" if not page.is_hidden("#modal") else page.evaluate("document.body.dataset.toAct")


def _click_and_wait(page, selector: str) -> None:
    n = page.evaluate("document.body.dataset.actions")
    page.click(selector)
    page.wait_for_function(f"document.body.dataset.actions !== '{n}'")


def _panels_and_phone(page, axe: Axe, where: str) -> None:
    """The side panel's three tabs, then the table at a phone's width."""
    for panel in ("scores", "last", "log"):
        page.click(f'#side [data-panel="{panel}"]')
        axe.check(f"{where}, the {panel} panel")
    page.set_viewport_size(PHONE)
    axe.check(f"{where}, phone")
    page.set_viewport_size(DESKTOP)


def _play_hand(page, axe: Axe, where: str, move) -> None:
    """Check at each of the person's decisions until the hand's summary, then it."""
    for turn in range(200):
        if _settle(page) == "modal":
            break
        axe.check(f"{where}, decision {turn}")
        if turn == 2:
            _panels_and_phone(page, axe, f"{where}, decision {turn}")
        move(page, axe, f"{where}, decision {turn}")
    else:
        pytest.fail(f"{where}: the hand did not end")
    axe.check(f"{where}, the hand's summary")
    page.set_viewport_size(PHONE)
    axe.check(f"{where}, the hand's summary, phone")
    page.set_viewport_size(DESKTOP)
    _review(page, axe, where)


def _review(page, axe: Axe, where: str) -> None:
    """The Review of the hand just finished: its first step, one with every
    hand open, its last (the result), at a phone's width too."""
    page.click("#review-open")
    page.wait_for_selector("dialog#review[open]")
    axe.check(f"{where}, the review's first step")
    page.click("#ex-next")
    page.click("#ex-next")
    axe.check(f"{where}, the review, every hand open")
    page.set_viewport_size(PHONE)
    axe.check(f"{where}, the review, phone")
    page.set_viewport_size(DESKTOP)
    page.keyboard.press("End")
    page.wait_for_selector("#ex-next[disabled]")
    axe.check(f"{where}, the review's last step")
    page.click("#rv-close")
    page.wait_for_selector("dialog#review", state="detached")


def _werner_move(page, axe: Axe, where: str) -> None:
    # A card (the person's, or the ghost's for the soloist), else a seat to designate.
    _click_and_wait(page, ".card.playable[data-act], .seat.designatable")


def _duel_move(page, axe: Axe, where: str) -> None:
    if page.locator("#jvh-pick").count():  # an exchange or a green swap: tick, then confirm
        while page.is_disabled("#jvh-confirm"):
            page.click("#jvh-pick [data-part]:not(.sel):not(.off)")
            axe.check(f"{where}, a card ticked")
        _click_and_wait(page, "#jvh-confirm")
        return
    card = page.locator(".hand.mine .cards > .card.playable").first
    if card.get_attribute("data-part"):  # a Potion led: it names a colour
        card.click()
        axe.check(f"{where}, a Potion picked")
        _click_and_wait(page, ".jvh-namer button")
    else:
        _click_and_wait(page, ".hand.mine .cards > .card.playable")


def _dracula_move(page, axe: Axe, where: str) -> None:
    if page.locator(".dr-waybtn").count():
        _click_and_wait(page, ".dr-waybtn")
        return
    page.click(".dr-hand .dc-btn")
    axe.check(f"{where}, a card picked")
    _click_and_wait(page, ".cell.open")


def test_start_screens(page, ui, axe):
    for game in ("jekyll-hyde", "jekyll-vs-hyde", "dracula"):
        ui.open_site(page, f"?game={game}")
        axe.check(f"the start screen of {game}")
        page.set_viewport_size(PHONE)
        axe.check(f"the start screen of {game}, phone")
        page.set_viewport_size(DESKTOP)


@pytest.mark.parametrize("mode", ["4A", "4B", "3"])
def test_werner_hand(page, ui, axe, mode):
    ui.open_site(page, "?speed=instant")
    ui.start_game(page, mode=mode, me="0", seed=11, bots="random")
    _play_hand(page, axe, f"Werner {mode}", _werner_move)


@pytest.mark.parametrize("variant", ["standard", "return-match"])
def test_duel_round(page, ui, axe, variant):
    ui.open_site(page, "?game=jekyll-vs-hyde&speed=instant")
    ui.choose(page, "#f-variant", variant)
    page.fill("#f-seed", "5")
    page.click("#start")
    page.wait_for_selector(".table.jvh")
    _play_hand(page, axe, f"the duel ({variant})", _duel_move)


def test_dracula_deal(page, ui, axe):
    ui.open_site(page, "?game=dracula&speed=instant")
    ui.choose(page, "#f-first", "me")
    page.fill("#f-seed", "12")
    page.click("#start")
    page.wait_for_selector(".dr-table")
    _play_hand(page, axe, "Dracula", _dracula_move)


def test_pass_and_play(page, ui, axe):
    """Friends at one screen: the start screen with a person's name field, the
    hand-over panel (desktop and phone) and the next person's turn."""
    ui.open_site(page, "?game=dracula&speed=instant")
    ui.choose(page, "#f-first", "bot")  # the other player deals and chooses: a hand-over
    ui.choose(page, "#f-dr_bot", "person")
    page.wait_for_selector("#f-dr_name_other")
    axe.check("the start screen with two people")
    page.fill("#f-seed", "12")
    page.click("#start")
    page.wait_for_selector("body[data-view=handover]")
    axe.check("the hand-over panel")
    page.set_viewport_size(PHONE)
    axe.check("the hand-over panel, phone")
    page.set_viewport_size(DESKTOP)
    page.click("#handover-ready")
    page.wait_for_selector(".dr-table")
    assert _settle(page) == "me"
    axe.check("Dracula, the second person's turn")


SCENARIOS = sorted(ROOT.glob("static/scenarios/*/*.json"))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_embedded_example_at_every_step(page, axe, scenario):
    game = scenario.parent.name
    page.goto(page.site_url + f"embed.html?game={game}&scenario={scenario.stem}")
    page.wait_for_selector("body[data-view=scenario]", timeout=60000)
    for step in range(100):
        page.wait_for_function(f"document.body.dataset.step === '{step}'")
        axe.check(f"embed.html, {game}/{scenario.stem} step {step}")
        if page.is_disabled("#ex-next"):
            break
        page.click("#ex-next")
    assert step > 0


@pytest.mark.parametrize("game", ["jekyll-hyde", "jekyll-vs-hyde", "dracula"])
def test_embedded_live_table(page, axe, game):
    page.goto(page.site_url + f"embed.html?game={game}")
    page.wait_for_selector("body[data-view=table]", timeout=60000)
    _settle(page)
    axe.check(f"embed.html, a live {game} table")


RULES = sorted(ROOT.glob("static/rules/*.html"))


def test_every_rules_page(page, axe):
    assert len(RULES) >= 9
    for rules in RULES:
        page.goto(page.site_url + f"static/rules/{rules.name}")
        axe.check(f"the rules page {rules.name}")


@pytest.mark.parametrize("game", ["jekyll-hyde", "jekyll-vs-hyde", "dracula"])
def test_a_lesson_with_its_coach(page, ui, axe, game):
    """Learn by playing: a note of the coach, a decision it explains (then its
    objection to another choice in Werner's game), at both widths, and the end."""
    ui.open_site(page, f"?game={game}&speed=instant")
    page.click("#lesson")
    page.wait_for_selector("#coach-next")
    axe.check(f"the {game} lesson, the coach's first note")
    page.click("#coach-next")
    page.wait_for_function("document.body.dataset.toAct === 'me' && !document.getElementById('coach-next')")
    axe.check(f"the {game} lesson, a decision the coach explains")
    if game == "jekyll-hyde":
        page.click(".hand.mine .card.playable[data-act]:not(.hinted)")
        page.wait_for_selector("#coach-why")
        axe.check("the Werner lesson, the coach's objection")
    page.set_viewport_size(PHONE)
    axe.check(f"the {game} lesson, phone")
    page.set_viewport_size(DESKTOP)


def test_the_end_of_a_lesson(page, ui, axe):
    """Dracula's lesson (the shortest) followed to its end: the scoring the coach explains."""
    ui.open_site(page, "?game=dracula&speed=instant")
    page.click("#lesson")
    for _ in range(40):
        page.wait_for_function("document.getElementById('coach-next') || !document.getElementById"
                               "('modal').hidden || document.body.dataset.toAct === 'me'")
        if not page.is_hidden("#modal"):
            break
        if page.locator("#coach-next").count():
            page.click("#coach-next")
            continue
        n = page.evaluate("document.body.dataset.actions")
        for part in page.eval_on_selector_all("#screen .hinted",
                                              "els => els.map(e => e.outerHTML.match("
                                              "/data-(?:act|part)=\"[^\"]*\"/)[0])"):
            if page.evaluate("document.body.dataset.actions") == n:
                page.click(f"#screen [{part}]")
        page.wait_for_function(f"document.body.dataset.actions !== '{n}'")
    axe.check("the end of the Dracula lesson")
    page.set_viewport_size(PHONE)
    axe.check("the end of the Dracula lesson, phone")


def _open_file(page, name: str, raw: bytes, button: str) -> None:
    with page.expect_file_chooser() as chooser:
        page.click(button)
    chooser.value.set_files(files=[{"name": name, "mimeType": "application/json",
                                    "buffer": raw}])
    page.wait_for_selector("#file-panel:not([hidden]) .sheet")


def test_the_open_file_panel(page, ui, axe):
    """A file's panel, its question before a save is replaced, a refused file's message."""
    import json

    from tests.page_kit import random_transcript
    from tests.test_web_files import malformed_files

    ui.open_site(page, "?speed=instant&lang=en")
    ui.start_game(page, seed=7)
    _settle(page)
    axe.check("the table with the file buttons under the side panel")
    data = json.dumps(random_transcript("jekyll-hyde", 3, 20)).encode()
    for size, tag in ((DESKTOP, ""), (PHONE, ", phone")):
        page.set_viewport_size(size)
        _open_file(page, "werner.json", data, "#file-open-table")
        axe.check(f"the open-file panel{tag}")
        page.fill("#file-step", "99")
        page.click("[data-cmd=file-continue]")
        page.wait_for_selector("#file-step-error")
        axe.check(f"the open-file panel with a step out of range{tag}")
        page.fill("#file-step", "5")
        page.click("[data-cmd=file-continue]")
        page.wait_for_selector("[data-cmd=file-replace]")
        axe.check(f"the question before a save is replaced{tag}")
        page.click("[data-cmd=file-keep]")
        page.click("[data-cmd=file-close]")
        name, raw, _ = malformed_files()[10]
        _open_file(page, name, raw, "#file-open-table")
        axe.check(f"a refused file's message{tag}")
        page.click("[data-cmd=file-close]")
    page.set_viewport_size(DESKTOP)


def _stats_record() -> str:
    """Finished games of every game (a draw, a mixed strength among them), as stored."""
    from game.web.model import stats as st

    return st.dump(st.Stats(tuple(
        st.GameRecord(f"{n}-{n}", game, mode, level, result, 10 * n, n)
        for n, (game, mode, level, result) in enumerate([
            ("jekyll-hyde", "4A-1000", "strong", "won"), ("jekyll-hyde", "3-300", "mixed", "lost"),
            ("jekyll-vs-hyde", "standard-H", "easy", "won"),
            ("jekyll-vs-hyde", "return-match", "random", "drawn"),
            ("dracula", "standard", "heuristic", "lost")], 1))))


def test_statistics_page(page, ui, axe, tmp_path):
    ui.open_site(page)
    page.evaluate("t => localStorage.setItem('jhg.stats', t)", _stats_record())
    page.reload()
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    page.click("#stats-button")
    page.wait_for_selector("body[data-view=stats]")
    axe.check("the statistics page")
    page.set_viewport_size(PHONE)
    axe.check("the statistics page, phone")
    page.set_viewport_size(DESKTOP)
    page.click("#stats-reset")
    axe.check("the statistics page, asking to reset")
    page.click("#stats-cancel")
    exported = tmp_path / "stats.json"
    exported.write_text(_stats_record())
    page.set_input_files("#stats-file", str(exported))
    page.wait_for_selector("#stats-ask")
    axe.check("the statistics page, asking to merge or replace")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    page.set_input_files("#stats-file", str(bad))
    page.wait_for_selector("#stats-msg.error")
    axe.check("the statistics page, a bad file refused")
