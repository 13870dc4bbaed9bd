"""Action B, Build (RC-BUILD-*), and Ornamentations (RC-ORN-*): deliveries one at a time,
used by a Build and by the Teamsters' delivery actions. What each step offers and what it
does to the table; the decisions that ask for them are in ``decisions.py``.
"""

from __future__ import annotations

from meeplehall.core.messages import M, term
from meeplehall.games.red_cathedral import actions as A
from meeplehall.games.red_cathedral.components import (
    MATERIALS,
    ORNAMENTS,
)
from meeplehall.games.red_cathedral.effects import (
    ALL_MATS,
    C,
    add_count,
    colour_name,
    complete_card,
    gain_pp,
    mats,
)
from meeplehall.games.red_cathedral.state import RCState

# The interned actions of ``deliveries`` by slot (a plan has at most the 40 cards of the
# game): a lookup costs less than a call of the interning constructor.
_DELIVERS = tuple(tuple(A.deliver(m, slot) for m in ALL_MATS) for slot in range(len(C.cards)))
_DECORATES = tuple(A.decorate(slot) for slot in range(len(C.cards)))


def deliveries(s: RCState, side: int, left: int, out: list[A.RCAction],
               probe: bool = False) -> None:
    """Deliveries and Ornamentations possible now; with ``probe``, stop at the first."""
    inv = s.inv[side]
    held = [m for m in ALL_MATS if inv[m]]
    if not held:
        return
    owner = s.owner
    done = s.done
    cards = C.cards
    card_of = s.card_of
    delivered = s.delivered
    for slot, o in enumerate(owner):
        if o != side or done[slot]:
            continue
        cost = cards[card_of[slot]].cost
        got = delivered[slot]
        row = _DELIVERS[slot]
        for m in held:
            if got[m] < cost[m]:  # RC-BUILD-2: only Materials the cost still needs
                out.append(row[m])
                if probe:
                    return
    if left < 1:
        return
    avail = s.orn_avail[side]
    # RC-ORN-1..3: an Ornamentation needs one left of its kind and its base Material.
    kinds = [kind for kind in (0, 1, 2) if avail[kind] and inv[C.ornament_material[kind]]]
    if not kinds:
        return
    orn = s.orn
    for slot, is_done in enumerate(done):
        if is_done and orn[slot] < 0 and cards[card_of[slot]].kind in kinds:
            out.append(_DECORATES[slot])


def jewel_choices(s: RCState, side: int, left: int) -> list[A.RCAction]:
    """RC-ORN-4: jewel sets the Inventory holds, each jewel using one delivery."""
    inv = s.inv[side]
    out: list[A.RCAction] = []
    for jewels in A.JEWEL_SETS:
        if len(jewels) > left - 1:
            continue
        if all(inv[m] >= jewels.count(m) for m in set(jewels)):
            out.append(A.set_jewels(jewels))
    return out


def deliver(s: RCState, side: int, a: A.Deliver) -> None:
    """RC-BUILD-2..4: one Material onto a claimed card; RC-COMPLETE-1 when its cost is met."""
    s.inv[side] = add_count(s.inv[side], a.material, -1)
    s.delivered[a.slot] = add_count(s.delivered[a.slot], a.material, 1)
    s.log.append(M("{who} delivers 1 {material} to slot {slot}", who=colour_name(s, side),
                   material=term(MATERIALS[a.material]), slot=a.slot + 1))
    if s.delivered[a.slot] == C.cards[s.card_of[a.slot]].cost:
        complete_card(s, a.slot)


def decorate(s: RCState, side: int, slot: int, jewels: tuple[int, ...]) -> int:
    """RC-ORN-4..7: base Material plus jewels, paid in one go; Prestige at once. Returns
    the deliveries used."""
    kind = C.cards[s.card_of[slot]].kind
    used = (C.ornament_material[kind], *jewels)
    for m in used:
        s.inv[side] = add_count(s.inv[side], m, -1)
        s.supply[m] += 1
    s.orn[slot] = side
    avail = list(s.orn_avail[side])
    avail[kind] -= 1
    s.orn_avail[side] = (avail[0], avail[1], avail[2])
    s.orn_placed[side] += 1
    pp = ornament_prestige(jewels)
    gain_pp(s, side, pp)
    # an arch; a door, a cross; "without jewels" when none is set (RC-ORN-*)
    who, ornament = colour_name(s, side), term(ORNAMENTS[kind])
    if jewels:
        s.log.append(M("{who} places an {ornament} on slot {slot} with jewels {jewels}: +{pp} PP"
                       if kind == 1 else
                       "{who} places a {ornament} on slot {slot} with jewels {jewels}: +{pp} PP",
                       who=who, ornament=ornament, slot=slot + 1, jewels=mats(jewels), pp=pp))
    else:
        s.log.append(M("{who} places an {ornament} on slot {slot} without jewels: +{pp} PP"
                       if kind == 1 else
                       "{who} places a {ornament} on slot {slot} without jewels: +{pp} PP",
                       who=who, ornament=ornament, slot=slot + 1, pp=pp))
    return len(used)


def ornament_prestige(jewels: tuple[int, ...]) -> int:
    """RC-ORN-6: 0, 1, 2 (same colour) or 3 (green and purple)."""
    if len(jewels) < 2:
        return len(jewels)
    return 2 if jewels[0] == jewels[1] else 3
