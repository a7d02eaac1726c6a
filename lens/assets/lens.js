// agentfootprint lens: search and keyboard navigation. Everything else on the
// page works without this script.
(function () {
  "use strict";
  var doc = document, main = doc.querySelector("main");
  doc.documentElement.classList.add("js");
  doc.body.classList.add("js");
  var form = doc.getElementById("search"), q = doc.getElementById("q"), out = doc.getElementById("hits");
  form.hidden = false;
  var hits = [], cur = -1, timer = 0, MAX = 5000;

  function clear() {
    for (var i = 0; i < hits.length; i++) {
      var m = hits[i], p = m.parentNode;
      if (!p) continue;
      p.replaceChild(doc.createTextNode(m.textContent), m);
      p.normalize();
    }
    hits = []; cur = -1;
  }
  function openAncestors(el) {
    for (var e = el.parentElement; e; e = e.parentElement) if (e.tagName === "DETAILS") e.open = true;
  }
  function search(term) {
    clear();
    term = term.trim().toLowerCase();
    if (term.length < 2) { out.textContent = ""; return; }
    var walker = doc.createTreeWalker(main, NodeFilter.SHOW_TEXT, null), nodes = [], n;
    while ((n = walker.nextNode())) if (n.nodeValue.toLowerCase().indexOf(term) >= 0) nodes.push(n);
    for (var i = 0; i < nodes.length && hits.length < MAX; i++) {
      var node = nodes[i], text = node.nodeValue, low = text.toLowerCase(), at = 0, pos, frag = doc.createDocumentFragment();
      while ((pos = low.indexOf(term, at)) >= 0 && hits.length < MAX) {
        frag.appendChild(doc.createTextNode(text.slice(at, pos)));
        var m = doc.createElement("mark"); m.className = "hit"; m.textContent = text.slice(pos, pos + term.length);
        frag.appendChild(m); hits.push(m); at = pos + term.length;
      }
      frag.appendChild(doc.createTextNode(text.slice(at)));
      node.parentNode.replaceChild(frag, node);
    }
    out.textContent = hits.length ? hits.length + (hits.length >= MAX ? "+" : "") + " matches" : "no match";
    if (hits.length) go(0);
  }
  function go(i) {
    if (!hits.length) return;
    if (cur >= 0 && hits[cur]) hits[cur].classList.remove("cur");
    cur = (i + hits.length) % hits.length;
    var m = hits[cur]; m.classList.add("cur"); openAncestors(m);
    m.scrollIntoView({block: "center"});
    out.textContent = (cur + 1) + " of " + hits.length + (hits.length >= MAX ? "+" : "");
  }
  q.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(function () { search(q.value); }, 120); });
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  q.addEventListener("keydown", function (e) {
    if (e.key === "Enter") { e.preventDefault(); clearTimeout(timer); if (!hits.length) search(q.value); else go(cur + (e.shiftKey ? -1 : 1)); }
    if (e.key === "Escape") { q.value = ""; clear(); out.textContent = ""; q.blur(); }
  });
  doc.getElementById("next").addEventListener("click", function () { go(cur + 1); });
  doc.getElementById("prev").addEventListener("click", function () { go(cur - 1); });

  var steps = Array.prototype.slice.call(doc.querySelectorAll("details.step")), at = -1;
  function focusStep(i) {
    if (!steps.length) return;
    if (at >= 0) steps[at].classList.remove("current");
    at = Math.max(0, Math.min(steps.length - 1, i));
    var s = steps[at]; s.classList.add("current");
    s.querySelector("summary").focus({preventScroll: true});
    s.scrollIntoView({block: "start"});
  }
  var panes = ["answer", "story", "ground", "backtrack", "units"];
  doc.addEventListener("keydown", function (e) {
    var t = e.target;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (t && (t.tagName === "INPUT" && t.type !== "checkbox" || t.tagName === "TEXTAREA")) return;
    var k = e.key;
    if (k === "/") { e.preventDefault(); q.focus(); q.select(); }
    else if (k === "n") go(cur + 1);
    else if (k === "N") go(cur - 1);
    else if (k === "j") focusStep(at + 1);
    else if (k === "k") focusStep(at - 1);
    else if (k === "o" && at >= 0) steps[at].open = !steps[at].open;
    else if (k === "e") steps.forEach(function (s) { s.open = true; });
    else if (k === "c") steps.forEach(function (s) { s.open = false; });
    else if (k === "s") { var b = doc.getElementById("show-ids"); b.checked = !b.checked; }
    else if (k >= "1" && k <= "5") { var p = doc.getElementById(panes[k - 1]); if (p) p.scrollIntoView({block: "start"}); }
  });
})();
