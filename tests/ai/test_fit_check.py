"""The refit of mcts-hard's check rating (``tools/fit_check.py``)."""

from __future__ import annotations

import math

import pytest
from tools import fit_check

from meeplehall.ai.heuristics import red_cathedral as RH
from meeplehall.core.rng import Rng


def test_the_fit_recovers_the_weights_that_generated_the_labels() -> None:
    """Labels drawn from a known logistic model are fitted back to its weights (within
    sampling error), on the features' own scale."""
    rng = Rng(3)
    truth = {"const": -0.5, "a": 0.8, "b": -0.05}
    rows, labels = [], []
    for _ in range(4000):
        row = {"const": 1.0, "a": rng.next_u64() % 1000 / 500.0 - 1.0,
               "b": float(rng.next_u64() % 41 - 20)}
        p = 1.0 / (1.0 + math.exp(-sum(w * row[k] for k, w in truth.items())))
        rows.append(row)
        labels.append(1 if rng.next_u64() % 10**6 < p * 10**6 else 0)
    got = fit_check.fit(rows, labels, ["const", "a", "b"], l2=0.0)
    assert got["const"] == pytest.approx(truth["const"], abs=0.12)
    assert got["a"] == pytest.approx(truth["a"], abs=0.15)
    assert got["b"] == pytest.approx(truth["b"], abs=0.01)
    assert fit_check.log_loss(rows, labels, got) < fit_check.log_loss(
        rows, labels, {"const": 0.0})


def test_the_fit_refuses_mismatched_labels_and_a_constant_feature() -> None:
    with pytest.raises(ValueError, match="as many labels"):
        fit_check.fit([{"const": 1.0}], [], ["const"])
    rows = [{"const": 1.0, "a": 2.0}] * 5
    with pytest.raises(ValueError, match="singular"):
        fit_check.fit(rows, [0, 1, 0, 1, 1], ["const", "a", "const"], l2=0.0)


def test_a_played_game_gives_the_features_at_each_of_the_humans_turns() -> None:
    """``positions`` records ``check_features`` once per turn of the human (the turn
    counter advances by 2: Ivan's turn is played inside ``apply``) and the result."""
    rows, won = fit_check.positions(20000, bot="greedy")
    assert won in (0, 1)
    assert rows and all(set(r) == set(RH.CHECK_WIN) for r in rows)
    phases = [r["phase"] for r in rows]
    assert phases == sorted(set(phases)), "one row per turn"
    assert len(rows) > 20
