"""Ivan Yakovlevich, the solo automaton (RC-SOLO-*, RC-IVAN-*, RC-IVACT-*).

The engine plays Ivan inside ``apply``: ``decisions.ivan_turn`` runs his turn with the
steps below. Where the rulebook lets the human choose among several cards for Ivan, the
human seat gets an ``ivan-claim`` / ``ivan-ornament`` decision (``decisions.py``).
"""

from __future__ import annotations

from meeplehall.core.messages import M, term
from meeplehall.games.red_cathedral.components import COLOURS, IVAN_CARDS, RP, load
from meeplehall.games.red_cathedral.effects import complete_card, gain_pp, gain_rp, roll_space
from meeplehall.games.red_cathedral.market import has_complete_set
from meeplehall.games.red_cathedral.state import RCState

C = load()
IVAN = 1
ORNAMENT_SEQUENCE = (0, 1, 1, 2)  # RC-IVAN-ORN: Door, Arch, Arch, Cross
REC, INV, TRANS, CLAIM, BUILD = range(5)


def ornament_candidates(s: RCState) -> list[int]:
    """RC-IVAN-0/RC-IVAN-ORN: the completed cards without an Ornamentation that can take
    his next one (the human's first, else his own); none once the sequence is done."""
    if s.iv_orn >= len(ORNAMENT_SEQUENCE):
        return []
    kind = ORNAMENT_SEQUENCE[s.iv_orn]
    candidates: list[int] = []
    for owner in (0, IVAN):  # the human's completed cards first
        candidates = [slot for slot in range(len(s.owner))
                      if s.done[slot] and s.orn[slot] < 0 and s.owner[slot] == owner
                      and C.cards[s.card_of[slot]].kind == kind]
        if candidates:
            break
    return candidates


def ivan_place_ornament(s: RCState, slot: int) -> None:
    kind = ORNAMENT_SEQUENCE[s.iv_orn]
    s.orn[slot] = IVAN
    s.iv_orn += 1
    s.orn_placed[IVAN] += 1
    gain_pp(s, IVAN, s.opts.ivan_ornament_pp)  # RC-AMB-9
    s.log.append(M("Ivan places an Ornamentation on slot {slot} (+{pp} PP); next in "
                   "sequence: {ornament} done", slot=slot + 1, pp=s.opts.ivan_ornament_pp,
                   ornament=term(("door", "arch", "cross")[kind])))


def reshuffle(s: RCState) -> None:
    """RC-IVAN-0: his five die tiles are shuffled and laid face up."""
    s.rng.shuffle(s.iv_tiles)
    s.iv_up = [True] * 5
    s.log.append(M("Ivan reshuffles his tiles: {tiles}", tiles=tuple(
        M("{card}={colour}", card=term(IVAN_CARDS[s.ivan_order[i]]),
          colour=term(COLOURS[C.tiles[t].die])) for i, t in enumerate(s.iv_tiles))))


def ivan_card(s: RCState) -> list[int]:
    """RC-IVAN-1..5: leftmost face-up card, move its die, flip it, do the card. Returns
    the cards his Claim may go on when the human chooses among them (then the Claim waits
    for that choice), else an empty list: the card is carried out."""
    i = s.iv_up.index(True)
    die = C.tiles[s.iv_tiles[i]].die
    die_moved = _ivan_move(s, die)
    if die_moved or s.opts.ivan_flip_when_skipped:
        s.iv_up[i] = False  # RC-IVAN-4: by default even when the move was skipped
    card = s.ivan_order[i]
    s.iv_next = card
    if card == REC:
        gain_rp(s, IVAN, C.ivan_amounts["recognition"])
        s.log.append(M("Ivan: Recognition, +{n} RP", n=C.ivan_amounts["recognition"]))
    elif card == INV:
        _ivan_inventory(s)
    elif card == TRANS:
        s.iv_build = tuple(a + b for a, b in zip(s.iv_build, s.iv_inv, strict=True))
        moved = sum(s.iv_inv)
        s.iv_inv = (0, 0, 0, 0, 0, 0)
        s.log.append(M("Ivan: Transport moves {n} Materials to his Build card", n=moved))
    elif card == BUILD:
        _ivan_build(s)
    elif card == CLAIM:
        if s.iv_banners <= 0:
            s.log.append(M("Ivan: Claim, but he has no Banner left"))
        else:
            candidates = ivan_claim_candidates(s)
            if len(candidates) > 1 and s.opts.ivan_choice == "human":
                return candidates
            if candidates:
                ivan_claim(s, candidates[0])
    return []


