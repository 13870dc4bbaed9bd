"""The game review: each side's chance of winning over a finished game, and for each
person the moves that cost them the most.

**The chance of winning** of a position is a softmax over the sides (the seats, and the
automaton in The Red Cathedral's solo game) of the game's hand-written evaluation
(``Evaluator.evaluate_all``), each divided by the sides' mean absolute evaluation and by
a temperature (against an automaton, its side's odds also scaled by a fitted factor);
with one side only (Praga's solo
games, won by beating the benchmark) a logistic of the evaluation less an offset. The
temperature and the offset depend on how far the game has gone (the share of its
moves played, in ``BUCKETS`` equal parts) and are fitted per game and player count to
the results of self-play games by maximum likelihood (``python -m tools.fit_review``),
written with their provenance to ``ai/data/review-calibration.json``. Where no
calibration is held for a game and player count, the temperature is the evaluator's
``scale`` over 20, the chances are marked uncalibrated, and a one-side game has no chances
(its costly moves are then measured in evaluation points).

**The costliest moves.** At each decision of a person with a choice, the move played
and an alternative are each followed by the rest of the turn and the other sides' turns
played greedily on the true state of the game (the same future for both: the clone
carries the game's generator), until that seat's next turn begins, and the position
reached is rated by the chance above: the difference is what the move cost. A cheap
pass proposes as the alternative the greedy bot's choice; at the ``candidates``
decisions where that costs most, the expert (``bot``, deciding from the seat's view
only, seeded per decision) is asked what it would have played, and its move is rated
the same way. The three largest losses where the expert disagreed are kept.

Pure Python on the engines; deterministic given the record and the seed.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeplehall.ai.evaluator import Evaluator
from meeplehall.ai.expert import play_on
from meeplehall.ai.greedy import step_value
from meeplehall.core.messages import message_json
from meeplehall.core.protocol import Game
from meeplehall.core.record import GameRecord, lookup_game, replay

CALIBRATION = Path(__file__).resolve().parent / "data" / "review-calibration.json"
BUCKETS = 5  # equal parts of a game's moves, each with its own temperature and offset
KEEP = 3  # costly moves shown per person
MIN_LOSS = 0.01  # a move that cost less chance than this is not a mistake worth showing
UNCALIBRATED = 20.0  # the evaluator's scale over this: the temperature where none is fitted
HORIZON = 400  # decisions of one turn a play-out may take before it stops


class ReviewError(ValueError):
    """A record that cannot be reviewed; the message says why."""


@dataclass(frozen=True, slots=True)
class Calibration:
    """The fitted chance model of one game and player count: per bucket of the game's
    progress, the temperature dividing the evaluations and (one-side games) the offset
    subtracted from the evaluation."""

    game: str
    players: int
    temperatures: tuple[float, ...]
    offsets: tuple[float, ...]
    rules_version: int = 0
    provenance: Mapping[str, Any] = field(default_factory=dict)


def load_calibrations(path: Path = CALIBRATION) -> dict[tuple[str, int], Calibration]:
    """The calibrations held in ``path`` (none where the file is absent).

    Raises:
        ReviewError: the file is not a calibration file.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, json.JSONDecodeError) as exc:
        raise ReviewError(f"cannot read the review calibration {path.name}: {exc}") from None
    out: dict[tuple[str, int], Calibration] = {}
    for item in data.get("calibrations", []):
        try:
            cal = Calibration(str(item["game"]), int(item["players"]),
                              tuple(float(t) for t in item["temperatures"]),
                              tuple(float(o) for o in item["offsets"]),
                              int(item.get("rules_version", 0)),
                              dict(item.get("provenance", {})))
        except (KeyError, TypeError, ValueError) as exc:
            raise ReviewError(f"corrupt review calibration entry {item!r}: {exc}") from None
        if len(cal.temperatures) != BUCKETS or len(cal.offsets) != BUCKETS \
                or min(cal.temperatures) <= 0:
            raise ReviewError(f"review calibration for {cal.game} with {cal.players} "
                              f"players needs {BUCKETS} positive temperatures and offsets")
        out[(cal.game, cal.players)] = cal
    return out


def bucket(progress: float) -> int:
    return min(BUCKETS - 1, max(0, int(progress * BUCKETS)))


