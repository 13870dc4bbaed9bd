"""Evaluation of a Red Cathedral position for one seat, in Prestige-point units.

The terms (all from the seat's side of the table):
- Prestige on the track now, plus 0.6 x the partial progress towards the next
  Prestige space (Prestige spaces thin out early on the track, and partial progress is
  lost at the final round-down); in the solo game the human's track is rated where the
  marker is expected to stand at the end (``SOLO_GAIN``), so a step is worth what it adds
  there;
- each claimed, unfinished card: what completing it brings (half its Recognition, a
  fifth of its Rubles, 3 for tower presence and the step towards the end) times
  ``CLAIMED`` + (1 - ``CLAIMED``) x the fraction of its cost already delivered (``CLAIMED``
  0.2 with players, 0.15 in the solo game), so claiming pays a little and each delivery
  more than the Material it uses; in the solo game also ``NEAR`` x ``DONE`` x the square
  of that delivered fraction, so that finishing one card beats spreading deliveries;
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
  0.2 otherwise (0.4 for jewels, which decorate); while the Inventory is full and the
  cards lack a Material the seat does not hold, ``BLOCKED`` (0.6) off per spare Material
  in the way (RC-INV-3: nothing may be discarded); Rubles 0.25 each;
- ``WORKSHOP`` (1) per face-up Workshop tile (future income);
- pending steps of the seat's own turn: the best resources still obtainable in a Market
  action (Recognition counted at ``MARKET_RP``, 0.3), and 0.5 per delivery a Build can still make
  with Materials in hand, so that a die move or starting a Build is judged by what it
  leads to;
- minus ``RIVAL`` (0.3) times the best other side's Prestige on the track;
- with players, when the seat leads on the track: up to ``CLOSE`` per step towards the
  end of the game (completed cards, and a smaller share for unfinished cards' costs
  delivered or in hand), so that a seat far ahead closes the game out (RC-END-1).
After the game ends the evaluation is 100 plus the final margin over the best other side.
"""

from __future__ import annotations

from functools import cache

from meeplehall.ai.evaluator import BaseEvaluator
from meeplehall.games.red_cathedral.components import RP, RUBLES, load
from meeplehall.games.red_cathedral.decisions import Deliver, Market
from meeplehall.games.red_cathedral.effects import free_space
from meeplehall.games.red_cathedral.market import obtain_max
from meeplehall.games.red_cathedral.scoring import tower_payout, tower_presence, track
from meeplehall.games.red_cathedral.state import RCState

C = load()
T = track()
# per card: the number of Materials it costs, and what completing it brings (half its
# Recognition, a fifth of its Rubles, 3 for tower presence and the step towards the end)
_CARD_SIZE = [card.size for card in C.cards]
_CARD_WORTH = [0.5 * card.rp + 0.2 * card.rubles + 3.0 for card in C.cards]


# For MCTS (ai/mcts.py): a change of SCALE points in the margin since the root of the
# search is worth a logistic step; a finished game evaluates to FINAL_BONUS plus the margin.
SCALE = 2.0
FINAL_BONUS = 100.0
# For the one-ply and planner bots (``evaluate_play``): a won solo game is worth this much
# more than any unfinished position, a lost one this much less.
FINAL_RESULT = 1000.0

# Pairs are (games with players, the solo game): against Ivan, who completes a card every
# few turns and ends the game at six, completions and tower majorities weigh more.
DONE = (3.5, 9.0)  # per completed card of the seat
ORN = 1.5  # per Ornamentation of the seat
TOWER = (0.0, 1.0)  # times the Prestige the towers would pay the seat if the game ended now
PARTIAL = (0.6, 1.0)  # per whole step of progress towards the next Prestige space
RUBLE = (0.25, 0.25)  # per Ruble
NEED = (0.55, 0.8)  # per Material that one of the seat's unfinished cards still needs
SPARE_JEWEL = 0.4  # per other jewel (jewels decorate)
SPARE = 0.2  # per other Material
# The human's track in the solo game is rated where the marker is expected to stand at
# the end (Recognition is rarely lost and Prestige spaces come closer together further
# on): SOLO_GAIN[side] spaces per round still to play, the game lasting SOLO_ROUNDS rounds
# (Ivan's sixth card). Ivan is rated where he stands.
SOLO_GAIN = (1.5, 0.0)
SOLO_ROUNDS = 36.0
# Off per spare Material while the Inventory is full and a card still needs a Material
# the seat lacks (RC-INV-3: nothing may be discarded to make room).
BLOCKED = 0.6
WORKSHOP = (1.0, 1.5)  # per face-up Workshop tile of the seat (future income)
# Share of a claimed card's worth counted before any delivery (the rest comes with each
# delivery): a claim alone scores nothing (RC-TOWER-1) and, solo, draws Ivan's next claim.
CLAIMED = (0.2, 0.15)
# Solo: NEAR x DONE x (delivered share)^2 more per claimed, unfinished card, so that a card
# near completion is worth more than the same deliveries spread over several cards (a
# linear share let the bot claim six cards and fill them side by side while Ivan completed
# his, and leave cheap cards undelivered for the whole game).
NEAR = (0.0, 0.5)
MARKET_RP = 0.3  # per Recognition still obtainable in the Market action under way
RIVAL = 0.3  # times the best other side's Prestige on the track, taken off
# Closing out a won game (with players): the seat's progress towards the end (completed
# cards, plus CLOSE_PART x each unfinished card's delivered share, Materials in hand
# counting CLOSE_HAND each) is worth CLOSE per card when the seat leads by CLOSE_LEAD
# Prestige or more (proportionally less below, nothing when behind), so that a seat far
# ahead fetches its last Materials instead of taking Recognition turn after turn. From
# CLOSE_LATE turns per player on it applies in full to every seat, one more time every
# CLOSE_GROW turns: a card three quarters delivered is otherwise rated about as high as a
# completed one, and two players who both live off the Market would never end the game
# (RC-END-1).
CLOSE = 6.0
CLOSE_LATE = 30
CLOSE_GROW = 5.0
CLOSE_LEAD = 10.0
CLOSE_PART = 0.5
CLOSE_HAND = 0.5


