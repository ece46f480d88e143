// bansha-web: live pages, notices and copy buttons. No inline script anywhere (CSP script-src 'self').
//
// A page's #live part holds what the last request said (#said: a message, one-time links, a
// preview) and the game's state (#state). A change of the game (server-sent event) re-renders
// #state alone, so what a request said stays on the page — until the phase changes (#said and
// the state each carry their phase's label). While a form in #live is being filled in, the
// refresh waits (it would replace the form and lose the choices): #stale says so, and the form's
// own submission brings the new state with its answer. Nothing fails silently: a refused request
// shows the server's notice in #said (the server retargets it there), a request that reached no
// server says so (the words are the page's own: body[data-offline]): such a request was not
// stored (it never reached the server). When the server is back (the live stream says hello
// again, or a request is answered), that notice is replaced by body[data-online].
(function () {
  var offline = false;  // a notice of a request that reached no server is on the page
  function notice(text, cls) {
    var said = document.getElementById("said");
    if (!said) return;
    said.textContent = "";
    var p = document.createElement("p");
    p.className = cls || "error";
    p.setAttribute("role", "alert");
    p.textContent = text;
    said.appendChild(p);
  }
  function back() {
    if (!offline) return;
    offline = false;
    var p = document.querySelector("#said .offline");
    if (!p) return;
    p.className = "notice";
    p.setAttribute("role", "status");
    p.textContent = document.body.getAttribute("data-online") || "";
  }
  function connect(live) {
    var src = live.getAttribute("data-sse");
    if (!src || !window.EventSource) return;
    var editing = false, waiting = false, lost = false;
    var stale = document.getElementById("stale");
    function refresh() {
      waiting = false;
      if (stale) stale.hidden = true;
      htmx.trigger(live, "bansha:change");
    }
    live.addEventListener("input", function (e) { if (e.target.closest("form")) editing = true; });
    live.addEventListener("change", function (e) { if (e.target.closest("form")) editing = true; });
    live.addEventListener("htmx:beforeSwap", function (e) {
      // a refresh asked before the form was touched, answered after: it waits as well
      if (editing && e.detail.elt && e.detail.elt.id === "state") {
        e.detail.shouldSwap = false;
        waiting = true;
        if (stale) stale.hidden = false;
      }
    });
    live.addEventListener("htmx:afterSwap", function () {
      // any swap inside #live replaced the forms it held: nothing is being filled in any more
      editing = false;
      // what was said belongs to its phase: a state of another phase clears it
      var said = document.getElementById("said");
      var state = document.querySelector("#state [data-label]");
      if (said && state && said.getAttribute("data-label") && said.getAttribute("data-label") !== state.getAttribute("data-label")) {
        said.textContent = "";
        said.setAttribute("data-label", state.getAttribute("data-label"));
      }
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
    es.addEventListener("hello", function () {
      back();
      if (lost) { lost = false; refresh(); }  // back after a restart: what changed meanwhile
    });
    es.addEventListener("gone", function (e) {
      es.close();
      notice(e.data + " " + (document.body.getAttribute("data-gone-reload") || ""));
    });
    es.onerror = function () { lost = true; };
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-sse]").forEach(connect);
  });
  // a request that reached no server (restarting, offline): said on the page, not dropped
  document.addEventListener("htmx:sendError", function () {
    offline = true;
    notice(document.body.getAttribute("data-offline") || "offline", "error offline");
  });
  // an answered request: the server is back (its answer replaces the notice, or back() does)
  document.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail && e.detail.xhr && e.detail.xhr.status) back();
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
