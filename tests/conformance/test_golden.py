"""Golden replays, perft counts and the readable playthroughs of every game (STYLE.md
section 9).

After an intended rules change, regenerate a game's files with
``python tests/games/<package>/regen_golden.py`` and explain the diff in the commit.
"""

from __future__ import annotations

import pytest

from meeplehall.core.testing import check_golden, load_golden, parse_perft, perft, perft_line
from meeplehall.games import GAMES
from tests.conformance.spec import Conformance, GoldenGame, specs

SPECS = specs()
SPEC_IDS = [spec.game for spec in SPECS]
GOLDEN = [(spec, golden) for spec in SPECS for golden in spec.golden_games]
GOLDEN_IDS = [f"{spec.game}-{golden[0]}" for spec, golden in GOLDEN]


def perft_rows(spec: Conformance) -> list[tuple[int, int, int, int]]:
    return parse_perft(spec.perft_file.read_text(encoding="utf-8"))


PERFT = [(spec, row) for spec in SPECS for row in perft_rows(spec)
         if row[2] <= 2 or row[3] <= spec.cheap_perft]
PERFT_IDS = [f"{spec.game}-" + "-".join(map(str, row)) for spec, row in PERFT]


def test_every_registered_game_has_a_conformance_spec() -> None:
    assert [spec.game for spec in SPECS] == list(GAMES)


@pytest.mark.parametrize(("spec", "golden"), GOLDEN, ids=GOLDEN_IDS)
def test_golden_game_replays_to_the_same_end(spec: Conformance, golden: GoldenGame) -> None:
    """The stored record replays (checked) to the stored scores, ranking and digest."""
    record, data = load_golden(spec.golden_dir / f"{golden[0]}.json")
    check_golden(spec.engine, record, data)


@pytest.mark.parametrize(("spec", "golden"), GOLDEN, ids=GOLDEN_IDS)
def test_golden_game_is_regenerated_identically(spec: Conformance, golden: GoldenGame,
                                                 ) -> None:
    """The generator is deterministic: the same seeds give the same record."""
    name, params, seed, chooser_seed = golden
    _, data = load_golden(spec.golden_dir / f"{name}.json")
    assert spec.golden_game(params, seed, chooser_seed) == data


@pytest.mark.parametrize(("spec", "row"), PERFT, ids=PERFT_IDS)
def test_perft(spec: Conformance, row: tuple[int, int, int, int]) -> None:
    """Decision sequences from the initial state, counted to a fixed depth."""
    seed, players, depth, count = row
    game = spec.engine
    assert perft(game, game.initial_state({"players": players}, seed), depth) == count


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_perft_file_covers_the_depths_and_player_counts(spec: Conformance) -> None:
    rows = perft_rows(spec)
    assert {r[2] for r in rows} == set(spec.perft_depths) == {1, 2, 3}
    assert {r[1] for r in rows} == set(spec.perft_players)
    assert {r[0] for r in rows} == set(spec.perft_seeds)


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_perft_file_is_regenerated_identically_at_cheap_depths(spec: Conformance) -> None:
    """The file's header and its depth 1-2 lines are what the generator writes."""
    lines = spec.perft_file.read_text(encoding="utf-8").splitlines()
    assert lines[:2] == spec.perft_header()
    game = spec.engine
    assert [line for line in lines[2:] if line.split()[5] in ("1", "2")] == [
        perft_line(game, seed, players, depth) for seed in spec.perft_seeds
        for players in spec.perft_players for depth in (1, 2)]


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_playthrough_is_unchanged(spec: Conformance) -> None:
    """The readable playthrough regenerates identically."""
    assert spec.playthrough_path.read_text(encoding="utf-8") == spec.playthrough_text()
