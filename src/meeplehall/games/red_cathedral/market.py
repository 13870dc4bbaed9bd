"""Action C, the Market (RC-MARKET-*, RC-GAIN-*, RC-WSACT-*) and Influence actions
(RC-INF-*, RC-INFL-*): what each step offers and what it does to the table. The pending
decisions that ask for them and keep the stack are in ``decisions.py``.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement

from meeplehall.core.messages import M, term
from meeplehall.games.red_cathedral import actions as A
from meeplehall.games.red_cathedral.build import deliveries
from meeplehall.games.red_cathedral.components import (
    COLOURS,
    EFFECTS,
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

# The interned actions of the hot generators, by their arguments: a lookup costs less than
# a call of the interning constructor, and the values are the same objects.
_MOVES = tuple(tuple(A.move_die(die, k) for k in range(8)) for die in range(5))
_SELLS = tuple(A.sell(m) for m in ALL_MATS)
_BUYS = tuple(A.buy(m) for m in ALL_MATS)
_USES = (A.use_influence(0), A.use_influence(1))
_ACTIVATES = tuple(A.activate(pos) for pos in range(6))

# RC-INFL MR-1/MR-3: per number taken, each multiset of Materials taken with its counts
# ((material, how many), ...), for the supply check of an exchange.
_TAKE_SETS = {n: tuple((take, tuple((m, take.count(m)) for m in sorted(set(take))))
                       for take in combinations_with_replacement(range(6), n))
              for n in (1, 2, 3)}


def moves(s: RCState, side: int, out: list[A.RCAction]) -> None:
    """RC-MARKET-1..4 and RC-ENG-3, in (die, extra steps) order."""
    die_pos = s.die_pos
    die_val = s.die_val
    on = [0] * 8  # dice per market space
    for pos in die_pos:
        on[pos] += 1
    full_circle = s.opts.allow_full_circle
    # RC-MARKET-3: 1 Ruble a paid step; RC-ENG-3: 8 more steps reach the same space again
    paid_max = min(s.rubles[side], 7) if side < 4 else 0
    for die in range(5):
        start = die_pos[die]
        pips = die_val[die]
        row = _MOVES[die]
        for k in range(paid_max + 1 if die in (WHITE, side) else 1):
            dest = (start + pips + k) % 8
            if dest == start:  # a full circle (the steps are a multiple of 8)
                # RC-MARKET-4: at most 3 other dice; the moved die itself is counted in on[]
                if full_circle and on[dest] <= 3:
                    out.append(row[k])
            elif on[dest] < 3:
                out.append(row[k])


def obtain_max(s: RCState, side: int) -> int:
    """RC-GAIN-1..3: tile amount times dice there, limited by supply and room."""
    rt = C.resource_tiles[s.tiles[s.dest]]
    n = rt.amount * s.die_pos.count(s.dest)
    if rt.resource < 6:
        n = min(n, s.supply[rt.resource], free_space(s, side))
    elif rt.resource == RUBLES:
        n = min(n, bank_rubles(s))
    return n


def _sell(s: RCState, side: int, act: InfluenceAction, probe: bool) -> list[A.RCAction]:
    """RC-INFL-CRAFT CR-1/3/5: one Material held, of the types the action names."""
    inv = s.inv[side]
    return [_SELLS[m] for m in act.materials or ALL_MATS if inv[m]]


def _buy(s: RCState, side: int, act: InfluenceAction, probe: bool) -> list[A.RCAction]:
    """RC-INFL-CRAFT CR-2/4/6: the price paid, room in the Inventory, from the supply."""
    if s.rubles[side] < act.price or free_space(s, side) <= 0:
        return []
    supply = s.supply
    return [_BUYS[m] for m in act.materials or ALL_MATS if supply[m]]


def _deliver(s: RCState, side: int, act: InfluenceAction, probe: bool) -> list[A.RCAction]:
    """RC-INFL-TEAM TM-1/3: the price paid, and a delivery possible afterwards."""
    if s.rubles[side] >= act.price:
        found: list[A.RCAction] = []
        deliveries(s, side, act.count, found, probe=True)
        if found:
            return [A.HIRE_TEAMSTERS]
    return []


def _gain(s: RCState, side: int, act: InfluenceAction, probe: bool) -> list[A.RCAction]:
    """RC-INFL-TEAM TM-2, RC-INFL-CLERGY CL-1: always."""
    return [A.PERFORM]


def _swap_tiles(s: RCState, side: int, act: InfluenceAction, probe: bool) -> list[A.RCAction]:
    """RC-INFL-TEAM TM-4: any two Market spaces, when the price can be paid."""
    return list(SWAPS) if s.rubles[side] >= act.price else []


def _exchange_identical(s: RCState, side: int, act: InfluenceAction,
                        probe: bool) -> list[A.RCAction]:
    """RC-INFL-MERCH MR-1/3: identical Materials held for any the supply has."""
    out: list[A.RCAction] = []
    room = free_space(s, side) + (0 if s.opts.exchange_needs_room else act.give)
    if room < act.take:
        return out
    inv = s.inv[side]
    supply = s.supply
    n_give = act.give
    for g in ALL_MATS:
        if inv[g] >= n_give:
            give = (g,) * n_give
            for take, counts in _TAKE_SETS[act.take]:
                # RC-AMB-20: the given Materials return to the supply first, so a taken
                # Material may use what the supply holds plus those.
                for m, n in counts:
                    if n - (n_give if m == g else 0) > supply[m]:
                        break
                else:
                    out.append(A.exchange(give, take))
                    if probe:
                        return out
    return out


def _exchange_upgrade(s: RCState, side: int, act: InfluenceAction,
                      probe: bool) -> list[A.RCAction]:
    """RC-INFL-MERCH MR-2: 1 Ruble and a Material held for another type."""
    out: list[A.RCAction] = []
    if s.rubles[side] >= act.price and (free_space(s, side)
                                        or not s.opts.exchange_needs_room):
        inv = s.inv[side]
        supply = s.supply
        for g in ALL_MATS:
            if inv[g]:
                out.extend([A.upgrade(g, t) for t in ALL_MATS if t != g and supply[t]])
    return out


def _activate_tile(s: RCState, side: int, act: InfluenceAction,
                   probe: bool) -> list[A.RCAction]:
    """RC-INFL-MERCH MR-4: one of the side's face-up Workshop tiles."""
    ws = s.ws[side]
    unused_only = s.opts.merchants_activate == "unused-this-turn"
    return [_ACTIVATES[pos] for pos in range(6)
            if ws[pos] >= 0 and ws[pos] & 1 and not (unused_only and s.act_used >> pos & 1)]


