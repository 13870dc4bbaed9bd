"""Observations come from views only: hidden information never changes them."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

np = pytest.importorskip("numpy")

from meeplehall.core.rng import Rng  # noqa: E402
from meeplehall.games import GAMES  # noqa: E402
from meeplehall.games.praga import decisions as D  # noqa: E402
from meeplehall.rl.encoders import make_encoder  # noqa: E402
from meeplehall.rl.encoders.base import OBS_BOUND, Observer  # noqa: E402
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


def _state_path_matches_views(game: str, players: int, seed: int, limit: int = 300,
                              **options: object) -> int:
    """Play a seeded random game (its first ``limit`` decisions: views of long games are
    slow to build); at every decision compare, for every seat, the
    incremental state encoding with the reference encoding of the seat's view; every 7th
    decision also re-deal the hidden components from each seat's view (``sample_hidden``)
    and check that the dealt state encodes the same. Returns the decisions checked."""
    g = GAMES[game]
    enc = make_encoder(game, players)
    observer = Observer(enc, players)
    rng = Rng.from_seed(seed + 77)
    n = 0
    for n, (state, _legal) in enumerate(playout(game, players, seed, **options)):
        if n == limit:
            break
        for seat in range(players):
            view = g.player_view(state, seat)
            ref = enc.encode(view, seat)
            got = observer.encode(state, seat)
            assert np.array_equal(ref, got), _diff(enc, ref, got, f"decision {n} seat {seat}")
            if n % 7 == 0:
                dealt = g.sample_hidden(view, Rng(rng.next_u64()))
                again = Observer(enc, players).encode(dealt, seat)
                assert np.array_equal(ref, again), _diff(enc, ref, again,
                                                         f"re-dealt, decision {n} seat {seat}")
    return n


def _diff(enc: object, ref: np.ndarray, got: np.ndarray, where: str) -> str:
    wrong = np.flatnonzero(ref != got)
    blocks = sorted({name for name, (a, b) in enc.offsets.items()
                     for i in wrong if a <= i < b})
    return f"{where}: blocks {blocks} differ at {wrong[:8].tolist()}"


@pytest.mark.parametrize(("game", "players", "seed"), [
    ("red-cathedral", 1, 3), ("red-cathedral", 2, 4), ("red-cathedral", 3, 5),
    ("red-cathedral", 4, 6), ("praga", 1, 3), ("praga", 2, 4), ("praga", 3, 5),
    ("praga", 4, 6),
])
def test_state_encoding_equals_the_view_encoding_and_ignores_hidden_components(
        game: str, players: int, seed: int) -> None:
    assert _state_path_matches_views(game, players, seed) > 50


def test_state_encoding_of_praga_against_parler_bots() -> None:
    # P.2: the Parler bots' public side (turns, mines, row pointers, pawn, cards left).
    assert _state_path_matches_views("praga", 2, 8, solo_opponent="parler",
                                     parler_bots=2) > 100


def test_state_encoding_hides_the_technologies_another_seat_draws() -> None:
    # P-TECH-2 on the state path: only the seat choosing sees what it drew.
    game = "praga"
    for seed in range(30):
        for state, _legal in playout(game, 3, seed):
            top = state.stack[-1]
            if not isinstance(top, D.TechDraw):
                continue
            seat = top.seat
            other = state.clone()
            drawn = tuple(top.drawn)
            swapped = tuple(t for t in range(24) if t not in drawn)[:len(drawn)]
            other.stack[-1] = dataclasses.replace(top, drawn=swapped)
            enc = make_encoder(game, 3)
            for p in range(3):
                same = np.array_equal(Observer(enc, 3).encode(state, p),
                                      Observer(enc, 3).encode(other, p))
                assert same == (p != seat), f"seed {seed}, seat {p}"
            return
    raise AssertionError("no technology draw in 30 random games")


@pytest.mark.parametrize(("game", "players", "seed"), [
    ("red-cathedral", 2, 11), ("red-cathedral", 4, 12), ("praga", 2, 11), ("praga", 3, 12),
])
def test_a_seat_that_looks_only_now_and_then_sees_everything_that_changed(
        game: str, players: int, seed: int) -> None:
    """The observer rewrites only the parts of a seat's row that changed since that seat
    last looked. Here only the seat to move looks (as in the AEC environment), and every
    5th decision one seat drawn at random too, so seats skip many decisions between two
    looks; each look must equal the encoding of the seat's view."""
    g = GAMES[game]
    enc = make_encoder(game, players)
    observer = Observer(enc, players)
    rng = Rng.from_seed(seed + 5)
    looks = 0
    for n, (state, _legal) in enumerate(playout(game, players, seed)):
        if n == 700:
            break
        mover = g.current_player(state)
        seats = [] if mover is None else [mover]
        if n % 5 == 0:
            seats.append(rng.randbelow(players))
        for seat in seats:
            ref = enc.encode(g.player_view(state, seat), seat)
            got = observer.encode(state, seat)
            assert np.array_equal(ref, got), _diff(enc, ref, got, f"decision {n} seat {seat}")
            looks += 1
    assert looks > 150
