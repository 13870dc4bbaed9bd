"""The texts of Praga as messages (``meeplehall.core.messages``): the terms named inside
sentences, rewards and the tiles of the rows. Log entries, prompts and action labels are
built from them; the catalogues (``praga.po``) translate every key."""

from __future__ import annotations

from meeplehall.core.messages import M, Message, term
from meeplehall.games.praga.components import ACTIONS, GRIDS, REWARD_KINDS, Reward, load
from meeplehall.games.praga.state import ROW_NAMES

C = load()

# The six actions named inside a sentence ("green performs mines").
ACTION_TERMS = tuple(term(f"{a} (action)") for a in ACTIONS)
# The six actions as the object of a verb ("green performs mines", "Perform mines"): a
# language with cases gives them their own form (Polish: "wykonuje Budowę Budynku").
ACTION_OBJECTS = tuple(term(f"{a} (action performed)") for a in ACTIONS)
# The three rows of tiles named inside a sentence ("the building row").
ROW_TERMS = tuple(term(f"{r} (row)") for r in ROW_NAMES)
# The Hunger Wall and the Cathedral named inside an action label ("on the hunger-wall").
GRID_TERMS = tuple(term(f"{g} (grid)") for g in GRIDS)


def joined(parts: list[Message], key: str) -> Message | str:
    """``parts`` chained by ``key`` (``{a} + {b}``): each link translated on its own."""
    if not parts:
        return ""
    out = parts[-1]
    for part in reversed(parts[:-1]):
        out = M(key, a=part, b=out)
    return out


def reward_message(reward: Reward) -> Message:
    """A reward as a message: ``2 vp + 1 silver`` (``nothing`` when empty)."""
    if not reward:
        return term("nothing")
    out = joined([M("{n} " + REWARD_KINDS[kind], n=amount) for kind, amount in reward],
                 "{a} + {b}")
    assert isinstance(out, Message)
    return out


def _cost_message(gold: int, stone: int) -> Message | str:
    return joined([M("{n} " + kind, n=n) for n, kind in ((gold, "gold"), (stone, "stone"))
                   if n], "{a} {b}")


def tile_message(row: int, tile: int) -> Message | str:
    """A tile of a row as a message: its id, cost, reward and marks (``-``: none)."""
    if tile < 0:
        return "-"
    if row == 0:
        b = C.buildings[tile]
        cost, reward = _cost_message(b.gold, b.stone), reward_message(b.reward)
        marks = tuple(term(x) for x, on in (
            ("cube", b.cube), ("cathedral (symbol)", b.cathedral),
            ("blue corner", bool(b.blue_corners))) if on)
    elif row == 1:
        w = C.walls[tile]
        cost, reward = _cost_message(w.gold, w.stone) or term("free"), reward_message(w.reward)
        marks = tuple(term(x) for x, on in (("hunger wall", w.hunger_wall),
                                            ("red corner", bool(w.red_corners))) if on)
    else:
        u = C.upgrades[tile]
        return M("{tile} ({action}: {reward} per performance)", tile=u.id,
                 action=ACTION_TERMS[u.action], reward=reward_message(u.bonus))
    tile_id = (C.buildings[tile] if row == 0 else C.walls[tile]).id
    if marks:
        return M("{tile} ({cost} -> {reward}; {marks})", tile=tile_id, cost=cost,
                 reward=reward, marks=marks)
    return M("{tile} ({cost} -> {reward})", tile=tile_id, cost=cost, reward=reward)
