// Loading progress before Python is up: plain JS, no request of its own.
// A file (not an inline script) so the pages can forbid inline script.
(function () {
  var words = {
    table: {
      en: ["Shuffling the cards…", "Downloading the runtime…", "Starting Python…", "Setting the table…"],
      fr: ["On bat les cartes…", "Téléchargement de l'environnement…", "Démarrage de Python…", "On dresse la table…"],
      it: ["Si mescolano le carte…", "Scaricamento dell'ambiente…", "Avvio di Python…", "Si prepara il tavolo…"]
    },
    example: {
      en: ["Loading the example…"], fr: ["Chargement de l'exemple…"], it: ["Caricamento dell'esempio…"]
    }
  }[document.body.getAttribute("data-loader") || "table"];
  var pref = null;
  try { pref = (JSON.parse(localStorage.getItem("jhg.prefs") || "{}") || {}).lang; } catch (e) {}
  var q = /[?&]lang=([a-z]{2})/.exec(location.search);
  var lang = ((q && q[1]) || pref || navigator.language || "en").slice(0, 2).toLowerCase();
  if (typeof lang !== "string") lang = "en";
  var w = words[lang] || words.en;
  var bar = document.getElementById("loader-bar"), text = document.getElementById("loader-text");
  var box = document.getElementById("loader"), shown = 5;
  if (!bar || !text || !box) return;
  function step(pct, i) {
    if (pct <= shown) return;
    shown = pct; bar.style.width = pct + "%"; box.setAttribute("aria-valuenow", pct);
    if (i !== undefined && w[i]) text.textContent = w[i];
  }
  text.textContent = w[0]; step(8, 0);
  var marks = [["core.js", 15, 1], ["pyodide.mjs", 25, 1], ["pyodide.asm.mjs", 35, 1],
               ["pyodide.asm.wasm", 60, 2], ["python_stdlib.zip", 75, 2], ["game.zip", 88, 3]];
  if (window.PerformanceObserver) {
    try {
      new PerformanceObserver(function (l) {
        l.getEntries().forEach(function (e) {
          marks.forEach(function (m) { if (e.name.indexOf(m[0]) >= 0) step(m[1], m[2]); });
        });
      }).observe({type: "resource", buffered: true});
    } catch (e) {}
  }
  var t0 = Date.now();
  var tick = setInterval(function () {  // creep forward while wasm compiles
    if (!document.getElementById("loader") || Date.now() - t0 > 60000) { clearInterval(tick); return; }
    if (shown >= 60 && shown < 95) step(shown + 1);
  }, 400);
})();
