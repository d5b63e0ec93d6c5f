"""Text contrast measured from the rendered pixels (issue 34, item 3).

axe cannot judge a text over a gradient or a translucent layer (it reports it
"incomplete"), and the table's felt is a gradient. So each text is measured as
an auditor would: the page is shot once as it is and once with every text made
transparent; the pixels that differ are the letters, and the text's own colour
(its opacity and its ancestors' folded in) is compared with the background
under each of them. The worst letter pixel must reach 4.5:1 (3:1 for large
text: 24px, or 18.66px bold). A text clipped by its box counts only where it
shows; a disabled control's text is exempt, as in WCAG.

Covered: Werner's table with 4 and 3 players through a hand (cards left by a
Transformation included), the duel's table, and the scripted Transformation
example of embed.html, at 360x640 and 1366x768.
"""

from __future__ import annotations

import base64
import math
import struct
import zlib

import pytest

pytestmark = pytest.mark.browser
SIZES = [(360, 640), (1366, 768)]

# Every element with text of its own in `root`, visible and not disabled: the
# boxes of that text (viewport px) where no ancestor clips it, its colour and
# alpha (opacity of it and its ancestors folded in), whether it is large text.
NAMED = [".tinfo", "#prompt", ".carried > span"]  # the texts the audit found under 4.5:1
TEXTS = r"""([root, NAMED]) => {
  const out = [];
  for (const el of document.querySelectorAll(root + ', ' + root + ' *')) {
    if (el.closest('svg, [disabled], [aria-disabled=true], .sr, [hidden]')) continue;
    const own = [...el.childNodes].filter(n => n.nodeType === 3 && n.textContent.trim());
    const st = getComputedStyle(el);
    if (!own.length || st.visibility !== 'visible') continue;
    let clip = [-Infinity, -Infinity, Infinity, Infinity];
    for (let a = el; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const r = a.getBoundingClientRect();
      clip = [Math.max(clip[0], r.left), Math.max(clip[1], r.top),
              Math.min(clip[2], r.right), Math.min(clip[3], r.bottom)];
    }
    const boxes = [];
    for (const n of own) {
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        const box = [Math.max(r.left, clip[0]), Math.max(r.top, clip[1]),
                     Math.min(r.right, clip[2]), Math.min(r.bottom, clip[3])];
        if (box[2] - box[0] < 2 || box[3] - box[1] < 2) continue;
        // Its pixels that no other element covers (an opaque banner over a tag).
        const shows = [];
        for (let y = Math.ceil(box[1]); y < Math.floor(box[3]); y++)
          for (let x = Math.ceil(box[0]); x < Math.floor(box[2]); x++) {
            const top = document.elementFromPoint(x + .5, y + .5);
            if (top && (el.contains(top) || top.contains(el))) shows.push([x, y]);
          }
        boxes.push([...box, shows]);
      }
    }
    if (!boxes.length) continue;
    let alpha = 1;
    for (let a = el; a; a = a.parentElement) alpha *= parseFloat(getComputedStyle(a).opacity);
    const rgba = st.color.match(/[\d.]+/g).map(Number);
    const size = parseFloat(st.fontSize), bold = parseInt(st.fontWeight) >= 700;
    out.push({name: el.id ? '#' + el.id : [el.tagName.toLowerCase(), ...el.classList].join('.'),
              text: el.textContent.trim().slice(0, 40), boxes, color: rgba.slice(0, 3),
              alpha: alpha * (rgba.length > 3 ? rgba[3] : 1),
              large: size >= 24 || (bold && size >= 18.66),
              named: NAMED.find(s => el.matches(s)) || null});
  }
  return out;
}"""
# No card on its way (game.web.draw.motion's animations): the table as it stays.
HIDE_TEXT = ("* { color: transparent !important; -webkit-text-fill-color: transparent !important;"
             " text-shadow: none !important; caret-color: transparent !important; }")


