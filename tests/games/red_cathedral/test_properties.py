"""Property tests (STYLE.md section 9) through the shared checks of ``core.testing``.

For every player count, and the advanced Workshop side: random playouts end and keep the
protocol's promises; records replay; states round-trip through JSON; clones are
independent; Materials are conserved; no Inventory overflows; no Market space holds more
than 3 dice; views carry no PRNG state, and re-sampling the hidden parts does not change
a seat's view.
"""

from __future__ import annotations

import json

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
from meeplehall.games.red_cathedral import GAME
from meeplehall.games.red_cathedral.components import load
from meeplehall.games.red_cathedral.effects import free_space
from tests.games.red_cathedral.fixtures import held

C = load()
PARAMS = [
    {"players": 1},
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 1, "advanced_workshops": True},
    {"players": 2, "advanced_workshops": True},
    {"players": 4, "advanced_workshops": True},
]
IDS = [f"{p['players']}p" + ("-advanced" if p.get("advanced_workshops") else "") for p in PARAMS]
SEEDS = st.integers(0, 2**32 - 1)
# Whole games: a failure is reported with its seed and drawn actions at once, unshrunk
# (shrinking a whole game takes minutes and looks like a hang).
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
def materials_conserved(s):
    """Supply + Inventories + cards' deliveries + Ivan's cards = the game's totals."""
    out = held(s)
    assert [s.supply[m] + out[m] for m in range(6)] == list(C.supply), "Materials leaked"
    assert min(s.supply) >= 0


def inventories_fit(s):
    for side in range(s.players):
        assert free_space(s, side) >= 0, f"seat {side}'s Inventory overflows"
        assert min(s.inv[side]) >= 0


def dice_capacity(s):
    assert all(s.die_pos.count(space) <= 3 for space in range(8)), s.die_pos


def sane_counters(s):
    assert all(r >= 0 for r in s.rubles) and all(sc >= 0 for sc in s.score)
    assert all(b >= 0 for b in s.inv_banners + s.out_banners)
    for side in range(s.sides):
        assert s.completed[side] == sum(1 for k, o in enumerate(s.owner)
                                        if o == side and s.done[k])


INVARIANTS = (materials_conserved, inventories_fit, dice_capacity, sane_counters)


# Examples per parameter set: long 3-4 player games get fewer, so the suite stays fast.
EXAMPLES = {"1p": 15, "2p": 10, "3p": 6, "4p": 6, "1p-advanced": 15, "2p-advanced": 8,
            "4p-advanced": 5}


@pytest.mark.parametrize("params", PARAMS, ids=IDS)
def test_random_playouts_keep_invariants(params, request):
    """Playouts end; apply never changes its input; action texts parse back; the
    invariants above hold after every step."""
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

    playout()


def sampled_states(params, seed, every=97):
    """Some states along a seeded random playout, and its record and final state."""
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
@settings(max_examples=5, deadline=None, phases=NO_SHRINK)
@given(seed=SEEDS)
def test_records_replay_to_the_identical_state(params, seed):
    """A record, through JSON, replays (checked) to the identical final state."""
    final, record = random_playout(GAME, params, seed, seed + 1)
    check_replay(GAME, record, final)


@pytest.mark.parametrize("params", PARAMS, ids=IDS)
@settings(max_examples=4, deadline=None, phases=NO_SHRINK)
@given(seed=SEEDS)
def test_json_round_trip_clone_and_views(params, seed):
    """JSON round trips (also through ``json.dumps``); clones are independent; views carry
    no PRNG state; re-sampling the hidden parts leaves every seat's view unchanged."""
    rng = Rng.from_seed(seed ^ 0x5EED)
    for state in sampled_states(params, seed):
        check_json_roundtrip(GAME, state)
        text = json.dumps(GAME.to_json(state))
        assert GAME.from_json(json.loads(text)) == state
        check_clone_independent(GAME, state, rng)
        check_views(GAME, state)
        check_view_resampling(GAME, state, rng)
        resampled = GAME.sample_hidden(GAME.player_view(state, 0), Rng(rng.next_u64()))
        assert resampled.rng != state.rng, "the re-sampled state reuses the game's PRNG"
