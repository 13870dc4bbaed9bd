"""``meeplehall simulate``: bot-against-bot games and their statistics.

Seats rotate across games: in game ``g`` seat ``s`` is played by
``bots[(s + g) % len(bots)]``, so with one bot per seat every bot plays every seat
equally often. A win counts for every seat in ``outcome.winners`` (shared wins count
for each); in solo games a win means beating the automaton. ``--json`` writes every
game's scores, winners and points per scoring category (``outcome.breakdown``), and the
summary with those categories per bot kind.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from meeplehall.ai import make_bot
from meeplehall.cli.render import say
from meeplehall.core.protocol import Game
from meeplehall.core.record import save_text


@dataclass
class GameResult:
    """One simulated game."""

    index: int
    seed: int
    bots: list[str]
    finished: bool
    decisions: int
    turns: int | None
    scores: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    breakdown: list[dict[str, int]] = field(default_factory=list)  # per seat, per category
    ivan_score: int | None = None
    solo_result: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def seat_bots(bots: Sequence[str], players: int, index: int) -> list[str]:
    """The bot kind in each seat of game ``index`` (rotating across games).

    >>> seat_bots(["greedy", "random"], 2, 1)
    ['random', 'greedy']
    """
    return [bots[(seat + index) % len(bots)] for seat in range(players)]


def play_one(game: Game, params: dict[str, Any], seed: int, kinds: Sequence[str],
             bot_seed: int, max_decisions: int, index: int = 0) -> GameResult:
    """Play one game between bots; stops unfinished after ``max_decisions``."""
    state = game.initial_state(params, seed)
    bots = [make_bot(kind, bot_seed * 16 + seat) for seat, kind in enumerate(kinds)]
    decisions = 0
    while decisions < max_decisions:
        seat = game.current_player(state)
        if seat is None:
            break
        legal = game.legal_actions(state)
        action = bots[seat].choose(game, game.player_view(state, seat), legal)
        state = game.apply(state, action)
        decisions += 1
    turns = getattr(state, "turns", None)
    result = GameResult(index, seed, list(kinds), game.current_player(state) is None,
                        decisions, turns if isinstance(turns, int) else None)
    outcome = game.outcome(state)
    if outcome is not None:
        result.scores = list(outcome.scores)
        result.winners = list(outcome.winners)
        result.breakdown = [dict(b) for b in outcome.breakdown]
        ivan = outcome.details.get("ivan")
        if isinstance(ivan, dict):
            result.ivan_score = ivan.get("score")
            result.solo_result = outcome.details.get("result")
    return result


def _stats(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    return {"n": len(values), "mean": statistics.fmean(values),
            "stdev": statistics.stdev(values) if len(values) > 1 else 0.0,
            "min": min(values), "max": max(values)}


def summarise(results: Sequence[GameResult], players: int) -> dict[str, Any]:
    """Score distributions, win rates, game lengths and the points per scoring category
    (``outcome.breakdown``) of each bot kind, over finished games."""
    done = [r for r in results if r.finished]
    per_seat: dict[str, Any] = {}
    for seat in range(players):
        scores = [r.scores[seat] for r in done]
        wins = sum(seat in r.winners for r in done)
        per_seat[str(seat)] = _stats(scores) | {"win_rate": wins / len(done) if done else 0.0}
    per_bot: dict[str, Any] = {}
    kinds = sorted({k for r in results for k in r.bots})
    for kind in kinds:
        scores = [r.scores[s] for r in done for s, k in enumerate(r.bots) if k == kind]
        wins = sum(s in r.winners for r in done for s, k in enumerate(r.bots) if k == kind)
        per_bot[kind] = _stats(scores) | {"win_rate": wins / len(scores) if scores else 0.0}
    breakdown: dict[str, Any] = {}
    for kind in kinds:
        rows = [r.breakdown[s] for r in done for s, k in enumerate(r.bots)
                if k == kind and s < len(r.breakdown)]
        categories = sorted({c for row in rows for c in row})
        breakdown[kind] = {c: _stats([row.get(c, 0) for row in rows]) for c in categories}
    summary: dict[str, Any] = {
        "games": len(results), "finished": len(done), "unfinished": len(results) - len(done),
        "per_seat": per_seat, "per_bot": per_bot, "breakdown_per_bot": breakdown,
        "decisions": _stats([r.decisions for r in done]),
        "turns": _stats([r.turns for r in done if r.turns is not None]),
    }
    solo = [r for r in done if r.solo_result is not None]
    if solo:
        summary["solo"] = {
            "win_rate": sum(r.solo_result == "win" for r in solo) / len(solo),
            "shared_rate": sum(r.solo_result == "shared" for r in solo) / len(solo),
            "ivan_score": _stats([r.ivan_score for r in solo if r.ivan_score is not None]),
        }
    return summary


def _fmt(stats: dict[str, float], key: str) -> str:
    value = stats.get(key)
    return "-" if value is None else f"{value:.1f}"


def print_summary(console: Console, summary: dict[str, Any]) -> None:
    console.print(f"Games: {summary['games']}, finished: {summary['finished']}, "
                  f"unfinished (decision cap): {summary['unfinished']}")
    for title, rows, label in (("Scores per seat", summary["per_seat"], "Seat"),
                               ("Scores per bot", summary["per_bot"], "Bot")):
        table = Table(title=title, title_justify="left")
        for col in (label, "Games", "Mean", "Stdev", "Min", "Max", "Win rate"):
            table.add_column(col, justify="left" if col == label else "right")
        for key, st in rows.items():
            table.add_row(key, str(st.get("n", 0)), _fmt(st, "mean"), _fmt(st, "stdev"),
                          _fmt(st, "min"), _fmt(st, "max"), f"{st['win_rate']:.1%}")
        console.print(table)
    table = Table(title="Game length", title_justify="left")
    for col in ("Measure", "Mean", "Stdev", "Min", "Max"):
        table.add_column(col, justify="left" if col == "Measure" else "right")
    for key in ("decisions", "turns"):
        st = summary[key]
        table.add_row(key, _fmt(st, "mean"), _fmt(st, "stdev"), _fmt(st, "min"), _fmt(st, "max"))
    console.print(table)
    for kind, st in summary["per_bot"].items():
        console.print(f"win rate {kind}: {st['win_rate']:.1%}")
    for seat, st in summary["per_seat"].items():
        console.print(f"win rate seat {seat}: {st['win_rate']:.1%}")
    solo = summary.get("solo")
    if solo:
        ivan = solo["ivan_score"]
        console.print(f"solo: win rate vs Ivan {solo['win_rate']:.1%} "
                      f"(shared {solo['shared_rate']:.1%}); Ivan's mean score "
                      f"{_fmt(ivan, 'mean')} (min {_fmt(ivan, 'min')}, max {_fmt(ivan, 'max')})")


def simulate(console: Console, game: Game, params: dict[str, Any], bots: Sequence[str],
             games: int, seed: int, max_decisions: int,
             json_path: str | None = None) -> dict[str, Any]:
    """Play ``games`` games, print the statistics and optionally write them as JSON."""
    players = int(params["players"])
    results: list[GameResult] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("simulating", total=games)
        for index in range(games):
            kinds = seat_bots(bots, players, index)
            results.append(play_one(game, params, seed + index, kinds, seed * 1000 + index,
                                    max_decisions, index))
            progress.advance(task)
    summary = summarise(results, players)
    print_summary(console, summary)
    data = {"game": game.name, "rules_version": game.rules_version, "params": params,
            "bots": list(bots), "seed": seed, "max_decisions": max_decisions,
            "summary": summary, "results": [r.to_dict() for r in results]}
    if json_path is not None:
        save_text(json_path, json.dumps(data, indent=1, sort_keys=True) + "\n")
        say(console, f"results written to {json_path}")
    return data
