"""The forward model: ``legal_actions`` and ``apply`` for every decision.

One generator per decision kind (``_GENERATORS``) and one handler per action type
(``_HANDLERS``), as STYLE.md section 3 asks. Steps with no choice (rerolls, refills,
Ivan's turn, the end of a turn with nothing left to do) happen inside ``apply``.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations, combinations_with_replacement
from typing import Any

from meeplehall.core.protocol import IllegalActionError
from meeplehall.games.red_cathedral import actions as A
from meeplehall.games.red_cathedral.components import (
    COLOURS,
    MATERIALS,
    ORNAMENTS,
    RESOURCES,
    RP,
    RUBLES,
    WHITE,
    WS_POSITIONS,
    InfluenceAction,
    load,
)
from meeplehall.games.red_cathedral.scoring import track
from meeplehall.games.red_cathedral.state import (
    BANNER,
    DELIVER,
    EMPTY,
    INFLUENCE,
    IVAN_CLAIM,
    IVAN_ORNAMENT,
    JEWELS,
    MARKET,
    PLACE_TILE,
    TURN,
    RCState,
)

C = load()
T = track()
PP = len(RESOURCES)  # resource index meaning Prestige in influence effects
ZERO6 = (0, 0, 0, 0, 0, 0)
_ALL_MATS = (0, 1, 2, 3, 4, 5)
_SWAPS = tuple(A.swap_tiles(a, b) for a, b in combinations(range(8), 2))
_TAKE_SETS = {n: tuple(combinations_with_replacement(range(6), n)) for n in (1, 2, 3)}


# --- small state helpers --------------------------------------------------------------
def _add(counts: tuple[int, ...], mat: int, n: int) -> tuple[int, ...]:
    lst = list(counts)
    lst[mat] += n
    return tuple(lst)


def free_space(s: RCState, side: int) -> int:
    """Empty Inventory spaces (RC-INV-2)."""
    cap = C.free_spaces + C.banners_in_inventory - s.inv_banners[side]
    return cap - sum(s.inv[side])


def _bank_rubles(s: RCState) -> int:
    if not s.opts.ruble_limit:
        return 1 << 30
    return max(0, s.opts.ruble_limit - sum(s.rubles))


def gain_rubles(s: RCState, side: int, n: int) -> int:
    n = min(n, _bank_rubles(s))
    s.rubles[side] += n
    return n


def gain_rp(s: RCState, side: int, n: int) -> None:
    s.score[side] += n


def lose_rp(s: RCState, side: int, n: int) -> None:
    """RC-SCORE-4: never below space 0 unless negative Recognition is allowed."""
    t = s.score[side] - n
    s.score[side] = t if s.opts.negative_recognition else max(0, t)


def gain_pp(s: RCState, side: int, n: int) -> None:
    s.score[side] = T.gain_pp(s.score[side], n)


def lose_pp_target(s: RCState, side: int) -> int | None:
    """Where the marker goes on losing 1 Prestige, or None if it cannot (RC-SCORE-6)."""
    return T.lose_pp(s.score[side], 1, s.opts.prestige_loss == "full-point")


def gain_material(s: RCState, side: int, mat: int, n: int) -> int:
    """Take up to ``n`` of a Material: limited by supply and Inventory room (RC-GAIN-2/3)."""
    n = min(n, s.supply[mat], free_space(s, side))
    if n > 0:
        s.supply[mat] -= n
        s.inv[side] = _add(s.inv[side], mat, n)
    return n


def gain_resource(s: RCState, side: int, res: int, n: int) -> int:
    if res == RUBLES:
        return gain_rubles(s, side, n)
    if res == RP:
        gain_rp(s, side, n)
        return n
    if res == PP:
        gain_pp(s, side, n)
        return n
    return gain_material(s, side, res, n)


def roll_space(s: RCState, space: int) -> str:
    """Reroll every die on a Market space; returns the log text."""
    rolled = []
    for die in range(5):
        if s.die_pos[die] == space:
            s.die_val[die] = s.rng.randbelow(6) + 1
            rolled.append(f"{COLOURS[die]} {s.die_val[die]}")
    return ", ".join(rolled)


def tile_benefit(s: RCState, side: int, tile: int) -> str:
    """Gain a Workshop tile's benefit once (RC-WSACT-3)."""
    wt = C.tiles[tile]
    if wt.die >= 0:
        rt = C.resource_tiles[s.tiles[s.die_pos[wt.die]]]
        got = gain_resource(s, side, rt.resource, rt.amount)
        return f"{got} {RESOURCES[rt.resource]} (beside the {COLOURS[wt.die]} die)"
    got = gain_resource(s, side, wt.resource, wt.amount)
    return f"{got} {RESOURCES[wt.resource]}"


