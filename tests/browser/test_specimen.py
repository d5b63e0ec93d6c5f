"""The games' specimen tables (game.build.specimen): while a page waits, for
its game or for a Start, static/js/front.mjs (meetTheFonts) lays the table
it would draw out unseen, a part a task, then removes it, so that the first
table frame meets no font size for the first time (in Chromium on Linux each
is a synchronous question to the browser's process)."""

from __future__ import annotations

import pytest

# What became of the page's `.specimen` boxes, watched from before any script.
WATCH = """(() => {
  const seen = window.specimenSeen = {added: 0, removed: 0, labelled: true, shown: false,
                                      room: 0, most: 0, tables: []};
  let box = null;
  new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n.classList && n.classList.contains("specimen")) {
          seen.added += 1;
          box = n;
        }
      }
      for (const n of r.removedNodes) {
        if (n.classList && n.classList.contains("specimen")) seen.removed += 1;
      }
    }
    if (box && box.isConnected) {
      seen.labelled = seen.labelled && box.getAttribute("aria-hidden") === "true";
      seen.shown = seen.shown || getComputedStyle(box).visibility !== "hidden";
      seen.room = Math.max(seen.room, box.getBoundingClientRect().height);
      seen.most = Math.max(seen.most, box.querySelectorAll("*").length);
      seen.tables = [...box.children].map((c) => c.getAttribute("class"));
    }
  }).observe(document, {childList: true, subtree: true});
})()"""

# The number of elements in a game's specimen, and its outer elements' classes.
SPECIMEN = """async (game) => {
  const t = document.createElement("template");
  t.innerHTML = (await (await fetch("static/js/specimens.json")).json())[game];
  return [t.content.querySelectorAll("*").length,
          [...t.content.children].map((c) => c.getAttribute("class"))];
}"""


def _laid_out_and_gone(page, game: str) -> None:
    page.wait_for_function("window.specimenSeen.removed > 0", timeout=30000)
    seen = page.evaluate("window.specimenSeen")
    count, tables = page.evaluate(SPECIMEN, game)
    assert seen["added"] == seen["removed"] == 1
    # all of it, at its fullest: every part was laid out before it went
    assert seen["most"] == count > 20 and seen["tables"] == tables
    # and never seen, heard or in the way
    assert seen["labelled"] and not seen["shown"] and seen["room"] == 0
    assert not page.query_selector(".specimen")


@pytest.mark.parametrize("game", ["jekyll-hyde", "jekyll-vs-hyde", "dracula"])
def test_an_embed_lays_its_games_table_out_unseen_while_it_waits(page, game):
    page.add_init_script(WATCH)
    page.goto(page.site_url + f"embed.html?game={game}")
    assert page.get_attribute("body", "data-specimen") == game
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    _laid_out_and_gone(page, game)
    assert not page.query_selector("#screen .ex-skeleton")  # the game's own table, drawn


def test_the_start_screen_lays_out_the_table_a_start_would_draw(page, ui):
    page.goto(page.site_url + "blank.html")
    page.evaluate("localStorage.clear()")
    page.add_init_script(WATCH)
    page.goto(page.site_url + "index.html?game=jekyll-vs-hyde")
    assert page.get_attribute("body", "data-specimen") == "jekyll-vs-hyde"
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    _laid_out_and_gone(page, "jekyll-vs-hyde")
    page.click("#start")
    page.wait_for_selector("body[data-view=table] #screen .table")


# The fonts (family, size, weight, style) of the text the page draws in the
# regions a table fills, and the characters of that text, that its game's
# specimen, laid out here as front.mjs lays it out, does not draw.
UNMET = """async (game) => {
  const drawn = (root) => {
    const fonts = new Set(), chars = new Set();
    for (const el of root.querySelectorAll("*")) {
      const styles = [":before", ":after"].map((p) => getComputedStyle(el, p))
        .filter((c) => !["none", "normal", '""'].includes(c.content));
      const text = [...el.childNodes].filter((n) => n.nodeType === 3)
        .map((n) => n.textContent).join("").trim();
      if (text) styles.push(getComputedStyle(el));
      for (const c of styles) {
        if (c.display !== "none" && el.getClientRects().length) {
          fonts.add([c.fontFamily, c.fontSize, c.fontWeight, c.fontStyle].join(" "));
        }
      }
      if (el.getClientRects().length) for (const ch of text) chars.add(ch);
    }
    return [fonts, chars];
  };
  const [fonts, chars] = [new Set(), new Set()];
  for (const id of ["screen", "side", "menu", "table-info"]) {
    const region = document.getElementById(id);
    if (!region) continue;
    const [f, c] = drawn(region);
    f.forEach((x) => fonts.add(x));
    c.forEach((x) => chars.add(x));
  }
  const t = document.createElement("template");
  t.innerHTML = (await (await fetch("static/js/specimens.json")).json())[game];
  const box = document.createElement("div");
  box.className = "screen specimen";
  box.style.visibility = "visible";  // (measured, not shown: it is removed in this task)
  box.append(t.content);
  document.getElementById("screen").after(box);
  const [metFonts, metChars] = drawn(box);
  box.remove();
  return [[...fonts].filter((x) => !metFonts.has(x)),
          [...chars].filter((x) => x.charCodeAt(0) > 126 && !metChars.has(x))];
}"""


@pytest.mark.parametrize("game", ["jekyll-hyde", "jekyll-vs-hyde", "dracula"])
@pytest.mark.parametrize("width", [390, 1366])
def test_the_first_table_after_start_meets_no_font_its_specimen_did_not(page, game, width):
    page.set_viewport_size({"width": width, "height": 844 if width < 500 else 768})
    page.goto(page.site_url + "blank.html")
    page.evaluate("localStorage.clear()")
    page.goto(page.site_url + f"index.html?game={game}")
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    page.fill("#f-seed", "7")  # not the specimen's deal
    page.click("#start")
    page.wait_for_selector("body[data-view=table] #screen [data-me]")
    assert page.evaluate(UNMET, game) == [[], []]


@pytest.mark.parametrize("width", [390, 1366])
def test_an_embeds_first_table_meets_no_font_its_specimen_did_not(page, width):
    page.set_viewport_size({"width": width, "height": 844 if width < 500 else 768})
    page.goto(page.site_url + "embed.html?game=jekyll-hyde")
    page.wait_for_selector("body[data-state=ready]", timeout=60000)
    assert page.evaluate(UNMET, "jekyll-hyde") == [[], []]
