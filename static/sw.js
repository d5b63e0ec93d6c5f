// Service worker: the site and its runtime offline after the first visit.
// Online it stays out of the way; offline it answers from the precache.
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
      // Online page loads then fetch the page while the worker starts up.
      .then(() => self.registration.navigationPreload && self.registration.navigationPreload.enable())
      .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  // Online, the network (through the browser's own HTTP cache) answers:
  // measured, answering the 9.6 MB wasm from Cache Storage made warm starts
  // slower. When the network fails although the browser says it is online
  // (the server is down, a wifi with no internet), the precache answers.
  // Offline, the precache answers first.
  if (self.navigator.onLine) {
    event.respondWith((async () => {
      try {
        return (req.mode === "navigate" && (await event.preloadResponse)) || (await fetch(req));
      } catch (e) {
        return (await fromCache(req)) || Response.error();
      }
    })());
    return;
  }
  event.respondWith(fromCache(req).then((hit) => hit || fetch(req)));
});

async function fromCache(req) {
  const cache = await caches.open(CACHE);
  // Pages are cached without their query (?lang=fr and the like).
  return cache.match(req, {ignoreSearch: req.mode === "navigate"});
}
