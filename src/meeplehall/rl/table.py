"""A game in progress seen through the encoder: the piece every RL wrapper shares.

``Table`` holds one engine state, the game's encoder and the reward scheme; it steps by
catalogue index, checks legality against the engine's own ``legal_actions`` (the mask is
made from that list, so there is one generator of legality, STYLE.md section 10) and
encodes observations from the state's public fields (``Observer``; the same numbers as
the reference encoding of the seat's player view, tests/rl/test_observation.py).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from meeplehall.core.protocol import Game, Outcome
from meeplehall.games import GAMES
from meeplehall.rl.encoders import Encoder, make_encoder
from meeplehall.rl.encoders.base import Observer
from meeplehall.rl.rewards import DEFAULT_MARGIN_SCALE, REWARDS, terminal_rewards


class DiscardedLog(list[Any]):
    """A game log that keeps nothing: a table's engine state holds one in place of its
    log when nobody will read it (``Table(log=False)``). The log is the game's text for
    people (views, saves); the rules never read it back, and a log kept by each of many
    games in one process costs the garbage collector a pass over every entry."""

    __slots__ = ()

    def append(self, entry: Any) -> None:
        pass

    def insert(self, index: Any, entry: Any) -> None:
        pass

    def extend(self, entries: Any) -> None:
        pass

    def __iadd__(self, entries: Any) -> DiscardedLog:  # type: ignore[misc]
        return self


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
        log: keep the engine's game log (False: a :class:`DiscardedLog` keeps nothing,
            so views show an empty log; observations never read it).
        options: other game options, checked by the game (``initial_state``).

    Raises:
        ValueError: unknown game, reward or option, a bad player count, or a ``log``
            that is not a bool.
    """

    def __init__(self, game: str, players: int = 2, reward: str = "rank",
                 margin_scale: float = DEFAULT_MARGIN_SCALE, log: bool = True,
                 **options: Any) -> None:
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
        if not isinstance(log, bool):
            raise ValueError(f"log must be True or False, got {log!r}")
        self.log = log
        self.encoder: Encoder = make_encoder(self.game.name, players)
        self.observer = Observer(self.encoder, players)
        self.state: Any = None
        self._legal: tuple[Any, ...] = ()
        self._indices: list[int] = []  # the catalogue index of each legal action
        # The mask is a numpy view of a bytearray, rewritten as one slice.
        self._mask_bytes: bytearray | memoryview = bytearray(self.encoder.num_actions)
        self._mask = np.frombuffer(self._mask_bytes, dtype=np.int8)
        self._no_mask = np.zeros(self.encoder.num_actions, dtype=np.int8)
        self._no_mask.flags.writeable = False
        self._to_move: int | None = None
        self._outcome: Outcome | None = None
        # the protocol's methods bound once (one look-up less at every move)
        self._outcome_of = self.game.outcome
        self._current_player = self.game.current_player
        self._legal_actions = self.game.legal_actions
        self._apply = self.game.apply_unchecked
        self._legal_of = self.encoder.legal

    def clone(self) -> Table:
        """An independent copy: the engine state is cloned, game and encoder shared."""
        new = object.__new__(Table)
        new.__dict__.update(self.__dict__)
        new.state = None if self.state is None else self.state.clone()
        if new.state is not None and not self.log:  # a clone copies the log as a list
            new.state.log = DiscardedLog()
        new.observer = Observer(self.encoder, self.players)
        new._mask_bytes = bytearray(self._mask_bytes)
        new._mask = np.frombuffer(new._mask_bytes, dtype=np.int8)
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its configuration and the engine state's JSON form (the encoder and
        observer are rebuilt), so a table travels between processes and into OpenSpiel's
        serialised states."""
        options = {k: v for k, v in self.params.items() if k != "players"}
        state = None if self.state is None else self.game.to_json(self.state)
        return (_restore_table, (self.game.name, self.players, self.reward,
                                 self.margin_scale, self.log, options, state))

    def bind_mask(self, out: np.ndarray) -> None:
        """Keep the legal mask in ``out`` (an int8 row of the encoder's action count, such
        as a row of a vector environment's batch) instead of the table's own array."""
        if out.dtype != np.int8 or out.shape != (self.encoder.num_actions,):
            raise ValueError(f"bind_mask needs an int8 row of {self.encoder.num_actions}")
        out[:] = self._mask
        self._mask = out
        self._mask_bytes = out.data.cast("B")

    def reset(self, seed: int) -> None:
        """Start a new game from ``seed``."""
        self.state = self.game.initial_state(self.params, int(seed))
        if not self.log:
            self.state.log = DiscardedLog()
        self.observer.forget()
        self._refresh()

    def refresh(self) -> int | None:
        """Recompute the legal actions, mask, outcome and seat to move (after ``state``
        was replaced or changed from outside, or after :meth:`apply`); returns the seat
        to move (None: the game is over)."""
        return self._refresh()

    def _refresh(self) -> int | None:
        """Read the new position; returns the seat to move (None: the game is over)."""
        state = self.state
        self._outcome = outcome = self._outcome_of(state)
        if outcome is not None:
            self._to_move, self._legal = None, ()
            self._indices, mask = self.encoder.legal(())
            self._mask_bytes[:] = mask
            return None
        self._to_move = seat = self._current_player(state)
        self._legal = legal = self._legal_actions(state)
        self._indices, mask = self._legal_of(legal)
        self._mask_bytes[:] = mask
        return seat

    @property
    def legal(self) -> tuple[Any, ...]:
        """Legal actions now (empty once the game is over)."""
        return self._legal

    def to_move(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return self._to_move

    def outcome(self) -> Outcome | None:
        return self._outcome

    def view(self, seat: int) -> dict[str, Any]:
        return self.game.player_view(self.state, seat)

    def observation(self, seat: int) -> np.ndarray:
        """The float32 observation of ``seat`` (a new array): what its view shows, read
        from the state (:class:`~meeplehall.rl.encoders.base.Observer`)."""
        return self.observer.encode(self.state, seat).copy()

    def observe(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """``(observation(seat), mask(seat))`` in one call (new arrays)."""
        return (self.observer.encode(self.state, seat).copy(),
                (self._mask if self._to_move == seat else self._no_mask).copy())

    def reference_observation(self, seat: int) -> np.ndarray:
        """The same observation encoded from the seat's player view (slow; for tests)."""
        return self.encoder.encode(self.view(seat), seat)

    def legal_indices(self) -> list[int]:
        """The catalogue indices of the legal actions, ascending."""
        return sorted(self._indices)

    def is_legal(self, index: Any) -> bool:
        """Whether catalogue ``index`` is a legal action now (False once the game is
        over, or for anything that is not an index)."""
        i: int
        if type(index) is int:
            i = index
        else:
            try:
                i = int(index)
            except (TypeError, ValueError, OverflowError):
                return False
        return 0 <= i < len(self._mask_bytes) and self._mask_bytes[i] == 1

    def mask_view(self, seat: int) -> np.ndarray:
        """The legal mask of ``seat`` as the table's own array (read it, never keep it or
        write to it: the next move overwrites it)."""
        return self._mask if self._to_move == seat else self._no_mask

    def mask(self, seat: int) -> np.ndarray:
        """The int8 legal mask of ``seat`` (a new array): all zero unless it is that
        seat's decision."""
        return self.mask_view(seat).copy()

    def step(self, index: Any) -> Any:
        """Apply the action at catalogue ``index``; return the action value.

        Raises:
            ValueError: the index is out of range, not legal now, or the game is over.
        """
        if self._outcome is not None:
            raise ValueError("the game is over; reset() to play again")
        try:
            i = None if isinstance(index, bool) else operator.index(index)
        except TypeError:
            i = None
        if i is not None and 0 <= i < len(self._mask_bytes) and self._mask_bytes[i]:
            action = self._legal[self._indices.index(i)]
        else:
            action = self.encoder.action_at(index)
            if action not in self._legal:
                raise ValueError(f"action index {int(index)} ({action}) is not legal now; "
                                 f"{self.game.describe_decision(self.state)} "
                                 f"({len(self._legal)} legal actions)")
        self._apply(self.state, action)
        self._refresh()
        return action

    def play(self, index: int) -> int | None:
        """Apply the action at catalogue ``index``, which :meth:`is_legal` accepted (not
        checked again); returns the seat to move next (None: the game is over)."""
        self._apply(self.state, self._legal[self._indices.index(index)])
        return self._refresh()

    def apply(self, index: int) -> None:
        """The first half of :meth:`play`: apply the action at catalogue ``index``, which
        :meth:`is_legal` accepted; legal actions, mask and seat to move are stale until
        :meth:`refresh`."""
        self._apply(self.state, self._legal[self._indices.index(index)])

    def step_action(self, action: Any) -> None:
        """Apply an action value (from a bot), checked against the legal list."""
        self.step(self.encoder.action_index(action))

    def rewards(self) -> list[float]:
        """Terminal rewards per seat (all zero while the game goes on)."""
        outcome = self.outcome()
        if outcome is None:
            return [0.0] * self.players
        return terminal_rewards(outcome, self.players, self.reward, self.margin_scale)


def _restore_table(game: str, players: int, reward: str, margin_scale: float, log: bool,
                   options: dict[str, Any], state: dict[str, Any] | None) -> Table:
    table = Table(game, players, reward, margin_scale, log, **options)
    if state is not None:
        table.state = table.game.from_json(state)
        if not log:
            table.state.log = DiscardedLog()
        table._refresh()
    return table
