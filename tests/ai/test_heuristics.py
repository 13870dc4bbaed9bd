"""Per-game evaluations (ai/heuristics): terms that steer the bots."""

from __future__ import annotations

import pytest

from meeplehall.ai.heuristics import praga as PH
from meeplehall.ai.heuristics import red_cathedral as RH
from meeplehall.games import GAMES
from meeplehall.games.praga.components import load
from meeplehall.games.praga.scoring import egg_points
from meeplehall.games.red_cathedral.components import CathedralCard

PRAGA = GAMES["praga"]
RC = GAMES["red-cathedral"]


def test_praga_eggs_count_by_the_step_table_less_a_cost_per_egg_held() -> None:
    """P-SCORE-7 pays 10 VP for 4 eggs at the end; the projection counts that at once,
    and the evaluation takes ``egg`` VP off per egg held (they are spent on the road,
    P-EGG-*), at every point of the game."""
    state = PRAGA.initial_state({"players": 2}, 1)
    for played in (0, load().turns_per_player):
        s = state.clone()
        s.played[0] = played
        s.eggs[0] = 0
        base = PH.evaluate(s, 0)
        s.eggs[0] = 4
        assert abs(PH.evaluate(s, 0) - base - (egg_points(4) - 4 * PH.WEIGHTS["egg"])) < 1e-9


def test_praga_tracks_are_worth_less_as_the_seat_s_turns_run_out() -> None:
    """A mine step pays every later turn: worth ``mine`` VP at the start, nothing after
    the seat's last turn."""
    state = PRAGA.initial_state({"players": 2}, 1)
    gains = []
    for played in (0, 8, load().turns_per_player):
        s = state.clone()
        s.played[0] = played
        base = PH.evaluate(s, 0)
        s.mine[0] += 1
        gains.append(PH.evaluate(s, 0) - base)
    assert gains[0] > gains[1] > gains[2]
    assert abs(gains[0] - PH.WEIGHTS["mine"]) < 1e-9 and abs(gains[2]) < 1e-9
    assert PH.progress(state, 0) == 0.0


