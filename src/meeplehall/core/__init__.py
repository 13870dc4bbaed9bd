"""Game-agnostic core: the game protocol, seeded randomness, records and shared checks.

Nothing in ``core`` imports a game, an AI, a server or a UI.
"""

from meeplehall.core.protocol import (
    Action,
    Game,
    GameBase,
    IllegalActionError,
    Option,
    Outcome,
    Params,
    PlayerId,
    rank_groups,
    validate_params,
)
from meeplehall.core.rng import Rng

__all__ = [
    "Action",
    "Game",
    "GameBase",
    "IllegalActionError",
    "Option",
    "Outcome",
    "Params",
    "PlayerId",
    "Rng",
    "rank_groups",
    "validate_params",
]
