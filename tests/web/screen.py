"""The one-screen checks of a table page (issue 43; the layout contract of the shell and
the board modules, docs/web-client.md "One screen").

``check_screen(page, where)`` fails, naming ``where``, when

- the document scrolls (it is taller or wider than the window);
- a board target of the current decision (``[data-action].legal-target``) is outside the
  window or covered: ``document.elementFromPoint`` at its centre is neither it nor inside it;
- a board target lies outside the window, or outside the part of the page its scrolling
  ancestors show (a map panned inside its viewport), or, with ``min_target``, is narrower or
  lower than that many px (a finger's size on a phone); ``targets`` narrows the check to some
  targets (an open chooser's buttons);
- text on the board in view (HTML text, SVG text, buttons and summaries) is smaller than
  11 px (in view: inside the window and inside every box around it that clips what
  overflows it, such as a zoomed board's viewport);
- the page's text shows "null", "undefined", a rule ID (P-ADJ-3, RC-MARKET-4) or an
  identifier (a word_with_underscores, a code such as CR-1 standing alone), in the page's
  rendered text or in the board's SVG texts. The small rule references of the Rules
  control (``[data-rule-ref]``) are left out.

``screen_problems`` gives the same findings as a list (to gather them over a whole game);
``check_screen`` fails on the first kind found.
"""

from __future__ import annotations

import re
from typing import Any

MIN_TEXT_PX = 11.0

# A rule ID or a code: capitals, a hyphen, then capitals or digits (P-ADJ-3, RC-MARKET-4,
# CR-1, GL-T4-3), standing alone as a word.
RULE_ID = re.compile(r"(?<![\w-])[A-Z]{1,3}(?:-[A-Z0-9]+)+(?:(?:\.\.|/)[A-Z0-9]+)*(?![\w-])")
IDENTIFIER = re.compile(r"\b[A-Za-z]+(?:_[A-Za-z0-9]+)+\b")
NOTHING = re.compile(r"\b(?:null|undefined)\b")

MEASURE = """([only]) => {
  const doc = document.documentElement;
  const W = window.innerWidth, H = window.innerHeight;
  const scroll = {height: doc.scrollHeight, width: doc.scrollWidth, W, H};
  // the part of the page an element shows through (its scrolling or clipping ancestors)
  const clipOf = (node) => {
    let c = {left: 0, top: 0, right: W, bottom: H};
    for (let p = node.parentElement; p; p = p.parentElement) {
      const cs = getComputedStyle(p);
      if (/(auto|scroll|hidden|clip)/.test(cs.overflowX + ' ' + cs.overflowY)) {
        const b = p.getBoundingClientRect();
        c = {left: Math.max(c.left, b.left), top: Math.max(c.top, b.top),
          right: Math.min(c.right, b.right), bottom: Math.min(c.bottom, b.bottom)};
      }
    }
    return c;
  };
  const targets = [];
  for (const el of document.querySelectorAll(only || '[data-action].legal-target')) {
    if (!el.closest('#board') || el.closest('[hidden]')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) {  // not drawn (display: none)
      targets.push({action: el.dataset.action, drawn: false, inside: true, shown: true,
        covered: null, side: 0, box: [0, 0, 0, 0]});
      continue;
    }
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    const inside = r.left >= -0.5 && r.top >= -0.5 && r.right <= W + 0.5 && r.bottom <= H + 0.5;
    const c = clipOf(el);
    const shown = r.left >= c.left - 0.5 && r.top >= c.top - 0.5 && r.right <= c.right + 0.5
      && r.bottom <= c.bottom + 0.5;
    let covered = null;
    if (inside) {
      const hit = document.elementFromPoint(cx, cy);
      if (!hit || !(hit === el || el.contains(hit))) {
        covered = hit ? (hit.id ? '#' + hit.id : hit.tagName.toLowerCase() +
          (hit.getAttribute('class') ? '.' + hit.getAttribute('class').split(' ')[0] : ''))
          : 'nothing';
      }
    }
    targets.push({action: el.dataset.action, drawn: true, inside, shown, covered,
      side: Math.round(Math.min(r.width, r.height) * 10) / 10,
      box: [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)]});
  }
  // whether a box around ``el`` that clips its overflow leaves ``r`` wholly outside it
  const clipped = (el, r) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const o = getComputedStyle(a);
      if (o.overflowX === 'visible' && o.overflowY === 'visible') continue;
      const c = a.getBoundingClientRect();
      if (r.right <= c.left || r.left >= c.right) return true;
      if (r.bottom <= c.top || r.top >= c.bottom) return true;
    }
    return false;
  };
  const small = [];
  const board = document.getElementById('board');
  if (board) {
    const texts = board.querySelectorAll(
      'text, tspan, span, p, div, button, summary, label, li, td, th');
    for (const el of texts) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.right < 0 || r.bottom < 0 || r.left > W || r.top > H) continue;  // not in view
      if (clipped(el, r)) continue;  // scrolled out of a box that clips it
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || el.closest('.visually-hidden')) continue;
      // rendered size: an SVG text's font size times the drawing's scale
      let px = parseFloat(style.fontSize);
      if (el instanceof SVGElement && el.ownerSVGElement) {
        const m = el.getScreenCTM();
        if (m) px = px * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
      }
      const text = el.textContent.trim().slice(0, 40);
      if (px < 10.95) small.push({text, px: Math.round(px * 10) / 10});
    }
  }
  // innerText of the live page (what is rendered), less the rule references
  const refs = [...document.querySelectorAll('[data-rule-ref]')];
  const saved = refs.map((n) => n.textContent);
  refs.forEach((n) => { n.textContent = ''; });
  const svgText = board ? [...board.querySelectorAll('svg text')]
    .map((t) => t.textContent).join(' ') : '';
  const text = document.body.innerText + ' ' + svgText;
  refs.forEach((n, i) => { n.textContent = saved[i]; });
  return {scroll, targets, small, text};
}"""


