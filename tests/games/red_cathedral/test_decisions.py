"""The decision objects (decisions.py, STYLE.md section 3): each kind's legal actions,
apply, prompt, rule, view fields, masking and hidden components, and its JSON form
(saved games written before the decisions were typed still load)."""

from __future__ import annotations

import json

import pytest

from meeplehall.core.messages import Message
from meeplehall.core.protocol import IllegalActionError
from meeplehall.core.rng import Rng
from meeplehall.games.red_cathedral import GAME
from meeplehall.games.red_cathedral import actions as A
from meeplehall.games.red_cathedral.decisions import (
    DECISION_NAMES,
    KINDS,
    Decision,
    Deliver,
    Influence,
    IvanClaim,
    IvanOrnament,
    Jewels,
    Market,
    PlaceTile,
    Turn,
    from_plain,
)
from meeplehall.games.red_cathedral.state import RCState
from tests.games.red_cathedral.fixtures import build, card, legal, play
from tests.games.red_cathedral.test_solo import ivan_plays, solo


def _positions() -> list[RCState]:
    """States at every decision of a few seeded random games (solo with the human
    choosing for Ivan, 4 players, the advanced side), plus Ivan's Ornament choice
    (RC-IVAN-ORN), which random play rarely reaches."""
    out = []
    for params, seed in (({"players": 1}, 1), ({"players": 1}, 2), ({"players": 4}, 3),
                         ({"players": 2, "advanced_workshops": True}, 4)):
        s = GAME.initial_state(params, seed)
        rng = Rng.from_seed(seed)
        while GAME.current_player(s) is not None:
            out.append(s.clone())
            acts = GAME.legal_actions(s)
            GAME.apply_unchecked(s, acts[rng.randbelow(len(acts))])
    towers = [[card("B01", 0, done=True), "M01", "D01"],
              [card("B02", 0, done=True), "M03", "D02"]]
    out.append(ivan_plays(solo(towers=towers, ivan={"up": [False] * 5},
                               options={"ivan_choice": "human"})))
    return out


POSITIONS = _positions()


def test_the_kinds_keep_their_names_and_numbers() -> None:
    """The view's "decision", the RL one-hot and the JSON form of saved games use them."""
    assert DECISION_NAMES == ("turn", "place-tile", "market", "influence", "deliver",
                              "jewels", "ivan-ornament", "ivan-claim")
    assert [k.tag for k in KINDS] == list(range(8))
    assert {type(s.stack[-1]) for s in POSITIONS} == set(KINDS)


def test_every_kind_names_its_rule_and_prompts_its_seat() -> None:
    for kind in KINDS:
        assert kind.rule.startswith("RC-") and kind.rule in kind.rules_text
    for s in POSITIONS:
        d = s.stack[-1]
        assert isinstance(d.prompt(s), Message)
        assert GAME.current_player(s) == d.seat
        assert GAME.rules_text(s) == d.rules_text


def test_legal_actions_and_the_view_ask_the_top_decision() -> None:
    for s in POSITIONS:
        d = s.stack[-1]
        assert GAME.legal_actions(s) == tuple(d.legal(s))
        view = GAME.player_view(s, d.seat)
        assert view["decision"] == d.kind and view["to_move"] == d.seat
        assert view["pending"] == {"kind": d.kind, "seat": d.seat, "fields": d.fields()}


def test_no_decision_holds_anything_private() -> None:
    """Every seat sees the same table (the views of one state are shared), so each
    decision shows whole to every seat and holds no hidden component to re-deal."""
    for s in POSITIONS:
        d = s.stack[-1]
        for seat in (*range(s.players), None):
            assert d.masked(seat) is d
        assert d.hidden_components() == ()


def test_the_json_form_round_trips() -> None:
    for s in POSITIONS[::7]:
        data = json.loads(json.dumps(GAME.to_json(s)))
        assert data["stack"] == [d.to_plain() for d in s.stack]
        assert GAME.from_json(data) == s


@pytest.mark.parametrize(("plain", "decision"), [
    ([0, 2], Turn(2)),
    ([1, 0, 17], PlaceTile(0, 17)),
    ([2, 3], Market(3)),
    ([3, 1, 0, 2], Influence(1, 0, 2)),
    ([4, 0, 3, 0, False], Deliver(0, 3, 0, False)),
    ([5, 1, 4, 2, 1, True], Jewels(1, 4, 2, 1, True)),
    ([6, 0, [0, 3]], IvanOrnament(0, (0, 3))),
    ([7, 0, [2, 5, 8]], IvanClaim(0, (2, 5, 8))),
])
def test_the_json_form_is_the_one_saved_games_hold(plain: list[object],
                                                   decision: Decision) -> None:
    """``[kind number, seat, *fields]``, as states were saved when the stack held tuples."""
    assert decision.to_plain() == plain
    assert from_plain(plain) == decision
    assert from_plain(json.loads(json.dumps(plain))) == decision


@pytest.mark.parametrize("plain", [[], [8, 0], ["turn", 0], [4, 0, 3], [0, 1, 2]])
def test_a_bad_decision_in_a_saved_game_is_a_clear_error(plain: list[object]) -> None:
    with pytest.raises(ValueError, match="not a Red Cathedral"):
        from_plain(plain)


