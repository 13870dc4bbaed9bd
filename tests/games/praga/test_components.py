"""Component data: counts (P-COMP-1), provenance, references and the facts of the
rulebook examples that the reconstructed data must satisfy (§18 GAP-1..16)."""

from __future__ import annotations

import shutil
import tomllib
from collections import Counter

import pytest

from meeplehall.games.praga import components, hexgrid
from meeplehall.games.praga.components import (
    ACTIONS,
    BLUE_TOKEN,
    BUILDING,
    CATHEDRAL,
    CELL_UP,
    DATA_DIR,
    EGG,
    GOLD_WINDOW,
    HUNGER_WALL,
    MARKET_COLOURS,
    SILVER,
    SOURCES,
    STONE,
    TECH,
    UPGRADE,
    VP,
    WALL,
    DataError,
    load,
)

C = load()

FAMILIES = {
    "buildings.toml": ["building"], "walls.toml": ["wall"], "upgrades.toml": ["upgrade"],
    "city.toml": ["market", "site", "hex", "blue_corner"], "market_tiles.toml": ["tile"],
    "crane.toml": ["slot"], "action_tiles.toml": ["tile"], "grids.toml": ["grid", "tier"],
    "road.toml": ["space", "road_tile"], "bridge.toml": ["piece", "tile"],
    "technologies.toml": ["tech"], "production_tokens.toml": ["token"],
    "seals.toml": ["seal"],
}
SECTIONS = {
    "crane.toml": ["wheel", "zones", "setup", "platform"],
    "player_board.toml": ["gold_track", "quarry_track", "tech_track", "univ_track",
                          "wealth", "start"],
    "action_board.toml": ["board"], "game.toml": ["counts", "colours", "walls", "eggs"],
}


def toml(name):
    with (DATA_DIR / name).open("rb") as handle:
        return tomllib.load(handle)


def _check_source(entry, where):
    assert entry["source"] in SOURCES, where
    if entry["source"] == "public-page":
        assert entry["url"].startswith("https://"), where
    if entry["source"] == "rulebook":
        assert entry["rule"], where


def test_every_data_entry_records_its_provenance():
    """Every entry says rulebook (with a rule id), public-page (with a URL) or
    reconstructed (issue 3, STYLE.md section 6)."""
    files = {p.name for p in DATA_DIR.glob("*.toml")}
    assert files == set(FAMILIES) | set(SECTIONS)
    for name, keys in FAMILIES.items():
        data = toml(name)
        for key in keys:
            for n, entry in enumerate(data[key]):
                _check_source(entry, f"{name} [[{key}]] {n}")
    for name, keys in SECTIONS.items():
        data = toml(name)
        for key in keys:
            _check_source(data[key], f"{name} [{key}]")


def test_P_COMP_1_hex_tile_counts_per_era():
    """P-COMP-1: 36 buildings and 36 walls (14 normal + 4 special per era), 30 upgrades
    (11 + 4 per era)."""
    for tiles, normal, special in ((C.buildings, 14, 4), (C.walls, 14, 4),
                                   (C.upgrades, 11, 4)):
        counts = Counter((t.era, t.special) for t in tiles)
        assert counts == {(1, False): normal, (1, True): special, (2, False): normal,
                          (2, True): special}


def test_P_COMP_1_other_counts():
    """P-COMP-1: 6 action tiles, 8 production tokens, 24 technologies, 12 bridge tiles
    (6 IV + 6 V), 11 market tiles, 5 seals, 3 King's Road tiles, alternative A/B tiers."""
    assert len(C.action_tiles) == 6
    assert len(C.production_tokens) == 8
    assert len(C.technologies) == 24
    assert Counter(t.level for t in C.technologies) == {1: 6, 2: 6, 3: 6, 4: 6}
    assert sum(t.is_v for t in C.bridge_tiles) == 6
    assert sum(not t.is_v for t in C.bridge_tiles) == 6
    assert len(C.market_tiles) == 11
    assert len(C.seals) == 5
    assert len(C.road_tiles) == 3
    assert len(C.bridge_pieces) == 5
    for grid in C.grids:
        assert sorted(grid.tiers) == ["A", "B", "standard"]
    counts = toml("game.toml")["counts"]
    assert (counts["silver_windows"], counts["gold_windows"]) == (14, 6)  # P-TOK-2, LANG-3
    assert (counts["eggs"], counts["eggs_of_three"]) == (12, 4)  # P-EGG-5, LANG-4
    assert (counts["red_tokens"], counts["blue_tokens"]) == (15, 15)  # P-TOK-1
    assert (counts["red_tokens_of_three"], counts["blue_tokens_of_three"]) == (4, 4)
    assert C.turns_per_player == 16


def test_P_COMP_3_cube_budget():
    """P-COMP-3: 11 cubes = 4 track markers + 3 wealth covers + 2 grid markers + 2 in the
    personal supply."""
    assert C.cubes == 11 and C.supply_cubes == 2


