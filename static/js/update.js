// Offline: register the service worker once Python is up, so that it does not
// race the page for the 9.6 MB wasm. A new deployment (a new sw.js: its cache
// name is a hash of the site) is offered, never forced: the page reloads only
// when the player asks, and the game is saved after every action, so the
// reload resumes it.
addEventListener("py:all-done", function () {
  if (!("serviceWorker" in navigator) || location.protocol === "file:") return;
  var words = {en: ["A new version is ready.", "Reload"],
               fr: ["Une nouvelle version est prête.", "Recharger"],
               it: ["È pronta una nuova versione.", "Ricarica"],
               de: ["Eine neue Version ist da.", "Neu laden"]};
  function offer() {
    var box = document.getElementById("update");
    var w = words[document.documentElement.lang] || words.en;
    box.querySelector("span").textContent = w[0];
    box.querySelector("button").textContent = w[1];
    box.querySelector("button").addEventListener("click", function () { location.reload(); });
    box.hidden = false;
    // the page and any open panel end above the bar (static/css/site.css)
    function room() {
      document.documentElement.style.setProperty("--update-h", box.offsetHeight + "px");
    }
    room();
    addEventListener("resize", room);
  }
  navigator.serviceWorker.register("./sw.js").then(function (reg) {
    reg.addEventListener("updatefound", function () {
      var fresh = reg.installing;
      if (!reg.active || !fresh) return;  // the first install is not an update
      fresh.addEventListener("statechange", function () {
        if (fresh.state === "activated") offer();
      });
    });
    function check() { reg.update().catch(function () {}); }
    setInterval(check, 30 * 60 * 1000);  // a long game: look for a deployment now and then
    document.addEventListener("visibilitychange", function () { if (!document.hidden) check(); });
  }).catch(function () {});
});
