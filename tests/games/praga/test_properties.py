"""Property tests (STYLE.md section 9) through the shared checks of ``core.testing``.

For 2, 3 and 4 players: random playouts end after exactly 16 turns per player and keep
the protocol's promises (``apply`` pure, action texts parse back, clones equal); gold and
stone stay within 0-9; nobody ends a turn with more than 2 windows; records replay;
states round-trip through JSON; clones are independent; views carry neither the PRNG
state nor the order or contents of the face-down stacks, and re-sampling the hidden
parts does not change a seat's view.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

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
from meeplehall.games.praga.state import TECH_DRAW, TURN

PARAMS = [{"players": 2}, {"players": 3}, {"players": 4},
          {"players": 3, "action_side": "B", "bridge_layout": "random", "road_tiles": True,
           "cathedral_tiers": "B", "hunger_wall_tiers": "A", "up_arrow": "automatic",
           "corner_repay": False, "road_mine_and_quarry": "one"}]
IDS = ["2p", "3p", "4p", "3p-variants"]
SEEDS = st.integers(0, 2**32 - 1)
# Whole games: a failure is reported with its seed and drawn actions at once, unshrunk
# (shrinking a whole game takes minutes and looks like a hang).
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
HIDDEN = ("stacks", "tech_stacks", "iv_stack", "v_pile", "cat_pile", "unused")


def resources_in_range(s):
    """P-RES-1, P-RES-2: gold and stone within 0-9; nothing negative."""
    for seat in range(s.players):
        assert 0 <= s.gold[seat] <= 9 and 0 <= s.stone[seat] <= 9
        assert min(s.eggs[seat], s.silver[seat], s.goldw[seat], s.cubes[seat]) >= 0


def windows_at_turn_end(s):
    """P-WIN-2: at the start of a turn, the player before has at most 2 windows. The
    game's last turn is checked as final scoring begins (``last_turn_checked``): final
    step 1 may still pay windows, through a wealth bonus (P-SCORE-2, P-RES-4)."""
    if s.turns and s.stack == [(TURN, s.seat)] and s.taken < 0 and s.xact == 0:
        before = (s.seat - 1) % s.players
        assert s.windows(before) <= 2, f"seat {before} ended a turn with >2 windows"


@pytest.fixture
def last_turn_checked(monkeypatch):
    """P-WIN-2 for the game's last turn: as final scoring begins, the seat that played
    it holds at most 2 windows. Counts the games checked."""
    from meeplehall.games.praga import final

    scoring = final.final_scoring
    checked = []

    def checking(s):
        if all(n == 16 for n in s.played):  # not a projection (projected_scores)
            assert s.windows(s.seat) <= 2, f"seat {s.seat} ended the last turn with >2 windows"
            checked.append(s.seat)
        scoring(s)

    monkeypatch.setattr(final, "final_scoring", checking)
    return checked


def cubes_conserved(s):
    """P-COMP-3: supply + market cubes + seals + taken wealth covers = 2 + bonuses."""
    for seat in range(s.players):
        on_sites = sum(1 for k, o in enumerate(s.site_owner) if o == seat and s.site_cube[k])
        seals = s.seal_owner.count(seat)
        freed = bin(s.wealth[seat]).count("1")
        assert s.cubes[seat] + on_sites + seals == 2 + freed


def small_decisions(s):
    """STYLE.md section 3: every decision's legal list stays short (asked in steps)."""
    assert len(GAME.legal_actions(s)) <= 24


INVARIANTS = (resources_in_range, windows_at_turn_end, cubes_conserved, small_decisions)
EXAMPLES = {"2p": 8, "3p": 5, "4p": 4, "3p-variants": 4}


@pytest.mark.parametrize("params", PARAMS, ids=IDS)
def test_random_playouts_keep_invariants(params, request, last_turn_checked):
    """Playouts end after 16 turns each (P-CLOCK-8); apply never changes its input;
    action texts parse back; the invariants above hold after every step."""
    examples = EXAMPLES[request.node.callspec.id]

    @settings(max_examples=examples, deadline=None, phases=NO_SHRINK,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.large_base_example])
    @given(seed=SEEDS, data=st.data())
    def playout(seed, data):
        final = check_playout_invariants(
            GAME, params, seed, lambda actions: data.draw(st.sampled_from(actions)),
            invariants=INVARIANTS)
        assert GAME.outcome(final) is not None
        assert final.played == [16] * params["players"]
        out = GAME.outcome(final)
        for seat in range(params["players"]):
            assert sum(out.breakdown[seat].values()) == out.scores[seat]

    playout()
    assert last_turn_checked, "no game reached final scoring"


