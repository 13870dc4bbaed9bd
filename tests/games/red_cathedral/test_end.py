"""End of the game and final scoring (RC-END-1..4, RC-FINAL-1..3, RC-TOWER-1..3, RC-2P-1,
RC-WIN-1/2, RC-AMB-1/11)."""

from __future__ import annotations

from meeplehall.core.messages import log_lines
from meeplehall.games.red_cathedral import GAME
from meeplehall.games.red_cathedral.components import load
from meeplehall.games.red_cathedral.final import final_scoring
from meeplehall.games.red_cathedral.scoring import (
    leftover_pp,
    tower_payout,
    tower_presence,
    tower_value,
    track,
)
from tests.games.red_cathedral.fixtures import build, card, legal, market_turn, play

C = load()
T = track()


def option(name):
    return {o.name: o for o in GAME.options}[name]


def racing(players=3, **options):
    """Seats 0 and 1 each have 5 completed cards and a Dome (D01: stone + 2 gold) lacking
    one gold, which they hold; seat 0 is to move."""
    return build({
        "players": players, "options": options,
        "towers": [
            [card("B01", 0, done=True), card("M01", 0, done=True), card("M02", 0, done=True),
             card("M03", 0, done=True), card("M04", 0, done=True),
             card("D01", 0, delivered={"stone": 1, "gold": 1})],
            [card("B02", 1, done=True), card("M05", 1, done=True), card("M06", 1, done=True),
             card("M07", 1, done=True), card("M08", 1, done=True),
             card("D05", 1, delivered={"wood": 1, "stone": 1})],
        ],
        "inv": {0: {"gold": 1}, 1: {"gold": 1}},
        "score": [20] * players,
        "turn": 0,
    })


def close_turn(s):
    side = GAME.current_player(s)
    while GAME.current_player(s) == side:
        acts = legal(s)
        closer = next(a for a in ("finish-delivery", "finish-market", "end-turn") if a in acts)
        s = play(s, closer)
    return s


def test_sixth_card_triggers_the_end_with_a_prestige_bonus():
    """RC-END-1 / RC-AMB-1: the 6th completion gives the card's Recognition, then +3
    Prestige (default unit); with ``end_bonus_unit='rp'`` +3 Recognition."""
    assert option("end_bonus_unit").default == "pp"
    rp = C.cards[C.card_index("D01")].rp
    s = play(racing(), "build", "deliver gold 5")
    assert s.end_trigger == 0 and s.score[0] == T.gain_pp(20 + rp, 3)
    s = play(racing(end_bonus_unit="rp"), "build", "deliver gold 5")
    assert s.score[0] == 20 + rp + 3


def test_round_limit_is_a_safety_stop():
    """RC-END-1 (engine option ``round_limit``, default 500, not a printed rule): after that
    many rounds the game goes to final scoring; 0 means no limit."""
    assert option("round_limit").default == 500
    s = GAME.initial_state({"players": 2, "round_limit": 1}, 3)
    s = market_turn(s)
    assert GAME.current_player(s) == 1
    s = market_turn(s)
    assert s.final is not None and any("round limit" in line for line in log_lines(s.log))


def test_every_other_player_takes_one_more_turn():
    """RC-END-2: the triggering player ends the turn, each other player (clockwise) has
    one more turn, then final scoring; the trigger takes no further turn."""
    s = play(racing(players=2), "build", "deliver gold 5")
    s = close_turn(s)
    assert GAME.current_player(s) == 1
    s = market_turn(s)
    assert GAME.current_player(s) is None and s.final is not None


def test_only_the_first_trigger_gets_the_bonus():
    """RC-END-3 / RC-AMB-11: a 6th card in the last turns gives no bonus and does not
    extend the game (default); ``later_sixth_bonus`` gives it the bonus too."""
    assert option("later_sixth_bonus").default is False
    rp = C.cards[C.card_index("D05")].rp
    for later, expected in ((False, 20 + rp), (True, T.gain_pp(20 + rp, 3))):
        s = play(racing(later_sixth_bonus=later), "build", "deliver gold 5")
        s = close_turn(s)
        s = play(s, "build", "deliver gold 11")
        assert s.completed[1] == 6 and s.end_trigger == 0
        assert s.score[1] == expected
        s = close_turn(s)
        assert GAME.current_player(s) == 2
        s = market_turn(s)
        assert GAME.current_player(s) is None


def test_solo_end_gives_no_bonus():
    """RC-END-4 / RC-SOLO-8: in solo no one gets the bonus; the other side still takes one
    more turn."""
    s = build({
        "players": 1, "options": {"ivan_choice": "leftmost"},
        "towers": [
            [card("B01", 0, done=True), card("M01", 0, done=True), card("M02", 0, done=True),
             card("M03", 0, done=True), card("M04", 0, done=True),
             card("D01", 0, delivered={"stone": 1, "gold": 1})],
            ["B02", "M05", "D05"]],
        "inv": {0: {"gold": 1}}, "score": [20, 2], "turn": 0})
    rp = C.cards[C.card_index("D01")].rp
    s = play(s, "build", "deliver gold 5")
    assert s.end_trigger == 0 and s.score[0] == 20 + rp and not s.bonus_given
    turns = s.turns
    s = close_turn(s)
    assert s.final is not None and s.turns == turns + 2  # Ivan played one more turn


