// The relayed path's pure parts (static/js/wire.mjs) under Node, for
// tests/test_online_relayed_parts.py: pieces, their assembly, and the key
// each pair of pages agrees. Prints one JSON object of findings.
import { Assembly, cut, seal, sharedKey, unseal } from "../static/js/wire.mjs";

const ECDH = { name: "ECDH", namedCurve: "P-256" };
const b64 = (bytes) => Buffer.from(bytes).toString("base64url");
const page = async () => {
  const pair = await crypto.subtle.generateKey(ECDH, false, ["deriveBits"]);
  return { pair, point: b64(await crypto.subtle.exportKey("raw", pair.publicKey)) };
};
const fails = async (promise) => promise.then(() => false, () => true);

const long = "x".repeat(95000) + "end";
const pieces = cut(long, 16384);
const found = { pieces: pieces.length, whole: pieces.join("") === long, empty: cut("", 10) };

// Message 2 comes before 1, pieces twice and out of order: handed over once each, in order.
const assembly = new Assembly();
const handed = [];
const take = (n, i, count, piece) => {
  assembly.put(n, i, count, piece);
  for (let text; (text = assembly.whole(assembly.next)) !== null;) {
    handed.push(text);
    assembly.done(assembly.next);
  }
};
take(2, 1, 2, "d"); take(2, 0, 2, "c"); take(1, 1, 2, "b"); take(1, 1, 2, "b"); take(1, 0, 2, "a");
take(1, 0, 2, "a"); take(3, 0, 1, "e"); take(1000, 0, 1, "far ahead");
found.handed = handed;
found.next = assembly.next;
// A piece that spoils a message: dropped, the sender's next copy awaited.
assembly.put(4, 0, 1, "spoilt");
assembly.drop(4);
take(4, 0, 1, "f");
found.after_drop = handed.at(-1);

const [host, ann, bea] = await Promise.all([page(), page(), page()]);
const topic = "t".repeat(64);
const hostAnn = await sharedKey(host.pair, host.point, ann.point, topic);
const annHost = await sharedKey(ann.pair, ann.point, host.point, topic);
const beaHost = await sharedKey(bea.pair, bea.point, host.point, topic);
const [iv, data] = await seal(hostAnn, "d|h|a|1", "Ann's hand");
found.read_by_ann = await unseal(annHost, "d|h|a|1", iv, data);
found.bea_cannot = await fails(unseal(beaHost, "d|h|a|1", iv, data));
found.other_header_cannot = await fails(unseal(annHost, "d|h|a|2", iv, data));
found.hidden = !Buffer.from(data, "base64url").toString("latin1").includes("Ann's hand");
console.log(JSON.stringify(found));
