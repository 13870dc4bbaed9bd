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
    for kind in BOTS:
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
