"""The bot interface and the registry of bot kinds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from meeplehall.core.protocol import Game
from meeplehall.core.rng import Rng


class Bot(Protocol):
    """An agent: picks one of ``legal`` from what the seat may see."""

    kind: str

    def choose(self, game: Game, view: dict[str, Any], legal: tuple[Any, ...]) -> Any: ...


def _random(seed: int) -> Bot:
    from meeplehall.ai.random_bot import RandomBot

    return RandomBot(seed)


def _greedy(seed: int) -> Bot:
    from meeplehall.ai.greedy import GreedyBot

    return GreedyBot(seed)


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": _random,
    "greedy": _greedy,
}


def make_bot(kind: str, seed: int = 0) -> Bot:
    """Create a bot of a registered kind, deterministic given ``seed``."""
    if kind not in BOTS:
        raise ValueError(f"unknown bot {kind!r}; bots are: {', '.join(BOTS)}")
    return BOTS[kind](seed)


def bot_rng(seed: int) -> Rng:
    return Rng.from_seed(seed ^ 0x5EED_B07)
