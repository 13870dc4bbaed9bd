"""The forward model: ``legal_actions`` and ``apply`` for every decision.

One generator per decision kind (``_GENERATORS``) and one handler per action type
(``_HANDLERS``), as STYLE.md section 3 asks. Steps with no choice (rerolls, refills,
Ivan's turn, the end of a turn with nothing left to do) happen inside ``apply``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeplehall.core.messages import M, term
from meeplehall.core.protocol import IllegalActionError
from meeplehall.games.red_cathedral import actions as A
from meeplehall.games.red_cathedral.build import (
    _deliveries,
    _gen_deliver,
    _gen_jewels,
    _h_build,
    _h_decorate,
    _h_deliver,
    _h_finish_delivery,
    _h_jewels,
)
from meeplehall.games.red_cathedral.components import (
    ORNAMENTS,
    RUBLES,
    WS_POSITIONS,
)
from meeplehall.games.red_cathedral.effects import (
    C,
    T,
    _between,
    _colour_name,
    _free_actions,
    amount_text,
    gain_rubles,
    lose_pp_target,
    roll_space,
    tile_benefit,
)
from meeplehall.games.red_cathedral.market import (
    _gen_influence,
    _gen_market,
    _h_activate,
    _h_buy,
    _h_discard,
    _h_done,
    _h_exchange,
    _h_finish_market,
    _h_hire_teamsters,
    _h_move_die,
    _h_obtain,
    _h_perform,
    _h_sell,
    _h_swap_tiles,
    _h_upgrade,
    _h_use_influence,
    _moves,
)
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
    s.log.append(M("{who} claims {card} (slot {slot}) and takes Workshop tile {tile}",
                   who=_colour_name(s, side), card=card.id, slot=a.slot, tile=C.tiles[tile].id))
    s.stack[-1] = (PLACE_TILE, side, tile)


def _h_place_tile(s: RCState, a: A.PlaceTile) -> None:
    _, side, tile = s.stack[-1]
    ws = list(s.ws[side])
    pos = a.space if a.space < 4 else (4 if ws[4] == EMPTY else 5)
    ws[pos] = 2 * tile + (1 if a.face_up else 0)
    s.ws[side] = tuple(ws)
    s.stack[-1] = (TURN, side)
    if not a.face_up:
        s.log.append(M("{who} puts the tile face down on {position}",
                       who=_colour_name(s, side), position=term(WS_POSITIONS[pos])))
        return
    advanced = s.opts.advanced_workshops
    cost = (C.advanced_costs if advanced else C.basic_costs)[pos]
    s.rubles[side] -= cost
    if advanced and C.advanced_ornaments[pos] >= 0:  # RC-ADV-3
        kind = C.advanced_ornaments[pos]
        avail = list(s.orn_avail[side])
        avail[kind] += 1
        s.orn_avail[side] = (avail[0], avail[1], avail[2])
        s.log.append(M("{who} unlocks an Ornamentation ({ornament})",
                       who=_colour_name(s, side), ornament=term(ORNAMENTS[kind])))
    got = tile_benefit(s, side, tile)
    s.log.append(M("{who} pays {cost} to put the tile face up on {position} and gains {got}",
                   who=_colour_name(s, side), cost=cost, position=term(WS_POSITIONS[pos]),
                   got=got))


def _h_simple(s: RCState, a: A.Simple) -> None:
    _SIMPLE_HANDLERS[a.name](s)


def _h_end_turn(s: RCState) -> None:
    end_turn(s)


def _h_pass(s: RCState) -> None:
    s.main_done = True
    s.log.append(M("{who} passes", who=_colour_name(s, s.side)))


def prestige_sale_steps(s: RCState, side: int) -> int:
    """Recognition spaces a Prestige sale moves back when it costs no Prestige (the marker
    stands between two Prestige spaces, RC-SCORE-6 with RC-AMB-4's default), else 0."""
    target = lose_pp_target(s, side)
    if target is None or T.pp(target) != T.pp(s.score[side]):
        return 0
    return s.score[side] - target


def _h_sell_prestige(s: RCState) -> None:
    side = s.side
    back = prestige_sale_steps(s, side)
    target = lose_pp_target(s, side)
    assert target is not None
    s.score[side] = target
    got = gain_rubles(s, side, 2)
    who = _colour_name(s, side)
    if back:
        s.log.append(M("{who} goes back {k} Recognition to the last Prestige space for "
                       "{what} (no Prestige lost)", who=who, k=back,
                       what=amount_text(got, RUBLES)))
    else:
        s.log.append(M("{who} sells 1 Prestige for {what}", who=who,
                       what=amount_text(got, RUBLES)))


def _h_reroll(s: RCState, a: A.Reroll) -> None:
    side = s.side
    target = lose_pp_target(s, side)
    assert target is not None
    s.score[side] = target
    s.reroll_used = True
    s.log.append(M("{who} pays 1 Prestige to reroll space {n}: {dice}",
                   who=_colour_name(s, side), n=a.space, dice=roll_space(s, a.space)))


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
        s.log.append(M("the round limit ({n}) is reached: final scoring",
                       n=s.opts.round_limit))
        final_scoring(s)
        return
    s.side = nxt
    if s.solo and nxt == 1:
        solo.ivan_turn(s)
    else:
        s.stack.append((TURN, nxt))
