"""Regenerate the golden files of The Red Cathedral tests (STYLE.md section 9).

Run from the repository root::

    python tests/games/red_cathedral/regen_golden.py

It writes

- ``golden/<name>.json``: records of complete games played by a seeded random chooser,
  with the final scores, ranking and ``core.testing.state_digest`` of the final state;
- ``perft.txt``: counts of decision sequences from fixed seeds, depths 1-3;
- ``golden/solo_playthrough.txt``: a readable solo game, its first decisions step by step.

What is generated is set in ``conformance.py``; the conformance suite
(``tests/conformance/``) checks the files. A changed file needs a rules explanation in
the commit (and usually a ``rules_version`` bump); review the diff like code.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root
    from tests.games.red_cathedral.conformance import SPEC

    SPEC.regenerate()
