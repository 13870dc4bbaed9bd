"""Solo mode against Ivan Yakovlevich (RC-SOLO-7..10, RC-IVAN-0..6, RC-IVACT-*, RC-TSAR-4
and the options RC-AMB-6/7/9/10/18)."""

from __future__ import annotations

from meeplehall.core.messages import log_lines
from meeplehall.core.testing import random_playout
from meeplehall.games.red_cathedral import GAME
from meeplehall.games.red_cathedral.components import IVAN_CARDS, load
from meeplehall.games.red_cathedral.decisions import IvanClaim, IvanOrnament, Turn, end_turn
from meeplehall.games.red_cathedral.final import final_scoring
from meeplehall.games.red_cathedral.scoring import track
from tests.games.red_cathedral.fixtures import (
    build,
    card,
    legal,
    market_turn,
    mats,
    play,
    pp,
)

C = load()
T = track()
IVAN = 1
# Spaces 0..7: Recognition, green, purple, brick, wood, stone, gold, Rubles.
TILES = ["rp", "green", "purple", "brick", "wood", "stone", "gold", "rubles"]
# Each die moves onto an empty space: yellow 1 -> 2, red 1 -> 3, blue 2 -> 5,
# green 1 -> 6, white 2 -> 1.
DICE = {"yellow": (1, 1), "red": (2, 1), "blue": (3, 2), "green": (5, 1), "white": (7, 2)}
ROW = ["recognition", "inventory", "transport", "claim", "build"]
TOWERS = [["B01", "M01", "D01"], ["B02", "M03", "D02"]]


def option(name):
    return {o.name: o for o in GAME.options}[name]


def solo(first="recognition", ivan=None, options=None, **extra):
    """Solo table; Ivan's row starts with ``first`` (its tile shows the yellow die)."""
    row = [first] + [c for c in ROW if c != first]
    spec = {"players": 1, "tiles": TILES, "dice": DICE, "towers": TOWERS,
            "influence": ["CR1", "TM1", "MR1", "CR2"],
            "ivan": {"order": row, "dice": ["yellow", "red", "blue", "green", "white"]}
            | (ivan or {}),
            "options": {"ivan_choice": "leftmost"} | (options or {}), "turn": 0}
    return build(spec | extra)


def ivan_plays(s):
    """The human ends the turn; Ivan's turn runs inside the engine."""
    s = s.clone()
    s.stack = []
    s.main_done = True
    end_turn(s)
    return s


def ivan_log(s):
    """Ivan's card actions, as card names, from the log."""
    names = []
    for line in log_lines(s.log):
        for prefix, name in (("Ivan: Recognition", "recognition"),
                             ("Ivan: Inventory", "inventory"), ("Ivan: Transport", "transport"),
                             ("Ivan: Build", "build"), ("Ivan claims slot", "claim"),
                             ("Ivan: Claim", "claim")):
            if line.startswith(prefix):
                names.append(name)
    return names


# --- RC-IVAN ---------------------------------------------------------------------------------
def test_all_tiles_down_ornament_step_then_reshuffle():
    """RC-IVAN-0: with all tiles face down Ivan first places the next Ornamentation of
    Door, Arch, Arch, Cross on a card completed by the human (else by himself), gains 1
    Prestige, then reshuffles his tiles face up."""
    towers = [[card("B01", 0, done=True), "M01", "D01"], [card("B02", IVAN, done=True),
                                                          "M03", "D02"]]
    s = solo("transport", towers=towers, ivan={"up": [False] * 5}, score=[2, 2])
    s = ivan_plays(s)
    assert s.orn[0] == IVAN and s.iv_orn == 1 and pp(s, IVAN) == 1
    assert s.iv_up == [False, True, True, True, True]  # reshuffled, then one used
    s = solo(towers=[[card("B01", IVAN, done=True), "M01", "D01"], TOWERS[1]],
             ivan={"up": [False] * 5})
    s = ivan_plays(s)
    assert s.orn[0] == IVAN  # no human card: his own


def test_ornament_sequence_is_strict():
    """RC-IVAN-0 (Ornament step): when the next Ornamentation (here the Door) cannot be
    placed, the whole step is skipped even if an Arch could be."""
    towers = [[card("B01", 0), card("M01", 0, done=True), "D01"], TOWERS[1]]
    s = ivan_plays(solo(towers=towers, ivan={"up": [False] * 5}))
    assert s.orn == [-1] * 6 and s.iv_orn == 0


