"""The benchmark's report shape (no timings asserted) and docs/rl.md in step with code."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

from meeplehall.rl.bench import bench_env, bench_vector
from meeplehall.rl.docs import render

ROOT = Path(__file__).resolve().parents[2]


def test_bench_env_reports_steps_and_reset_time() -> None:
    report = bench_env("praga", players=2, seconds=0.3)
    assert set(report) == {"game", "players", "seconds", "steps", "steps_per_s",
                           "steps_per_cpu_s", "games", "resets", "reset_ms", "obs_size",
                           "num_actions", "engine_decisions_per_s", "load_average"}
    assert report["steps"] > 0 and report["resets"] >= 1
    assert report["steps_per_cpu_s"] >= report["steps_per_s"] * 0.5
    assert report["engine_decisions_per_s"] > 0
    with pytest.raises(ValueError, match="seconds must be positive"):
        bench_env("praga", seconds=0)


def test_bench_vector_reports_steps_over_all_games() -> None:
    report = bench_vector("red-cathedral", 3, players=2, seconds=0.3, engine=False)
    assert set(report) == {"game", "players", "num_envs", "workers", "seconds", "calls",
                           "steps", "steps_per_s", "steps_per_cpu_s", "games",
                           "load_average"}
    assert report["steps"] == 3 * report["calls"] > 0
    assert report["steps_per_cpu_s"] >= report["steps_per_s"] * 0.5
    sharded = bench_vector("praga", 4, players=2, seconds=0.3, engine=False, workers=2)
    assert sharded["workers"] == 2 and sharded["steps"] == 4 * sharded["calls"] > 0
    assert "steps_per_cpu_s" not in sharded  # the workers' CPU time is not the caller's
    with pytest.raises(ValueError, match="num_envs must be a positive integer"):
        bench_vector("praga", 0, seconds=0.1)


def test_docs_rl_md_holds_the_generated_tables() -> None:
    text = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    assert render() in text, "docs/rl.md is stale: python -m meeplehall.rl.docs"
