"""Throughput of the RL environment (``meeplehall bench rl GAME``).

``bench_env`` plays random legal moves through the PettingZoo AEC environment for a
wall-clock budget, computing every step's observation and mask as an agent would
(``env.last()``), and reports steps per second and the mean reset time. Timings depend on
the machine and its load: they are a benchmark, never a test.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np


def bench_env(game: str, players: int = 2, seconds: float = 5.0, seed: int = 0,
              **options: Any) -> dict[str, Any]:
    """Run random games in ``meeplehall.rl.env(game, players, **options)`` for about
    ``seconds`` of wall-clock time.

    Returns:
        ``{"game", "players", "seconds", "steps", "steps_per_s", "games", "resets",
        "reset_ms", "obs_size", "num_actions"}``; ``steps`` counts agent decisions (each
        with its observation and mask computed), ``reset_ms`` is the mean time of
        ``reset``.

    Raises:
        ValueError: unknown game or option, or ``seconds`` not positive.
    """
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds!r}")
    from meeplehall.rl import env as make_env

    env = make_env(game, players, **options)
    rng = np.random.default_rng(seed)
    steps = games = resets = 0
    reset_time = 0.0
    start = time.perf_counter()
    deadline = start + seconds
    game_seed = seed
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
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if time.perf_counter() >= deadline:
                break
        else:
            games += 1
    elapsed = time.perf_counter() - start
    enc = env.unwrapped.encoder
    return {"game": game, "players": players, "seconds": round(elapsed, 3), "steps": steps,
            "steps_per_s": round(steps / elapsed, 1) if elapsed else 0.0, "games": games,
            "resets": resets, "reset_ms": round(1000 * reset_time / max(resets, 1), 2),
            "obs_size": enc.size, "num_actions": enc.num_actions}
