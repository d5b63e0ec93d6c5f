// Online play's connections, on the page's main thread: the game runs in a
// worker, and a worker has no WebRTC (docs/DESIGN.md, "Online play: the
// connection"). The game's wires (game/web/dom/wire.py) post their orders as
// frames {"wire": {id, ...}}: {open: "relays" | "link", ...}, {send: [peer,
// text]}, {close: true}, or {ask: k, invite | accept | answer} for the
// hand-carried codes. What a wire hears goes back through `tell` as
// {id, event: "me" | "joined" | "left" | "received" | "failed" | "relays" | "path",
// peer, text, code, up, reached, of, relayed, turn}, an answer as {id, reply: k, value} or {id, reply: k, error}.
// front.mjs loads this module with the first wire frame; wire.mjs when a wire
// opens, Trystero only when the relays are chosen.

const wireModule = () => import("./wire.mjs");
// Host candidates are gathered within a second; a page on a network that hides
// them still answers with what it has after this long.
const GATHER_WAIT_MS = 5000;
// How often a relays' wire counts the relays it reaches: every half second
// until one is (the lobby shows the link then), every 2 s afterwards.
const FIRST_CHECK_MS = 500;
const RELAY_CHECK_MS = 2000;

const refused = (peer, size) =>
  console.warn(`online: a message of ${size} characters from ${peer} was refused`);

// Every open wire of this page, by the worker's number.
export class Wires {
  constructor(tell) {
    this.tell = tell;
    this.open = new Map();
  }

  take(order) {
    const { id } = order;
    if (order.open) {
      const say = (event) => this.tell({ id, ...event });
      this.open.set(id, order.open === "relays" ? new RelayWire(say, order) : new LinkWire(say, order));
      return;
    }
    const wire = this.open.get(id);
    if (!wire) return;  // closed already
    if (order.close) {
      this.open.delete(id);
      wire.close();
    } else if (order.send) {
      wire.send(...order.send);
    } else if (order.ask) {
      wire.ask(order).then((value) => wire.say({ reply: order.ask, value: value ?? null }),
                           (e) => wire.say({ reply: order.ask, error: String(e) }));
    }
  }
}

// Pages introduced through public relays (wire.mjs's joinRelays). From the
// start (every FIRST_CHECK_MS, then RELAY_CHECK_MS), a change in how many
// relays are reached is said as {event: "relays", up, reached, of} (the page
// words "3 of 6"; `up`: one at least). If none was ever reached within `wait` ms and no page was met, the
// wire says "no-relay" (and goes on trying: a relay reached later is said);
// once pages have met, the relays lost or back change nothing between them:
// the pages met go on over their own channels, only newcomers cannot join.
class RelayWire {
  constructor(say, { appId, room, secret, relays, iceServers, max, wait, key, turn }) {
    this.closed = false;
    this.room = null;
    this.met = false;  // a page joined through the relays at least once
    this.reached = undefined;  // how many relays were reached at the last check
    this.everReached = false;
    this.failed = false;  // "no-relay" said
    this.of = relays.length;
    this.say = (event) => this.closed || say(event);
    this.started = Date.now();
    this.wait = wait;
    this.join({ appId, room, secret, relays, iceServers, max, key, turn });
  }

  async join(options) {
    const on = {
      joined: (peer) => {
        this.met = true;
        this.say({ event: "joined", peer });
      },
      left: (peer) => this.say({ event: "left", peer }),
      received: (peer, text) => this.say({ event: "received", peer, text }),
      refused,
      // A browser test reads each peer's path from `window.jhgTestPaths`, an
      // array only its script puts there before the page loads.
      path: (peer, relayed, turn) => {
        if (Array.isArray(globalThis.jhgTestPaths)) globalThis.jhgTestPaths.push([peer, relayed, turn]);
        this.say({ event: "path", peer, relayed, turn });
      },
    };
    let room;
    try {
      room = await (await wireModule()).joinRelays(options, on);
    } catch (e) {  // the library missing from the site, a browser without WebRTC
      console.warn(`online: the relays' wire did not open: ${e}`);
      this.say({ event: "failed", code: "no-webrtc" });
      return;
    }
    if (this.closed) {  // closed while the library loaded
      room.leave();
      return;
    }
    this.room = room;
    this.say({ event: "me", peer: String(room.me) });
    const look = () => {
      this.check();
      this.timer = setTimeout(look, this.everReached ? RELAY_CHECK_MS : FIRST_CHECK_MS);
    };
    look();
  }

