"""Building, completing, the Tsar's penalty and decorating (RC-BUILD-1..4, RC-COMPLETE-1,
RC-TSAR-1..3, RC-ORN-1..8)."""

from __future__ import annotations

from meeplehall.games.red_cathedral.build import ornament_prestige
from meeplehall.games.red_cathedral.components import load
from meeplehall.games.red_cathedral.decisions import Deliver, Turn
from meeplehall.games.red_cathedral.scoring import track
from tests.games.red_cathedral.fixtures import build, card, held, legal, mats, play, pp

C = load()
T = track()


def builder(inv, *towers, players=2, **extra):
    """Seat 0 to move holding ``inv``; the towers as given."""
    return build({"players": players, "towers": list(towers), "inv": {0: inv}, "turn": 0,
                  **extra})


def deliveries(s):
    """Deliveries on offer (starting the Build first if the turn hub is on top)."""
    if "build" in legal(s):
        s = play(s, "build")
    return {a for a in legal(s) if a.startswith(("deliver", "decorate"))}


def test_up_to_three_deliveries_at_least_one():
    """RC-BUILD-1: a Build makes 1 to 3 deliveries; it is offered only when one is
    possible, and ends by itself after the third."""
    s = builder({}, [card("B10", 0), "M01", "D01"])
    assert "build" not in legal(s)
    s = builder({"wood": 4}, [card("B10", 0), "M01", "D01"])  # B10: 3 wood + 1 brick
    s = play(s, "build")
    assert "finish-delivery" not in legal(s)
    s = play(s, "deliver wood 0", "deliver wood 0")
    assert s.stack[-1] == Deliver(0, 1, 2, False) and "finish-delivery" in legal(s)
    s = play(s, "deliver wood 0")
    assert isinstance(s.stack[-1], Turn) and s.inv[0] == mats(wood=1)


def test_delivery_goes_to_own_unfinished_cards_within_cost():
    """RC-BUILD-2: only Material types the cost still needs, only to the player's own
    unfinished cards, possibly spread over several cards."""
    s = builder({"wood": 2, "stone": 1, "gold": 1},
                [card("B06", 0, delivered={"wood": 2}), card("M09", 0), card("D01", 1)])
    s = play(s, "build")
    # B06 (2 wood + stone) has its wood; M09 needs wood, stone, gold; D01 is seat 1's.
    assert deliveries(s) == {"deliver stone 0", "deliver wood 1", "deliver stone 1",
                             "deliver gold 1"}
    s = play(s, "deliver wood 1", "deliver gold 1", "deliver stone 0")
    assert s.done[0] and s.delivered[1] == mats(wood=1, gold=1)


def test_partial_delivery_stays_across_turns():
    """RC-BUILD-3: Materials delivered stay on the card across turns."""
    s = builder({"wood": 1}, [card("B01", 0), "M01", "D01"])
    s = play(s, "build", "deliver wood 0")
    assert s.delivered[0] == mats(wood=1) and not s.done[0]
    assert s.side == 1 or isinstance(s.stack[-1], Turn)
    assert s.delivered[0] == mats(wood=1)


def test_completion_is_immediate_within_the_action():
    """RC-BUILD-4: deliveries one at a time; the card completed by the first delivery can
    be decorated with the remaining two."""
    s = builder({"brick": 1, "wood": 1, "green": 1},
                [card("B01", 0, delivered={"wood": 2}), "M01", "D01"])
    s = play(s, "build", "deliver brick 0")
    assert s.done[0] and "decorate 0" in legal(s)
    s = play(s, "decorate 0", "jewels green")
    assert s.orn[0] == 0


def test_completing_a_card():
    """RC-COMPLETE-1: Materials back to the supply, Recognition and Rubles to the owner,
    finished side up, Banner stays, then the Tsar's penalty and the end check."""
    s = builder({"gold": 1}, [card("B01", 1), card("M02", 0, delivered={
        "brick": 1, "stone": 1}), "D01"], score={0: 10, 1: 10})
    supply = list(s.supply)
    s = play(s, "build", "deliver gold 1")
    assert s.done[1] and s.owner[1] == 0 and s.delivered[1] == mats()
    assert C.cards[C.card_index("M02")].cost == (0, 1, 1, 1, 0, 0)
    assert s.supply == [supply[0], supply[1] + 1, supply[2] + 1, supply[3] + 1,
                        supply[4], supply[5]]
    assert s.score[0] == 10 + 4 and s.rubles[0] == 3 + 2
    assert s.score[1] == 10 - 1  # Tsar's penalty on seat 1's unfinished Base
    assert s.completed[0] == 1
    assert held(s) == tuple(C.supply[m] - s.supply[m] for m in range(6))


def test_tsar_penalty_formal():
    """RC-TSAR-1: each unfinished, bannered card below the completed one loses 1 RP per
    completed card above it owned by someone else (the new one included)."""
    s = build({
        "players": 4,
        "towers": [[card("B01", 1, delivered={"wood": 1}), card("M01", 2, done=True),
                    card("M03", 1, done=True), card("M04", 3), card("D01", 0, delivered={
                        "stone": 1, "gold": 1})]],
        "inv": {0: {"gold": 1}}, "score": [10, 10, 10, 10], "turn": 0})
    s = play(s, "build", "deliver gold 4")
    # seat 1's Base: M01 (seat 2) + D01 (seat 0) = 2; its own M03 does not count.
    # seat 3's Middle: D01 = 1. Seat 2's card is finished: no penalty.
    assert s.score[1] == 8 and s.score[3] == 9 and s.score[2] == 10
    assert s.score[0] == 10 + C.cards[C.card_index("D01")].rp


