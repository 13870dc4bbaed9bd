"""The bot interface and the bots' seeded generators."""

from __future__ import annotations

from typing import Any, Protocol

from meeplehall.core.protocol import Game
from meeplehall.core.rng import Rng


class Bot(Protocol):
    """An agent: picks one of ``legal`` from what the seat may see."""

    kind: str

    def choose(self, game: Game, view: dict[str, Any], legal: tuple[Any, ...]) -> Any: ...


def bot_rng(seed: int) -> Rng:
    return Rng.from_seed(seed ^ 0x5EED_B07)
