// Fetches and inflates Python's memory snapshot for static/js/python.mjs, off
// the page's main thread: inflating its megabytes there took several tasks of
// 30-100 ms each while the page was meant to answer clicks.
//
// Asked {url, size}, it answers {found: false} (no snapshot: start Python
// normally), or {found: true} as soon as the bytes are on their way, then
// {bytes} (a Uint8Array of `size` bytes, its buffer transferred); or {error}.
// The service worker's copy is used when there is one; otherwise the network's,
// unless the browser says the connection is slow or the visitor saves data:
// on a slow link the snapshot's megabytes cost more time than Python's
// start-up they save.
self.onmessage = async ({ data: { url, size } }) => {
  try {
    let source = self.caches ? await caches.match(url) : undefined;
    if (!source) {
      const link = navigator.connection;
      if (link && (link.saveData || /(^|-)[23]g$/.test(link.effectiveType || ""))) {
        postMessage({ found: false });
        return;
      }
      source = await fetch(url);
      if (!source.ok) throw new Error(`HTTP ${source.status}`);
    }
    postMessage({ found: true });
    const raw = await new Response(source.body.pipeThrough(new DecompressionStream("gzip")))
      .arrayBuffer();
    if (raw.byteLength > size) throw new Error("snapshot larger than built");
    const bytes = new Uint8Array(size);  // the tail the build dropped: zeros
    bytes.set(new Uint8Array(raw));
    postMessage({ bytes }, [bytes.buffer]);
  } catch (e) {
    postMessage({ error: String(e) });
  }
};
