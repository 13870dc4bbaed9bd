"""The Praga board is legible at 1280×720 (issue: "a board a player wants to sit at").

Measured in Chromium by walking the board's SVGs: the rendered size of every text (its
computed font size times the screen scale of its SVG) and the bounding box of every
click target, over the first decisions of a 2-player game, at the board's default zoom.
"""

from __future__ import annotations

import json
import statistics
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.web.play import wait_ready

SEED = 20261126
MIN_TEXT_PX = 11
MIN_TARGET_PX = 24

# Every text and every click target of the Praga board, in screen pixels.
MEASURE = """() => {
  const out = { texts: [], targets: [] };
  for (const svg of document.querySelectorAll('#board svg.praga-svg, #board svg.praga-board')) {
    for (const t of svg.querySelectorAll('text')) {
      if (!t.textContent.trim()) continue;
      const r = t.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      const m = t.getScreenCTM();
      const size = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      out.texts.push([size, t.textContent.slice(0, 30)]);
    }
    for (const n of svg.querySelectorAll('.target')) {
      const r = n.getBoundingClientRect();
      out.targets.push([Math.min(r.width, r.height), n.dataset.legal]);
    }
  }
  return out;
}"""


def _table(server_url: str, seats: list[str], options: dict[str, Any] | None = None,
           players: int = 2) -> int:
    body = json.dumps({"game": "praga", "options": {"players": players, **(options or {})},
                       "seed": SEED, "seats": seats}).encode()
    request = urllib.request.Request(f"{server_url}/api/tables", data=body, method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=20) as reply:
        table: int = json.loads(reply.read())["id"]
    return table


def measure_decisions(page: Any, decisions: int) -> tuple[list[tuple[float, str]],
                                                           list[tuple[float, str]]]:
    """Measure the board at each of this page's next ``decisions`` decisions, each made
    by clicking the first side-panel choice."""
    texts: list[tuple[float, str]] = []
    targets: list[tuple[float, str]] = []
    state = wait_ready(page)
    for _ in range(decisions):
        if state["finished"] == "true":
            break
        page.wait_for_selector("#board svg.praga-board")
        got = page.evaluate(MEASURE)
        texts += [tuple(x) for x in got["texts"]]
        targets += [tuple(x) for x in got["targets"]]
        seq = state["seq"]
        page.locator("#choices button[data-action]").first.click()
        state = wait_ready(page, seq)
    return texts, targets


def test_text_and_targets_are_large_enough_at_1280x720(new_page: Any, server_url: str) -> None:
    table = _table(server_url, ["human", "random"])
    page = new_page()
    page.goto(f"{server_url}/#/table/{table}/join/0")
    texts, targets = measure_decisions(page, 16)
    sizes = sorted(s for s, _ in texts)
    boxes = sorted(s for s, _ in targets)
    print(f"\ntext px: min {sizes[0]:.1f} median {statistics.median(sizes):.1f} over {len(sizes)}")
    print(f"target px (smaller side): min {boxes[0]:.1f} median {statistics.median(boxes):.1f} "
          f"over {len(boxes)} ({len({a for _, a in targets})} distinct actions)")
    small = sorted({f"{s:.1f} {label}" for s, label in texts if s < MIN_TEXT_PX})
    assert not small, small[:20]
    tiny = sorted({f"{s:.1f} {label}" for s, label in targets if s < MIN_TARGET_PX})
    assert not tiny, tiny[:20]
    assert not page.errors, page.errors
