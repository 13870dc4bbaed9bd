"""Evaluation of a Praga Caput Regni position for one seat, in victory points.

- The final score the seat would have if the game ended now (``final.projected_scores``:
  markets, academics, grids, walls, seals, eggs, all in the rulebook's order).
- Plus what still converts to points later (``WEIGHTS``, VP per unit): gold and stone
  (tiles, grid moves, wealth bonuses), windows (the extra action, moves up) and the
  corner tokens at once; the mine and quarry tracks (gold and stone produced every later
  turn), the academic tracks and the rows reached on the two grids in proportion to the
  share of the seat's own turns still to play.
- Minus a small cost per egg held (``egg``): the projection already counts the eggs'
  step of final scoring (P-SCORE-7), and eggs are spent on the road (P-EGG-*).
- Plus the technologies held (``TECH_VALUES``): permanent ones by what their triggers
  pay in the seat's turns still to play, unused one-shots flat.
- Plus the production tokens held (``PRODUCE_RATES``): their bonus at each expected
  production.

With one seat (the solo game) the weights are ``SOLO_WEIGHTS``. ``WEIGHTS`` are those of
the "balanced" strategy profile (``PROFILES``; the other profiles add to them).

After the game ends the evaluation is 1000 plus the margin over the best other seat
(the score itself with one seat).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from meeplehall.ai.evaluator import BaseEvaluator
from meeplehall.games.praga.components import (
    ACTIONS,
    REWARD_KINDS,
    TECH_EFFECTS,
    TRACKS,
    Components,
    Reward,
    load,
)
from meeplehall.games.praga.effects import ROW_BITS
from meeplehall.games.praga.final import projected_scores
from meeplehall.games.praga.state import PragaState

# For MCTS (ai/mcts.py): a change of SCALE points in the margin is worth a logistic step;
# a finished game evaluates to FINAL_BONUS plus the final margin.
SCALE = 4.0
FINAL_BONUS = 1000.0

# VP per unit; ``mine`` .. ``cat`` are multiplied by the share of the seat's turns still
# to play. ``walls`` (per wall tile) and ``bld`` (per building owned) are 0 here: the
# strategy profiles that lean that way (``PROFILES``) set them. ``techs``, ``upg`` (off)
# and ``ptok`` scale what the technologies, upgrades and production tokens a seat holds
# will pay (``TECH_VALUES``, ``ACTION_RATES``, ``PRODUCE_RATES``).
WEIGHTS: dict[str, float] = {
    "res": 0.55, "win": 0.75, "mine": 4.4, "quarry": 3.6, "tech": 1.15, "univ": 2.3,
    "hw": 1.0, "cat": 1.9, "egg": 0.55, "walls": 0.0, "tok": 0.0, "bld": 0.0,
    "techs": 1.0, "upg": 0.0, "ptok": 1.0,
}

# The technologies a seat holds (P-TECH-2..6), in VP. Keys are glossary effects, with the
# tile's parameter after a colon where it changes the value (looked up first).
# - Levels I and II (permanent, GL-T1-*, GL-T2-*): VP per own turn still to play. Each is
#   the rate of the effect's trigger in 2-player games between mcts-medium bots (100
#   games, seeds 9100-9199, every trigger counted on the real game whether or not the seat
#   held the technology) times what one trigger pays (1 VP plus a resource at ``res``):
#   e.g. GL-T1-2 on the University track, 9.0 steps a game x 2 VP / 16 turns = 1.12.
# - Levels III and IV (one-shot, GL-T3-*, GL-T4-*): a flat value while unused, about
#   half of what using one gains, fading to 0 over the seat's last turns so that none is
#   kept to the end. Low on purpose: the search rates using one by the position it
#   reaches; this only ranks the tiles to keep.
TECH_VALUES: dict[str, float] = {
    "GL-T1-1": 0.3, "GL-T1-2:tech": 0.72, "GL-T1-2:univ": 1.12, "GL-T1-3": 0.35,
    "GL-T1-4": 0.53,
    "GL-T2-1": 0.03, "GL-T2-2:red": 0.035, "GL-T2-2:blue": 0.012, "GL-T2-3": 0.07,
    "GL-T2-4": 0.35, "GL-T2-5": 0.035,
    "GL-T3-1": 3.0, "GL-T3-2": 3.0, "GL-T3-3": 4.0, "GL-T3-4": 3.5, "GL-T3-5": 2.0,
    "GL-T3-6": 2.0,
    "GL-T4-1": 3.5, "GL-T4-2": 3.0, "GL-T4-3": 4.0, "GL-T4-4": 3.5, "GL-T4-5": 3.0,
    "GL-T4-6": 3.0,
}

# The solo game (one seat against the rulebook's dummy, P-SOLO-*): walls, quarries, the
# University track and the grids weigh more, mines less, and gold and stone more (they
# become walls, buildings and grid moves). Nobody is there to race for the grids' and
# walls' bonuses, and the score is all that counts. Chosen by a coordinate search of the
# planner's mean solo score; technologies and production tokens count as with players.
SOLO_WEIGHTS: dict[str, float] = {**WEIGHTS, "res": 0.825, "mine": 2.64, "quarry": 5.0,
                                  "univ": 3.45, "hw": 1.8, "cat": 3.0, "egg": 0.825,
                                  "walls": 3.0}


T = TypeVar("T")


def _for_components(cache: list[tuple[Components, T]], build: Callable[[Components], T]) -> T:
    """``build(load())``, kept in ``cache`` while ``load()`` returns the same components
    (the loader is cached per process, but may be reloaded after a data edit)."""
    comp = load()
    if not cache or cache[0][0] is not comp:
        cache[:] = [(comp, build(comp))]
    return cache[0][1]


_TECH_VALUES_OF: list[tuple[Components, tuple[tuple[int, float], ...]]] = []


def tech_values() -> tuple[tuple[int, float], ...]:
    """Per technology tile (``components.technologies`` order): its level and its
    ``TECH_VALUES`` entry (the parameterised key first, then the effect's; 0 if none)."""
    return _for_components(_TECH_VALUES_OF, _tech_values)


def _tech_values(comp: Components) -> tuple[tuple[int, float], ...]:
    out = []
    for tech in comp.technologies:
        effect = TECH_EFFECTS[tech.effect]
        params = []
        if tech.track >= 0:
            params.append(TRACKS[tech.track])
        if tech.token >= 0:
            params.append(REWARD_KINDS[tech.token].removesuffix("_token"))
        if tech.resource >= 0:
            params.append(REWARD_KINDS[tech.resource])
        keys = [f"{effect}:{p}" for p in params] + [effect]
        out.append((tech.level, next((TECH_VALUES[k] for k in keys if k in TECH_VALUES), 0.0)))
    return tuple(out)


def held_techs(s: PragaState, seat: int, left: float) -> float:
    """``TECH_VALUES`` of the technologies ``seat`` holds: permanent ones times the seat's
    own turns still to play, unused one-shots flat, fading over the last quarter."""
    values = tech_values()
    turns = left * load().turns_per_player
    fade = min(1.0, 4.0 * left)
    used = s.tech_used[seat]
    v = 0.0
    for t in s.techs[seat]:
        level, per = values[t]
        if level <= 2:
            v += per * turns
        elif not used >> (level - 1) & 1:
            v += per * fade
    return v


# The upgrade on each action hex pays its bonus at every performance of that action
# (P-UPG-6): worth the bonus (``REWARD_VALUES``, VP per unit) times the action's
# performances per own turn (``ACTION_RATES``, counted in 2-player games between
# mcts-medium bots, seeds 9100-9199) times the seat's turns still to play.
REWARD_VALUES: dict[str, float] = {
    "vp": 1.0, "gold": 0.55, "stone": 0.55, "silver": 0.75, "gold_window": 0.75,
    "egg": 0.5, "red_token": 1.0, "blue_token": 1.0, "tech": 1.5, "univ": 1.5,
    "mine": 2.0, "quarry": 2.0, "hw_move": 2.0, "cat_move": 2.0, "side_move": 1.0,
}
ACTION_RATES: dict[str, float] = {
    "mines": 0.33, "quarries": 0.31, "upgrade": 0.28, "wall": 0.048, "building": 0.067,
    "road": 0.094,
}
_UPGRADE_VALUES_OF: list[tuple[Components, tuple[float, ...]]] = []


def upgrade_values() -> tuple[float, ...]:
    """Per upgrade tile (``components.upgrades`` order): its bonus's value per turn
    still to play (``ACTION_RATES`` of its action x ``REWARD_VALUES`` of its bonus)."""
    return _for_components(_UPGRADE_VALUES_OF, lambda comp: tuple(
        reward_value(up.bonus) * ACTION_RATES.get(ACTIONS[up.action], 0.0)
        for up in comp.upgrades))


def reward_value(reward: Reward) -> float:
    """A reward's value in VP (``REWARD_VALUES``)."""
    return sum(REWARD_VALUES.get(REWARD_KINDS[kind], 0.0) * amount for kind, amount in reward)


def held_upgrades(s: PragaState, seat: int, left: float) -> float:
    """What the top upgrades on the seat's action hexes will pay in its turns to come."""
    values = upgrade_values()
    return left * load().turns_per_player * sum(
        values[stack[-1] // 6] for stack in s.upg[seat] if stack)


# A production token pays its bonus at every production of its track (P-PROD-2): worth
# the bonus (``REWARD_VALUES``) times the productions per own turn of a seat holding one
# (``PRODUCE_RATES``, gold-mine track then quarry track: counted as for ``ACTION_RATES``,
# productions while the token was held over the seat's turns with it held) times the
# seat's turns still to play.
PRODUCE_RATES: tuple[float, float] = (0.30, 0.26)
_TOKEN_VALUES_OF: list[tuple[Components, tuple[float, ...]]] = []


def token_values() -> tuple[float, ...]:
    """Per production token (``components.production_tokens`` order): its bonus's value."""
    return _for_components(_TOKEN_VALUES_OF, lambda comp: tuple(
        reward_value(token.gain) for token in comp.production_tokens))


def held_tokens(s: PragaState, seat: int, left: float) -> float:
    """What the seat's production tokens will pay in its turns to come."""
    values = token_values()
    turns = left * load().turns_per_player
    return turns * sum(PRODUCE_RATES[track] * values[token]
                       for track, token in enumerate(s.ptoken[seat]) if token >= 0)


def weights_for(s: PragaState) -> Mapping[str, float]:
    """The weights ``evaluate`` uses in this game: ``SOLO_WEIGHTS`` with one seat."""
    return SOLO_WEIGHTS if s.players == 1 else WEIGHTS


def progress(s: PragaState, seat: int) -> float:
    """Share of the seat's own turns already played, 0..1 (``played`` counts the seat's
    turns, also in the solo game, where the dummy's turns are not the seat's)."""
    total = load().turns_per_player
    return min(1.0, s.played[seat] / total) if total else 1.0


def evaluate(s: PragaState, seat: int) -> float:
    return value(s, seat, projected_scores(s), weights_for(s))


def evaluate_all(s: PragaState) -> list[float]:
    """``evaluate`` for every seat, projecting final scoring once."""
    scores = projected_scores(s)
    w = weights_for(s)
    return [value(s, seat, scores, w) for seat in range(len(scores))]


def value(s: PragaState, seat: int, scores: tuple[int, ...],
          w: Mapping[str, float]) -> float:
    """The evaluation with weights ``w`` (see ``WEIGHTS``), given the projected scores."""
    if s.final is not None:
        others = [scores[i] for i in range(len(scores)) if i != seat]
        return FINAL_BONUS + scores[seat] - (max(others) if others else 0)
    left = 1.0 - progress(s, seat)
    v = float(scores[seat])
    v += w["res"] * (s.gold[seat] + s.stone[seat])
    v += w["win"] * (s.silver[seat] + s.goldw[seat])
    v += left * (w["mine"] * s.mine[seat] + w["quarry"] * s.quarry[seat])
    v += left * (w["tech"] * s.tech[seat] + w["univ"] * s.univ[seat])
    v += left * (w["hw"] * (s.hw[seat] // ROW_BITS) + w["cat"] * (s.cat[seat] // ROW_BITS))
    if w["walls"]:  # the counting terms only for the profiles that weigh them
        v += w["walls"] * sum(1 for code in s.walls[seat] if code >= 0)
    if w["bld"]:
        v += w["bld"] * s.site_owner.count(seat)
    v += w["tok"] * (s.red[seat] + s.blue[seat])
    v -= w["egg"] * s.eggs[seat]
    if w["techs"] and s.techs[seat]:
        v += w["techs"] * held_techs(s, seat, left)
    if w["upg"]:
        v += w["upg"] * held_upgrades(s, seat, left)
    if w["ptok"]:
        v += w["ptok"] * held_tokens(s, seat, left)
    return v


# Strategy profiles for balance studies (``python -m tools.study``): weights, in VP
# per unit, over ``WEIGHTS`` (the "balanced" profile), each a plan a player could follow.
PROFILES: dict[str, dict[str, float]] = {
    "balanced": {},
    "walls": {"walls": 3.0, "quarry": 5.0},
    "grids": {"hw": 5.0, "cat": 5.0, "tok": 1.5, "win": 1.2},
    "academic": {"tech": 3.0, "univ": 4.0},
    "builder": {"bld": 3.0, "mine": 5.5, "res": 0.7},
}


class PragaEvaluator(BaseEvaluator):
    """Praga's ``Evaluator``: ``evaluate`` (the bots' scale too), every seat a side;
    with a strategy profile (``PROFILES``) the evaluation uses ``WEIGHTS`` plus the
    profile's weights, with any number of seats."""

    scale = SCALE
    final_bonus = FINAL_BONUS

    profiles = PROFILES

    def __init__(self, profile: str | None = None) -> None:
        super().__init__(profile)
        self.weights: Mapping[str, float] | None = (
            None if profile is None else {**WEIGHTS, **PROFILES[profile]})

    def evaluate(self, state: PragaState, seat: int) -> float:
        if self.weights is None:
            return evaluate(state, seat)
        return value(state, seat, projected_scores(state), self.weights)

    def evaluate_all(self, state: PragaState) -> list[float]:
        if self.weights is None:
            return evaluate_all(state)
        scores = projected_scores(state)
        return [value(state, seat, scores, self.weights) for seat in range(len(scores))]