  check() {
    if (!this.room) return;
    const reached = this.room.relaysUp();
    if (reached !== this.reached) this.say({ event: "relays", up: reached > 0, reached, of: this.of });
    this.reached = reached;
    this.everReached ||= reached > 0;
    if (!this.everReached && !this.met && !this.failed && Date.now() - this.started >= this.wait) {
      this.failed = true;
      this.say({ event: "failed", code: "no-relay" });
    }
  }

  send(peer, text) {
    this.room?.send(peer, text);
  }

  ask() {
    return Promise.reject(new Error("the relays' wire answers no question"));
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.room?.leave();
    this.room = null;
  }
}

// Pages joined by descriptions carried by hand (the worker packs them into
// codes): the host invites once per guest (its link named `link-<n>`) and
// accepts each guest's answer; a guest answers the invitation (its one link
// named "host").
class LinkWire {
  constructor(say, { iceServers, max }) {
    this.closed = false;
    this.say = (event) => this.closed || say(event);
    this.iceServers = iceServers;
    this.max = max;
    this.links = new Map();
    this.made = 0;
    // A closing tab ends its channels itself: the other pages hear it at
    // once instead of when their connection times out (6 s in Chromium).
    this.onHide = () => this.endLinks();
    addEventListener("pagehide", this.onHide);
  }

  async ask({ invite, accept, answer }) {
    if (invite) {
      const link = await this.newLink(`link-${++this.made}`);
      return [link.peer, await link.describe("offer")];
    }
    if (accept) {
      const [peer, sdp] = accept;
      const link = this.links.get(peer);
      if (!link) throw new Error(`no invitation waits for ${peer}`);
      await link.pc.setRemoteDescription({ type: "answer", sdp });
      return null;
    }
    const old = this.links.get("host");
    if (old) this.drop(old);
    const link = await this.newLink("host");
    await link.pc.setRemoteDescription({ type: "offer", sdp: answer });
    return link.describe("answer");
  }

  async newLink(peer) {
    const link = new Link(this, peer, await wireModule());
    this.links.set(peer, link);
    return link;
  }

  drop(link) {
    if (this.links.get(link.peer) !== link) return;
    this.links.delete(link.peer);
    if (link.open) this.say({ event: "left", peer: link.peer });
    link.end();
  }

  send(peer, text) {
    const link = this.links.get(peer);
    if (link?.open) link.channel.send(text);
  }

  endLinks() {
    for (const link of this.links.values()) link.end();
    this.links.clear();
  }

  close() {
    this.closed = true;
    this.endLinks();
    removeEventListener("pagehide", this.onHide);
  }
}

// One peer connection of a LinkWire and its one data channel.
class Link {
  constructor(wire, peer, module) {
    this.peer = peer;
    this.open = false;
    this.pc = new RTCPeerConnection({ iceServers: wire.iceServers });
    // Both ends make the same channel (negotiated, id 0): nothing to announce.
    this.channel = this.pc.createDataChannel("m", { negotiated: true, id: 0 });
    this.channel.onopen = () => {
      this.open = true;
      wire.say({ event: "joined", peer });
    };
    this.channel.onclose = () => wire.drop(this);
    // "disconnected" comes seconds before the channel closes when a page
    // vanishes without closing (a crash, a lost network): the peer has left.
    this.pc.onconnectionstatechange = () => {
      if (["disconnected", "failed", "closed"].includes(this.pc.connectionState)) wire.drop(this);
    };
    module.listen(this.channel, wire.max, (text) => wire.say({ event: "received", peer, text }),
                  (size) => refused("a linked page", size));
  }

  // This end's offer or answer, once its candidates are gathered (or after GATHER_WAIT_MS).
  async describe(kind) {
    const pc = this.pc;
    await pc.setLocalDescription(await (kind === "offer" ? pc.createOffer() : pc.createAnswer()));
    await new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        pc.removeEventListener("icegatheringstatechange", check);
        resolve();
      };
      const check = () => pc.iceGatheringState === "complete" && done();
      const timer = setTimeout(done, GATHER_WAIT_MS);
      pc.addEventListener("icegatheringstatechange", check);
      check();
    });
    return pc.localDescription.sdp;
  }

  end() {
    // Unhooked first: closing fires the handlers again.
    this.channel.onopen = this.channel.onclose = this.channel.onmessage = null;
    this.pc.onconnectionstatechange = null;
    this.channel.close();
    this.pc.close();
  }
}
