"""N games stepped in one call: a Gymnasium vector environment for self-play.

``MeeplehallVectorEnv(game, num_envs)`` holds ``num_envs`` independent games. Each
call of ``step(actions)`` plays one decision in every game: ``actions[i]`` is the
catalogue index chosen for the seat to move in game ``i``. Every seat is played by the
caller, as in PettingZoo's turn-based games; the returned batch holds, per game, the
observation and mask of the seat to move next, and ``infos["seat"]`` says which seat that
is (0 = the first seat).

* observations: ``{"observation": float32[N, obs_size], "action_mask": int8[N, num_actions]}``
  (each row as in the single environments: what that seat's view shows);
* ``rewards[i]``: the terminal reward of the seat that just moved in game ``i``, 0 while
  the game goes on; ``infos["rewards"][i]`` holds every seat's (``float32[N, players]``);
* auto-reset (``AutoresetMode.SAME_STEP``): a game that ends is reset in the same call
  and the batch shows its new first decision; ``terminations[i]`` is True, and
  ``infos["final_obs"][i]`` (with ``infos["_final_obs"][i]`` True) holds the last
  observation of the seat that moved;
* an illegal action (masked out or out of range) is refused as in the single
  environments (``illegal_action="end"``): reward -1 to its seat, 0 to the others, the
  game ends (and is reset), ``infos["illegal"][i]`` is True; ``illegal_action="raise"``
  raises ``ValueError`` before any game moves (with ``workers``, any game of the share
  that holds the illegal action; the other shares play theirs).

A call plays the moves of all the games, then reads the positions they lead to, then
writes the observations: three passes over the games instead of one, as each pass needs
less of the CPU's caches than all three game by game.

The games keep no log (their engine states hold a
:class:`~meeplehall.rl.table.DiscardedLog`: nothing here shows the log, and many games'
logs cost the garbage collector a pass over every entry); ``log=True`` keeps them.

Seeds: ``reset(seed=s)`` starts game ``i`` from seed ``s + i``; later games draw their seeds
from a generator seeded with ``s``, so a run replays from its first seed.

``workers=K`` (K > 1) steps the games in K processes, each holding a contiguous share of
them, so that the engines run on K cores: the calling process steps the first share
itself and K - 1 worker processes the others. Actions go to the workers through pipes,
and every share writes its observations and masks straight into one shared-memory
batch. Rows, rewards and infos are as above; each share draws its later seeds from its
own generator (seeded with ``s`` plus its first game's index), so a run replays given
its seed and its ``K``. A worker that has answered waits for the next command by polling
its pipe for up to ``spin`` seconds before it sleeps (woken from sleep, a process may
start a tenth of a millisecond late: a few games' steps), and the caller polls for the
answers; neither polls when there are more processes than cores the caller may run on
(each would hold a core another one needs). ``tables`` is empty then (the games live in
the shares); call ``close()`` to stop the workers.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import multiprocessing
import os
import time
from multiprocessing.connection import Connection
from multiprocessing.shared_memory import SharedMemory
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from meeplehall.rl.encoders.base import OBS_BOUND
from meeplehall.rl.table import Table

#: How long (seconds) a worker polls its pipe for the next command before it sleeps.
SPIN = 0.001
#: How long (seconds) the caller polls a worker's pipe for its answer before it sleeps.
ANSWER_SPIN = 0.01


class MeeplehallVectorEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` games of ``game`` for ``players`` seats; see the module docstring.

    Raises:
        ValueError: unknown game, reward or option, ``num_envs`` below 1, or a bad
            ``illegal_action``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - as in gymnasium.vector.VectorEnv
        "autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: str, num_envs: int, players: int = 2, reward: str = "rank",
                 illegal_action: str = "end", copy: bool = True, workers: int = 1,
                 spin: float = SPIN, log: bool = False, **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if illegal_action not in ("end", "raise"):
            raise ValueError(f"illegal_action must be 'end' or 'raise', got {illegal_action!r}")
        if isinstance(workers, bool) or not isinstance(workers, int) or \
                not 1 <= workers <= num_envs:
            raise ValueError(f"workers must be an integer from 1 to num_envs ({num_envs}), "
                             f"got {workers!r}")
        if isinstance(spin, bool) or not isinstance(spin, int | float) or \
                not 0 <= spin < math.inf:
            raise ValueError(f"spin must be a number of seconds, 0 or more, got {spin!r}")
        # checks the game and options
        first = Table(game, players, reward, log=log, **options)
        self._shards: list[_Shard | _LocalShard] = []
        self._shm: list[SharedMemory] = []
        if workers > 1:
            self.tables: list[Table] = []
        else:
            self.tables = [first] + [first.clone() for _ in range(num_envs - 1)]
        self.encoder = first.encoder
        self.num_envs = num_envs
        self.players = players
        self.illegal_action = illegal_action
        self.copy = copy
        size, actions = self.encoder.size, self.encoder.num_actions
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        })
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (num_envs, size), np.float32),
            "action_mask": spaces.Box(0, 1, (num_envs, actions), np.int8),
        })
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, actions))
        self._obs = np.zeros((num_envs, size), np.float32)
        self._mask = np.zeros((num_envs, actions), np.int8)
        self._seat = np.zeros(num_envs, np.int64)
        self._bind()
        self._seeds = np.random.default_rng()
        if workers > 1:
            self._start_workers(game, players, reward, illegal_action, workers, float(spin),
                                {**options, "log": log})

    # -- worker processes (``workers`` > 1) ---------------------------------------------------

    def _start_workers(self, game: str, players: int, reward: str, illegal_action: str,
                       workers: int, spin: float, options: dict[str, Any]) -> None:
        n = self.num_envs
        obs_shm = SharedMemory(create=True, size=max(1, self._obs.nbytes))
        mask_shm = SharedMemory(create=True, size=max(1, self._mask.nbytes))
        aux_shm = SharedMemory(create=True, size=_AUX_BYTES * n)
        self._shm = [obs_shm, mask_shm, aux_shm]
        self._obs = np.ndarray(self._obs.shape, np.float32, buffer=obs_shm.buf)
        self._mask = np.ndarray(self._mask.shape, np.int8, buffer=mask_shm.buf)
        self._seat, self._rewards, self._terminated = _aux(aux_shm, n)
        # fork where there is one (no main-module guard needed in the caller's script)
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork") if "fork" in methods else \
            multiprocessing.get_context("spawn")
        bounds = [n * k // workers for k in range(workers + 1)]
        if workers > _cores():  # a polling process would hold a core that another needs
            spin = 0.0
        self._answer_spin = ANSWER_SPIN if spin else 0.0
        try:
            for lo, hi in itertools.pairwise(bounds[1:]):
                mine, theirs = context.Pipe()
                proc = context.Process(
                    target=_worker, daemon=True,
                    args=(theirs, game, players, reward, illegal_action, options,
                          [shm.name for shm in self._shm], n, lo, hi, spin))
                proc.start()
                theirs.close()
                self._shards.append(_Shard(lo, hi, mine, proc, self._answer_spin))
            # the caller's own share, made after the fork (the workers need no copy of it)
            local = MeeplehallVectorEnv(game, bounds[1], players, reward, illegal_action,
                                        copy=False, **options)
            hi = bounds[1]
            local._obs, local._mask, local._seat = self._obs[:hi], self._mask[:hi], \
                self._seat[:hi]
            local._bind()
            self._shards.insert(0, _LocalShard(
                0, hi, local, self._rewards[:hi], self._terminated[:hi]))
            for shard in self._shards:
                shard.answer()  # built (or the reason it could not be)
        except BaseException:
            self.close_extras()
            raise

    def _ask(self, command: str, args: list[Any]) -> list[Any]:
        for shard in self._shards:  # answers left unread by an interrupted call
            shard.drain()
        pairs = list(zip(self._shards, args, strict=True))
        for shard, arg in pairs[1:]:  # the workers first, then the caller's own share
            shard.send(command, arg)
        pairs[0][0].send(command, pairs[0][1])
        answers: list[Any] = []
        error: Exception | None = None
        for shard in self._shards:
            try:
                answers.append(shard.answer())
            except Exception as exc:  # every share answers before the error is raised
                error = error or exc
        if error is not None:
            raise error
        return answers

    def _reset_workers(self, seeds: list[int], base: int | None) -> None:
        # each share writes its seats into the shared ``_seat``
        self._ask("reset", [
            (seeds[s.lo:s.hi], None if base is None else base + s.lo) for s in self._shards])

    def _step_workers(self, acts: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray,
                                                          np.ndarray, np.ndarray,
                                                          dict[str, Any]]:
        n = self.num_envs
        # each share writes its seats, rewards and terminations into the shared arrays and
        # answers None, or the infos of its games that ended
        answers = self._ask("step", [acts[s.lo:s.hi].tolist() for s in self._shards])
        rewards = self._rewards.copy()
        terminated = self._terminated.copy()
        infos: dict[str, Any] = {}
        if any(answer is not None for answer in answers):
            infos = {"rewards": np.zeros((n, self.players), np.float32),
                     "final_obs": np.empty(n, dtype=object), "illegal": np.zeros(n, bool)}
            for shard, info in zip(self._shards, answers, strict=True):
                if info is not None:
                    for key in ("rewards", "final_obs", "illegal"):
                        infos[key][shard.lo:shard.hi] = info[key]
            infos["_final_obs"] = terminated.copy()
        infos["seat"] = self._seat.copy()
        return self._batch(), rewards, terminated, np.zeros(n, bool), infos

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the worker processes and free the shared batch (``workers`` > 1)."""
        for shard in self._shards:
            shard.stop()
        self._shards = []
        if self._shm:
            # the batch arrays keep views on the shared memory: give them their own copy
            self._obs, self._mask, self._seat = \
                self._obs.copy(), self._mask.copy(), self._seat.copy()
            self._rewards, self._terminated = self._rewards.copy(), self._terminated.copy()
            for shm in self._shm:
                # a batch handed out with copy=False may still view it: then the
                # mapping goes with this process
                with contextlib.suppress(BufferError):
                    shm.close()
                shm.unlink()
            self._shm = []

    def _bind(self) -> None:
        """Each game keeps its legal mask in its row of the batch (no copy per step)."""
        for i, table in enumerate(self.tables):
            table.bind_mask(self._mask[i])
        self._rows = [row.data for row in self._obs]

    def _next_seed(self) -> int:
        return int(self._seeds.integers(0, 2**31 - 1))

    def _write(self, i: int) -> None:
        table = self.tables[i]
        seat = table.to_move()
        assert seat is not None, "a game in the batch is over"
        self._seat[i] = seat
        # the observer keeps the seat's observation in the batch row, the table its mask
        table.observer.write_to(table.state, seat, self._rows[i])

    def _batch(self) -> dict[str, np.ndarray]:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        # read-only views: the observers and tables keep what they wrote there
        obs, mask = self._obs.view(), self._mask.view()
        obs.flags.writeable = mask.flags.writeable = False
        return {"observation": obs, "action_mask": mask}

    def _start(self, i: int, seed: int) -> None:
        table = self.tables[i]
        table.reset(seed)
        while table.outcome() is not None:  # a game over before any decision: next seed
            table.reset(self._next_seed())
        self._write(i)

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray],
                                                               dict[str, Any]]:
        """Start every game; ``seed`` an int (game ``i`` gets ``seed + i``), a list of
        one seed per game, or None (drawn at random). ``options`` is not used."""
        if isinstance(seed, list):
            if len(seed) != self.num_envs:
                raise ValueError(f"reset needs {self.num_envs} seeds, got {len(seed)}")
            seeds = [int(s) for s in seed]
            self._seeds = np.random.default_rng(seeds)
        elif seed is not None:
            seeds = [int(seed) + i for i in range(self.num_envs)]
            self._seeds = np.random.default_rng(int(seed))
        else:
            seeds = [self._next_seed() for _ in range(self.num_envs)]
        if self._shards:
            self._reset_workers(seeds, None if seed is None or isinstance(seed, list)
                                else int(seed))
            return self._batch(), {"seat": self._seat.copy()}
        if not self.tables:
            raise ValueError("the environment is closed")
        for i, s in enumerate(seeds):
            self._start(i, s)
        return self._batch(), {"seat": self._seat.copy()}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray, dict[str, Any]]:
        """One decision in every game; see the module docstring.

        Raises:
            ValueError: ``actions`` has the wrong length; with ``illegal_action="raise"``,
                an illegal action.
        """
        acts = np.asarray(actions).reshape(-1)
        n = self.num_envs
        if acts.shape[0] != n:
            raise ValueError(f"step needs {n} actions, got {acts.shape[0]}")
        if self._shards:
            return self._step_workers(acts)
        if not self.tables:
            raise ValueError("the environment is closed")
        rewards = np.zeros(n, np.float32)
        terminated = np.zeros(n, bool)
        all_rewards: np.ndarray | None = None
        illegal: np.ndarray | None = None
        final_obs: np.ndarray | None = None
        seats = self._seat.tolist()
        to_move = seats[:]  # each game's seat to move after this call
        tables = self.tables
        actions_now = acts.tolist() if acts.dtype.kind in "iu" else [int(a) for a in acts]
        legal = [table.is_legal(action)
                 for table, action in zip(tables, actions_now, strict=True)]
        if self.illegal_action == "raise" and not all(legal):
            i = legal.index(False)
            tables[i].step(actions_now[i])  # raises, saying why (no game has moved)
        # Three passes over the games (see the module docstring)
        for table, action, ok in zip(tables, actions_now, legal, strict=True):
            if ok:
                table.apply(action)
        for i, table in enumerate(tables):
            seat = seats[i]
            if legal[i]:
                now = table.refresh()
                if now is not None:  # the next decision (the mask is in the batch)
                    to_move[i] = now
                    continue
                seat_rewards = table.rewards()
            else:
                if illegal is None:
                    illegal = np.zeros(n, bool)
                illegal[i] = True
                seat_rewards = [0.0] * self.players
                seat_rewards[seat] = -1.0
            terminated[i] = True
            rewards[i] = seat_rewards[seat]
            if all_rewards is None:
                all_rewards = np.zeros((n, self.players), np.float32)
                final_obs = np.empty(n, dtype=object)
            assert final_obs is not None
            all_rewards[i] = seat_rewards
            final_obs[i] = {"observation": table.observation(seat),
                            "action_mask": np.zeros(self.encoder.num_actions, np.int8)}
            self._start(i, self._next_seed())  # observes the new game's first decision
            to_move[i] = -1 - int(self._seat[i])
        for table, now, row in zip(tables, to_move, self._rows, strict=True):
            if now >= 0:
                table.observer.write_to(table.state, now, row)
        self._seat[:] = [now if now >= 0 else -1 - now for now in to_move]
        infos: dict[str, Any] = {"seat": self._seat.copy()}
        if all_rewards is not None:
            infos["rewards"] = all_rewards
            infos["final_obs"] = final_obs
            infos["_final_obs"] = terminated.copy()
            infos["illegal"] = illegal if illegal is not None else np.zeros(n, bool)
        return self._batch(), rewards, terminated, np.zeros(n, bool), infos