def sides(s: RCState) -> int:
    """Sides rated by ``evaluate``: the seats, plus Ivan in the solo game (side 1)."""
    return s.sides


def evaluate(s: RCState, seat: int) -> float:
    if s.final is not None:
        pp = s.final[0]
        others = [pp[i] for i in range(s.sides) if i != seat]
        return float(100.0 + pp[seat] - max(others))
    solo = 1 if s.solo else 0
    partial = PARTIAL[solo]
    ahead = _solo_ahead(s, seat) if solo else 0
    value = _track_value_w(s.score[seat] + ahead, partial)
    if ahead:  # less what the expected gain alone is worth (the same within a turn)
        value -= _track_value_w(2 + ahead, partial) - _track_value_w(2, partial)
    done = DONE[solo]
    claimed = CLAIMED[solo]
    needed = [0] * 6
    inv = s.inv[seat]
    others = [_pp(s.score[i]) for i in range(s.sides) if i != seat]
    best = max(others) if others else 0
    lead = _pp(s.score[seat]) - best if others and not solo else 0
    # the share of CLOSE that applies: by the lead, or whole and growing once the game
    # runs long
    close = 0.0
    if others and not solo:
        late = s.turns / s.sides - CLOSE_LATE
        close = 1.0 + late / CLOSE_GROW if late >= 0 else min(1.0, lead / CLOSE_LEAD)
    closing = 0.0  # progress towards the end (CLOSE), counted only when it is used
    for slot, owner in enumerate(s.owner):
        if owner != seat:
            continue
        if s.done[slot]:
            value += done  # tower presence, and a step towards ending the game
            closing += 1.0
            continue
        card_id = s.card_of[slot]
        size, worth = _CARD_SIZE[card_id], _CARD_WORTH[card_id]
        cost = C.cards[card_id].cost
        got = s.delivered[slot]
        delivered = sum(got)
        value += (claimed + (1.0 - claimed) * delivered / size) * worth
        if NEAR[solo]:
            value += NEAR[solo] * done * (delivered / size) ** 2
        hand = 0
        for m in range(6):
            short = cost[m] - got[m]
            if short:
                needed[m] += short
                if close > 0 and inv[m]:
                    hand += short if short < inv[m] else inv[m]
        if close > 0:
            closing += CLOSE_PART * (delivered + CLOSE_HAND * hand) / size
    value += ORN * sum(1 for o in s.orn if o == seat)
    if TOWER[solo]:
        value += TOWER[solo] * _towers(s, seat)
    deliverable = 0
    need = NEED[solo]
    missing = spare = 0
    for m in range(6):
        useful = min(inv[m], needed[m])
        deliverable += useful
        missing += needed[m] - useful
        spare += inv[m] - useful
        value += need * useful + (SPARE_JEWEL if m >= 4 else SPARE) * (inv[m] - useful)
    if missing and spare and free_space(s, seat) <= 0:
        # a full Inventory (RC-INV-2, RC-INV-3): each spare Material stands in the way of
        # one the seat's cards still need
        value -= BLOCKED * min(missing, spare)
    value += RUBLE[solo] * s.rubles[seat]
    value += WORKSHOP[solo] * sum(1 for v in s.ws[seat] if v >= 0 and v & 1)
    if s.stack and s.stack[-1].seat == seat:
        top = s.stack[-1]
        if isinstance(top, Market) and not s.mk_used & 1:
            rt = C.resource_tiles[s.tiles[s.dest]]
            n = obtain_max(s, seat)
            if rt.resource == RP:
                value += MARKET_RP * n
            elif rt.resource == RUBLES:
                value += RUBLE[solo] * n
            else:
                value += (need if needed[rt.resource] else SPARE) * n
        elif isinstance(top, Deliver):
            value += 0.5 * min(top.left, deliverable)
    if others:
        value -= RIVAL * best
        if close > 0:
            value += CLOSE * close * closing
    return value


