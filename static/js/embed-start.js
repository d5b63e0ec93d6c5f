// embed.html's start: paint its game's waiting table, load its front
// (static/js/front.mjs, which starts the game's worker), or say why it cannot run.
// Opened as a file (file://, e.g. a rules page double-clicked in a folder) the
// browser refuses the runtime's modules: instead of "Loading…" forever and
// blocked requests, the frame says at once how to serve the site. A runtime
// that fails to load over http (an incomplete copy) gets its own message.
(function () {
  var words = {
    en: {file: ["This example needs a web server",
                "Opened as a file (file://), the browser will not run it. Serve the site's folder over http instead, for example with “python -m game serve”, and open it at http://127.0.0.1:8000/."],
         runtime: ["The example could not start",
                   "The example's scripts did not load. Check that the whole site was copied and is served over http(s), then reload the page."]},
    fr: {file: ["Cet exemple a besoin d’un serveur web",
                "Ouvert comme fichier (file://), le navigateur refuse de l’exécuter. Servez plutôt le dossier du site en http, par exemple avec « python -m game serve », et ouvrez-le à l’adresse http://127.0.0.1:8000/."],
         runtime: ["L’exemple n’a pas pu démarrer",
                   "Les scripts de l’exemple ne se sont pas chargés. Vérifiez que tout le site a été copié et qu’il est servi en http(s), puis rechargez la page."]},
    it: {file: ["Questo esempio ha bisogno di un server web",
                "Aperto come file (file://), il browser non lo esegue. Servite invece la cartella del sito via http, per esempio con «python -m game serve», e apritelo all’indirizzo http://127.0.0.1:8000/."],
         runtime: ["L’esempio non è potuto partire",
                   "Gli script dell’esempio non si sono caricati. Verificate che tutto il sito sia stato copiato e servito via http(s), poi ricaricate la pagina."]},
    de: {file: ["Dieses Beispiel braucht einen Webserver",
                "Als Datei geöffnet (file://) führt der Browser es nicht aus. Stelle den Ordner der Seite stattdessen über http bereit, zum Beispiel mit „python -m game serve“, und öffne http://127.0.0.1:8000/."],
         runtime: ["Das Beispiel konnte nicht starten",
                   "Die Skripte des Beispiels wurden nicht geladen. Prüfe, ob die ganze Seite kopiert ist und über http(s) bereitgestellt wird, und lade die Seite neu."]}
  };
  var body = document.body;
  var runtime = document.currentScript.getAttribute("data-runtime");
  var q = /[?&]lang=([a-z]{2})/.exec(location.search);
  var lang = ((q && q[1]) || navigator.language || "en").slice(0, 2).toLowerCase();
  var w = words[lang] || words.en;

  function explain(which) {
    var box = document.createElement("div"), h = document.createElement("h1"), p = document.createElement("p");
    box.className = "ex-error"; box.id = "ex-error"; box.setAttribute("role", "alert");
    h.textContent = w[which][0]; p.textContent = w[which][1];
    box.appendChild(h); box.appendChild(p);
    var screen = document.getElementById("screen");
    screen.replaceChildren(box);
    var loader = document.getElementById("loader");
    if (loader) loader.remove();
    document.getElementById("ex-bar").hidden = true;
    document.documentElement.lang = words[lang] ? lang : "en";
    body.setAttribute("data-view", "error");
    body.setAttribute("data-state", "ready");
  }

  // Run at the top of <body>: what decides the layout is set before the
  // browser can paint; the rest waits for the page to be parsed.
  var game = /[?&]game=([a-z-]+)/.exec(location.search);
  // A live table (no scenario) has a bar above it: embed.css keeps its room.
  if (game && !/[?&]scenario=/.test(location.search)) body.setAttribute("data-live", "");
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();

  function start() {
    if (location.protocol === "file:") { explain("file"); return; }
    // The game's table as far as no deal changes it (the build's <template>s),
    // above the cards' skeleton, until the game draws it with the cards. The
    // skeleton is put back anew: the browser may have painted it already, and
    // a node that moved would count as a layout shift; a new one does not.
    var table = game && (document.getElementById("embed-" + lang + "-" + game[1])
                         || document.getElementById("embed-en-" + game[1]));
    if (table) {
      var screen = document.getElementById("screen");
      var skeleton = screen.querySelector(".ex-skeleton");
      screen.replaceChildren(table.content.cloneNode(true), skeleton.cloneNode(true));
    }
    if (game) body.setAttribute("data-specimen", game[1]);  // front.mjs lays its table out unseen
    var script = document.createElement("script");
    script.type = "module";
    script.src = runtime;
    script.onerror = function () { explain("runtime"); };
    document.head.appendChild(script);
  }
})();
