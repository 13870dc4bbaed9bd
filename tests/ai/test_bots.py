"""Bots: deterministic given their seed, and they play from the view only."""

from __future__ import annotations

from meeplehall.ai import BOTS, make_bot
from meeplehall.core.rng import Rng
from meeplehall.games import GAMES

GAME = GAMES["red-cathedral"]


def _play(seats: list[str], players: int, seed: int, bot_seed: int) -> list[str]:
    state = GAME.initial_state({"players": players}, seed)
    bots = [make_bot(kind, bot_seed + i) for i, kind in enumerate(seats)]
    moves = []
    while (player := GAME.current_player(state)) is not None:
        action = bots[player].choose(GAME, GAME.player_view(state, player),
                                     GAME.legal_actions(state))
        moves.append(str(action))
        state = GAME.apply(state, action)
    assert GAME.outcome(state) is not None
    return moves


def test_seeded_bots_play_the_same_game_twice() -> None:
    first = _play(["greedy", "random"], 2, seed=3, bot_seed=11)
    assert first == _play(["greedy", "random"], 2, seed=3, bot_seed=11)


def test_greedy_plays_solo_against_ivan_to_the_end() -> None:
    assert _play(["greedy"], 1, seed=5, bot_seed=1)


def test_bot_decision_ignores_hidden_information() -> None:
    """Two states that differ only in what no seat can see (the PRNG state, the unused
    components) give the same decision with the same bot seed."""
    state = GAME.initial_state({"players": 3}, 8)
    rng = Rng.from_seed(2)
    for _ in range(40):
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, legal[rng.randbelow(len(legal))])
    other = state.clone()
    other.rng = Rng(12345)
    other.unused = ((), (), ())
    player = GAME.current_player(state)
    assert player is not None
    assert GAME.player_view(state, player) == GAME.player_view(other, player)
    for kind in [*BOTS, "learned", "learned-hand"]:
        # counted, not clocked
        kind = {"expert": "expert@6", "learned": "learned@40",
                "learned-hand": "learned-hand@40"}.get(kind, kind)
        a = make_bot(kind, 9).choose(GAME, GAME.player_view(state, player),
                                     GAME.legal_actions(state))
        b = make_bot(kind, 9).choose(GAME, GAME.player_view(other, player),
                                     GAME.legal_actions(other))
        assert a == b


def test_unknown_bot_kind_is_a_clear_error() -> None:
    try:
        make_bot("grandmaster")
    except ValueError as exc:
        assert "grandmaster" in str(exc) and "greedy" in str(exc)
    else:
        raise AssertionError("no error for an unknown bot")


def _solo_turn_end(seed: int) -> object:
    """A solo position where the seat's main action is done, ending the turn and selling
    Prestige are both legal, and the marker stands on a Prestige space."""
    from meeplehall.games.red_cathedral import actions as A
    from meeplehall.games.red_cathedral.scoring import track

    state = GAME.initial_state({"players": 1}, seed)
    bot = make_bot("random", seed)
    for _ in range(30000):
        legal = GAME.legal_actions(state)
        if (A.END_TURN in legal and A.SELL_PRESTIGE in legal
                and track().on_prestige(state.score[0]) and state.score[0] > 0):
            return state
        state = GAME.apply(state, bot.choose(GAME, GAME.player_view(state, 0), legal))
        if GAME.current_player(state) is None:
            state = GAME.initial_state({"players": 1}, seed := seed + 100)
    raise AssertionError("no such position found")


def test_ending_the_turn_is_rated_by_the_position_it_ends_the_turn_in() -> None:
    """RC-FREE-1, RC-SOLO-6: Ivan's turn is played inside ``apply``, so the position after
    "end your turn" already shows his gains. The one-ply bots rate ending the turn by the
    position the seat ends it in; before, they sold Prestige (a whole point when the
    marker stands on a Prestige space) just to put off showing Ivan's turn."""
    from meeplehall.ai.greedy import GreedyBot, step_value
    from meeplehall.ai.ladder import evaluator_for
    from meeplehall.games.red_cathedral import actions as A

    state = _solo_turn_end(7)
    evaluate = evaluator_for(GAME).evaluate_play
    child = state.clone()
    GAME.apply_unchecked(child, A.END_TURN)
    assert child.turns != state.turns
    assert step_value(GAME, state, child, 0, evaluate, A.END_TURN) == evaluate(state, 0)
    for bot in (GreedyBot(3), make_bot("planner", 3)):
        action = bot.choose(GAME, GAME.player_view(state, 0), GAME.legal_actions(state))
        assert action != A.SELL_PRESTIGE, bot.kind


def test_the_bots_rate_a_finished_game_by_its_result_first() -> None:
    """RC-SOLO-10: a lost final position is worth less to the bots than any unfinished
    one, a won one more (``evaluate_play``). With ``evaluate``'s 100 + margin, ending the
    game looked best even when it was lost, so the bots ended solo games against Ivan as
    soon as they could."""
    from meeplehall.ai.heuristics import red_cathedral as RH

    state = GAME.initial_state({"players": 1}, 5)
    bot = make_bot("greedy", 1)
    unfinished = []
    while GAME.current_player(state) is not None:
        unfinished.append(RH.evaluate_play(state, 0))
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, bot.choose(GAME, GAME.player_view(state, 0), legal))
    pp, parts, towers = state.final
    lost = state.clone()
    lost.final = ((0, max(pp) + 1), parts, towers)
    won = state.clone()
    won.final = ((max(pp) + 1, 0), parts, towers)
    assert RH.evaluate_play(lost, 0) < min(unfinished)
    assert RH.evaluate_play(won, 0) > max(unfinished)
    assert RH.evaluate_play(won, 0) - RH.evaluate_play(lost, 0) > 2 * RH.FINAL_RESULT - 1