# The rollout check's rating in the solo game (``check_rating``, mcts-hard's in
# ``ai/ladder.py``): the log-odds that the seat wins, a logistic regression on the features
# of ``check_features``, fitted to 300 planner games against Ivan (seeds 20000-20299, 165
# won; every position at the start of one of the human's turns, 8,746 of them, labelled
# with that game's result; held-out log-loss 0.549, the margin alone 0.594), refitted by
# ``python -m tools.fit_check --games 300 --seed 20000``. "margin" is the seat's
# ``evaluate`` less the best other side's, "final" the final margin if the game were
# scored now (``final_margins``), "done"/"rival_done" the cards each has completed,
# "towers"/"rival_towers" what the towers would pay each now, "phase" ``turns`` / 60.
CHECK_WIN: dict[str, float] = {
    "const": -0.18503431326170025, "phase": -4.402324536033692,
    "margin": 0.11271849130653289, "final": 0.14141348432257186,
    "done": -0.5437802942082192, "rival_done": 1.1705303002264327,
    "towers": -0.10004980042885164, "rival_towers": 0.04376656123182915,
}


def check_features(s: RCState, seat: int) -> dict[str, float]:
    """The features ``check_rating`` weighs (``CHECK_WIN``), for an unfinished position."""
    rated = {i: evaluate(s, i) for i in range(s.sides)}
    rival = max((i for i in rated if i != seat), key=rated.__getitem__)
    return {
        "const": 1.0, "phase": s.turns / 60.0,
        "margin": rated[seat] - rated[rival],
        "final": final_margins(s)[seat],
        "done": float(s.completed[seat]), "rival_done": float(s.completed[rival]),
        "towers": float(_towers(s, seat)), "rival_towers": float(_towers(s, rival)),
    }


def check_rating(s: RCState, seat: int) -> float:
    """The log-odds that ``seat`` wins the solo game from this unfinished position
    (``CHECK_WIN``); what mcts-hard's rollout check compares its candidates by."""
    f = check_features(s, seat)
    return sum(w * f[k] for k, w in CHECK_WIN.items())


def evaluate_play(s: RCState, seat: int) -> float:
    """``evaluate`` on the scale the one-ply and planner bots compare positions on.

    In the solo game a finished game is worth ``FINAL_RESULT`` more than any unfinished
    position when the seat wins and as much less when it loses (plus the final margin,
    to order results):
    ``evaluate``'s ``FINAL_BONUS + margin`` made ending the game look better than any
    unfinished position even when it lost it, so the bots ended solo games against Ivan
    as soon as they could, however far behind (RC-END-1, RC-SOLO-8).
    """
    if s.final is None or not s.solo:
        # with other players the bots end the game when they can (two bots that both
        # refused to end a game they were losing could play on for ever); in the solo
        # game Ivan ends it himself with his sixth card
        return evaluate(s, seat)
    pp: tuple[int, ...] = s.final[0]
    keys = [(pp[i], s.completed[i], s.orn_placed[i]) for i in range(s.sides)]  # RC-WIN-2
    best_other = max(keys[i] for i in range(s.sides) if i != seat)
    margin = float(pp[seat] - best_other[0])
    if keys[seat] > best_other:
        return FINAL_RESULT + margin
    if keys[seat] < best_other:
        return -FINAL_RESULT + margin
    return margin


def _solo_ahead(s: RCState, side: int) -> int:
    """Track spaces the side is expected to gain before the solo game ends (``SOLO_GAIN``
    per round left of ``SOLO_ROUNDS``; ``turns`` counts the human's and Ivan's turns)."""
    left = SOLO_ROUNDS - s.turns / 2
    return round(SOLO_GAIN[side] * left) if left > 0 else 0


def final_margins(s: RCState) -> list[float]:
    """Each side's final margin if the game were scored now (RC-FINAL-*, RC-SOLO-9):
    the search measures a finished game's margin from this, at its root, rather than
    from the heuristic's margin (which counts unfinished cards and future income)."""
    from meeplehall.games.red_cathedral.final import final_scoring

    if s.final is None:
        s = s.clone()
        final_scoring(s)
    assert s.final is not None
    pp: tuple[int, ...] = s.final[0]
    return [float(pp[i] - max(pp[j] for j in range(s.sides) if j != i))
            for i in range(s.sides)]