def test_tsar_penalty_hits_the_completing_player_too():
    """RC-TSAR-2: the player who completes a card pays for their own unfinished cards
    below it, counting only other players' completed cards."""
    s = build({
        "players": 3,
        "towers": [[card("B01", 0, delivered={"wood": 1}), card("M01", 2, done=True),
                    card("D01", 0, delivered={"stone": 1, "gold": 1})]],
        "inv": {0: {"gold": 1}}, "score": [10, 10, 10], "turn": 0})
    s = play(s, "build", "deliver gold 2")
    assert s.score[0] == 10 + C.cards[C.card_index("D01")].rp - 1


def test_tsar_penalty_is_assessed_again_at_every_completion():
    """RC-TSAR-3: the same completed card costs again at each later completion above."""
    s = build({
        "players": 3,
        "towers": [[card("B01", 1), card("M01", 2, done=True),
                    card("M03", 0, delivered={"wood": 1, "brick": 1, "stone": 1}),
                    card("D01", 0, delivered={"stone": 1, "gold": 1})]],
        "inv": {0: {"stone": 1, "gold": 1}}, "score": [10, 20, 10], "turn": 0})
    s = play(s, "build", "deliver stone 2")
    assert s.score[1] == 20 - 2
    s = play(s, "deliver gold 3")
    assert s.score[1] == 20 - 2 - 3


def test_ornament_type_follows_card_type():
    """RC-ORN-1: one Ornamentation per completed card: Door on a Base (wood), Arch on a
    Middle (stone), Cross on a Dome (gold)."""
    tower = [card("B01", 1, done=True), card("M01", 1, done=True), card("D01", 1, done=True)]
    assert deliveries(builder({"wood": 1}, tower)) == {"decorate 0"}
    assert deliveries(builder({"stone": 1}, tower)) == {"decorate 1"}
    assert deliveries(builder({"gold": 1}, tower)) == {"decorate 2"}
    taken = [card("B01", 1, done=True, orn=1), "M01", "D01"]
    assert deliveries(builder({"wood": 1}, taken)) == set()


def test_any_completed_card_may_be_decorated():
    """RC-ORN-2: including other players' cards, never unfinished ones."""
    tower = [card("B01", 1, done=True), card("M01", 1), "D01"]
    assert deliveries(builder({"wood": 1, "stone": 1}, tower)) == {"decorate 0"}


def test_only_own_available_ornamentations():
    """RC-ORN-3: each player places at most 1 Door, 2 Arches and 1 Cross, from their own
    available ones."""
    tower = [card("B01", 1, done=True), card("M01", 1, done=True),
             card("M03", 1, done=True), card("D01", 1, done=True)]
    s = builder({"wood": 1, "stone": 1}, tower, orn_avail={0: {"arch": 1}})
    assert deliveries(s) == {"decorate 1", "decorate 2"}
    s = play(s, "build", "decorate 1", "jewels none")
    assert s.orn_avail[0] == (0, 0, 0)
    assert "decorate 2" not in legal(s)


def test_ornament_cost_counts_every_material_as_a_delivery():
    """RC-ORN-4: base Material plus 0-2 jewels, each one delivery of the 3."""
    tower = [card("B01", 1, done=True), "M01", "D01"]
    s = play(builder({"wood": 1, "green": 2, "purple": 1}, tower), "build", "decorate 0")
    assert {a for a in legal(s)} == {"jewels none", "jewels green", "jewels purple",
                                     "jewels green+green", "jewels green+purple"}
    s = play(s, "jewels green+green")
    assert s.inv[0] == mats(purple=1) and isinstance(s.stack[-1], Turn)


def test_ornament_is_paid_in_one_go():
    """RC-ORN-5: with one delivery left an Ornamentation takes no jewel; with none left
    none is started."""
    tower = [card("B01", 1, done=True), card("M01", 0, delivered={"brick": 1}), "D01"]
    s = play(builder({"stone": 2, "wood": 1, "green": 1}, tower), "build",
             "deliver stone 1", "deliver stone 1")
    assert s.done[1]
    s = play(s, "decorate 0")
    assert legal(s) == {"jewels none"}


def test_ornament_prestige_table():
    """RC-ORN-6: 0, 1, 2 (same colour) or 3 (green + purple) Prestige."""
    assert [ornament_prestige(j) for j in ((), (4,), (5,), (4, 4), (5, 5), (4, 5))] == [
        0, 1, 1, 2, 2, 3]
    tower = [card("B01", 1, done=True), "M01", "D01"]
    s = play(builder({"wood": 1, "purple": 2}, tower), "build", "decorate 0",
             "jewels purple+purple")
    assert pp(s, 0) == 2


def test_ornament_materials_return_and_it_counts_for_presence():
    """RC-ORN-7: the Materials go back to the supply; the Ornamentation stays and gives
    its owner presence and a tie-breaker count."""
    tower = [card("B01", 1, done=True), "M01", "D01"]
    s = builder({"wood": 1, "green": 1}, tower)
    supply = list(s.supply)
    s = play(s, "build", "decorate 0", "jewels green")
    assert s.supply[0] == supply[0] + 1 and s.supply[4] == supply[4] + 1
    assert s.orn[0] == 0 and s.orn_placed[0] == 1


def test_several_ornamentations_in_one_action():
    """RC-ORN-8: several Ornamentations within the 3 deliveries."""
    tower = [card("B01", 1, done=True), card("M01", 1, done=True), card("D01", 1, done=True)]
    s = play(builder({"wood": 1, "stone": 1, "gold": 1}, tower), "build",
             "decorate 0", "jewels none", "decorate 1", "jewels none", "decorate 2",
             "jewels none")
    assert s.orn == [0, 0, 0] and s.orn_placed[0] == 3
