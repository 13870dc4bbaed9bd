"""Praga Caput Regni (Vladimír Suchý, Delicious Games 2020), 1-4 players: 2-4 people,
or one person against the rulebook's solo dummy or the Peter Parler bots (see
docs/praga-solo.md).

``GAME`` is the protocol object, registered in ``meeplehall.games.GAMES`` as ``praga``.
"""

from meeplehall.games.praga.game import GAME

__all__ = ["GAME"]
