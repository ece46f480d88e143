// bansha-web: live pages and copy buttons. No inline script anywhere (CSP script-src 'self').
//
// A page's #live part holds what the last request said (a message, one-time links, a preview)
// and the game's state (#state). A change of the game (server-sent event) re-renders #state
// alone, so what a request said stays on the page. While a form in #live is being filled in,
// the refresh waits (it would replace the form and lose the choices): #stale says so, and the
// form's own submission brings the new state with its answer.
(function () {
  function connect(live) {
    var src = live.getAttribute("data-sse");
    if (!src || !window.EventSource) return;
    var editing = false, waiting = false;
    var stale = document.getElementById("stale");
    function refresh() {
      waiting = false;
      if (stale) stale.hidden = true;
      htmx.trigger(live, "bansha:change");
    }
    live.addEventListener("input", function (e) { if (e.target.closest("form")) editing = true; });
    live.addEventListener("change", function (e) { if (e.target.closest("form")) editing = true; });
    // any swap inside #live replaced the forms it held: nothing is being filled in any more
    live.addEventListener("htmx:afterSwap", function () {
      editing = false;
      if (waiting) refresh();
    });
    var es = new EventSource(src);
    es.addEventListener("change", function () {
      if (editing) {
        waiting = true;
        if (stale) stale.hidden = false;
      } else {
        refresh();
      }
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-sse]").forEach(connect);
  });
  document.addEventListener("click", function (e) {
    var b = e.target.closest("[data-copy-button]");
    if (!b) return;
    var t = b.previousElementSibling;
    if (!t) return;
    t.select();
    if (navigator.clipboard) navigator.clipboard.writeText(t.value); else document.execCommand("copy");
    b.textContent = "已复制";
  });
})();
