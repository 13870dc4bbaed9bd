"""The Red Cathedral (Sheila Santos & Israel Cendrero, Devir 2020)."""

from meeplehall.games.red_cathedral.game import GAME, RedCathedral

__all__ = ["GAME", "RedCathedral"]
