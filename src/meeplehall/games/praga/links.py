"""The links from the step modules to the two modules above them: the decision kinds
and final scoring.

The step modules (effects, board, city, road, actions_family, parler, turn) push
decisions, and the decision kinds (decisions.py) apply an action by calling those step
modules. So that imports go one way only, a step module names no decision class: it
pushes what the constructors here return, and decisions.py binds them to its classes
when it is imported. In the same way ``effects.best_final`` reads the rest of final
scoring through ``remaining_points``, which final.py binds. Importing the package
(``meeplehall.games.praga``) imports both, so the links are bound before any game runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

from meeplehall.games.praga.components import Reward
from meeplehall.games.praga.state import Decision, PragaState


def _unbound(*args: object) -> NoReturn:
    raise RuntimeError("praga links are bound when meeplehall.games.praga is imported")


# The decision kinds (decisions.py), each with its fields after the seat, in order.
hub: Callable[[int], Decision] = _unbound  # the turn hub of a seat (decisions.Turn)
mine: Callable[[int, int], Decision] = _unbound  # track
pick: Callable[[int, int, int, int], Decision] = _unbound  # row, source, discount
wall_at: Callable[[int, int], Decision] = _unbound  # wall
site: Callable[[int, int, int, int], Decision] = _unbound  # building, discount, market
orient: Callable[[int, int, int, int, int], Decision] = _unbound  # row, tile, where, discount
refresh: Callable[[int, int], Decision] = _unbound  # row
choose: Callable[[int, tuple[Reward, ...], str], Decision] = _unbound  # options, why
tech_draw: Callable[[int, tuple[int, ...], int], Decision] = _unbound  # drawn, level
token: Callable[[int, int], Decision] = _unbound  # track
bridge_tile: Callable[[int, tuple[int, ...], int], Decision] = _unbound  # tiles, pile
plank: Callable[[int, int], Decision] = _unbound  # tile
arrow: Callable[[int, int], Decision] = _unbound  # grid
cathedral_tile: Callable[[int], Decision] = _unbound
discard: Callable[[int], Decision] = _unbound
any_action: Callable[[int], Decision] = _unbound
tech_grid: Callable[[int], Decision] = _unbound
market_pick: Callable[[int], Decision] = _unbound
grow: Callable[[int], Decision] = _unbound
parler_pawn: Callable[[int, int], Decision] = _unbound  # bot
parler_site: Callable[[int, int, int], Decision] = _unbound  # bot, building
parler_orient: Callable[[int, int, int, int], Decision] = _unbound  # bot, building, site

# Final scoring (final.py): what final steps 2-6 would add for a seat now.
remaining_points: Callable[[PragaState, int], int] = _unbound
