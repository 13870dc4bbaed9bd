"""Per-game encoders: the fixed action catalogue and the observation layout.

``make_encoder(game, players)`` returns the :class:`~meeplehall.rl.encoders.base.Encoder`
of a game configuration, built once and cached (it depends only on the component data
and the player count).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from meeplehall.rl.encoders.base import Block, Encoder

_MAKERS: dict[str, str] = {
    "red-cathedral": "meeplehall.rl.encoders.red_cathedral",
    "praga": "meeplehall.rl.encoders.praga",
}


@cache
def make_encoder(game: str, players: int) -> Encoder:
    """The encoder of ``game`` for ``players`` seats.

    Raises:
        ValueError: unknown game.
    """
    if game not in _MAKERS:
        raise ValueError(f"unknown game {game!r}; games with an RL encoder: "
                         f"{', '.join(_MAKERS)}")
    import importlib

    module = importlib.import_module(_MAKERS[game])
    maker: Callable[[int], Encoder] = module.make_encoder
    return maker(players)


__all__ = ["Block", "Encoder", "make_encoder"]
