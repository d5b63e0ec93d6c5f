"""game/web/online/qr.py against independent code: the matrices of qrcode-generator
(tests/qr_oracle.js) for the same text and mask, and jsQR
(tests/qr_decode.js) reading back what qr_matrix draws with the mask it chose.
Both are pinned devDependencies, run by Node."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from game.web.draw.html import Html
from game.web.online.qr import QUIET_ZONE, _format_cells, _penalty, qr_matrix, qr_svg

ROOT = Path(__file__).resolve().parent.parent
needs_node = pytest.mark.skipif(
    shutil.which("node") is None or not (ROOT / "node_modules" / "qrcode-generator").is_dir()
    or not (ROOT / "node_modules" / "jsqr").is_dir(),
    reason="needs node and the devDependencies qrcode-generator and jsqr (npm ci)")

INVITE = "https://example.github.io/jekyll-hyde-games/?join=k3J9xQ2mZ7pL4vR8.Tq5Wn1Ys6Hc0Bd3Fg7Jk2Lm9Np4Rs8Uv1Xz"


def _texts() -> list[str]:
    """Every length from 1 to 200 characters, ASCII and mixed UTF-8 (up to 4
    bytes a character), and the lengths around each version's capacity."""
    rng = random.Random(32)
    url = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~/:?=&"
    wide = url + "éèçàüöß€ŒπЖ中😀🂡"
    texts = ["".join(rng.choice(url) for _ in range(n)) for n in range(1, 201)]
    texts += ["".join(rng.choice(wide) for _ in range(n)) for n in range(1, 201)]
    return [t for t in texts if len(t.encode("utf-8")) <= 213] + _limits()


def _limits() -> list[str]:
    """Each version's fullest text and the one a byte longer; a few odd ones."""
    capacities = (14, 26, 42, 62, 84, 106, 122, 152, 180, 213)  # versions 1-10, level M
    return ["x" * n for c in capacities for n in (c, c + 1) if n <= 213] + [
        INVITE, " ", "\x00\n\t", "Жекил и Хайд"]


def _node(script: str, payload: object) -> object:
    done = subprocess.run(["node", str(ROOT / "tests" / script)], input=json.dumps(payload),
                          capture_output=True, text=True, check=True, cwd=ROOT, timeout=120)
    return json.loads(done.stdout)


def _rows(matrix: list[list[bool]]) -> list[str]:
    return ["".join("1" if dark else "0" for dark in row) for row in matrix]


def _mask_of(rows: list[str]) -> int:
    """The mask a symbol says it uses, read from its format information."""
    cells = _format_cells(len(rows))[0]
    bits = sum((rows[r][c] == "1") << i for i, (r, c) in enumerate(cells)) ^ 0x5412
    assert bits >> 13 == 0b00, "level M"
    return bits >> 10 & 7


@needs_node
@pytest.mark.slow  # the reference generator over every version (6 s)
def test_the_matrices_are_qrcode_generators_for_the_same_mask():
    texts = _texts()
    theirs = _node("qr_oracle.js", texts)
    assert isinstance(theirs, list)
    sizes = set()
    for text, rows in zip(texts, theirs, strict=True):
        assert _rows(qr_matrix(text, _mask_of(rows))) == rows, text
        sizes.add(len(rows))
    assert sizes == {17 + 4 * v for v in range(1, 11)}     # every version met


@needs_node
@pytest.mark.parametrize("texts", [
    pytest.param(_limits, id="limits"),  # each version's fullest and one byte over, the odd ones
    pytest.param(lambda: _texts()[::5], id="every-fifth", marks=pytest.mark.slow),  # (80 more: 2 s)
])
def test_a_decoder_reads_back_the_texts(texts):
    texts = texts()
    assert _node("qr_decode.js", [_rows(qr_matrix(t)) for t in texts]) == texts


@needs_node
def test_the_decoder_would_notice_a_wrong_symbol():
    rows = _rows(qr_matrix(INVITE))
    broken = [row[:8] + "".join("1" if ch == "0" else "0" for ch in row[8:-8]) + row[-8:]
              if 8 < r < len(rows) - 8 else row for r, row in enumerate(rows)]
    assert _node("qr_decode.js", [rows, broken]) == [INVITE, None]


def test_the_chosen_mask_has_the_least_penalty_the_lowest_on_a_tie():
    for text in ("a", INVITE, "é" * 90):
        penalties = [_penalty(qr_matrix(text, m)) for m in range(8)]
        assert qr_matrix(text) == qr_matrix(text, penalties.index(min(penalties)))
    assert len({_penalty(qr_matrix(INVITE, m)) for m in range(8)}) > 1  # the choice matters


def test_the_penalty_rules_by_hand():
    light = [[False] * 21 for _ in range(21)]
    # N1: 42 lines of 21 alike, 3 + 16 each; N2: 20×20 blocks; N4: 0 % dark is 10 steps of 5 %
    assert _penalty(light) == 42 * 19 + 400 * 3 + 10 * 10
    checker = [[(r + c) % 2 == 0 for c in range(21)] for r in range(21)]
    assert _penalty(checker) == 0                   # 221 of 441 dark: 50.1 %
    finder = [list(row) for row in checker]
    finder[0] = [ch == "1" for ch in "1011101" + "0" * 14]
    # N3: 1:1:3:1:1 with the quiet zone before and four light after, once;
    # N1: the run of 14 light, 3 + 9; no 2×2 block beside an alternating row;
    # N4: 216 of 441 dark, 49 %
    assert _penalty(finder) == 40 + 12


def test_the_smallest_version_and_the_limit():
    assert len(qr_matrix("x" * 14)) == 21 and len(qr_matrix("x" * 15)) == 25
    assert len(qr_matrix("é" * 106)) == 57                 # 212 bytes, version 10
    assert len(qr_matrix(INVITE)) == 41                    # version 6
    with pytest.raises(ValueError):
        qr_matrix("x" * 214)


def test_the_svg_draws_the_matrix_with_a_quiet_zone_and_a_name():
    svg = qr_svg(INVITE, 'Invite <"Jekyll" & Hyde>')
    assert isinstance(svg, Html)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    matrix = qr_matrix(INVITE)
    side = len(matrix) + 2 * QUIET_ZONE
    assert root.get("role") == "img" and root.get("aria-label") == 'Invite <"Jekyll" & Hyde>'
    assert root.findtext(f"{ns}title") == 'Invite <"Jekyll" & Hyde>'
    assert root.get("viewBox") == f"0 0 {side} {side}" and root.get("width") is None
    assert root.get("shape-rendering") == "crispEdges"
    paths = root.findall(f"{ns}path")
    assert len(paths) == 1
    assert _cells(paths[0].get("d", "")) == {
        (r + QUIET_ZONE, c + QUIET_ZONE) for r, row in enumerate(matrix)
        for c, dark in enumerate(row) if dark}


def _cells(d: str) -> set[tuple[int, int]]:
    """The modules a path of `M{x} {y}h{w}v1h-{w}z` runs covers."""
    cells = set()
    for run in d.split("M")[1:]:
        start, rest = run.split("h", 1)
        x, y = map(int, start.split())
        width = int(rest.split("v")[0])
        assert rest == f"{width}v1h-{width}z"
        cells |= {(y, x + i) for i in range(width)}
    return cells
