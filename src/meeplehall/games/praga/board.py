"""Each player's action board: upgrades (§4.4) and walls (§4.5) with their neighbour
and red-corner bonuses (§6, via hexgrid.py).

Positions 0..5 are the action hexes (index = action), 6..17 the wall positions around
the board (P-WALL-4); the centre carries no symbols (GAP-6). Every pair of touching
positions is an *edge* that can pay once per game (P-ADJ-5/6: a stacked upgrade does not
re-pay a connection already used). Red corners pay one token per other visible red corner
at the vertex (P-ADJ-8/10); option ``corner_repay = false`` stops a stacked upgrade from
re-paying a corner pair already paid with the covered tile (P-EDGE-5).
"""

from __future__ import annotations

from functools import cache

from meeplehall.core.messages import M
from meeplehall.games.praga import hexgrid
from meeplehall.games.praga import links as L
from meeplehall.games.praga.components import (
    EDGE_REWARD,
    RED_TOKEN,
    UNIV,
    UPGRADE,
    load,
)
from meeplehall.games.praga.effects import gain, gain_reward, log, who
from meeplehall.games.praga.state import PragaState
from meeplehall.games.praga.texts import ACTION_TERMS

C = load()
POS_HEX = (*C.board_actions, *C.wall_positions)
UPGRADE_CHOICE = "re-upgraded action: the old or the new bonus"  # CHOOSE reason
NPOS = len(POS_HEX)


def _edges() -> tuple[tuple[tuple[int, int, int, int], ...], ...]:
    """Per position: (edge id, its board edge, other position, other's board edge)."""
    index = {h: p for p, h in enumerate(POS_HEX)}
    out: list[list[tuple[int, int, int, int]]] = [[] for _ in range(NPOS)]
    n = 0
    for p, h in enumerate(POS_HEX):
        for e in range(6):
            q = index.get(hexgrid.neighbour(h, e))
            if q is not None and q > p:
                out[p].append((n, e, q, hexgrid.opposite(e)))
                out[q].append((n, hexgrid.opposite(e), p, e))
                n += 1
    return tuple(tuple(x) for x in out)


def _corners() -> tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...]:
    """Per position and board corner: (pair id, other position, its corner)."""
    index = {h: p for p, h in enumerate(POS_HEX)}
    pair_ids: dict[tuple[int, int, int, int], int] = {}
    out = []
    for p, h in enumerate(POS_HEX):
        per_corner = []
        for c in range(6):
            v = hexgrid.vertex(h, c)
            others = []
            for other in v:
                q = index.get(other)
                if q is None or q == p:
                    continue
                cq = hexgrid.corner_of(other, v)
                key = (min(p, q), max(p, q), c if p < q else cq, cq if p < q else c)
                pid = pair_ids.setdefault(key, len(pair_ids))
                others.append((pid, q, cq))
            per_corner.append(tuple(others))
        out.append(tuple(per_corner))
    return tuple(out)


EDGES = _edges()
CORNERS = _corners()


@cache
def features(is_wall: bool, tile: int, orient: int) -> tuple[tuple[int, ...], int]:
    """Edge symbol per board edge (-1: none) and the red-corner mask by board corner."""
    t = C.walls[tile] if is_wall else C.upgrades[tile]
    edges = [-1] * 6
    for e, sym in t.edges:
        edges[(e + orient) % 6] = sym
    mask = 0
    for c in t.red_corners:
        mask |= 1 << ((c + orient) % 6)
    return tuple(edges), mask


def has_features(is_wall: bool, tile: int) -> bool:
    t = C.walls[tile] if is_wall else C.upgrades[tile]
    return bool(t.edges or t.red_corners)


