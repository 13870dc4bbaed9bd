"""Terminal rewards (rank and margin) and the doctests of the rl modules."""

from __future__ import annotations

import doctest
import importlib

import pytest

pytest.importorskip("numpy")

from meeplehall.core.protocol import Outcome
from meeplehall.rl.rewards import margin_rewards, rank_rewards, terminal_rewards


def test_rank_rewards_span_minus_one_to_one_and_share_ties() -> None:
    assert rank_rewards(Outcome((9, 5), ((0,), (1,)), (0,)), 2) == [1.0, -1.0]
    assert rank_rewards(Outcome((5, 5), ((0, 1),), (0, 1)), 2) == [0.0, 0.0]
    four = rank_rewards(Outcome((1, 2, 3, 4), ((3,), (2,), (1,), (0,)), (3,)), 4)
    assert four == pytest.approx([-1.0, -1 / 3, 1 / 3, 1.0])
    tied = rank_rewards(Outcome((7, 7, 7, 1), ((0, 1, 2), (3,)), (0, 1, 2)), 4)
    assert tied == pytest.approx([1 / 3, 1 / 3, 1 / 3, -1.0])
    assert sum(tied) == pytest.approx(0.0)


def test_solo_rewards_follow_the_winners_and_the_automaton_score() -> None:
    lost = Outcome((30,), ((0,),), (), details={"ivan": {"score": 45}})
    won = Outcome((50,), ((0,),), (0,), details={"ivan": {"score": 45}})
    assert rank_rewards(lost, 1) == [-1.0] and rank_rewards(won, 1) == [1.0]
    assert margin_rewards(lost, 1, scale=5) == [-3.0]
    assert margin_rewards(won, 1, scale=5) == [1.0]


def test_unknown_reward_is_named() -> None:
    with pytest.raises(ValueError, match="unknown reward 'elo'"):
        terminal_rewards(Outcome((1, 0), ((0,), (1,)), (0,)), 2, "elo")


@pytest.mark.parametrize("module", ["meeplehall.rl.encoders.base", "meeplehall.rl.rewards"])
def test_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
