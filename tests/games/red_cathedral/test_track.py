"""The scoring track: Recognition and Prestige on one track (RC-SCORE-1..9, RC-AMB-4/5)."""

from __future__ import annotations

from meeplehall.core.messages import log_lines
from meeplehall.games.red_cathedral import GAME
from meeplehall.games.red_cathedral.components import load
from meeplehall.games.red_cathedral.scoring import Track, track
from tests.games.red_cathedral.fixtures import build, card, legal, play, pp

C = load()
T = track()
P = C.prestige_positions  # 5, 10, 14, 18, ...


def test_track_covers_80_recognition_and_40_prestige():
    """RC-SCORE-1: one lap is 80 Recognition spaces holding 40 Prestige spaces; space 0
    is not a Prestige space."""
    assert T.lap == 80 and T.per_lap == 40
    assert not T.on_prestige(0)
    assert sum(T.on_prestige(t) for t in range(80)) == 40


def test_marker_is_lap_and_position():
    """RC-SCORE-2: the marker is (lap, pos), kept as one absolute number; views show the
    lap and the Prestige list is increasing."""
    assert list(P) == sorted(set(P))
    s = build({"players": 2, "score": [83, 2]})
    view = GAME.player_view(s, 0)
    assert view["sides"][0]["lap"] == 1 and view["sides"][0]["recognition"] == 83


def test_gaining_recognition_moves_n_spaces_and_wraps():
    """RC-SCORE-3: +N Recognition moves N spaces; past the end the marker wraps and its
    lap grows ("+40" side)."""
    s = build({"players": 2, "score": [78, 2],
               "towers": [["B01", card("M01", 0, delivered={"brick": 1, "stone": 1}), "D01"]],
               "inv": {0: {"stone": 1}}, "turn": 0})
    s = play(s, "build", "deliver stone 1")
    assert s.score[0] == 78 + C.cards[C.card_index("M01")].rp
    assert divmod(s.score[0], 80) == (1, 78 + C.cards[C.card_index("M01")].rp - 80)


def tsar_victim(score, **options):
    """Seat 1 has an unfinished Base under seat 0's Middle, which lacks one stone."""
    return build({
        "players": 2, "options": options, "score": [2, score],
        "towers": [[card("B01", 1), card("M01", 0, delivered={"brick": 1, "stone": 1}),
                    "D01"]],
        "inv": {0: {"stone": 1}}, "turn": 0})


def test_losing_recognition_stops_at_zero():
    """RC-SCORE-4 / RC-AMB-5: a Recognition loss never takes the marker below 0 (the
    default); with ``negative_recognition`` it becomes a debt."""
    opt = {o.name: o for o in GAME.options}["negative_recognition"]
    assert opt.default is False
    s = play(tsar_victim(0), "build", "deliver stone 1")
    assert s.score[1] == 0
    s = play(tsar_victim(0, negative_recognition=True), "build", "deliver stone 1")
    assert s.score[1] == -1


def test_losing_recognition_across_the_start_decreases_the_lap():
    """RC-SCORE-4: moving back over the start after a wrap lowers the lap."""
    s = play(tsar_victim(80), "build", "deliver stone 1")
    assert s.score[1] == 79 and divmod(s.score[1], 80) == (0, 79)


def test_gaining_prestige_moves_to_the_next_prestige_space():
    """RC-SCORE-5: each Prestige point moves to the nearest Prestige space strictly ahead;
    from between two spaces the first point reaches the next one."""
    assert T.gain_pp(2, 1) == 5 and T.gain_pp(5, 1) == 10 and T.gain_pp(7, 1) == 10
    assert T.gain_pp(7, 3) == 18
    assert T.pp(T.gain_pp(7, 3)) == T.pp(7) + 3


def test_losing_prestige_moves_back_and_may_be_impossible():
    """RC-SCORE-6: losing 1 Prestige moves back to the nearest Prestige space strictly
    behind; with none behind, Prestige-costing free actions are not offered."""
    assert T.lose_pp(12, 1) == 10 and T.lose_pp(10, 1) == 5
    assert T.lose_pp(5, 1) is None and T.lose_pp(3, 1) is None
    s = build({"players": 2, "score": [5, 2], "turn": 0})
    assert not {a for a in legal(s) if a == "sell-prestige" or a.startswith("reroll")}
    s = build({"players": 2, "score": [12, 2], "turn": 0})
    assert "sell-prestige" in legal(s)
    s = play(s, "sell-prestige")
    assert s.score[0] == 10 and s.rubles[0] == 3 + 2