def _colour_name(s: RCState, side: int) -> str:
    if s.solo and side == 1:
        return "Ivan"
    return f"{C.colours[side]} (seat {side})"


# --- card completion, Tsar's penalty, end trigger ---------------------------------------
def complete_card(s: RCState, slot: int) -> None:
    """RC-COMPLETE-1: return Materials, reward, Tsar's penalty, end trigger."""
    card = C.cards[s.card_of[slot]]
    o = s.owner[slot]
    delivered = s.delivered[slot]
    for m in range(6):
        s.supply[m] += delivered[m]
    s.delivered[slot] = ZERO6
    s.done[slot] = True
    s.completed[o] += 1
    gain_rp(s, o, card.rp)
    ivan = s.solo and o == 1
    if card.rubles and not ivan:  # RC-AMB-10: Ivan ignores Rubles
        gain_rubles(s, o, card.rubles)
    s.log.append(f"{_colour_name(s, o)} completes {card.id} (slot {slot}): +{card.rp} RP"
                 + (f", +{card.rubles} Rubles" if card.rubles and not ivan else ""))
    # RC-TSAR-1..3: every unfinished claimed card below loses per foreign completion above.
    tower = s.towers[s.slot_tower[slot]]
    level = s.slot_level[slot]
    for li in range(level):
        u = tower[li]
        uo = s.owner[u]
        if uo < 0 or s.done[u]:
            continue
        penalty = sum(1 for v in tower[li + 1:] if s.done[v] and s.owner[v] != uo)
        if penalty:
            lose_rp(s, uo, penalty)
            s.log.append(f"Tsar's penalty: {_colour_name(s, uo)} loses {penalty} RP "
                         f"(unfinished slot {u})")
    # RC-END-1/3/4.
    if s.completed[o] == C.completions_to_end:
        first = s.end_trigger < 0
        if first:
            s.end_trigger = o
            s.log.append(f"{_colour_name(s, o)} completes a 6th card: the game ends after "
                         "every other side has taken one more turn")
        if not s.solo and (first or s.opts.later_sixth_bonus):
            if s.opts.end_bonus_unit == "pp":
                gain_pp(s, o, C.end_bonus)
            else:
                gain_rp(s, o, C.end_bonus)
            s.bonus_given = True
            s.log.append(f"{_colour_name(s, o)} gains the end bonus: "
                         f"+{C.end_bonus} {s.opts.end_bonus_unit.upper()}")


# --- legal-action generators -------------------------------------------------------------
def _free_actions(s: RCState, side: int, out: list[Any]) -> None:
    """RC-FREE-1/2, offered only to the side whose turn it is."""
    if lose_pp_target(s, side) is None:
        return
    if s.sell_state != 2:
        out.append(A.SELL_PRESTIGE)
    if not s.reroll_used:
        for space in sorted(set(s.die_pos)):
            out.append(A.reroll(space))


def _available_slots(s: RCState) -> list[int]:
    """RC-CLAIM-2: no Banner, and a Base or the card below carries a Banner."""
    owner = s.owner
    level = s.slot_level
    return [slot for slot in range(len(owner)) if owner[slot] < 0
            and all(owner[k] >= 0 for k in range(slot - level[slot], slot))]


def _claims(s: RCState, side: int, out: list[Any]) -> None:
    ws = s.ws[side]
    has_empty = EMPTY in ws
    from_inv = s.inv_banners[side] > 0 and has_empty
    if s.opts.advanced_workshops:
        from_out = BANNER in ws  # RC-ADV-4: taking it frees its position
    else:
        from_out = s.out_banners[side] > 0 and has_empty
    if not (from_inv or from_out):
        return
    for slot in _available_slots(s):
        if from_inv:
            out.append(A.claim(slot, True))
        if from_out:
            out.append(A.claim(slot, False))


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


def _moves(s: RCState, side: int, out: list[Any]) -> None:
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


