"""Component data: counts, provenance and the data-driven design (RC-DOC-*, RC-TERM-*,
RC-COMP-*, RC-GAP-*, RC-ENG-1/2)."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from meeplehall.core.data import SOURCES, DataError
from meeplehall.games.red_cathedral import GAME, components
from meeplehall.games.red_cathedral.components import (
    COLOURS,
    DATA_DIR,
    DECKS,
    IVAN_CARDS,
    MATERIALS,
    RESOURCES,
    WS_POSITIONS,
    load,
)
from meeplehall.games.red_cathedral.scoring import track

C = load()
T = track()
PACKAGE = Path(components.__file__).parent


def toml(name):
    with (DATA_DIR / name).open("rb") as handle:
        return tomllib.load(handle)


def entries(name, key):
    return toml(name)[key]


# --- RC-DOC ---------------------------------------------------------------------------------
def test_every_data_entry_records_its_provenance():
    """RC-DOC-1: every fact is tagged with its source; in the data files every entry says
    ``rulebook``, ``public-page`` (with a URL) or ``reconstructed``."""
    for name, key in [("supply.toml", "material"), ("resource_tiles.toml", "tile"),
                      ("cathedral_cards.toml", "card"), ("building_plans.toml", "plan"),
                      ("workshop_tiles.toml", "tile"), ("influence_cards.toml", "card"),
                      ("ivan_cards.toml", "card")]:
        for entry in entries(name, key):
            assert entry["source"] in SOURCES, (name, entry)
            if entry["source"] == "public-page":
                assert entry["url"].startswith("https://"), (name, entry)
    for name in ("track.toml", "game.toml", "influence_cards.toml"):
        assert toml(name)["source"] in SOURCES
    boards = toml("workshop_boards.toml")
    for section in ("inventory", "basic", "advanced"):
        assert boards[section]["source"] in SOURCES


def test_lost_icon_recognition_tile_is_the_dice_start():
    """RC-DOC-2: the OCR's "+" in setup step 6 is the Recognition icon: the first die is
    dropped on the space of the Recognition Resource tile."""
    for seed in range(5):
        s = GAME.initial_state({"players": 3}, seed)
        rp_space = next(sp for sp in range(8) if C.resource_tiles[s.tiles[sp]].resource == 7)
        assert sorted(s.die_pos) == sorted((rp_space + k) % 8 for k in range(5))


def test_component_tables_are_data_files():
    """RC-DOC-3: RESOURCE_TILES, CATHEDRAL_CARDS, BUILDING_PLANS, WORKSHOP_TILES,
    WORKSHOP_BOARD, INFLUENCE_CARDS and TRACK are TOML tables loaded as data."""
    for name in ("resource_tiles", "cathedral_cards", "building_plans", "workshop_tiles",
                 "workshop_boards", "influence_cards", "track"):
        assert (DATA_DIR / f"{name}.toml").is_file(), name
    assert len(C.resource_tiles) == 8 and len(C.cards) == 40 and len(C.plans) == 9
    assert len(C.tiles) == 28 and len(C.influence) == 12 and len(C.prestige_positions) == 40


def test_broken_data_fails_with_a_clear_message(tmp_path, monkeypatch):
    """RC-DOC-3: the loader re-checks counts and references and names the problem."""
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    text = (data / "supply.toml").read_text()
    (data / "supply.toml").write_text(text.replace('id = "gold"', 'id = "silver"'))
    monkeypatch.setattr(components, "DATA_DIR", data)
    with pytest.raises(DataError, match=r"supply\.toml: unknown material 'silver'"):
        components.load.__wrapped__()
    shutil.copy(DATA_DIR / "supply.toml", data / "supply.toml")
    cards = (data / "cathedral_cards.toml").read_text()
    (data / "cathedral_cards.toml").write_text(cards.replace('kind = "dome"', 'kind = "base"', 1))
    with pytest.raises(DataError, match="expected 10 bases, 20 middles, 10 domes"):
        components.load.__wrapped__()


def test_player_means_a_human_seat_and_ivan_never_decides():
    """RC-DOC-4: "player" is a human seat; in solo Ivan (side 1) is the automaton and is
    never asked to move."""
    s = GAME.initial_state({"players": 1}, 3)
    assert GAME.num_players(s) == 1 and s.sides == 2
    for _ in range(200):
        if GAME.current_player(s) is None:
            break
        assert GAME.current_player(s) == 0
        s = GAME.apply(s, GAME.legal_actions(s)[0])


def test_rules_text_names_the_rules_of_each_decision():
    """RC-DOC-5: the content of the seed's page references (advanced Workshop p. 7, tile
    activation p. 15, solo p. 18, Influence table p. 20) is reproduced in the reference and
    the engine explains each decision with its rule ids."""
    s = GAME.initial_state({"players": 2}, 1)
    assert "RC-TURN-2" in GAME.rules_text(s)
    s = GAME.apply(s, "claim 0 inventory")
    text = GAME.rules_text(s)
    assert "RC-ADV-2" in text and "RC-WSACT-3" in text


# --- RC-TERM --------------------------------------------------------------------------------
def test_six_material_types_jewels_included():
    """RC-TERM-1: wood, brick, stone, gold, green jewel, purple jewel; jewels are
    Materials and take Inventory space."""
    assert MATERIALS == ("wood", "brick", "stone", "gold", "green", "purple")
    assert C.supply[4] and C.supply[5]


def test_resources_are_materials_rubles_and_recognition():
    """RC-TERM-2: Resources = Materials + Rubles + Recognition."""
    assert (*MATERIALS, "rubles", "rp") == RESOURCES


def test_any_material_symbol():
    """RC-TERM-3: "any Material" is data (``materials = ["any"]``) and offers all six."""
    cr1 = C.influence[[c.id for c in C.influence].index("CR1")]
    assert cr1.actions[0].materials == ()
    raw = entries("influence_cards.toml", "card")[0]["action"][0]
    assert raw["materials"] == ["any"]


# --- RC-COMP --------------------------------------------------------------------------------
def test_market_board_ring_of_eight_in_four_quadrants():
    """RC-COMP-1: 8 Market spaces clockwise, 4 quadrants of 2 (``space // 2``), one
    Influence card per quadrant."""
    s = GAME.initial_state({"players": 4}, 0)
    assert len(s.tiles) == 8 and len(s.influence) == 4
    view = GAME.player_view(s, 0)
    assert [m["quadrant"] for m in view["market"]] == [0, 0, 1, 1, 2, 2, 3, 3]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_five_dice_at_every_player_count(players):
    """RC-COMP-2: four player colours and white, all 5 used at every player count."""
    s = GAME.initial_state({"players": players}, players)
    assert COLOURS == ("yellow", "red", "blue", "green", "white")
    assert len(s.die_pos) == len(s.die_val) == 5
    assert all(1 <= v <= 6 for v in s.die_val)


def test_eight_resource_tiles_one_per_type():
    """RC-COMP-3: 8 Resource tiles, one of each resource type, all used every game."""
    assert sorted(RESOURCES[t.resource] for t in C.resource_tiles) == sorted(RESOURCES)
    s = GAME.initial_state({"players": 2}, 9)
    assert sorted(s.tiles) == list(range(8))


def test_twelve_influence_cards_three_per_deck_two_actions_each():
    """RC-COMP-4: four decks of 3, two actions per card, each lightning or infinity."""
    assert DECKS == ("craftsmen", "teamsters", "merchants", "clergy")
    assert sorted(c.deck for c in C.influence) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert all(len(c.actions) == 2 for c in C.influence)
    marks = {a.repeat for c in C.influence for a in c.actions}
    assert marks == {True, False}


def test_forty_cathedral_cards():
    """RC-COMP-5: 10 Bases, 20 Middles, 10 Domes; 3-4 Materials each; Recognition and
    sometimes Rubles."""
    kinds = [c.kind for c in C.cards]
    assert (kinds.count(0), kinds.count(1), kinds.count(2)) == (10, 20, 10)
    assert all(3 <= c.size <= 4 and c.rp > 0 for c in C.cards)
    assert any(c.rubles for c in C.cards) and not all(c.rubles for c in C.cards)


def test_nine_building_plans_marked_with_player_count():
    """RC-COMP-6: 9 plans, each for one player count."""
    assert len(C.plans) == 9
    assert sorted({p.players for p in C.plans}) == [2, 3, 4]


def test_twenty_eight_workshop_tiles_with_five_die_tiles():
    """RC-COMP-7: 28 tiles, resource or die kind; the five die tiles (one per die colour)
    are "3+" tiles."""
    assert len(C.tiles) == 28
    dice = [t for t in C.tiles if t.die >= 0]
    assert sorted(t.die for t in dice if t.players_3plus) == [0, 1, 2, 3, 4]
    assert all((t.die >= 0) != (t.resource >= 0) for t in C.tiles)


def test_five_ivan_cards():
    """RC-COMP-8: Recognition, Inventory, Transport, Claim a Cathedral Card, Build."""
    assert IVAN_CARDS == ("recognition", "inventory", "transport", "claim", "build")
    assert sorted(e["id"] for e in entries("ivan_cards.toml", "card")) == sorted(IVAN_CARDS)
    assert C.ivan_amounts["recognition"] == 4 and C.ivan_amounts["inventory"] == 4


def test_workshop_board_spaces_and_costs():
    """RC-COMP-9: one space per player colour plus a white space with 2 positions; a Ruble
    cost per space on the basic side, a uniform cost on the advanced side."""
    assert WS_POSITIONS == ("yellow", "red", "blue", "green", "white-1", "white-2")
    assert len(C.basic_costs) == 6 and C.basic_costs[4] == C.basic_costs[5]
    assert set(C.advanced_costs) == {3}


def test_per_colour_banners_and_ornamentations():
    """RC-COMP-10: 6 Banners, 4 Ornamentations (1 Door, 2 Arches, 1 Cross) per colour."""
    assert C.banners_per_player == 6
    assert C.banners_in_inventory + C.banners_outside == 6
    assert C.ornaments_per_player == (1, 2, 1)
    assert C.colours == ("yellow", "red", "blue", "green")


def test_material_supply_counts():
    """RC-COMP-11: 20 wood, 20 brick, 20 stone, 15 gold, 10 green, 10 purple."""
    assert C.supply == (20, 20, 20, 15, 10, 10)
    assert GAME.initial_state({"players": 2}, 0).supply == list(C.supply)


def test_coins_are_unlimited_by_default():
    """RC-COMP-12 / RC-AMB-2: whether the 40 coins limit the Rubles is an option
    (``ruble_limit``; 0 = unlimited, the default)."""
    opt = {o.name: o for o in GAME.options}["ruble_limit"]
    assert opt.default == 0 and opt.rule == "RC-AMB-2"


# --- RC-GAP ---------------------------------------------------------------------------------
def test_resource_tile_quantities_and_their_provenance():
    """RC-GAP-1: 2 bricks, 2 wood and 2 Rubles are rulebook quantities; the others are
    reconstructed and labelled so."""
    raw = {e["resource"]: e for e in entries("resource_tiles.toml", "tile")}
    for res in ("brick", "wood", "rubles"):
        assert raw[res]["amount"] == 2 and raw[res]["source"] == "rulebook"
    for res in ("stone", "gold", "green", "purple", "rp"):
        assert raw[res]["source"] == "reconstructed"


def test_cathedral_card_data_is_reconstructed_except_the_known_middle():
    """RC-GAP-2: the card list is reconstructed; M02 carries the seed's 4 RP + 2 Rubles;
    Bases differ in Recognition (Ivan's opening claim needs that)."""
    m02 = C.cards[C.card_index("M02")]
    assert (m02.kind, m02.rp, m02.rubles) == (1, 4, 2)
    assert all(e["source"] == "reconstructed" for e in entries("cathedral_cards.toml", "card"))
    assert len({c.rp for c in C.cards if c.kind == 0}) > 1


def test_building_plan_shapes():
    """RC-GAP-3: 2-player plans have 4 towers, 4-player plans 6; at most 10 towers; some
    towers have no Middle; shapes are labelled reconstructed."""
    for plan in C.plans:
        assert len(plan.middles) <= 10
        if plan.players == 2:
            assert len(plan.middles) == 4
        if plan.players == 4:
            assert len(plan.middles) == 6
    assert any(0 in p.middles for p in C.plans)
    assert all(e["source"] == "reconstructed" for e in entries("building_plans.toml", "plan"))


def test_every_building_plan_holds_six_cards_per_player():
    """RC-COMP-6, RC-CLAIM-7: a plan holds one card per Banner, 6 per player: 12 / 18 / 24
    for 2 / 3 / 4 players (public page, recorded as the plans' ``cards_url``); 3 plans per
    player count."""
    for plan in C.plans:
        assert plan.cards == 6 * plan.players, plan.id
    assert sorted(p.players for p in C.plans) == [2, 2, 2, 3, 3, 3, 4, 4, 4]
    for e in entries("building_plans.toml", "plan"):
        assert e["cards_source"] == "public-page"
        assert e["cards_url"].startswith("https://")


def test_workshop_tile_list():
    """RC-GAP-4: die tiles are rulebook; resource tiles are reconstructed; some grant
    Recognition."""
    for e in entries("workshop_tiles.toml", "tile"):
        assert e["source"] == ("rulebook" if e["kind"] == "die" else "reconstructed")
    assert any(t.resource == 7 for t in C.tiles)


def test_workshop_board_known_values():
    """RC-GAP-5: blue costs 2 on the basic side; the advanced side costs 3 everywhere
    with an Arch on green; the Inventory has 6 free spaces plus 4 Banner spaces."""
    assert C.basic_costs[WS_POSITIONS.index("blue")] == 2
    assert C.advanced_ornaments[WS_POSITIONS.index("green")] == 1
    assert (C.free_spaces, C.banners_in_inventory) == (6, 4)


def test_track_table_is_labelled_reconstructed():
    """RC-GAP-6: 80 Recognition / 40 Prestige per lap, start 2, space 0 not Prestige,
    14 and 18 are Prestige spaces; the invented positions are labelled."""
    raw = toml("track.toml")
    assert raw["prestige_positions_source"] == "reconstructed"
    assert (C.lap_length, len(C.prestige_positions), C.start) == (80, 40, 2)
    assert 0 not in C.prestige_positions and {14, 18} <= set(C.prestige_positions)


def test_influence_card_composition_is_data():
    """RC-GAP-7 / RC-AMB-8: which actions share a card, their marks and the Clergy units
    are data; CL-1 gives Recognition, CL-2 and CL-3 Prestige (best guesses)."""
    units = {a.rule: a.resource for c in C.influence for a in c.actions}
    assert RESOURCES[units["CL-1"]] == "rp"
    assert units["CL-2"] == components.PP and units["CL-3"] == components.PP
    rules = {a.rule for c in C.influence for a in c.actions}
    assert rules == {f"CR-{i}" for i in range(1, 7)} | {f"TM-{i}" for i in range(1, 5)} | {
        f"MR-{i}" for i in range(1, 5)} | {f"CL-{i}" for i in range(1, 5)}


def test_other_small_data():
    """RC-GAP-8: player colours yellow/red/blue/green; quadrants pair spaces 2k, 2k+1."""
    assert C.colours == ("yellow", "red", "blue", "green")
    assert all(
        q["quadrant"] == q["space"] // 2
        for q in GAME.player_view(GAME.initial_state({"players": 2}, 0), None)["market"])


def test_three_plus_mark_is_tile_data():
    """RC-AMB-13: which tiles are "3+" is the ``players_3plus`` flag of the tile data;
    the engine removes exactly the flagged tiles below 3 players."""
    flagged = {i for i, t in enumerate(C.tiles) if t.players_3plus}
    for seed in range(3):
        s = GAME.initial_state({"players": 2}, seed)
        assert not flagged & set(s.ws_tile)


# --- RC-ENG ---------------------------------------------------------------------------------
def test_state_holds_the_engine_model():
    """RC-ENG-1: market, construction site, per-player and per-turn fields, solo fields."""
    data = GAME.to_json(GAME.initial_state({"players": 1}, 0))
    for field in ("tiles", "die_pos", "die_val", "influence", "towers", "card_of", "owner",
                  "delivered", "done", "orn", "ws_tile", "rubles", "inv", "inv_banners",
                  "out_banners", "ws", "orn_avail", "orn_placed", "score", "completed",
                  "reroll_used", "sell_state", "mk_used", "end_trigger", "ivan_order",
                  "iv_tiles", "iv_up", "iv_banners", "iv_orn", "iv_inv", "iv_build"):
        assert field in data, field


def test_all_randomness_is_seeded_state():
    """RC-ENG-2: dice, shuffles, plan choice and Ivan's row come from the state's seeded
    generator: equal seeds give equal states, and no module uses ``random``."""
    for players in (1, 2, 3, 4):
        assert GAME.initial_state({"players": players}, 5) == GAME.initial_state(
            {"players": players}, 5)
    assert GAME.initial_state({"players": 4}, 5) != GAME.initial_state({"players": 4}, 6)
    for path in PACKAGE.glob("*.py"):
        text = path.read_text()
        assert "import random" not in text and "from random" not in text, path.name
