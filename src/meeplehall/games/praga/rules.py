"""The forward model: ``legal_actions`` and ``apply_unchecked``.

Both ask the decision on top of ``state.stack`` (decisions.py): its ``legal`` and its
``apply``. Steps with no choice (refills, the crane's rotation, the clock, final
scoring) happen inside ``apply``. The tile action is mandatory (P-TURN-2): options that
would make it impossible are filtered here, for every decision alike.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from meeplehall.core.messages import Message, term
from meeplehall.core.protocol import IllegalActionError
from meeplehall.games.praga import actions as A
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.actions_family import stack_index
from meeplehall.games.praga.components import MINES, QUARRIES, UPGRADE
from meeplehall.games.praga.effects import side_name
from meeplehall.games.praga.state import UPGRADE_ROW, Decision, PragaState
from meeplehall.games.praga.texts import ROW_TERMS
from meeplehall.games.praga.turn import tile_action_pending


def legal_actions(state: PragaState) -> tuple[A.PragaAction, ...]:
    """The legal actions of the decision on top of the stack, in generator order."""
    if state.final is not None or not state.stack:
        return ()
    d = state.stack[-1]
    out = d.legal(state)
    if state.taken >= 0 and not state.action_done and d.seat == state.seat and _fragile(state):
        return tuple(_keep_tile_action(state, d, out))
    return tuple(out)


# --- the tile action is mandatory (P-TURN-2 step 2, P-ACT-3, P-EDGE-1) -------------------
# Verbs that can spend gold, stone or eggs, take row tiles, fill a wall position or move
# the pawn: only these can make the taken tile's action impossible.
RISKY = frozenset({
    "refresh", "remove", "up", "side", "claim-seal", "wheel-bonus", "road-free",
    "road-egg", "use-tech", "extra", "any-action", "pick", "wall-at", "at-market", "site",
    "arrow-up", "tech-grid",
})
# Normal upgrade tiles shown + in the stack that no turn can use up before its tile
# action: the extra action and two one-shot technologies take at most 3 (a refresh keeps
# the count), so with 4 one is always left.
SAFE_UPGRADE = 4


def _fragile(s: PragaState) -> bool:
    """Can the taken tile's action be made impossible by what the player does first?
    Mines/Quarries never (produce is always possible); Upgrade not while enough normal
    upgrade tiles are left."""
    for a in s.pairs[s.taken]:
        if a in (MINES, QUARRIES):
            return False
        if a == UPGRADE:
            row = s.rows[UPGRADE_ROW]
            shown = (row[0] >= 0) + (row[1] >= 0) + (row[2] >= 0)
            if shown + len(s.stacks[stack_index(s, UPGRADE_ROW, False)]) >= SAFE_UPGRADE:
                return False
    return True


def _keep_tile_action(s: PragaState, d: Decision,
                      out: list[A.PragaAction]) -> list[A.PragaAction]:
    """P-TURN-2: once a tile is taken whose action can be performed, the action is
    mandatory, so nothing may be done that makes it impossible (e.g. spending the gold a
    building needs). At the hub this applies while the action is performable; inside
    other decisions, an option is kept when some continuation returns to the hub with the
    action still performable. If no option qualifies (the action was already impossible,
    P-EDGE-1) nothing is filtered, so no state is ever stuck."""
    if isinstance(d, D.Turn) and not tile_action_pending(s, s.seat):
        return out
    kept = [a for a in out if a.verb not in RISKY or _keeps(s, a, 0)]
    return kept or out


def _keeps(s: PragaState, a: A.PragaAction, depth: int) -> bool:
    c = s.clone()
    c.stack[-1].apply(c, a)
    if c.final is not None or not c.stack:
        return False
    d = c.stack[-1]
    if isinstance(d, D.Turn):
        return tile_action_pending(c, c.seat)
    if depth >= 10:
        return True
    options = d.legal(c)
    if isinstance(d, D.Orient):
        options = options[:1]  # orientation costs nothing (gains only)
    return any(_keeps(c, x, depth + 1) for x in options)


# Verbs whose handler always logs the move itself ("green takes action tile A1 ...").
SELF_LOGGED = frozenset({"take-tile", "perform", "extra", "any-action", "pick",
                         "claim-seal", "use-tech", "keep-tech", "bridge-tile"})
# Verbs that log the move when they place a tile ("green builds B03 on S07"), and are
# echoed only when they ask a further question instead (site, then orientation).
LOGGED_IF_PLACED = frozenset({"site", "orient"})


def apply_unchecked(state: PragaState, action: A.PragaAction) -> None:
    """Apply a legal action in place (the caller owns ``state``)."""
    if not state.stack:
        raise IllegalActionError(f"{action} is not legal: the game is over")
    verb = action.verb
    top = state.stack[-1]
    seat = top.seat
    n = len(state.log)
    top.apply(state, action)
    # The move in the log: verbs whose handler always writes a line for it need no echo;
    # the others get ``colour: move`` before what the move caused (P-TURN-2 order).
    if verb not in SELF_LOGGED and (verb not in LOGGED_IF_PLACED or len(state.log) == n):
        state.log.insert(n, _echo(state, seat, action))


# How the words of an echoed move become message arguments, by argument kind (the rest:
# the word itself, an id or a number).
_ECHO_TERMS: dict[str, tuple[Message, ...]] = {
    "row": ROW_TERMS,
    "res": (term("gold"), term("stone")),
    "grid": (term("hunger-wall"), term("cathedral")),
    "track": (term("gold mine"), term("quarry")),
    "win": (term("2 gold windows"), term("1 gold + 1 silver window")),
}


# Verbs whose numbers people read counted from 1, as the board prints them (row positions,
# wall positions, planks, the rewards offered); the action's text keeps the engine's 0-based.
_COUNTED_FROM_ONE = frozenset({"remove", "wall-at", "plank", "choose"})

_FIELDS: dict[type, tuple[str, ...]] = {}  # action class -> its field names


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


# (side, verb, action) -> its entry. The verb is in the key because actions of different
# classes with equal fields hash alike (``Perform(1)``, ``Pick(1)``; every action without
# fields): with it, a lookup compares no actions of other classes.
_ECHOES: dict[tuple[str, str, A.PragaAction], Message] = {}


def _echo(s: PragaState, seat: int, action: A.PragaAction) -> Message:
    """The log entry of a move whose handler writes none, built once per side and
    action and shared (log entries are read-only)."""
    name = side_name(s, seat)
    key = (name, action.verb, action)
    entry = _ECHOES.get(key)
    if entry is None:
        entry = _ECHOES[key] = _echo_entry(name, action)
    return entry


def _echo_entry(name: str, action: A.PragaAction) -> Message:
    """The verb is part of the key (``{seat}: refresh {a} {b}``), its arguments are
    ``a`` and ``b``."""
    words = str(action).split()
    args: dict[str, Any] = {"seat": term(name)}
    values = [getattr(action, name) for name in _field_names(type(action))]
    counted = action.verb in _COUNTED_FROM_ONE
    for name, kind, value, word in zip(("a", "b"), type(action).args, values, words[1:],
                                       strict=False):
        terms = _ECHO_TERMS.get(kind)
        args[name] = (terms[value] if terms is not None
                      else value + 1 if counted and kind == "int" else word)
    return Message(" ".join(("{seat}:", words[0], *("{a}", "{b}")[:len(words) - 1])), args)
