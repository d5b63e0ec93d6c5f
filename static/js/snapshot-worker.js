// Inflates Python's memory snapshot for static/js/python.mjs, off the page's
// main thread: inflating its megabytes there took several tasks of 30-100 ms
// each while the page was meant to answer clicks.
//
// Sent {size, body} (the gzipped stream, transferred), or where streams cannot
// be transferred {size} and then the chunks as they arrive ({chunk}, then
// {end: true}), it answers {bytes} (a Uint8Array of `size` bytes, its buffer
// transferred) or {error}.
let size = 0, writer = null, inflated = null;

function fail(e) {
  postMessage({ error: String(e) });
  close();
}

self.onmessage = ({ data }) => {
  if (data.size) {
    size = data.size;
    const stream = new DecompressionStream("gzip");
    if (data.body) data.body.pipeTo(stream.writable).catch(() => {});  // a failure ends `inflated`
    else writer = stream.writable.getWriter();
    inflated = new Response(stream.readable).arrayBuffer();
    inflated.then((raw) => {
      if (raw.byteLength > size) throw new Error("snapshot larger than built");
      const bytes = new Uint8Array(size);  // the tail the build dropped: zeros
      bytes.set(new Uint8Array(raw));
      postMessage({ bytes }, [bytes.buffer]);
      close();
    }).catch(fail);
  } else if (data.chunk) {
    writer.write(data.chunk).catch(() => {});  // a failure ends `inflated`
  } else if (data.end) {
    writer.close().catch(() => {});
  }
};
