"""The rulebook's solo mode (§14, P-SOLO-1..4): ``players=1`` against the dummy that the
engine plays inside ``apply`` (solo.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from meeplehall.core.messages import log_lines
from meeplehall.core.rng import Rng
from meeplehall.core.testing import (
    check_clone_independent,
    check_json_roundtrip,
    check_playout_invariants,
    check_replay,
    check_view_resampling,
    check_views,
    random_playout,
)
from meeplehall.games.praga import GAME
from meeplehall.games.praga import crane as K
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.components import load
from meeplehall.games.praga.solo import B_TURNS, tiles_by_age
from tests.games.praga.fixtures import view_text
from tests.games.praga.test_properties import INVARIANTS

C = load()
SEEDS = st.integers(0, 2**32 - 1)
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)  # a whole game: no shrinking
SOLO = {"players": 1}


def test_P_SOLO_1_set_up_as_for_two_players_with_the_human_starting():
    """P-SOLO-1: markets, pre-built buildings, wheel arrow, platform cube and the
    production tokens are those of a 2-player game; one deciding seat, seat 0 starts."""
    for seed in (1, 2, 3):
        solo = GAME.initial_state(SOLO, seed)
        duo = GAME.initial_state({"players": 2}, seed)
        for field in ("market_tile", "site_tile", "rotation", "slots", "platform", "river",
                      "rows", "stacks", "pairs", "planks", "era", "star_armed"):
            assert getattr(solo, field) == getattr(duo, field), field
        assert solo.players == 1 and solo.opts.table == 2
        assert GAME.current_player(solo) == 0 and solo.stack == [D.Turn(0)]
        assert len(solo.vp) == 1 and solo.bots == ((0, 0, 0, 0, 0, 0, -1, -1, 0, 0),)
        assert GAME.min_players == 1
        assert GAME.player_view(solo, 0)["players"] == 1
        with pytest.raises(ValueError, match="no seat 1"):
            GAME.player_view(solo, 1)


def _crane_alone(s, taken):
    """The crane after one normal end of turn with ``taken`` out of the slots."""
    return K.end_turn(C.crane, s.rotation, s.slots, taken)


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_P_SOLO_2_after_each_turn_the_dummy_takes_the_tile_furthest_along(seed):
    """P-SOLO-2: after every human turn, exactly one dummy turn: the action tile closest
    to the end of the blue zone, returned by the normal end-of-turn rules (rotation, box
    skip, overflow). Checked against the crane model on the state before the human's
    last decision of the turn."""
    s = GAME.initial_state(SOLO, seed)
    rng = Rng.from_seed(seed)
    turns = 0
    while s.final is None:
        # play the human's turn up to its last decision
        while True:
            actions = GAME.legal_actions(s)
            action = actions[rng.randbelow(len(actions))]
            before = s
            s = GAME.apply(s, action)
            if s.final is not None or s.played != before.played:
                break
        turns += 1
        human = _crane_alone(before, before.taken)
        after_human = before.clone()
        after_human.rotation, after_human.slots = human.rotation, human.slots
        oldest = tiles_by_age(after_human)[0]
        tile = after_human.slots[oldest]
        assert all(K.board_position(C.crane, oldest, after_human.rotation)
                   >= K.board_position(C.crane, w, after_human.rotation)
                   for w in range(1, C.crane.positions) if after_human.slots[w] >= 0)
        slots = list(after_human.slots)
        slots[oldest] = -1
        dummy = K.end_turn(C.crane, after_human.rotation, tuple(slots), tile)
        assert (s.rotation, s.slots) == (dummy.rotation, dummy.slots)
        assert s.bots is not None and s.bots[0][B_TURNS] == turns
        lines = [line for line in log_lines(s.log[len(before.log):])
                 if line.startswith("the dummy")]
        assert lines == [f"the dummy takes the oldest action tile "
                         f"{C.action_tiles[tile].id} from slot {oldest} and returns it to "
                         "the crane" + (" (its 5-VP token goes back beside the crane)"
                                        if before.five_vp == tile else "")]
    assert turns == 16 and s.turns == 16 and s.played == [16]


@pytest.mark.parametrize("seed", [5, 17])
def test_P_SOLO_3_the_dummy_pays_and_gains_nothing_but_its_turns_run_the_clock(seed):
    """P-SOLO-3: the dummy's part of a turn leaves everything of the human unchanged
    (compared with the same end of turn and no dummy), and its turns count for the wheel
    and the platform like a second player's: the platform cube drops and the era
    changes at the turns of the 2-player schedule (P-CLOCK-3..5), 16 dummy turns."""
    s = GAME.initial_state(SOLO, seed)
    rng = Rng.from_seed(seed)
    schedule = K.schedule(2)
    start = C.crane.platform_start[2]
    per_seat = ("vp", "gold", "stone", "eggs", "silver", "goldw", "red", "blue", "mine",
                "quarry", "tech", "univ", "cubes", "hw", "cat", "road", "techs", "upg",
                "walls", "ptoken")
    while s.final is None:
        while True:
            actions = GAME.legal_actions(s)
            action = actions[rng.randbelow(len(actions))]
            before = s
            s = GAME.apply(s, action)
            if s.final is not None or s.played != before.played:
                break
        alone = before.clone()
        alone.bots = None  # the same end of turn without the dummy
        alone.turns = -100  # and without the end of the game
        GAME.apply_unchecked(alone, action)
        assert s.bots is not None
        total = s.turns + s.bots[0][B_TURNS]  # turns of both sides so far
        assert total == 2 * s.turns
        if s.final is None:
            for field in per_seat:
                assert getattr(s, field) == getattr(alone, field), field
            assert s.platform == start + sum(1 for d in schedule.drops if d <= total)
            assert (s.era == 2) == (total >= schedule.era_turn)
    assert s.bots is not None and s.bots[0][B_TURNS] == 16


def test_P_SOLO_3_the_dummy_taking_the_5vp_tile_scores_nothing():
    """P-SOLO-3 with P-CRANE-12: a dummy that takes the tile carrying the 5-VP token
    scores nothing; the token goes back beside the crane."""
    s = GAME.initial_state(SOLO, 8)
    oldest = tiles_by_age(s)[0]
    s.five_vp = s.slots[oldest]
    from meeplehall.games.praga.solo import dummy_turn

    vp = s.vp[:]
    s.played[0] = 1  # as after the human's first turn
    dummy_turn(s, 0)
    assert s.five_vp == -1 and s.vp == vp
    assert "5-VP token goes back beside the crane" in log_lines(s.log)[-1]


def test_P_SOLO_4_the_result_is_the_score_against_the_140_benchmark():
    """P-SOLO-4: the outcome ranks the one seat and reports its score against 140 VP
    ("more than 140 is good"): above it counts as a win, 140 itself does not."""
    final, _ = random_playout(GAME, SOLO, 4, 4)
    out = GAME.outcome(final)
    assert out is not None and len(out.scores) == 1 and out.ranking == ((0,),)
    assert out.details["benchmark"] == 140 and out.details["solo_opponent"] == "dummy"
    assert sum(out.breakdown[0].values()) == out.scores[0]
    assert GAME.player_view(final, 0)["final"]["benchmark"] == 140
    for vp, result, winners in ((141, "above the benchmark", (0,)),
                                (140, "at or below the benchmark", ())):
        assert final.final is not None
        final.final = ((vp,), final.final[1])
        out = GAME.outcome(final)
        assert out is not None
        assert out.details["result"] == result and out.winners == winners


@settings(phases=NO_SHRINK, max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=SEEDS, data=st.data())
def test_P_SOLO_2_solo_games_play_to_the_end_and_keep_the_protocol(seed, data):
    """Random solo games keep the shared checks (pure apply, texts parse back, clones
    equal) and the invariants of the base game, and end after 16 turns each."""
    final = check_playout_invariants(
        GAME, SOLO, seed, lambda actions: data.draw(st.sampled_from(actions)),
        invariants=INVARIANTS)
    assert final.played == [16] and final.bots[0][B_TURNS] == 16
    assert GAME.outcome(final) is not None


@settings(phases=NO_SHRINK, max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_P_SOLO_1_many_solo_games_end_and_replay(seed):
    """Many seeds: a solo game ends with 16 turns each and its record replays."""
    final, record = random_playout(GAME, SOLO, seed, seed + 1)
    assert final.played == [16] and final.bots[0][B_TURNS] == 16
    check_replay(GAME, record, final)


@settings(phases=NO_SHRINK, max_examples=3, deadline=None)
@given(seed=SEEDS)
def test_solo_views_round_trips_and_resampling(seed):
    """Solo states round-trip through JSON, clones are independent, the one seat's and
    the spectator's views leak nothing and survive re-sampling; the view shows the
    dummy."""
    state = GAME.initial_state(SOLO, seed)
    rng = Rng.from_seed(seed)
    step = 0
    while state.final is None:
        actions = GAME.legal_actions(state)
        GAME.apply_unchecked(state, actions[rng.randbelow(len(actions))])
        step += 1
        if step % 37 == 0:
            check_json_roundtrip(GAME, state)
            check_clone_independent(GAME, state, rng)
            check_views(GAME, state)
            check_view_resampling(GAME, state, rng)
    view = GAME.player_view(state, 0)
    assert view_text(view["bots"][0]).startswith("the dummy: 16 of 16 turns")
    check_json_roundtrip(GAME, state)


def test_two_to_four_player_states_keep_their_form():
    """Solo adds nothing to the states and options of 2-4 player games (golden files
    and saved games stay valid): no ``bots`` field, no solo option in the params."""
    for players in (2, 3, 4):
        s = GAME.initial_state({"players": players}, 1)
        data = s.to_dict()
        assert "bots" not in data
        assert not {"solo_opponent", "parler_bots", "road_tile_spaces"} & set(data["opts"])
        assert type(s).from_dict(data) == s
