// Online play's calls into the browser: Trystero's room over Nostr relays and
// a size check on every message, so that an oversized one is dropped here and
// never posted to the game (on the page: wire-host.mjs), and the host's
// WebCrypto keys (in the game's worker: game/web/dom/wire.py's WebKeys).
// Imported only once a player chooses online play; Trystero itself only when
// they choose the relays.

// `handler(text)` for each string message of at most `max` characters. The
// browser tests read what a page was handed (the hidden-card check) from
// `window.jhgTestCapture`, an array only a test's script puts there before the
// page loads; without it nothing is kept.
// A browser test silences this page's channels while they stay connected (a
// frozen tab, a network that drops everything): with `window.jhgTestMute`
// true, set only by a test's script, no message goes out or comes in.
const muted = () => globalThis.jhgTestMute === true;

export function limited(max, handler, refused) {
  return (data) => {
    if (muted()) return;
    if (typeof data === "string" && data.length <= max) {
      if (Array.isArray(globalThis.jhgTestCapture)) globalThis.jhgTestCapture.push(data);
      handler(data);
    } else refused(typeof data === "string" ? data.length : -1);
  };
}

// Let a data channel's messages through `limited` (the exchanged-link way).
export function listen(channel, max, handler, refused) {
  const pass = limited(max, handler, refused);
  channel.onmessage = (event) => pass(event.data);
}

