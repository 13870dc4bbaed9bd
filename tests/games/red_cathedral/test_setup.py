"""Setup (RC-SETUP-1..13) and solo setup (RC-SOLO-1..6)."""

from __future__ import annotations

import pytest

from meeplehall.core.messages import log_lines
from meeplehall.games.red_cathedral import GAME
from meeplehall.games.red_cathedral.components import RP, load
from meeplehall.games.red_cathedral.decisions import Turn
from meeplehall.games.red_cathedral.state import BANNER, EMPTY
from tests.games.red_cathedral.fixtures import market_turn

C = load()
SEEDS = range(12)


def start(players, seed=0, **options):
    return GAME.initial_state({"players": players, **options}, seed)


def rp_space(s):
    return next(sp for sp in range(8) if C.resource_tiles[s.tiles[sp]].resource == RP)


def test_market_and_construction_site_are_laid_out():
    """RC-SETUP-1: the Market board (8 spaces, tiles, dice) and room for the site."""
    s = start(3)
    assert len(s.tiles) == 8 and len(s.towers) >= 1
    assert all(o == -1 for o in s.owner) and not any(s.done)


def test_board_side_is_chosen_for_all_players():
    """RC-SETUP-2 / RC-AMB-16: ``advanced_workshops`` turns every seat's board."""
    opt = {o.name: o for o in GAME.options}["advanced_workshops"]
    assert opt.default is False
    basic, advanced = start(4), start(4, advanced_workshops=True)
    assert all(ws == (EMPTY,) * 6 for ws in basic.ws)
    assert all(ws == (EMPTY,) * 4 + (BANNER, BANNER) for ws in advanced.ws)


def test_basic_side_player_setup():
    """RC-SETUP-3: 4 Banners in the Inventory, 2 outside; Door, 2 Arches and Cross
    available from the start."""
    s = start(4)
    assert s.inv_banners == [4] * 4 and s.out_banners == [2] * 4
    assert s.orn_avail == [(1, 2, 1)] * 4
    assert s.inv == [(0,) * 6] * 4


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_markers_start_on_space_two(players):
    """RC-SETUP-4: every marker on space 2, "+40" side down (lap 0)."""
    s = start(players, ivan_opening_claim_rp=False)
    assert s.score == [2] * s.sides
    view = GAME.player_view(s, 0)
    assert all(side["lap"] == 0 for side in view["sides"])


def test_resource_tiles_are_shuffled():
    """RC-SETUP-5: one tile per space, in a random order."""
    orders = {tuple(start(2, seed).tiles) for seed in SEEDS}
    assert all(sorted(o) == list(range(8)) for o in orders)
    assert len(orders) > 1


def test_one_influence_card_per_deck_and_quadrant():
    """RC-SETUP-6: one card from each deck, one per quadrant, at random; the first-game
    set is an option."""
    seen = set()
    for seed in SEEDS:
        s = start(4, seed)
        assert sorted(C.influence[c].deck for c in s.influence) == [0, 1, 2, 3]
        seen.add(s.influence)
    assert len(seen) > 1
    first = start(4, 0, first_game_cards=True)
    assert sorted(C.influence[c].id for c in first.influence) == ["CL1", "CR1", "MR1", "TM1"]


def test_dice_dropped_from_the_recognition_tile_clockwise():
    """RC-SETUP-7: the dice go one per space from the Recognition tile's space onwards,
    in random colour order and with random values; three spaces stay empty."""
    first_die = set()
    for seed in SEEDS:
        s = start(2, seed)
        begin = rp_space(s)
        assert sorted(s.die_pos) == sorted((begin + k) % 8 for k in range(5))
        first_die.add(s.die_pos.index(begin))
        assert all(1 <= v <= 6 for v in s.die_val)
    assert len(first_die) > 1


def test_dice_start_option_opposite():
    """RC-AMB-14: the default start is the Recognition tile; 'opposite' drops the first
    die 4 spaces further on."""
    opt = {o.name: o for o in GAME.options}["dice_start"]
    assert opt.default == "recognition-tile"
    s = start(2, 4, dice_start="opposite")
    begin = (rp_space(s) + 4) % 8
    assert sorted(s.die_pos) == sorted((begin + k) % 8 for k in range(5))


