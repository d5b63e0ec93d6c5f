"""Start-up from the build's memory snapshot (static/js/python.mjs), and its fallbacks.

The session's browser profile keeps the service worker between tests, as a
returning player's browser does: once it has precached the snapshot, a visit
starts Python from it.
"""

from __future__ import annotations

import pytest

# The cached snapshot's URL, once the service worker has precached it.
CACHED_SNAPSHOT = """async () => {
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const req of await cache.keys()) if (/snapshot-[0-9a-f]+\\.bin\\.gz$/.test(req.url)) {
      return [name, req.url];
    }
  }
  return null;
}"""
# Replace the cached snapshot by `bytes` (gzipped if asked), or delete it (bytes null);
# the original is kept aside under another URL (caches.match looks in every cache).
SPOIL = """async ([name, url, bytes, gzip]) => {
  const cache = await caches.open(name), kept = url + "?kept";
  if (!(await cache.match(kept))) await cache.put(kept, await cache.match(url));
  if (bytes === null) return cache.delete(url);
  let body = new Blob([new Uint8Array(bytes)]).stream();
  if (gzip) body = body.pipeThrough(new CompressionStream("gzip"));
  await cache.put(url, new Response(body));
}"""
RESTORE = """async ([name, url]) => {
  const cache = await caches.open(name);
  await cache.put(url, await cache.match(url + "?kept"));
  await cache.delete(url + "?kept");
}"""


def _cached_snapshot(page, ui) -> list[str]:
    """Visit until the service worker has precached the snapshot; its [cache, url]."""
    ui.open_site(page, "?speed=instant")
    page.evaluate("navigator.serviceWorker.ready.then(() => 1)")
    page.wait_for_function(f"({CACHED_SNAPSHOT})()", timeout=60000, polling=500)
    return page.evaluate(f"({CACHED_SNAPSHOT})()")


def _deal(page, seed: str) -> list[str]:
    """A fresh visit (nothing saved) that deals with this deal number ('' for none)."""
    page.fill("#f-seed", seed)
    page.click("#start")
    page.wait_for_selector("body[data-view=table]")
    return page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.card)")


def test_a_returning_visit_starts_from_the_snapshot_and_deals_new_games(page, ui):
    _cached_snapshot(page, ui)
    hands = []
    for seed in ("", "", "7", "7"):
        ui.open_site(page, "?speed=instant")
        assert page.evaluate("document.documentElement.dataset.python") == "snapshot"
        hands.append(_deal(page, seed))
    assert hands[0] and hands[0] != hands[1], "the snapshot's random state was not reseeded"
    assert hands[2] == hands[3], "a deal number must deal the same cards"


@pytest.mark.parametrize("spoilt", ["missing", "not gzip", "not a snapshot"])
def test_a_missing_or_corrupt_snapshot_still_starts_the_page(page, ui, spoilt):
    name, url = _cached_snapshot(page, ui)
    bytes_, gzip = {"missing": (None, False), "not gzip": (list(b"garbage"), False),
                    "not a snapshot": (list(b"\x01" * 4096), True)}[spoilt]
    page.evaluate(SPOIL, [name, url, bytes_, gzip])
    try:
        ui.open_site(page, "?speed=instant")
        assert page.evaluate("document.documentElement.dataset.python") == "fresh"
        assert _deal(page, "7")  # and it plays
        assert page.is_hidden("#modal")
    finally:
        page.evaluate(RESTORE, [name, url])
