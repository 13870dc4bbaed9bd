"""The designed sections of a Red Cathedral view that views.py adds to its named parts
(market, influence, cathedral, supply, sides, ivan): the turn in progress and the
decision on top of the stack, decoded and named.

The schema is ``docs/schemas/red-cathedral-view.json`` (tests/games/test_view_schemas.py
checks every view against it). Clients read the named sections, never
``view["state"]``, the bot-only copy of the public state that ``sample_hidden`` rebuilds
a full state from.
"""

from __future__ import annotations

from typing import Any

from meeplehall.games.red_cathedral.components import COLOURS, WS_POSITIONS, load
from meeplehall.games.red_cathedral.state import RCState

C = load()

_SELLING = ("unused", "now", "passed")  # RCState.sell_state (RC-SELL)
_MARKET_STEPS = ("obtain", "influence", "workshop")  # RCState.mk_used bits (RC-MARKET)


def turn(s: RCState) -> dict[str, Any]:
    """The turn in progress: what the side has done and may still do (RC-TURN)."""
    return {
        "side": s.side,
        "turns": s.turns,
        "main_action_done": bool(s.main_done),
        "selling": _SELLING[s.sell_state],
        "reroll_used": bool(s.reroll_used),
        "moved_die": None if s.moved_die < 0 else COLOURS[s.moved_die],
        "destination": None if s.dest < 0 else s.dest,
        "market_steps_used": [name for b, name in enumerate(_MARKET_STEPS)
                              if s.mk_used >> b & 1],
        "workshop_positions_used": [name for b, name in enumerate(WS_POSITIONS)
                                    if s.act_used >> b & 1],
        "end_bonus_given": bool(s.bonus_given),
        "decisions_pending": len(s.stack),
    }


def pending(s: RCState) -> dict[str, Any] | None:
    """The decision on top of the stack: its kind, its side and its named fields (every
    seat sees the same: The Red Cathedral has no private draws)."""
    return decision(s.stack[-1]) if s.stack else None


def decision(d: Any) -> dict[str, Any]:
    """One decision as the views show it: its kind, its side and its named fields."""
    return {"kind": d.kind, "seat": d.seat, "fields": d.fields()}


def ivan_progress(s: RCState) -> dict[str, Any]:
    """Ivan's card in progress (an index into ``ivan.row``, null: none) and the
    Ornaments he has given (RC-IVAN-ORN)."""
    return {"carrying_out": None if s.iv_next < 0 else s.iv_next,
            "ornaments_given": s.iv_orn}
