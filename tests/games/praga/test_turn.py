"""The turn hub (§3.1), the crane (§3.2-3.4), the clock (§3.5), windows and the extra
action (§9), rows (§5)."""

from __future__ import annotations

from meeplehall.core.rng import Rng
from meeplehall.games.praga import GAME
from meeplehall.games.praga import crane as K
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.components import load
from tests.games.praga.fixtures import build, legal, play, slot_of

C = load()
GREEN_ZONE = C.crane.green_start + 1
BLUE_LAST = C.crane.beyond - 1


def test_P_CRANE_4_a_red_tile_needs_its_gold_first():
    """P-CRANE-4, P-TURN-3, P-TIMING-2, P-XACT-3, P-RES-3: a red tile costing 3 gold
    cannot be taken with 0 gold; after an extra action produced gold it can."""
    s = build({"crane": (2, 0, ("mines", "wall")), "p": {0: {"gold": 0, "goldw": 2}}})
    assert "take-tile 2" not in legal(s)
    s = play(s, "buy-extra gold", "extra mines", "produce")
    assert s.gold[0] >= C.crane.red_costs[0] and "take-tile 2" in legal(s)
    gold = s.gold[0]
    s = play(s, "take-tile 2")
    assert s.gold[0] == gold - C.crane.red_costs[0]


def test_P_CRANE_5_green_costs_and_gives_nothing_and_P_CRANE_2():
    """P-CRANE-5, P-CRANE-2: green positions give and cost nothing; the zone comes from
    the board position, the bonus from the slot."""
    s = play(build({"crane": (2, GREEN_ZONE, ("mines", "wall"))}), "take-tile 2")
    assert (s.gold[0], s.vp[0]) == (2, 0) and s.bonus


def test_P_CRANE_6_wheel_bonus_any_time_or_lost():
    """P-CRANE-6, P-EFR-1, GL-W5: the wheel bonus may be taken after the action; not taken
    by the end of the turn, it is lost."""
    stone_slot = slot_of("gain", gain="stone")
    s = build({"crane": (stone_slot, GREEN_ZONE, ("mines", "wall"))})
    s = play(s, f"take-tile {stone_slot}", "perform mines", "produce")
    assert "wheel-bonus" in legal(s)
    taken = play(s, "wheel-bonus")
    assert taken.stone[0] == s.stone[0] + 1 and "wheel-bonus" not in legal(taken)
    lost = play(s, "end-turn")
    assert lost.stone[0] == s.stone[0]


def test_P_CRANE_7_egg_purchase_can_wait_for_gold():
    """P-CRANE-7, GL-W3, P-EGG-1: the egg slot sells one egg for its price; with no gold
    the player may first produce, then buy."""
    egg = slot_of("egg")
    price = C.crane.slots[egg - 1].price
    s = build({"crane": (egg, GREEN_ZONE, ("mines", "quarries")),
               "p": {0: {"gold": 0, "stone": 0}}})
    s = play(s, f"take-tile {egg}")
    assert "wheel-bonus" not in legal(s)
    s = play(s, "perform mines" if price[0] else "perform quarries", "produce",
             "wheel-bonus")
    assert s.eggs[0] == 1


def test_P_EGG_3_level_ii_egg_technology():
    """P-EGG-3, GL-T2-4: each egg gained also gives 1 VP and 1 stone."""
    egg = slot_of("egg")
    s = build({"crane": (egg, GREEN_ZONE, ("mines", "quarries")),
               "p": {0: {"gold": 3, "stone": 3, "techs": ["T2e"]}}})
    s = play(s, f"take-tile {egg}", "wheel-bonus")
    assert s.eggs[0] == 1 and s.vp[0] == 1
    assert s.gold[0] + s.stone[0] == 3 + 3 - 1 + 1