def _cores() -> int:
    """The number of cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - platforms without affinity
        return os.cpu_count() or 1


def _wait(conn: Connection, spin: float) -> None:
    """Return when ``conn`` has something to read: poll it for up to ``spin`` seconds, then
    sleep until it has."""
    if spin and not conn.poll():
        deadline = time.perf_counter() + spin
        while not conn.poll():
            if time.perf_counter() > deadline:
                break


#: Bytes per game of the shared seats (int64), rewards (float32) and terminations (bool).
_AUX_BYTES = 8 + 4 + 1


def _aux(shm: SharedMemory, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The seat, reward and termination arrays of ``n`` games in ``shm``."""
    return (np.ndarray((n,), np.int64, buffer=shm.buf),
            np.ndarray((n,), np.float32, buffer=shm.buf, offset=8 * n),
            np.ndarray((n,), bool, buffer=shm.buf, offset=12 * n))


def _handle(env: MeeplehallVectorEnv, command: str, arg: Any, rewards: np.ndarray,
            terminated: np.ndarray) -> Any:
    """Carry out a ``reset`` or ``step`` command on one share's games (whose seats go to
    the shared ``env._seat``, rewards and terminations to ``rewards`` and ``terminated``);
    the answer: None, or the infos of the games that ended."""
    if command == "reset":
        seeds, base = arg
        env.reset(seed=list(seeds))
        if base is not None:  # later seeds: a generator of its own
            env._seeds = np.random.default_rng(base)
        return None
    _obs, rewards[:], terminated[:], _trunc, info = env.step(arg)
    if "rewards" not in info:
        return None
    return {key: info[key] for key in ("rewards", "final_obs", "illegal")}


