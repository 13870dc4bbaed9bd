"""`meeplehall bench rl`: the research environment's steps per second."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from meeplehall.cli.main import main

pytest.importorskip("pettingzoo")


def _run(argv: list[str]) -> tuple[int, str]:
    buffer = io.StringIO()
    rc = main(argv, console=Console(file=buffer, width=120))
    return rc, buffer.getvalue()


def test_bench_rl_prints_steps_per_second() -> None:
    rc, out = _run(["bench", "rl", "praga", "--seconds", "0.3"])
    assert rc == 0, out
    fields = dict(line.split("=", 1) for line in out.strip().splitlines())
    assert fields["game"] == "praga" and fields["players"] == "2"
    assert float(fields["steps_per_s"]) > 0 and int(fields["num_actions"]) > 0


def test_bench_rl_prints_the_engine_rate_of_the_same_run() -> None:
    rc, out = _run(["bench", "rl", "red-cathedral", "--seconds", "0.2"])
    assert rc == 0, out
    fields = dict(line.split("=", 1) for line in out.strip().splitlines())
    assert float(fields["engine_decisions_per_s"]) > 0 and "load_average" in fields


def test_bench_rl_num_envs_steps_the_vector_environment() -> None:
    rc, out = _run(["bench", "rl", "praga", "--seconds", "0.2", "--num-envs", "2"])
    assert rc == 0, out
    fields = dict(line.split("=", 1) for line in out.strip().splitlines())
    assert fields["num_envs"] == "2" and int(fields["steps"]) == 2 * int(fields["calls"])
    assert float(fields["engine_decisions_per_s"]) > 0


def test_bench_rl_bad_option_is_a_clear_error() -> None:
    rc, out = _run(["bench", "rl", "praga", "--seconds", "0.1", "-o", "no_such_option=1"])
    assert rc == 2 and "no_such_option" in out