def _discard_different(s: RCState, side: int, act: InfluenceAction,
                       probe: bool) -> list[A.RCAction]:
    """RC-INFL-CLERGY CL-3: Materials of different types held."""
    inv = s.inv[side]
    held = [m for m in ALL_MATS if inv[m]]
    return [A.discard(combo) for combo in combinations(held, act.count)]


def _pay_for(s: RCState, side: int, act: InfluenceAction, probe: bool) -> list[A.RCAction]:
    """RC-INFL-CLERGY CL-2: when the price can be paid."""
    return [A.PERFORM] if s.rubles[side] >= act.price else []


def _complete_set(s: RCState, side: int, act: InfluenceAction,
                  probe: bool) -> list[A.RCAction]:
    """RC-INFL-CLERGY CL-4: with a completed Base, Middle and Dome."""
    return [A.PERFORM] if has_complete_set(s, side) else []


# The uses of an Influence action, by its effect (components.EFFECTS), in generator order.
_INSTANCES = {
    "sell": _sell, "buy": _buy, "deliver": _deliver, "gain": _gain,
    "swap_tiles": _swap_tiles, "exchange_identical": _exchange_identical,
    "exchange_upgrade": _exchange_upgrade, "activate_tile": _activate_tile,
    "discard_different": _discard_different, "pay_for": _pay_for,
    "complete_set": _complete_set,
}
assert set(_INSTANCES) == set(EFFECTS), "every Influence effect needs its generator"


