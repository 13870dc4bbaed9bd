"""Evaluation of a Red Cathedral position for one seat, in Prestige-point units.

The terms (all from the seat's side of the table):
- Prestige on the track now, plus 0.6 x the partial progress towards the next
  Prestige space (Prestige spaces thin out early on the track, and partial progress is
  lost at the final round-down);
- each claimed, unfinished card: what completing it brings (half its Recognition, a
  fifth of its Rubles, 3 for tower presence and the step towards the end) times
  0.2 + 0.8 x the fraction of its cost already delivered, so claiming pays a little and
  each delivery more than the Material it uses;
- ``DONE`` per completed card (3.5; 9 in the solo game) and ``ORN`` (1.5) per
  Ornamentation of the seat (tower presence, and completing 6 cards ends the game with
  a bonus); in the solo game also ``TOWER`` (1) times the Prestige the towers would pay
  the seat if the game ended now (RC-TOWER-*, RC-2P-1; RC-SOLO-9 scores the solo game
  with the 2-player rule). With 3.5 per card and no tower term the solo bot traded at
  the Market while Ivan completed his six cards and took the towers (mcts at 150
  iterations, 6 seeds: mean margin -15.5 against Ivan; with the solo weights -4.3). With
  more players the solo weights made the one-ply bot much stronger and the search's
  edge over it smaller (mcts-medium won 3 of 8), so they are kept for the solo game;
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

from functools import cache

from meeplehall.games.red_cathedral.components import RP, RUBLES, load
from meeplehall.games.red_cathedral.market import obtain_max
from meeplehall.games.red_cathedral.scoring import tower_payout, tower_presence, track
from meeplehall.games.red_cathedral.state import DELIVER, MARKET, RCState

C = load()
T = track()


# For MCTS (ai/mcts.py): a change of SCALE points in the margin since the root of the
# search is worth a logistic step; a finished game evaluates to FINAL_BONUS plus the final
# margin.
SCALE = 2.0
FINAL_BONUS = 100.0

# Weights of completed cards and towers: (games with players, the solo game). In the
# solo game Ivan completes a card every few turns and ends the game at six, so
# completions and tower majorities weigh more there (docs/ai.md has the measurements).
DONE = (3.5, 9.0)  # per completed card of the seat
ORN = 1.5  # per Ornamentation of the seat
TOWER = (0.0, 1.0)  # times the Prestige the towers would pay the seat if the game ended now


def sides(s: RCState) -> int:
    """Sides rated by ``evaluate``: the seats, plus Ivan in the solo game (side 1)."""
    return s.sides


def evaluate(s: RCState, seat: int) -> float:
    if s.final is not None:
        pp = s.final[0]
        others = [pp[i] for i in range(s.sides) if i != seat]
        return float(100.0 + pp[seat] - max(others))
    value = _track_value(s.score[seat])
    solo = 1 if s.solo else 0
    done = DONE[solo]
    needed = [0] * 6
    for slot, owner in enumerate(s.owner):
        if owner != seat:
            continue
        if s.done[slot]:
            value += done  # tower presence, and a step towards ending the game
            continue
        card = C.cards[s.card_of[slot]]
        got = s.delivered[slot]
        frac = sum(got) / card.size
        value += (0.2 + 0.8 * frac) * (0.5 * card.rp + 0.2 * card.rubles + 3.0)
        for m in range(6):
            needed[m] += card.cost[m] - got[m]
    value += ORN * sum(1 for o in s.orn if o == seat)
    if TOWER[solo]:
        value += TOWER[solo] * _towers(s, seat)
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
    others = [_pp(s.score[i]) for i in range(s.sides) if i != seat]
    if others:
        value -= 0.3 * max(others)
    return value


def _towers(s: RCState, seat: int) -> int:
    """Prestige the towers would pay ``seat`` now (RC-TOWER-*, RC-2P-1, RC-SOLO-9)."""
    players = 2 if s.solo else s.players
    total = 0
    for slots in s.towers:
        value, presence = tower_presence(s.owner, s.done, s.orn, slots)
        if presence.get(seat):
            total += tower_payout(value, presence, players).get(seat, 0)
    return total


@cache
def _pp(score: int) -> int:
    return T.pp(score)


@cache
def _track_value(score: int) -> float:
    """Prestige at ``score`` plus 0.6 x the partial progress towards the next space."""
    value = float(T.pp(score))
    prev = T.prev_prestige(T.next_prestige(score)) or 0
    nxt = T.next_prestige(score)
    if score > prev:
        value += 0.6 * (score - prev) / (nxt - prev)
    return value
