"""``ModuleGame``: the protocol plumbing shared by games built in our usual shape.

A game package has the modules ``setup`` (``initial_state``), ``rules``
(``legal_actions``, ``apply_unchecked``), ``final`` (``outcome``), ``views``
(``player_view``, ``sample_hidden``, ``side_name``, ``reveals``), ``actions``
(``parse_action``) and a state class with ``players``, ``final``, ``stack`` (the pending
decisions, top last: typed values, one frozen dataclass per kind in the game's
``decisions`` module, each naming the ``seat`` asked), ``to_dict`` and ``from_dict``. A
game object subclasses ``ModuleGame``, names those modules, and adds only what is its own
(descriptions, rule texts, labels).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from meeplehall.core.protocol import A, GameBase, Outcome, Params, PlayerId, S


class ModuleGame(GameBase[S, A]):
    """The protocol methods, delegated to the game package's modules; ``S`` and ``A``
    are the game's state and action types (``ModuleGame[RCState, RCAction]``)."""

    setup: ModuleType
    rules: ModuleType
    final: ModuleType
    views: ModuleType
    actions: ModuleType
    state_class: type[S]

    def initial_state(self, params: Params, seed: int) -> S:
        state: S = self.setup.initial_state(params, seed)
        return state

    def current_player(self, state: Any) -> PlayerId | None:
        if state.final is not None or not state.stack:
            return None
        seat: int = state.stack[-1].seat
        return seat

    def legal_actions(self, state: S) -> tuple[A, ...]:
        legal: tuple[A, ...] = self.rules.legal_actions(state)
        return legal

    def apply_unchecked(self, state: S, action: A) -> None:
        self.rules.apply_unchecked(state, action)

    def outcome(self, state: S) -> Outcome | None:
        result: Outcome | None = self.final.outcome(state)
        return result

    def player_view(self, state: Any, player: PlayerId | None) -> dict[str, Any]:
        if player is not None and not 0 <= player < state.players:
            raise ValueError(f"no seat {player} in a {state.players}-player game")
        view: dict[str, Any] = self.views.player_view(state, player)
        return view

    def parse_action(self, text: str) -> A:
        action: A = self.actions.parse_action(text)
        return action

    def num_players(self, state: Any) -> int:
        players: int = state.players
        return players

    def to_json(self, state: Any) -> dict[str, Any]:
        data: dict[str, Any] = state.to_dict()
        return data

    def from_json(self, data: Mapping[str, Any]) -> S:
        state: S = self.state_class.from_dict(dict(data))  # type: ignore[attr-defined]
        return state

    def sample_hidden(self, view: dict[str, Any], rng: Any) -> S:
        state: S = self.views.sample_hidden(view, rng)
        return state

    def reveals(self, before: S, action: A, after: S) -> bool:
        shown: bool = self.views.reveals(before, action, after)
        return shown

    def side_name(self, state: S, side: int) -> str:
        name: str = self.views.side_name(state, side)
        return name
