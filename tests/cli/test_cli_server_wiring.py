"""`meeplehall serve` and `meeplehall bench server` are reachable from the main CLI."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from meeplehall.cli.main import main


def test_serve_and_bench_server_are_commands(capsys: pytest.CaptureFixture[str]) -> None:
    console = Console(file=io.StringIO(), width=120)
    assert main(["serve", "--help"], console=console) == 0
    assert "--db" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["bench", "server", "--help"], console=console)
    assert exc.value.code == 0
    assert "--tables" in capsys.readouterr().out
