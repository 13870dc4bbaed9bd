"""Every rule id of sections 1-13, 16 and 17 of the reference (P-* and the glossary's
GL-*) is cited by at least one test (name or docstring).

While the engine is being built, ids not yet covered are listed in ``PENDING``: the test
fails if an id is uncited and not pending, and also if a pending id is already cited (so
the list only shrinks). The reference lives beside the clone (``../shared/rules``); without
it the test is skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[2]
ROOT = TESTS.parent
REFERENCE = ROOT.parent / "shared" / "rules" / "praga-caput-regni.md"
SECTIONS = {*(str(n) for n in range(1, 14)), "16", "17"}
RULE_ID = re.compile(r"\*\*((?:P|GL)-[A-Z0-9]+(?:-[A-Z0-9]+)*)"
                     r"|^\| (GL-[A-Z0-9]+(?:-[A-Z0-9]+)*) \|", re.MULTILINE)

# Ids with no test yet: each needs the forward model (state, turn hub, actions).
PENDING = frozenset(re.findall(r"\S+", """
P-COMP-2 P-COMP-4 P-SETUP-1 P-SETUP-2 P-SETUP-3 P-SETUP-4 P-SETUP-5 P-SETUP-6 P-SETUP-8
P-SETUP-9 P-SETUP-10 P-SETUP-11 P-SETUP-15 P-SETUP-16 P-SETUP-17 P-SETUP-18 P-SETUP-19
P-SETUP-20 P-SETUP-21 P-SETUP-22 P-SETUP-23 P-SETUP-24 P-SETUP-25 P-SETUP-26 P-TURN-2
P-TURN-3 P-TURN-4 P-CRANE-3 P-CRANE-6 P-CRANE-7 P-CRANE-8 P-CLOCK-2 P-ACT-1 P-ACT-2 P-ACT-3
P-ACT-4 P-MINE-1 P-MINE-2 P-MINE-3 P-MINE-5 P-MINE-6 P-MINE-7 P-QUAR-1 P-QUAR-2 P-PROD-1
P-PROD-3 P-UPG-1 P-UPG-2 P-UPG-3 P-UPG-4 P-UPG-5 P-UPG-6 P-UPG-7 P-UPG-8 P-WALL-1 P-WALL-2
P-WALL-3 P-WALL-4 P-WALL-5 P-WALL-6 P-WALL-7 P-WALL-8 P-BLD-1 P-BLD-2 P-BLD-6 P-BLD-7
P-BLD-8 P-BLD-9 P-BLD-10 P-MKT-2 P-MKT-3 P-MKT-4 P-MKT-5 P-MKT-6 P-MKT-7 P-MKT-9 P-MKT-10
P-MKT-11 P-MKT-12 P-ROAD-1 P-ROAD-2 P-ROAD-3 P-ROAD-4 P-ROAD-5 P-ROAD-6 P-ROAD-7 P-BRIDGE-1
P-BRIDGE-2 P-BRIDGE-3 P-BRIDGE-5 P-BRIDGE-6 P-BRIDGE-7 P-BRIDGE-8 P-ROW-1 P-ROW-2 P-ROW-3
P-ROW-4 P-ROW-5 P-ROW-6 P-ADJ-1 P-ADJ-2 P-ADJ-3 P-ADJ-4 P-ADJ-5 P-ADJ-6 P-ADJ-7 P-ADJ-8
P-ADJ-10 P-ADJ-11 P-TECH-2 P-TECH-3 P-TECH-4 P-TECH-5 P-TECH-6 P-TECH-7 P-TECH-8 P-UNIV-1
P-UNIV-2 P-UNIV-4 P-GRID-1 P-GRID-3 P-GRID-4 P-GRID-5 P-GRID-6 P-GRID-7 P-GRID-9 P-GRID-10
P-WIN-1 P-WIN-2 P-XACT-1 P-XACT-2 P-XACT-3 P-XACT-4 P-XACT-5 P-RES-1 P-RES-2 P-RES-3 P-RES-4
P-RES-5 P-SEAL-1 P-SEAL-2 P-SEAL-3 P-SEAL-4 P-EGG-1 P-EGG-2 P-EGG-3 P-SCORE-1 P-SCORE-2
P-SCORE-6 P-SCORE-8 P-TIMING-1 P-TIMING-2 P-TIMING-3 P-EFR-1 P-EFR-2 P-EFR-3 P-EFR-4 P-EFR-5
P-EFR-6 P-EFR-7 P-EDGE-1 P-EDGE-2 P-EDGE-3 P-EDGE-4 P-EDGE-5 P-EDGE-7 P-EDGE-8 P-EDGE-9
P-EDGE-10 P-EDGE-11 P-EDGE-12 GL-W1 GL-W2 GL-W3 GL-W4 GL-W5 GL-W6 GL-P1 GL-P2 GL-P3 GL-P4
GL-P5 GL-P6 GL-P7 GL-P8 GL-R1 GL-R2 GL-R3 GL-R4 GL-R5 GL-RT1 GL-RT2 GL-RT3 GL-B1 GL-B2 GL-B3
GL-B8 GL-M1 GL-M2 GL-H1 GL-H2 GL-H3 GL-H4 GL-H5 GL-H6 GL-H7 GL-H8 GL-H10 GL-H11 GL-H12
GL-H13 GL-G1 GL-G2 GL-G3 GL-G4 GL-G5 GL-G6 GL-G7 GL-G8 GL-T1-1 GL-T1-2 GL-T1-3 GL-T1-4
GL-T2-1 GL-T2-2 GL-T2-3 GL-T2-4 GL-T2-5 GL-T3-1 GL-T3-2 GL-T3-3 GL-T3-4 GL-T3-5 GL-T3-6
GL-T4-1 GL-T4-2 GL-T4-3 GL-T4-4 GL-T4-5 GL-T4-6 GL-O1 GL-O2 GL-O3 GL-O4 GL-O5
"""))


def rule_ids(text: str) -> list[str]:
    """Rule ids defined in the wanted sections, in order, without repeats."""
    out: list[str] = []
    section = ""
    for line in text.splitlines():
        head = re.match(r"^## (\d+)\.", line)
        if head:
            section = head.group(1)
        elif line.startswith("## "):
            section = ""
        if section in SECTIONS:
            for bold, row in RULE_ID.findall(line):
                out.append(bold or row)
    return list(dict.fromkeys(out))


def cited(rule: str, text: str) -> bool:
    """``rule`` occurs as a whole id (``P-EX-1`` is not cited by ``P-EX-10``); the
    test-name spelling with underscores counts."""
    dashed = rf"(?<![A-Za-z0-9-]){re.escape(rule)}(?![A-Z0-9]|-[A-Z0-9])"
    underscored = rf"(?<![A-Za-z0-9]){re.escape(rule.replace('-', '_'))}(?![A-Z0-9]|_[A-Z0-9])"
    return bool(re.search(dashed, text) or re.search(underscored, text))


def test_rule_id_matching():
    text = "## 4. A\n**P-EX-1 (x)** and **P-EX-10**\n| GL-W1 | y |\n## 14. B\n**P-SOLO-1**\n"
    assert rule_ids(text) == ["P-EX-1", "P-EX-10", "GL-W1"]
    assert cited("P-EX-1", "test_P_EX_1_a") and not cited("P-EX-1", "P-EX-10")


def test_every_reference_rule_is_cited_or_pending():
    if not REFERENCE.is_file():
        pytest.skip(f"rules reference not found at {REFERENCE}")
    ids = rule_ids(REFERENCE.read_text(encoding="utf-8"))
    assert len(ids) > 150, "the rule id pattern no longer matches the reference"
    corpus = "\n".join(p.read_text(encoding="utf-8")
                       for p in sorted((TESTS / "games" / "praga").rglob("*.py"))
                       if p.resolve() != Path(__file__).resolve())
    missing = [r for r in ids if not cited(r, corpus) and r not in PENDING]
    assert not missing, f"{len(missing)} rule ids cited by no test: {', '.join(missing)}"
    done = sorted(r for r in PENDING if cited(r, corpus))
    assert not done, f"now cited, remove from PENDING: {', '.join(done)}"
    unknown = sorted(PENDING - set(ids))
    assert not unknown, f"PENDING names ids that are not in the reference: {unknown}"