def test_a_decision_refuses_an_action_it_does_not_offer() -> None:
    s = GAME.initial_state({"players": 2}, 5)
    with pytest.raises(IllegalActionError):
        Jewels(0, 0, 3, 0, False).apply(s, A.END_TURN)
    with pytest.raises(IllegalActionError):
        Turn(0).apply(s, A.DONE)
    with pytest.raises(IllegalActionError):
        IvanClaim(0, (0,)).apply(s, A.ivan_ornament(0))


def test_deliveries_count_down_and_close_when_none_is_left() -> None:
    """RC-BUILD-1: each delivery replaces the step with one fewer left; with none left
    the step closes itself (``settle``)."""
    s = play(build({"players": 2, "towers": [[card("B10", 0), "M01", "D01"]],  # 3 wood
                    "inv": {0: {"wood": 4}}, "turn": 0}), "build")
    assert s.stack[-1] == Deliver(0, 3, 0, False)
    s = play(s, "deliver wood 0")
    assert s.stack[-1] == Deliver(0, 2, 1, False)
    s = play(play(s, "deliver wood 0"), "deliver wood 0")
    assert s.stack == [Turn(1)]  # the step and the turn (nothing left to do) closed
    left = s.clone()
    left.stack.append(Deliver(0, 0, 3, False))
    assert left.stack[-1].settle(left) and isinstance(left.stack[-1], Turn)


def test_a_market_step_pushes_the_influence_action_it_uses() -> None:
    """RC-INF-1/2: using an Influence action puts it on top of the Market step; a
    lightning action closes after one use, 'done' closes an infinity action."""
    for s in POSITIONS:
        d = s.stack[-1]
        if not isinstance(d, Market):
            continue
        uses = [a for a in GAME.legal_actions(s) if isinstance(a, A.UseInfluence)]
        if uses:
            after = GAME.apply(s, uses[0])
            top = after.stack[-1]
            if isinstance(top, Influence):
                assert top == Influence(d.seat, uses[0].index, 0)
                assert after.stack[-2] == d
                assert isinstance(GAME.apply(after, A.DONE).stack[-1], Market | Turn)
                return
    raise AssertionError("no Influence action reached")


def test_an_infinity_action_counts_its_uses() -> None:
    for s in POSITIONS:
        d = s.stack[-1]
        if isinstance(d, Influence) and d.action_of(s).repeat:
            acts = [a for a in GAME.legal_actions(s) if a not in (A.DONE, A.SELL_PRESTIGE)
                    and not isinstance(a, A.Reroll)]
            if acts:
                after = GAME.apply(s, acts[0])
                top = after.stack[-1]
                if isinstance(top, Influence):  # else it closed itself: nothing left
                    assert top == Influence(d.seat, d.action, d.uses + 1)
                    return
    raise AssertionError("no repeated Influence action reached")


def test_ivan_choices_pop_and_carry_on_his_turn() -> None:
    s = next(s for s in POSITIONS if isinstance(s.stack[-1], IvanOrnament))
    assert legal(s) == {"ivan-ornament 0", "ivan-ornament 3"}
    after = play(s, "ivan-ornament 0")
    assert after.orn[0] == 1 and after.stack == [Turn(0)]



def _more_positions() -> list[RCState]:
    """POSITIONS plus seeded random games without free actions between steps (RC-AMB-19's
    alternative), where a step more often has its closing action alone."""
    out = list(POSITIONS)
    for players, seed in ((2, 5), (3, 6)):
        s = GAME.initial_state({"players": players, "free_actions_between_steps": False},
                               seed)
        rng = Rng.from_seed(seed)
        while GAME.current_player(s) is not None:
            out.append(s.clone())
            acts = GAME.legal_actions(s)
            GAME.apply_unchecked(s, acts[rng.randbelow(len(acts))])
    return out


def test_no_step_waits_with_its_closing_action_alone() -> None:
    """A step whose only legal action would close it closes itself (``settle``): its
    fast checks (RC-MARKET-6, RC-INF-2, RC-BUILD-1, RC-TURN-2) agree with ``legal``."""
    closers = {(A.END_TURN,), (A.FINISH_MARKET,), (A.DONE,), (A.FINISH_DELIVERY,)}
    seen = set()
    for s in _more_positions():
        legal_now = GAME.legal_actions(s)
        assert legal_now not in closers, (s.stack[-1], legal_now)
        seen.add(type(s.stack[-1]))
        clone = s.clone()
        assert not clone.stack[-1].settle(clone) and clone == s, s.stack[-1]
    assert {Turn, Market, Influence, Deliver} <= seen


def test_the_quick_checks_agree_with_the_lists_they_stand_for() -> None:
    """``has_market_action`` and an Influence probe say whether the full list is empty;
    the available cards are those of RC-CLAIM-2 (no Banner; a Base, or every card below
    carries one)."""
    from meeplehall.games.red_cathedral import market
    from meeplehall.games.red_cathedral.decisions import available_slots

    for s in _more_positions():
        d = s.stack[-1]
        if isinstance(d, Market):
            assert market.has_market_action(s, d.seat) == bool(
                market.market_actions(s, d.seat))
            for act in market.influence_card(s).actions:
                assert bool(market.influence_instances(s, d.seat, act, probe=True)) == bool(
                    market.influence_instances(s, d.seat, act))
        assert available_slots(s) == [
            slot for slot in range(len(s.owner)) if s.owner[slot] < 0
            and all(s.owner[k] >= 0 for k in range(slot - s.slot_level[slot], slot))]
