"""``Praga``: the protocol object tying setup, rules, scoring and views together."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from meeplehall.core.engine import ModuleGame
from meeplehall.core.messages import Message, term
from meeplehall.core.protocol import PlayerId, Views
from meeplehall.games.praga import actions as A
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga import final, rules, setup, views
from meeplehall.games.praga.state import PragaState


class Praga(ModuleGame[PragaState, A.PragaAction]):
    """Praga Caput Regni (Vladimír Suchý, Delicious Games 2020), 1-4 players: solo
    against the rulebook's dummy (P-SOLO-1..4) or the Parler bots (solo.py, parler.py)."""

    name = "praga"
    title = "Praga Caput Regni"
    rules_version = 3  # 3: audit fixes (P-UPG-5/7, P-TURN-3 slot bonus, GL-T4-6, crane, tiles)
    options = setup.OPTIONS
    min_players = 1
    max_players = 4
    shared_views = True  # one view for every seat, but for private draws (views.player_views)

    setup = setup
    rules = rules
    final = final
    views = views
    actions = A
    state_class = PragaState

    # The forward model and the result: the rules' own functions, with no delegating call
    # in between (they run at every step of every search and environment).
    legal_actions = staticmethod(rules.legal_actions)
    apply_unchecked = staticmethod(rules.apply_unchecked)
    outcome = staticmethod(final.outcome)

    def current_player(self, state: PragaState) -> PlayerId | None:
        if state.final is not None or not state.stack:
            return None
        return state.stack[-1].seat

    def describe_decision(self, state: PragaState) -> str:
        return str(self.decision_message(state))

    def decision_message(self, state: PragaState) -> Message:
        """The current decision's prompt as a message (rendered by every client)."""
        if not state.stack:
            return term("the game is over")
        return state.stack[-1].prompt(state)

    def player_views(self, state: PragaState, seats: Iterable[PlayerId | None],
                     memo: dict[Any, Any] | None = None) -> Views:
        return views.player_views(state, seats, memo)

    def rules_text(self, state: PragaState) -> str:
        if not state.stack:
            return "P-SCORE-1..9: the game is over."
        return state.stack[-1].rule

    def action_label(self, state: PragaState, action: A.PragaAction) -> str:
        """A sentence for people (UI buttons, logs, hints): the action's own label."""
        return action.label(state)

    def action_message(self, state: PragaState, action: A.PragaAction) -> Message:
        """The action's label as a message (rendered by every client)."""
        return action.message(state)

    def explain_illegal(self, state: PragaState, action: A.PragaAction,
                        legal: tuple[A.PragaAction, ...]) -> str:
        hub = bool(state.stack) and isinstance(state.stack[-1], D.Turn)
        if hub and isinstance(action, A.EndTurn) and state.taken < 0:
            return "end-turn is not legal: take an action tile first (P-TURN-2)"
        if hub and isinstance(action, A.EndTurn):
            return ("end-turn is not legal: perform one action of your action tile first "
                    "(P-TURN-2)")
        if (state.stack and state.final is None and action.verb in rules.RISKY
                and action in state.stack[-1].legal(state)):
            return (f"{action} is not legal: it would make the action of your action tile "
                    "impossible, and that action is mandatory (P-TURN-2)")
        return super().explain_illegal(state, action, legal)


GAME = Praga()
