// First paint, before any runtime loads: the screen the visitor will see.
// A saved game shows the table skeleton; otherwise the start screen in the
// visitor's language, from the <template>s the build drew with the shell's own
// code (game.web.draw.start_screen). Its choices stay usable while Python starts:
// the shell reads the form as it finds it, takes the language and speed from
// the preferences written here, and starts a game asked for before it was up.
(function () {
  var body = document.body, PREFS = "jhg.prefs";
  function ready() { return body.getAttribute("data-state") === "ready"; }
  function stored(key) {
    try { return localStorage.getItem(key); } catch (e) { return null; }  // storage disabled
  }
  function prefs() {
    try { var p = JSON.parse(stored(PREFS) || "{}"); return p && typeof p === "object" ? p : {}; }
    catch (e) { return {}; }
  }
  function savePref(key, value) {
    var p = prefs(); p[key] = value;
    try { localStorage.setItem(PREFS, JSON.stringify(p)); } catch (e) {}
  }
  function template(lang, game) { return document.getElementById("first-" + lang + "-" + game); }
  function param(name) {
    var m = new RegExp("[?&]" + name + "=([^&#]*)").exec(location.search);
    return m ? decodeURIComponent(m[1]) : null;
  }

  // The page stays hidden until this has run (site.css), so nothing moves once painted.
  var runtime = document.currentScript.getAttribute("data-runtime");
  try { draw(); } finally { body.setAttribute("data-first", ""); startRuntime(); }

  // The runtime (front.mjs) starts the game's worker as soon as the page is
  // parsed, and loads MicroPython only once this screen is on screen
  // (window.jhgPainted): its start would hold the first paint back.
  function startRuntime() {
    var painted;
    window.jhgPainted = new Promise(function (resolve) { painted = resolve; });
    var types = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
    if (document.hidden || types.indexOf("paint") < 0) {  // no frame comes, or no word of it
      painted();
    } else {
      new PerformanceObserver(function (list, observer) {
        list.getEntries().forEach(function (e) {
          if (e.name === "first-contentful-paint") { observer.disconnect(); painted(); }
        });
      }).observe({type: "paint", buffered: true});
      setTimeout(painted, 1000);  // never later than this, painted or not
    }
    function start() {  // the page's markup must be in place
      var script = document.createElement("script");
      script.type = "module";
      script.src = runtime;
      document.head.appendChild(script);
    }
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }
  // Whether the shell will put a saved game back (game/web/runtime/controller.py, resume):
  // the linked game's, else the one last on the table; or the one save of
  // earlier versions, which it moves to its game.
  function resuming() {
    var game = param("game") || stored("jhg.current");
    return stored("jhg.save") !== null || (!!game && stored("jhg.save." + game) !== null);
  }
  function draw() {
    if (resuming()) {  // Python resumes the game: its table's place, until it is drawn
      var table = document.getElementById("first-table");
      if (table) document.getElementById("screen").appendChild(document.importNode(table.content, true));
      body.setAttribute("data-specimen", param("game") || stored("jhg.current") || "");
      return;
    }
    var games = [], seen = {};
    Array.prototype.forEach.call(document.querySelectorAll("template[id^='first-'][data-wait]"),
      function (t) {
        var g = t.id.split("-").slice(2).join("-");
        if (!seen[g]) { seen[g] = true; games.push(g); }
      });
    if (!games.length) return;  // an unbuilt page: Python draws everything
    var p = prefs();
    // The language as game.web.draw.i18n.pick_language chooses it: the first one the site speaks.
    var lang = [param("lang"), p.lang, navigator.language].map(function (c) {
      return typeof c === "string" ? c.trim().toLowerCase().replace("_", "-").split("-")[0] : "";
    }).filter(function (c) { return c && template(c, games[0]); })[0] || "en";
    // The game as the shell chooses it: the last one played, or a link's ?game=.
    var last = p.setup && typeof p.setup === "object" ? p.setup : {};
    var game = games.indexOf(param("game")) >= 0 ? param("game")
      : games.indexOf(last.game) >= 0 ? last.game : games[0];

    function fields() { return document.querySelectorAll("#setup select, #setup input"); }
    function fill(values) {  // a <select> only takes a value it offers
      Array.prototype.forEach.call(fields(), function (el) {
        var v = values[el.name];
        if (typeof v !== "string" || el.name === "game") return;
        if (el.type === "checkbox") el.checked = v === "on";  // as the shell reads a box
        else if (el.tagName === "INPUT" || el.querySelector("option[value='" + v.replace(/'/g, "") + "']")) el.value = v;
      });
    }
    function show(values) {
      var t = template(lang, game);
      var copy = document.importNode(t.content, true);
      Array.prototype.forEach.call(copy.querySelectorAll("[data-into]"), function (part) {
        var into = document.getElementById(part.getAttribute("data-into"));
        while (into.firstChild) into.removeChild(into.firstChild);
        while (part.firstChild) into.appendChild(part.firstChild);
      });
      document.documentElement.lang = lang;
      document.title = document.getElementById("brand").textContent = t.getAttribute("data-title");
      body.setAttribute("data-view", "setup");
      fill(values);
      var speed = document.getElementById("speed");  // ?speed= first, as the shell reads it
      [param("speed"), prefs().speed, "normal"].some(function (v) {
        speed.value = v; return speed.selectedIndex >= 0;
      });
      var start = document.getElementById("start");
      start.setAttribute("aria-busy", "true");
      start.textContent = t.getAttribute(body.hasAttribute("data-start-pending") ? "data-wait-start" : "data-wait");
    }
    function current() {
      var values = {};
      Array.prototype.forEach.call(fields(), function (el) {
        values[el.name] = el.type === "checkbox" ? (el.checked ? "on" : "") : el.value;
      });
      return values;
    }
    body.setAttribute("data-specimen", game);  // the table a Start would draw (front.mjs)
    var kept = {};  // the last game's choices, except its deal number (as the shell keeps them)
    Object.keys(last).forEach(function (k) { if (k !== "seed") kept[k] = String(last[k]); });
    show(kept);

    document.addEventListener("change", function (e) {
      if (ready()) return;
      var el = e.target;
      if (el.id === "f-game") { game = el.value; show(current()); }
      else if (el.id === "lang") {
        lang = el.value; savePref("lang", lang);
        if (param("lang")) history.replaceState(null, "", location.href.replace(/([?&]lang=)[^&#]*/, "$1" + lang));
        show(current());
      }
      else if (el.id === "speed") savePref("speed", el.value);
    });
    function startSoon(e) {  // the shell starts the game as soon as it is up
      if (ready() || !e.target.closest("#setup")) return;
      if (e.type === "click" && e.target.closest("#lesson")) {  // Learn by playing: the same
        body.setAttribute("data-lesson-pending", "");
        e.target.closest("#lesson").setAttribute("aria-busy", "true");
        return;
      }
      if (e.type === "click" && !e.target.closest("#start")) return;
      e.preventDefault();
      body.setAttribute("data-start-pending", "");
      document.getElementById("start").textContent = template(lang, game).getAttribute("data-wait-start");
    }
    document.addEventListener("click", startSoon);
    document.addEventListener("submit", startSoon);
  }
})();