def test_human_picks_among_several_ornament_cards():
    """RC-IVAN-0 / RC-AMB-18: with several candidate cards the human chooses (default
    ``ivan_choice='human'``); 'leftmost' picks the first."""
    assert option("ivan_choice").default == "human"
    towers = [[card("B01", 0, done=True), "M01", "D01"], [card("B02", 0, done=True),
                                                         "M03", "D02"]]
    s = ivan_plays(solo(towers=towers, ivan={"up": [False] * 5},
                        options={"ivan_choice": "human"}))
    assert s.stack[-1] == IvanOrnament(0, (0, 3))
    assert legal(s) == {"ivan-ornament 0", "ivan-ornament 3"}
    s = play(s, "ivan-ornament 3")
    assert s.orn[3] == IVAN and s.stack[-1] == Turn(0)


def test_ivan_ornament_prestige_option():
    """RC-AMB-9: Ivan gains ``ivan_ornament_pp`` Prestige per Ornamentation (default 1)."""
    assert option("ivan_ornament_pp").default == 1
    towers = [[card("B01", 0, done=True), "M01", "D01"], TOWERS[1]]
    s = ivan_plays(solo("transport", towers=towers, ivan={"up": [False] * 5},
                        options={"ivan_ornament_pp": 3}))
    assert pp(s, IVAN) == 3


def test_leftmost_face_up_card_is_used():
    """RC-IVAN-1: the leftmost card whose tile is face up."""
    s = ivan_plays(solo(ivan={"up": [False, False, True, True, True]}))
    assert ivan_log(s) == [ROW[2]] and s.iv_up == [False, False, False, True, True]


def test_ivan_moves_the_tile_die_by_its_pips():
    """RC-IVAN-2 / RC-AMB-7: exactly the pips, no extra steps, then the dice there are
    rerolled (default); ``ivan_rerolls`` false leaves them."""
    assert option("ivan_rerolls").default is True
    s = ivan_plays(solo())
    assert s.die_pos[0] == 2
    assert any("Ivan moves the yellow die to space 3; reroll" in line for line in log_lines(s.log))
    s = ivan_plays(solo(options={"ivan_rerolls": False}))
    assert s.die_pos[0] == 2 and s.die_val[0] == 1


def test_ivan_skips_a_move_onto_a_full_space():
    """RC-IVAN-2 / RC-IVAN-4 / RC-IVAN-5: onto a space with 3 dice the move is skipped, but
    the tile still turns face down and the card is still carried out."""
    crowded = DICE | {"red": (2, 1), "blue": (2, 2), "green": (2, 3)}
    s = ivan_plays(solo(dice=crowded, score=[2, 2]))
    assert s.die_pos[0] == 1
    assert s.iv_up[0] is False
    assert s.score[IVAN] == 2 + 4  # Recognition card still carried out
    # The seed's "skip this part" may also keep the tile face up (audit D-6).
    s = ivan_plays(solo(dice=crowded, score=[2, 2],
                        options={"ivan_flip_when_skipped": False}))
    assert s.iv_up[0] is True and s.score[IVAN] == 2 + 4


def test_ivan_gains_only_recognition_from_a_move():
    """RC-IVAN-3 / RC-AMB-7: no Materials or Rubles; Recognition from the Recognition tile
    times the dice there (default) or once (``ivan_rp_multiplied`` false); never any
    Workshop activation."""
    assert option("ivan_rp_multiplied").default is True
    dice = DICE | {"yellow": (6, 2), "red": (0, 3)}  # yellow lands on the RP tile
    rp_tile = next(t.amount for t in C.resource_tiles if t.resource == 7)
    s = ivan_plays(solo("transport", dice=dice, score=[2, 2]))
    assert s.score[IVAN] == 2 + rp_tile * 2
    assert s.inv[IVAN] == mats() and s.rubles[IVAN] == 0
    s = ivan_plays(solo("transport", dice=dice, score=[2, 2],
                        options={"ivan_rp_multiplied": False}))
    assert s.score[IVAN] == 2 + rp_tile


def test_ivan_gains_recognition_from_a_free_influence_action():
    """RC-IVAN-3 / RC-AMB-7: from the destination's Influence card only an action giving
    Recognition with no cost or unmet condition pays Ivan (CL-1 on CL1)."""
    s = ivan_plays(solo("transport", influence=["CR1", "CL1", "MR1", "CR2"], score=[2, 2]))
    assert s.dest == -1 and s.score[IVAN] == 2 + 1  # yellow -> space 2, quadrant 1
    s = ivan_plays(solo("transport", influence=["CR1", "TM1", "MR1", "CL1"], score=[2, 2]))
    assert s.score[IVAN] == 2


def test_ivan_blocks_cycle_in_row_order():
    """RC-IVAN-6 / RC-IVAN-4 / RC-IVAN-5: every block of 5 Ivan turns performs the five
    cards once each in row order (the reshuffle only changes the dice)."""
    for seed in range(4):
        state, _ = random_playout(GAME, {"players": 1, "ivan_choice": "leftmost"}, seed, seed)
        done = ivan_log(state)
        row = [IVAN_CARDS[c] for c in state.ivan_order]
        assert done == (row * 20)[: len(done)]
        assert len(done) >= 5