def visible(s: PragaState, seat: int, pos: int) -> tuple[tuple[int, ...], int] | None:
    """Features of the visible tile at a position (top upgrade or wall), None if bare."""
    if pos < 6:
        stack = s.upg[seat][pos]
        if not stack:
            return None
        code = stack[-1]
        return features(False, code // 6, code % 6)
    code = s.walls[seat][pos - 6]
    if code < 0:
        return None
    return features(True, code // 6, code % 6)


def free_wall_positions(s: PragaState, seat: int) -> list[int]:
    return [k for k, code in enumerate(s.walls[seat]) if code < 0]


def _adjacency(s: PragaState, seat: int, pos: int) -> None:
    """Neighbour pairs (P-ADJ-3/4/5/6) and red corners (P-ADJ-8/10) of a new tile."""
    mine = visible(s, seat, pos)
    assert mine is not None
    edges, corners = mine
    paid = s.edge_paid[seat]
    for eid, e, q, eq in EDGES[pos]:
        if edges[e] < 0 or paid >> eid & 1:
            continue
        other = visible(s, seat, q)
        if other is None or other[0][eq] < 0:
            continue
        paid |= 1 << eid
        gain(s, seat, EDGE_REWARD[edges[e]], 1)
        gain(s, seat, EDGE_REWARD[other[0][eq]], 1)
    s.edge_paid[seat] = paid
    tokens = 0
    cpaid = s.corner_paid[seat]
    for c in range(6):
        if not corners >> c & 1:
            continue
        for pid, q, cq in CORNERS[pos][c]:
            other = visible(s, seat, q)
            if other is None or not other[1] >> cq & 1:
                continue
            if not s.opts.corner_repay and cpaid >> pid & 1:
                continue
            cpaid |= 1 << pid
            tokens += 1
    s.corner_paid[seat] = cpaid
    if tokens:
        gain(s, seat, RED_TOKEN, tokens)


def place_upgrade(s: PragaState, seat: int, tile: int, orient: int) -> None:
    """P-UPG-2..7: on its action's hex, University 1/2 steps, adjacency, then the bonuses
    of this turn's performances (only for the seat in turn, whose Upgrade action this is).

    P-UPG-5/7 with the ruling agreed with the author and publisher (re-upgrading is not
    cumulative: one bonus per performance, the old or the new): on a bare hex the new
    tile pays retroactively once per earlier performance of its action this turn; on a
    covered hex the earlier performances keep the bonus they had and the hex is marked
    in ``s.covered``, so that every later performance this turn chooses old or new. The
    Upgrade action's own bonus comes last (``start_action`` defers it to here)."""
    u = C.upgrades[tile]
    a = u.action
    bare = not s.upg[seat][a]
    stacks = list(s.upg[seat])
    stacks[a] = (*stacks[a], tile * 6 + orient)
    s.upg[seat] = tuple(stacks)
    log(s, M("{seat} upgrades its {action} action with {tile}", seat=who(s, seat),
             action=ACTION_TERMS[a], tile=u.id))
    gain(s, seat, UNIV, 1 if u.era == 1 else 2)  # UNIV
    _adjacency(s, seat, a)
    if seat != s.seat:
        return
    if bare:
        for _ in range(s.performed[a]):
            gain_reward(s, seat, u.bonus)
    else:
        s.covered |= 1 << a
    if not (bare and a == UPGRADE):
        upgrade_bonus(s, seat, UPGRADE)


def place_wall(s: PragaState, seat: int, tile: int, pos: int, orient: int) -> None:
    """P-WALL-4/5: a wall position around the board, then adjacency."""
    walls = list(s.walls[seat])
    walls[pos] = tile * 6 + orient
    s.walls[seat] = tuple(walls)
    _adjacency(s, seat, 6 + pos)


def upgrade_bonus(s: PragaState, seat: int, action: int) -> None:
    """P-UPG-6, P-EFR-3: the top upgrade's bonus, every performance; on a hex re-upgraded
    this turn the player chooses the covered tile's bonus or the top one's (P-UPG-5/7)."""
    stack = s.upg[seat][action]
    if not stack:
        return
    top = C.upgrades[stack[-1] // 6].bonus
    if s.covered >> action & 1 and seat == s.seat:
        old = C.upgrades[stack[-2] // 6].bonus
        s.stack.append(L.choose(seat, (old, top), UPGRADE_CHOICE))
    else:
        gain_reward(s, seat, top)


def owned_upgrades(s: PragaState, seat: int, era: int = 0) -> int:
    """Upgrade tiles owned, covered ones included (P-UPG-8)."""
    return sum(1 for stack in s.upg[seat] for code in stack
               if not era or C.upgrades[code // 6].era == era)


def wall_count(s: PragaState, seat: int) -> int:
    return sum(1 for code in s.walls[seat] if code >= 0)
