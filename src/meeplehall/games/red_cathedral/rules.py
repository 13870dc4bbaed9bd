"""The forward model: ``legal_actions`` and ``apply`` ask the decision on top of the stack
(``decisions.py``), as STYLE.md section 3 asks. Steps with no choice (rerolls, refills,
Ivan's turn, the end of a turn with nothing left to do) happen inside ``apply``.
"""

from __future__ import annotations

from meeplehall.core.protocol import IllegalActionError
from meeplehall.games.red_cathedral import actions as A
from meeplehall.games.red_cathedral.state import RCState


def legal_actions(s: RCState) -> tuple[A.RCAction, ...]:
    """Legal actions of the decision on top of the stack, in generator order."""
    if not s.stack:
        return ()
    return tuple(s.stack[-1].legal(s))


def apply_unchecked(s: RCState, action: A.RCAction) -> None:
    """Apply a legal action in place, then run every step that needs no choice."""
    if s.final is not None or not s.stack:
        raise IllegalActionError(f"{action} is not legal: the game is over")
    if action is A.SELL_PRESTIGE:
        s.sell_state = 1
    elif s.sell_state == 1 and s.opts.sell_prestige_window == "single":
        s.sell_state = 2  # RC-FREE-1 / RC-AMB-3: the selling moment has passed
    s.stack[-1].apply(s, action)
    while s.stack and s.final is None and s.stack[-1].settle(s):
        pass  # a decision with nothing left to decide closed itself
