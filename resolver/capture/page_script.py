"""The in-page side of web capture: JavaScript that describes an element the way the Chrome
extension's payload does (:mod:`resolver.capture.chrome`), and a recorder that queues one
payload per user event.

:data:`DESCRIBE_JS` is a function ``(element) => payload`` for ``locator.evaluate`` (it is
what :func:`~resolver.capture.playwright.from_playwright` runs); :data:`RECORDER_JS` installs
capture-phase listeners that push ``{"type", "x", "y", "element", ...}`` events onto
``window.__resolverEvents`` (and call ``window.__resolverSend(event)`` when a page binding or
an extension's port provides it). Both read only the page: nothing is sent anywhere.
"""

from __future__ import annotations

from typing import Final

__all__ = ["DESCRIBE_JS", "FRAME_ORIGIN_JS", "RECORDER_JS", "XPATH_JS"]

XPATH_JS: Final[str] = r"""(n) => {
  const steps = [];
  for (; n && n.nodeType === 1; n = n.parentNode) {
    let k = 1;
    for (let s = n.previousElementSibling; s; s = s.previousElementSibling)
      if (s.localName === n.localName) k++;
    steps.unshift(n.localName + "[" + k + "]");
  }
  // A shadow root or a detached subtree has no absolute document path.
  return n === null || n.nodeType === 9 ? "/" + steps.join("/") : null;
}"""
"""``(element) => xpath``: an element's absolute XPath in its document (``/html[1]/...``),
``null`` inside a shadow tree or a detached subtree."""

FRAME_ORIGIN_JS: Final[str] = r"""(win) => {
  let dx = 0, dy = 0, w = win;
  try {
    for (; w !== w.top && w.frameElement; w = w.parent) {
      const f = w.frameElement, r = f.getBoundingClientRect();
      const s = w.parent.getComputedStyle(f);
      dx += r.left + f.clientLeft + (parseFloat(s.paddingLeft) || 0);
      dy += r.top + f.clientTop + (parseFloat(s.paddingTop) || 0);
    }
  } catch (e) { return [dx, dy, false]; }
  return [dx, dy, w === w.top];
}"""
"""``(window) => [dx, dy, seen]``: where a frame's viewport is in the top document's, by each
frame element's content box (its border and padding inside its box), as far up as the
frames' origins let the page see (``seen``: all the way up)."""