// Join `room` through `relays`; `on` has joined(peer), left(peer),
// received(peer, text), refused(peer, size), path(peer, relayed, turn). A peer is
// joined over a direct channel (Trystero's WebRTC) or, when none opened within
// a few seconds, on the relayed path (relayPath below); it switches to direct
// if a channel opens later, and back to relayed if that channel drops. `key`
// is relayPath's; `turn` the host's own TURN server (an RTCIceServer, or
// null): the host's channels use it, and each friend's once it is handed to
// them on the relayed path (Trystero reads `rtcConfig` for every new
// connection). Resolves to {me, send, leave, relaysUp}; `me` is this page's
// id as the others' wires name it.
export async function joinRelays({ appId, room, secret, relays, iceServers, max, key, turn }, on) {
  const nostr = await import("../vendor/trystero/nostr/index.mjs");
  const rtcConfig = { iceServers: [...iceServers, ...(turn ? [turn] : [])] };
  let joined, action;  // Trystero's room and its one action (enter, below)
  const direct = new Set();  // peers with an open direct channel
  const turned = new Set();  // of those, the ones whose channel goes through a TURN server
  const relayed = new Set();  // peers joined on the relayed path
  const said = new Set();  // peers the game was told of (joined)
  const waits = new Map();  // peer -> the timer that joins it relayed
  const report = (peer) => {
    const path = direct.has(peer) ? false : relayed.has(peer) ? true : null;
    if (path === null) {
      if (said.delete(peer)) on.left(peer);
      return;
    }
    if (!said.has(peer)) {
      said.add(peer);
      on.joined(peer);
    }
    on.path(peer, path, !path && turned.has(peer));
  };
  const pass = (peer, data) =>
    limited(max, (text) => on.received(peer, text), (size) => on.refused(peer, size))(data);
  // The direct channel carries each message sealed with the key this page
  // agreed with that peer on the relayed path (relayPath's sealFor/openFrom),
  // one at a time and in order: a page that tampered with the introductions
  // (any holder of the link can) and sits in the middle of the channel reads
  // and forges nothing.
  const chains = { in: new Map(), out: new Map() };
  let pathMade;
  const ready = new Promise((resolve) => { pathMade = resolve; });  // (relayPath, below)
  const inOrder = (chain, peer, step) =>
    chain.set(peer, (chain.get(peer) ?? Promise.resolve()).then(step).catch(() => {}));
  const heardDirect = (data, { peerId }) => {
    if (muted()) return;
    if (typeof data !== "string" || data.length > sealedMax(max)) {
      on.refused(peerId, typeof data === "string" ? data.length : -1);
      return;
    }
    inOrder(chains.in, peerId, async () => {
      const text = await (await ready).openFrom(peerId, data);
      if (text !== null) pass(peerId, text);
    });
  };
  const enter = () => {
    joined = nostr.joinRoom(
      { appId, password: secret, relayConfig: { urls: relays, warnOnRelayFailure: false },
        rtcConfig },
      room,
      // A page with another secret (or none) cannot decrypt our offers: not a failure of ours.
      { onJoinError: () => {} });
    action = joined.makeAction("m");
    action.onMessage = heardDirect;
    joined.onPeerJoin = (peer) => {
      direct.add(peer);
      report(peer);
      const room = joined;
      throughTurn(room.getPeers()[peer]).then((yes) => {
        if (yes && room === joined && direct.has(peer) && !turned.has(peer)) {
          turned.add(peer);
          report(peer);
        }
      });
    };
    // A closed channel is a page gone (a reload, a closed tab), as it always
    // was; a page still there is heard on the relayed path again (below).
    // (One whose channel never opened, as a guest entering afresh with a TURN
    // server, is still where it was.)
    joined.onPeerLeave = (peer) => {
      if (!direct.delete(peer)) return;
      turned.delete(peer);
      relayed.delete(peer);
      report(peer);
    };
  };
  enter();
  // A guest handed the host's TURN server while it has no direct channel:
  // Trystero's connections so far were made without it and are not tried
  // again, so the room is entered afresh (the same id; the relayed path,
  // its own, carries on meanwhile and the game hears only a path change).
  let turnUnused = false;
  const enterWithTurn = () => {
    if (!turnUnused || direct.size || !relayed.size) return;
    turnUnused = false;
    const old = joined;
    old.onPeerJoin = old.onPeerLeave = null;
    Promise.resolve(old.leave()).catch(() => {}).then(enter);
  };
  // A peer heard on the relayed path and not joined is joined there if no
  // direct channel opened meanwhile and it still speaks (a page that went
  // away with its channel falls silent).
  const relayLater = (peer) => {
    if (said.has(peer) || waits.has(peer)) return;
    waits.set(peer, setTimeout(() => {
      waits.delete(peer);
      if (direct.has(peer) || !path.fresh(peer)) return;
      relayed.add(peer);
      report(peer);
      enterWithTurn();
    }, path.directWait));
  };
  const path = await relayPath({ appId, room, secret, relays, key, turn }, {
    heard: relayLater,
    turn: (server) => {
      if (rtcConfig.iceServers.some((known) => known.urls === server.urls)) return;
      rtcConfig.iceServers.push(server);
      turnUnused = true;
      enterWithTurn();
    },
    gone: (peer) => {
      relayed.delete(peer);
      report(peer);
    },
    received: pass,
  });
  pathMade(path);
  return {
    me: nostr.selfId,
    send: (peer, text) => {
      if (muted()) return;
      if (direct.has(peer)) {
        inOrder(chains.out, peer, async () => {
          const sealed = await (await ready).sealFor(peer, text);
          if (sealed !== null && direct.has(peer)) await action.send(sealed, { target: peer });
        });
      } else if (relayed.has(peer)) path.send(peer, text);
    },
    // Unhooked first: nothing is heard after this returns.
    leave: () => {
      joined.onPeerJoin = joined.onPeerLeave = action.onMessage = null;
      on = { joined() {}, left() {}, received() {}, refused() {}, path() {} };
      waits.forEach((timer) => clearTimeout(timer));
      waits.clear();
      path.leave();
      return joined.leave();
    },
    // How many relays this page is connected to now.
    relaysUp: () => Object.values(nostr.getRelaySockets())
      .filter((socket) => socket.readyState === WebSocket.OPEN).length,
  };
}

// Whether a connection's channel goes through a TURN server: its chosen pair
// of candidates has one of a TURN server (type "relay") at either end. Not
// known (no stats, none chosen yet): false, as the channel then says "direct".
async function throughTurn(connection) {
  try {
    const stats = [...(await connection.getStats()).values()];
    const byId = new Map(stats.map((s) => [s.id, s]));
    const transport = stats.find((s) => s.type === "transport" && s.selectedCandidatePairId);
    const pair = transport ? byId.get(transport.selectedCandidatePairId)
      : stats.find((s) => s.type === "candidate-pair" && s.nominated && s.state === "succeeded");
    return !!pair && [pair.localCandidateId, pair.remoteCandidateId]
      .some((id) => byId.get(id)?.candidateType === "relay");
  } catch {
    return false;
  }
}

