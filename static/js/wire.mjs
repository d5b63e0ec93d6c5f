// Online play's calls into the browser that Python does not make itself
// (game/web/dom/wire.py holds the logic): Trystero's room over Nostr relays,
// and a size check on every message, so that an oversized one is dropped here
// and never copied into Python. Imported only once a player chooses online
// play; Trystero itself only when they choose the relays.

// `handler(text)` for each string message of at most `max` characters. The
// browser tests read what a page was handed (the hidden-card check) from
// `window.jhgTestCapture`, an array only a test's script puts there before the
// page loads; without it nothing is kept.
export function limited(max, handler, refused) {
  return (data) => {
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
// received(peer, text), refused(peer, size). Resolves to {send, leave, relaysUp}.
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
    send: (peer, text) => action.send(text, { target: peer }).catch(() => {}),
    // Unhooked first: Python lets its handlers go as soon as this returns.
    leave: () => {
      joined.onPeerJoin = joined.onPeerLeave = action.onMessage = null;
      return joined.leave();
    },
    // How many relays this page is connected to now.
    relaysUp: () => Object.values(nostr.getRelaySockets())
      .filter((socket) => socket.readyState === WebSocket.OPEN).length,
  };
}
