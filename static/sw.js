// Service worker: the site and its runtime offline after the first visit.
// Online it stays out of the way; offline it answers from the precache.
// `python -m game build` fills in CACHE (a hash of every precached file, so a
// new deployment gets a new cache and the old one is deleted) and FILES.
const CACHE = "__CACHE__";
const FILES = __FILES__;
const PREFIX = "jhg-";

self.addEventListener("install", (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

// Every file of FILES in the cache, or the install fails (and offline play is
// not ready: static/js/update.js says so). An install cut short (a connection
// lost, a browser closed) keeps what it had cached under this version's name:
// the next one, at the next visit, fetches only the rest.
async function precache() {
  const cache = await caches.open(CACHE);
  const have = new Set((await cache.keys()).map((req) => req.url));
  const missing = FILES.filter((file) => !have.has(new URL(file, self.location.href).href));
  const done = await Promise.allSettled(missing.map((file) => cache.add(file)));
  const failed = done.filter((d) => d.status === "rejected");
  if (failed.length) throw new Error(`${failed.length} of ${FILES.length} files not cached: ${failed[0].reason}`);
}

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
