"""Machine instructions per decision: the engine alone against an RL environment step.

    python -m tools.count_steps [--games praga,red-cathedral] [--warmup 2000] [--steps 4000]
                                [--num-envs 32] [--vector-warmup 32000]

Timings on a shared machine move by a third from run to run; instruction counts do not.
For each game (2 players) this runs three short programs under valgrind's callgrind and
counts the instructions of a measured stretch of ``--steps`` decisions only (imports,
set-up and a warm-up of ``--warmup`` decisions excluded, ``--vector-warmup`` for the
vector run: its games all start together, and a Red Cathedral game lasts about 1,000
decisions, so that many per game mix early and late positions as the single games do;
the stretch is cut out by dumping the counts at two calls of ``os.getppid``, a C
function nothing else in the loop calls):

* ``engine``: random playouts through ``legal_actions`` and ``apply_unchecked``, the loop
  ``meeplehall bench GAME`` times, per decision;
* ``env``: the loop of ``meeplehall bench rl GAME``: the PettingZoo environment, every
  step's observation and mask read with ``env.last()``, a random legal action drawn from
  the mask, per step;
* ``vector``: the loop of ``meeplehall bench rl GAME --num-envs N`` (one process), per
  decision over all games.

Prints a line per game and program, ``<game> <program> instructions_per_step=<n>``, then
each environment's ratio to the engine (``env_over_engine``, ``vector_over_engine``).
The games are seeded: the same code counts the same instructions (within a fraction of a
percent: hash randomisation is off, memory addresses still vary).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

PROGRAMS = ("engine", "env", "vector")


def _engine(game_name: str, warmup: int, steps: int, num_envs: int) -> None:
    from meeplehall.core.protocol import validate_params
    from meeplehall.core.rng import Rng
    from meeplehall.rl.table import game_named

    game = game_named(game_name)
    params = validate_params(game.options, {"players": 2})
    current_player, legal_actions = game.current_player, game.legal_actions
    apply = game.apply_unchecked
    seed = 0
    state = game.initial_state(params, seed)
    rng = Rng.from_seed(seed + 1)
    for n in range(warmup + steps):
        if n == warmup:
            os.getppid()
        if current_player(state) is None:  # as bench's playouts: the next seed
            seed += 1
            state = game.initial_state(params, seed)
            rng = Rng.from_seed(seed + 1)
        actions = legal_actions(state)
        apply(state, actions[rng.randbelow(len(actions))])
    os.getppid()


def _env(game_name: str, warmup: int, steps: int, num_envs: int) -> None:
    from meeplehall.rl import env as make_env

    env = make_env(game_name, 2)
    rng = random.Random(0)
    seed = n = 0
    while n < warmup + steps:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            if n == warmup:
                os.getppid()
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            n += 1
            if n == warmup + steps:
                break
    os.getppid()


def _vector(game_name: str, warmup: int, steps: int, num_envs: int) -> None:
    import numpy as np

    from meeplehall.rl import vector_env
    from meeplehall.rl.bench import random_legal

    env = vector_env(game_name, num_envs, 2, copy=False)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    calls = (warmup + steps) // num_envs
    for c in range(calls):
        if c == warmup // num_envs:
            os.getppid()
        obs, _rewards, _terminated, _truncated, _infos = env.step(
            random_legal(obs["action_mask"], rng))
    os.getppid()


def _measured(game: str, program: str, warmup: int, steps: int, num_envs: int,
              folder: Path) -> int:
    """Instructions of the measured stretch of one program under callgrind."""
    out = folder / f"{game}-{program}.out"
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1",
           "OMP_NUM_THREADS": "1"}
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--dump-before=getppid", "--dump-instr=no",
         f"--callgrind-out-file={out}", sys.executable, "-m", "tools.count_steps",
         "--inner", program, "--games", game, "--warmup", str(warmup), "--steps", str(steps),
         "--num-envs", str(num_envs)],
        check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # dumps: .1 start to the first marker, .2 the measured stretch, then the rest
    part = Path(f"{out}.2")
    for line in part.read_text(encoding="utf-8").splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise RuntimeError(f"no instruction total in {part}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="praga,red-cathedral",
                        help="comma-separated games (2 players each)")
    parser.add_argument("--warmup", type=int, default=2000,
                        help="decisions played before the count starts")
    parser.add_argument("--vector-warmup", type=int, default=32000,
                        help="the same for the vector run")
    parser.add_argument("--steps", type=int, default=4000, help="decisions counted")
    parser.add_argument("--num-envs", type=int, default=32, help="games of the vector run")
    parser.add_argument("--programs", default=",".join(PROGRAMS),
                        help=f"comma-separated programs ({', '.join(PROGRAMS)})")
    parser.add_argument("--inner", choices=PROGRAMS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    if args.inner is not None:
        runner: dict[str, Any] = {"engine": _engine, "env": _env, "vector": _vector}
        runner[args.inner](games[0], args.warmup, args.steps, args.num_envs)
        return
    programs = [p for p in args.programs.split(",") if p]
    if args.steps < args.num_envs and "vector" in programs:
        parser.error("--steps must be at least --num-envs")
    with tempfile.TemporaryDirectory() as folder:
        for game in games:
            per: dict[str, float] = {}
            for program in programs:
                steps, warmup = args.steps, args.warmup
                if program == "vector":  # whole calls of num_envs decisions
                    warmup = args.vector_warmup
                    steps = (warmup + args.steps) // args.num_envs * args.num_envs \
                        - warmup // args.num_envs * args.num_envs
                total = _measured(game, program, warmup, args.steps, args.num_envs,
                                  Path(folder))
                per[program] = total / steps
                print(f"{game} {program} instructions_per_step={per[program]:.0f}",
                      flush=True)
            for program in ("env", "vector"):
                if program in per and "engine" in per:
                    print(f"{game} {program}_over_engine="
                          f"{per[program] / per['engine']:.2f}", flush=True)


if __name__ == "__main__":
    main()