class _LocalShard:
    """The games ``lo .. hi - 1`` that the calling process steps itself."""

    proc = None

    def __init__(self, lo: int, hi: int, env: MeeplehallVectorEnv, rewards: np.ndarray,
                 terminated: np.ndarray) -> None:
        self.lo, self.hi, self.env = lo, hi, env
        self.rewards, self.terminated = rewards, terminated
        self._answer: Any = None
        self._error: Exception | None = None

    def send(self, command: str, arg: Any) -> None:
        self._answer, self._error = None, None
        try:
            self._answer = _handle(self.env, command, arg, self.rewards, self.terminated)
        except Exception as exc:  # raised once the workers have answered too
            self._error = exc

    def answer(self) -> Any:
        if self._error is not None:
            raise self._error
        return self._answer

    def drain(self) -> None:
        pass

    def stop(self) -> None:
        """Drop the games and their views of the shared batch."""
        self.env.tables, self.env._rows = [], []
        env = self.env
        env._obs, env._mask = env._obs[:0].copy(), env._mask[:0].copy()
        env._seat = env._seat[:0].copy()
        self.rewards = self.terminated = np.zeros(0)


class _Shard:
    """One worker process and the games ``lo .. hi - 1`` it steps."""

    def __init__(self, lo: int, hi: int, conn: Connection,
                 proc: multiprocessing.process.BaseProcess, spin: float) -> None:
        self.lo, self.hi, self.conn, self.proc = lo, hi, conn, proc
        self.spin = spin
        self.unread = 1  # answers not read yet: the first says whether the games were built

    def send(self, command: str, arg: Any) -> None:
        self.conn.send((command, arg))
        self.unread += 1

    def answer(self) -> Any:
        """The worker's answer to the last command; its error raised as ValueError."""
        try:
            _wait(self.conn, self.spin)
            status, payload = self.conn.recv()
        except EOFError:
            raise RuntimeError(f"the worker of games {self.lo}..{self.hi - 1} "
                               f"died (exit code {self.proc.exitcode})") from None
        self.unread -= 1
        if status == "error":
            raise ValueError(payload)
        return payload

    def drain(self) -> None:
        """Read and drop the answers of commands sent before the last one was answered
        (a call interrupted while waiting)."""
        while self.unread:
            with contextlib.suppress(ValueError):
                self.answer()

    def stop(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.conn.send(("close", None))
        self.proc.join(5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(5)
        self.conn.close()


def _worker(conn: Connection, game: str, players: int, reward: str, illegal_action: str,
            options: dict[str, Any], shm_names: list[str], total: int, lo: int, hi: int,
            spin: float) -> None:
    """A worker process: games ``lo .. hi - 1`` of the batch, written into the shared
    observation, mask, seat, reward and termination arrays in place."""
    shms = [SharedMemory(name=name) for name in shm_names]
    env: MeeplehallVectorEnv | None = None
    rewards = terminated = np.zeros(0)
    try:
        try:
            env = MeeplehallVectorEnv(game, hi - lo, players, reward, illegal_action,
                                      copy=False, **options)
            size, actions = env.encoder.size, env.encoder.num_actions
            env._obs = np.ndarray((total, size), np.float32, buffer=shms[0].buf)[lo:hi]
            env._mask = np.ndarray((total, actions), np.int8, buffer=shms[1].buf)[lo:hi]
            seats, all_rewards, all_terminated = _aux(shms[2], total)
            env._seat, rewards, terminated = \
                seats[lo:hi], all_rewards[lo:hi], all_terminated[lo:hi]
            del seats, all_rewards, all_terminated
            env._bind()
        except Exception as exc:
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
            return
        conn.send(("ok", None))
        while True:
            _wait(conn, spin)
            try:
                command, arg = conn.recv()
            except EOFError:  # the caller is gone
                return
            if command not in ("reset", "step"):
                return
            try:
                answer = _handle(env, command, arg, rewards, terminated)
            except ValueError as exc:
                conn.send(("error", str(exc)))
            else:
                conn.send(("ok", answer))
    finally:
        del env, rewards, terminated  # views on the shared memory
        for shm in shms:
            shm.close()
