"""Effects shared by every action: gaining and losing resources, rolling dice,
Workshop tile benefits, completing a card (with the Tsar's penalty and the end trigger)
and the free actions on offer.
"""

from __future__ import annotations

from functools import cache

from meeplehall.core.messages import M, Message, term
from meeplehall.games.red_cathedral import actions as A
from meeplehall.games.red_cathedral.components import (
    COLOURS,
    MATERIALS,
    RESOURCES,
    RP,
    RUBLES,
    load,
)
from meeplehall.games.red_cathedral.scoring import track
from meeplehall.games.red_cathedral.state import (
    RCState,
)

C = load()


T = track()


PP = len(RESOURCES)  # resource index meaning Prestige in influence effects


ZERO6 = (0, 0, 0, 0, 0, 0)
ALL_MATS = (0, 1, 2, 3, 4, 5)


def add_count(counts: tuple[int, ...], mat: int, n: int) -> tuple[int, ...]:
    lst = list(counts)
    lst[mat] += n
    return tuple(lst)


_INVENTORY_SPACES = C.free_spaces + C.banners_in_inventory  # with every Banner out


def free_space(s: RCState, side: int) -> int:
    """Empty Inventory spaces (RC-INV-2)."""
    return _INVENTORY_SPACES - s.inv_banners[side] - sum(s.inv[side])


def bank_rubles(s: RCState) -> int:
    if not s.opts.ruble_limit:
        return 1 << 30
    return max(0, s.opts.ruble_limit - sum(s.rubles))


def gain_rubles(s: RCState, side: int, n: int) -> int:
    n = min(n, bank_rubles(s))
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
    if s.opts.prestige_loss == "full-point":
        return T.lose_pp(s.score[side], 1, True)
    return T.prev_prestige(s.score[side])  # what ``lose_pp`` does for 1 Prestige


def gain_material(s: RCState, side: int, mat: int, n: int) -> int:
    """Take up to ``n`` of a Material: limited by supply and Inventory room (RC-GAIN-2/3)."""
    n = min(n, s.supply[mat], free_space(s, side))
    if n > 0:
        s.supply[mat] -= n
        s.inv[side] = add_count(s.inv[side], mat, n)
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


_COLOUR_TERMS = tuple(term(colour) for colour in COLOURS)


def roll_space(s: RCState, space: int) -> tuple[Message, ...]:
    """Reroll every die on a Market space; returns the dice rolled, for the log."""
    rolled = []
    die_val = s.die_val
    for die, pos in enumerate(s.die_pos):
        if pos == space:
            value = die_val[die] = s.rng.randbelow(6) + 1
            rolled.append(M("{colour} {value}", colour=_COLOUR_TERMS[die], value=value))
    return tuple(rolled)


def tile_benefit(s: RCState, side: int, tile: int) -> Message:
    """Gain a Workshop tile's benefit once (RC-WSACT-3)."""
    wt = C.tiles[tile]
    if wt.die >= 0:
        rt = C.resource_tiles[s.tiles[s.die_pos[wt.die]]]
        got = gain_resource(s, side, rt.resource, rt.amount)
        return M("{what} (beside the {colour} die)", what=amount_text(got, rt.resource),
                 colour=term(COLOURS[wt.die]))
    got = gain_resource(s, side, wt.resource, wt.amount)
    return amount_text(got, wt.resource)


def amount_text(n: int, res: int) -> Message:
    """'1 Ruble', '3 Rubles', '2 Recognition', '1 Prestige', '2 wood' (as messages)."""
    if res == RUBLES:
        return M("{n} Ruble", n=n)
    if res == RP:
        return M("{n} Recognition", n=n)
    if res == PP:
        return M("{n} Prestige", n=n)
    return M("{n} {resource}", n=n, resource=term(RESOURCES[res]))


IVAN = term("Ivan")
_SEATS = tuple(M("{who} (seat {n})", who=term(c), n=i) for i, c in enumerate(C.colours))


def colour_name(s: RCState, side: int) -> Message:
    if s.solo and side == 1:
        return IVAN
    return _SEATS[side]


