// Offline play and new versions, in plain JS (readable before Python is up).
//
// The service worker is registered once Python is up, so that it does not
// race the page for the 9.6 MB wasm. The start screen says whether offline
// play is ready: ready once a worker is active (its install cached every file
// of the site, static/sw.js), or not yet when its install was cut short; the
// next visit, or the connection coming back, finishes it.
//
// A new deployment (a new sw.js: its cache name is a hash of the site) is
// looked for when the page is up, every few minutes while the tab is seen,
// and when it is seen again. It is offered, never forced: the page reloads
// only when the player asks, and the game is saved after every action, so the
// reload resumes it.
(function () {
  if (!("serviceWorker" in navigator) || location.protocol === "file:") return;
  // This page's version: the build writes its cache name here (game/build.py).
  var VERSION = "__CACHE__";
  var CHECK_EVERY = 5 * 60 * 1000;
  var words = {
    en: {update: ["A new version is ready.", "Reload"],
         ready: "Offline play is ready: the game works without a connection.",
         preparing: "Getting offline play ready…",
         notReady: "Offline play is not ready yet: it will be finished on your next visit."},
    fr: {update: ["Une nouvelle version est prête.", "Recharger"],
         ready: "Le jeu hors connexion est prêt : plus besoin de connexion pour jouer.",
         preparing: "Préparation du jeu hors connexion…",
         notReady: "Le jeu hors connexion n’est pas encore prêt : il le sera à votre prochaine visite."},
    it: {update: ["È pronta una nuova versione.", "Ricarica"],
         ready: "Il gioco offline è pronto: funziona anche senza connessione.",
         preparing: "Preparazione del gioco offline…",
         notReady: "Il gioco offline non è ancora pronto: lo sarà alla prossima visita."},
    de: {update: ["Eine neue Version ist da.", "Neu laden"],
         ready: "Offline spielen ist bereit: Das Spiel läuft auch ohne Verbindung.",
         preparing: "Offline spielen wird vorbereitet…",
         notReady: "Offline spielen ist noch nicht bereit: Beim nächsten Besuch wird es fertig."}
  };
  function said() { return words[document.documentElement.lang] || words.en; }

  // -- offline play: ready or not ---------------------------------------------
  var offline = null;  // "ready", "preparing" or "notReady"
  function tell(state) {
    offline = state;
    var box = document.getElementById("offline-status");
    if (!box) return;
    box.textContent = said()[state];
    box.setAttribute("data-offline", state);
    box.hidden = false;
  }
  function follow(reg) {  // what the registration's workers say about offline play
    if (reg.active) { tell("ready"); return; }
    var fresh = reg.installing || reg.waiting;
    if (!fresh) return;
    tell("preparing");
    fresh.addEventListener("statechange", function () {
      if (fresh.state === "activated") tell("ready");
      else if (fresh.state === "redundant" && !reg.active) tell("notReady");
    });
  }
  navigator.serviceWorker.getRegistration().then(function (reg) {
    if (reg && reg.active) tell("ready");  // a returning visit: said before Python is up
  }).catch(function () {});

  // -- a new version ----------------------------------------------------------
  var offered = false;
  function offer() {
    var box = document.getElementById("update");
    if (!box) return;
    box.querySelector("span").textContent = said().update[0];
    box.querySelector("button").textContent = said().update[1];
    if (offered) return;
    offered = true;
    box.querySelector("button").addEventListener("click", function () { location.reload(); });
    box.hidden = false;
    // the page and any open panel end above the bar (static/css/site.css)
    function room() {
      document.documentElement.style.setProperty("--update-h", box.offsetHeight + "px");
    }
    room();
    addEventListener("resize", room);
  }
  // A worker took this page over (static/sw.js skips waiting). Once it is
  // activated, it is another version's if this page's cache is gone (its
  // activation deletes every other version's): a first install, or a reload
  // that already got the new version, is not an update.
  function compare() {
    caches.keys().then(function (keys) {
      var versions = keys.filter(function (k) { return k.indexOf("jhg-") === 0; });
      if (versions.length && versions.indexOf(VERSION) < 0) offer();
    }).catch(function () {});
  }
  navigator.serviceWorker.addEventListener("controllerchange", function () {
    var now = navigator.serviceWorker.controller;
    if (!now) return;
    if (now.state === "activated") { compare(); return; }
    now.addEventListener("statechange", function () { if (now.state === "activated") compare(); });
  });

  // The words follow the page's language (the start screen's choice, Python's).
  new MutationObserver(function () {
    if (offline) tell(offline);
    if (offered) offer();
  }).observe(document.documentElement, {attributes: true, attributeFilter: ["lang"]});

  // The game is up: <body data-state="ready">, which the page's front sets
  // when the game's first drawing (from its worker) is on the page.
  var up = false;
  function whenUp(start) {
    function once() {
      if (!up) { up = true; start(); }
    }
    new MutationObserver(function (_, seen) {
      if (document.body.dataset.state === "ready") { seen.disconnect(); once(); }
    }).observe(document.body, {attributes: true, attributeFilter: ["data-state"]});
  }

  whenUp(function () {
    var current = null;  // the registration (a new one after a first install that failed)
    function register() {
      return navigator.serviceWorker.register("./sw.js").then(function (reg) {
        current = reg;
        follow(reg);
        reg.addEventListener("updatefound", function () { if (!reg.active) follow(reg); });
      });
    }
    register().then(function () {
      function check() {
        if (offline === "notReady") register().catch(function () {});
        else current.update().catch(function () {});
      }
      check();  // on load: a deployment made since this page was fetched
      setInterval(function () { if (!document.hidden) check(); }, CHECK_EVERY);
      document.addEventListener("visibilitychange", function () { if (!document.hidden) check(); });
      addEventListener("online", check);  // an install cut short by the connection: finish it
    }).catch(function () {});
  });
})();
