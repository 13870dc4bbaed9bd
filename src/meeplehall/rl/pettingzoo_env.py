"""PettingZoo AEC environment for both games (``meeplehall.rl.env``).

Agents are ``player_0 .. player_{P-1}`` (seat order). Each agent observes a dict::

    {"observation": float32[obs_size], "action_mask": int8[num_actions]}

encoded from that seat's player view only; the mask is all zero unless the agent is the
one to decide. The action space is ``Discrete(num_actions)`` over the fixed catalogue of
the game (``env.unwrapped.encoder.actions[i]`` is the action value at index ``i``). The
info of the agent to act carries ``view`` (its player view, JSON-ready) and ``legal``
(the legal actions' text); when the game ends every agent's info carries its final view
and ``outcome``. Rewards are paid only at the end (see :mod:`meeplehall.rl.rewards`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from meeplehall.rl.encoders.base import OBS_BOUND
from meeplehall.rl.table import Table


class MeeplehallEnv(AECEnv):  # type: ignore[misc]
    """AEC environment of a meeplehall game; see the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it per instance
        "name": "meeplehall_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str, players: int = 2, reward: str = "rank",
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.table = Table(game, players, reward, **options)
        self.encoder = self.table.encoder
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"meeplehall_{game.replace('-', '_')}_v0"}
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoder.num_actions,), np.int8),
        })
        act_space = spaces.Discrete(self.encoder.num_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._seeds = np.random.default_rng()
        self._cached: tuple[int, dict[str, Any]] | None = None
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` fixes the game (and the seeds of later resets that
        pass none); ``options`` is accepted for the PettingZoo API and not used."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(0, 2**31 - 1))
        self.table.reset(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_move()

    def _view(self, seat: int) -> dict[str, Any]:
        if self._cached is None or self._cached[0] != seat:
            self._cached = (seat, self.table.view(seat))
        return self._cached[1]

    def _after_move(self) -> None:
        """Point at the next agent and fill infos; pay rewards if the game ended."""
        self._cached = None
        outcome = self.table.outcome()
        if outcome is not None:
            for agent, reward in zip(self.possible_agents, self.table.rewards(), strict=True):
                if agent in self.agents:
                    self.rewards[agent] = reward
                    self.terminations[agent] = True
                    self.infos[agent] = {"view": self._view(self._seat[agent]),
                                         "outcome": outcome.to_dict(), "legal": []}
            return
        seat = self.table.to_move()
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]
        for agent in self.agents:
            self.infos[agent] = {}
        self.infos[self.agent_selection] = {
            "view": self._view(seat), "legal": [str(a) for a in self.table.legal]}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        return {"observation": self.table.observation(seat, self._view(seat)),
                "action_mask": self.table.mask(seat)}

    def step(self, action: int | None) -> None:
        """Play catalogue index ``action`` for the agent to act (None for a finished
        agent, as PettingZoo requires).

        Raises:
            ValueError: an illegal or out-of-range action index.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act; None is only for finished agents")
        self._cumulative_rewards[agent] = 0.0
        self.table.step(int(action))
        self._after_move()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """``render_mode="ansi"``: the current decision as text."""
        if self.render_mode != "ansi" or self.table.state is None:
            return None
        game = self.table.game
        outcome = self.table.outcome()
        if outcome is not None:
            return f"game over: scores {list(outcome.scores)}"
        return f"{self.agent_selection}: {game.describe_decision(self.table.state)}"

    def close(self) -> None:
        pass
