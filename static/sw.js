// Service worker: the site and its runtime offline after the first visit.
// `python -m game build` fills in CACHE (a hash of every precached file, so a
// new deployment gets a new cache and the old one is deleted) and FILES.
const CACHE = "__CACHE__";
const FILES = __FILES__;
const PREFIX = "jhg-";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE)
                                      .map((k) => caches.delete(k))))
      .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // Pages are cached without their query (?lang=fr and the like).
    const hit = await cache.match(req, {ignoreSearch: req.mode === "navigate"});
    if (hit) return hit;
    const resp = await fetch(req);
    if (resp.ok && resp.type === "basic") cache.put(req, resp.clone());
    return resp;
  })());
});
