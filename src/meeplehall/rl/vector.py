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
  raises ``ValueError``.

Seeds: ``reset(seed=s)`` starts game ``i`` from seed ``s + i``; later games draw their seeds
from a generator seeded with ``s``, so a run replays from its first seed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from meeplehall.rl.encoders.base import OBS_BOUND
from meeplehall.rl.table import Table


class MeeplehallVectorEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` games of ``game`` for ``players`` seats; see the module docstring.

    Raises:
        ValueError: unknown game, reward or option, ``num_envs`` below 1, or a bad
            ``illegal_action``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - as in gymnasium.vector.VectorEnv
        "autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: str, num_envs: int, players: int = 2, reward: str = "rank",
                 illegal_action: str = "end", copy: bool = True, **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if illegal_action not in ("end", "raise"):
            raise ValueError(f"illegal_action must be 'end' or 'raise', got {illegal_action!r}")
        first = Table(game, players, reward, **options)
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
        self._seeds = np.random.default_rng()

    def _next_seed(self) -> int:
        return int(self._seeds.integers(0, 2**31 - 1))

    def _write(self, i: int) -> None:
        table = self.tables[i]
        seat = table.to_move()
        assert seat is not None, "a game in the batch is over"
        self._seat[i] = seat
        table.observation_into(seat, self._obs[i])
        self._mask[i] = table.mask_view(seat)

    def _batch(self) -> dict[str, np.ndarray]:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs, "action_mask": self._mask}

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
        rewards = np.zeros(n, np.float32)
        terminated = np.zeros(n, bool)
        all_rewards: np.ndarray | None = None
        illegal: np.ndarray | None = None
        final_obs: np.ndarray | None = None
        for i, table in enumerate(self.tables):
            action = int(acts[i])
            seat = int(self._seat[i])
            if not table.is_legal(action):
                if self.illegal_action == "raise":
                    table.step(action)  # raises, saying why
                if illegal is None:
                    illegal = np.zeros(n, bool)
                illegal[i] = True
                seat_rewards = [0.0] * self.players
                seat_rewards[seat] = -1.0
            else:
                table.step(action)
                if table.outcome() is None:
                    self._write(i)
                    continue
                seat_rewards = table.rewards()
            terminated[i] = True
            rewards[i] = seat_rewards[seat]
            if all_rewards is None:
                all_rewards = np.zeros((n, self.players), np.float32)
                final_obs = np.empty(n, dtype=object)
            assert final_obs is not None
            all_rewards[i] = seat_rewards
            final_obs[i] = {"observation": table.observation(seat),
                            "action_mask": np.zeros(self.encoder.num_actions, np.int8)}
            self._start(i, self._next_seed())
        infos: dict[str, Any] = {"seat": self._seat.copy()}
        if all_rewards is not None:
            infos["rewards"] = all_rewards
            infos["final_obs"] = final_obs
            infos["_final_obs"] = terminated.copy()
            infos["illegal"] = illegal if illegal is not None else np.zeros(n, bool)
        return self._batch(), rewards, terminated, np.zeros(n, bool), infos