def _gen_turn(s: RCState, d: tuple[Any, ...]) -> list[Any]:
    side = d[1]
    out: list[Any] = []
    if s.main_done:
        out.append(A.END_TURN)
    else:
        _claims(s, side, out)
        probe: list[Any] = []
        _deliveries(s, side, 3, probe, probe=True)
        if probe:
            out.append(A.BUILD)
        _moves(s, side, out)
        if not out or s.opts.allow_pass:
            out.append(A.PASS)  # RC-TURN-2: only when no main action exists, by default
    _free_actions(s, side, out)
    return out


def _gen_place_tile(s: RCState, d: tuple[Any, ...]) -> list[Any]:
    side = d[1]
    ws = s.ws[side]
    costs = C.advanced_costs if s.opts.advanced_workshops else C.basic_costs
    out: list[Any] = []
    for space in range(5):
        pos = space if space < 4 else (4 if ws[4] == EMPTY else 5)
        if ws[pos] != EMPTY:
            continue
        if s.rubles[side] >= costs[pos]:
            out.append(A.place_tile(space, True))
        out.append(A.place_tile(space, False))
    _between(s, side, out)
    return out


def _between(s: RCState, side: int, out: list[Any]) -> None:
    if s.opts.free_actions_between_steps:
        _free_actions(s, side, out)


def obtain_max(s: RCState, side: int) -> int:
    """RC-GAIN-1..3: tile amount times dice there, limited by supply and room."""
    rt = C.resource_tiles[s.tiles[s.dest]]
    n = rt.amount * s.die_pos.count(s.dest)
    if rt.resource < 6:
        n = min(n, s.supply[rt.resource], free_space(s, side))
    elif rt.resource == RUBLES:
        n = min(n, _bank_rubles(s))
    return n