# Tower payouts by (towers, sides, players, owners, completions, Ornamentations; the solo
# game is the one with more sides than players): they change only when a card is
# completed, claimed or ornamented, so a search meets the same few many times.
_TOWER_MEMO: dict[tuple[object, ...], tuple[int, ...]] = {}
_TOWER_MEMO_MAX = 1 << 16


def _towers(s: RCState, seat: int) -> int:
    """Prestige the towers would pay ``seat`` now (RC-TOWER-*, RC-2P-1, RC-SOLO-9)."""
    key = (s.towers, s.sides, s.players, tuple(s.owner), tuple(s.done), tuple(s.orn))
    paid = _TOWER_MEMO.get(key)
    if paid is None:
        players = 2 if s.solo else s.players
        totals = [0] * s.sides
        for slots in s.towers:
            value, presence = tower_presence(s.owner, s.done, s.orn, slots)
            for side, pp in tower_payout(value, presence, players).items():
                totals[side] += pp
        paid = tuple(totals)
        if len(_TOWER_MEMO) >= _TOWER_MEMO_MAX:
            _TOWER_MEMO.clear()
        _TOWER_MEMO[key] = paid
    return paid[seat]


@cache
def _pp(score: int) -> int:
    return T.pp(score)


def _track_value(score: int) -> float:
    return _track_value_w(score, PARTIAL[0])


@cache
def _track_value_w(score: int, partial: float) -> float:
    """Prestige at ``score`` plus ``partial`` x the progress towards the next space."""
    value = float(T.pp(score))
    prev = T.prev_prestige(T.next_prestige(score)) or 0
    nxt = T.next_prestige(score)
    if score > prev:
        value += partial * (score - prev) / (nxt - prev)
    return value


# Strategy profiles for balance studies (``python -m tools.study``): weights, in
# Prestige per unit, added to ``evaluate_play`` before the game ends: ``done`` per
# completed card, ``deliver`` per claimed card's share of its cost delivered, ``claim``
# per card claimed and unfinished, ``ws`` per face-up Workshop tile, ``orn`` per
# Ornamentation placed, ``track`` per Recognition space on the track, ``rubles`` per Ruble.
PROFILES: dict[str, dict[str, float]] = {
    "balanced": {},
    "builder": {"done": 4.0, "deliver": 3.0},
    "farmer": {"claim": -6.0, "track": 0.25, "rubles": 0.1},
    "workshop": {"ws": 2.5},
    "decorator": {"orn": 3.0, "done": 1.0},
}


def profile_value(s: RCState, seat: int, w: dict[str, float]) -> float:
    """``evaluate_play`` plus the profile weights ``w`` while the game is unfinished."""
    value = evaluate_play(s, seat)
    if not w or s.final is not None:
        return value
    claimed = delivered = 0.0
    for slot, owner in enumerate(s.owner):
        if owner == seat and not s.done[slot]:
            claimed += 1
            delivered += sum(s.delivered[slot]) / _CARD_SIZE[s.card_of[slot]]
    value += w.get("done", 0.0) * s.completed[seat]
    value += w.get("deliver", 0.0) * delivered
    value += w.get("claim", 0.0) * claimed
    value += w.get("ws", 0.0) * sum(1 for v in s.ws[seat] if v >= 0 and v & 1)
    value += w.get("orn", 0.0) * s.orn_placed[seat]
    value += w.get("track", 0.0) * s.score[seat]
    value += w.get("rubles", 0.0) * s.rubles[seat]
    return value


class RedCathedralEvaluator(BaseEvaluator):
    """The Red Cathedral's ``Evaluator``: Ivan is a side in the solo game, the bots
    compare positions by ``evaluate_play``, the rollout check by ``check_rating``; with
    a strategy profile (``PROFILES``) ``evaluate_play`` adds the profile's weights."""

    scale = SCALE
    final_bonus = FINAL_BONUS

    profiles = PROFILES

    def __init__(self, profile: str | None = None) -> None:
        super().__init__(profile)
        self.weights: dict[str, float] | None = (
            None if profile is None else PROFILES[profile])

    def evaluate(self, state: RCState, seat: int) -> float:
        return evaluate(state, seat)

    def evaluate_play(self, state: RCState, seat: int) -> float:
        if self.weights is None:
            return evaluate_play(state, seat)
        return profile_value(state, seat, self.weights)

    def sides(self, state: RCState) -> int:
        return sides(state)

    def final_margins(self, state: RCState) -> list[float] | None:
        return final_margins(state)

    def check_rating(self, state: RCState, seat: int) -> float:
        return check_rating(state, seat)

    def is_solo(self, view: dict[str, object]) -> bool:
        return bool(view.get("solo"))
