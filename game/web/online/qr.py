"""A QR code drawn by the page itself, for an online table's invite link and
connection code: no service, no browser import (it runs in Pyodide).

Byte mode (the text as UTF-8), error correction level M (15 % of the symbol
may be lost: a phone screen photographed at an angle or a smudged printout
still reads, and a 120-character link still fits version 7, 45×45 modules),
the smallest version 1–10 that holds the text (up to 213 bytes), and the mask
the standard's four penalty rules (ISO/IEC 18004, 7.8.3) like best.

>>> matrix = qr_matrix("hello")
>>> len(matrix), len(matrix[0])          # version 1: 21×21 modules
(21, 21)
>>> [int(dark) for dark in matrix[0][:8]]  # a finder pattern, then its separator
[1, 1, 1, 1, 1, 1, 1, 0]
>>> qr_svg("hi", "Invite").startswith('<svg xmlns="http://www.w3.org/2000/svg" role="img"')
True
"""

from __future__ import annotations

import re
from typing import Callable, NamedTuple

from game.web.draw.html import Html, html

Matrix = list[list[bool]]


class Version(NamedTuple):
    ec_per_block: int             # error correction codewords in each block
    blocks: tuple[int, ...]       # data codewords of each block, short ones first
    alignment: tuple[int, ...]    # centre rows/columns of the alignment patterns


# Level M, ISO/IEC 18004 tables 9 and E.1.
VERSIONS: dict[int, Version] = {
    1: Version(10, (16,), ()),
    2: Version(16, (28,), (6, 18)),
    3: Version(26, (44,), (6, 22)),
    4: Version(18, (32, 32), (6, 26)),
    5: Version(24, (43, 43), (6, 30)),
    6: Version(16, (27,) * 4, (6, 34)),
    7: Version(18, (31,) * 4, (6, 22, 38)),
    8: Version(22, (38, 38, 39, 39), (6, 24, 42)),
    9: Version(22, (36, 36, 36, 37, 37), (6, 26, 46)),
    10: Version(26, (43, 43, 43, 43, 44), (6, 28, 50)),
}
LEVEL_M = 0b00                    # the two level bits of the format information
QUIET_ZONE = 4                    # light modules around the symbol
RUNS = re.compile(r"0{5,}|1{5,}")
FINDER_LIKE = re.compile(r"(?=(?<=0000)1011101|10111010000)")  # zero-width: overlaps count too