def _png_rows(data: bytes) -> tuple[int, list[bytes]]:
    """Channels (3 or 4) and rows of pixels of an 8-bit, non-interlaced PNG
    (a screenshot): the standard's five row filters undone."""
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and colour in (2, 6) and chunk[12] == 0, chunk
            n = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * n, [], bytearray(width * n)
    # "Up" rows (all of them in a screenshot made for speed: `screenshot`) are
    # added to the row above byte by byte, modulo 256, in one sum of whole rows
    # as integers: the seven low bits of each byte added apart, the top bit
    # xor-ed in, so that no carry crosses into the next byte.
    low, high = int.from_bytes(b"\x7f" * stride, "big"), int.from_bytes(b"\x80" * stride, "big")
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 2:
            a, b = int.from_bytes(line, "big"), int.from_bytes(prev, "big")
            line = bytearray((((a & low) + (b & low)) ^ ((a ^ b) & high)).to_bytes(stride, "big"))
            rows.append(bytes(line))
            prev = line
            continue
        for i in range(stride):
            a = line[i - n] if i >= n else 0
            b, c = prev[i], (prev[i - n] if i >= n else 0)
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return n, rows


def _luminance(rgb) -> float:
    def linear(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _ratio(fg, bg) -> float:
    dark, light = sorted((_luminance(fg), _luminance(bg)))
    return (light + 0.05) / (dark + 0.05)


def test_the_measure_itself():
    """WCAG's own figures, and a PNG of every filter read back."""
    assert _ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert _ratio((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)
    rows = [bytes([(x * 37 + y * 11) % 256 for x in range(12)]) for y in range(5)]
    prev, raw = bytes(12), b""
    for kind, row in enumerate(rows):  # each row with another filter
        left = bytes(3) + row[:-3]
        upleft = bytes(3) + prev[:-3]
        def paeth(a, b, c):
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            return a if pa <= pb and pa <= pc else b if pb <= pc else c
        coded = [row,
                 bytes((v - a) & 255 for v, a in zip(row, left)),
                 bytes((v - b) & 255 for v, b in zip(row, prev)),
                 bytes((v - (a + b) // 2) & 255 for v, a, b in zip(row, left, prev)),
                 bytes((v - paeth(a, b, c)) & 255 for v, a, b, c in zip(row, left, prev, upleft))]
        raw += bytes([kind]) + coded[kind]
        prev = row
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 5, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    assert _png_rows(png) == (3, rows)


def screenshot(page, clip: dict[str, int]) -> bytes:
    """A PNG of `clip` (viewport px) encoded for speed (Chromium's
    `optimizeForSpeed`: every row filtered "Up", which _png_rows reads fast);
    the table is still (`Seen.check` waits for it)."""
    left, top = page.evaluate("[visualViewport.pageLeft, visualViewport.pageTop]")
    session = page.context.new_cdp_session(page)
    try:  # (the protocol's clip is in the page's coordinates, not the window's)
        shot = session.send("Page.captureScreenshot", {
            "format": "png", "optimizeForSpeed": True,
            "clip": {**clip, "x": clip["x"] + left, "y": clip["y"] + top, "scale": 1}})
    finally:
        session.detach()
    return base64.b64decode(shot["data"])


def measured(page, root: str = "#screen") -> list[dict]:
    """Each text in `root` wholly in the viewport and not hidden under another
    element, with `worst` (its lowest ratio over its letters' pixels) and
    `needed` (4.5, or 3 for large text)."""
    texts = [t for t in page.evaluate(TEXTS, [root, NAMED])
             if all(0 <= top and bottom <= page.viewport_size["height"]
                    for _, top, _, bottom, _ in t["boxes"])]
    if not texts:
        return []
    # Only the part of the page that holds them is shot: the pure-Python PNG reading is slow.
    left = max(0, math.floor(min(b[0] for t in texts for b in t["boxes"])))
    top = math.floor(min(b[1] for t in texts for b in t["boxes"]))
    right = min(page.viewport_size["width"], math.ceil(max(b[2] for t in texts for b in t["boxes"])))
    bottom = math.ceil(max(b[3] for t in texts for b in t["boxes"]))
    clip = {"x": left, "y": top, "width": right - left, "height": bottom - top}
    n, shown = _png_rows(screenshot(page, clip))
    style = page.add_style_tag(content=HIDE_TEXT)
    _, under = _png_rows(screenshot(page, clip))
    style.evaluate("el => el.remove()")

    def pixel(rows, x, y):
        return rows[y - top][(x - left) * n:(x - left) * n + 3]

    out = []
    for text in texts:
        box = [(x, y) for *_, shows in text["boxes"] for x, y in shows if left <= x < right]
        # The letters: the pixels the text changes where it shows (all of them if
        # it changes none: a text as dark as its background).
        letters = [(x, y) for x, y in box
                   if sum(abs(a - b) for a, b in zip(pixel(shown, x, y), pixel(under, x, y))) > 24]
        if not box:
            continue  # hidden under another element: no contrast to read
        alpha, fg = text["alpha"], text["color"]
        text["worst"] = min((_ratio([alpha * f + (1 - alpha) * b for f, b in zip(fg, bg)], bg)
                             for bg in (pixel(under, x, y) for x, y in letters or box)),
                            default=21.0)
        text["needed"] = 3.0 if text["large"] else 4.5
        out.append(text)
    return out


class Seen:
    """The texts measured so far; none under its threshold."""

    def __init__(self, where: str, ui) -> None:
        self.where, self.names, self.ui = where, set(), ui

    def check(self, page, when: str) -> None:
        page.wait_for_function(self.ui.STILL)
        for text in measured(page):
            self.names.add(text["named"] or text["name"])
            assert text["worst"] >= text["needed"], (
                f"{self.where}, {when}: {text['name']} \"{text['text']}\" reads at "
                f"{text['worst']:.2f}:1, under {text['needed']}:1")

    def check_scrolled(self, page, when: str) -> None:
        """At the top of the page, then with the prompt at the bottom of the window."""
        page.evaluate("window.scrollTo(0, 0)")
        self.check(page, when + ", the page's top")
        page.eval_on_selector("#prompt", "el => el.scrollIntoView({block: 'end'})")
        self.check(page, when + ", scrolled to the prompt")


@pytest.mark.parametrize("mode, me, seed", [("4A", "0", 4), ("3", "1", 2)], ids=["4p", "3p"])
def test_werner_table_text_reads_at_4_5_to_1(page, ui, mode, me, seed):
    """Item 3: the info line, the prompt and the label of cards left by a
    Transformation (the deals leave some: see test_werner_layout), and every
    other text of the table, at the first decision and the first one with
    cards left on the table, at each size."""
    ui.open_site(page, "?lang=en&speed=instant")
    ui.start_game(page, mode=mode, me=me, seed=seed, bots="random")
    seen = Seen(f"Werner {mode}", ui)
    carried = False
    for turn in range(40):
        if ui.wait_settled(page) == "modal":
            break
        if turn == 0 or (not carried and page.locator(".carried > span").count()):
            carried = carried or turn > 0
            for width, height in ui.at_sizes(page, SIZES):
                seen.check_scrolled(page, f"decision {turn}, {width}x{height}")
        target = ".card.playable" if page.locator(".card.playable").count() \
            else ".seat.designatable"
        ui.click_and_wait(page, target)
    assert carried, "no Transformation left cards on the table: pick another deal"
    assert set(NAMED) <= seen.names, seen.names


def test_duel_table_text_reads_at_4_5_to_1(page, ui):
    ui.open_site(page, "?lang=en&speed=instant&game=jekyll-vs-hyde")
    page.fill("#f-seed", "5")
    page.click("#start")
    page.wait_for_selector("body[data-view=table]")
    seen = Seen("the duel", ui)
    for turn in range(6):  # the prompt's length, so its place over the gradient, varies
        if ui.wait_settled(page) != "me":
            break
        for width, height in ui.at_sizes(page, SIZES):
            seen.check_scrolled(page, f"decision {turn}, {width}x{height}")
        if page.locator("#jvh-pick").count():  # cards to give or swap: a Potion first
            need = int(page.get_attribute("#jvh-pick", "data-need"))
            cards = sorted(page.eval_on_selector_all(
                "#jvh-pick [data-part]", "els => els.map(e => e.dataset.part)"),
                key=lambda c: not c.endswith("+"))
            for card in cards[:need]:
                page.click(f'#jvh-pick [data-part="{card}"]')
            ui.click_and_wait(page, "#jvh-confirm")
        else:
            ui.duel_play_first(page)
    assert "#prompt" in seen.names, seen.names


def test_embedded_example_text_reads_at_4_5_to_1(page, ui):
    """The scripted Transformation example of embed.html, each step, at each size."""
    page.goto(page.site_url + "embed.html?game=jekyll-hyde&scenario=transformation&lang=en")
    page.wait_for_selector("body[data-state=ready][data-view=scenario]", timeout=60000)
    seen = Seen("embed.html", ui)
    for _ in range(30):
        step = page.get_attribute("body", "data-step")
        for width, height in ui.at_sizes(page, SIZES):
            seen.check(page, f"step {step}, {width}x{height}")
        if page.is_disabled("#ex-next"):
            break
        page.click("#ex-next")
        page.wait_for_selector(f"body:not([data-step='{step}'])")
    assert ".tinfo" in seen.names, seen.names
