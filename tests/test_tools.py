"""The development tools live outside the runtime package (``tools/``); the runtime reaches
them only lazily, for ``meeplehall bench server``."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from meeplehall.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def test_the_runtime_package_imports_no_tool_at_module_level() -> None:
    imports = re.compile(r"^\s*(?:from|import)\s+tools\b", re.MULTILINE)
    found = []
    for path in (ROOT / "src" / "meeplehall").rglob("*.py"):
        for match in imports.finditer(path.read_text(encoding="utf-8")):
            found.append((path.relative_to(ROOT).as_posix(), match.group(0).strip()))
    assert sorted(found) == [("src/meeplehall/cli/main.py", "from tools"),
                             ("src/meeplehall/server/cli.py", "from tools")]
    text = (ROOT / "src" / "meeplehall" / "server" / "cli.py").read_text(encoding="utf-8")
    assert "\n    try:\n        from tools.bench_server import run\n" in text  # lazy
    text = (ROOT / "src" / "meeplehall" / "cli" / "main.py").read_text(encoding="utf-8")
    assert "\n        from tools.train import main as train_main\n" in text  # lazy, `train` only


def test_bench_server_without_the_tools_says_so(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "tools.bench_server", None)
    assert main(["bench", "server", "--seconds", "1"]) == 2
    err = capsys.readouterr().err
    assert "development tool" in err and 'pip install -e ".[dev]"' in err


def test_the_documented_tool_modules_run_as_scripts() -> None:
    from tools import bench_server, fit_check, services, study

    for module in (fit_check, study):
        assert "if __name__ == \"__main__\":" in Path(module.__file__).read_text()
    assert callable(bench_server.run) and callable(services.temp_postgres)