def test_P_CRANE_9_and_P_CRANE_10_end_of_turn():
    """P-CRANE-9, P-CRANE-10, P-WIN-2, GL-O5: with more than 2 windows the player keeps 2
    of their choice; the wheel turns and the tile returns to the start of the red zone."""
    s = build({"crane": (2, BLUE_LAST - 1, ("mines", "wall")),
               "p": {0: {"silver": 2, "goldw": 2}}})
    s = play(s, "take-tile 2", "perform mines", "produce", "end-turn")
    assert s.stack[-1] == D.Discard(0)
    assert legal(s) == ["keep-silver 0", "keep-silver 1", "keep-silver 2"]
    s = play(s, "keep-silver 1")
    assert (s.silver[0], s.goldw[0]) == (1, 1)
    w = s.slots.index(0)
    assert K.board_position(C.crane, w, s.rotation) == 0
    assert GAME.current_player(s) == 1 and s.played == [1, 0]


def test_P_WIN_2_windows_of_other_turns_are_kept_until_own_turn_end():
    """P-WIN-2: only the player whose turn ends discards."""
    s = build({"crane": (2, GREEN_ZONE, ("mines", "wall")), "p": {1: {"silver": 5}}})
    s = play(s, "take-tile 2", "perform mines", "produce", "end-turn")
    assert s.silver[1] == 5


def test_P_CRANE_12_overflow_and_the_5_vp_token():
    """P-CRANE-12, P-EDGE-6, GL-O2, P-CRANE-3, LANG-24: a tile carried past the blue zone
    goes to the first free green slot with the 5-VP token and is worth 5 VP when taken;
    the token then returns beside the crane."""
    s = build({"crane": (2, GREEN_ZONE, ("mines", "wall"))})
    slots = [-1] * C.crane.positions
    w_old = K.wheel_at(C.crane, BLUE_LAST, s.rotation)
    slots[2], slots[w_old] = 0, 1
    s.slots = tuple(slots)
    s = play(s, "take-tile 2", "perform mines", "produce", "end-turn")
    assert s.five_vp == 1
    w = s.slots.index(1)
    board = K.board_position(C.crane, w, s.rotation)
    assert C.crane.green_start <= board < C.crane.blue_start
    s = play(s, f"take-tile {w}")
    assert s.vp[1] == 5 and s.five_vp == -1


def test_P_EDGE_1_a_tile_without_a_performable_action_can_still_be_taken():
    """P-EDGE-1, P-ACT-3: when no tile offers a performable action, any payable tile may
    be taken and the turn ended without an action."""
    s = build({"crane": (2, GREEN_ZONE, ("building", "wall")),
               "rows": {"building": [None] * 4, "wall": [None] * 4}})
    s.pairs = tuple((4, 3) for _ in s.pairs)
    s = play(s, "take-tile 2")
    assert legal(s)[-1] == "end-turn" and "perform building" not in legal(s)


def test_P_TURN_2_end_turn_needs_the_tile_action():
    """P-TURN-2, P-TURN-3: a turn ends only after the tile's action; explain_illegal says
    so."""
    s = play(build({"crane": (2, GREEN_ZONE, ("mines", "wall"))}), "take-tile 2")
    assert "end-turn" not in legal(s)
    try:
        GAME.apply(s, "end-turn")
    except ValueError as exc:
        assert "P-TURN-2" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("end-turn was accepted")


def test_P_XACT_1_to_5_the_extra_action():
    """P-XACT-1, P-XACT-2, P-XACT-4, P-XACT-5, P-WIN-1: 2 gold windows or gold + silver
    buy one extra action (2 silver do not), of any type, once per turn."""
    s = build({"crane": (2, GREEN_ZONE, ("mines", "wall")),
               "p": {0: {"silver": 2, "goldw": 0}}})
    assert not [a for a in legal(s) if a.startswith("buy-extra")]
    s = build({"crane": (2, GREEN_ZONE, ("mines", "wall")),
               "p": {0: {"silver": 1, "goldw": 3}}})
    assert {"buy-extra gold", "buy-extra silver"} <= set(legal(s))
    s = play(s, "buy-extra gold")
    extras = [a for a in legal(s) if a.startswith("extra")]
    assert {"extra mines", "extra quarries", "extra upgrade", "extra road"} <= set(extras)
    s = play(s, "extra mines", "produce")
    assert not [a for a in legal(s) if "extra" in a]