def mats(items: tuple[int, ...]) -> Message:
    """Materials joined by '+' ('wood+brick'), or 'none'."""
    if not items:
        return term("none")
    out = term(MATERIALS[items[-1]])
    for m in reversed(items[:-1]):
        out = M("{a}+{b}", a=term(MATERIALS[m]), b=out)
    return out


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
    if card.rubles and not ivan:
        s.log.append(M("{who} completes {card} (slot {slot}): +{rp} RP, +{rubles}",
                       who=colour_name(s, o), card=card.id, slot=slot + 1, rp=card.rp,
                       rubles=amount_text(card.rubles, RUBLES)))
    else:
        s.log.append(M("{who} completes {card} (slot {slot}): +{rp} RP",
                       who=colour_name(s, o), card=card.id, slot=slot + 1, rp=card.rp))
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
            s.log.append(M("Tsar's penalty: {who} loses {n} RP (unfinished slot {slot})",
                           who=colour_name(s, uo), n=penalty, slot=u + 1))
    # RC-END-1/3/4.
    if s.completed[o] == C.completions_to_end:
        first = s.end_trigger < 0
        if first:
            s.end_trigger = o
            s.log.append(M("{who} completes a 6th card: the game ends after every other "
                           "side has taken one more turn", who=colour_name(s, o)))
        if not s.solo and (first or s.opts.later_sixth_bonus):
            if s.opts.end_bonus_unit == "pp":
                gain_pp(s, o, C.end_bonus)
            else:
                gain_rp(s, o, C.end_bonus)
            s.bonus_given = True
            s.log.append(M("{who} gains the end bonus: +{n} {unit}", who=colour_name(s, o),
                           n=C.end_bonus, unit=term(s.opts.end_bonus_unit.upper())))


@cache
def _rerolls(die_pos: tuple[int, ...]) -> tuple[A.Reroll, ...]:
    """RC-FREE-2: a reroll of each Market space holding dice, in space order."""
    return tuple(A.reroll(space) for space in sorted(set(die_pos)))


def free_actions(s: RCState, side: int, out: list[A.RCAction]) -> None:
    """RC-FREE-1/2, offered only to the side whose turn it is."""
    if lose_pp_target(s, side) is None:
        return
    if s.sell_state != 2:
        out.append(A.SELL_PRESTIGE)
    if not s.reroll_used:
        out.extend(_rerolls(tuple(s.die_pos)))


def between_steps(s: RCState, side: int, out: list[A.RCAction]) -> None:
    if s.opts.free_actions_between_steps:
        free_actions(s, side, out)


def prestige_sale_steps(s: RCState, side: int) -> int:
    """Recognition spaces a Prestige sale moves back when it costs no Prestige (the marker
    stands between two Prestige spaces, RC-SCORE-6 with RC-AMB-4's default), else 0."""
    target = lose_pp_target(s, side)
    if target is None or T.pp(target) != T.pp(s.score[side]):
        return 0
    return s.score[side] - target


def sell_prestige(s: RCState, side: int) -> None:
    """RC-FREE-1: lose 1 Prestige for 2 Rubles."""
    back = prestige_sale_steps(s, side)
    target = lose_pp_target(s, side)
    assert target is not None
    s.score[side] = target
    got = gain_rubles(s, side, 2)
    who = colour_name(s, side)
    if back:
        s.log.append(M("{who} goes back {k} Recognition to the last Prestige space for "
                       "{what} (no Prestige lost)", who=who, k=back,
                       what=amount_text(got, RUBLES)))
    else:
        s.log.append(M("{who} sells 1 Prestige for {what}", who=who,
                       what=amount_text(got, RUBLES)))


def reroll(s: RCState, side: int, space: int) -> None:
    """RC-FREE-2: once per turn, lose 1 Prestige to reroll a Market space."""
    target = lose_pp_target(s, side)
    assert target is not None
    s.score[side] = target
    s.reroll_used = True
    s.log.append(M("{who} pays 1 Prestige to reroll space {n}: {dice}",
                   who=colour_name(s, side), n=space + 1, dice=roll_space(s, space)))