def test_general_supply_is_full():
    """RC-SETUP-8: the general supply holds every Material."""
    assert start(3).supply == list(C.supply)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_building_plan_for_the_player_count(players):
    """RC-SETUP-9: a random plan marked with the player count."""
    plans = {start(players, seed).plan for seed in range(30)}
    assert plans == {p.id for p in C.plans if p.players == players}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_towers_are_base_middles_dome(players):
    """RC-SETUP-10: per tower one Base, the plan's Middles, one Dome; distinct cards."""
    s = start(players, 3)
    plan = next(p for p in C.plans if p.id == s.plan)
    assert [len(t) - 2 for t in s.towers] == list(plan.middles)
    for tower in s.towers:
        kinds = [C.cards[s.card_of[slot]].kind for slot in tower]
        assert kinds == [0] + [1] * (len(tower) - 2) + [2]
    assert len(set(s.card_of)) == len(s.card_of)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_one_workshop_tile_per_card(players):
    """RC-SETUP-11: one face-up tile per card; no "3+" tile below 3 players."""
    s = start(players, 5)
    tiles = [t for t in s.ws_tile if t >= 0]
    assert len(set(tiles)) == len(tiles)
    assert len(tiles) == len(s.card_of) - (1 if players == 1 else 0)
    if players < 3:
        assert not any(C.tiles[t].players_3plus for t in tiles)


def test_starting_rubles():
    """RC-SETUP-12: 3, 4, 4, 5 Rubles clockwise from the first player."""
    assert start(4).rubles == [3, 4, 4, 5]
    assert start(3).rubles == [3, 4, 4]
    assert start(2).rubles == [3, 4]
    assert start(4).stack == [Turn(0)]


# --- solo -------------------------------------------------------------------------------
def test_solo_setup_is_a_two_player_setup():
    """RC-SETUP-13 / RC-SOLO-1: 2-player plan, "3+" tiles removed, the human first with
    3 Rubles."""
    s = start(1, 2)
    assert next(p for p in C.plans if p.id == s.plan).players == 2
    assert not any(C.tiles[t].players_3plus for t in s.ws_tile if t >= 0)
    assert s.rubles[0] == 3 and s.stack == [Turn(0)]


def test_solo_two_markers_on_space_two():
    """RC-SOLO-2: the human's and Ivan's markers start on space 2."""
    s = start(1, 0, ivan_opening_claim_rp=False)
    assert s.score == [2, 2]


def test_ivan_has_banners_no_rubles_no_board():
    """RC-SOLO-3: Ivan has 6 Banners and 4 Ornamentations beside the board, no Rubles;
    his side shows no Workshop board in views."""
    s = start(1, 0)
    assert s.rubles[1] == 0
    assert s.iv_banners + s.owner.count(1) == 6
    assert s.iv_orn == 0
    assert "workshop" not in GAME.player_view(s, 0)["sides"][1]


def test_ivan_row_and_die_tiles():
    """RC-SOLO-4: the 5 Ivan cards in a random row, one "3+" die tile face up on each;
    5 Banners above his Claim card."""
    orders = set()
    for seed in SEEDS:
        s = start(1, seed)
        assert sorted(s.ivan_order) == [0, 1, 2, 3, 4]
        assert sorted(C.tiles[t].die for t in s.iv_tiles) == [0, 1, 2, 3, 4]
        assert all(C.tiles[t].players_3plus for t in s.iv_tiles)
        assert s.iv_up == [True] * 5 and s.iv_banners == 5
        orders.add(s.ivan_order)
    assert len(orders) > 1


def test_ivan_opening_claim_on_the_richest_base():
    """RC-SOLO-5: Ivan's 6th Banner goes on the Base with the most Recognition (leftmost
    on ties); that Base's tile goes back to the box."""
    for seed in SEEDS:
        s = start(1, seed)
        bases = [t[0] for t in s.towers]
        best = max(C.cards[s.card_of[b]].rp for b in bases)
        expected = next(b for b in bases if C.cards[s.card_of[b]].rp == best)
        assert [slot for slot, o in enumerate(s.owner) if o == 1] == [expected]
        assert s.ws_tile[expected] == -1


def test_ivan_opening_claim_gains_a_recognition_tile_by_default():
    """RC-SOLO-5 (seed reading, option ``ivan_opening_claim_rp``, default true): the
    opening claim is his Claim action, so a Recognition tile on that Base pays him;
    with the option off (the reference) he gains nothing."""
    opt = {o.name: o for o in GAME.options}["ivan_opening_claim_rp"]
    assert opt.default is True
    found = 0
    for seed in range(300):
        on, off = start(1, seed), start(1, seed, ivan_opening_claim_rp=False)
        assert off.score[1] == 2
        if on.score[1] != 2:
            found += 1
            assert on.score[1] > 2
            assert any("RP from that tile" in line for line in log_lines(on.log))
    assert found > 0


def test_human_starts_then_turns_alternate():
    """RC-SOLO-6: the human plays first; after each human turn Ivan plays inside
    ``apply`` and the human is to move again."""
    s = start(1, 1, ivan_choice="leftmost")
    for _ in range(6):
        assert GAME.current_player(s) == 0 and s.side == 0
        turns = s.turns
        s = market_turn(s)
        if s.final is not None:
            break
        assert s.turns == turns + 2
