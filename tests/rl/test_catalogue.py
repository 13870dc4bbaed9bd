"""The action catalogue: complete, unique, sorted, index <-> action both ways."""

from __future__ import annotations

import copy

import pytest

pytest.importorskip("numpy")

from meeplehall.games import GAMES
from meeplehall.rl.encoders import make_encoder
from meeplehall.rl.encoders.base import action_key
from tests.rl.helpers import playout

CONFIGS = [("red-cathedral", 1), ("red-cathedral", 2), ("red-cathedral", 3),
           ("red-cathedral", 4), ("praga", 1), ("praga", 2), ("praga", 3), ("praga", 4)]
SEEDS = {1: 12, 2: 12, 3: 6, 4: 5}  # random games per player count
PARLER = {"solo_opponent": "parler", "parler_bots": 2}  # Praga's other solo opponent


@pytest.mark.parametrize(("game", "players", "options"), [
    *(pytest.param(game, players, {}, id=f"{game}-{players}") for game, players in CONFIGS),
    pytest.param("praga", 1, PARLER, id="praga-1-parler"),
    pytest.param("praga", 2, PARLER, id="praga-2-parler")])
def test_every_legal_action_of_random_games_is_in_the_catalogue(
        game: str, players: int, options: dict[str, object]) -> None:
    enc = make_encoder(game, players)
    seen: set[str] = set()
    for seed in range(SEEDS[players]):
        for _state, legal in playout(game, players, seed, **options):
            mask = enc.mask(legal)  # raises KeyError naming a missing action
            assert int(mask.sum()) == len(set(legal))
            seen.update(str(a) for a in legal)
    assert len(seen) > 40


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_catalogue_is_sorted_unique_and_round_trips(game: str, players: int) -> None:
    enc = make_encoder(game, players)
    keys = [action_key(a) for a in enc.actions]
    assert keys == sorted(keys)
    assert len(set(enc.actions)) == enc.num_actions
    texts = [str(a) for a in enc.actions]
    assert len(set(texts)) == enc.num_actions
    parse = GAMES[game].parse_action
    for i, action in enumerate(enc.actions):
        assert enc.action_index(action) == i
        assert enc.action_at(i) == action
        assert parse(str(action)) == action


def test_catalogue_is_built_once_per_configuration() -> None:
    assert make_encoder("praga", 2) is make_encoder("praga", 2)
    assert make_encoder("red-cathedral", 2).num_actions < make_encoder(
        "red-cathedral", 4).num_actions  # 4-player Building Plans have more slots


def test_bad_index_and_unknown_game_are_named() -> None:
    enc = make_encoder("praga", 2)
    with pytest.raises(ValueError, match="out of range"):
        enc.action_at(enc.num_actions)
    with pytest.raises(ValueError, match="out of range"):
        enc.action_at(-1)
    with pytest.raises(KeyError, match="not in the action catalogue"):
        enc.action_index("no such action")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        make_encoder("chess", 2)


def test_indices_by_identity_agree_with_the_catalogue() -> None:
    enc = make_encoder("praga", 2)
    for n, (_state, legal) in enumerate(playout("praga", 2, seed=3)):
        if n > 200:
            break
        expected = [enc.action_index(a) for a in legal]
        assert enc.indices(legal) == expected
        assert enc.indices([copy.copy(a) for a in legal]) == expected  # equal, not same
    with pytest.raises(KeyError, match="not in the action catalogue"):
        enc.indices(["no such action"])
