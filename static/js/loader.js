// Loading progress before Python is up: plain JS, no request of its own.
// A file (not an inline script) so the pages can forbid inline script.
//
// A start-up that fails says so and recovers: a start-up file whose download
// fails (the network lost) is asked again, in place, when the player presses
// "Try again" or Start, or as soon as the browser is back online; the page's
// start goes on as if it had only been slow. A runtime module that fails to
// load, or a wasm whose download broke off midway, cannot be asked again in
// the same page: the retry reloads it.
(function () {
  var words = {
    table: {
      en: ["Shuffling the cards…", "Downloading the runtime…", "Starting Python…", "Setting the table…"],
      fr: ["On bat les cartes…", "Téléchargement de l’environnement…", "Démarrage de Python…", "On dresse la table…"],
      it: ["Si mescolano le carte…", "Scaricamento dell’ambiente…", "Avvio di Python…", "Si prepara il tavolo…"],
      de: ["Die Karten werden gemischt…", "Die Laufzeitumgebung wird geladen…", "Python startet…", "Der Tisch wird gedeckt…"]
    },
    example: {
      en: ["Loading the example…"], fr: ["Chargement de l’exemple…"], it: ["Caricamento dell’esempio…"],
      de: ["Das Beispiel wird geladen…"]
    }
  }[document.body.getAttribute("data-loader") || "table"];
  var failedWords = {
    en: ["The game could not be downloaded. It will try again as soon as the connection is back.", "Try again"],
    fr: ["Le jeu n’a pas pu être téléchargé. Nouvel essai dès le retour de la connexion.", "Réessayer"],
    it: ["Non è stato possibile scaricare il gioco. Si riproverà appena torna la connessione.", "Riprova"],
    de: ["Das Spiel konnte nicht geladen werden. Sobald die Verbindung wieder da ist, wird es erneut versucht.",
         "Erneut versuchen"]
  };
  // The game itself failed to start (nothing to download again): the retry reloads.
  var crashedWords = {
    en: ["The game could not start ({reason}). Your saved games are kept.", "Try again"],
    fr: ["Le jeu n’a pas pu démarrer ({reason}). Vos parties sauvegardées sont conservées.", "Réessayer"],
    it: ["Non è stato possibile avviare il gioco ({reason}). Le partite salvate sono conservate.", "Riprova"],
    de: ["Das Spiel konnte nicht starten ({reason}). Deine gespeicherten Partien bleiben erhalten.",
         "Erneut versuchen"]
  };
  var pref = null;
  try { pref = (JSON.parse(localStorage.getItem("jhg.prefs") || "{}") || {}).lang; } catch (e) {}
  if (typeof pref !== "string") pref = null;  // (stored data: anything at all)
  var q = /[?&]lang=([a-z]{2})/.exec(location.search);
  var lang = ((q && q[1]) || pref || navigator.language || "en").slice(0, 2).toLowerCase();
  var w = words[lang] || words.en, fw = failedWords[lang] || failedWords.en;
  var cw = crashedWords[lang] || crashedWords.en;
  var bar = document.getElementById("loader-bar"), text = document.getElementById("loader-text");
  var box = document.getElementById("loader"), shown = 5;
  if (!bar || !text || !box) return;
  function step(pct, i) {
    if (pct <= shown) return;
    shown = pct; bar.style.transform = "scaleX(" + pct / 100 + ")"; box.setAttribute("aria-valuenow", pct);
    if (i !== undefined && w[i]) text.textContent = w[i];
  }
  text.textContent = w[0]; step(8, 0);
  var marks = [["engine.mjs", 15, 1], ["pyodide.mjs", 25, 1],
               ["pyodide.asm.mjs", 35, 1], ["pyodide.asm.wasm", 60, 2], ["python_stdlib.zip", 75, 2],
               ["snapshot-", 75, 2]];  // (a Python started from the snapshot fetches no stdlib)
  function fetched(name) {
    marks.forEach(function (m) { if (name.indexOf(m[0]) >= 0) step(m[1], m[2]); });
  }
  if (window.PerformanceObserver) {
    try {
      new PerformanceObserver(function (l) {
        l.getEntries().forEach(function (e) { fetched(e.name); });
      }).observe({type: "resource", buffered: true});
    } catch (e) {}
  }
  // What the game's worker downloads (static/js/front.mjs passes it on).
  addEventListener("jhg:fetched", function (e) { fetched(String(e.detail)); });
  // Python is up in the game's worker (static/js/front.mjs): the page's own program starts.
  addEventListener("jhg:python", function () { step(88, 3); });
  var t0 = Date.now();
  var tick = setInterval(function () {  // creep forward while wasm compiles
    if (!document.getElementById("loader") || Date.now() - t0 > 60000) { clearInterval(tick); return; }
    if (shown >= 60 && shown < 95) step(shown + 1);
  }, 400);

  // -- a start-up that fails -------------------------------------------------
  var body = document.body, failure = null, note = null;
  function starting() { return body.getAttribute("data-state") === "loading"; }
  function failed(inPlace, said) {  // a promise of the retry; `said`: other words than a download's
    said = said || fw;
    if (!failure) {
      failure = {inPlace: inPlace, waiters: []};
      if (!note) {
        note = document.createElement("p");
        note.id = "loader-failed"; note.setAttribute("role", "alert");
        var again = document.createElement("button");
        again.type = "button"; again.id = "loader-retry"; again.className = "primary";
        note.appendChild(document.createElement("span"));
        note.appendChild(again);
      }
      note.firstChild.textContent = said[0] + " ";
      note.lastChild.textContent = said[1];
      text.hidden = true;
      // With the page's notices, in the flow at the top: where the player looks
      // first, covering nothing (the start screen's offline line included).
      var notices = document.getElementById("notices");
      if (notices) {
        note.className = "notice";
        notices.insertBefore(note, notices.firstChild);
      } else {
        box.querySelector(".loader-box").insertBefore(note, text);
      }
      box.setAttribute("data-failed", "");
    } else if (!inPlace) {
      failure.inPlace = false;
    }
    var waiting = failure;
    return new Promise(function (resolve) { waiting.waiters.push(resolve); });
  }
  function retry() {
    if (!failure) return;
    var was = failure;
    failure = null;
    if (!was.inPlace) { location.reload(); return; }
    if (note && note.parentNode) note.parentNode.removeChild(note);
    text.hidden = false;
    box.removeAttribute("data-failed");
    was.waiters.forEach(function (resume) { resume(); });
  }
  addEventListener("online", retry);
  // "Try again", and Start (first.js keeps it pressed): never a button that does nothing.
  document.addEventListener("click", function (e) {
    if (failure && e.target.closest && e.target.closest("#loader-retry, #start")) retry();
  });

  // The page's own downloads while it starts (PyScript's config, the runtime, the
  // standard library, game.zip): one that fails for want of a network waits for
  // the retry and is asked again, so that its caller never sees the failure
  // (Pyodide swallows a failed wasm download and would wait forever).
  // The snapshot is left out: python.mjs starts Python without it.
  var fetchNow = window.fetch;
  function watched(input) {
    try {
      var url = new URL(typeof input === "object" && input.url ? input.url : String(input), location.href);
      return url.origin === location.origin && !/\/snapshot-[0-9a-f]+\.bin\.gz$/.test(url.pathname);
    } catch (e) { return false; }
  }
  if (fetchNow) {
    window.fetch = function (input) {
      var args = arguments;
      var answer = fetchNow.apply(window, args);
      if (!starting() || !watched(input)) return answer;
      return answer.catch(function again(e) {
        if ((e && e.name === "AbortError") || !starting()) throw e;
        console.warn("A start-up download failed; it is asked again on retry:", e);
        return failed(true).then(function () { return fetchNow.apply(window, args).catch(again); });
      });
    };
  }
  // A module of the runtime that did not load (first.js's <script>, or an import of
  // PyScript's or Pyodide's) leaves no way to go on in this page: the retry reloads it.
  addEventListener("error", function (e) {
    var el = e.target;
    if (starting() && el && el.tagName === "SCRIPT" && el.src) failed(false);
  }, true);
  // The wasm's download broke off midway: Pyodide gave up (game/build.py tells us);
  // or the game's worker could not start (the page whose Python runs in a worker).
  addEventListener("pyodide:wasm-failed", function () { if (starting()) failed(false); });
  addEventListener("jhg:engine-failed", function () { if (starting()) failed(false); });
  addEventListener("jhg:engine-crashed", function (e) {
    var why = String(e.detail || "Error").replace(/[^A-Za-z0-9_.]/g, "").slice(0, 40);
    if (starting()) failed(false, [cw[0].replace("{reason}", why), cw[1]]);
  });
  // A download of the game's worker failed: it waits for the retry (static/js/engine.mjs).
  addEventListener("jhg:download-failed", function () {
    if (starting()) failed(true).then(function () { window.jhgEngine.postMessage('{"retry":true}'); });
  });
  addEventListener("unhandledrejection", function (e) {
    var why = e.reason;
    if (starting() && why instanceof TypeError &&
        /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(why.message)) {
      failed(false);
    }
  });
})();
