"""PettingZoo AEC environment for both games (``meeplehall.rl.env``).

Agents are ``player_0 .. player_{P-1}`` (seat order). Each agent observes a dict::

    {"observation": float32[obs_size], "action_mask": int8[num_actions]}

holding exactly what that seat's player view shows (read from the state,
:class:`~meeplehall.rl.encoders.base.Observer`); the mask is all zero unless the agent is
the one to decide. The action space is ``Discrete(num_actions)`` over the fixed catalogue
of the game (``env.unwrapped.encoder.actions[i]`` is the action value at index ``i``).
Rewards are paid only at the end (see :mod:`meeplehall.rl.rewards`); when the game ends
every agent's info carries ``outcome``. With ``views=True`` the info of the agent to act
also carries ``view`` (its player view, JSON-ready) and ``legal`` (the legal actions'
text), and the final infos the final views: handy for debugging and reward shaping,
about ten times slower. The engine keeps its game log (the text views show) only with
``views=True`` or ``log=True``: observations never read it, and without it a step is
cheaper (``env.unwrapped.table.view(seat)`` then shows an empty log).

An illegal action (out of range, masked out, or not an integer) never raises by default
(``illegal_action="end"``), as in PettingZoo's classic games: the move is refused, the
agent that made it gets reward -1, every other agent 0, the game ends for everyone
(``terminations`` all True) and each info carries ``illegal: True``.
``illegal_action="raise"`` raises ``ValueError`` instead (for debugging).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

from meeplehall.rl.encoders.base import OBS_BOUND
from meeplehall.rl.table import Table


class MeeplehallEnv(AECEnv):  # type: ignore[misc]
    """AEC environment of a meeplehall game; see the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it per instance
        "name": "meeplehall_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str, players: int = 2, reward: str = "rank",
                 render_mode: str | None = None, illegal_action: str = "end",
                 views: bool = False, log: bool | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if illegal_action not in ("end", "raise"):
            raise ValueError(f"illegal_action must be 'end' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.views = bool(views)
        # the engine's log is kept only where something shows it (the views)
        self.table = Table(game, players, reward, log=self.views if log is None else log,
                           **options)
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
        self._infos_set = False  # whether some agent's info is not empty
        self._after_move()

    def _view(self, seat: int) -> dict[str, Any]:
        if self._cached is None or self._cached[0] != seat:
            self._cached = (seat, self.table.view(seat))
        return self._cached[1]

    def _after_move(self) -> None:
        """Point at the next agent and fill infos; pay rewards if the game ended."""
        self._next(self.table.to_move())

    def _next(self, seat: int | None) -> None:
        """``_after_move`` with the seat to move (None: the game is over)."""
        if self._cached is not None:
            self._cached = None
        if seat is None:
            outcome = self.table.outcome()
            assert outcome is not None
            self._infos_set = True
            final = outcome.to_dict()
            for agent, reward in zip(self.possible_agents, self.table.rewards(), strict=True):
                if agent in self.agents:
                    self.rewards[agent] = reward
                    self.terminations[agent] = True
                    self.infos[agent] = {"outcome": final, "legal": []}
                    if self.views:
                        self.infos[agent]["view"] = self._view(self._seat[agent])
            return
        self.agent_selection = self.possible_agents[seat]
        if self._infos_set:
            infos = self.infos
            for agent in self.agents:
                if infos[agent]:
                    infos[agent] = {}
            self._infos_set = False
        if self.views:
            self._infos_set = True
            self.infos[self.agent_selection] = {
                "view": self._view(seat), "legal": [str(a) for a in self.table.legal]}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        observation, mask = self.table.observe(self._seat[agent])
        return {"observation": observation, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent to act's observation (None with ``observe=False``), cumulative
        reward, termination, truncation and info (PettingZoo's ``last``)."""
        agent = self.agent_selection
        if observe:
            observation, mask = self.table.observe(self._seat[agent])
            obs: Any = {"observation": observation, "action_mask": mask}
        else:
            obs = None
        return (obs, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action: int | None) -> None:
        """Play catalogue index ``action`` for the agent to act (None for a finished
        agent, as PettingZoo requires).

        Raises:
            ValueError: with ``illegal_action="raise"`` only: an illegal, out-of-range or
                missing action.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        table = self.table
        if not table.is_legal(action):
            if self.illegal_action == "raise":
                if action is None:
                    raise ValueError(f"{agent} is to act; None is only for finished agents")
                table.step(action)  # raises, saying why
            self._refuse(agent)
        else:
            assert action is not None  # is_legal(None) is False
            seat = table.play(action if type(action) is int else int(action))
            self._next(seat)
            if seat is not None:
                return  # rewards are paid only at the end: nothing to accumulate
        self._accumulate_rewards()

    def _refuse(self, agent: str) -> None:
        """The illegal move of ``agent``: -1 to it, 0 to the others, the game ends."""
        self._infos_set = True
        for other in self.agents:
            self.rewards[other] = -1.0 if other == agent else 0.0
            self.terminations[other] = True
            self.infos[other] = {"illegal": True, "illegal_agent": agent, "legal": []}

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


class MeeplehallParallelEnv(ParallelEnv):  # type: ignore[misc]
    """The PettingZoo parallel API over the same game (``meeplehall.rl.parallel_env``).

    The games are turn-based: each ``step(actions)`` applies the action of the one agent
    to decide (``infos[agent]["to_move"]`` is True for it) and ignores the others (they
    may be left out of ``actions``). Every live agent gets its observation at every step
    (its mask all zero unless it decides), rewards are paid at the end, and an illegal or
    missing action of the agent to decide is refused as in the AEC environment: -1 to
    it, 0 to the others, the game ends (``illegal_action="raise"`` raises instead).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it per instance
        "name": "meeplehall_parallel_v0", "render_modes": []}

    def __init__(self, game: str, players: int = 2, reward: str = "rank",
                 illegal_action: str = "end", **options: Any) -> None:
        super().__init__()
        self._aec = MeeplehallEnv(game, players, reward, illegal_action=illegal_action,
                                  **options)
        self.metadata = {**self.metadata,
                         "name": f"meeplehall_{game.replace('-', '_')}_parallel_v0"}
        self.possible_agents = list(self._aec.possible_agents)
        self.agents: list[str] = []
        self.encoder = self._aec.encoder
        self.table = self._aec.table

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._aec.action_space(agent)

    def _obs_infos(self) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        aec = self._aec
        acting = aec.agent_selection if aec.table.outcome() is None else None
        obs = {a: aec.observe(a) for a in self.agents}
        infos = {a: {**aec.infos.get(a, {}), "to_move": a == acting} for a in self.agents}
        return obs, infos

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._aec.reset(seed=seed, options=options)
        self.agents = list(self._aec.agents)
        return self._obs_infos()

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float],
                                                     dict[str, bool], dict[str, bool],
                                                     dict[str, dict[str, Any]]]:
        aec = self._aec
        if not self.agents:
            return {}, {}, {}, {}, {}
        acting = aec.agent_selection
        aec.step(actions.get(acting))
        live = list(self.agents)
        rewards = {a: float(aec.rewards.get(a, 0.0)) for a in live}
        terminations = {a: bool(aec.terminations.get(a, False)) for a in live}
        truncations = {a: bool(aec.truncations.get(a, False)) for a in live}
        obs, infos = self._obs_infos()
        if all(terminations.values()):
            self.agents = []
        return obs, rewards, terminations, truncations, infos
