"""Throughput of the RL environments (``meeplehall bench rl GAME``).

``bench_env`` plays random legal moves through the PettingZoo AEC environment for a
wall-clock budget, computing every step's observation and mask as an agent would
(``env.last()``), and reports steps per second and the mean reset time, beside the
engine's own random-playout decisions per second measured in the same run (the same
budget, ``meeplehall bench``'s playout loop). ``bench_vector`` does the same for the
vector environment: ``num_envs`` games per ``step`` call, a random legal action per game
drawn from the batched masks. Timings depend on the machine and its load: they are a
benchmark, never a test.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any

import numpy as np


def _engine_rate(game: str, players: int, seconds: float, options: dict[str, Any]) -> float:
    """Decisions per second of random playouts through the engine alone."""
    from meeplehall.cli.bench import bench_players
    from meeplehall.core.protocol import validate_params
    from meeplehall.rl.table import game_named

    g = game_named(game)
    params = validate_params(g.options, {**options, "players": players})
    return round(bench_players(g, params, seconds).decisions_per_s, 1)


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform random legal action per row of a batch of masks (each row with at least
    one legal action): the legal indices of all rows in one flat array, and in each
    row's stretch of it a position drawn below the row's count."""
    legal = np.flatnonzero(mask)
    counts = np.count_nonzero(mask, axis=1)
    starts = np.cumsum(counts) - counts
    picks: np.ndarray = legal[starts + (rng.random(len(counts)) * counts).astype(np.int64)]
    picks %= mask.shape[1]
    return picks


def _load() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:  # pragma: no cover - platforms without a load average
        return None


def bench_env(game: str, players: int = 2, seconds: float = 5.0, seed: int = 0,
              engine: bool = True, **options: Any) -> dict[str, Any]:
    """Run random games in ``meeplehall.rl.env(game, players, **options)`` for about
    ``seconds`` of wall-clock time.

    Returns:
        ``{"game", "players", "seconds", "steps", "steps_per_s", "steps_per_cpu_s",
        "games", "resets", "reset_ms", "obs_size", "num_actions",
        "engine_decisions_per_s", "load_average"}``; ``steps`` counts agent decisions
        (each with its observation and mask computed), ``steps_per_cpu_s`` divides them
        by the process's CPU time instead of the wall clock (what the code costs when
        other work shares the machine),
        ``reset_ms`` is the mean time of ``reset``; ``engine_decisions_per_s`` is the
        engine alone over the same budget (absent with ``engine=False``), and
        ``load_average`` the machine's 1-minute load average at the end.

    Raises:
        ValueError: unknown game or option, or ``seconds`` not positive.
    """
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds!r}")
    from meeplehall.rl import env as make_env

    env = make_env(game, players, **options)
    rng = random.Random(seed)
    steps = games = resets = 0
    reset_time = 0.0
    start = time.perf_counter()
    deadline = start + seconds
    game_seed = seed
    cpu_start = time.process_time()
    while time.perf_counter() < deadline:
        t0 = time.perf_counter()
        env.reset(seed=game_seed)
        reset_time += time.perf_counter() - t0
        resets += 1
        game_seed += 1
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
            if time.perf_counter() >= deadline:
                break
        else:
            games += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    enc = env.unwrapped.encoder
    report: dict[str, Any] = {
        "game": game, "players": players, "seconds": round(elapsed, 3), "steps": steps,
        "steps_per_s": round(steps / elapsed, 1) if elapsed else 0.0,
        "steps_per_cpu_s": round(steps / cpu, 1) if cpu else 0.0, "games": games,
        "resets": resets, "reset_ms": round(1000 * reset_time / max(resets, 1), 2),
        "obs_size": enc.size, "num_actions": enc.num_actions}
    if engine:
        report["engine_decisions_per_s"] = _engine_rate(game, players, seconds, options)
    report["load_average"] = _load()
    return report


def bench_vector(game: str, num_envs: int, players: int = 2, seconds: float = 5.0,
                 seed: int = 0, engine: bool = True, workers: int = 1,
                 **options: Any) -> dict[str, Any]:
    """Step ``meeplehall.rl.vector_env(game, num_envs, players, **options)`` with random
    legal actions for about ``seconds``.

    Returns:
        ``{"game", "players", "num_envs", "workers", "seconds", "calls", "steps",
        "steps_per_s", "steps_per_cpu_s", "games", "engine_decisions_per_s",
        "load_average"}``: ``steps`` counts decisions over all games (``num_envs`` per
        call), ``games`` the games finished; ``workers`` processes step the games (see
        ``rl.vector``); ``steps_per_cpu_s`` (one process only, ``workers=1``) divides
        the steps by the process's CPU time.

    Raises:
        ValueError: unknown game or option, ``num_envs`` below 1, or ``seconds`` not
            positive.
    """
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds!r}")
    from meeplehall.rl import vector_env

    env = vector_env(game, num_envs, players, copy=False, workers=workers, **options)
    try:
        rng = np.random.default_rng(seed)
        obs, _ = env.reset(seed=seed)
        calls = games = 0
        start = time.perf_counter()
        cpu_start = time.process_time()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            actions = random_legal(obs["action_mask"], rng)
            obs, _rewards, terminated, _truncated, _infos = env.step(actions)
            games += int(terminated.sum())
            calls += 1
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
    finally:
        env.close()
    steps = calls * num_envs
    report: dict[str, Any] = {
        "game": game, "players": players, "num_envs": num_envs, "workers": workers,
        "seconds": round(elapsed, 3),
        "calls": calls, "steps": steps,
        "steps_per_s": round(steps / elapsed, 1) if elapsed else 0.0}
    if workers == 1:
        report["steps_per_cpu_s"] = round(steps / cpu, 1) if cpu else 0.0
    report["games"] = games
    if engine:
        report["engine_decisions_per_s"] = _engine_rate(game, players, seconds, options)
    report["load_average"] = _load()
    return report
