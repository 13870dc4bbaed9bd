"""A game in progress seen through the encoder: the piece every RL wrapper shares.

``Table`` holds one engine state, the game's encoder and the reward scheme; it steps by
catalogue index, checks legality against the engine's own ``legal_actions`` (the mask is
made from that list, so there is one generator of legality, STYLE.md section 10) and
encodes observations from player views only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from meeplehall.core.protocol import Game, Outcome
from meeplehall.games import GAMES
from meeplehall.rl.encoders import Encoder, make_encoder
from meeplehall.rl.rewards import DEFAULT_MARGIN_SCALE, REWARDS, terminal_rewards


def game_named(name: str) -> Game:
    """The registered game called ``name``.

    Raises:
        ValueError: unknown game.
    """
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; games are: {', '.join(GAMES)}")
    return GAMES[name]


class Table:
    """One game configuration, its encoder and (after ``reset``) a state.

    Args:
        game: registry name (``"praga"`` or ``"red-cathedral"``).
        players: number of seats (1: solo, where the game has a solo mode).
        reward: ``"rank"`` or ``"margin"`` (see :mod:`meeplehall.rl.rewards`).
        margin_scale: divisor of the score margin.
        options: other game options, checked by the game (``initial_state``).

    Raises:
        ValueError: unknown game, reward or option, or a bad player count.
    """

    def __init__(self, game: str, players: int = 2, reward: str = "rank",
                 margin_scale: float = DEFAULT_MARGIN_SCALE, **options: Any) -> None:
        self.game = game_named(game)
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r}; rewards are: {', '.join(REWARDS)}")
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be an integer, got {players!r}")
        if margin_scale <= 0:
            raise ValueError(f"margin_scale must be positive, got {margin_scale!r}")
        self.params: dict[str, Any] = {**options, "players": players}
        # Validate the options now (a bad option should fail at construction, not reset).
        self.game.initial_state(self.params, 0)
        self.players = players
        self.reward = reward
        self.margin_scale = float(margin_scale)
        self.encoder: Encoder = make_encoder(self.game.name, players)
        self.state: Any = None
        self._legal: tuple[Any, ...] = ()

    def clone(self) -> Table:
        """An independent copy: the engine state is cloned, game and encoder shared."""
        new = object.__new__(Table)
        new.__dict__.update(self.__dict__)
        new.state = None if self.state is None else self.state.clone()
        return new

    def reset(self, seed: int) -> None:
        """Start a new game from ``seed``."""
        self.state = self.game.initial_state(self.params, int(seed))
        self._refresh()

    def _refresh(self) -> None:
        over = self.game.outcome(self.state) is not None
        self._legal = () if over else self.game.legal_actions(self.state)

    @property
    def legal(self) -> tuple[Any, ...]:
        """Legal actions now (empty once the game is over)."""
        return self._legal

    def to_move(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return self.game.current_player(self.state)

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def view(self, seat: int) -> dict[str, Any]:
        return self.game.player_view(self.state, seat)

    def observation(self, seat: int, view: dict[str, Any] | None = None) -> np.ndarray:
        """The float32 observation of ``seat`` (from its view only)."""
        return self.encoder.encode(view if view is not None else self.view(seat), seat)

    def mask(self, seat: int) -> np.ndarray:
        """The int8 legal mask of ``seat``: all zero unless it is that seat's decision."""
        if self.to_move() != seat:
            return np.zeros(self.encoder.num_actions, dtype=np.int8)
        return self.encoder.mask(self._legal)

    def step(self, index: int) -> Any:
        """Apply the action at catalogue ``index``; return the action value.

        Raises:
            ValueError: the index is out of range, not legal now, or the game is over.
        """
        if self.outcome() is not None:
            raise ValueError("the game is over; reset() to play again")
        action = self.encoder.action_at(index)
        if action not in self._legal:
            raise ValueError(f"action index {int(index)} ({action}) is not legal now; "
                             f"{self.game.describe_decision(self.state)} "
                             f"({len(self._legal)} legal actions)")
        self.game.apply_unchecked(self.state, action)
        self._refresh()
        return action

    def step_action(self, action: Any) -> None:
        """Apply an action value (from a bot), checked against the legal list."""
        self.step(self.encoder.action_index(action))

    def rewards(self) -> list[float]:
        """Terminal rewards per seat (all zero while the game goes on)."""
        outcome = self.outcome()
        if outcome is None:
            return [0.0] * self.players
        return terminal_rewards(outcome, self.players, self.reward, self.margin_scale)
