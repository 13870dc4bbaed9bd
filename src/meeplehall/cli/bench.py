"""``meeplehall bench``: playout speed of the forward model, one process.

For each player count: uniformly random playouts with ``legal_actions`` and
``apply_unchecked`` (choices drawn from a seeded ``core.rng.Rng``), counting applied
actions as decisions; then the cost of ``clone()`` on a mid-game state. Each figure is
printed on its own line, ``<game> players=<n> <figure>=<value>``, for scripts to parse.
With ``--mcts`` a fourth line gives ``mcts_iterations_per_s``: the search of the
``mcts-hard`` settings from a mid-game position of a greedy game, under the same time
budget (``meeplehall.ai.mcts.iterations_per_second``), and a fifth
``expert_iterations_per_s``: the learned search (``ai/learned_search.py``) at three
mid-game positions under the same budget, with ``expert_value`` saying what rated its
leaves (``learned``: the shipped model, ``hand``: the hand-written evaluation).
"""

from __future__ import annotations

import time
import timeit
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console

from meeplehall.core.protocol import Game, validate_params
from meeplehall.core.rng import Rng

MAX_DECISIONS = 200_000


@dataclass
class BenchResult:
    players: int
    games: int
    decisions: int
    seconds: float
    clone_us: float

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds


def _playout(game: Game, params: dict[str, Any], seed: int, stop_at: int = MAX_DECISIONS,
             ) -> tuple[Any, int]:
    """One random playout; returns the state it stopped in and the decisions applied."""
    state = game.initial_state(params, seed)
    rng = Rng.from_seed(seed + 1)
    current_player = game.current_player
    legal_actions = game.legal_actions
    apply = game.apply_unchecked
    n = 0
    while n < stop_at and current_player(state) is not None:
        actions = legal_actions(state)
        apply(state, actions[rng.randbelow(len(actions))])
        n += 1
    return state, n


def bench_players(game: Game, params: dict[str, Any], seconds: float) -> BenchResult:
    """Play random games for about ``seconds``, then time ``clone`` mid-game."""
    games = decisions = 0
    lengths: list[int] = []
    start = time.perf_counter()
    while True:
        _, n = _playout(game, params, seed=games)
        games += 1
        decisions += n
        lengths.append(n)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    middle, _ = _playout(game, params, seed=0, stop_at=max(1, lengths[0] // 2))
    timer = timeit.Timer(middle.clone)
    budget = max(0.02, seconds / 4)
    number = 1
    while True:  # calibrate: about a tenth of the budget per repeat
        took = timer.timeit(number)
        if took >= budget / 10 or number >= 1 << 24:
            break
        number *= 2
    best = min(timer.repeat(repeat=3, number=number))
    return BenchResult(int(params["players"]), games, decisions, elapsed,
                       best / number * 1e6)


def _fmt_rate(value: float) -> str:
    return f"{value:.1f}" if value >= 0.1 else f"{value:.3g}"


def run_bench(console: Console, game: Game, base_params: dict[str, Any],
              players: Sequence[int], seconds: float, mcts: bool = False,
              ) -> list[BenchResult]:
    """Benchmark each player count and print three lines for each (four with ``mcts``)."""
    results = []
    for n in players:
        params = validate_params(game.options, dict(base_params) | {"players": n})
        result = bench_players(game, params, seconds)
        results.append(result)
        for line in (f"{game.name} players={n} decisions_per_s={result.decisions_per_s:.0f}",
                     f"{game.name} players={n} games_per_s={_fmt_rate(result.games_per_s)}",
                     f"{game.name} players={n} clone_us={result.clone_us:.1f}"):
            console.print(line, markup=False, highlight=False, soft_wrap=True)
        if mcts:
            from meeplehall.ai.mcts import iterations_per_second

            rate = iterations_per_second(game, params, seconds)
            console.print(f"{game.name} players={n} mcts_iterations_per_s={rate:.0f}",
                          markup=False, highlight=False, soft_wrap=True)
            from meeplehall.ai import learned_search

            rate, value = learned_search.iterations_per_second(game, params, seconds)
            for line in (f"{game.name} players={n} expert_iterations_per_s={rate:.0f}",
                         f"{game.name} players={n} expert_value={value}"):
                console.print(line, markup=False, highlight=False, soft_wrap=True)
    return results