# --- RC-IVACT ---------------------------------------------------------------------------------
def test_recognition_card():
    """RC-IVACT-REC: +4 Recognition."""
    s = ivan_plays(solo("recognition", score=[2, 10]))
    assert s.score[IVAN] == 14


def test_inventory_card_takes_four_from_the_largest_pile():
    """RC-IVACT-INV / RC-AMB-6: 4 Materials from the type with the most tokens; by default
    (the seed) all from that pile; 'one-at-a-time' (the reference) re-picks the largest
    pile for each; ties go wood, brick, stone, gold, green, purple."""
    assert option("ivan_inventory_take").default == "single-pile"
    supply = {"wood": 10, "brick": 12, "stone": 11, "gold": 3, "green": 1, "purple": 0}
    s = ivan_plays(solo("inventory", supply=supply))
    assert s.iv_inv == mats(brick=4) and s.supply[1] == 8
    s = ivan_plays(solo("inventory", supply=supply,
                        options={"ivan_inventory_take": "one-at-a-time"}))
    assert s.iv_inv == mats(wood=1, brick=2, stone=1)
    s = ivan_plays(solo("inventory", supply={"gold": 2, "green": 1}))
    assert s.iv_inv == mats(gold=2, green=1)


def test_transport_card():
    """RC-IVACT-TRANS: all Materials from the Inventory card to the Build card; empty
    means nothing (the die still moved)."""
    s = ivan_plays(solo("transport", ivan={"inv": {"wood": 3}, "build": {"gold": 1}}))
    assert s.iv_inv == mats() and s.iv_build == mats(wood=3, gold=1)
    s = ivan_plays(solo("transport"))
    assert s.iv_build == mats() and s.die_pos[0] == 2


def test_claim_priorities():
    """RC-IVACT-CLAIM: 1. directly above a card of the human; 2. a Base without a Banner;
    3. any card (the seed, default; RC-AMB-18 'available' for the reference)."""
    assert option("ivan_fallback_claim").default == "any"
    s = ivan_plays(solo("claim", towers=[[card("B01", 0), "M01", "D01"],
                                         ["B02", "M03", "D02"]]))
    assert s.owner[1] == IVAN and s.iv_banners == 5
    s = ivan_plays(solo("claim", towers=[[card("B01", IVAN), "M01", "D01"],
                                         ["B02", "M03", "D02"]]))
    assert s.owner[3] == IVAN
    full_bases = [[card("B01", IVAN), "M01", "D01"], [card("B02", IVAN), "M03", "D02"]]
    s = ivan_plays(solo("claim", towers=[[card("B01", IVAN), card("M01", IVAN), "D01"],
                                         [card("B02", IVAN), "M03", "D02"]]))
    assert s.owner[2] == IVAN  # 'any': the first card without a Banner, the Dome
    s = ivan_plays(solo("claim", towers=full_bases,
                        options={"ivan_fallback_claim": "available"}))
    assert s.owner[1] == IVAN


def test_claim_human_choice_and_recognition_tile():
    """RC-IVACT-CLAIM: the human picks among equal cards; a Recognition tile pays Ivan;
    the tile is discarded; without Banners Ivan claims nothing."""
    towers = [[card("B01", tile="W21"), "M01", "D01"], [card("B02", tile="W17"), "M03", "D02"]]
    s = ivan_plays(solo("claim", towers=towers, options={"ivan_choice": "human"},
                        score=[2, 2]))
    assert s.stack[-1] == IvanClaim(0, (0, 3))
    s = play(s, "ivan-claim 0")
    w21 = C.tiles[C.tile_index("W21")].amount
    assert s.owner[0] == IVAN and s.score[IVAN] == 2 + w21 and s.ws_tile[0] == -1
    s = play(ivan_plays(solo("claim", towers=towers, options={"ivan_choice": "human"})),
              "ivan-claim 3")
    assert s.ws_tile[3] == -1 and s.score[IVAN] == 2
    s = ivan_plays(solo("claim", ivan={"banners": 0}))
    assert IVAN not in s.owner