def softmax_chances(evals: list[float], temperature: float, offset: float,
                    automaton: bool = False) -> list[float]:
    """Each side's chance from its evaluation: a softmax over two or more sides (with
    ``automaton``, the last side's weight multiplied by ``exp(offset)``: an automaton's
    evaluation is on a scale of its own), a logistic of ``evaluation - offset`` for one."""
    if len(evals) == 1:
        x = (evals[0] - offset) / temperature
        return [1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))]
    # Evaluations grow over a game and differ in size from game to game: they are
    # compared relative to their mean size, so one temperature serves short and long games.
    size = sum(abs(e) for e in evals) / len(evals) or 1.0
    logits = [e / (size * temperature) for e in evals]
    if automaton:
        logits[-1] += offset
    top = max(logits)
    weights = [math.exp(x - top) for x in logits]
    total = sum(weights)
    return [w / total for w in weights]


class ChanceModel:
    """Chances of winning of every side of a position of ``game``."""

    def __init__(self, game: Game, evaluator: Evaluator, players: int,
                 calibration: Calibration | None) -> None:
        self.game = game
        self.evaluator = evaluator
        self.players = players
        if calibration is not None and calibration.rules_version not in (
                0, game.rules_version):
            calibration = None  # fitted to other rules: not trusted
        self.calibration = calibration

    @property
    def calibrated(self) -> bool:
        return self.calibration is not None

    def chances(self, state: Any, progress: float) -> list[float] | None:
        """Per side, at ``progress`` (the share of the game's moves played); a finished
        game by its result; None where a one-side game has no calibration."""
        game = self.game
        if game.current_player(state) is None:
            out = game.outcome(state)
            if out is not None:
                sides = self.evaluator.sides(state)
                won = [1.0 if s in out.winners else 0.0 for s in range(sides)]
                if sides > self.players and not out.winners:
                    won[self.players:] = [1.0] * (sides - self.players)
                total = sum(won)
                return [w / total for w in won] if total else won
        evals = self.evaluator.evaluate_all(state)
        cal = self.calibration
        if cal is None:
            if len(evals) == 1:
                return None
            return softmax_chances(evals, self.evaluator.scale / UNCALIBRATED, 0.0)
        b = bucket(progress)
        return softmax_chances(evals, cal.temperatures[b], cal.offsets[b],
                               len(evals) > self.players)


@dataclass(frozen=True, slots=True)
class Alternative:
    text: str
    label: Any  # a message: {"key", "args"}
    chance: float  # the seat's chance after it (or its evaluation, when uncalibrated)


@dataclass(frozen=True, slots=True)
class CostlyMove:
    """A move of a person that the expert would not have played, and what it cost."""

    move: int  # 1-based position in the record's actions
    seat: int
    played: Alternative
    suggested: Alternative
    loss: float  # suggested.chance - played.chance


@dataclass(frozen=True, slots=True)
class Review:
    game: str
    players: int
    sides: tuple[str, ...]  # names of the sides the chances are of (seats, then automata)
    unit: str  # "chance" (0..1) or "evaluation" (a one-side game without calibration)
    calibrated: bool
    curve: tuple[tuple[int, tuple[float, ...]], ...]  # (moves played, chance per side)
    costly: Mapping[int, tuple[CostlyMove, ...]]  # per reviewed seat, largest loss first
    bot: str

    def to_dict(self) -> dict[str, Any]:
        def alt(a: Alternative) -> dict[str, Any]:
            return {"text": a.text, "label": a.label, "chance": round(a.chance, 4)}

        return {
            "game": self.game, "players": self.players, "sides": list(self.sides),
            "unit": self.unit, "calibrated": self.calibrated, "bot": self.bot,
            "curve": [{"move": m, "chances": [round(c, 4) for c in cs]}
                      for m, cs in self.curve],
            "costly": {str(seat): [{"move": c.move, "seat": c.seat,
                                    "played": alt(c.played), "suggested": alt(c.suggested),
                                    "loss": round(c.loss, 4)} for c in moves]
                       for seat, moves in self.costly.items()},
        }


def _line_value(game: Game, model: ChanceModel, state: Any, action: Any, seat: int,
                progress: float) -> float:
    """The seat's chance (its evaluation when the model has none) after ``action`` and
    the greedy play of the rest of the turn and the others' answers."""
    child = state.clone()
    game.apply_unchecked(child, action)
    play_on(game, child, seat, model.evaluator.evaluate_play, 1, HORIZON)
    chances = model.chances(child, progress)
    if chances is None:
        return float(model.evaluator.evaluate(child, seat))
    return chances[seat]


