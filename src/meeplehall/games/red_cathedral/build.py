"""Action B, Build (RC-BUILD-*), and Ornamentations (RC-ORN-*): deliveries one at a time,
used by a Build and by the Teamsters' delivery actions.
"""

from __future__ import annotations

from typing import Any

from meeplehall.core.messages import M, term
from meeplehall.games.red_cathedral import actions as A
from meeplehall.games.red_cathedral.components import (
    MATERIALS,
    ORNAMENTS,
)
from meeplehall.games.red_cathedral.effects import (
    _ALL_MATS,
    C,
    _add,
    _between,
    _colour_name,
    complete_card,
    gain_pp,
    mats,
)
from meeplehall.games.red_cathedral.state import (
    DELIVER,
    JEWELS,
    RCState,
)


def _deliveries(s: RCState, side: int, left: int, out: list[Any], probe: bool = False) -> None:
    """Deliveries and Ornamentations possible now; with ``probe``, stop at the first."""
    inv = s.inv[side]
    if not any(inv):
        return
    owner = s.owner
    done = s.done
    for slot in range(len(owner)):
        if owner[slot] != side or done[slot]:
            continue
        cost = C.cards[s.card_of[slot]].cost
        got = s.delivered[slot]
        for m in _ALL_MATS:
            if inv[m] and got[m] < cost[m]:
                out.append(A.deliver(m, slot))
                if probe:
                    return
    if left < 1:
        return
    avail = s.orn_avail[side]
    for slot in range(len(owner)):
        if done[slot] and s.orn[slot] < 0:
            kind = C.cards[s.card_of[slot]].kind
            if avail[kind] and inv[C.ornament_material[kind]]:
                out.append(A.decorate(slot))


def _gen_deliver(s: RCState, d: tuple[Any, ...]) -> list[Any]:
    _, side, left, made, _team = d
    out: list[Any] = []
    if left > 0:
        _deliveries(s, side, left, out)
    if made > 0:
        out.append(A.FINISH_DELIVERY)
    _between(s, side, out)
    return out


def _gen_jewels(s: RCState, d: tuple[Any, ...]) -> list[Any]:
    _, side, _slot, left, _made, _team = d
    inv = s.inv[side]
    out = []
    for jewels in A.JEWEL_SETS:
        if len(jewels) > left - 1:
            continue
        if all(inv[m] >= jewels.count(m) for m in set(jewels)):
            out.append(A.set_jewels(jewels))
    return out


def _h_build(s: RCState) -> None:
    s.main_done = True
    s.stack.append((DELIVER, s.side, 3, 0, False))


def _h_deliver(s: RCState, a: A.Deliver) -> None:
    _, side, left, made, team = s.stack[-1]
    s.inv[side] = _add(s.inv[side], a.material, -1)
    s.delivered[a.slot] = _add(s.delivered[a.slot], a.material, 1)
    s.stack[-1] = (DELIVER, side, left - 1, made + 1, team)
    s.log.append(M("{who} delivers 1 {material} to slot {slot}", who=_colour_name(s, side),
                   material=term(MATERIALS[a.material]), slot=a.slot))
    if s.delivered[a.slot] == C.cards[s.card_of[a.slot]].cost:
        complete_card(s, a.slot)


def _h_decorate(s: RCState, a: A.Decorate) -> None:
    _, side, left, made, team = s.stack[-1]
    s.stack[-1] = (JEWELS, side, a.slot, left, made, team)


def _h_jewels(s: RCState, a: A.SetJewels) -> None:
    """RC-ORN-4..7: base Material plus jewels, paid in one go; Prestige at once."""
    _, side, slot, left, made, team = s.stack[-1]
    kind = C.cards[s.card_of[slot]].kind
    used = (C.ornament_material[kind], *a.jewels)
    for m in used:
        s.inv[side] = _add(s.inv[side], m, -1)
        s.supply[m] += 1
    s.orn[slot] = side
    avail = list(s.orn_avail[side])
    avail[kind] -= 1
    s.orn_avail[side] = (avail[0], avail[1], avail[2])
    s.orn_placed[side] += 1
    pp = ornament_prestige(a.jewels)
    gain_pp(s, side, pp)
    s.stack[-1] = (DELIVER, side, left - len(used), made + len(used), team)
    s.log.append(M("{who} places a {ornament} on slot {slot} with jewels {jewels}: +{pp} PP",
                   who=_colour_name(s, side), ornament=term(ORNAMENTS[kind]), slot=slot,
                   jewels=mats(a.jewels), pp=pp))


def ornament_prestige(jewels: tuple[int, ...]) -> int:
    """RC-ORN-6: 0, 1, 2 (same colour) or 3 (green and purple)."""
    if len(jewels) < 2:
        return len(jewels)
    return 2 if jewels[0] == jewels[1] else 3


def _h_finish_delivery(s: RCState) -> None:
    s.stack.pop()
