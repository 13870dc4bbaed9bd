"""What each option changes (§15 variants, §16.3 engine decisions, §19 readings)."""

from __future__ import annotations

from meeplehall.games.praga import GAME, board
from meeplehall.games.praga import crane as K
from meeplehall.games.praga.components import ACTIONS, load
from meeplehall.games.praga.effects import ROW_BITS
from tests.games.praga.fixtures import build, legal, play

C = load()
GREEN_ZONE = C.crane.green_start + 1


def test_first_game_arrangement():
    """P-SETUP-14: 'first-game' puts the tiles in data order from the start of red."""
    s = GAME.initial_state({"players": 4, "tile_arrangement": "first-game"}, 9)
    order = sorted((K.board_position(C.crane, w, s.rotation), t)
                   for w, t in enumerate(s.slots) if t >= 0)
    assert [t for _, t in order] == list(range(6))


def test_up_arrow_automatic():
    """LANG-11 with 'automatic': the arrow is followed at once when its cost is payable."""
    s = build({"options": {"up_arrow": "automatic"},
               "p": {0: {"silver": 2, "gold": 1, "stone": 1}}})
    s = play(s, "up cathedral")
    assert s.cat[0] // ROW_BITS == 2 and "arrow-up" not in legal(s)


def test_road_mine_and_quarry_one():
    """GL-R4 read as 'one of them': three choices instead of two."""
    s = build({"options": {"road_mine_and_quarry": "one"},
               "crane": (2, GREEN_ZONE, ("road", "mines")), "p": {0: {"road": 1, "eggs": 1}}})
    s = play(s, "take-tile 2", "perform road", "road-egg")
    assert legal(s) == ["choose 0", "choose 1", "choose 2"]


def test_spent_printed_ignores_discounts():
    """P-MKT-9 'printed': the tie-break counts the printed cost, not what a GL-T4-1
    discount let the player pay."""
    for spent, expected in (("paid", 0), ("printed", 2)):
        s = build({"options": {"spent": spent}, "p": {0: {"techs": ["T4a"], "gold": 0}},
                   "rows": {"building": ["B01", "B03", "B04", "B15"]}})
        s = play(s, "use-tech T4a", "pick 0", "site S22")
        s = play(s, "orient 0") if "orient 0" in legal(s) else s
        assert s.site_spent[C.site_index("S22")] == expected


def test_corner_repay_off_does_not_pay_a_pair_twice():
    """P-EDGE-5: with corner_repay false, an upgrade stacked on one whose red corner
    already paid with a neighbour does not pay that pair again."""
    for repay, tokens in ((True, 2), (False, 1)):
        s = build({"options": {"corner_repay": repay}})
        a = ACTIONS.index("upgrade")
        u = next(i for i, t in enumerate(C.upgrades) if t.action == a and t.red_corners)
        rc = C.upgrades[u].red_corners[0]
        c = 0
        _, q, cq = board.CORNERS[a][c][0]
        w01 = C.wall_index("W01")  # red corner 0
        if q >= 6:
            board.place_wall(s, 0, w01, q - 6, cq % 6)
        else:
            other = next(i for i, t in enumerate(C.upgrades) if t.action == q and t.red_corners)
            board.place_upgrade(s, 0, other, (cq - C.upgrades[other].red_corners[0]) % 6)
        board.place_upgrade(s, 0, u, (c - rc) % 6)
        board.place_upgrade(s, 0, u, (c - rc) % 6)
        assert s.red[0] == tokens