def _ivan_move(s: RCState, die: int) -> bool:
    """RC-IVAN-2/3: pips only; skipped onto a full space; Recognition only."""
    start = s.die_pos[die]
    dest = (start + s.die_val[die]) % 8
    if s.die_pos.count(dest) >= 3:
        s.log.append(M("Ivan cannot move the {colour} die (space {n} is full)",
                       colour=term(COLOURS[die]), n=dest + 1))
        return False
    s.die_pos[die] = dest
    dice = s.die_pos.count(dest)
    rp = 0
    rt = C.resource_tiles[s.tiles[dest]]
    if rt.resource == RP:
        rp += rt.amount * (dice if s.opts.ivan_rp_multiplied else 1)
    best = 0
    for act in C.influence[s.influence[dest // 2]].actions:
        if act.resource == RP and (act.effect == "gain" or (
                act.effect == "complete_set" and has_complete_set(s, IVAN))):
            best = max(best, act.amount)
    rp += best
    gain_rp(s, IVAN, rp)
    colour = term(COLOURS[die])
    if s.opts.ivan_rerolls:
        rolled = roll_space(s, dest)
        s.log.append(M("Ivan moves the {colour} die to space {n}, +{rp} RP; reroll: {dice}",
                       colour=colour, n=dest + 1, rp=rp, dice=rolled) if rp else
                     M("Ivan moves the {colour} die to space {n}; reroll: {dice}",
                       colour=colour, n=dest + 1, dice=rolled))
    else:
        s.log.append(M("Ivan moves the {colour} die to space {n}, +{rp} RP",
                       colour=colour, n=dest + 1, rp=rp) if rp else
                     M("Ivan moves the {colour} die to space {n}", colour=colour, n=dest + 1))
    return True


def _ivan_inventory(s: RCState) -> None:
    """RC-IVACT-INV: 4 Materials from the largest pile(s) of the supply."""
    amount = C.ivan_amounts["inventory"]
    inv = list(s.iv_inv)
    need = amount
    while need > 0 and any(s.supply):
        # Ties go wood, brick, stone, gold, green, purple (RC-AMB-6).
        m = max(range(6), key=lambda k: (s.supply[k], -k))
        # 'single-pile' (the seed): all from the largest pile, the next one only if it
        # runs out; 'one-at-a-time' (the reference): the largest pile for each Material.
        n = min(need, s.supply[m]) if s.opts.ivan_inventory_take == "single-pile" else 1
        s.supply[m] -= n
        inv[m] += n
        need -= n
    s.log.append(M("Ivan: Inventory, his card now holds {n} Materials", n=sum(inv)))
    s.iv_inv = tuple(inv)


def _ivan_build(s: RCState) -> None:
    """RC-IVACT-BUILD: count only, in scan order; surplus stays on the Build card."""
    build = list(s.iv_build)
    total = sum(build)
    if not total:
        s.log.append(M("Ivan: Build, but his Build card is empty"))
        return
    order = sorted((slot for slot in range(len(s.owner))
                    if s.owner[slot] == IVAN and not s.done[slot]),
                   key=(lambda x: (s.slot_level[x], s.slot_tower[x]))
                   if s.opts.ivan_build_scan == "rows"
                   else (lambda x: (s.slot_tower[x], s.slot_level[x])))
    for slot in order:
        need = C.cards[s.card_of[slot]].size - sum(s.delivered[slot])
        got = list(s.delivered[slot])
        while need > 0 and any(build):
            m = next(k for k in range(6) if build[k])
            build[m] -= 1
            got[m] += 1
            need -= 1
        s.delivered[slot] = tuple(got)
        if need == 0:
            s.iv_build = tuple(build)
            complete_card(s, slot)
        if not any(build):
            break
    s.iv_build = tuple(build)
    s.log.append(M("Ivan: Build, {n} Materials delivered, {m} stay on his Build card",
                   n=total - sum(build), m=sum(build)))


def ivan_claim_candidates(s: RCState) -> list[int]:
    """RC-IVACT-CLAIM priorities: above the human's cards, a free Base, then any."""
    owner = s.owner
    free = [slot for slot in range(len(owner)) if owner[slot] < 0]
    above_human = [slot for slot in free
                   if s.slot_level[slot] > 0 and owner[slot - 1] == 0]
    if above_human:
        return above_human
    bases = [slot for slot in free if s.slot_level[slot] == 0]
    if bases:
        return bases
    if s.opts.ivan_fallback_claim == "available":  # the reference's reading (RC-AMB-18)
        return [slot for slot in free
                if all(owner[k] >= 0 for k in range(slot - s.slot_level[slot], slot))]
    return free  # the seed: "any Cathedral card"


def ivan_claim(s: RCState, slot: int) -> None:
    """Place Ivan's Banner; he gains a Recognition tile's value, the tile is discarded."""
    s.owner[slot] = IVAN
    s.iv_banners -= 1
    tile = s.ws_tile[slot]
    s.ws_tile[slot] = -1
    text = M("Ivan claims slot {slot}", slot=slot + 1)
    if tile >= 0:
        wt = C.tiles[tile]
        if wt.resource == RP:
            gain_rp(s, IVAN, wt.amount)
            text = M("Ivan claims slot {slot} and gains {n} RP from its tile; the tile goes "
                     "to the box", slot=slot + 1, n=wt.amount)
        else:
            text = M("Ivan claims slot {slot}; the tile goes to the box", slot=slot + 1)
    s.log.append(text)