def test_P_SETUP_7_markets_per_player_count_and_colours():
    """P-SETUP-7, P-MKT-1: 8/9/10 markets receive tiles with 2/3/4 players; each colour
    has at least as many tiles as market hexes; one market is yellow (GL-M3)."""
    for players, used in ((2, 8), (3, 9), (4, 10)):
        assert sum(1 for m in C.markets if m.min_players <= players) == used
    for c, _ in enumerate(MARKET_COLOURS):
        hexes = sum(1 for m in C.markets if m.colour == c)
        assert sum(1 for t in C.market_tiles if t.colour == c) >= hexes
    assert sum(1 for m in C.markets if MARKET_COLOURS[m.colour] == "yellow") == 1


def test_P_BLD_5_every_site_borders_exactly_one_market():
    """P-BLD-5: every buildable hex is adjacent to exactly one market (and P-BLD-4: no
    site is on a market, road or other hex)."""
    market_hexes = {m.hex: i for i, m in enumerate(C.markets)}
    others = {h for h, _ in C.other_hexes}
    for site in C.sites:
        near = [market_hexes[n] for n in hexgrid.neighbours(site.hex) if n in market_hexes]
        assert near == [site.market], site
        assert site.hex not in market_hexes and site.hex not in others
    assert len({s.hex for s in C.sites}) == len(C.sites)
    assert all(len(ss) >= 3 for ss in C.market_sites)
    assert any(len(ss) == 3 for ss in C.market_sites)  # P-MKT-8: a 3-site market exists


def test_P_BLD_3_old_town_north_of_the_road_with_surcharge_and_vp():
    """P-BLD-3, GAP-1: Old Town sites (north of the King's Road) cost extra gold and
    print VP; New Town sites have neither."""
    road = [h for h, k in C.other_hexes if components.HEX_KINDS[k] == "road"]
    assert road
    for site in C.sites:
        if site.old_town:
            assert site.surcharge > 0 and site.vp > 0
        else:
            assert site.surcharge == 0 and site.vp == 0
    # "north of the road": above the least-squares line through the road hexes (y down)
    pts = [hexgrid.to_pixel(h) for h in road]
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    slope = (sum((x - mx) * (y - my) for x, y in pts)
             / sum((x - mx) ** 2 for x, _ in pts))
    for site in C.sites:
        x, y = hexgrid.to_pixel(site.hex)
        assert (y < my + slope * (x - mx)) == site.old_town, site


def test_P_SETUP_12_prebuilt_sites_for_two_and_three_players():
    """P-SETUP-12, GAP-1: some sites are marked for 2 players, others for 3; none for 4;
    no market is completed by pre-built buildings alone."""
    two = [s for s in C.sites if s.prebuilt == 2]
    three = [s for s in C.sites if s.prebuilt == 3]
    assert two and three
    for players in (2, 3):
        for m, sites in enumerate(C.market_sites):
            filled = sum(1 for i in sites if C.sites[i].prebuilt == players)
            assert filled < len(sites) - 1, (players, C.markets[m].id)


def test_P_ADJ_9_printed_blue_corners_touch_sites():
    """P-ADJ-9, GL-H9: blue corners printed on the board lie beside building sites."""
    assert C.printed_blue
    for v in C.printed_blue:
        assert any(h in C.site_at for h in v)


def test_rulebook_example_tiles_exist():
    """The tiles of the worked examples (Appendix A) exist with the stated values."""
    b = C.buildings[C.building_index("B15")]  # T-04
    assert (b.gold, b.stone, b.special, b.cube, bool(b.blue_corners)) == (2, 0, True, False, True)
    assert dict(b.reward) == {TECH: 1, STONE: 1}
    b = C.buildings[C.building_index("B06")]  # T-06
    assert (b.gold, b.stone, b.cathedral) == (4, 0, True) and dict(b.reward) == {SILVER: 1}
    assert {C.buildings[C.building_index(i)].gold + C.buildings[C.building_index(i)].stone
            for i in ("B13", "B14")} == {3, 4}
    w = C.walls[C.wall_index("W01")]  # T-07
    assert (w.stone, dict(w.reward), bool(w.red_corners)) == (4, {VP: 6}, True)
    u = C.upgrades[C.upgrade_index("U16")]  # T-02
    assert (u.era, u.action, dict(u.bonus)) == (2, UPGRADE, {STONE: 2})
    assert u.red_corners and any(s == 0 for _, s in u.edges)
    u = C.upgrades[C.upgrade_index("U17")]  # T-07
    assert (u.era, u.action, dict(u.bonus)) == (2, WALL, {VP: 1})
    u = C.upgrades[C.upgrade_index("U09")]  # T-07
    assert (u.action, dict(u.bonus)) == (UPGRADE, {GOLD_WINDOW: 1})
    tile = C.market_tiles[C.market_tile_index("K2")]  # P-MKT-8
    assert dict(tile.upper) == {SILVER: 2} and dict(tile.lower) == {VP: 4}
    middle = C.bridge_pieces[2]  # P-BRIDGE-4
    assert (dict(middle.side_a[0]), dict(middle.side_a[1])) == ({EGG: 1}, {BLUE_TOKEN: 1})
    assert ACTIONS.index("building") == BUILDING


