"""The planner bot: plans the rest of its own turn before each decision.

Both games split a turn into many small decisions (take a tile, perform an action, pick a
hex, choose a site, orient it ...). A one-ply bot judges each of them by the position it
leads to at once, so it never takes a step whose value appears only a few decisions later
(paying for a building before placing it). The planner uses the pilot method: for every
legal action it applies the action to a state rebuilt from its view (``sample_hidden``,
drawn from the bot's own generator), completes the rest of its own turn greedily (one
ply at a time, at most ``horizon`` decisions), and rates the action by the evaluation of
the position where its turn ends. Chance inside the turn (a drawn tile) is taken from
the bot's own sample, never from the game.

The evaluation is the game's heuristic (``ai/heuristics``); for Praga Caput Regni a
strategy profile (``PRAGA_PROFILES``) can add weights for what only pays later (mines,
quarries, tracks, grid rows, walls, corner tokens); for The Red Cathedral a profile
(``RC_PROFILES``) adds weights for cards, Workshop tiles, Ornamentations or the track.
The profiles exist for balance studies (``python -m meeplehall.ai.study``, see
docs/praga-balance.md and docs/red-cathedral-balance.md): each one is a different plan a
player could follow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from meeplehall.ai.greedy import GreedyBot, evaluator_for, step_value
from meeplehall.ai.heuristics import praga as praga_heuristic
from meeplehall.core.protocol import Game
from meeplehall.core.rng import Rng

Evaluator = Callable[[Any, int], float]

# Weights of the Praga profiles, in VP per unit, over those of the game's heuristic
# (``ai/heuristics/praga.py``, whose evaluation is the "balanced" profile).
# ``mine``/``quarry``/``tech``/``univ``/``hw``/``cat`` are multiplied by the share of the
# game still to play (they pay off over the remaining turns); ``res`` per gold or stone,
# ``win`` per window, ``walls`` per wall tile, ``tok`` per corner token, ``egg`` a cost
# per egg held, ``bld`` per building owned.
BASE_WEIGHTS: Mapping[str, float] = praga_heuristic.WEIGHTS  # the "balanced" profile
PRAGA_PROFILES: dict[str, dict[str, float]] = {
    "balanced": {},
    "walls": {"walls": 3.0, "quarry": 5.0},
    "grids": {"hw": 5.0, "cat": 5.0, "tok": 1.5, "win": 1.2},
    "academic": {"tech": 3.0, "univ": 4.0},
    "builder": {"bld": 3.0, "mine": 5.5, "res": 0.7},
}


def praga_evaluator(profile: str = "balanced") -> Evaluator:
    """The Praga evaluation of a profile: projected final score plus future value."""
    from meeplehall.games.praga.final import projected_scores
    from meeplehall.games.praga.state import PragaState

    if profile not in PRAGA_PROFILES:
        raise ValueError(f"unknown profile {profile!r}; profiles are: "
                         f"{', '.join(PRAGA_PROFILES)}")
    w: Mapping[str, float] = {**BASE_WEIGHTS, **PRAGA_PROFILES[profile]}
    value = praga_heuristic.value

    def evaluate(s: PragaState, seat: int) -> float:
        return value(s, seat, projected_scores(s), w)

    return evaluate


# Weights of The Red Cathedral's profiles, in Prestige per unit, added to the game's
# heuristic (``ai/heuristics/red_cathedral.py``, the "balanced" profile) before the game
# ends: ``done`` per completed card, ``deliver`` per claimed card's share of its cost
# delivered, ``claim`` per card claimed and unfinished, ``ws`` per face-up Workshop tile,
# ``orn`` per Ornamentation placed, ``track`` per Recognition space on the track,
# ``rubles`` per Ruble held.
RC_PROFILES: dict[str, dict[str, float]] = {
    "balanced": {},
    "builder": {"done": 4.0, "deliver": 3.0},
    "farmer": {"claim": -6.0, "track": 0.25, "rubles": 0.1},
    "workshop": {"ws": 2.5},
    "decorator": {"orn": 3.0, "done": 1.0},
}


def rc_evaluator(profile: str = "balanced") -> Evaluator:
    """The Red Cathedral evaluation of a profile: the heuristic's rating (on the bots'
    scale, ``evaluate_play``) plus the profile's weights while the game is unfinished."""
    from meeplehall.ai.heuristics.red_cathedral import evaluate_play
    from meeplehall.games.red_cathedral.state import RCState

    if profile not in RC_PROFILES:
        raise ValueError(f"unknown profile {profile!r}; profiles are: "
                         f"{', '.join(RC_PROFILES)}")
    w = RC_PROFILES[profile]

    def evaluate(s: RCState, seat: int) -> float:
        value = evaluate_play(s, seat)
        if not w or s.final is not None:
            return value
        claimed = delivered = 0.0
        for slot, owner in enumerate(s.owner):
            if owner == seat and not s.done[slot]:
                claimed += 1
                delivered += sum(s.delivered[slot]) / _rc_card_size(s.card_of[slot])
        value += w.get("done", 0.0) * s.completed[seat]
        value += w.get("deliver", 0.0) * delivered
        value += w.get("claim", 0.0) * claimed
        value += w.get("ws", 0.0) * sum(1 for v in s.ws[seat] if v >= 0 and v & 1)
        value += w.get("orn", 0.0) * s.orn_placed[seat]
        value += w.get("track", 0.0) * s.score[seat]
        value += w.get("rubles", 0.0) * s.rubles[seat]
        return value

    return evaluate