def sampled_states(params, seed, every=53):
    state = GAME.initial_state(params, seed)
    rng = Rng.from_seed(seed)
    states = [state.clone()]
    step = 0
    while GAME.current_player(state) is not None:
        actions = GAME.legal_actions(state)
        GAME.apply_unchecked(state, actions[rng.randbelow(len(actions))])
        step += 1
        if step % every == 0:
            states.append(state.clone())
    states.append(state)
    return states


@pytest.mark.parametrize("params", PARAMS, ids=IDS)
@settings(max_examples=4, deadline=None, phases=NO_SHRINK)
@given(seed=SEEDS)
def test_records_replay_to_the_identical_state(params, seed):
    """A record, through JSON, replays (checked) to the identical final state."""
    final, record = random_playout(GAME, params, seed, seed + 1)
    check_replay(GAME, record, final)


@pytest.mark.parametrize("params", PARAMS, ids=IDS)
@settings(max_examples=3, deadline=None, phases=NO_SHRINK)
@given(seed=SEEDS)
def test_json_round_trip_clone_and_views(params, seed):
    """JSON round trips; clones are independent; views carry no PRNG state and no stack
    order; re-sampling the hidden parts leaves every seat's view unchanged."""
    rng = Rng.from_seed(seed ^ 0x5EED)
    for state in sampled_states(params, seed):
        check_json_roundtrip(GAME, state)
        check_clone_independent(GAME, state, rng)
        check_views(GAME, state)
        check_view_resampling(GAME, state, rng)
        for seat in [None, *range(state.players)]:
            view = GAME.player_view(state, seat)
            blob = view["state"]
            assert not set(HIDDEN) & set(blob), "a face-down stack is in the view"
            counts = view["face_down"]
            assert all(isinstance(n, int) for n in counts["stacks"] + counts["tech_stacks"])
            for d in blob["stack"]:  # drawn tiles only for the drawing seat
                if d[0] == TECH_DRAW and d[1] != seat:
                    assert set(d[2]) == {-1}
        resampled = GAME.sample_hidden(GAME.player_view(state, 0), Rng(rng.next_u64()))
        assert resampled.rng != state.rng, "the re-sampled state reuses the game's PRNG"


def test_private_draws_are_hidden_from_other_seats():
    """P-TECH-2, P-BRIDGE-2, P-BRIDGE-3: the technologies or IV tiles a seat draws, and
    the V pile it chooses from, are seen by that seat only; re-sampling keeps every
    seat's view."""
    from meeplehall.games.praga.effects import gain
    from tests.games.praga.fixtures import build, play

    rng = Rng(5)
    for road in (3, 4):
        s = build({"crane": (2, 5, ("road", "mines")), "p": {0: {"road": road, "eggs": 1}}})
        s = play(s, "take-tile 2", "perform road")
        mine, theirs = GAME.player_view(s, 0), GAME.player_view(s, 1)
        assert min(mine["state"]["stack"][-1][2]) >= 0
        assert set(theirs["state"]["stack"][-1][2]) == {-1}
        check_view_resampling(GAME, s, rng)
    s = build({})
    gain(s, 0, 8, 1)
    assert set(GAME.player_view(s, 1)["state"]["stack"][-1][2]) == {-1}
    check_view_resampling(GAME, s, rng)


def test_fast_building_check_agrees_with_the_site_list():
    """``city.can_build`` (the fast path) agrees with ``city.affordable_sites``."""
    from meeplehall.games.praga.city import affordable_sites, can_build

    for players in (2, 4):
        for state in sampled_states({"players": players}, players, every=7):
            for seat in range(players):
                for tile in range(36):
                    for discount in (0, 2):
                        assert can_build(state, seat, tile, discount) == bool(
                            affordable_sites(state, seat, tile, discount))