def test_build_by_count_in_row_order_with_surplus():
    """RC-IVACT-BUILD / RC-AMB-6: Materials go by count only, bottom row first, left to
    right ('rows', default); a completed card's surplus goes to the next card; leftovers
    stay on the Build card; 'columns' scans tower by tower."""
    assert option("ivan_build_scan").default == "rows"
    towers = [[card("B01", IVAN), card("M01", IVAN), "D01"], [card("B02", IVAN), "M03", "D02"]]
    s = ivan_plays(solo("build", towers=towers, ivan={"build": {"gold": 5}}, score=[2, 2]))
    b01 = C.cards[C.card_index("B01")]
    assert s.done[0] and s.delivered[3] == mats(gold=2)  # B01 takes 3, B02 the other 2
    assert s.score[IVAN] == 2 + b01.rp and s.iv_build == mats()
    s = ivan_plays(solo("build", towers=towers, ivan={"build": {"gold": 5}},
                        options={"ivan_build_scan": "columns"}))
    assert s.done[0] and s.delivered[1] == mats(gold=2)
    s = ivan_plays(solo("build", towers=[[card("B01", IVAN), "M01", "D01"], TOWERS[1]],
                        ivan={"build": {"wood": 5}}))
    assert s.done[0] and s.iv_build == mats(wood=2)


def test_ivan_ignores_rubles_and_pays_the_tsar():
    """RC-IVACT-BUILD / RC-AMB-10 / RC-TSAR-4: Ivan gains a completed card's Recognition
    but not its Rubles; the Tsar's penalty applies to and because of him."""
    towers = [[card("B02", 0, delivered={"wood": 1}), card("M02", IVAN), "D01"],
              ["B03", "M04", "D02"]]
    s = ivan_plays(solo("build", towers=towers, ivan={"build": {"stone": 3}}, score=[10, 2]))
    m02 = C.cards[C.card_index("M02")]
    assert m02.rubles and m02.size == 3 and s.done[1]
    assert s.rubles[IVAN] == 0 and s.score[IVAN] == 2 + m02.rp
    assert s.score[0] == 10 - 1
    towers = [[card("B01", IVAN), card("M01", 0, delivered={"brick": 1, "stone": 1}), "D01"],
              TOWERS[1]]
    s = solo("transport", towers=towers, inv={0: {"stone": 1}}, score=[2, 10])
    s = play(s, "build", "deliver stone 1")
    assert s.score[IVAN] == 10 - 1


def test_ivan_sixth_card_ends_without_bonus():
    """RC-SOLO-8 / RC-END-4: Ivan's 6th completion ends the game with no bonus; the human
    takes one more turn."""
    done = [card("B01", IVAN, done=True), card("M01", IVAN, done=True),
            card("D01", IVAN, done=True)]
    towers = [done, [card("B02", IVAN, done=True), card("M03", IVAN, done=True),
                     card("D02", IVAN)]]
    s = ivan_plays(solo("build", towers=towers, ivan={"build": {"gold": 3}}, score=[2, 2]))
    assert s.end_trigger == IVAN and not s.bonus_given
    assert s.score[IVAN] == 2 + C.cards[C.card_index("D02")].rp
    assert GAME.current_player(s) == 0
    s = market_turn(s)
    assert s.final is not None


# --- solo scoring -------------------------------------------------------------------------------
def test_solo_uses_two_player_rules():
    """RC-SOLO-7: anything else works as in a 2-player game (Tsar for Ivan above, the
    2-player tower rule here)."""
    towers = [[card("B01", 0, done=True), card("M01", IVAN, done=True),
               card("D01", 0, done=True)], TOWERS[1]]
    s = solo(towers=towers, score=[0, 0], rubles=[0, 0])
    final_scoring(s)
    assert s.final[2][0][2] == ((0, 6), (IVAN, 2))


def test_solo_final_scoring():
    """RC-SOLO-9 / RC-AMB-10: both markers round down; the human scores leftovers, Ivan
    none by default (``ivan_scores_leftovers`` true: 1 per 5 on his cards)."""
    assert option("ivan_scores_leftovers").default is False
    spec = {"score": [16, 16], "rubles": [5, 0], "ivan": {"inv": {"wood": 3},
                                                         "build": {"gold": 2}}}
    s = solo(**spec)
    final_scoring(s)
    assert s.final[1] == ((3, 1, 0), (3, 0, 0))
    s = solo(options={"ivan_scores_leftovers": True}, **spec)
    final_scoring(s)
    assert s.final[1][1] == (3, 1, 0)


def test_solo_winner():
    """RC-SOLO-10: the human wins with more Prestige; ties use RC-WIN-2."""
    for scores, completed, result in (([18, 14], {}, "win"), ([14, 18], {}, "loss"),
                                       ([14, 14], {0: 2, 1: 1}, "win"),
                                       ([14, 14], {0: 1, 1: 1}, "shared")):
        s = solo(score=scores, rubles=[0, 0], completed=completed)
        final_scoring(s)
        out = GAME.outcome(s)
        assert out.details["result"] == result
        assert out.winners == ((0,) if result != "loss" else ())
