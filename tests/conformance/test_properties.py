"""Property tests of every game (STYLE.md section 9) through the shared checks of
``core.testing``, for each parameter set a game lists (player counts, solo modes,
variants):

- random playouts end and keep the protocol's promises (``apply`` never changes its
  input, action texts parse back, clones equal) and the game's own invariants after
  every step; the outcome's breakdown sums to each score;
- records, through JSON, replay (checked) to the identical final state;
- states round-trip through JSON (also through ``json.dumps``); clones are independent;
  views carry no PRNG state; re-sampling the hidden parts leaves every seat's view
  unchanged and draws a fresh PRNG; plus the game's own hidden-information checks.
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
from tests.conformance.spec import Conformance, PropertySet, sampled_states, specs

SEEDS = st.integers(0, 2**32 - 1)
# Whole games: a failure is reported with its seed and drawn actions at once, unshrunk
# (shrinking a whole game takes minutes and looks like a hang).
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
CASES = [(spec, case) for spec in specs() for case in spec.properties]
IDS = [f"{spec.game}-{case.id}" for spec, case in CASES]


@pytest.mark.parametrize(("spec", "case"), CASES, ids=IDS)
def test_random_playouts_keep_invariants(spec: Conformance, case: PropertySet,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Playouts end; apply never changes its input; action texts parse back; the game's
    invariants hold after every step; the game's final checks hold at the end."""
    game = spec.engine
    after = spec.playout_guard(monkeypatch) if spec.playout_guard else None

    @settings(max_examples=case.playouts, deadline=None, phases=NO_SHRINK,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.large_base_example])
    @given(seed=SEEDS, data=st.data())
    def playout(seed: int, data: st.DataObject) -> None:
        final = check_playout_invariants(
            game, case.params, seed, lambda actions: data.draw(st.sampled_from(actions)),
            invariants=spec.invariants)
        outcome = game.outcome(final)
        assert outcome is not None
        for seat in range(case.params["players"]):
            assert sum(outcome.breakdown[seat].values()) == outcome.scores[seat]
        if spec.final_checks is not None:
            spec.final_checks(final, case.params, outcome)

    playout()
    if after is not None:
        after()


@pytest.mark.parametrize(("spec", "case"), CASES, ids=IDS)
def test_records_replay_to_the_identical_state(spec: Conformance, case: PropertySet) -> None:
    """A record, through JSON, replays (checked) to the identical final state."""
    game = spec.engine

    @settings(max_examples=case.replays, deadline=None, phases=NO_SHRINK)
    @given(seed=SEEDS)
    def replays(seed: int) -> None:
        final, record = random_playout(game, case.params, seed, seed + 1)
        check_replay(game, record, final)

    replays()


@pytest.mark.parametrize(("spec", "case"), CASES, ids=IDS)
def test_json_round_trip_clone_and_views(spec: Conformance, case: PropertySet) -> None:
    """JSON round trips (also through ``json.dumps``); clones are independent; views carry
    no PRNG state; re-sampling the hidden parts leaves every seat's view unchanged and
    does not reuse the game's PRNG; the game's own checks of each sampled state hold."""
    game = spec.engine

    @settings(max_examples=case.round_trips, deadline=None, phases=NO_SHRINK)
    @given(seed=SEEDS)
    def round_trips(seed: int) -> None:
        rng = Rng.from_seed(seed ^ 0x5EED)
        for state in sampled_states(game, case.params, seed, spec.sample_every):
            check_json_roundtrip(game, state)
            text = json.dumps(game.to_json(state))
            assert game.from_json(json.loads(text)) == state
            check_clone_independent(game, state, rng)
            check_views(game, state)
            check_view_resampling(game, state, rng)
            if spec.state_checks is not None:
                spec.state_checks(state)
            resampled = game.sample_hidden(game.player_view(state, 0), Rng(rng.next_u64()))
            assert resampled.rng != state.rng, "the re-sampled state reuses the game's PRNG"

    round_trips()