def _gen_market(s: RCState, d: tuple[Any, ...]) -> list[Any]:
    side = d[1]
    out: list[Any] = []
    used = s.mk_used
    if not used & 1:
        for n in range(1, obtain_max(s, side) + 1):
            out.append(A.obtain(n))
    if not used & 2:
        card = C.influence[s.influence[s.dest // 2]]
        for i in (0, 1):
            if _influence_instances(s, side, card.actions[i], probe=True):
                out.append(A.use_influence(i))
    if not used & 4:
        ws = s.ws[side]
        for pos in ((4, 5) if s.moved_die == WHITE else (s.moved_die,)):
            if ws[pos] >= 0 and ws[pos] & 1:
                out.append(A.activate(pos))
    out.append(A.FINISH_MARKET)
    _between(s, side, out)
    return out


def _influence_instances(s: RCState, side: int, act: InfluenceAction,
                         probe: bool = False) -> list[Any]:
    """Concrete uses of one Influence action available now (RC-INFL-*); with ``probe``
    the list may stop after the first (enough to know the action can be used)."""
    out: list[Any] = []
    inv = s.inv[side]
    rubles = s.rubles[side]
    e = act.effect
    mats = act.materials or _ALL_MATS
    if e == "sell":
        out.extend(A.sell(m) for m in mats if inv[m])
    elif e == "buy":
        if rubles >= act.price and free_space(s, side) > 0:
            out.extend(A.buy(m) for m in mats if s.supply[m])
    elif e == "deliver":
        if rubles >= act.price:
            found: list[Any] = []
            _deliveries(s, side, act.count, found, probe=True)
            if found:
                out.append(A.HIRE_TEAMSTERS)
    elif e == "gain":
        out.append(A.PERFORM)
    elif e == "swap_tiles":
        if rubles >= act.price:
            out.extend(_SWAPS)
    elif e == "exchange_identical":
        room = free_space(s, side) + (0 if s.opts.exchange_needs_room else act.give)
        if room >= act.take:
            for g in _ALL_MATS:
                if inv[g] >= act.give:
                    give = (g,) * act.give
                    for take in _TAKE_SETS[act.take]:
                        if _supply_has(s, take, give):
                            out.append(A.exchange(give, take))
                            if probe:
                                return out
    elif e == "exchange_upgrade":
        if rubles >= act.price and (free_space(s, side) or not s.opts.exchange_needs_room):
            for g in _ALL_MATS:
                if inv[g]:
                    out.extend(A.upgrade(g, t) for t in _ALL_MATS if t != g and s.supply[t])
    elif e == "activate_tile":
        ws = s.ws[side]
        unused_only = s.opts.merchants_activate == "unused-this-turn"
        for pos in range(6):
            if ws[pos] >= 0 and ws[pos] & 1 and not (unused_only and s.act_used >> pos & 1):
                out.append(A.activate(pos))
    elif e == "discard_different":
        held = [m for m in _ALL_MATS if inv[m]]
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


def current_influence(s: RCState, d: tuple[Any, ...]) -> InfluenceAction:
    return C.influence[s.influence[s.dest // 2]].actions[d[2]]


def _gen_influence(s: RCState, d: tuple[Any, ...]) -> list[Any]:
    side = d[1]
    out = _influence_instances(s, side, current_influence(s, d))
    out.append(A.DONE)
    _between(s, side, out)
    return out


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


def _gen_ivan_claim(s: RCState, d: tuple[Any, ...]) -> list[Any]:
    return [A.ivan_claim(slot) for slot in d[2]]


def _gen_ivan_ornament(s: RCState, d: tuple[Any, ...]) -> list[Any]:
    return [A.ivan_ornament(slot) for slot in d[2]]


_GENERATORS: dict[int, Callable[[RCState, tuple[Any, ...]], list[Any]]] = {
    TURN: _gen_turn,
    PLACE_TILE: _gen_place_tile,
    MARKET: _gen_market,
    INFLUENCE: _gen_influence,
    DELIVER: _gen_deliver,
    JEWELS: _gen_jewels,
    IVAN_CLAIM: _gen_ivan_claim,
    IVAN_ORNAMENT: _gen_ivan_ornament,
}


def legal_actions(s: RCState) -> tuple[Any, ...]:
    """Legal actions of the decision on top of the stack, in generator order."""
    if not s.stack:
        return ()
    d = s.stack[-1]
    return tuple(_GENERATORS[d[0]](s, d))


# --- handlers ------------------------------------------------------------------------------
def _h_claim(s: RCState, a: A.Claim) -> None:
    side = s.side
    s.main_done = True
    if a.from_inventory:
        s.inv_banners[side] -= 1  # RC-INV-2: the space is free for good
    elif s.opts.advanced_workshops:
        ws = list(s.ws[side])
        pos = 4 if ws[4] == BANNER else 5
        ws[pos] = EMPTY
        s.ws[side] = tuple(ws)
        s.out_banners[side] -= 1
    else:
        s.out_banners[side] -= 1
    s.owner[a.slot] = side
    tile = s.ws_tile[a.slot]
    s.ws_tile[a.slot] = -1
    card = C.cards[s.card_of[a.slot]]
    s.log.append(f"{_colour_name(s, side)} claims {card.id} (slot {a.slot}) and takes "
                 f"Workshop tile {C.tiles[tile].id}")
    s.stack[-1] = (PLACE_TILE, side, tile)


def _h_place_tile(s: RCState, a: A.PlaceTile) -> None:
    _, side, tile = s.stack[-1]
    ws = list(s.ws[side])
    pos = a.space if a.space < 4 else (4 if ws[4] == EMPTY else 5)
    ws[pos] = 2 * tile + (1 if a.face_up else 0)
    s.ws[side] = tuple(ws)
    s.stack[-1] = (TURN, side)
    if not a.face_up:
        s.log.append(f"{_colour_name(s, side)} puts the tile face down on "
                     f"{WS_POSITIONS[pos]}")
        return
    advanced = s.opts.advanced_workshops
    cost = (C.advanced_costs if advanced else C.basic_costs)[pos]
    s.rubles[side] -= cost
    if advanced and C.advanced_ornaments[pos] >= 0:  # RC-ADV-3
        kind = C.advanced_ornaments[pos]
        avail = list(s.orn_avail[side])
        avail[kind] += 1
        s.orn_avail[side] = (avail[0], avail[1], avail[2])
        s.log.append(f"{_colour_name(s, side)} unlocks an Ornamentation ({ORNAMENTS[kind]})")
    got = tile_benefit(s, side, tile)
    s.log.append(f"{_colour_name(s, side)} pays {cost} to put the tile face up on "
                 f"{WS_POSITIONS[pos]} and gains {got}")


def _h_simple(s: RCState, a: A.Simple) -> None:
    _SIMPLE_HANDLERS[a.name](s)


def _h_build(s: RCState) -> None:
    s.main_done = True
    s.stack.append((DELIVER, s.side, 3, 0, False))


def _h_end_turn(s: RCState) -> None:
    end_turn(s)


def _h_pass(s: RCState) -> None:
    s.main_done = True
    s.log.append(f"{_colour_name(s, s.side)} passes")


def _h_sell_prestige(s: RCState) -> None:
    side = s.side
    target = lose_pp_target(s, side)
    assert target is not None
    s.score[side] = target
    got = gain_rubles(s, side, 2)
    s.log.append(f"{_colour_name(s, side)} sells 1 Prestige for {got} Rubles")


def _h_reroll(s: RCState, a: A.Reroll) -> None:
    side = s.side
    target = lose_pp_target(s, side)
    assert target is not None
    s.score[side] = target
    s.reroll_used = True
    s.log.append(f"{_colour_name(s, side)} pays 1 Prestige to reroll space {a.space}: "
                 f"{roll_space(s, a.space)}")


def _h_move_die(s: RCState, a: A.MoveDie) -> None:
    side = s.side
    s.main_done = True
    s.rubles[side] -= a.extra
    steps = s.die_val[a.die] + a.extra
    dest = (s.die_pos[a.die] + steps) % 8
    s.die_pos[a.die] = dest
    s.moved_die = a.die
    s.dest = dest
    s.mk_used = 0
    s.stack.append((MARKET, side))
    s.log.append(f"{_colour_name(s, side)} moves the {COLOURS[a.die]} die {steps} "
                 f"space(s) to space {dest}" + (f", paying {a.extra}" if a.extra else ""))


def _h_obtain(s: RCState, a: A.Obtain) -> None:
    side = s.side
    s.mk_used |= 1
    rt = C.resource_tiles[s.tiles[s.dest]]
    got = gain_resource(s, side, rt.resource, a.amount)
    s.log.append(f"{_colour_name(s, side)} obtains {got} {RESOURCES[rt.resource]}")


def _h_use_influence(s: RCState, a: A.UseInfluence) -> None:
    s.mk_used |= 2
    s.stack.append((INFLUENCE, s.side, a.index, 0))
    card = C.influence[s.influence[s.dest // 2]]
    s.log.append(f"{_colour_name(s, s.side)} uses Influence {card.id}: "
                 f"{card.actions[a.index].rule}")


def _h_activate(s: RCState, a: A.Activate) -> None:
    side = s.side
    if s.stack[-1][0] == MARKET:
        s.mk_used |= 4
    else:
        _influence_used(s)
    s.act_used |= 1 << a.position
    got = tile_benefit(s, side, s.ws[side][a.position] >> 1)
    s.log.append(f"{_colour_name(s, side)} activates the {WS_POSITIONS[a.position]} "
                 f"Workshop tile: {got}")


def _h_finish_market(s: RCState) -> None:
    s.stack.pop()
    s.log.append(f"reroll on space {s.dest}: {roll_space(s, s.dest)}")


def _influence_used(s: RCState) -> None:
    """Count one use of the current Influence action; a lightning action ends now."""
    d = s.stack[-1]
    act = current_influence(s, d)
    if act.repeat:
        s.stack[-1] = (d[0], d[1], d[2], d[3] + 1)
    else:
        s.stack.pop()


def _h_sell(s: RCState, a: A.Sell) -> None:
    side = s.side
    act = current_influence(s, s.stack[-1])
    s.inv[side] = _add(s.inv[side], a.material, -1)
    s.supply[a.material] += 1
    got = gain_rubles(s, side, act.price)
    _influence_used(s)
    s.log.append(f"{_colour_name(s, side)} sells 1 {MATERIALS[a.material]} for {got} Rubles")


def _h_buy(s: RCState, a: A.Buy) -> None:
    side = s.side
    act = current_influence(s, s.stack[-1])
    s.rubles[side] -= act.price
    gain_material(s, side, a.material, 1)
    _influence_used(s)
    s.log.append(f"{_colour_name(s, side)} buys 1 {MATERIALS[a.material]} for {act.price}")


def _h_exchange(s: RCState, a: A.Exchange) -> None:
    side = s.side
    for m in a.give:  # RC-AMB-20: inputs leave first
        s.inv[side] = _add(s.inv[side], m, -1)
        s.supply[m] += 1
    for m in a.take:
        gain_material(s, side, m, 1)
    _influence_used(s)
    s.log.append(f"{_colour_name(s, side)} exchanges {A._mats(a.give)} for {A._mats(a.take)}")


def _h_upgrade(s: RCState, a: A.Upgrade) -> None:
    side = s.side
    act = current_influence(s, s.stack[-1])
    s.rubles[side] -= act.price
    s.inv[side] = _add(s.inv[side], a.give, -1)
    s.supply[a.give] += 1
    gain_material(s, side, a.take, 1)
    _influence_used(s)
    s.log.append(f"{_colour_name(s, side)} exchanges 1 Ruble and 1 {MATERIALS[a.give]} "
                 f"for 1 {MATERIALS[a.take]}")


def _h_swap_tiles(s: RCState, a: A.SwapTiles) -> None:
    side = s.side
    act = current_influence(s, s.stack[-1])
    s.rubles[side] -= act.price
    s.tiles[a.a], s.tiles[a.b] = s.tiles[a.b], s.tiles[a.a]
    if s.opts.swap_moves_dice:  # alternative reading of RC-AMB-21
        s.die_pos = [a.b if p == a.a else a.a if p == a.b else p for p in s.die_pos]
    _influence_used(s)
    if s.opts.swap_moves_dice and s.dest in (a.a, a.b):
        # The moved die travelled with its tile: the destination (RC-MARKET-5) follows
        # it, so its reroll (RC-MARKET-7) and the Obtain step still apply to it.
        s.dest = a.b if s.dest == a.a else a.a
    s.log.append(f"{_colour_name(s, side)} swaps the Resource tiles of spaces {a.a} and {a.b}")


def _h_discard(s: RCState, a: A.Discard) -> None:
    side = s.side
    act = current_influence(s, s.stack[-1])
    for m in a.materials:
        s.inv[side] = _add(s.inv[side], m, -1)
        s.supply[m] += 1
    gain_resource(s, side, act.resource, act.amount)
    _influence_used(s)
    s.log.append(f"{_colour_name(s, side)} discards {A._mats(a.materials)} for "
                 f"{act.amount} {_unit(act.resource)}")


def _unit(res: int) -> str:
    return "PP" if res == PP else RESOURCES[res]


def _h_perform(s: RCState) -> None:
    side = s.side
    act = current_influence(s, s.stack[-1])
    if act.effect == "pay_for":
        s.rubles[side] -= act.price
    got = gain_resource(s, side, act.resource, act.amount)
    _influence_used(s)
    s.log.append(f"{_colour_name(s, side)} gains {got} {_unit(act.resource)} ({act.rule})")


def _h_hire_teamsters(s: RCState) -> None:
    side = s.side
    act = current_influence(s, s.stack[-1])
    s.rubles[side] -= act.price
    _influence_used(s)
    s.stack.append((DELIVER, side, act.count, 0, True))  # RC-AMB-15: on top of any Build
    s.log.append(f"{_colour_name(s, side)} pays {act.price} Rubles to the Teamsters")


def _h_done(s: RCState) -> None:
    s.stack.pop()


def _h_deliver(s: RCState, a: A.Deliver) -> None:
    _, side, left, made, team = s.stack[-1]
    s.inv[side] = _add(s.inv[side], a.material, -1)
    s.delivered[a.slot] = _add(s.delivered[a.slot], a.material, 1)
    s.stack[-1] = (DELIVER, side, left - 1, made + 1, team)
    s.log.append(f"{_colour_name(s, side)} delivers 1 {MATERIALS[a.material]} to slot {a.slot}")
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
    s.log.append(f"{_colour_name(s, side)} places a {ORNAMENTS[kind]} on slot {slot} with "
                 f"jewels {A._mats(a.jewels)}: +{pp} PP")


def ornament_prestige(jewels: tuple[int, ...]) -> int:
    """RC-ORN-6: 0, 1, 2 (same colour) or 3 (green and purple)."""
    if len(jewels) < 2:
        return len(jewels)
    return 2 if jewels[0] == jewels[1] else 3


def _h_finish_delivery(s: RCState) -> None:
    s.stack.pop()


def _h_ivan_claim(s: RCState, a: A.IvanClaim) -> None:
    from meeplehall.games.red_cathedral import solo

    s.stack.pop()
    solo.ivan_claim(s, a.slot)
    solo.ivan_finish(s)


def _h_ivan_ornament(s: RCState, a: A.IvanOrnament) -> None:
    from meeplehall.games.red_cathedral import solo

    s.stack.pop()
    solo.ivan_place_ornament(s, a.slot)
    solo.ivan_after_ornament(s)


_SIMPLE_HANDLERS: dict[str, Callable[[RCState], None]] = {
    "build": _h_build,
    "end-turn": _h_end_turn,
    "pass": _h_pass,
    "sell-prestige": _h_sell_prestige,
    "finish-market": _h_finish_market,
    "perform": _h_perform,
    "hire-teamsters": _h_hire_teamsters,
    "done": _h_done,
    "finish-delivery": _h_finish_delivery,
}

_HANDLERS: dict[type, Callable[[RCState, Any], None]] = {
    A.Claim: _h_claim,
    A.PlaceTile: _h_place_tile,
    A.MoveDie: _h_move_die,
    A.Reroll: _h_reroll,
    A.Obtain: _h_obtain,
    A.UseInfluence: _h_use_influence,
    A.Activate: _h_activate,
    A.Sell: _h_sell,
    A.Buy: _h_buy,
    A.Exchange: _h_exchange,
    A.Upgrade: _h_upgrade,
    A.SwapTiles: _h_swap_tiles,
    A.Discard: _h_discard,
    A.Deliver: _h_deliver,
    A.Decorate: _h_decorate,
    A.SetJewels: _h_jewels,
    A.IvanClaim: _h_ivan_claim,
    A.IvanOrnament: _h_ivan_ornament,
    A.Simple: _h_simple,
}

_CLOSERS = (A.END_TURN, A.FINISH_DELIVERY, A.DONE, A.FINISH_MARKET)


def apply_unchecked(s: RCState, action: Any) -> None:
    """Apply a legal action in place, then run every step that needs no choice."""
    if s.final is not None or not s.stack:
        raise IllegalActionError(f"{action} is not legal: the game is over")
    top = s.stack[-1][0]
    if top not in (IVAN_CLAIM, IVAN_ORNAMENT):
        if action is A.SELL_PRESTIGE:
            s.sell_state = 1
        elif s.sell_state == 1 and s.opts.sell_prestige_window == "single":
            s.sell_state = 2  # RC-FREE-1 / RC-AMB-3: the selling moment has passed
    _HANDLERS[type(action)](s, action)
    _settle(s)


def _settle(s: RCState) -> None:
    """Close decisions that have nothing left to decide (auto end of turn, etc.)."""
    while s.stack and s.final is None:
        d = s.stack[-1]
        kind = d[0]
        if kind == DELIVER and d[2] == 0:
            s.stack.pop()
            continue
        if kind in (TURN, DELIVER, INFLUENCE, MARKET) and (kind != TURN or s.main_done):
            if ((kind == TURN or s.opts.free_actions_between_steps)
                    and (s.sell_state != 2 or not s.reroll_used)
                    and lose_pp_target(s, d[1]) is not None):
                break  # a free action is on offer, so this is a real decision
            acts = _GENERATORS[kind](s, d)
            if len(acts) == 1 and acts[0] in _CLOSERS:
                _HANDLERS[type(acts[0])](s, acts[0])
                continue
        break


def end_turn(s: RCState) -> None:
    """RC-TURN-1, RC-END-2: pass the turn clockwise, or score when the game is over."""
    from meeplehall.games.red_cathedral import solo
    from meeplehall.games.red_cathedral.final import final_scoring

    s.turns += 1
    s.main_done = False
    s.sell_state = 0
    s.reroll_used = False
    s.moved_die = -1
    s.dest = -1
    s.mk_used = 0
    s.act_used = 0
    nxt = (s.side + 1) % s.sides
    s.stack.clear()
    if s.end_trigger >= 0 and nxt == s.end_trigger:
        final_scoring(s)
        return
    if s.opts.round_limit and s.turns >= s.opts.round_limit * s.sides:
        s.log.append(f"the round limit ({s.opts.round_limit}) is reached: final scoring")
        final_scoring(s)
        return
    s.side = nxt
    if s.solo and nxt == 1:
        solo.ivan_turn(s)
    else:
        s.stack.append((TURN, nxt))
