"""How a guest knows its host (issue 32): in the relays' mesh every page that
holds the invite link meets every other, so another friend could answer a
guest as if it were the host. The host's page makes an ECDSA P-256 key pair
(the browser's WebCrypto, game.web.dom.keys), and the invite link carries
its public key. A guest challenges each page it meets with a nonce; the host
signs `proof_text(room, nonce, asker)` where `asker` is the challenging
page's id as the host's wire names it; the guest checks the signature
against its own id. Another friend who passes the challenge on to the host
gets a signature over *its* id, which the guest refuses. Until a page has
proved to be the host, the guest sends it neither its name, the secret nor
its seat token, and reads none of its messages.

Only the WebCrypto calls are in the browser; what is signed, and the key's
short form in the link, are here.

The link holds the public key compressed (33 bytes, 44 characters of
base64url instead of 87); `expand` gives back the 65-byte point that
WebCrypto's "raw" import reads.

>>> key = compress(bytes.fromhex("04" + "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
...                                     "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5"))
>>> key
'A2sX0fLhLEJH-Lzm5WOkQPJ3A32BLeszoPShOUXYmMKW'
>>> expand(key).hex()[:4], len(expand(key))
('046b', 65)
"""

from __future__ import annotations

import base64
import re
from typing import Awaitable, Protocol

# The curve P-256 (FIPS 186-4, D.1.2.3): y^2 = x^3 - 3x + b over the prime p.
_P = 2**256 - 2**224 + 2**192 + 2**96 - 1
_B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
KEY = re.compile(r"[AB][A-Za-z0-9_-]{43}")  # a compressed point: 02 or 03, then x
NONCE = re.compile(r"[A-Za-z0-9_-]{16,64}")
SIGNATURE = re.compile(r"[A-Za-z0-9_-]{86}")  # r and s, 32 bytes each (WebCrypto's form)


class BadKey(ValueError):
    """Not a P-256 public key of ours."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def compress(point: bytes) -> str:
    """The link's form of an uncompressed public key (04 || x || y)."""
    if len(point) != 65 or point[0] != 4:
        raise BadKey("not an uncompressed P-256 point")
    return _b64(bytes([2 + (point[64] & 1)]) + point[1:33])


def expand(key: str) -> bytes:
    """The uncompressed point (04 || x || y) of the link's key; BadKey if it
    is not a point of the curve. (P-256's p is 3 mod 4: a square root is a power.)

    >>> expand("A" + "_" * 43)
    Traceback (most recent call last):
    ...
    game.online.proof.BadKey: not a point of P-256
    """
    if not KEY.fullmatch(key):
        raise BadKey("not a key")
    data = _unb64(key)
    x = int.from_bytes(data[1:], "big")
    if x >= _P:
        raise BadKey("not a point of P-256")
    square = (pow(x, 3, _P) - 3 * x + _B) % _P
    y = pow(square, (_P + 1) // 4, _P)
    if y * y % _P != square:
        raise BadKey("not a point of P-256")
    if y & 1 != data[0] & 1:
        y = _P - y
    return b"\x04" + x.to_bytes(32, "big") + y.to_bytes(32, "big")


def proof_text(room: str, nonce: str, asker: str) -> str:
    """What the host signs for the page `asker` (its id as the host's wire
    names it) that challenged it with `nonce` in `room`.

    >>> proof_text("room-1", "n" * 16, "peer-A")
    'jekyll-hyde host proof 1|room-1|nnnnnnnnnnnnnnnn|peer-A'
    """
    return f"jekyll-hyde host proof 1|{room}|{nonce}|{asker}"


class Keys(Protocol):
    """The page's signer (the browser's: game.web.dom.keys, WebCrypto)."""

    def make(self) -> Awaitable[list[str]]:
        """A new key pair: [the public key as `compress` gives it, the private key as text]."""

    def sign(self, private: str, text: str) -> Awaitable[str]:
        """The signature of `text` (64 bytes, r || s, in base64url: SIGNATURE)."""

    def verify(self, key: str, text: str, signature: str) -> Awaitable[bool]:
        """Whether `signature` is the signature of `text` by the link's `key`."""
