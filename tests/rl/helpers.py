"""Shared helpers of the RL tests: seeded random playouts through the engine."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from meeplehall.core.rng import Rng
from meeplehall.games import GAMES


def playout(game: str, players: int, seed: int, max_steps: int = 100_000,
            **options: Any) -> Iterator[tuple[Any, tuple[Any, ...]]]:
    """Yield ``(state, legal)`` before each decision of a seeded random game; the caller
    must not mutate the state."""
    g = GAMES[game]
    state = g.initial_state({**options, "players": players}, seed)
    rng = Rng.from_seed(seed + 1000)
    for _ in range(max_steps):
        if g.outcome(state) is not None:
            return
        legal = g.legal_actions(state)
        yield state, legal
        g.apply_unchecked(state, legal[rng.randbelow(len(legal))])
    raise AssertionError(f"{game} seed {seed}: no end after {max_steps} decisions")