def _greedy_choice(game: Game, state: Any, seat: int, legal: list[Any],
                   evaluator: Evaluator) -> Any:
    best, best_value = legal[0], float("-inf")
    for action in legal:
        child = state.clone()
        game.apply_unchecked(child, action)
        value = step_value(game, state, child, seat, evaluator.evaluate_play, action)
        if value > best_value:
            best, best_value = action, value
    return best


def review(record: GameRecord, *, seats: Iterable[int] | None = None,
           bot: str = "expert@16", candidates: int = 6, seed: int = 0,
           calibrations: Mapping[tuple[str, int], Calibration] | None = None,
           evaluator: Evaluator | None = None) -> Review:
    """Review the finished game of ``record`` for ``seats`` (default: every seat).

    Raises:
        ReviewError: the record does not replay or its game is not over.
        RecordError: the record is corrupt (from :func:`replay`).
    """
    from meeplehall.ai.ladder import evaluator_for, make_bot

    game = lookup_game(record.game)
    final = replay(record, game)
    if game.current_player(final) is not None:
        raise ReviewError("the game is not over: only a finished game can be reviewed")
    state = game.initial_state(record.params, record.seed)
    players = game.num_players(state)
    wanted = sorted(set(range(players) if seats is None else seats))
    if any(not 0 <= s < players for s in wanted):
        raise ReviewError(f"seats are 0 to {players - 1}, not {wanted}")
    evaluator = evaluator or evaluator_for(game)
    held = load_calibrations() if calibrations is None else calibrations
    model = ChanceModel(game, evaluator, players, held.get((game.name, players)))
    sides = evaluator.sides(state)
    total = max(1, len(record.actions))

    curve: list[tuple[int, tuple[float, ...]]] = []
    first = model.chances(state, 0.0)
    if first is not None:
        curve.append((0, tuple(first)))
    proposals: list[tuple[float, int, Any, Any, Any, int, float, float]] = []
    turn = getattr(state, "turns", None)
    for i, (_player, text) in enumerate(record.actions):
        seat = game.current_player(state)
        action = game.parse_action(text)
        progress = i / total
        if seat in wanted:
            legal = list(game.legal_actions(state))
            if len(legal) > 1:
                greedy = _greedy_choice(game, state, seat, legal, evaluator)
                if str(greedy) != text:
                    played = _line_value(game, model, state, action, seat, progress)
                    other = _line_value(game, model, state, greedy, seat, progress)
                    proposals.append((other - played, i, state.clone(), action, greedy,
                                      seat, played, other))
        state = game.apply(state, action)
        now = getattr(state, "turns", None)
        if now != turn or i + 1 == len(record.actions):
            turn = now
            chances = model.chances(state, (i + 1) / total)
            if chances is not None:
                curve.append((i + 1, tuple(chances)))

    costly: dict[int, list[CostlyMove]] = {s: [] for s in wanted}
    by_seat: dict[int, list[tuple[float, int, Any, Any, Any, int, float, float]]] = {}
    for p in proposals:
        by_seat.setdefault(p[5], []).append(p)
    for seat, props in by_seat.items():
        props.sort(key=lambda p: (-p[0], p[1]))
        for _est, i, before, action, _greedy, _seat, played_value, _other in \
                props[:candidates]:
            options = tuple(game.legal_actions(before))
            expert = make_bot(bot, seed=seed * 1_000_003 + i)
            choice = expert.choose(game, game.player_view(before, seat), options)
            if str(choice) == str(action):
                continue
            suggested_value = _line_value(game, model, before, choice, seat, i / total)
            loss = suggested_value - played_value
            if loss < MIN_LOSS:
                continue
            costly[seat].append(CostlyMove(
                i + 1, seat,
                Alternative(str(action), message_json(game.action_message(before, action)),
                            played_value),
                Alternative(str(choice), message_json(game.action_message(before, choice)),
                            suggested_value),
                loss))
    names = tuple(game.side_name(state, s) for s in range(sides))
    unit = "chance" if first is not None else "evaluation"
    return Review(game.name, players, names, unit, model.calibrated, tuple(curve),
                  {s: tuple(sorted(ms, key=lambda c: (-c.loss, c.move))[:KEEP])
                   for s, ms in costly.items()}, bot)
