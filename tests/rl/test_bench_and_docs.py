"""The benchmark's report shape (no timings asserted) and docs/rl.md in step with code."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")

from meeplehall.rl.bench import bench_env, bench_vector, random_legal
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


def test_the_vector_benchmark_draws_each_legal_action_of_each_row_evenly() -> None:
    np = pytest.importorskip("numpy")
    mask = np.zeros((4, 9), np.int8)
    legal = [[0], [3, 8], [1, 2, 4, 5, 6], [8]]
    for row, indices in enumerate(legal):
        mask[row, indices] = 1
    rng = np.random.default_rng(0)
    draws = np.array([random_legal(mask, rng) for _ in range(6000)])
    for row, indices in enumerate(legal):
        counts = np.bincount(draws[:, row], minlength=9)
        assert set(np.flatnonzero(counts)) == set(indices)  # only, and every, legal one
        expected = 6000 / len(indices)
        assert all(abs(counts[i] - expected) < 0.1 * expected for i in indices)


def test_docs_rl_md_holds_the_generated_tables() -> None:
    text = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    assert render() in text, "docs/rl.md is stale: python -m meeplehall.rl.docs"
