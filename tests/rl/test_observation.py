"""Observations come from views only: hidden information never changes them."""

from __future__ import annotations

import itertools

import pytest

np = pytest.importorskip("numpy")

from meeplehall.core.rng import Rng  # noqa: E402
from meeplehall.games import GAMES  # noqa: E402
from meeplehall.games.praga import decisions as D  # noqa: E402
from meeplehall.rl.encoders import make_encoder  # noqa: E402
from meeplehall.rl.encoders.base import OBS_BOUND  # noqa: E402
from tests.rl.helpers import playout  # noqa: E402


def _obs(game: str, state: object, seat: int) -> np.ndarray:
    g = GAMES[game]
    return make_encoder(game, g.num_players(state)).encode(g.player_view(state, seat), seat)


def _mid_game(game: str, players: int, seed: int, steps: int) -> object:
    for n, (state, _legal) in enumerate(playout(game, players, seed)):
        if n == steps:
            return state.clone()
    raise AssertionError(f"{game} seed {seed} ended before {steps} decisions")


def test_red_cathedral_hidden_dice_and_unused_components_do_not_change_observations() -> None:
    # The PRNG state (future dice, RC-MARKET-5 rerolls) and the components left out of the
    # game (RC-SETUP) are the hidden information of The Red Cathedral.
    game = "red-cathedral"
    for players in (1, 2, 3):
        state = _mid_game(game, players, seed=players, steps=60)
        other = state.clone()
        other.rng = Rng.from_seed(987654)
        other.unused = tuple(tuple(reversed(part)) for part in other.unused)
        assert other.rng.state != state.rng.state
        for seat in range(players):
            assert np.array_equal(_obs(game, state, seat), _obs(game, other, seat))


def test_praga_hidden_stacks_do_not_change_observations() -> None:
    # Face-down stacks, technologies, IV/V tiles and the PRNG are hidden (P-SETUP).
    game = "praga"
    state = _mid_game(game, 3, seed=5, steps=60)
    other = state.clone()
    other.rng = Rng.from_seed(424242)
    other.stacks = [tuple(reversed(s)) for s in other.stacks]
    other.tech_stacks = [tuple(reversed(s)) for s in other.tech_stacks]
    other.iv_stack = tuple(reversed(other.iv_stack))
    assert other.stacks != state.stacks
    for seat in range(3):
        assert np.array_equal(_obs(game, state, seat), _obs(game, other, seat))


def test_praga_technologies_being_chosen_are_seen_only_by_their_seat() -> None:
    # P-TECH-2: the drawn technologies are private to the seat choosing among them.
    game = "praga"
    for seed in range(30):
        for state, _legal in playout(game, 3, seed):
            top = state.stack[-1]
            if not isinstance(top, D.TechDraw):
                continue
            seat = top.seat
            other = state.clone()
            drawn = top.drawn
            swapped = tuple(t for t in range(24) if t not in drawn)[:len(drawn)]
            other.stack[-1] = D.TechDraw(seat, swapped, top.level)
            for p in range(3):
                same = np.array_equal(_obs(game, state, p), _obs(game, other, p))
                assert same == (p != seat), f"seed {seed}, seat {p}"
            return
    raise AssertionError("no technology draw in 30 random games")


@pytest.mark.parametrize(("game", "players"), [("red-cathedral", 2), ("praga", 4)])
def test_observation_is_fixed_length_float32_within_bounds(game: str, players: int) -> None:
    enc = make_encoder(game, players)
    g = GAMES[game]
    for n, (state, legal) in enumerate(playout(game, players, seed=9)):
        if n % 5:
            continue
        seat = g.current_player(state)
        obs = enc.encode(g.player_view(state, seat), seat)
        assert obs.shape == (enc.size,) and obs.dtype == np.float32
        assert float(np.abs(obs).max()) <= OBS_BOUND
        mask = enc.mask(legal)
        assert [enc.actions[i] for i in np.flatnonzero(mask)] == sorted(
            set(legal), key=lambda a: enc.action_index(a))


def test_observation_blocks_tile_the_vector() -> None:
    enc = make_encoder("praga", 2)
    rows = enc.describe_blocks()
    assert rows[0][1] == 0
    for (_, start, size, _doc), (_, nxt, _, _) in itertools.pairwise(rows):
        assert start + size == nxt
    assert rows[-1][1] + rows[-1][2] == enc.size


@pytest.mark.parametrize("game", ["praga", "red-cathedral"])
def test_observations_read_the_named_sections_not_the_bot_only_state(game: str) -> None:
    """The encoders read the view's designed sections (docs/schemas): the bot-only
    ``state`` of a view can be removed without changing an observation."""
    for players in (1, 2, 4):
        state = _mid_game(game, players, seed=players + 5, steps=40)
        g = GAMES[game]
        encoder = make_encoder(game, g.num_players(state))
        for seat in range(g.num_players(state)):
            view = g.player_view(state, seat)
            full = encoder.encode(view, seat)
            del view["state"]
            assert np.array_equal(encoder.encode(view, seat), full)