_DESCRIBE_BODY: Final[str] = r"""
(el) => {
  const norm = (s) => (s || "").replace(/\s+/g, " ").trim();
  const byIds = (n, ids) => norm((ids || "").split(/\s+/).map((id) => {
    const t = n.ownerDocument.getElementById(id); return t ? t.textContent : "";
  }).join(" "));
  // What names a container: only its own labels (its text is its content, not its name).
  const label = (n) => norm(n.getAttribute("aria-label")) ||
    byIds(n, n.getAttribute("aria-labelledby")) ||
    (n.localName === "fieldset" && n.querySelector("legend")
      ? norm(n.querySelector("legend").textContent) : "");
  const nameOf = (n) => {
    const own = label(n);
    if (own) return own;
    if (n.labels && n.labels.length) return norm(n.labels[0].innerText);
    const alt = norm(n.getAttribute("alt"));
    if (alt) return alt;
    if (n.localName === "input" && /^(button|submit|reset)$/i.test(n.type)) return norm(n.value);
    const inner = norm(n.innerText).slice(0, 256);
    return inner || norm(n.getAttribute("title")) || norm(n.getAttribute("placeholder"));
  };
  const up = (n) => n.parentElement || (n.getRootNode && n.getRootNode().host) || null;
  const xpathOf = XPATH_OF;
  // Inside a shadow tree no selector of the document reaches the element: none is made
  // (a path from its shadow root, read as the document's, would select another element).
  const shadowed = el.getRootNode() !== el.ownerDocument;
  const cssOf = (n) => {
    if (shadowed) return null;
    if (n.id && n.ownerDocument.querySelectorAll("#" + CSS.escape(n.id)).length === 1)
      return "#" + CSS.escape(n.id);
    const steps = [];
    for (; n && n.nodeType === 1 && n.localName !== "html"; n = n.parentElement) {
      let k = 1;
      for (let s = n.previousElementSibling; s; s = s.previousElementSibling)
        if (s.localName === n.localName) k++;
      steps.unshift(n.localName + ":nth-of-type(" + k + ")");
    }
    return steps.join(" > ") || null;
  };
  // The texts around an element in a shadow tree are read in that tree (the document's
  // are neither before nor after it there).
  const nearby = (n) => {
    const doc = n.ownerDocument, own = norm(n.innerText || n.textContent);
    const scope = shadowed ? n.getRootNode() : doc.body || doc.documentElement;
    const walker = doc.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    const before = [], after = [];
    let steps = 0, t;
    while ((t = walker.nextNode()) && steps++ < 20000) {
      if (n.contains(t)) continue;
      const s = norm(t.textContent);
      if (!s || s === own || /^(SCRIPT|STYLE|NOSCRIPT)$/.test(t.parentNode.nodeName)) continue;
      if (n.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_PRECEDING) {
        before.push(s);
        if (before.length > 2) before.shift();
      } else {
        after.push(s);
        if (after.length >= 2) break;
      }
    }
    return [...before.reverse(), ...after].map((s) => s.slice(0, 80));
  };
  // In a frame, the selectors, the XPath and the HTML id are of the frame's document, not
  // the page's: left out. In a frame of another origin than the top's, where the frame is
  // in the page is not seen from here: the box is left out too (never one in the frame's
  // own viewport, read as the page's).
  const win = el.ownerDocument.defaultView, framed = win !== win.top;
  const [dx, dy, seen] = (FRAME_ORIGIN)(win);
  const r = el.getBoundingClientRect();
  const attrs = {};
  for (const a of ["name", "type", "placeholder", "title", "alt"]) {
    const v = el.getAttribute(a); if (v) attrs[a] = v;
  }
  const testKey = ["data-testid", "data-test-id", "data-test", "data-qa", "data-cy"]
    .find((a) => el.hasAttribute(a));
  // An unnamed row, list item or article (by its tag, or its role: a grid's or a virtualised
  // list's rows are divs) is told apart by its first texts (as the tables do).
  const content = (n) => {
    const w = n.ownerDocument.createTreeWalker(n, NodeFilter.SHOW_TEXT), out = [];
    for (let t; (t = w.nextNode()) && out.length < 8;) {
      const s = norm(t.textContent);
      if (s && !/^(SCRIPT|STYLE)$/.test(t.parentNode.nodeName)) out.push(s);
    }
    return out.join(" ").slice(0, 120);
  };
  // The nearest heading before the element in reading order (one it is inside counts):
  // what its card, section or pane is about.
  const headingOf = (n, cap = 20000) => {
    const doc = n.ownerDocument;
    const scope = shadowed ? n.getRootNode() : doc.body || doc.documentElement;
    const walker = doc.createTreeWalker(scope, NodeFilter.SHOW_ELEMENT);
    walker.currentNode = n;
    for (let steps = 0, h; (h = walker.previousNode()) && steps++ < cap;) {
      const role = h.getAttribute("role");
      if (!(role === "heading" || (!role && /^h[1-6]$/.test(h.localName)))) continue;
      if (!h.getClientRects().length) continue;  // not drawn: in no tree either
      const s = norm(h.getAttribute("aria-label") || h.innerText || h.textContent);
      if (s) return s.slice(0, 200);
    }
    return null;
  };
  // The heading, when it tells the element from its namesakes: there are other elements of
  // its tag, role and name, none under a heading of that text (a menu's links under one
  // "Navigation" are not told apart by it). At most 200 namesakes are looked at, each
  // heading at most 2,000 elements back (a click is recorded in bounded time); with more,
  // none is recorded.
  const ownHeading = (n) => {
    const role = n.getAttribute("role");
    if (role === "heading" || (!role && /^h[1-6]$/.test(n.localName))) return null;
    const own = headingOf(n), name = nameOf(n);
    if (!own || !name) return null;
    const scope = shadowed ? n.getRootNode() : n.ownerDocument;
    const same = Array.from(scope.querySelectorAll(n.localName)).slice(0, 2000);
    let namesakes = 0;
    for (const other of same) {
      if (other === n || other.getAttribute("role") !== role || nameOf(other) !== name) continue;
      if (++namesakes > 200 || headingOf(other, 2000) === own) return null;
    }
    return namesakes ? own : null;  // (none to tell it from: no heading recorded)
  };
  const ancestors = [];
  for (let a = up(el); a && a.nodeType === 1; a = up(a)) {
    const item = {tag: a.localName, role: a.getAttribute("role"), name: label(a)};
    const record = /^(li|tr|article)$/.test(a.localName) ||
      /^(row|listitem|article|treeitem|option)$/.test(item.role || "");
    if (!item.name && record) item.content = content(a);
    // A disclosure section is named by its summary (the reference's panel).
    if (a.localName === "details") {
      const summary = Array.from(a.children).find((c) => c.localName === "summary");
      if (summary) item.summary = norm(summary.textContent).slice(0, 200);
    }
    ancestors.unshift(item);
  }
  let top = window;
  try { top = window.top; void top.innerWidth; } catch (e) { top = window; }
  const active = (d) => {
    let a = d.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  };
  const style = el.ownerDocument.defaultView.getComputedStyle(el);
  return {
    tag: el.localName, role: el.getAttribute("role"), name: nameOf(el),
    bbox: seen ? [r.left + dx, r.top + dy, r.right + dx, r.bottom + dy] : null,
    css_selector: framed ? null : cssOf(el), xpath: framed ? null : xpathOf(el),
    id: framed || shadowed ? null : el.id || null,
    classes: Array.from(el.classList),
    href: typeof el.href === "string" && el.href ? el.href : el.getAttribute("href"),
    attributes: attrs, test_id: testKey ? el.getAttribute(testKey) : null,
    nearby_text: nearby(el), heading: ownHeading(el),
    enabled: !el.disabled && el.getAttribute("aria-disabled") !== "true",
    focused: active(el.ownerDocument) === el,
    visible: style.visibility !== "hidden" && style.display !== "none" &&
      r.width > 0 && r.height > 0,
    ancestors, viewport: seen ? [top.innerWidth, top.innerHeight] : null,
  };
}
"""

