"""Golden replays, perft counts and the readable playthrough (STYLE.md section 9).

After an intended rules change, regenerate with
``python tests/games/praga/regen_golden.py`` and explain the diff in the commit.
"""

from __future__ import annotations

import pytest

from meeplehall.core.testing import check_golden, load_golden, parse_perft, perft
from meeplehall.games.praga import GAME
from tests.games.praga.regen_golden import (
    GOLDEN_DIR,
    GOLDEN_GAMES,
    PERFT_FILE,
    PLAYTHROUGH_FILE,
    golden_game,
    playthrough_text,
)

NAMES = [name for name, *_ in GOLDEN_GAMES]
CHEAP_PERFT = 20000  # depth-3 counts up to this are recomputed


@pytest.mark.parametrize("name", NAMES)
def test_golden_game_replays_to_the_same_end(name):
    """The stored record replays (checked) to the stored scores, ranking and digest."""
    record, data = load_golden(GOLDEN_DIR / f"{name}.json")
    check_golden(GAME, record, data)


@pytest.mark.parametrize(("name", "params", "seed", "chooser_seed"), GOLDEN_GAMES, ids=NAMES)
def test_golden_game_is_regenerated_identically(name, params, seed, chooser_seed):
    """The generator is deterministic: the same seeds give the same record."""
    _, data = load_golden(GOLDEN_DIR / f"{name}.json")
    assert golden_game(params, seed, chooser_seed) == data


def perft_rows():
    return parse_perft(PERFT_FILE.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("seed", "players", "depth", "count"),
                         [r for r in perft_rows() if r[2] <= 2 or r[3] <= CHEAP_PERFT],
                         ids=lambda v: str(v))
def test_perft(seed, players, depth, count):
    """Decision sequences from the initial state, counted to a fixed depth."""
    assert perft(GAME, GAME.initial_state({"players": players}, seed), depth) == count


def test_perft_file_covers_depths_one_to_three():
    rows = perft_rows()
    assert {r[2] for r in rows} == {1, 2, 3}
    assert {r[1] for r in rows} == {2, 3, 4}


def test_playthrough_is_unchanged():
    """The readable playthrough regenerates identically."""
    assert PLAYTHROUGH_FILE.read_text(encoding="utf-8") == playthrough_text()
