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


def _planner(seed: int) -> Bot:
    from meeplehall.ai.planner import PlannerBot

    return PlannerBot(seed)


def _mcts(kind: str) -> Callable[[int], Bot]:
    def make(seed: int) -> Bot:
        from meeplehall.ai.mcts import make_level

        return make_level(kind, seed)

    return make


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": _random,
    "greedy": _greedy,
    "planner": _planner,
    "mcts-easy": _mcts("mcts-easy"),
    "mcts-medium": _mcts("mcts-medium"),
    "mcts-hard": _mcts("mcts-hard"),
}
"""The ladder, weakest first. Rulebook automata (Ivan in The Red Cathedral's solo game)
are not bots: the engine plays them inside ``apply``, so a solo game has one seat and
a bot (or a person) plays only that seat."""


def make_bot(kind: str, seed: int = 0) -> Bot:
    """Create a bot of a registered kind, deterministic given ``seed``."""
    if kind not in BOTS:
        raise ValueError(f"unknown bot {kind!r}; bots are: {', '.join(BOTS)}")
    return BOTS[kind](seed)


def analyse(game: Game, view: dict[str, Any], legal: tuple[Any, ...], kind: str = "greedy",
            seed: int = 0) -> list[tuple[Any, float]]:
    """Rank the legal actions of the current decision with a bot's evaluation, best first.

    The score is the greedy bot's heuristic evaluation (``greedy``), the share of the
    root's visits (``mcts-*``), or a uniform share (``random``). Uses only ``view``.
    """
    bot = make_bot(kind, seed)
    if hasattr(bot, "analyse"):
        return [(row[0], row[1]) for row in bot.analyse(game, view, legal)]
    if hasattr(bot, "rank"):
        return [(action, score) for score, action in bot.rank(game, view, legal)]
    return [(action, 1.0 / len(legal)) for action in legal]


def bot_rng(seed: int) -> Rng:
    return Rng.from_seed(seed ^ 0x5EED_B07)
