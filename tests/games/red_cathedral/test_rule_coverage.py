"""Every rule id of the reference is cited by at least one test (name or docstring).

The reference lives beside the clone in CI (``../shared/rules/red-cathedral.md`` from the
repository root); without it the test is skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[2]
ROOT = TESTS.parent
REFERENCE = ROOT.parent / "shared" / "rules" / "red-cathedral.md"
RULE_ID = re.compile(r"\*\*(RC-[A-Z0-9]+(?:-[A-Z0-9]+)*)")


def rule_ids(text: str) -> list[str]:
    """The bold rule ids defined in the reference, in order, without repeats."""
    return list(dict.fromkeys(RULE_ID.findall(text)))


def cited(rule: str, text: str) -> bool:
    """``rule`` occurs as a whole id: ``RC-EX-1`` is not cited by ``RC-EX-10``; a
    lower-case sub-part (``RC-EX-4c``) or a test-name spelling (``RC_EX_1``) counts."""
    dashed = rf"(?<![A-Za-z0-9-]){re.escape(rule)}(?![A-Z0-9]|-[A-Z0-9])"
    underscored = rf"(?<![A-Za-z0-9]){re.escape(rule.replace('-', '_'))}(?![A-Z0-9]|_[A-Z0-9])"
    return bool(re.search(dashed, text) or re.search(underscored, text))


def test_rule_id_matching():
    assert rule_ids("**RC-EX-1 (x).** **RC-AMB-10 —** **RC-EX-1") == ["RC-EX-1", "RC-AMB-10"]
    assert cited("RC-EX-1", "test_RC_EX_1_claim") and cited("RC-EX-4", "RC-EX-4c")
    assert not cited("RC-EX-1", "RC-EX-10 and RC-EX-11")
    assert not cited("RC-SETUP-1", "RC-SETUP-12") and cited("RC-SETUP-1", "(RC-SETUP-1)")
    assert not cited("RC-INF-1", "RC-INFL-CRAFT")


def test_every_reference_rule_is_cited_by_a_test():
    if not REFERENCE.is_file():
        pytest.skip(f"rules reference not found at {REFERENCE} (CI has ../shared beside "
                    "the clone)")
    ids = rule_ids(REFERENCE.read_text(encoding="utf-8"))
    assert len(ids) > 100, "the rule id pattern no longer matches the reference"
    corpus = "\n".join(p.read_text(encoding="utf-8") for p in sorted(TESTS.rglob("*.py"))
                       if p.resolve() != Path(__file__).resolve())
    missing = [rule for rule in ids if not cited(rule, corpus)]
    assert not missing, f"{len(missing)} rule ids cited by no test: {', '.join(missing)}"
