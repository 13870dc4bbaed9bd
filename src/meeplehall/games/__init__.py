"""The registry of games: an explicit mapping from name to game object."""

from meeplehall.core.protocol import Game
from meeplehall.games import praga, red_cathedral

GAMES: dict[str, Game] = {
    red_cathedral.GAME.name: red_cathedral.GAME,
    praga.GAME.name: praga.GAME,
}

__all__ = ["GAMES"]
