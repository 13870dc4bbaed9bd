"""The bot interface and the registry of bot kinds (the ladder, ``ai/ladder.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeplehall.ai import ladder
from meeplehall.ai.bot import Bot, bot_rng
from meeplehall.core.protocol import Game

__all__ = ["BOTS", "Bot", "analyse", "bot_rng", "make_bot"]


def _maker(kind: str) -> Callable[[int], Bot]:
    def make(seed: int) -> Bot:
        return ladder.make_bot(kind, seed)

    return make


BOTS: dict[str, Callable[[int], Bot]] = {kind: _maker(kind) for kind in ladder.KINDS}
"""The ladder, weakest first. Rulebook automata (Ivan in The Red Cathedral's solo game)
are not bots: the engine plays them inside ``apply``, so a solo game has one seat and
a bot (or a person) plays only that seat."""


def make_bot(kind: str, seed: int = 0, think: float | None = None) -> Bot:
    """Create a bot of a registered kind (or ``expert@N``: the expert with ``N``
    iterations per decision), deterministic given ``seed``; ``think`` sets the clock of
    the ``expert`` level (seconds per decision). The registry ``BOTS`` is asked first,
    so a bot registered beside the ladder is made too."""
    if kind in BOTS and think is None:
        return BOTS[kind](seed)
    return ladder.make_bot(ladder.check_kind(kind), seed, think)


def analyse(game: Game, view: dict[str, Any], legal: tuple[Any, ...], kind: str = "greedy",
            seed: int = 0, think: float | None = None) -> list[tuple[Any, float]]:
    """Rank the legal actions of the current decision with a bot's evaluation, best first.

    The score is the greedy bot's heuristic evaluation (``greedy``, ``planner``), the
    share of the root's visits (``mcts-*``, ``expert``: the first row's share says how
    sure the search is), or a uniform share (``random``). Uses only ``view``.
    """
    bot = make_bot(kind, seed, think)
    if hasattr(bot, "analyse"):
        return [(row[0], row[1]) for row in bot.analyse(game, view, legal)]
    if hasattr(bot, "rank"):
        return [(action, score) for score, action in bot.rank(game, view, legal)]
    return [(action, 1.0 / len(legal)) for action in legal]