def measure(page: Any, targets: str = "") -> dict[str, Any]:
    """What ``check_screen`` judges, as measured in the page (``targets``: a selector of
    the board targets to measure; all of the decision's by default)."""
    result: dict[str, Any] = page.evaluate(MEASURE, [targets])
    return result


def text_problems(text: str) -> list[str]:
    """The words of a page's text that are not for people: "null", "undefined", rule
    IDs and identifiers."""
    found = [m.group(0) for m in NOTHING.finditer(text)]
    found += [m.group(0) for m in RULE_ID.finditer(text)]
    found += [m.group(0) for m in IDENTIFIER.finditer(text)]
    return found


def screen_problems(page: Any, where: str, *, targets: str = "", min_target: float = 0,
                    page_scroll: bool = True, every_drawn: bool = False) -> list[str]:
    """Every finding of ``check_screen`` on the page now, each prefixed with ``where``.
    ``min_target`` (px) is the least side of a board target (36 on a phone);
    ``page_scroll=False`` leaves out the document's own scrolling (a phone where the side
    panel follows the board, which alone fills the window); ``every_drawn`` also counts
    an offered board target that is not drawn at all (display: none); ``targets``: a
    selector of the board targets to check (all of the decision's by default)."""
    m = measure(page, targets)
    found: list[str] = []
    scroll = m["scroll"]
    if page_scroll and (scroll["height"] > scroll["H"] or scroll["width"] > scroll["W"]):
        found.append(f"the page scrolls ({scroll['width']}x{scroll['height']} in a "
                     f"{scroll['W']}x{scroll['H']} window)")
    for t in m["targets"]:
        if not t["drawn"]:
            if every_drawn:
                found.append(f"board target {t['action']} not drawn")
        elif not t["inside"]:
            found.append(f"board target outside the window: {t}")
        elif not t["shown"]:
            found.append(f"board target outside its view: {t}")
        elif t["covered"]:
            found.append(f"board target covered: {t}")
        elif t["side"] < min_target - 0.5:
            found.append(f"board target {t['action']} {t['side']} px")
    found += [f"board text under {MIN_TEXT_PX} px: {s}" for s in m["small"]]
    problems = text_problems(m["text"])
    if problems:
        found.append(f"the page shows {sorted(set(problems))[:10]}")
    return [f"{where}: {p}" for p in found]


def check_screen(page: Any, where: str, *, targets: str = "", min_target: float = 0,
                 page_scroll: bool = True, every_drawn: bool = False) -> dict[str, Any]:
    """Fail (naming ``where``) unless the page is one screen with every offered board
    target in view (in the window and its scrolling view) and uncovered, at least
    ``min_target`` px wide and high, board text at least 11 px and only words for people.
    The keywords are those of ``screen_problems``. Returns the measures."""
    m = measure(page, targets)
    undrawn = [t["action"] for t in m["targets"] if not t["drawn"]]
    assert not (every_drawn and undrawn), f"{where}: board targets not drawn: {undrawn[:6]}"
    scroll = m["scroll"]
    assert not page_scroll or (scroll["height"] <= scroll["H"]
                               and scroll["width"] <= scroll["W"]), (
        f"{where}: the page scrolls ({scroll['width']}x{scroll['height']} in a "
        f"{scroll['W']}x{scroll['H']} window)")
    off = [t for t in m["targets"] if not t["inside"]]
    assert not off, f"{where}: board targets outside the window: {off[:6]}"
    hidden = [t for t in m["targets"] if not t["shown"]]
    assert not hidden, f"{where}: board targets outside their view: {hidden[:6]}"
    covered = [t for t in m["targets"] if t["covered"]]
    assert not covered, f"{where}: board targets covered: {covered[:6]}"
    small_targets = [t for t in m["targets"] if t["drawn"] and t["side"] < min_target - 0.5]
    assert not small_targets, (
        f"{where}: board targets under {min_target} px: {small_targets[:6]}")
    assert not m["small"], f"{where}: board text under {MIN_TEXT_PX} px: {m['small'][:8]}"
    problems = text_problems(m["text"])
    assert not problems, f"{where}: the page shows {sorted(set(problems))[:10]}"
    return m