def test_GAP_5_tracks_match_the_stated_facts():
    """P-MINE-4, GL-B7/B8, P-TECH-1, P-UNIV-3/4: cube on the 7th gold space gives 6 gold
    and 2 VP; the rightmost spaces mean 8 mines / 7 quarries; technology level IV after 6
    steps; University has 8 steps, bottom x0 and top x3."""
    g = C.gold_track
    left = g.produce_bonus[:6]
    assert sum(a for r in left for k, a in r if k == VP) == 2
    assert all(k != TECH for r in left for k, _ in r)
    assert (g.spaces - 1, C.quarry_track.spaces - 1) == (8, 7)
    assert (g.start - 1, C.quarry_track.start - 1) == (3, 2)
    assert (g.token_space - 1, C.quarry_track.token_space - 1) == (5, 4)
    assert C.tech_levels[3] == 6 and C.tech_top >= 7
    assert C.univ_top == 8 and C.univ_multiplier[0] == 0 and C.univ_multiplier[8] == 3


def test_GAP_7_grids_match_the_stated_facts():
    """P-GRID-2, P-GRID-11, P-SCORE-4: Hunger Wall starts bottom-right and moves left,
    the Cathedral bottom-left and moves right; on the Cathedral an up arrow lies one row
    above the start below a 1 gold + 1 stone tier boundary, with 2 VP right of the cell
    above; the top row is worth 13 and a column is worth 3."""
    hw, cat = C.grids[HUNGER_WALL], C.grids[CATHEDRAL]
    assert (hw.start_column, hw.direction) == (hw.columns - 1, -1)
    assert (cat.start_column, cat.direction) == (0, 1)
    t1, t2, t3 = cat.tiers["standard"]
    assert t1.rows[1][0] == CELL_UP and (t2.gold, t2.stone) == (1, 1)
    assert t2.rows[0][0] == 0 and t2.rows[0][1] == 2
    assert t3.row_values[-1] == 13 and 3 in cat.column_values


def test_GAP_4_action_tiles_side_a_shows_each_action_twice():
    """GAP-4, P-VAR-1: side A is three distinct tiles, each printed twice (public pages,
    component-facts.md), together showing every action twice; one tile pairs Manage Mines
    with Build Wall ([RU] example)."""
    shown = Counter(a for t in C.action_tiles for a in t.side_a)
    assert shown == dict.fromkeys(range(6), 2)
    pairs = Counter(frozenset(t.side_a) for t in C.action_tiles)
    assert len(pairs) == 3 and set(pairs.values()) == {2}
    assert any(set(t.side_a) == {0, WALL} or set(t.side_b) == {0, WALL}
               for t in C.action_tiles)


def test_GAP_12_production_tokens_suffice_per_player_count():
    """P-PROD-2: one token per track per player; the per-count subsets of the evidence
    file give 4 / 6 / 8 tokens."""
    for players, count in ((2, 4), (3, 6), (4, 8)):
        assert sum(1 for t in C.production_tokens if t.min_players <= players) == count


def test_broken_data_fails_with_a_clear_message(tmp_path, monkeypatch):
    """The loader re-checks counts and references and names the file and the problem."""

    def broken(name, old, new):
        shutil.copytree(DATA_DIR, tmp_path / name)
        path = tmp_path / name / old[0]
        text = path.read_text(encoding="utf-8")
        assert old[1] in text
        path.write_text(text.replace(old[1], new, 1), encoding="utf-8")
        monkeypatch.setattr(components, "DATA_DIR", tmp_path / name)
        components.load.cache_clear()
        with pytest.raises(DataError) as info:
            components.load()
        return str(info.value)

    try:
        msg = broken("a", ("walls.toml", 'id = "W02"\nera = 1\nspecial = false'),
                     'id = "W02"\nera = 1\nspecial = true')
        assert "walls.toml" in msg and "era 1 needs 14 normal + 4 special" in msg
        msg = broken("b", ("city.toml", 'market = "M1"'), 'market = "M2"')
        assert "city.toml" in msg and "must border exactly its market" in msg
        msg = broken("c", ("seals.toml", 'source = "reconstructed"'), 'source = "guess"')
        assert "seals.toml" in msg and "needs source" in msg
        msg = broken("d", ("crane.toml", "blue_vp = [1, 2, 3, 4, 5]"),
                     "blue_vp = [1, 2, 3, 4, 4]")
        assert "P-CRANE-12" in msg
        msg = broken("e", ("upgrades.toml", 'action = "mines"'), 'action = "mining"')
        assert "unknown action 'mining'" in msg
    finally:
        components.load.cache_clear()
    monkeypatch.undo()
    assert components.load().buildings == C.buildings


def test_loader_uses_the_shared_data_helpers():
    """Praga reads its files with ``core.data`` (one ``DataError`` for every game);
    ``components.DataError`` stays importable for callers."""
    from meeplehall.core import data

    assert DataError is data.DataError
    assert SOURCES == data.SOURCES