def influence_instances(s: RCState, side: int, act: InfluenceAction,
                        probe: bool = False) -> list[A.RCAction]:
    """Concrete uses of one Influence action available now (RC-INFL-*); with ``probe``
    the list may stop after the first (enough to know the action can be used)."""
    return _INSTANCES[act.effect](s, side, act, probe)


def has_complete_set(s: RCState, side: int) -> bool:
    """CL-4: the side has completed a Base, a Middle and a Dome."""
    kinds = {C.cards[s.card_of[slot]].kind for slot in range(len(s.owner))
             if s.done[slot] and s.owner[slot] == side}
    return len(kinds) == 3


def influence_card(s: RCState) -> InfluenceCard:
    """The Influence card in the quadrant of the moved die's destination (RC-INF-1)."""
    return C.influence[s.influence[s.dest // 2]]


@cache
def _obtains(most: int) -> tuple[A.Obtain, ...]:
    """RC-GAIN-1: ``obtain 1`` .. ``obtain most`` (any smaller amount is allowed)."""
    return tuple(A.obtain(n) for n in range(1, most + 1))


def _workshop_positions(s: RCState) -> tuple[int, ...]:
    """RC-WSACT-1: the Workshop positions of the moved die's colour (white has two)."""
    return (4, 5) if s.moved_die == WHITE else (s.moved_die,)


def market_actions(s: RCState, side: int) -> list[A.RCAction]:
    """RC-MARKET-6: obtain, one Influence action, the Workshop tile; each at most once."""
    used = s.mk_used
    out: list[A.RCAction] = [] if used & 1 else list(_obtains(obtain_max(s, side)))
    if not used & 2:
        card = influence_card(s)
        for i in (0, 1):
            if influence_instances(s, side, card.actions[i], probe=True):
                out.append(_USES[i])
    if not used & 4:
        ws = s.ws[side]
        for pos in _workshop_positions(s):
            if ws[pos] >= 0 and ws[pos] & 1:
                out.append(_ACTIVATES[pos])
    return out


def has_market_action(s: RCState, side: int) -> bool:
    """Whether ``market_actions`` is not empty, cheapest check first."""
    used = s.mk_used
    if not used & 1 and obtain_max(s, side) >= 1:
        return True
    if not used & 4:
        ws = s.ws[side]
        for pos in _workshop_positions(s):
            if ws[pos] >= 0 and ws[pos] & 1:
                return True
    if not used & 2:
        actions = influence_card(s).actions
        return bool(influence_instances(s, side, actions[0], probe=True)
                    or influence_instances(s, side, actions[1], probe=True))
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
                       dest=dest + 1, paid=amount_text(a.extra, RUBLES)))
    else:
        s.log.append(M("{who} moves the {colour} die {n} space to space {dest}",
                       who=colour_name(s, side), colour=term(COLOURS[a.die]), n=steps,
                       dest=dest + 1))


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
    s.log.append(M("{who} uses Influence: {text}", who=colour_name(s, side),
                   text=term(card.actions[index].text)))


def activate(s: RCState, side: int, position: int) -> None:
    """RC-WSACT-1..3: a face-up Workshop tile's benefit, once more."""
    s.act_used |= 1 << position
    got = tile_benefit(s, side, s.ws[side][position] >> 1)
    s.log.append(M("{who} activates the {position} Workshop tile: {got}",
                   who=colour_name(s, side), position=term(WS_POSITIONS[position]),
                   got=got))


def finish_market(s: RCState) -> None:
    """RC-MARKET-7: every die on the destination is rerolled."""
    s.log.append(M("reroll on space {n}: {dice}", n=s.dest + 1, dice=roll_space(s, s.dest)))


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
    s.log.append(M("{who} gains {what} by Influence", who=colour_name(s, side),
                   what=amount_text(got, act.resource)))


def hire_teamsters(s: RCState, side: int, act: InfluenceAction) -> None:
    """TM-1 / TM-3: pay; the deliveries follow as a decision of their own."""
    s.rubles[side] -= act.price
    s.log.append(M("{who} pays {n} Ruble to the Teamsters", who=colour_name(s, side),
                   n=act.price))