def test_praga_permanent_technologies_are_worth_their_triggers_in_the_turns_left() -> None:
    """P-TECH-4/5: a level I technology pays on every later trigger. GL-T1-2 on the
    University track (2 VP per step) is worth ``TECH_VALUES`` per own turn still to play:
    its whole value before the seat's first turn, half at half-time, nothing after its
    last turn; the same tile on the technology track is worth less (fewer steps)."""
    C = load()
    univ = C.tech_index("T1c")
    tech = C.tech_index("T1d")
    assert C.technologies[univ].track == 1 and C.technologies[tech].track == 0
    state = PRAGA.initial_state({"players": 2}, 1)
    turns = C.turns_per_player
    gains = []
    for played in (0, turns // 2, turns):
        s = state.clone()
        s.played[0] = played
        base = PH.evaluate(s, 0)
        s.techs[0] = (univ,)
        gains.append(PH.evaluate(s, 0) - base)
    per_turn = PH.TECH_VALUES["GL-T1-2:univ"]
    assert abs(gains[0] - per_turn * turns) < 1e-9
    assert abs(gains[1] - per_turn * turns / 2) < 1e-9 and abs(gains[2]) < 1e-9
    s = state.clone()
    base = PH.evaluate(s, 0)
    s.techs[0] = (tech,)
    assert 0 < PH.evaluate(s, 0) - base < gains[0]


def test_praga_one_shot_technologies_count_until_used_and_fade_at_the_end() -> None:
    """P-TECH-6: a level III/IV technology is worth ``TECH_VALUES`` while unused (so the
    seat keeps the better tile, P-TECH-2), nothing once used (``tech_used``), and less
    in the seat's last turns, so that none is saved for after the game."""
    C = load()
    t = C.tech_index("T4c")  # GL-T4-3: perform any one action
    state = PRAGA.initial_state({"players": 2}, 1)
    s = state.clone()
    base = PH.evaluate(s, 0)
    s.techs[0] = (t,)
    assert abs(PH.evaluate(s, 0) - base - PH.TECH_VALUES["GL-T4-3"]) < 1e-9
    s.tech_used[0] |= 1 << 3
    assert abs(PH.evaluate(s, 0) - base) < 1e-9
    late = state.clone()
    late.played[0] = C.turns_per_player - 1
    base = PH.evaluate(late, 0)
    late.techs[0] = (t,)
    assert 0 < PH.evaluate(late, 0) - base < PH.TECH_VALUES["GL-T4-3"]


def test_praga_upgrade_term_pays_the_top_tile_s_bonus_per_expected_performance() -> None:
    """P-UPG-5/6: only the top tile of an action hex pays, at every performance of its
    action. The term (weight ``upg``, off in the game's weights: it changed nothing
    measurable) is the bonus's value x the action's rate x the turns still to play."""
    from meeplehall.games.praga.components import ACTIONS, REWARD_KINDS
    from meeplehall.games.praga.final import projected_scores

    C = load()
    first, second = [i for i, u in enumerate(C.upgrades) if ACTIONS[u.action] == "mines"][:2]
    state = PRAGA.initial_state({"players": 2}, 1)
    s = state.clone()
    w = {**PH.WEIGHTS, "upg": 1.0}
    base = PH.value(s, 0, projected_scores(s), w)
    upg = list(s.upg[0])
    upg[C.upgrades[second].action] = (first * 6, second * 6 + 2)
    s.upg[0] = tuple(upg)
    bonus = sum(PH.REWARD_VALUES[REWARD_KINDS[k]] * n for k, n in C.upgrades[second].bonus)
    expected = bonus * PH.ACTION_RATES["mines"] * C.turns_per_player
    assert expected > 0
    assert abs(PH.value(s, 0, projected_scores(s), w) - base - expected) < 1e-9
    assert PH.WEIGHTS["upg"] == 0.0 and PH.evaluate(s, 0) == PH.evaluate(state, 0)


def test_praga_production_tokens_are_worth_their_bonus_at_each_expected_production() -> None:
    """P-PROD-2: the token pays whenever its track produces; a 2-VP token is worth more
    than a 1-gold one, on either track, and nothing after the seat's last turn."""
    C = load()
    ids = [t.id for t in C.production_tokens]
    vp2, gold1 = ids.index("PT1"), ids.index("PT5")
    state = PRAGA.initial_state({"players": 2}, 1)
    turns = C.turns_per_player

    def gain(token: int, track: int, played: int = 0) -> float:
        s = state.clone()
        s.played[0] = played
        base = PH.evaluate(s, 0)
        tokens = list(s.ptoken[0])
        tokens[track] = token
        s.ptoken[0] = (tokens[0], tokens[1])
        return PH.evaluate(s, 0) - base

    assert abs(gain(vp2, 0) - 2.0 * PH.PRODUCE_RATES[0] * turns) < 1e-9
    assert abs(gain(gold1, 1) - PH.REWARD_VALUES["gold"] * PH.PRODUCE_RATES[1] * turns) < 1e-9
    assert gain(vp2, 1) > gain(gold1, 1) > 0
    assert abs(gain(vp2, 0, turns)) < 1e-9


def test_the_balanced_profile_is_the_praga_heuristic() -> None:
    state = PRAGA.initial_state({"players": 3}, 5)
    balanced = PH.PragaEvaluator("balanced")
    assert balanced.evaluate_all(state) == PH.evaluate_all(state)
    assert [balanced.evaluate(state, s) for s in range(3)] == [PH.evaluate(state, s)
                                                      for s in range(3)] == PH.evaluate_all(state)


def test_praga_evaluation_with_one_seat() -> None:
    state = PRAGA.initial_state({"players": 1}, 3)
    assert isinstance(PH.evaluate(state, 0), float)


def test_red_cathedral_track_value_is_monotone_in_recognition() -> None:
    values = [RH._track_value(t) for t in range(0, 80)]
    assert values == sorted(values)
    assert RH._track_value(0) == 0.0


def test_red_cathedral_sides_count_ivan_in_the_solo_game() -> None:
    """RC-SOLO-*: Ivan is a side of his own; the search compares the seat with him."""
    solo = RC.initial_state({"players": 1}, 2)
    assert RH.sides(solo) == 2
    assert RH.sides(RC.initial_state({"players": 3}, 2)) == 3


def test_red_cathedral_towers_pay_the_majority_holder() -> None:
    """RC-TOWER-1/2 and RC-2P-1: a completed card alone in its tower pays the tower's
    value to its owner, and the evaluation counts ``TOWER`` times that payout."""
    state = RC.initial_state({"players": 2}, 4)
    slots = state.towers[0]
    slot = slots[0]
    assert RH._towers(state, 0) == 0
    state.owner[slot] = 0
    state.done[slot] = True
    assert RH._towers(state, 0) == 2 and RH._towers(state, 1) == 0


def test_red_cathedral_remembered_tower_payouts_follow_every_change() -> None:
    """The evaluation remembers tower payouts by owners, completions and Ornamentations
    (RC-TOWER-*, RC-2P-1): along a game, changed in place or not, every payout equals
    the one computed from the scoring rules."""
    from meeplehall.ai.greedy import GreedyBot
    from meeplehall.games.red_cathedral.scoring import tower_payout, tower_presence
    from meeplehall.games.red_cathedral.state import RCState

    def direct(state: RCState, seat: int) -> int:
        players = 2 if state.solo else state.players
        total = 0
        for slots in state.towers:
            value, presence = tower_presence(state.owner, state.done, state.orn, slots)
            total += tower_payout(value, presence, players).get(seat, 0)
        return total

    for players in (1, 3):
        state = RC.initial_state({"players": players}, 11)
        bots = [GreedyBot(k) for k in range(players)]
        seen = set()
        for _ in range(400):
            seat = RC.current_player(state)
            if seat is None:
                break
            for side in range(state.sides):
                assert RH._towers(state, side) == direct(state, side)
            seen.add(tuple(RH._towers(state, side) for side in range(state.sides)))
            state = RC.apply(state, bots[seat].choose(RC, RC.player_view(state, seat),
                                                       RC.legal_actions(state)))
        assert len(seen) > 2  # the towers changed hands during the game
        # changed in place: the seat's completed cards ornamented, then all undone and bare
        for slot in range(len(state.owner)):
            if state.owner[slot] == 0 and state.done[slot]:
                state.orn[slot] = 0
        assert RH._towers(state, 0) == direct(state, 0)
        for slot in range(len(state.done)):
            state.done[slot] = False
        state.orn[:] = [-1] * len(state.orn)
        assert RH._towers(state, 0) == direct(state, 0) == 0


def test_red_cathedral_solo_weights_completed_cards_higher() -> None:
    """Against Ivan (RC-SOLO-8: his sixth card ends the game) a completed card and the
    towers weigh more than with two or more players."""
    assert RH.DONE[1] > RH.DONE[0] and RH.TOWER[1] > RH.TOWER[0] == 0.0
    for players, weight in ((2, RH.DONE[0]), (1, RH.DONE[1])):
        state = RC.initial_state({"players": players}, 6)
        slot = state.towers[0][0]
        before = RH.evaluate(state, 0)
        state.owner[slot] = 0
        state.done[slot] = True
        gain = RH.evaluate(state, 0) - before
        towers = RH.TOWER[1 if players == 1 else 0] * RH._towers(state, 0)
        assert abs(gain - weight - towers) < 1e-9


def test_red_cathedral_a_claim_pays_less_against_ivan_than_with_players() -> None:
    """A claimed card with nothing delivered is worth ``CLAIMED`` of what completing it
    brings: less against Ivan than with players (a claim costs a Market turn and draws
    Ivan's next claim above it, RC-IVACT-CLAIM; an unfinished card scores nothing,
    RC-TOWER-1). Each delivery then adds its share of the rest (and, solo, the ``NEAR``
    term of the delivered fraction)."""
    assert 0.0 < RH.CLAIMED[1] < RH.CLAIMED[0] < 1.0
    for players, share in ((2, RH.CLAIMED[0]), (1, RH.CLAIMED[1])):
        near = RH.NEAR[1 if players == 1 else 0] * RH.DONE[1 if players == 1 else 0]
        state = RC.initial_state({"players": players}, 6)
        slot = next(t for t in state.towers[1] if state.owner[t] < 0)
        card = RH.C.cards[state.card_of[slot]]
        worth = RH._CARD_WORTH[state.card_of[slot]]
        state.inv[0] = (0,) * 6  # Materials in hand are rated by whether a card needs them
        before = RH.evaluate(state, 0)
        state.owner[slot] = 0
        base = RH.evaluate(state, 0)
        claimed = base - before
        got = list(state.delivered[slot])
        m = next(i for i in range(6) if card.cost[i])
        got[m] += 1
        state.delivered[slot] = tuple(got)
        step = RH.evaluate(state, 0) - base
        assert abs(claimed - share * worth) < 1e-9
        assert abs(step - (1.0 - share) * worth / card.size - near / card.size ** 2) < 1e-9


def test_red_cathedral_solo_finishing_one_card_beats_spreading_deliveries() -> None:
    """Solo (RC-SOLO-8: six completed cards end the game, and Ivan scores every round):
    the same deliveries are worth more on one card near completion than spread over two,
    so the bot finishes cards instead of filling six side by side. With players the share
    stays linear."""
    for players in (1, 2):
        state = RC.initial_state({"players": players}, 6)
        a, b = [t for t in state.towers[1] if state.owner[t] < 0][:2]
        state.owner[a] = state.owner[b] = 0
        ca, cb = (RH.C.cards[state.card_of[t]] for t in (a, b))

        def delivered(card: CathedralCard, n: int) -> tuple[int, ...]:
            got = [0] * 6
            for m in range(6):
                take = min(n, card.cost[m])
                got[m] += take
                n -= take
            return tuple(got)

        state.delivered[a], state.delivered[b] = delivered(ca, 2), delivered(cb, 0)
        together = RH.evaluate(state, 0)
        state.delivered[a], state.delivered[b] = delivered(ca, 1), delivered(cb, 1)
        spread = RH.evaluate(state, 0)
        pair = [RH._CARD_WORTH[state.card_of[t]] for t in (a, b)]
        solo = 1 if players == 1 else 0
        linear = (1 - RH.CLAIMED[solo]) * (2 / ca.size * pair[0]
                                           - 1 / ca.size * pair[0] - 1 / cb.size * pair[1])
        if players == 1:
            assert together - spread > linear + 1e-9
        else:
            assert abs(together - spread - linear) < 1e-9


def test_red_cathedral_a_far_ahead_seat_values_closing_the_game_out() -> None:
    """RC-END-1: six completed cards end the game. With players, a completed card is worth
    ``CLOSE`` more to a seat leading by ``CLOSE_LEAD`` Prestige or more (a share of it
    below that lead, nothing when behind), so a search that is far ahead fetches the last
    Materials of its cards instead of taking Recognition for ever (docs/ai.md)."""
    lead_at = next(t for t in range(200) if RH._pp(t) >= RH.CLOSE_LEAD)
    half_at = next(t for t in range(200) if RH._pp(t) >= RH.CLOSE_LEAD / 2)
    for mine, theirs, bonus in ((lead_at, 0, RH.CLOSE),
                                (half_at, 0, RH.CLOSE * RH._pp(half_at) / RH.CLOSE_LEAD),
                                (0, lead_at, 0.0), (0, 0, 0.0)):
        state = RC.initial_state({"players": 2}, 6)
        state.score[0], state.score[1] = mine, theirs
        slot = state.towers[0][0]
        before = RH.evaluate(state, 0)
        state.owner[slot] = 0
        state.done[slot] = True
        gain = RH.evaluate(state, 0) - before
        assert abs(gain - RH.DONE[0] - bonus) < 1e-9, (mine, theirs, gain)


def test_red_cathedral_completing_a_card_carries_most_of_the_closing_value() -> None:
    """RC-END-1, RC-BUILD-*: for a seat far ahead, the Build that completes a card must
    be worth a good part of ``CLOSE`` by itself. Delivered Materials count ``CLOSE_PART``
    of their share and Materials in hand half as much, so the completion adds the rest
    (with 0.7 and full weight in hand it added 0.3 of ``CLOSE``, and a far-ahead search
    preferred the Market to the completing Build for thousands of decisions)."""
    gains = []
    for mine in (next(t for t in range(200) if RH._pp(t) >= RH.CLOSE_LEAD), 0):
        state = RC.initial_state({"players": 2}, 6)
        state.score[0] = mine
        slot = state.towers[0][0]
        card = RH.C.cards[state.card_of[slot]]
        last = next(m for m in range(6) if card.cost[m])
        got = list(card.cost)
        got[last] -= 1
        inv = [0] * 6
        inv[last] = 1
        state.owner[slot] = 0
        state.delivered[slot] = tuple(got)
        state.inv[0] = tuple(inv)
        before = RH.evaluate(state, 0)
        state.delivered[slot] = card.cost
        state.inv[0] = (0,) * 6
        state.done[slot] = True
        gains.append(RH.evaluate(state, 0) - before)
    share = RH.CLOSE_PART * (card.size - 1 + RH.CLOSE_HAND) / card.size
    assert abs(gains[0] - gains[1] - RH.CLOSE * (1 - share)) < 1e-9
    assert gains[0] - gains[1] >= RH.CLOSE / 2


def test_red_cathedral_a_full_inventory_of_spare_jewels_is_worth_unblocking() -> None:
    """RC-INV-2, RC-INV-3, RC-INFL-MERCH (MR-1): a seat whose full Inventory holds spare
    jewels and lacks the one wood its card needs must prefer exchanging two jewels for
    the wood. Rated Material by Material (wood 0.55 against two jewels at 0.4) the
    exchange looked worse, and a search far ahead kept its 8 purple jewels for
    thousands of decisions without ending the game (seed 2051, docs/ai.md)."""
    for players in (2, 1):
        state = RC.initial_state({"players": players}, 6)
        slot = state.towers[0][0]
        card = RH.C.cards[state.card_of[slot]]
        wood = 0
        assert card.cost[wood] == 2  # this seed's first card needs 2 wood and a brick
        got = list(card.cost)
        got[wood] -= 1
        state.owner[slot] = 0
        state.delivered[slot] = tuple(got)
        state.inv_banners[0] = 0  # all four Banners out: 10 spaces (RC-INV-2)
        state.inv[0] = (0, 0, 1, 0, 1, 8)  # full: stone, green, 8 purple
        full = RH.evaluate(state, 0)
        state.inv[0] = (1, 0, 1, 0, 1, 6)  # after MR-1: 2 purple for 1 wood
        assert RH.evaluate(state, 0) > full
        # with room to spare, the jewels are not in the way and keep their value
        state.inv[0] = (0, 0, 1, 0, 1, 6)
        roomy = RH.evaluate(state, 0)
        state.inv[0] = (0, 0, 1, 0, 1, 7)
        assert abs(RH.evaluate(state, 0) - roomy - RH.SPARE_JEWEL) < 1e-9


def test_praga_solo_weighs_walls_and_grids_more() -> None:
    """With one seat the evaluation uses ``SOLO_WEIGHTS``: a wall tile counts, and a
    quarry step is worth more than with two seats."""
    from meeplehall.games.praga.final import projected_scores

    solo = PRAGA.initial_state({"players": 1}, 3)
    duo = PRAGA.initial_state({"players": 2}, 3)
    assert PH.weights_for(solo) is PH.SOLO_WEIGHTS and PH.weights_for(duo) is PH.WEIGHTS
    assert PH.evaluate(solo, 0) == PH.value(solo, 0, projected_scores(solo), PH.SOLO_WEIGHTS)
    gains = []
    for state in (solo, duo):
        s = state.clone()
        base = PH.evaluate(s, 0)
        s.quarry[0] += 1
        gains.append(PH.evaluate(s, 0) - base)
    assert abs(gains[0] - PH.SOLO_WEIGHTS["quarry"]) < 1e-9
    assert abs(gains[1] - PH.WEIGHTS["quarry"]) < 1e-9 and gains[0] > gains[1]


def test_red_cathedral_solo_recognition_is_rated_where_the_marker_will_end() -> None:
    """Against Ivan a step the human gains now is worth the step it adds at the end of
    the game (``SOLO_GAIN`` spaces expected per round left): early on, far more than the
    step it makes now, since the track's Prestige spaces come closer together further on
    (RC-SCORE-*); once the expected end is reached, just the step itself. Ivan's track
    is rated where his marker stands (``SOLO_GAIN`` 0 for him)."""
    state = RC.initial_state({"players": 1}, 5)
    assert state.solo and state.turns == 0
    tv = RH._track_value_w
    ahead = round(RH.SOLO_GAIN[0] * RH.SOLO_ROUNDS)
    assert ahead >= 30
    for side, expect in ((0, ahead), (1, 0)):
        s = state.clone()
        base = RH.evaluate(s, side)
        here = s.score[side]
        s.score[side] += 6
        gain = RH.evaluate(s, side) - base
        assert abs(gain - (tv(here + 6 + expect, 1.0) - tv(here + expect, 1.0))) < 1e-9
    early = state.clone()
    base, here = RH.evaluate(early, 0), early.score[0]
    early.score[0] += 6
    assert RH.evaluate(early, 0) - base > 2 * (tv(here + 6, 1.0) - tv(here, 1.0))
    late = state.clone()
    late.turns = int(2 * RH.SOLO_ROUNDS)
    base = RH.evaluate(late, 0)
    here = late.score[0]
    late.score[0] += 6
    assert abs(RH.evaluate(late, 0) - base - (tv(here + 6, 1.0) - tv(here, 1.0))) < 1e-9


def test_the_solo_check_rating_is_the_fitted_log_odds_of_its_features() -> None:
    """``check_rating`` (mcts-hard's rollout check against Ivan) is ``CHECK_WIN`` applied
    to ``check_features``: the margin the check rated before, the final margin if the
    game were scored now (RC-FINAL-*, RC-SOLO-9), the cards each side has completed and
    what the towers would pay each (RC-TOWER-*)."""
    game = GAMES["red-cathedral"]
    state = game.initial_state({"players": 1}, 11)
    while state.turns < 30:
        state = game.apply(state, game.legal_actions(state)[0])
    f = RH.check_features(state, 0)
    assert set(f) == set(RH.CHECK_WIN)
    assert f["margin"] == pytest.approx(RH.evaluate(state, 0) - RH.evaluate(state, 1))
    assert f["final"] == RH.final_margins(state)[0]
    assert f["phase"] == state.turns / 60
    assert f["done"] == sum(1 for i, o in enumerate(state.owner) if o == 0 and state.done[i])
    assert f["rival_done"] == sum(
        1 for i, o in enumerate(state.owner) if o == 1 and state.done[i])
    rating = sum(w * f[k] for k, w in RH.CHECK_WIN.items())
    assert RH.check_rating(state, 0) == pytest.approx(rating)
    # a better margin now is a better chance, all else equal
    assert RH.CHECK_WIN["margin"] > 0 and RH.CHECK_WIN["final"] > 0


def test_red_cathedral_a_long_game_rates_completing_a_card_well_above_nearly_completing_it(
) -> None:
    """RC-END-1: only a sixth completed card ends the game. With players, a card three
    quarters delivered is rated about as high as a completed one while the seat trails on
    the track, so two players who both live off the Market could play on for ever. From
    ``CLOSE_LATE`` turns per player on, the delivery that completes a card is worth a
    clear step more to every seat, the one behind included, and more with every turn."""
    state = RC.initial_state({"players": 2}, 6)
    slot = next(t for t in state.towers[1] if state.owner[t] < 0)
    card = RH.C.cards[state.card_of[slot]]
    m = next(i for i in range(6) if card.cost[i])
    state.owner[slot] = 0
    state.delivered[slot] = tuple(c - (1 if i == m else 0) for i, c in enumerate(card.cost))
    state.inv[0] = tuple(1 if i == m else 0 for i in range(6))
    state.score[1] = 40  # seat 0 trails far behind on the track
    after = state.clone()
    after.delivered[slot] = tuple(card.cost)
    after.inv[0] = (0,) * 6
    after.done[slot] = True
    after.completed[0] += 1
    after.score[0] += card.rp  # RC-COMPLETE-1: the card's Recognition

    def gain(turns: int) -> float:
        state.turns = after.turns = turns
        return RH.evaluate(after, 0) - RH.evaluate(state, 0)

    late = RH.CLOSE_LATE * 2
    assert gain(late) > gain(late - 2) + 2.0
    assert gain(late) > 1.0
    assert gain(late + 20) > gain(late) + 1.0  # and more the longer the game runs
