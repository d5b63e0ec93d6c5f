// Three pages' relayed paths (static/js/wire.mjs's relayPath) under Node,
// through the local relay, for tests/test_online_relayed_parts.py: the host
// (its relayed key signed with the table's key, its own TURN server set) and
// two friends holding the same link, Ann and Bea. Each page is its own copy of
// wire.mjs and Trystero (a page's Nostr id is its module's). Prints one JSON
// object of findings. argv: the relay's URL, the checkout (for `ws`), the
// three pages' folders (each with js/wire.mjs and vendor/trystero).
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const [relay, root, ...folders] = process.argv.slice(2);
globalThis.WebSocket = createRequire(`${root}/package.json`)("ws");
const [hostWire, annWire, beaWire] = await Promise.all(
  folders.map((folder) => import(pathToFileURL(`${folder}/js/wire.mjs`).href)));

const TURN = { urls: "turns:turn.example.org:5349", username: "ann-turn", credential: "pa55-word" };
const [point, privateKey] = await hostWire.makeKey();
const table = { appId: "jhg-test", room: "room1", secret: "secret1", relays: [relay] };
const page = (wire, key, turn) => {
  const seen = { met: new Set(), turns: [], received: [] };
  return wire.relayPath({ ...table, key, turn }, {
    heard: (peer) => seen.met.add(peer),
    gone() {},
    received: (peer, text) => seen.received.push([peer, text]),
    turn: (server) => seen.turns.push(server),
  }).then((path) => Object.assign(path, { seen }));
};
const host = await page(hostWire, { sign: privateKey }, TURN);
const ann = await page(annWire, { verify: point });
const bea = await page(beaWire, { verify: point });
const until = async (what, ms = 20000) => {
  for (const start = Date.now(); !what(); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() - start > ms) throw new Error(`timed out: ${what}`);
  }
};
await until(() => ann.seen.met.has(host.me) && bea.seen.met.has(host.me) &&
            host.seen.met.has(ann.me) && host.seen.met.has(bea.me));
await until(() => ann.seen.turns.length && bea.seen.turns.length);

const found = {
  turn_to_ann: ann.seen.turns[0], turn_to_bea: bea.seen.turns[0], host_took_none: !host.seen.turns.length,
  friends_never_met: !ann.seen.met.has(bea.me) && !bea.seen.met.has(ann.me),
};
// The direct path: what the host seals for Ann, on a channel another friend may sit in the middle of.
const hand = "Ann's hand: the seven of spades";
const sealed = await host.sealFor(ann.me, hand);
found.sealed_hides = !sealed.includes("seven") && !sealed.includes(hand);
found.bea_reads = await bea.openFrom(host.me, sealed);
found.ann_reads = await ann.openFrom(host.me, sealed);
found.replayed = await ann.openFrom(host.me, sealed);
const forged = await bea.sealFor(host.me, '{"t":"decide"}');  // Bea, as Ann on a tampered channel
found.forged_read_by_host = await host.openFrom(ann.me, forged);
found.ann_writes = await host.openFrom(ann.me, await ann.sealFor(host.me, "Ann decides"));
// The relayed path: the host's message to Ann reaches Ann alone.
host.send(ann.me, "relayed: Ann's cards");
await until(() => ann.seen.received.length);
// A long one (a rejoin's table is ~95 KB): cut into pieces the relay takes.
host.send(ann.me, `long:${"L".repeat(20000)}`);
await until(() => ann.seen.received.length === 2);
found.piece = host.pieceSize();
await new Promise((r) => setTimeout(r, 500));
found.ann_received = ann.seen.received;
found.bea_received = bea.seen.received;
await Promise.all([host.leave(), ann.leave(), bea.leave()]);
console.log(JSON.stringify(found));
process.exit(0);