MASKS: tuple[Callable[[int, int], bool], ...] = (  # dark flips where true, (row, column)
    lambda r, c: (r + c) % 2 == 0,
    lambda r, c: r % 2 == 0,
    lambda r, c: c % 3 == 0,
    lambda r, c: (r + c) % 3 == 0,
    lambda r, c: (r // 2 + c // 3) % 2 == 0,
    lambda r, c: r * c % 2 + r * c % 3 == 0,
    lambda r, c: (r * c % 2 + r * c % 3) % 2 == 0,
    lambda r, c: ((r + c) % 2 + r * c % 3) % 2 == 0,
)


def qr_svg(text: str, label: str) -> Html:
    """The QR code of `text` as one SVG element that fills its container's
    width: a light square with the quiet zone, one path of the dark modules
    (a rectangle per horizontal run), `label` as its accessible name; Html,
    so that it goes into the page as it is (the label escaped)."""
    matrix = qr_matrix(text)
    side = len(matrix) + 2 * QUIET_ZONE
    runs = []
    for r, row in enumerate(matrix):
        c = 0
        while c < len(row):
            if not row[c]:
                c += 1
                continue
            start = c
            while c < len(row) and row[c]:
                c += 1
            runs.append(f"M{start + QUIET_ZONE} {r + QUIET_ZONE}h{c - start}v1h-{c - start}z")
    return html('<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{label}"'
                ' viewBox="0 0 {side} {side}" shape-rendering="crispEdges">'
                '<title>{label}</title><rect width="{side}" height="{side}" fill="#fff"/>'
                '<path fill="#000" d="{d}"/></svg>', label=label, side=side, d="".join(runs))


def qr_matrix(text: str, mask: int | None = None) -> Matrix:
    """The modules of `text`'s QR code, row by row, True for dark, without
    the quiet zone. `mask` forces one of the eight masks (for tests); by
    default the one with the least penalty, the lowest on a tie. Raises
    ValueError when the text's UTF-8 is over 213 bytes (version 10)."""
    data = text.encode("utf-8")
    version = _smallest_version(len(data))
    codewords = _interleave(_blocks(_data_codewords(data, version), VERSIONS[version]))
    base, reserved = _function_patterns(version)
    _place(base, reserved, codewords)
    choices = range(8) if mask is None else (mask,)
    candidates = [_masked(base, reserved, version, m) for m in choices]
    return min(candidates, key=_penalty)


def _smallest_version(length: int) -> int:
    for version, spec in VERSIONS.items():
        count_bits = 8 if version < 10 else 16
        if 4 + count_bits + 8 * length <= 8 * sum(spec.blocks):
            return version
    raise ValueError(f"{length} bytes do not fit a version 1-10 QR code at level M")


def _data_codewords(data: bytes, version: int) -> list[int]:
    """Mode, count, bytes, terminator, then the pad codewords 0xEC 0x11."""
    capacity = sum(VERSIONS[version].blocks)
    bits = "0100" + format(len(data), "08b" if version < 10 else "016b")
    bits += "".join(format(b, "08b") for b in data)
    bits += "0" * min(4, 8 * capacity - len(bits))
    bits += "0" * (-len(bits) % 8)
    words = [int(bits[i:i + 8], 2) for i in range(0, len(bits), 8)]
    return words + [0xEC, 0x11] * ((capacity - len(words)) // 2) + [0xEC] * ((capacity - len(words)) % 2)


def _gf_tables() -> tuple[list[int], list[int]]:
    """Powers of 2 (α) in GF(256) modulo x⁸+x⁴+x³+x²+1, and their logarithms."""
    exp, log = [0] * 512, [0] * 256
    value = 1
    for i in range(255):
        exp[i] = exp[i + 255] = value
        log[value] = i
        value <<= 1
        if value & 0x100:
            value ^= 0x11D
    return exp, log


EXP, LOG = _gf_tables()


def _ec_codewords(data: list[int], degree: int) -> list[int]:
    """The Reed–Solomon remainder of `data` by the generator ∏(x − αⁱ), i < degree."""
    generator = [1]
    for i in range(degree):
        generator = [a ^ (EXP[LOG[b] + i] if b else 0)
                     for a, b in zip(generator + [0], [0] + generator)]
    remainder = list(data) + [0] * degree
    for i in range(len(data)):
        factor = remainder[i]
        if factor:
            for j, g in enumerate(generator):
                if g:
                    remainder[i + j] ^= EXP[LOG[factor] + LOG[g]]
    return remainder[len(data):]


def _blocks(data: list[int], spec: Version) -> list[tuple[list[int], list[int]]]:
    out, start = [], 0
    for size in spec.blocks:
        block = data[start:start + size]
        out.append((block, _ec_codewords(block, spec.ec_per_block)))
        start += size
    return out


def _interleave(blocks: list[tuple[list[int], list[int]]]) -> list[int]:
    """Each block's first data codeword, then each one's second, ..., then the same for EC."""
    words = []
    for part in (0, 1):
        longest = max(len(block[part]) for block in blocks)
        for i in range(longest):
            words += [block[part][i] for block in blocks if i < len(block[part])]
    return words


def _function_patterns(version: int) -> tuple[Matrix, Matrix]:
    """The finder, separator, timing and alignment patterns and the dark
    module; `reserved` marks them and the format and version areas."""
    size = 17 + 4 * version
    dark = [[False] * size for _ in range(size)]
    reserved = [[False] * size for _ in range(size)]

    def put(r: int, c: int, value: bool) -> None:
        if 0 <= r < size and 0 <= c < size:
            dark[r][c], reserved[r][c] = value, True

    for top, left in ((0, 0), (0, size - 7), (size - 7, 0)):
        for dr in range(-1, 8):
            for dc in range(-1, 8):
                ring = max(abs(dr - 3), abs(dc - 3))  # 4 is the separator
                put(top + dr, left + dc, ring != 2 and ring != 4)
    for i in range(8, size - 8):
        put(6, i, i % 2 == 0)
        put(i, 6, i % 2 == 0)
    centres = VERSIONS[version].alignment
    corners = {(6, 6), (6, size - 7), (size - 7, 6)}  # the finder patterns' centres
    for r in centres:
        for c in centres:
            if (r, c) not in corners:
                for dr in range(-2, 3):
                    for dc in range(-2, 3):
                        put(r + dr, c + dc, max(abs(dr), abs(dc)) != 1)
    for cells in _format_cells(size):
        for r, c in cells:
            reserved[r][c] = True
    put(size - 8, 8, True)
    if version >= 7:
        for r, c in _version_cells(size):
            reserved[r][c] = reserved[c][r] = True
    return dark, reserved


def _format_cells(size: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Where the 15 format bits go, least significant first: around the top
    left finder, and split between the other two."""
    first = ([(i, 8) for i in range(6)] + [(7, 8), (8, 8), (8, 7)]
             + [(8, 14 - i) for i in range(9, 15)])
    second = [(8, size - 1 - i) for i in range(8)] + [(size - 15 + i, 8) for i in range(8, 15)]
    return first, second


def _version_cells(size: int) -> list[tuple[int, int]]:
    """The 18 version bits, least significant first, in the 6×3 block left of
    the top right finder (transposed below the bottom left one)."""
    return [(i // 3, size - 11 + i % 3) for i in range(18)]


def _place(dark: Matrix, reserved: Matrix, codewords: list[int]) -> None:
    """The codewords' bits, most significant first, up and down two-module
    columns from the right, skipping the vertical timing pattern."""
    size = len(dark)
    bits = [(word >> (7 - i)) & 1 == 1 for word in codewords for i in range(8)]
    index = 0
    right = size - 1
    while right > 0:
        if right == 6:
            right = 5
        upward = (right + 1) & 2 == 0
        for step in range(size):
            r = size - 1 - step if upward else step
            for c in (right, right - 1):
                if not reserved[r][c] and index < len(bits):
                    dark[r][c] = bits[index]
                    index += 1
        right -= 2


def _bch(value: int, bits: int, generator: int) -> int:
    """`value` followed by its `bits`-bit remainder modulo `generator` (a BCH code)."""
    remainder = value
    for _ in range(bits):
        remainder = (remainder << 1) ^ ((remainder >> (bits - 1)) * generator)
    return value << bits | remainder


def _masked(base: Matrix, reserved: Matrix, version: int, mask: int) -> Matrix:
    size = len(base)
    flip = MASKS[mask]
    matrix = [[base[r][c] != (not reserved[r][c] and flip(r, c)) for c in range(size)]
              for r in range(size)]
    format_bits = _bch(LEVEL_M << 3 | mask, 10, 0x537) ^ 0x5412
    for cells in _format_cells(size):
        for i, (r, c) in enumerate(cells):
            matrix[r][c] = format_bits >> i & 1 == 1
    if version >= 7:
        version_bits = _bch(version, 12, 0x1F25)
        for i, (r, c) in enumerate(_version_cells(size)):
            matrix[r][c] = matrix[c][r] = version_bits >> i & 1 == 1
    return matrix


def _penalty(matrix: Matrix) -> int:
    """The four penalty rules, scored on the symbol as printed (format and
    version information included, as ZXing does): runs of five or more
    alike, 2×2 blocks alike, each finder-like 1:1:3:1:1 pattern with four
    light modules on either side (the quiet zone counts as light), and the
    dark share's distance from half."""
    size = len(matrix)
    rows = ["".join("1" if dark else "0" for dark in row) for row in matrix]
    score = 0
    for line in rows + ["".join(column) for column in zip(*rows)]:
        score += sum(len(run) - 2 for run in RUNS.findall(line))
        score += 40 * len(FINDER_LIKE.findall("0000" + line + "0000"))
    for upper, lower in zip(rows, rows[1:]):
        pairs = [a + b for a, b in zip(upper, lower)]
        score += 3 * sum(p == q and p in ("00", "11") for p, q in zip(pairs, pairs[1:]))
    dark = sum(row.count("1") for row in rows)
    return score + 10 * (abs(20 * dark - 10 * size * size) // (size * size))  # per 5 % off 50 %
