"""Evaluation of a Red Cathedral position for one seat, in Prestige-point units.

The terms (all from the seat's side of the table):
- Prestige on the track now, plus partial progress towards the next Prestige space;
- 0.5 per Recognition point still to come from claimed, unfinished cards, scaled by the
  fraction of their cost already delivered, plus 1 for holding such a claim;
- an estimate of tower majorities: 2 per completed card and 1.5 per Ornamentation;
- 0.35 per Material in the Inventory (0.5 per jewel) and 0.2 per Ruble (1 Prestige sells
  for 2 Rubles, and leftovers score 1 per 5);
- 1 per face-up Workshop tile (future income);
- during a Market action, the value of the best resources still obtainable, so a die
  move is judged by what it lands on;
- minus 0.5 times the best opponent's track Prestige (or Ivan's), so that denying the
  leader counts a little.
After the game ends the evaluation is the final margin over the best other side.
"""

from __future__ import annotations

from meeplehall.games.red_cathedral.components import RP, RUBLES, load
from meeplehall.games.red_cathedral.market import obtain_max
from meeplehall.games.red_cathedral.scoring import track
from meeplehall.games.red_cathedral.state import MARKET, RCState

C = load()
T = track()
_MAT_VALUE = (0.35, 0.35, 0.35, 0.4, 0.5, 0.5)


def _resource_value(resource: int, amount: int) -> float:
    if resource == RP:
        return 0.5 * amount
    if resource == RUBLES:
        return 0.2 * amount
    return _MAT_VALUE[resource] * amount


def evaluate(s: RCState, seat: int) -> float:
    if s.final is not None:
        pp = s.final[0]
        others = [pp[i] for i in range(s.sides) if i != seat]
        return 100.0 + pp[seat] - max(others)
    score = s.score[seat]
    value = float(T.pp(score))
    nxt = T.next_prestige(score)
    prev = T.prev_prestige(nxt) or 0
    if nxt > prev:
        value += (score - prev) / (nxt - prev) * 0.9 if score > prev else 0.0
    for slot, owner in enumerate(s.owner):
        if owner != seat:
            continue
        card = C.cards[s.card_of[slot]]
        if s.done[slot]:
            value += 2.0
        else:
            frac = sum(s.delivered[slot]) / card.size
            value += 1.0 + frac * (0.5 * card.rp + 0.2 * card.rubles + 2.0)
    value += 1.5 * sum(1 for o in s.orn if o == seat)
    inv = s.inv[seat]
    value += sum(_MAT_VALUE[m] * inv[m] for m in range(6))
    value += 0.2 * s.rubles[seat]
    value += sum(1.0 for v in s.ws[seat] if v >= 0 and v & 1)
    if s.stack and s.stack[-1][0] == MARKET and s.stack[-1][1] == seat and not s.mk_used & 1:
        rt = C.resource_tiles[s.tiles[s.dest]]
        value += _resource_value(rt.resource, obtain_max(s, seat))
    others = [T.pp(s.score[i]) for i in range(s.sides) if i != seat]
    if others:
        value -= 0.5 * max(others)
    return value
