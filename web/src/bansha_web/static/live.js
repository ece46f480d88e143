// bansha-web: live pages and copy buttons. No inline script anywhere (CSP script-src 'self').
(function () {
  function connect(el) {
    var src = el.getAttribute("data-sse");
    if (!src || !window.EventSource) return;
    var es = new EventSource(src);
    es.addEventListener("change", function () { htmx.trigger(el, "bansha:change"); });
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