def test_prestige_loss_option_full_point():
    """RC-AMB-4: by default losing Prestige from between two Prestige spaces moves to the
    one behind (keeping the Prestige floor); 'full-point' also loses a whole point."""
    opt = {o.name: o for o in GAME.options}["prestige_loss"]
    assert opt.default == "previous-space"
    literal = play(build({"players": 2, "score": [12, 2], "turn": 0}), "sell-prestige")
    full = play(build({"players": 2, "score": [12, 2], "turn": 0,
                       "options": {"prestige_loss": "full-point"}}), "sell-prestige")
    assert (literal.score[0], pp(literal, 0)) == (10, 2)
    assert (full.score[0], pp(full, 0)) == (5, 1)


def test_plus_forty_and_second_lap():
    """RC-SCORE-7: past the end of the track the marker flips to "+40" and keeps counting;
    a second lap works too."""
    assert T.gain_pp(79, 1) == 80 + P[0]
    assert T.pp(80 + P[0]) == 41
    assert T.pp(160 + P[1]) == 82
    assert T.lose_pp(80 + P[0], 1) == 79
    assert T.round_down(80 + 3) == 79


def test_prestige_value_formula():
    """RC-SCORE-8: PP = 40 * lap + number of Prestige spaces at or behind the marker."""
    for t in range(0, 240):
        lap, pos = divmod(t, 80)
        assert T.pp(t) == 40 * lap + sum(1 for p in P if p <= pos)
    small = Track(10, (3, 6))
    assert [small.pp(t) for t in range(12)] == [0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2]


def test_units_of_each_effect():
    """RC-SCORE-9: completing a card gives Recognition (plain spaces), jewels give
    Prestige (Prestige spaces), the free actions cost Prestige."""
    s = build({"players": 2, "score": [6, 2],
               "towers": [[card("B01", 1, done=True), card("M01", 0,
                                                           delivered={"brick": 1}), "D01"]],
               "inv": {0: {"stone": 2, "green": 1}}, "turn": 0})
    s = play(s, "build", "deliver stone 1")
    assert s.score[0] == 6  # not complete yet: still needs a stone
    s = play(s, "deliver stone 1")
    m01 = C.cards[C.card_index("M01")].rp
    assert not T.on_prestige(6 + m01)
    assert s.score[0] == 6 + m01  # M01's Recognition, plain spaces
    s = build({"players": 2, "score": [7, 2],
               "towers": [[card("B01", 1, done=True), "M01", "D01"]],
               "inv": {0: {"wood": 1, "green": 1}}, "turn": 0})
    s = play(s, "build", "decorate 0", "jewels green")
    assert s.score[0] == 10  # one Prestige: to the next Prestige space


def test_round_down_without_a_prestige_space_behind_goes_to_zero():
    """RC-AMB-5 (round-down part): a marker with no Prestige space behind goes to 0."""
    assert T.round_down(3) == 0 and T.round_down(0) == 0 and T.round_down(5) == 5


def test_a_prestige_sale_that_loses_no_prestige_says_so():
    """RC-SCORE-6, RC-AMB-4: from between two Prestige spaces (12, between 10 and 14) the
    sale moves back to the last Prestige space and loses no Prestige: the label and the
    log line say what happens; on a Prestige space (14) it sells 1 Prestige."""
    s = build({"players": 2, "score": [12, 2], "turn": 0})
    sell = GAME.parse_action("sell-prestige")
    assert GAME.action_label(s, sell) == (
        "Go back 2 Recognition to the last Prestige space for 2 Rubles (no Prestige lost)")
    after = play(s, "sell-prestige")
    assert pp(after, 0) == pp(s, 0)
    assert log_lines(after.log)[-1].endswith(
        "goes back 2 Recognition to the last Prestige space for 2 Rubles (no Prestige lost)")
    s = build({"players": 2, "score": [14, 2], "turn": 0})
    assert GAME.action_label(s, sell) == "Sell 1 Prestige for 2 Rubles"
    after = play(s, "sell-prestige")
    assert pp(after, 0) == pp(s, 0) - 1 and "sells 1 Prestige for" in log_lines(after.log)[-1]