def test_P_ROW_5_refresh_a_row_once_per_turn():
    """P-ROW-5, P-ROW-2, P-EDGE-7: pay 1 gold or stone, remove 2 tiles (2 normal or the
    special and 1 normal) under their stacks, refill; once per turn."""
    s = build({})
    row = s.rows[1]
    s = play(s, "refresh wall stone")
    assert s.stone[0] == 1
    assert legal(s) == ["remove 0 1", "remove 0 2", "remove 1 2", "remove 0 3",
                        "remove 1 3", "remove 2 3"]
    s = play(s, "remove 1 3")
    assert s.rows[1][0] == row[0] and s.rows[1][2] == row[2]
    assert s.rows[1][1] != row[1] and s.rows[1][3] != row[3]
    assert s.stacks[2][-1] == row[1] and s.stacks[3][-1] == row[3]
    assert not [a for a in legal(s) if a.startswith("refresh")]


def test_P_EDGE_7_empty_stack_leaves_the_position_empty():
    """P-EDGE-7, P-ROW-2: a tile taken from a row whose stack is empty is not replaced,
    and a refresh needing that stack is not offered."""
    s = build({"crane": (2, GREEN_ZONE, ("upgrade", "mines"))})
    s.stacks[4] = ()
    s.stacks[5] = ()
    assert not [a for a in legal(s) if a.startswith("refresh upgrade")]
    s = play(s, "take-tile 2", "perform upgrade", "pick 0")
    assert s.rows[2][0] == -1


def _play_random(players, seed, until):
    s = GAME.initial_state({"players": players}, seed)
    rng = Rng.from_seed(seed)
    while GAME.current_player(s) is not None and not until(s):
        actions = GAME.legal_actions(s)
        GAME.apply_unchecked(s, actions[rng.randbelow(len(actions))])
    return s


def test_P_CLOCK_4_era_switch_replaces_all_three_rows():
    """P-CLOCK-4, P-ROW-6, LANG-5: 3 players: after turn 26 the era II rows replace all
    three rows."""
    s = _play_random(3, 11, lambda t: t.turns >= K.schedule(3).era_turn)
    assert s.era == 2
    families = (C.buildings, C.walls, C.upgrades)
    for row, tiles in enumerate(s.rows):
        assert all(families[row][t].era == 2 for t in tiles if t >= 0)


def test_P_CLOCK_5_two_players_switch_at_the_star():
    """P-CLOCK-5, P-CLOCK-1, P-CLOCK-3: 2 players: the era changes when the arrow reaches
    the star after the platform cube crossed the line, not at the crossing."""
    era_turn = K.schedule(2).era_turn
    s = _play_random(2, 12, lambda t: t.turns >= era_turn - 1)
    assert s.era == 1 and s.star_armed
    s = _play_random(2, 12, lambda t: t.turns >= era_turn)
    assert s.era == 2


def test_P_CLOCK_8_sixteen_turns_each():
    """P-CLOCK-8, P-TURN-1, P-CLOCK-7: every player takes exactly 16 turns."""
    for players in (2, 3, 4):
        s = _play_random(players, players, lambda t: False)
        assert s.played == [16] * players and GAME.outcome(s) is not None


def test_P_TURN_4_technologies_give_more_actions():
    """P-TURN-4, P-TECH-7, P-ACT-2, GL-T4-3: a level IV "any action" is a third action and
    does not use up the extra action."""
    s = build({"crane": (2, GREEN_ZONE, ("mines", "wall")),
               "p": {0: {"goldw": 2, "techs": ["T4c"]}}})
    s = play(s, "take-tile 2", "perform mines", "produce", "use-tech T4c", "any-action mines",
             "produce", "buy-extra gold", "extra mines", "produce")
    assert s.performed[0] == 3


def test_every_decision_and_action_reads_as_a_sentence():
    """Views, labels, decision descriptions and rules texts exist for everything met in a
    few random games (the CLI shows them)."""
    for seed in range(4):
        s = GAME.initial_state({"players": 2 + seed % 3}, seed)
        rng = Rng.from_seed(seed)
        while GAME.current_player(s) is not None:
            assert GAME.describe_decision(s) and GAME.rules_text(s)
            actions = GAME.legal_actions(s)
            for action in actions:
                assert GAME.action_label(s, action) != str(action)
            GAME.apply_unchecked(s, actions[rng.randbelow(len(actions))])
        assert GAME.describe_decision(s) == "the game is over"
        assert "final" in GAME.player_view(s, None)