// The host's key pair and its proofs (game/online/proof.py says what is signed):
// ECDSA P-256 with SHA-256 through WebCrypto, keys and signatures in base64url.
const ECDSA = { name: "ECDSA", namedCurve: "P-256" };
const SIGNING = { name: "ECDSA", hash: "SHA-256" };
const b64 = (bytes) => {
  const all = new Uint8Array(bytes);
  let text = "";  // (in slices: a relayed message is too long for one call's arguments)
  for (let at = 0; at < all.length; at += 8192) text += String.fromCharCode(...all.subarray(at, at + 8192));
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};
const unb64 = (text) => Uint8Array.from(
  atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const utf8 = (text) => new TextEncoder().encode(text);

// [the public key, uncompressed (65 bytes), in base64url; the private key as JWK text]
export async function makeKey() {
  const pair = await crypto.subtle.generateKey(ECDSA, true, ["sign", "verify"]);
  const raw = await crypto.subtle.exportKey("raw", pair.publicKey);
  const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  return [b64(raw), JSON.stringify(jwk)];
}

export async function sign(privateJwk, text) {
  const key = await crypto.subtle.importKey("jwk", JSON.parse(privateJwk), ECDSA, false, ["sign"]);
  return b64(await crypto.subtle.sign(SIGNING, key, utf8(text)));
}

// `point`: the uncompressed public key in base64url (game/online/proof.py's expand).
export async function verify(point, text, signature) {
  try {
    const key = await crypto.subtle.importKey("raw", unb64(point), ECDSA, false, ["verify"]);
    return await crypto.subtle.verify(SIGNING, key, unb64(signature), utf8(text));
  } catch {
    return false; // not a key or not a signature: not the host's
  }
}

// ---- The relayed path (docs/DESIGN.md, "Online play: the connection") ----
// When two pages' direct channel does not open (carrier-grade NAT, a strict
// network), they carry the game's messages through the same Nostr relays as
// ephemeral events (kinds 20000-29999: a relay forwards them, keeps nothing),
// made and signed by Trystero's own Nostr code (createEvent, subscribe). Every event goes to every relay; the
// receiver keeps the first copy. A message is encrypted for one reader (ECDH
// P-256 between the two pages, AES-GCM), cut into pieces a relay accepts,
// numbered, acknowledged and re-sent until acknowledged: nothing is lost,
// reordered or handed over twice.

// Characters of ciphertext per event (public relays accept 64 KB or more;
// smaller where a relay's NIP-11 document says it takes less, and a relay
// that refuses a piece as too large halves it for that table).
export const PIECE = 16 * 1024;
const SMALLEST_PIECE = 1024;
// What an event adds to its piece: the Nostr event (id, key, signature, tag,
// kind, time) and our fields, as the relay counts the message ["EVENT", ...].
const EVENT_FRAME = 1024;
const INFO_WAIT_MS = 5000;

// NIP-11: the relay's information document, at its own address over http(s);
// its `limitation.max_message_length` (null: none published, or no answer).
export const infoUrl = (url) => url.replace(/^ws/, "http");
export async function relayLimit(url) {
  try {
    const response = await fetch(infoUrl(url), { headers: { Accept: "application/nostr+json" },
                                                 signal: AbortSignal.timeout(INFO_WAIT_MS) });
    const most = (await response.json())?.limitation?.max_message_length;
    return Number.isInteger(most) && most > 0 ? most : null;
  } catch {
    return null;
  }
}

// The piece that every relay takes, given their published limits (null: unknown).
export const pieceFor = (limits) => Math.max(SMALLEST_PIECE, Math.min(
  PIECE, ...limits.filter((most) => most !== null).map((most) => most - EVENT_FRAME)));
// How often a page says it is here (and its key), and how long a page unheard
// is gone.
const HELLO_MS = 4000;
const GONE_MS = 15000;
// An unacknowledged message goes out again after this long.
const RESEND_MS = 2500;
// A peer met through the relays is joined on the relayed path when no direct
// channel opened within this long (a test may shorten it: jhgTestDirectWait).
const DIRECT_WAIT_MS = 6000;

// How long a direct message waits for its peer's key (agreed on the relayed
// path, which the same relays carry as the introductions): a page never met
// there (another friend, to a guest) is never read or written to.
const KEY_WAIT_MS = 30000;
// The longest sealed text of a message of at most `max` characters (UTF-8's
// 3 bytes a character at most, base64's 4 characters for 3 bytes, the frame).
export const sealedMax = (max) => max * 4 + 256;

const ECDH = { name: "ECDH", namedCurve: "P-256" };
const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
// What the host signs of its relayed key: a pretender cannot make a guest agree a key with it.
const keyText = (room, point) => `jhg-relay|${room}|${point}`;

// One reader's key: the two pages' ECDH secret through HKDF, bound to the
// table's topic and to both public keys.
export async function sharedKey(pair, mine, theirs, topic) {
  const other = await crypto.subtle.importKey("raw", unb64(theirs), ECDH, false, []);
  const bits = await crypto.subtle.deriveBits({ name: "ECDH", public: other }, pair.privateKey, 256);
  const base = await crypto.subtle.importKey("raw", bits, "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: utf8(topic), info: utf8([mine, theirs].sort().join("|")) },
    base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

export async function seal(key, header, text) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: utf8(header) },
                                           key, utf8(text));
  return [b64(iv), b64(data)];
}

