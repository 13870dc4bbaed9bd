"""Praga Caput Regni (Vladimír Suchý, Delicious Games 2020), 2-4 players.

``GAME`` is the protocol object. Not yet registered in ``meeplehall.games.GAMES`` (the
lead registers it); see docs/praga-status.md.
"""

from meeplehall.games.praga.game import GAME

__all__ = ["GAME"]
