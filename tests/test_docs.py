"""The options document lists every option the engine offers."""

from __future__ import annotations

import re
from pathlib import Path

from meeplehall.games.red_cathedral.setup import OPTIONS

ROOT = Path(__file__).resolve().parent.parent


def test_options_document_lists_every_red_cathedral_option() -> None:
    text = (ROOT / "docs" / "red-cathedral-options.md").read_text(encoding="utf-8")
    missing = [o.name for o in OPTIONS if f"`{o.name}`" not in text]
    assert not missing, f"docs/red-cathedral-options.md lacks: {missing}"


def _ci_commands() -> dict[str, str]:
    """The NAME='command' lines of .ci/run."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    found = re.findall(r"^(SERVE_CMD|TERMINAL_CMD|TEST_CMD)='([^']*)'$", ci, flags=re.M)
    return dict(found)


def test_ci_runs_exactly_the_readme_quickstart_commands() -> None:
    """Issue: a newcomer's first command works. CI runs README's commands verbatim."""
    readme_lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = _ci_commands()
    assert set(commands) == {"SERVE_CMD", "TERMINAL_CMD", "TEST_CMD"}
    for name, command in commands.items():
        assert command in readme_lines, f"README.md lacks the command CI runs as {name}"
        assert f'bash -c "${name}"' in ci, f".ci/run defines {name} but never runs it"
    # Each one is self-contained on a stock system Python: it makes (or reuses) a virtual
    # environment in the checkout and runs only from it.
    for command in commands.values():
        assert command.startswith("python3 -m venv .venv && .venv/bin/python -m pip install ")
    assert commands["SERVE_CMD"].endswith(" && .venv/bin/meeplehall serve")
    assert commands["TEST_CMD"].endswith(" && .venv/bin/python -m pytest -n 2")
    # No other install command in README would put packages into the system Python.
    for line in readme_lines:
        if "pip install" in line and not line.startswith("#"):
            assert ".venv/bin/python -m pip install" in line, line
