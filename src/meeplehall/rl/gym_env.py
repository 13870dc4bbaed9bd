"""Gymnasium single-agent wrapper: you play one seat, bots of the ladder play the rest.

Observation: ``{"observation": float32[obs_size], "action_mask": int8[num_actions]}``
(the same encoding as the PettingZoo environment); action: a catalogue index. ``step``
applies your action, then lets the bots (``meeplehall.ai.base.make_bot``) decide until it
is your turn again or the game is over. The reward is the terminal reward of your seat,
paid on the final step; ``info`` carries the ``outcome`` at the end and, with
``views=True``, your ``view`` and the ``legal`` actions' text. Bots see only their own
views, as everywhere in meeplehall.

An illegal action never raises by default (``illegal_action="end"``): the move is
refused, the reward is -1, the episode ends (``terminated``) and ``info["illegal"]`` is
True; the game is abandoned. ``illegal_action="raise"`` raises ``ValueError`` instead.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from meeplehall.ai.base import Bot, make_bot
from meeplehall.rl.encoders.base import OBS_BOUND
from meeplehall.rl.table import Table


class SingleAgentEnv(gym.Env[Any, Any]):
    """One seat of a meeplehall game as a Gymnasium environment.

    Args:
        game: ``"praga"`` or ``"red-cathedral"``.
        players: number of seats.
        opponent: bot kind for every other seat (``random``, ``greedy``, ``mcts-easy``...),
            or a list of kinds, one per other seat in seat order.
        seat: the seat you play.
        reward: ``"rank"`` or ``"margin"``.
        illegal_action: ``"end"`` (default; for agents that ignore the mask: the episode
            ends at once with reward -1 and ``info["illegal"] = True``; the game is
            abandoned) or ``"raise"`` (an illegal index raises ``ValueError``).
        views: put your player view and the legal actions' text in every ``info``.
        options: game options.

    Raises:
        ValueError: unknown game, bot, reward or option; a seat out of range.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - as in gym.Env

    def __init__(self, game: str, players: int = 2, opponent: str | list[str] = "random",
                 seat: int = 0, reward: str = "rank", render_mode: str | None = None,
                 illegal_action: str = "end", views: bool = False, **options: Any) -> None:
        super().__init__()
        if illegal_action not in ("raise", "end"):
            raise ValueError(f"illegal_action must be 'end' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.views = bool(views)
        self.table = Table(game, players, reward, **options)
        self.encoder = self.table.encoder
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, got {seat!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.seat = seat
        kinds = [opponent] * (players - 1) if isinstance(opponent, str) else list(opponent)
        if len(kinds) != players - 1:
            raise ValueError(f"opponent needs {players - 1} bot kinds, got {len(kinds)}")
        for kind in kinds:
            make_bot(kind, 0)  # fails now, with the list of kinds, if one is unknown
        self.opponent_kinds = kinds
        self.bots: dict[int, Bot] = {}
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoder.num_actions,), np.int8),
        })
        self.action_space = spaces.Discrete(self.encoder.num_actions)

    def _others(self, seed: int) -> None:
        others = [s for s in range(self.table.players) if s != self.seat]
        self.bots = {s: make_bot(kind, seed * 7919 + s)
                     for s, kind in zip(others, self.opponent_kinds, strict=True)}

    def _play_bots(self) -> None:
        table = self.table
        while table.outcome() is None:
            seat = table.to_move()
            assert seat is not None
            if seat == self.seat:
                return
            view = table.view(seat)
            action = self.bots[seat].choose(table.game, view, table.legal)
            table.step_action(action)

    def _obs_info(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        obs = {"observation": self.table.observation(self.seat),
               "action_mask": self.table.mask(self.seat)}
        info: dict[str, Any] = {}
        if self.views:
            info["view"] = self.table.view(self.seat)
            info["legal"] = [str(a) for a in self.table.legal]
        outcome = self.table.outcome()
        if outcome is not None:
            info["outcome"] = outcome.to_dict()
        return obs, info

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray],
                                                               dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**31 - 1)) if seed is None else int(seed)
        self.table.reset(game_seed)
        self._others(game_seed)
        self._play_bots()
        return self._obs_info()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        """Play ``action`` (a catalogue index), then the bots until your next decision.

        Raises:
            ValueError: with ``illegal_action="raise"`` only: the action is illegal, out
                of range, or the game is over.
        """
        if self.illegal_action == "end" and not self.table.is_legal(action):
            obs, info = self._obs_info()
            info["illegal"] = True
            return obs, -1.0, True, False, info
        self.table.step(action)
        self._play_bots()
        obs, info = self._obs_info()
        done = self.table.outcome() is not None
        reward = self.table.rewards()[self.seat] if done else 0.0
        return obs, reward, done, False, info

    def action_masks(self) -> np.ndarray:
        """The legal mask as a bool array (the convention of sb3-contrib's MaskablePPO)."""
        return self.table.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.table.state is None:
            return None
        outcome = self.table.outcome()
        if outcome is not None:
            return f"game over: scores {list(outcome.scores)}"
        return self.table.game.describe_decision(self.table.state)
