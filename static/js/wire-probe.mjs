// `window.wireProbe`: the browser tests' handle on this page's connections
// (tests/browser/test_online_wire.py, test_online_rogue.py): wire-host.mjs's
// wires, opened and driven by a test instead of the game. front.mjs loads it
// only when a test's script set `window.jhgWireProbe` before the page loaded:
// a link cannot, so no link can point a page at another relay.
import { Wires } from "./wire-host.mjs";

// game/web/online/connection.py's APP_ID and MAX_MESSAGE, game/web/dom/wire.py's
// RELAY_WAIT_S (tests/test_online_connection.py compares them).
const APP_ID = "jekyll-hyde-games";
const MAX_MESSAGE = 262144;
const RELAY_WAIT_MS = 8000;
const KINDS = { joined: "PeerJoined", left: "PeerLeft", received: "Received", failed: "WireFailed",
                relays: "RelaysChanged" };

export function install(window) {
  const heard = [];  // [kind, peer or code, text, ms since open]
  const waiting = new Map();
  let opened = 0;
  let id = 0;
  let asks = 0;
  const wires = new Wires((event) => {
    if ("reply" in event) {
      const { resolve, reject } = waiting.get(event.reply);
      waiting.delete(event.reply);
      if ("error" in event) reject(new Error(event.error));
      else resolve(event.value);
    } else if (KINDS[event.event]) {
      heard.push([KINDS[event.event], event.event === "failed" ? event.code
                  : event.event === "relays" ? `${event.reached}/${event.of}` : event.peer,
                  event.text ?? "", Math.round(performance.now() - opened)]);
    }
  });
  const open = (order) => {
    if (id) wires.take({ id, close: true });
    id += 1;
    opened = performance.now();
    wires.take({ id, ...order });
  };
  const ask = (order) => new Promise((resolve, reject) => {
    waiting.set(++asks, { resolve, reject });
    wires.take({ id, ask: asks, ...order });
  });
  // The descriptions travel between the tests' pages as one word each.
  const code = (sdp) => btoa(sdp);
  window.wireProbe = {
    // `key`: the relayed path's (wire.mjs's relayPath) as JSON text, or none.
    openRelays: (room, secret, relays, ice, key = "null") => open({
      open: "relays", appId: APP_ID, room, secret, relays: JSON.parse(relays),
      iceServers: JSON.parse(ice).map((urls) => ({ urls })), max: MAX_MESSAGE, wait: RELAY_WAIT_MS,
      key: JSON.parse(key) }),
    openLink: () => open({ open: "link", iceServers: [], max: MAX_MESSAGE }),
    // "peer code"
    invite: async () => {
      const [peer, sdp] = await ask({ invite: true });
      return `${peer} ${code(sdp)}`;
    },
    accept: (peer, answer) => ask({ accept: [peer, atob(answer)] }),
    answer: async (offer) => code(await ask({ answer: atob(offer) })),
    send: (peer, text) => wires.take({ id, send: [peer, text] }),
    close: () => wires.take({ id, close: true }),
    events: () => JSON.stringify(heard),
  };
}
