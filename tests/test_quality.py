"""Lint and strict typing run as part of the test suite (README's test command)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, check=False)


def test_ruff_lint_is_clean() -> None:
    result = _run("ruff", "check", "src", "tests", "tools")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_core_and_games() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