export async function unseal(key, header, iv, data) {
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: unb64(iv), additionalData: utf8(header) }, key, unb64(data));
  return new TextDecoder().decode(plain);
}

// `text` cut into pieces of at most `size` characters.
export function cut(text, size) {
  const pieces = [];
  for (let at = 0; at < text.length || !pieces.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

// Pieces of numbered messages from one page, handed over whole, once each and
// in order: `put` a piece, `whole(n)` once all of n's are here, `done(n)` once
// it is read, `drop(n)` if it did not read (a stranger's piece among them: the
// sender's next copy is awaited).
const AHEAD = 64;
const MAX_PIECES = 64;
export class Assembly {
  constructor() {
    this.next = 1;  // the number of the next message to hand over
    this.parts = new Map();  // n -> {count, pieces}
  }

  put(n, i, count, piece) {
    // (at most AHEAD messages ahead of the next: a page cannot be made to keep more)
    if (n < this.next || n >= this.next + AHEAD || !(i >= 0 && i < count && count <= MAX_PIECES)) return;
    let got = this.parts.get(n);
    if (!got || got.count !== count) this.parts.set(n, got = { count, pieces: new Map() });
    got.pieces.set(i, piece);
  }

  // The message `n` if all its pieces are here.
  whole(n) {
    const got = this.parts.get(n);
    if (!got || got.pieces.size !== got.count) return null;
    return Array.from({ length: got.count }, (_, i) => got.pieces.get(i)).join("");
  }

  drop(n) {
    this.parts.delete(n);
  }

  // Message `n` was read: the next one is awaited.
  done(n) {
    this.parts.delete(n);
    if (n === this.next) this.next++;
  }
}

// One relay's socket for the relayed path, opened again after it drops
// (RECONNECT_MS, doubling up to RECONNECT_MOST_MS, for as long as the table
// is open). Not Trystero's own sockets: a relay's refusal of one of our
// pieces would retire that relay for its introductions, and two sockets
// sharing its back-off would double it.
const RECONNECT_MS = 2000;
const RECONNECT_MOST_MS = 30000;
class RelaySocket {
  constructor(url, heard, opened) {
    this.url = url;
    this.heard = heard;
    this.opened = opened;
    this.wait = RECONNECT_MS;
    this.closed = false;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const socket = this.socket = new WebSocket(this.url);
    socket.onmessage = (event) => this.heard(String(event.data));
    socket.onopen = () => {
      this.wait = RECONNECT_MS;
      this.opened(this);
    };
    socket.onclose = () => {
      if (this.closed || socket !== this.socket) return;
      this.timer = setTimeout(() => this.connect(), this.wait);
      this.wait = Math.min(this.wait * 2, RECONNECT_MOST_MS);
    };
  }

  send(data) {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(data);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.socket.close();
  }
}

// Whether `server` is a TURN server's RTCIceServer as game/web/model/turn.py makes one.
const isTurn = (server) => typeof server?.urls === "string" && /^turns?:/.test(server.urls) &&
  [server.urls, server.username, server.credential].every((s) => typeof s === "string" && s.length <= 256);

// The relayed path of one room: `on` has heard(peer) (a key agreed, and on
// each of its hellos: it can be joined), gone(peer), received(peer, text),
// turn(server) (a guest: the host's own TURN server, sealed for this page;
// `turn` is the host's, handed to each page met). `key`: {sign: the host's
// private key (JWK text)} or {verify: the host's public key (base64url point)}
// or null (no WebCrypto signing on this page: a guest then trusts who answers,
// as game/online/proof.py says). Resolves to {send, leave, up}.
export async function relayPath({ appId, room, secret, relays, key, turn = null }, on) {
  const nostr = await import("../vendor/trystero/nostr/index.mjs");
  const me = nostr.selfId;
  const topic = hex(await crypto.subtle.digest("SHA-256", utf8(`${appId}|${room}|${secret}|relayed`)));
  const pair = await crypto.subtle.generateKey(ECDH, false, ["deriveBits"]);
  const mine = b64(await crypto.subtle.exportKey("raw", pair.publicKey));
  const signature = key?.sign ? await sign(key.sign, keyText(room, mine)) : "";
  const subscription = hex(crypto.getRandomValues(new Uint8Array(16)));
  const peers = new Map();  // peer -> {key, assembly, out, sent, heard, met}
  const waiting = new Map();  // peer -> the resolvers of those awaiting its key (keyOf)
  const seen = new Set();  // events already read (each relay sends its own copy)
  let piece = PIECE;
  let left = false;
  let turnHeard = false;  // a guest: the host's TURN server came (its hellos say so: no more copies)

  const lengths = new Map();  // recent pieces' event id -> the piece's length
  const post = async (content) => {
    const event = await nostr.createEvent(topic, JSON.stringify({ f: me, ...content }));
    if (content.y === "d") {
      lengths.set(JSON.parse(event)[1].id, content.x.length);
      if (lengths.size > 256) lengths.delete(lengths.keys().next().value);
    }
    if (!left || content.y === "b") for (const client of clients) client.send(event);
  };
  const hello = (to = "*") => post({ y: "hi", t: to, e: mine, s: signature, k: turnHeard ? 1 : 0 });
  const handTurn = async (peer) => {
    const [v, x] = await seal(peer.key, `t|${me}|${peer.id}`, JSON.stringify(turn));
    post({ y: "t", t: peer.id, v, x });
  };

  const sendPieces = (peer, n, message) => {
    const pieces = cut(message.data, piece);
    message.at = Date.now();
    pieces.forEach((x, i) => post({ y: "d", t: peer.id, n, i, c: pieces.length, v: message.iv, x }));
  };

  const acknowledge = async (peer) => {
    const [v, x] = await seal(peer.key, `a|${peer.id}|${me}`, String(peer.assembly.next - 1));
    post({ y: "a", t: peer.id, v, x });
  };

  const meet = async (from, content) => {
    if (peers.has(from)) return;
    // A guest meets the host only (its relayed key signed with the link's key);
    // the host meets every guest, never a page signing as a host.
    if (key?.verify && !(typeof content.s === "string" &&
                         await verify(key.verify, keyText(room, content.e), content.s))) return;
    if (key?.sign && content.s) return;
    if (peers.has(from)) return;
    let shared;
    try {
      shared = await sharedKey(pair, mine, content.e, topic);
    } catch {
      return;  // not a key
    }
    if (peers.has(from) || left) return;
    const peer = { id: from, point: content.e, key: shared, assembly: new Assembly(),
                   out: new Map(), sent: 0, heard: Date.now(), gone: false,
                   directSent: 0, directRead: 0 };  // (the direct channel's numbers)
    peers.set(from, peer);
    for (const resolve of waiting.get(from) ?? []) resolve(peer);
    waiting.delete(from);
    if (content.t === "*") hello(from);  // the newcomer learns of this page at once
    on.heard(from);
    if (turn && content.k !== 1) handTurn(peer);
  };

  // A page unheard for GONE_MS is gone, but its numbers are kept: if it speaks
  // again (a relay was down for both), it goes on where it was.
  const lose = (peer) => {
    if (peer.gone) return;
    peer.gone = true;
    on.gone(peer.id);
  };
  const forget = (peer) => {  // the page said goodbye
    lose(peer);
    peers.delete(peer.id);
  };

  const read = async (raw) => {
    let content;
    try {
      content = JSON.parse(raw);
    } catch {
      return;
    }
    const from = content?.f;
    if (typeof from !== "string" || from === me || (content.t !== me && content.t !== "*")) return;
    const peer = peers.get(from);
    if (content.y === "hi" && typeof content.e === "string") {
      if (!peer) return meet(from, content);
      if (content.e !== peer.point) return;  // the first key stands
      peer.heard = Date.now();
      if (peer.gone) {
        peer.gone = false;
        if (content.t === "*") hello(from);
      }
      on.heard(from);
      if (turn && content.k !== 1) handTurn(peer);  // (until its hellos say it came)
      return;
    }
    if (!peer || peer.gone) return;
    peer.heard = Date.now();
    try {
      if (content.y === "d") {
        const { n, i, c, v, x } = content;
        if (![n, i, c].every(Number.isInteger) || typeof x !== "string") return;
        if (n < peer.assembly.next) return acknowledge(peer);  // a copy: the ack was lost
        peer.assembly.put(n, i, c, x);
        for (let k = peer.assembly.next; ; k++) {
          const whole = peer.assembly.whole(k);
          if (whole === null) break;
          let text = null;
          try {
            text = await unseal(peer.key, `d|${from}|${me}|${k}`, v, whole);
          } catch { /* a stranger's piece among them */ }
          if (peer.assembly.whole(k) !== whole) break;  // handed over meanwhile
          if (text === null) {
            peer.assembly.drop(k);  // the sender's next copy is awaited
            break;
          }
          peer.assembly.done(k);
          if (peers.get(from) === peer) on.received(from, text);
        }
        acknowledge(peer);
      } else if (content.y === "a") {
        const upTo = Number(await unseal(peer.key, `a|${me}|${from}`, content.v, content.x));
        for (const n of [...peer.out.keys()]) if (n <= upTo) peer.out.delete(n);
      } else if (content.y === "t" && !key?.sign) {
        const server = JSON.parse(await unseal(peer.key, `t|${from}|${me}`, content.v, content.x));
        if (isTurn(server)) {
          turnHeard = true;
          on.turn?.({ urls: server.urls, username: server.username, credential: server.credential });
        }
      } else if (content.y === "b") {
        await unseal(peer.key, `b|${from}|${me}`, content.v, content.x);
        forget(peer);
      }
    } catch { /* not sealed with this peer's key: a stranger's */ }
  };

  const heard = (data) => {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    const [type, sub, event, reason] = message;
    if (type === "EVENT" && sub === subscription && typeof event?.content === "string") {
      if (seen.has(event.id)) return;
      seen.add(event.id);
      if (seen.size > 4096) seen.delete(seen.values().next().value);
      read(event.content);
    } else if (type === "OK" && event === false && lengths.has(sub) &&
               /large|size|long/i.test(String(reason))) {
      // Re-sent in pieces of half the refused one's length (whichever relays refused it).
      piece = Math.max(SMALLEST_PIECE, Math.min(piece, Math.floor(lengths.get(sub) / 2)));
      for (const peer of peers.values()) for (const message of peer.out.values()) message.at = 0;
    }
  };

  // Every event goes to every relay: its pieces fit the strictest limit
  // published, each relay's read once it first answers (none asked of a relay out of reach).
  const limits = new Map();  // relay -> its max_message_length (null: none published)
  const askLimit = (client) => {
    if (limits.has(client.url)) return;
    limits.set(client.url, null);
    relayLimit(client.url).then((most) => {
      limits.set(client.url, most);
      piece = Math.min(piece, pieceFor([...limits.values()]));
    });
  };

  const resendAll = () => {
    for (const peer of peers.values()) for (const [n, message] of peer.out) sendPieces(peer, n, message);
  };
  const clients = relays.map((url) => new RelaySocket(url, heard, (client) => {
    client.send(nostr.subscribe(subscription, topic));
    askLimit(client);
    resendAll();  // what went out while this relay was down
    setTimeout(hello, 200);  // once the subscription is in place: the answers reach this page
  }));

  const timer = setInterval(() => {
    const now = Date.now();
    hello();
    for (const peer of [...peers.values()]) {
      if (now - peer.heard > GONE_MS) lose(peer);
    }
  }, HELLO_MS);
  const resender = setInterval(() => {
    const now = Date.now();
    for (const peer of peers.values()) {
      if (peer.gone) continue;
      for (const [n, message] of peer.out) if (now - message.at >= RESEND_MS) sendPieces(peer, n, message);
    }
  }, RESEND_MS / 2);

  // The peer `id` once its key is agreed (null if not within KEY_WAIT_MS).
  const keyOf = (id) => peers.has(id) ? Promise.resolve(peers.get(id)) : new Promise((resolve) => {
    const done = (peer) => {
      clearTimeout(timer);
      resolve(peer);
    };
    const timer = setTimeout(() => {
      waiting.set(id, (waiting.get(id) ?? []).filter((other) => other !== done));
      resolve(null);
    }, KEY_WAIT_MS);
    waiting.set(id, [...(waiting.get(id) ?? []), done]);
  });

  return {
    me,
    // A direct message to `id`, sealed for it alone and numbered (null: no key).
    sealFor: async (id, text) => {
      const peer = await keyOf(id);
      if (!peer || left) return null;
      const n = ++peer.directSent;
      const [v, x] = await seal(peer.key, `x|${me}|${id}|${n}`, text);
      return JSON.stringify({ n, v, x });
    },
    // What `id` sealed for this page, read once each (null: a stranger's, a copy, an old one).
    openFrom: async (id, data) => {
      const peer = await keyOf(id);
      let sealed;
      try {
        sealed = JSON.parse(data);
      } catch {
        return null;
      }
      const { n, v, x } = sealed ?? {};
      if (!peer || !Number.isInteger(n) || n <= peer.directRead || typeof v !== "string" ||
          typeof x !== "string") return null;
      try {
        const text = await unseal(peer.key, `x|${id}|${me}|${n}`, v, x);
        if (n <= peer.directRead) return null;  // (read meanwhile)
        peer.directRead = n;
        return text;
      } catch {
        return null;  // not sealed with this peer's key
      }
    },
    send: async (id, text) => {
      const peer = peers.get(id);
      if (!peer) return;
      const n = ++peer.sent;
      const [iv, data] = await seal(peer.key, `d|${me}|${id}|${n}`, text);
      const message = { iv, data, at: 0 };
      peer.out.set(n, message);
      sendPieces(peer, n, message);
    },
    leave: async () => {
      clearInterval(timer);
      clearInterval(resender);
      left = true;
      await Promise.all([...peers.values()].map(async (peer) => {
        const [v, x] = await seal(peer.key, `b|${me}|${peer.id}`, "bye");
        await post({ y: "b", t: peer.id, v, x });
      }));
      peers.clear();
      for (const client of clients) client.close();
    },
    // Whether `id` has said it is here lately.
    fresh: (id) => peers.get(id)?.gone === false && Date.now() - peers.get(id).heard < HELLO_MS * 1.5,
    // The characters of ciphertext an event carries now.
    pieceSize: () => piece,
    // How many of this path's relays are connected now.
    up: () => clients.filter((client) => client.socket.readyState === WebSocket.OPEN).length,
    directWait: typeof globalThis.jhgTestDirectWait === "number" ? globalThis.jhgTestDirectWait
      : DIRECT_WAIT_MS,
  };
}
