"""Every rule id of sections 1-17 of the reference (P-* and the glossary's GL-*; solo §14
and variants §15 included) is cited by at least one test (name or docstring).

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
SECTIONS = {str(n) for n in range(1, 18)}
RULE_ID = re.compile(r"\*\*((?:P|GL)-[A-Z0-9]+(?:-[A-Z0-9]+)*)"
                     r"|^\| (GL-[A-Z0-9]+(?:-[A-Z0-9]+)*) \|", re.MULTILINE)

# Ids with no test yet (empty: every id of the wanted sections is cited).
PENDING: frozenset[str] = frozenset()


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
    text = ("## 4. A\n**P-EX-1 (x)** and **P-EX-10**\n| GL-W1 | y |\n## 14. B\n"
            "**P-SOLO-1**\n## 18. C\n**P-GAP-1**\n")
    assert rule_ids(text) == ["P-EX-1", "P-EX-10", "GL-W1", "P-SOLO-1"]
    assert cited("P-EX-1", "test_P_EX_1_a") and not cited("P-EX-1", "P-EX-10")


def test_every_reference_rule_is_cited_or_pending():
    if not REFERENCE.is_file():
        pytest.skip(f"rules reference not found at {REFERENCE}")
    ids = rule_ids(REFERENCE.read_text(encoding="utf-8"))
    assert len(ids) > 150, "the rule id pattern no longer matches the reference"
    wanted = {"P-SOLO-1", "P-SOLO-2", "P-SOLO-3", "P-SOLO-4", "P-VAR-1", "P-VAR-2",
              "P-VAR-3"}
    assert wanted <= set(ids), "sections 14 and 15 are no longer read"
    corpus = "\n".join(p.read_text(encoding="utf-8")
                       for p in sorted((TESTS / "games" / "praga").rglob("*.py"))
                       if p.resolve() != Path(__file__).resolve())
    missing = [r for r in ids if not cited(r, corpus) and r not in PENDING]
    assert not missing, f"{len(missing)} rule ids cited by no test: {', '.join(missing)}"
    done = sorted(r for r in PENDING if cited(r, corpus))
    assert not done, f"now cited, remove from PENDING: {', '.join(done)}"
    unknown = sorted(PENDING - set(ids))
    assert not unknown, f"PENDING names ids that are not in the reference: {unknown}"
