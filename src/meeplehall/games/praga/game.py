"""``Praga``: the protocol object tying setup, rules, scoring and views together."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from meeplehall.core.engine import ModuleGame
from meeplehall.core.messages import M, Message, term
from meeplehall.core.protocol import PlayerId, Views
from meeplehall.games.praga import actions as A
from meeplehall.games.praga import final, rules, setup, views
from meeplehall.games.praga.state import (
    ANY_ACTION,
    ARROW,
    BRIDGE_TILE,
    CAT_TILE,
    CHOOSE,
    DISCARD,
    GROW,
    MARKET_PICK,
    MINE,
    ORIENT,
    PARLER_ORIENT,
    PARLER_PAWN,
    PARLER_SITE,
    PICK,
    PLANK,
    REFRESH,
    SITE,
    TECH_DRAW,
    TECH_GRID,
    TOKEN,
    TURN,
    WALL_AT,
    PragaState,
)
from meeplehall.games.praga.texts import ROW_TERMS

RULES_TEXT = {
    TURN: "P-TURN-2/3: take one action tile (pay the red cost / gain the blue VP), perform "
          "one of its two actions; at any moment of the turn: take the wheel bonus, buy "
          "and perform one extra action (P-XACT-1: 2 gold windows or gold + silver), "
          "refresh one row (P-ROW-5), move up on the Hunger Wall / Cathedral for 2 silver "
          "windows (P-GRID-5), make earned sideways moves (P-GRID-4), claim a seal "
          "(P-SEAL-2), use a level III/IV technology (P-TECH-6), resolve King's Road "
          "effects (P-ROAD-3). Nothing is used before it is paid for.",
    MINE: "P-MINE-2 / P-QUAR-1: expand (+1 and the cube moves right) or produce (the "
          "number left of the cube plus every production bonus left of it).",
    PICK: "P-ROW-1/3: take one tile of the row; the special (rightmost) tile only with the "
          "special-tile wheel bonus and the action of your action tile.",
    WALL_AT: "P-WALL-4: a free position around your action board.",
    SITE: "P-BLD-2/4/5: a market, then an empty building site next to it; Old Town sites "
          "cost their printed extra gold "
          "and give their printed VP.",
    ORIENT: "P-UPG-2, P-WALL-4: any of the 6 orientations; it decides which symbols and "
            "corners meet (P-ADJ-3/8/9).",
    REFRESH: "P-ROW-5: remove 2 normal tiles or the special and 1 normal tile.",
    CHOOSE: "Choose one of the rewards.",
    TECH_DRAW: "P-TECH-2: keep one of the drawn technologies.",
    TOKEN: "P-PROD-1/2: take a production token for the leftmost space of the track.",
    BRIDGE_TILE: "P-BRIDGE-2/3: keep one bridge tile.",
    PLANK: "P-BRIDGE-1: place it on a free plank position and gain the two fields.",
    ARROW: "P-GRID-6: you may move 1 up without windows (the tier cost is still due).",
    CAT_TILE: "P-GRID-7: take one of the Cathedral's final-scoring tiles.",
    DISCARD: "P-WIN-2: keep at most 2 windows at the end of your turn.",
    ANY_ACTION: "GL-T4-3: perform any one action.",
    TECH_GRID: "GL-T3-2: move 1 row up for free on the Hunger Wall or the Cathedral.",
    MARKET_PICK: "GL-T4-5: gain both rewards of one market tile on the board.",
    GROW: "GL-T4-6: +1 gold mine or quarry, then produce gold or stone.",
    PARLER_PAWN: "Parler P.2 step 3: put Parler's pawn on a plaza of your choice; he "
                 "builds there next (each bot on a different plaza).",
    PARLER_SITE: "Parler P.5 step 2: place his building on a free site at his pawn's "
                 "plaza; a blue corner must touch another blue corner if it can.",
    PARLER_ORIENT: "Parler P.5 step 2: turn his building; a blue corner must touch "
                   "another blue corner if it can.",
}


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

    def describe_decision(self, state: PragaState) -> str:
        return str(self.decision_message(state))

    def decision_message(self, state: PragaState) -> Message:
        """The current decision's prompt as a message (rendered by every client)."""
        if not state.stack:
            return term("the game is over")
        d = state.stack[-1]
        who = term(views.side_name(state, d[1]))
        kind = d[0]
        if kind == TURN:
            if state.taken < 0:
                return M("{seat}: turn {n} of 16, take an action tile", seat=who,
                         n=state.played[d[1]] + 1)
            if state.action_done:
                return M("{seat}: free activities, extra action or end your turn", seat=who)
            return M("{seat}: perform one action of your action tile", seat=who)
        if kind == PICK:
            return M("{seat}: choose a tile of the {row} row", seat=who, row=ROW_TERMS[d[2]])
        if kind == CHOOSE:
            why = d[3]
            reason = (M("market {market}", market=why[len("market "):])
                      if why.startswith("market ") else term(why))
            return M("{seat}: choose a reward ({why})", seat=who, why=reason)
        if kind in (PARLER_PAWN, PARLER_SITE, PARLER_ORIENT):
            bot = views.side_name(state, state.players + d[2])
            key = {PARLER_PAWN: "{seat}: choose the plaza where {bot} starts",
                   PARLER_SITE: "{seat}: choose the site of {bot}'s building",
                   PARLER_ORIENT: "{seat}: turn {bot}'s building"}[kind]
            return M(key, seat=who, bot=bot)
        return M("{seat}: " + RULES_TEXT[kind].split(":", 1)[1].strip(), seat=who)

    def player_views(self, state: PragaState, seats: Iterable[PlayerId | None],
                     memo: dict[Any, Any] | None = None) -> Views:
        return views.player_views(state, seats, memo)

    def rules_text(self, state: PragaState) -> str:
        if not state.stack:
            return "P-SCORE-1..9: the game is over."
        return RULES_TEXT[state.stack[-1][0]]

    def action_label(self, state: PragaState, action: A.PragaAction) -> str:
        """A sentence for people (UI buttons, logs, hints): the action's own label."""
        return action.label(state)

    def action_message(self, state: PragaState, action: A.PragaAction) -> Message:
        """The action's label as a message (rendered by every client)."""
        return action.message(state)

    def explain_illegal(self, state: PragaState, action: Any, legal: tuple[Any, ...]) -> str:
        if (state.stack and state.stack[-1][0] == TURN and getattr(action, "verb", "")
                == "end-turn" and state.taken < 0):
            return "end-turn is not legal: take an action tile first (P-TURN-2)"
        if (state.stack and state.stack[-1][0] == TURN and getattr(action, "verb", "")
                == "end-turn"):
            return ("end-turn is not legal: perform one action of your action tile first "
                    "(P-TURN-2)")
        if (state.stack and state.final is None and getattr(action, "verb", "") in rules.RISKY
                and action in rules._GENERATORS[state.stack[-1][0]](state, state.stack[-1])):
            return (f"{action} is not legal: it would make the action of your action tile "
                    "impossible, and that action is mandatory (P-TURN-2)")
        return super().explain_illegal(state, action, legal)


GAME = Praga()
