"""What a player sees of the table, checked in Chromium (the web layout contract of issue 43).

``check_screen(page, where)`` returns the problems of the screen as it is now: the document
scrolls (is taller or wider than the window); an offered board target
(``[data-action].legal-target``) is off the window or covered (``elementFromPoint`` at its
centre is neither it nor inside it); a text of the board in view is smaller than
``min_text`` px; a target smaller than ``min_target`` px; the page's visible text shows
"null", "undefined", a rule ID (P-ADJ-3, RC-MARKET-4) or an identifier (a word with an
underscore, a code such as CR-1 standing alone). ``[data-rule-ref]`` elements are left out.
"""

from __future__ import annotations

from typing import Any

SCREEN = r"""([minText, minTarget, pageScroll]) => {
  const bad = [];
  const doc = document.scrollingElement;
  if (pageScroll && (doc.scrollHeight > window.innerHeight + 1
      || doc.scrollWidth > window.innerWidth + 1)) {
    bad.push(`document scrolls: ${doc.scrollWidth}x${doc.scrollHeight}`
      + ` in ${window.innerWidth}x${window.innerHeight}`);
  }
  const board = document.getElementById('board');
  if (!board) return bad;
  const W = window.innerWidth; const H = window.innerHeight;
  const visible = (r) => r.right > 0 && r.bottom > 0 && r.left < W && r.top < H;
  // the part of the page a text of the board shows through (its scrolling ancestors)
  const clipOf = (node) => {
    let r = { left: 0, top: 0, right: W, bottom: H };
    for (let p = node.parentElement; p; p = p.parentElement) {
      const cs = getComputedStyle(p);
      if (/(auto|scroll|hidden)/.test(cs.overflow + cs.overflowX + cs.overflowY)) {
        const b = p.getBoundingClientRect();
        r = { left: Math.max(r.left, b.left), top: Math.max(r.top, b.top),
          right: Math.min(r.right, b.right), bottom: Math.min(r.bottom, b.bottom) };
      }
    }
    return r;
  };
  const inside = (r, c) => r.right > c.left && r.bottom > c.top
    && r.left < c.right && r.top < c.bottom;
  for (const n of board.querySelectorAll('[data-action].legal-target')) {
    const r = n.getBoundingClientRect();
    const what = n.getAttribute('data-action');
    if (!r.width || !r.height) { bad.push(`target ${what} not drawn`); continue; }
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
      bad.push(`target ${what} off the window`); continue;
    }
    const c = clipOf(n);
    if (r.left < c.left - 0.5 || r.top < c.top - 0.5
        || r.right > c.right + 0.5 || r.bottom > c.bottom + 0.5) {
      bad.push(`target ${what} outside its view`); continue;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === n || n.contains(hit))) {
      const by = hit ? hit.tagName + '.' + (hit.getAttribute('class') || '') : 'nothing';
      bad.push(`target ${what} covered by ${by}`);
    }
    const side = Math.min(r.width, r.height);
    if (side < minTarget) bad.push(`target ${what} ${side.toFixed(1)} px`);
  }
  for (const t of board.querySelectorAll('svg text')) {
    if (!t.textContent.trim() || t.closest('details:not([open]) > svg')) continue;
    const r = t.getBoundingClientRect();
    if (!r.width || !r.height || !inside(r, clipOf(t))) continue;
    const m = t.getScreenCTM();
    const size = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    if (size < minText - 0.05) {
      bad.push(`text ${size.toFixed(1)} px: ${t.textContent.slice(0, 30)}`);
    }
  }
  for (const e of board.querySelectorAll('button, summary')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !visible(r)) continue;
    const size = parseFloat(getComputedStyle(e).fontSize);
    if (size < minText - 0.05) {
      bad.push(`text ${size.toFixed(1)} px: ${e.textContent.slice(0, 30)}`);
    }
  }
  // the words on the page (visible text and the board's texts), rule references left out
  const clone = document.body.cloneNode(true);
  const left = '[data-rule-ref], script, style, title, .visually-hidden';
  for (const e of clone.querySelectorAll(left)) e.remove();
  const words = clone.innerText || clone.textContent;
  const svgWords = [...board.querySelectorAll('svg text')].map((t) => t.textContent).join(' ');
  const all = words + ' ' + svgWords;
  for (const [re, what] of [[/\bnull\b/, 'null'], [/\bundefined\b/, 'undefined'],
    [/\b(?:P|RC|GL|CL)-[A-Z]+-?\d+\b/, 'rule ID'], [/\b[a-z]+_[a-z_]+\b/, 'identifier'],
    [/(?:^|\s)[A-Z]{1,3}-\d+(?=[\s.,:;)]|$)/, 'code']]) {
    const m = all.match(re);
    if (!m) continue;
    const near = all.slice(Math.max(0, m.index - 30), m.index + 40).replace(/\s+/g, ' ');
    bad.push(`${what} on the page: "${near}"`);
  }
  return bad;
}"""


def check_screen(page: Any, where: str, min_text: float = 11, min_target: float = 0,
                 page_scroll: bool = True) -> list[str]:
    """The problems of the screen now, each prefixed with ``where``; ``page_scroll=False``
    leaves out the document's own scrolling (a phone while the shell has no side drawer:
    the side panel then follows the board, which alone fills the window)."""
    found: list[str] = page.evaluate(SCREEN, [min_text, min_target, page_scroll])
    return [f"{where}: {p}" for p in found]
