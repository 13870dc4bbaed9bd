"""The random bot: a uniformly random legal action from its own seeded generator."""

from __future__ import annotations

from typing import Any

from meeplehall.ai.bot import bot_rng
from meeplehall.core.protocol import Game


class RandomBot:
    kind = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = bot_rng(seed)

    def choose(self, game: Game, view: dict[str, Any], legal: tuple[Any, ...]) -> Any:
        return legal[self.rng.randbelow(len(legal))]
