"""Setup for 2, 3 and 4 players (§2) and the options (§15, §16.3, §19)."""

from __future__ import annotations

import pytest

from meeplehall.games.praga import GAME
from meeplehall.games.praga import crane as K
from meeplehall.games.praga.components import load
from meeplehall.games.praga.setup import OPTIONS
from tests.games.praga.fixtures import legal

C = load()


@pytest.mark.parametrize(("players", "markets"), [(2, 8), (3, 9), (4, 10)])
def test_P_SETUP_7_markets_per_player_count(players, markets):
    """P-SETUP-7, P-MKT-1, P-MKT-11: 8/9/10 markets get a tile, matching their colour;
    the others stay empty markets; surplus tiles stay in the box."""
    s = GAME.initial_state({"players": players}, 3)
    used = [t for t in s.market_tile if t >= 0]
    assert len(used) == markets and len(set(used)) == markets
    for m, t in enumerate(s.market_tile):
        if t >= 0:
            assert C.market_tiles[t].colour == C.markets[m].colour
        else:
            assert C.markets[m].min_players > players
    assert len(s.unused) == len(C.market_tiles) - markets


@pytest.mark.parametrize("players", [2, 3, 4])
def test_P_SETUP_12_prebuilt_buildings(players):
    """P-SETUP-12: normal era I buildings on the sites marked for the player count; no
    owner, no cube; none with 4 players."""
    s = GAME.initial_state({"players": players}, 4)
    marked = [k for k, site in enumerate(C.sites) if site.prebuilt == players]
    built = [k for k, t in enumerate(s.site_tile) if t >= 0]
    assert built == marked and (players < 4) == bool(marked)
    for k in built:
        b = C.buildings[s.site_tile[k]]
        assert b.era == 1 and not b.special
        assert s.site_owner[k] == -1 and not s.site_cube[k]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_P_SETUP_rows_crane_clock_and_players(players):
    """P-SETUP-11, P-ROW-1, GL-H13: three rows of 3 normal + 1 special (rightmost) era I
    tiles. P-SETUP-13/14/15/16, P-CRANE-1: the arrow (box) over the player-count symbol,
    the 6 tiles in the first empty slots from the start of red (4 red + 2 green), the
    platform cube on its start space (P-SETUP-13, P-SETUP-14, P-SETUP-15, P-SETUP-16).
    P-SETUP-17 .. P-SETUP-25 (P-SETUP-18, P-SETUP-19, P-SETUP-20, P-SETUP-22, P-SETUP-23,
    P-SETUP-24, P-SETUP-25): 2 gold, 2 stone, 2 cubes in supply, track cubes on their
    start spaces, pawns beside the road, score 0, nothing else. P-SETUP-26: seat 0 starts.
    P-SETUP-3, P-SETUP-4, P-SETUP-8: IV stack of 6, V piles of 3 and 3, technology stacks
    by level. P-SETUP-5: 8 production tokens face up. P-SETUP-10: the 5-VP token beside the
    crane. P-SETUP-1/P-COMP-4/P-EDGE-10: windows, eggs and tokens are unlimited."""
    s = GAME.initial_state({"players": players}, 7)
    families = (C.buildings, C.walls, C.upgrades)
    for row, tiles in enumerate(s.rows):
        assert len(tiles) == 4
        kinds = [(families[row][t].era, families[row][t].special) for t in tiles]
        assert kinds == [(1, False)] * 3 + [(1, True)]
    assert K.box_position(C.crane, s.rotation) == C.crane.arrow_start[players]
    boards = sorted(K.board_position(C.crane, w, s.rotation)
                    for w, t in enumerate(s.slots) if t >= 0)
    box = K.box_position(C.crane, s.rotation)
    assert boards == [b for b in range(C.crane.positions) if b != box][:6]
    assert boards[-1] < C.crane.blue_start  # none in blue
    assert s.platform == C.crane.platform_start[players] and s.five_vp == -1
    assert s.gold == [2] * players and s.stone == [2] * players
    assert s.cubes == [C.supply_cubes] * players and s.vp == [0] * players
    assert s.mine == [C.gold_track.start] * players
    assert s.quarry == [C.quarry_track.start] * players
    assert s.tech == [0] * players and s.univ == [0] * players
    assert s.eggs == s.silver == s.goldw == s.red == s.blue == [0] * players
    assert s.techs == [()] * players and s.road == [0] * players
    assert GAME.current_player(s) == 0 and s.seat == 0
    assert len(s.iv_stack) == 6 and len(s.v_pile) == len(s.cat_pile) == 3
    assert [len(x) for x in s.tech_stacks] == [
        sum(1 for t in C.technologies if t.level == lv) for lv in (1, 2, 3, 4)]
    assert len(s.river) == 8 and s.era == 1


def test_P_SETUP_9_and_P_VAR_3_tier_sets():
    """P-SETUP-9, P-VAR-3, P-SETUP-6, GL-G4: the standard tiers by default; A or B tiers
    per project as options (first game: standard, no King's Road tiles)."""
    s = GAME.initial_state({"players": 2, "cathedral_tiers": "A"}, 1)
    assert s.opts.cathedral_tiers == "A" and s.opts.hunger_wall_tiers == "standard"
    assert not GAME.initial_state({"players": 2}, 1).opts.road_tiles


def test_P_SETUP_2_bridge_layout_option():
    """P-SETUP-2, GAP-10: the fixed layout by default; a random combination as option."""
    fixed = GAME.initial_state({"players": 2}, 1)
    assert fixed.planks == tuple(p.side_a for p in C.bridge_pieces)
    layouts = {GAME.initial_state({"players": 2, "bridge_layout": "random"}, seed).planks
               for seed in range(8)}
    assert len(layouts) > 1


def test_production_token_subsets_option():
    """P-SETUP-5, P-PROD-3: all 8 tokens by default; 2 per seat with the option."""
    s = GAME.initial_state({"players": 2, "production_tokens": "by-player-count"}, 1)
    assert len(s.river) == 4


def test_P_VAR_1_side_b():
    """P-VAR-1: side B pairs for all six tiles."""
    s = GAME.initial_state({"players": 2, "action_side": "B"}, 1)
    assert s.pairs == tuple(t.side_b for t in C.action_tiles)


def test_options_are_validated():
    with pytest.raises(ValueError):
        GAME.initial_state({"players": 5}, 1)
    with pytest.raises(ValueError):
        GAME.initial_state({"players": 2, "colour": "red"}, 1)
    with pytest.raises(ValueError):
        GAME.initial_state({"players": 2}, "x")  # type: ignore[arg-type]
    assert {o.name for o in OPTIONS} >= {"players", "corner_repay", "empty_v_pile",
                                         "up_arrow", "spent", "road_mine_and_quarry"}
    assert GAME.min_players == 1 and GAME.max_players == 4


def test_first_decision_offers_tiles_and_free_activities():
    """P-TURN-2, P-XACT-3, P-ROW-5: the first hub offers the takeable tiles and the
    row refresh (even before taking a tile)."""
    s = GAME.initial_state({"players": 3}, 2)
    acts = legal(s)
    assert any(a.startswith("take-tile") for a in acts)
    assert any(a.startswith("refresh") for a in acts)
    assert "end-turn" not in acts
