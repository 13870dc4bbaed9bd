"""The options document lists every option the engine offers."""

from __future__ import annotations

from pathlib import Path

from meeplehall.games.red_cathedral.setup import OPTIONS

ROOT = Path(__file__).resolve().parent.parent


def test_options_document_lists_every_red_cathedral_option() -> None:
    text = (ROOT / "docs" / "red-cathedral-options.md").read_text(encoding="utf-8")
    missing = [o.name for o in OPTIONS if f"`{o.name}`" not in text]
    assert not missing, f"docs/red-cathedral-options.md lacks: {missing}"


def test_readme_quickstart_has_exactly_the_two_commands_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test_command = 'python3 -m pip install -e ".[dev]" && python3 -m pytest -n 2'
    assert test_command in readme
    assert test_command in ci
    assert 'python3 -m pip install -e ".[server]" && python3 -m meeplehall serve' in readme
