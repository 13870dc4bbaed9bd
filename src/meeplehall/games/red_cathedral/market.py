"""Action C, the Market (RC-MARKET-*, RC-GAIN-*, RC-WSACT-*) and Influence actions
(RC-INF-*, RC-INFL-*): what each step offers and what it does to the table. The pending
decisions that ask for them and keep the stack are in ``decisions.py``.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

from meeplehall.core.messages import M, term
from meeplehall.games.red_cathedral import actions as A
from meeplehall.games.red_cathedral.build import deliveries
from meeplehall.games.red_cathedral.components import (
    COLOURS,
    MATERIALS,
    RUBLES,
    WHITE,
    WS_POSITIONS,
    InfluenceAction,
    InfluenceCard,
)
from meeplehall.games.red_cathedral.effects import (
    ALL_MATS,
    C,
    add_count,
    amount_text,
    bank_rubles,
    colour_name,
    free_space,
    gain_material,
    gain_resource,
    gain_rubles,
    mats,
    roll_space,
    tile_benefit,
)
from meeplehall.games.red_cathedral.state import RCState

SWAPS = tuple(A.swap_tiles(a, b) for a, b in combinations(range(8), 2))


_TAKE_SETS = {n: tuple(combinations_with_replacement(range(6), n)) for n in (1, 2, 3)}


def moves(s: RCState, side: int, out: list[A.RCAction]) -> None:
    """RC-MARKET-1..4 and RC-ENG-3."""
    die_pos = s.die_pos
    for die in range(5):
        pips = s.die_val[die]
        start = die_pos[die]
        extra_max = min(s.rubles[side], 7) if die in (WHITE, side) and side < 4 else 0
        for k in range(extra_max + 1):
            steps = pips + k
            if steps % 8 == 0 and not s.opts.allow_full_circle:
                continue
            dest = (start + steps) % 8
            others = die_pos.count(dest) - (dest == start)
            if others < 3:
                out.append(A.move_die(die, k))


def obtain_max(s: RCState, side: int) -> int:
    """RC-GAIN-1..3: tile amount times dice there, limited by supply and room."""
    rt = C.resource_tiles[s.tiles[s.dest]]
    n = rt.amount * s.die_pos.count(s.dest)
    if rt.resource < 6:
        n = min(n, s.supply[rt.resource], free_space(s, side))
    elif rt.resource == RUBLES:
        n = min(n, bank_rubles(s))
    return n


def influence_instances(s: RCState, side: int, act: InfluenceAction,
                        probe: bool = False) -> list[A.RCAction]:
    """Concrete uses of one Influence action available now (RC-INFL-*); with ``probe``
    the list may stop after the first (enough to know the action can be used)."""
    out: list[A.RCAction] = []
    inv = s.inv[side]
    rubles = s.rubles[side]
    e = act.effect
    mats = act.materials or ALL_MATS
    if e == "sell":
        out.extend(A.sell(m) for m in mats if inv[m])
    elif e == "buy":
        if rubles >= act.price and free_space(s, side) > 0:
            out.extend(A.buy(m) for m in mats if s.supply[m])
    elif e == "deliver":
        if rubles >= act.price:
            found: list[A.RCAction] = []
            deliveries(s, side, act.count, found, probe=True)
            if found:
                out.append(A.HIRE_TEAMSTERS)
    elif e == "gain":
        out.append(A.PERFORM)
    elif e == "swap_tiles":
        if rubles >= act.price:
            out.extend(SWAPS)
    elif e == "exchange_identical":
        room = free_space(s, side) + (0 if s.opts.exchange_needs_room else act.give)
        if room >= act.take:
            for g in ALL_MATS:
                if inv[g] >= act.give:
                    give = (g,) * act.give
                    for take in _TAKE_SETS[act.take]:
                        if _supply_has(s, take, give):
                            out.append(A.exchange(give, take))
                            if probe:
                                return out
    elif e == "exchange_upgrade":
        if rubles >= act.price and (free_space(s, side) or not s.opts.exchange_needs_room):
            for g in ALL_MATS:
                if inv[g]:
                    out.extend(A.upgrade(g, t) for t in ALL_MATS if t != g and s.supply[t])
    elif e == "activate_tile":
        ws = s.ws[side]
        unused_only = s.opts.merchants_activate == "unused-this-turn"
        for pos in range(6):
            if ws[pos] >= 0 and ws[pos] & 1 and not (unused_only and s.act_used >> pos & 1):
                out.append(A.activate(pos))
    elif e == "discard_different":
        held = [m for m in ALL_MATS if inv[m]]
        out.extend(A.discard(combo) for combo in combinations(held, act.count))
    elif (e == "pay_for" and rubles >= act.price) or (
            e == "complete_set" and has_complete_set(s, side)):
        out.append(A.PERFORM)
    return out


def _supply_has(s: RCState, take: tuple[int, ...], returned: tuple[int, ...]) -> bool:
    need = [0] * 6
    for m in take:
        need[m] += 1
    for m in returned:
        need[m] -= 1
    return all(need[m] <= s.supply[m] for m in range(6))


def has_complete_set(s: RCState, side: int) -> bool:
    """CL-4: the side has completed a Base, a Middle and a Dome."""
    kinds = {C.cards[s.card_of[slot]].kind for slot in range(len(s.owner))
             if s.done[slot] and s.owner[slot] == side}
    return len(kinds) == 3


def influence_card(s: RCState) -> InfluenceCard:
    """The Influence card in the quadrant of the moved die's destination (RC-INF-1)."""
    return C.influence[s.influence[s.dest // 2]]


def market_actions(s: RCState, side: int) -> list[A.RCAction]:
    """RC-MARKET-6: obtain, one Influence action, the Workshop tile; each at most once."""
    out: list[A.RCAction] = []
    used = s.mk_used
    if not used & 1:
        for n in range(1, obtain_max(s, side) + 1):
            out.append(A.obtain(n))
    if not used & 2:
        card = influence_card(s)
        for i in (0, 1):
            if influence_instances(s, side, card.actions[i], probe=True):
                out.append(A.use_influence(i))
    if not used & 4:
        ws = s.ws[side]
        for pos in ((4, 5) if s.moved_die == WHITE else (s.moved_die,)):
            if ws[pos] >= 0 and ws[pos] & 1:
                out.append(A.activate(pos))
    return out


def has_market_action(s: RCState, side: int) -> bool:
    """Whether ``market_actions`` is not empty, cheapest check first."""
    used = s.mk_used
    if not used & 1 and obtain_max(s, side) >= 1:
        return True
    if not used & 4:
        ws = s.ws[side]
        for pos in ((4, 5) if s.moved_die == WHITE else (s.moved_die,)):
            if ws[pos] >= 0 and ws[pos] & 1:
                return True
    if not used & 2:
        card = influence_card(s)
        return any(influence_instances(s, side, card.actions[i], probe=True) for i in (0, 1))
    return False


def move_die(s: RCState, side: int, a: A.MoveDie) -> None:
    """RC-MARKET-1..5: pay for extra steps, move the die; the market step begins."""
    s.main_done = True
    s.rubles[side] -= a.extra
    steps = s.die_val[a.die] + a.extra
    dest = (s.die_pos[a.die] + steps) % 8
    s.die_pos[a.die] = dest
    s.moved_die = a.die
    s.dest = dest
    s.mk_used = 0
    if a.extra:
        s.log.append(M("{who} moves the {colour} die {n} space to space {dest}, paying {paid}",
                       who=colour_name(s, side), colour=term(COLOURS[a.die]), n=steps,
                       dest=dest, paid=amount_text(a.extra, RUBLES)))
    else:
        s.log.append(M("{who} moves the {colour} die {n} space to space {dest}",
                       who=colour_name(s, side), colour=term(COLOURS[a.die]), n=steps,
                       dest=dest))


def obtain(s: RCState, side: int, amount: int) -> None:
    """RC-GAIN-1..3."""
    s.mk_used |= 1
    rt = C.resource_tiles[s.tiles[s.dest]]
    got = gain_resource(s, side, rt.resource, amount)
    s.log.append(M("{who} obtains {what}", who=colour_name(s, side),
                   what=amount_text(got, rt.resource)))


def log_influence(s: RCState, side: int, index: int) -> None:
    """RC-INF-1: the side chooses one of the card's two actions."""
    s.mk_used |= 2
    card = influence_card(s)
    s.log.append(M("{who} uses Influence {card}: {rule}", who=colour_name(s, side),
                   card=card.id, rule=card.actions[index].rule))


def activate(s: RCState, side: int, position: int) -> None:
    """RC-WSACT-1..3: a face-up Workshop tile's benefit, once more."""
    s.act_used |= 1 << position
    got = tile_benefit(s, side, s.ws[side][position] >> 1)
    s.log.append(M("{who} activates the {position} Workshop tile: {got}",
                   who=colour_name(s, side), position=term(WS_POSITIONS[position]),
                   got=got))


def finish_market(s: RCState) -> None:
    """RC-MARKET-7: every die on the destination is rerolled."""
    s.log.append(M("reroll on space {n}: {dice}", n=s.dest, dice=roll_space(s, s.dest)))


def sell(s: RCState, side: int, act: InfluenceAction, material: int) -> None:
    s.inv[side] = add_count(s.inv[side], material, -1)
    s.supply[material] += 1
    got = gain_rubles(s, side, act.price)
    s.log.append(M("{who} sells 1 {material} for {what}", who=colour_name(s, side),
                   material=term(MATERIALS[material]), what=amount_text(got, RUBLES)))


def buy(s: RCState, side: int, act: InfluenceAction, material: int) -> None:
    s.rubles[side] -= act.price
    gain_material(s, side, material, 1)
    s.log.append(M("{who} buys 1 {material} for {price}", who=colour_name(s, side),
                   material=term(MATERIALS[material]), price=act.price))


def exchange(s: RCState, side: int, a: A.Exchange) -> None:
    for m in a.give:  # RC-AMB-20: inputs leave first
        s.inv[side] = add_count(s.inv[side], m, -1)
        s.supply[m] += 1
    for m in a.take:
        gain_material(s, side, m, 1)
    s.log.append(M("{who} exchanges {give} for {take}", who=colour_name(s, side),
                   give=mats(a.give), take=mats(a.take)))


def upgrade(s: RCState, side: int, act: InfluenceAction, a: A.Upgrade) -> None:
    s.rubles[side] -= act.price
    s.inv[side] = add_count(s.inv[side], a.give, -1)
    s.supply[a.give] += 1
    gain_material(s, side, a.take, 1)
    s.log.append(M("{who} exchanges 1 Ruble and 1 {give} for 1 {take}",
                   who=colour_name(s, side), give=term(MATERIALS[a.give]),
                   take=term(MATERIALS[a.take])))


def swap_tiles(s: RCState, side: int, act: InfluenceAction, a: A.SwapTiles) -> None:
    s.rubles[side] -= act.price
    s.tiles[a.a], s.tiles[a.b] = s.tiles[a.b], s.tiles[a.a]
    if s.opts.swap_moves_dice:  # alternative reading of RC-AMB-21
        s.die_pos = [a.b if p == a.a else a.a if p == a.b else p for p in s.die_pos]
        if s.dest in (a.a, a.b):
            # The moved die travelled with its tile: the destination (RC-MARKET-5) follows
            # it, so its reroll (RC-MARKET-7) and the Obtain step still apply to it.
            s.dest = a.b if s.dest == a.a else a.a
    s.log.append(M("{who} swaps the Resource tiles of spaces {a} and {b}",
                   who=colour_name(s, side), a=a.a, b=a.b))


def discard(s: RCState, side: int, act: InfluenceAction, materials: tuple[int, ...]) -> None:
    for m in materials:
        s.inv[side] = add_count(s.inv[side], m, -1)
        s.supply[m] += 1
    gain_resource(s, side, act.resource, act.amount)
    s.log.append(M("{who} discards {mats} for {what}", who=colour_name(s, side),
                   mats=mats(materials), what=amount_text(act.amount, act.resource)))


def perform(s: RCState, side: int, act: InfluenceAction) -> None:
    """Gain, pay-for and set-bonus Influence actions (RC-INFL-*)."""
    if act.effect == "pay_for":
        s.rubles[side] -= act.price
    got = gain_resource(s, side, act.resource, act.amount)
    s.log.append(M("{who} gains {what} ({rule})", who=colour_name(s, side),
                   what=amount_text(got, act.resource), rule=act.rule))


def hire_teamsters(s: RCState, side: int, act: InfluenceAction) -> None:
    """TM-1 / TM-3: pay; the deliveries follow as a decision of their own."""
    s.rubles[side] -= act.price
    s.log.append(M("{who} pays {n} Ruble to the Teamsters", who=colour_name(s, side),
                   n=act.price))