DESCRIBE_JS: Final[str] = (
    _DESCRIBE_BODY.strip().replace("FRAME_ORIGIN", FRAME_ORIGIN_JS).replace("XPATH_OF", XPATH_JS)
)
"""``(element) => payload``: an element described as the Chrome extension describes it."""

RECORDER_JS: Final[str] = (
    "(() => {\n"
    "  if (window.__resolverRecorder) return;\n"
    "  window.__resolverRecorder = true;\n"
    "  window.__resolverEvents = window.__resolverEvents || [];\n"
    f"  const describe = {DESCRIBE_JS};\n"
    r"""
  // A click on the text inside a control targets the control: climb to it.
  const CLICKABLE = "a[href],button,input,select,textarea,summary,label,[role=button]," +
    "[role=link],[role=checkbox],[role=radio],[role=tab],[role=menuitem],[role=option]," +
    "[role=switch],[onclick],[tabindex]";
  const target = (e) => {
    const first = e.composedPath().find((n) => n.nodeType === 1);
    return first ? (first.closest(CLICKABLE) || first) : null;
  };
  const push = (event) => {
    window.__resolverEvents.push(event);
    if (typeof window.__resolverSend === "function") window.__resolverSend(event);
  };
  const record = (type, extra) => (e) => {
    const el = target(e);
    if (!el) return;
    try {
      // (the point in the page's viewport; none where a frame's place is not seen, nor for
      // an event without one: a changed value)
      const [dx, dy, seen] = (FRAME_ORIGIN)(window);
      const at = seen && typeof e.clientX === "number";
      push({type, x: at ? e.clientX + dx : null, y: at ? e.clientY + dy : null,
            url: location.href, element: describe(el), ...extra(e, el)});
    } catch (err) { /* never break the page's own handlers */ }
  };
  const none = () => ({});
  document.addEventListener("click", record("click", none), true);
  document.addEventListener("dblclick", record("dblclick", none), true);
  document.addEventListener("contextmenu", record("contextmenu", none), true);
  // (a file field's choice: the names of its files, which a page sees without their folders)
  const value = (e, el) => el.localName === "input" && el.type === "file"
    ? {files: Array.from(el.files || [], (f) => f.name)} : {text: String(el.value ?? "")};
  document.addEventListener("change", record("input", value), true);
})();
"""
).replace("FRAME_ORIGIN", FRAME_ORIGIN_JS)
"""An init script that records clicks, double clicks, context clicks and changed values."""
