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
// received(peer, text), refused(peer, size). Resolves to {me, send, leave,
// relaysUp}; `me` is this page's id as the others' wires name it.
export async function joinRelays({ appId, room, secret, relays, iceServers, max }, on) {
  const nostr = await import("../vendor/trystero/nostr/index.mjs");
  const joined = nostr.joinRoom(
    { appId, password: secret, relayConfig: { urls: relays, warnOnRelayFailure: false },
      rtcConfig: { iceServers } },
    room,
    // A page with another secret (or none) cannot decrypt our offers: not a failure of ours.
    { onJoinError: () => {} });
  const action = joined.makeAction("m");
  action.onMessage = (data, { peerId }) =>
    limited(max, (text) => on.received(peerId, text), (size) => on.refused(peerId, size))(data);
  joined.onPeerJoin = (peer) => on.joined(peer);
  joined.onPeerLeave = (peer) => on.left(peer);
  return {
    me: nostr.selfId,
    send: (peer, text) => muted() || action.send(text, { target: peer }).catch(() => {}),
    // Unhooked first: nothing is heard after this returns.
    leave: () => {
      joined.onPeerJoin = joined.onPeerLeave = action.onMessage = null;
      return joined.leave();
    },
    // How many relays this page is connected to now.
    relaysUp: () => Object.values(nostr.getRelaySockets())
      .filter((socket) => socket.readyState === WebSocket.OPEN).length,
  };
}

// The host's key pair and its proofs (game/online/proof.py says what is signed):
// ECDSA P-256 with SHA-256 through WebCrypto, keys and signatures in base64url.
const ECDSA = { name: "ECDSA", namedCurve: "P-256" };
const SIGNING = { name: "ECDSA", hash: "SHA-256" };
const b64 = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
  .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
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
