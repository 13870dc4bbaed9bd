"""The variants of §15 (P-VAR-1..3): setup of each, option validation, and property
checks for 2-4 players (and solo)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from meeplehall.core.testing import check_playout_invariants, check_replay, random_playout
from meeplehall.games.praga import GAME
from meeplehall.games.praga.components import CATHEDRAL, HUNGER_WALL, TIER_SETS, load
from meeplehall.games.praga.effects import grid_data, grid_of
from meeplehall.games.praga.setup import ROAD_TILE_SPACES
from tests.games.praga.test_properties import INVARIANTS

C = load()
SEEDS = st.integers(0, 2**32 - 1)
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)  # a whole game: no shrinking
PLAYERS = (2, 3, 4)


@pytest.mark.parametrize("players", PLAYERS)
def test_P_VAR_1_side_b_for_all_six_tiles_all_game(players):
    """P-VAR-1: side B of all six action tiles, never mixed with A, fixed all game."""
    s = GAME.initial_state({"players": players, "action_side": "B"}, players)
    assert s.pairs == tuple(t.side_b for t in C.action_tiles)
    assert s.pairs != tuple(t.side_a for t in C.action_tiles)
    assert sorted(s.slots) == sorted([-1] * (C.crane.positions - 6) + list(range(6)))
    final, _ = random_playout(GAME, {"players": players, "action_side": "B"}, 3, 3)
    assert final.pairs == s.pairs
    with pytest.raises(ValueError, match="action_side"):
        GAME.initial_state({"players": players, "action_side": "AB"}, 1)


@pytest.mark.parametrize("spaces", ROAD_TILE_SPACES)
def test_P_VAR_2_any_subset_of_the_kings_road_tiles(spaces):
    """P-VAR-2: some or all of the three tiles cover the free effect of the road space
    with their numeral (I, II, III); the egg spaces IV and V are never covered."""
    for players in PLAYERS:
        s = GAME.initial_state({"players": players, "road_tiles": True,
                                "road_tile_spaces": spaces}, 5)
        used = spaces.split("+")
        for k in range(5):
            tile = next((t for t in C.road_tiles if t.covers == k + 1), None)
            numeral = ("I", "II", "III", "IV", "V")[k]
            if tile is not None and numeral in used:
                assert s.road_effect[k] == tile.effect
            else:
                assert s.road_effect[k] == -1
    plain = GAME.initial_state({"players": 2}, 5)
    assert plain.road_effect == (-1,) * 5
    both = GAME.initial_state({"players": 2, "road_tiles": True}, 5)
    assert both == GAME.initial_state({"players": 2, "road_tiles": True,
                                       "road_tile_spaces": "I+II+III"}, 5)


def test_P_VAR_2_road_tile_spaces_without_road_tiles_is_refused():
    """P-VAR-2: choosing tiles without the variant is an impossible combination."""
    with pytest.raises(ValueError, match="road_tile_spaces needs road_tiles=true"):
        GAME.initial_state({"players": 2, "road_tile_spaces": "I"}, 1)
    with pytest.raises(ValueError, match="road_tile_spaces"):
        GAME.initial_state({"players": 2, "road_tiles": True, "road_tile_spaces": "IV"}, 1)


@pytest.mark.parametrize(("hw", "cat"), list(itertools.product(TIER_SETS, TIER_SETS)))
def test_P_VAR_3_tier_sets_are_chosen_per_project(hw, cat):
    """P-VAR-3: each project uses one whole set of tiers (all A, all B or the original),
    independently of the other project."""
    s = GAME.initial_state({"players": 3, "hunger_wall_tiers": hw, "cathedral_tiers": cat},
                           2)
    assert grid_of(s, HUNGER_WALL) is grid_data(HUNGER_WALL, hw)
    assert grid_of(s, CATHEDRAL) is grid_data(CATHEDRAL, cat)
    for grid, chosen in ((HUNGER_WALL, hw), (CATHEDRAL, cat)):
        tiers = C.grids[grid].tiers[chosen]
        g = grid_of(s, grid)
        assert g.cells == tuple(row for tier in tiers for row in tier.rows)
        assert g.entry_cost == tuple((tier.gold, tier.stone) for tier in tiers)
    with pytest.raises(ValueError, match="cathedral_tiers"):
        GAME.initial_state({"players": 2, "cathedral_tiers": "C"}, 1)


VARIANTS = [
    {"action_side": "B"},
    {"road_tiles": True, "road_tile_spaces": "I+III"},
    {"road_tiles": True, "road_tile_spaces": "II"},
    {"hunger_wall_tiers": "A", "cathedral_tiers": "B"},
    {"hunger_wall_tiers": "B", "cathedral_tiers": "standard"},
    {"action_side": "B", "road_tiles": True, "hunger_wall_tiers": "B",
     "cathedral_tiers": "A"},
]
CASES = [(p, v) for p in PLAYERS for v in VARIANTS]


@pytest.mark.parametrize(("players", "variant"), CASES,
                         ids=[f"{p}p-{i}" for p in PLAYERS for i in range(len(VARIANTS))])
def test_P_VAR_1_2_3_variant_games_keep_the_invariants(players, variant):
    """P-VAR-1/2/3 for 2-4 players: random games keep the shared protocol checks and
    the base invariants, end after 16 turns each, and replay from their records."""
    params = {"players": players, **variant}

    @settings(phases=NO_SHRINK, max_examples=1, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(seed=SEEDS, data=st.data())
    def playout(seed, data):
        final = check_playout_invariants(
            GAME, params, seed, lambda actions: data.draw(st.sampled_from(actions)),
            invariants=INVARIANTS)
        assert final.played == [16] * players
        out = GAME.outcome(final)
        assert out is not None
        for seat in range(players):
            assert sum(out.breakdown[seat].values()) == out.scores[seat]

    playout()
    final, record = random_playout(GAME, params, players * 7, 1)
    check_replay(GAME, record, final)


@pytest.mark.parametrize("variant", VARIANTS)
def test_P_VAR_1_2_3_variants_in_solo_games(variant):
    """The variants combine with the rulebook solo and with Parler."""
    for solo in ({"players": 1}, {"players": 1, "solo_opponent": "parler"}):
        final, record = random_playout(GAME, {**solo, **variant}, 3, 4)
        assert final.played == [16]
        check_replay(GAME, record, final)