def test_final_round_down():
    """RC-FINAL-1: markers between Prestige spaces move back; none behind: to 0."""
    s = build({"players": 3, "score": [16, 3, 18], "rubles": [0, 0, 0]})
    final_scoring(s)
    assert s.score == [14, 0, 18]


def test_leftovers_one_prestige_per_five():
    """RC-FINAL-2: 1 Prestige per 5 Materials in the Inventory plus Rubles, rounded down;
    Materials on unfinished cards do not count."""
    assert leftover_pp(3, 6) == 1 and leftover_pp(4, 6) == 2 and leftover_pp(0, 4) == 0
    s = build({"players": 2, "score": [0, 0], "rubles": [6, 4],
               "inv": {0: {"wood": 3}, 1: {"gold": 1}},
               "towers": [[card("B01", 1, delivered={"wood": 2}), "M01", "D01"]]})
    final_scoring(s)
    assert GAME.outcome(s).scores == (1, 1)
    assert [b["leftovers"] for b in GAME.outcome(s).breakdown] == [1, 1]


def test_towers_are_scored_after_leftovers():
    """RC-FINAL-3: each tower is scored; all additions are Prestige gains."""
    s = build({"players": 2, "score": [16, 0], "rubles": [5, 0],
               "towers": [[card("B01", 0, done=True), "M01", "D01"]]})
    final_scoring(s)
    out = GAME.outcome(s)
    assert out.breakdown[0] == {"track": 3, "leftovers": 1, "towers": 2}
    assert out.scores[0] == 6


def test_tower_value():
    """RC-TOWER-1: 2 per completed card + 1 per Ornamentation; unfinished cards add
    nothing."""
    assert tower_value(3, 1) == 7
    value, presence = tower_presence([0, 1, 2], [True, True, False], [1, -1, -1], [0, 1, 2])
    assert value == 5 and presence == {0: 1, 1: 2}


def test_tower_presence():
    """RC-TOWER-2: Banners on completed cards plus Ornamentations; presence 0 scores
    nothing."""
    value, presence = tower_presence([0, 0, 1], [True, False, False], [-1, -1, -1],
                                     [0, 1, 2])
    assert presence == {0: 1}
    assert tower_payout(value, presence, 3) == {0: 2}


def test_tower_positions_halve_and_ties_share():
    """RC-TOWER-3: positions worth v, v//2, v//4, ...; a tie shares its positions' sum,
    floored; the next group starts after the tie."""
    assert tower_payout(12, {0: 3, 1: 2, 2: 2, 3: 1}, 4) == {0: 12, 1: 4, 2: 4, 3: 1}
    assert tower_payout(9, {0: 1, 1: 1, 2: 1}, 3) == {0: 5, 1: 5, 2: 5}
    assert tower_payout(7, {}, 3) == {}


def test_two_player_tower_rule():
    """RC-2P-1: the leader takes the whole value, the other floor(value / 3); equal
    presences score nothing; solo uses the same rule."""
    assert tower_payout(10, {0: 3, 1: 1}, 2) == {0: 10, 1: 3}
    assert tower_payout(10, {0: 2, 1: 2}, 2) == {0: 0, 1: 0}
    assert tower_payout(10, {1: 2}, 2) == {1: 10}
    s = build({"players": 1, "score": [0, 0],
               "towers": [[card("B01", 0, done=True), card("M01", 1, done=True),
                           card("D01", 0, done=True)]], "rubles": [0, 0]})
    final_scoring(s)
    assert s.final[0] == (6, 2)


def test_most_prestige_wins_counting_laps():
    """RC-WIN-1: the most Prestige wins; "+40" laps count."""
    s = build({"players": 2, "score": [80 + 5, 79], "rubles": [0, 0]})
    final_scoring(s)
    out = GAME.outcome(s)
    assert out.scores == (41, 40) and out.winners == (0,)


def test_tie_breakers():
    """RC-WIN-2: more completed cards, then more Ornamentations placed, else shared."""
    base = {"players": 3, "score": [14, 14, 14], "rubles": [0, 0, 0]}
    s = build(base | {"completed": {0: 2, 1: 3, 2: 3}, "set": {"orn_placed": [0, 1, 0]}})
    final_scoring(s)
    out = GAME.outcome(s)
    assert out.ranking == ((1,), (2,), (0,)) and out.winners == (1,)
    s = build(base | {"completed": {0: 3, 1: 3, 2: 3}, "set": {"orn_placed": [1, 1, 0]}})
    final_scoring(s)
    out = GAME.outcome(s)
    assert out.ranking == ((0, 1), (2,)) and out.winners == (0, 1)
