"""Agents that play any game of the registry through the core protocol.

Bots see only ``player_view``: a bot that needs a full state for lookahead rebuilds one
with ``game.sample_hidden(view, rng)`` from its own seeded generator.
"""

from meeplehall.ai.base import BOTS, Bot, analyse, make_bot

__all__ = ["BOTS", "Bot", "analyse", "make_bot"]