def _rc_card_size(card: int) -> int:
    from meeplehall.games.red_cathedral.components import load

    return load().cards[card].size


class PlannerBot(GreedyBot):
    """Pilot-method planner over the bot's own turn (see the module docstring); picks
    among equally rated actions like the greedy bot, with its own generator."""

    kind = "planner"

    def __init__(self, seed: int = 0, profile: str | None = None, horizon: int = 24,
                 samples: int = 1) -> None:
        super().__init__(seed)
        self.profile = profile
        self.horizon = horizon
        self.samples = samples

    def _evaluator(self, game: Game) -> Evaluator:
        if game.name == "praga" and self.profile is not None:
            return praga_evaluator(self.profile)
        if game.name == "red-cathedral" and self.profile is not None:
            return rc_evaluator(self.profile)
        if self.profile is not None:
            raise ValueError(f"{game.name} has no planner profiles")
        return evaluator_for(game)

    def _complete(self, game: Game, state: Any, seat: int, start: Any,
                  evaluate: Evaluator) -> float:
        """Finish ``seat``'s turn (the one that began with ``start`` completed turns)
        greedily from ``state`` (changed) and rate the end."""
        for _ in range(self.horizon):
            if game.outcome(state) is not None or game.current_player(state) != seat:
                break
            if getattr(state, "turns", None) != start:
                break
            legal = game.legal_actions(state)
            if len(legal) == 1:
                game.apply_unchecked(state, legal[0])
                continue
            best_value, best_state = float("-inf"), state
            for action in legal:
                child = state.clone()
                game.apply_unchecked(child, action)
                value = step_value(game, state, child, seat, evaluate, action)
                if value > best_value:
                    best_value, best_state = value, child
            state = best_state
        return evaluate(state, seat)

    def rank(self, game: Game, view: dict[str, Any],
             legal: tuple[Any, ...]) -> list[tuple[float, Any]]:
        """Every legal action with the value of the turn it starts, best first."""
        seat = view["seat"]
        evaluate = self._evaluator(game)
        states = [game.sample_hidden(view, self.rng) for _ in range(self.samples)]
        if self.samples > 1:
            # several determinizations, each with its own future chance (the automaton's
            # turn, dice, draws), the same for every action (common random numbers)
            for state in states:
                if isinstance(getattr(state, "rng", None), Rng):
                    state.rng = Rng(self.rng.next_u64())
        start = getattr(states[0], "turns", None)
        scored = []
        for action in legal:
            total = 0.0
            for state in states:
                child = state.clone()
                game.apply_unchecked(child, action)
                total += self._complete(game, child, seat, start, evaluate)
            scored.append((total / len(states), action))
        scored.sort(key=lambda pair: -pair[0])
        return scored
