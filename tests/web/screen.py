"""The one-screen checks of a table page (issue 43; the layout contract of the shell and
the board modules, docs/web-client.md "One screen").

``check_screen(page, where)`` fails, naming ``where``, when

- the document scrolls (it is taller or wider than the window);
- a board target of the current decision (``[data-action].legal-target``) is outside the
  window or covered: ``document.elementFromPoint`` at its centre is neither it nor inside it;
  with ``min_target``, a board target narrower or lower than that many pixels (a finger's
  size on a phone); ``targets`` narrows the check to some targets (an open chooser's buttons);
- text on the board in view is smaller than 11 px (in view: inside the window and inside
  every box around it that clips what overflows it, such as a zoomed board's viewport);
- the page's text shows "null", "undefined", a rule ID (P-ADJ-3, RC-MARKET-4) or an
  identifier (a word_with_underscores, a code such as CR-1 standing alone). The small rule
  references of the Rules control (``[data-rule-ref]``) are left out.
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
  const targets = [];
  for (const el of document.querySelectorAll(only || '[data-action].legal-target')) {
    if (!el.closest('#board') || el.closest('[hidden]')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;  // not drawn (display: none)
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    const inside = r.left >= -0.5 && r.top >= -0.5 && r.right <= W + 0.5 && r.bottom <= H + 0.5;
    let covered = null;
    if (inside) {
      const hit = document.elementFromPoint(cx, cy);
      if (!hit || !(hit === el || el.contains(hit))) {
        covered = hit ? (hit.id ? '#' + hit.id : hit.tagName.toLowerCase() +
          (hit.getAttribute('class') ? '.' + hit.getAttribute('class').split(' ')[0] : ''))
          : 'nothing';
      }
    }
    targets.push({action: el.dataset.action, inside, covered,
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
    const texts = board.querySelectorAll('text, tspan, span, p, div, button, label, li, td, th');
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
  const text = document.body.innerText;
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


def check_screen(page: Any, where: str, *, targets: str = "",
                 min_target: float = 0.0) -> dict[str, Any]:
    """Fail (naming ``where``) unless the page is one screen with every offered board
    target in view and uncovered (and, with ``min_target``, at least that many pixels
    across), board text at least 11 px and only words for people. ``targets``: a selector
    of the board targets to check (all of the decision's by default). Returns the measures."""
    m = measure(page, targets)
    scroll = m["scroll"]
    assert scroll["height"] <= scroll["H"] and scroll["width"] <= scroll["W"], (
        f"{where}: the page scrolls ({scroll['width']}x{scroll['height']} in a "
        f"{scroll['W']}x{scroll['H']} window)")
    off = [t for t in m["targets"] if not t["inside"]]
    assert not off, f"{where}: board targets outside the window: {off[:6]}"
    covered = [t for t in m["targets"] if t["covered"]]
    assert not covered, f"{where}: board targets covered: {covered[:6]}"
    if min_target:
        tiny = [t for t in m["targets"] if min(t["box"][2], t["box"][3]) < min_target - 0.5]
        assert not tiny, f"{where}: board targets under {min_target} px: {tiny[:6]}"
    assert not m["small"], f"{where}: board text under {MIN_TEXT_PX} px: {m['small'][:8]}"
    problems = text_problems(m["text"])
    assert not problems, f"{where}: the page shows {sorted(set(problems))[:10]}"
    return m
