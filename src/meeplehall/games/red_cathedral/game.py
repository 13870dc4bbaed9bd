"""``RedCathedral``: the protocol object tying setup, rules, scoring and views together."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from meeplehall.core.engine import ModuleGame
from meeplehall.core.messages import M, Message, term
from meeplehall.core.protocol import Outcome, PlayerId, Views
from meeplehall.games.red_cathedral import actions as A
from meeplehall.games.red_cathedral import build, final, rules, setup, views
from meeplehall.games.red_cathedral.components import (
    CARD_KINDS,
    COLOURS,
    MATERIALS,
    ORNAMENTS,
    RESOURCES,
    WS_POSITIONS,
    load,
)
from meeplehall.games.red_cathedral.decisions import Turn
from meeplehall.games.red_cathedral.effects import mats, prestige_sale_steps
from meeplehall.games.red_cathedral.state import RCState

C = load()


def _terms(materials: tuple[int, ...]) -> tuple[Message, ...] | Message:
    """Materials as a list of terms ('wood, brick'), or 'none'."""
    return tuple(term(MATERIALS[m]) for m in materials) if materials else term("none")

SIMPLE_LABELS = {
    "build": "Build: up to 3 deliveries to your cards or Ornamentations",
    "end-turn": "End your turn",
    "pass": "Pass (no main action is possible)",
    "finish-market": "Finish the Market action (reroll the destination's dice)",
    "perform": "Carry out the Influence action",
    "hire-teamsters": "Pay the Teamsters to deliver Materials",
    "done": "Stop using this Influence action",
    "finish-delivery": "Stop delivering",
}


class RedCathedral(ModuleGame[RCState, A.RCAction]):
    """The Red Cathedral (Santos & Cendrero, Devir 2020), 1-4 players."""

    name = "red-cathedral"
    title = "The Red Cathedral"
    rules_version = 2  # 2: re-derived component data (plans of 6 cards per player, rewards)
    options = setup.OPTIONS
    min_players = 1
    max_players = 4
    shared_views = True  # every seat sees the same table (views.player_views)

    setup = setup
    rules = rules
    final = final
    views = views
    actions = A
    state_class = RCState

    def current_player(self, state: RCState) -> PlayerId | None:
        if state.final is not None or not state.stack:
            return None
        return state.stack[-1].seat

    # The hot protocol methods call the rules directly (one call less than ModuleGame's).
    def legal_actions(self, state: RCState) -> tuple[A.RCAction, ...]:
        return rules.legal_actions(state)

    def apply_unchecked(self, state: RCState, action: A.RCAction) -> None:
        rules.apply_unchecked(state, action)

    def outcome(self, state: RCState) -> Outcome | None:
        return None if state.final is None else final.outcome(state)

    def describe_decision(self, state: RCState) -> str:
        return str(self.decision_message(state))

    def decision_message(self, state: RCState) -> Message:
        """The current decision's prompt as a message (rendered by every client)."""
        if not state.stack:
            return term("the game is over")
        return state.stack[-1].prompt(state)

    def player_views(self, state: RCState, seats: Iterable[PlayerId | None],
                     memo: dict[Any, Any] | None = None) -> Views:
        return views.player_views(state, seats, memo)

    def rules_text(self, state: RCState) -> str:
        if not state.stack:
            return "RC-FINAL-1..3, RC-WIN-1/2: the game is over."
        return state.stack[-1].rules_text

    def action_label(self, state: RCState, action: A.RCAction) -> str:
        """A sentence for people (UI buttons, logs, hints), in English."""
        return str(self.action_message(state, action))

    def action_message(self, state: RCState, action: A.RCAction) -> Message:
        """The label of ``action`` as a message (rendered by every client)."""
        if isinstance(action, A.Claim):
            card = C.cards[state.card_of[action.slot]]
            kind, tower = term(CARD_KINDS[card.kind]), state.slot_tower[action.slot] + 1
            if action.from_inventory:
                key = "Claim {kind} {card} in tower {n} (Banner from Inventory)"
            elif state.opts.advanced_workshops:  # RC-CLAIM-1, RC-ADV-4
                key = "Claim {kind} {card} in tower {n} (Banner from a white Workshop space)"
            else:
                key = "Claim {kind} {card} in tower {n} (Banner from outside the Inventory)"
            return M(key, kind=kind, card=card.id, n=tower)
        if isinstance(action, A.MoveDie):
            pips = state.die_val[action.die]
            dest = (state.die_pos[action.die] + pips + action.extra) % 8
            rt = C.resource_tiles[state.tiles[dest]]
            tile = M("{n} {resource}", n=rt.amount, resource=term(RESOURCES[rt.resource]))
            colour, steps = term(COLOURS[action.die]), pips + action.extra
            if action.extra:
                return M("Move the {colour} die {n} space to space {dest} ({tile}), paying "
                         "{paid}", colour=colour, n=steps, dest=dest + 1, tile=tile,
                         paid=M("{n} Ruble", n=action.extra))
            return M("Move the {colour} die {n} space to space {dest} ({tile})",
                     colour=colour, n=steps, dest=dest + 1, tile=tile)
        if isinstance(action, A.Deliver):
            card = C.cards[state.card_of[action.slot]]
            return M("Deliver 1 {material} to {card} (slot {slot})",
                     material=term(MATERIALS[action.material]), card=card.id,
                     slot=action.slot + 1)
        if isinstance(action, A.Activate):
            return M("Activate the Workshop tile on {position}",
                     position=term(WS_POSITIONS[action.position]))
        if isinstance(action, A.PlaceTile):
            return M("Place the tile on {colour} face up" if action.face_up
                     else "Place the tile on {colour} face down",
                     colour=term(COLOURS[action.space]))
        if isinstance(action, A.Obtain) and state.dest >= 0:
            rt = C.resource_tiles[state.tiles[state.dest]]
            return M("Obtain {n} {resource}", n=action.amount,
                     resource=term(RESOURCES[rt.resource]))
        if isinstance(action, A.UseInfluence) and state.dest >= 0:
            inf = C.influence[state.influence[state.dest // 2]]
            act = inf.actions[action.index]
            return M("Use Influence: {text} ({mark})", text=term(act.text),
                     mark=term("repeatable" if act.repeat else "once"))
        if isinstance(action, A.Decorate):
            card = C.cards[state.card_of[action.slot]]
            return M("Decorate {card} with an {ornament}" if card.kind == 1
                     else "Decorate {card} with a {ornament}", card=card.id,
                     ornament=term(ORNAMENTS[card.kind]))
        if isinstance(action, A.Sell):
            return M("Sell 1 {material}", material=term(MATERIALS[action.material]))
        if isinstance(action, A.Buy):
            return M("Buy 1 {material}", material=term(MATERIALS[action.material]))
        if isinstance(action, A.Exchange):
            return M("Exchange {give} for {take}", give=_terms(action.give),
                     take=_terms(action.take))
        if isinstance(action, A.Upgrade):
            return M("Pay 1 Ruble and 1 {give} for 1 {take}", give=term(MATERIALS[action.give]),
                     take=term(MATERIALS[action.take]))
        if isinstance(action, A.SwapTiles):
            return M("Swap the Resource tiles of spaces {a} and {b}", a=action.a + 1,
                     b=action.b + 1)
        if isinstance(action, A.Discard):
            return M("Discard {mats}", mats=_terms(action.materials))
        if isinstance(action, A.IvanClaim | A.IvanOrnament):
            card = C.cards[state.card_of[action.slot]]
            key = ("Ivan's Banner goes on {kind} {card} (slot {slot})"
                   if isinstance(action, A.IvanClaim)
                   else "Ivan's Ornamentation goes on {kind} {card} (slot {slot})")
            return M(key, kind=term(CARD_KINDS[card.kind]), card=card.id, slot=action.slot + 1)
        if isinstance(action, A.SetJewels):
            return M("Set jewels: {jewels} (+{pp} Prestige)", jewels=mats(action.jewels),
                     pp=build.ornament_prestige(action.jewels))
        if isinstance(action, A.Reroll):
            return M("Pay 1 Prestige to reroll the dice on space {n}", n=action.space + 1)
        if action == A.SELL_PRESTIGE and state.stack:
            back = prestige_sale_steps(state, state.stack[-1].seat)
            if back:  # RC-SCORE-6, RC-AMB-4: back to the last Prestige space
                return M("Go back {k} Recognition to the last Prestige space for {n} Rubles "
                         "(no Prestige lost)", k=back, n=2)
        if action == A.SELL_PRESTIGE:
            return M("Sell 1 Prestige for {n} Rubles", n=2)
        text = str(action)
        return term(SIMPLE_LABELS.get(text, text))

    def explain_illegal(self, state: RCState, action: A.RCAction,
                        legal: tuple[A.RCAction, ...]) -> str:
        if state.stack and isinstance(state.stack[-1], Turn) and state.main_done and not isinstance(
                action, A.Reroll) and action not in (A.SELL_PRESTIGE, A.END_TURN):
            return (f"{action} is not legal: you have already taken your main action this "
                    "turn (RC-TURN-2); you may use free actions or end your turn")
        if isinstance(action, A.Claim) and action.slot >= len(state.owner):
            return f"{action} is not legal: there is no slot {action.slot} on this Building Plan"
        if isinstance(action, A.Claim) and state.owner[action.slot] >= 0:
            return f"{action} is not legal: slot {action.slot} already carries a Banner"
        return super().explain_illegal(state, action, legal)


GAME = RedCathedral()
