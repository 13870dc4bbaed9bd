"""Evaluation of a Red Cathedral position for one seat, in Prestige-point units.

The terms (all from the seat's side of the table):
- Prestige on the track now, plus 0.6 x the partial progress towards the next
  Prestige space (Prestige spaces thin out early on the track, and partial progress is
  lost at the final round-down);
- each claimed, unfinished card: what completing it brings (half its Recognition, a
  fifth of its Rubles, 3 for tower presence and the step towards the end) times
  0.2 + 0.8 x the fraction of its cost already delivered, so claiming pays a little and
  each delivery more than the Material it uses;
- 3.5 per completed card and 1.5 per Ornamentation of the seat (tower majorities, and
  completing 6 cards ends the game with a bonus);
- Materials: 0.55 each when one of the seat's unfinished cards still needs that type,
  0.2 otherwise (0.4 for jewels, which decorate); Rubles 0.25 each;
- 1 per face-up Workshop tile (future income);
- pending steps of the seat's own turn: the best resources still obtainable in a Market
  action (Recognition counted at 0.3), and 0.5 per delivery a Build can still make
  with Materials in hand, so that a die move or starting a Build is judged by what it
  leads to;
- minus 0.3 times the best other side's Prestige on the track.
After the game ends the evaluation is 100 plus the final margin over the best other side.
"""

from __future__ import annotations

from meeplehall.games.red_cathedral.components import RP, RUBLES, load
from meeplehall.games.red_cathedral.market import obtain_max
from meeplehall.games.red_cathedral.scoring import track
from meeplehall.games.red_cathedral.state import DELIVER, MARKET, RCState

C = load()
T = track()


# For MCTS (ai/mcts.py): a margin of SCALE points is worth a logistic step; a finished
# game evaluates to FINAL_BONUS plus the final margin.
SCALE = 6.0
FINAL_BONUS = 100.0


def sides(s: RCState) -> int:
    """Sides rated by ``evaluate``: the seats, plus Ivan in the solo game (side 1)."""
    return s.sides


def evaluate(s: RCState, seat: int) -> float:
    if s.final is not None:
        pp = s.final[0]
        others = [pp[i] for i in range(s.sides) if i != seat]
        return float(100.0 + pp[seat] - max(others))
    score = s.score[seat]
    value = float(T.pp(score))
    prev = T.prev_prestige(T.next_prestige(score)) or 0
    nxt = T.next_prestige(score)
    if score > prev:
        value += 0.6 * (score - prev) / (nxt - prev)
    needed = [0] * 6
    for slot, owner in enumerate(s.owner):
        if owner != seat:
            continue
        if s.done[slot]:
            value += 3.5  # tower presence, and a step towards ending the game
            continue
        card = C.cards[s.card_of[slot]]
        got = s.delivered[slot]
        frac = sum(got) / card.size
        value += (0.2 + 0.8 * frac) * (0.5 * card.rp + 0.2 * card.rubles + 3.0)
        for m in range(6):
            needed[m] += card.cost[m] - got[m]
    value += 1.5 * sum(1 for o in s.orn if o == seat)
    inv = s.inv[seat]
    deliverable = 0
    for m in range(6):
        useful = min(inv[m], needed[m])
        deliverable += useful
        value += 0.55 * useful + (0.4 if m >= 4 else 0.2) * (inv[m] - useful)
    value += 0.25 * s.rubles[seat]
    value += sum(1.0 for v in s.ws[seat] if v >= 0 and v & 1)
    if s.stack and s.stack[-1][1] == seat:
        top = s.stack[-1]
        if top[0] == MARKET and not s.mk_used & 1:
            rt = C.resource_tiles[s.tiles[s.dest]]
            n = obtain_max(s, seat)
            if rt.resource == RP:
                value += 0.3 * n
            elif rt.resource == RUBLES:
                value += 0.25 * n
            else:
                value += (0.55 if needed[rt.resource] else 0.2) * n
        elif top[0] == DELIVER:
            value += 0.5 * min(top[2], deliverable)
    others = [T.pp(s.score[i]) for i in range(s.sides) if i != seat]
    if others:
        value -= 0.3 * max(others)
    return value
