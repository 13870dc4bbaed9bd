"""What the shared conformance suite needs to know of one game.

Each game of ``GAMES`` has a ``tests/games/<package>/conformance.py`` that defines
``SPEC = Conformance(...)``: the golden games, perft seeds and playthrough it keeps in its
own folder (``golden/``, ``perft.txt``), the parameter sets its property tests play, and
its own invariants and checks (which cite the game's rule ids). The suite in
``tests/conformance/`` runs the same tests over every spec; ``test_registry`` fails
when a registered game has none.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from meeplehall.core import testing
from meeplehall.core.protocol import Game, Outcome
from meeplehall.core.rng import Rng
from meeplehall.games import GAMES

GoldenGame = tuple[str, dict[str, Any], int, int]  # name, params, game seed, chooser seed


@dataclass(frozen=True)
class PropertySet:
    """One parameter set of the property tests and its hypothesis budgets."""

    id: str
    params: dict[str, Any]
    playouts: int  # examples of the invariant playouts (long games get fewer)
    replays: int  # examples of the record replay
    round_trips: int  # examples of the JSON / clone / views checks


@dataclass(frozen=True)
class Conformance:
    """One game's part of the conformance suite."""

    game: str  # its key in GAMES
    here: Path  # the game's test folder (golden/, perft.txt)
    title: str  # "The Red Cathedral": headers of the generated files
    golden_games: tuple[GoldenGame, ...]
    perft_seeds: tuple[int, ...]
    perft_players: tuple[int, ...]
    cheap_perft: int  # depth-3 counts up to this are recomputed by the tests
    playthrough: tuple[dict[str, Any], int, int, int]  # params, seed, chooser seed, decisions
    playthrough_file: str
    playthrough_title: str
    view_summary: Callable[[dict[str, Any]], list[str]]
    properties: tuple[PropertySet, ...]
    invariants: tuple[Callable[[Any], None], ...] = ()
    sample_every: int = 97  # states kept along a playout for the round-trip checks
    # After each invariant playout: game-specific checks of the final state and outcome.
    final_checks: Callable[[Any, dict[str, Any], Outcome], None] | None = None
    # For each sampled state of the round-trip test: game-specific hidden-information checks.
    state_checks: Callable[[Any], None] | None = None
    # Set up before the invariant playouts (with pytest's monkeypatch); returns the check
    # to run after them.
    playout_guard: Callable[[pytest.MonkeyPatch], Callable[[], None]] | None = None
    perft_depths: tuple[int, ...] = (1, 2, 3)

    @property
    def engine(self) -> Game:
        """The registry's game object."""
        return GAMES[self.game]

    @property
    def golden_dir(self) -> Path:
        return self.here / "golden"

    @property
    def perft_file(self) -> Path:
        return self.here / "perft.txt"

    @property
    def playthrough_path(self) -> Path:
        return self.golden_dir / self.playthrough_file

    @property
    def regen_command(self) -> str:
        return f"python tests/games/{self.here.name}/regen_golden.py"

    def golden_game(self, params: dict[str, Any], seed: int, chooser_seed: int,
                    ) -> dict[str, Any]:
        return testing.golden_game(self.engine, params, seed, chooser_seed)

    def perft_lines(self) -> list[str]:
        return [testing.perft_line(self.engine, seed, players, depth)
                for seed in self.perft_seeds for players in self.perft_players
                for depth in self.perft_depths]

    def perft_header(self) -> list[str]:
        return [f"# Perft counts of {self.title} from the initial state (default options).",
                f"# Regenerate with: {self.regen_command}"]

    def playthrough_text(self) -> str:
        """The first decisions of a seeded game: decision, legal actions, choice, view."""
        params, seed, chooser_seed, decisions = self.playthrough
        return testing.playthrough_text(self.engine, params, seed, chooser_seed, decisions,
                                        self.view_summary, self.playthrough_title,
                                        self.regen_command)

    def regenerate(self) -> None:
        """Write the golden records, perft counts and the playthrough.

        A changed file needs a rules explanation in the commit (and usually a
        ``rules_version`` bump); review the diff like code."""
        self.golden_dir.mkdir(exist_ok=True)
        for name, params, seed, chooser_seed in self.golden_games:
            data = self.golden_game(params, seed, chooser_seed)
            (self.golden_dir / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n",
                                                          encoding="utf-8")
            print(f"golden/{name}.json: {data['decisions']} decisions, "
                  f"scores {data['scores']}")
        lines = self.perft_lines()
        self.perft_file.write_text("\n".join(self.perft_header() + lines) + "\n",
                                   encoding="utf-8")
        print(f"perft.txt: {len(lines)} counts")
        self.playthrough_path.write_text(self.playthrough_text(), encoding="utf-8")
        print(f"golden/{self.playthrough_file}")


def package_of(game: str) -> str:
    return game.replace("-", "_")


def spec_of(game: str) -> Conformance:
    module = importlib.import_module(f"tests.games.{package_of(game)}.conformance")
    spec: Conformance = module.SPEC
    assert spec.game == game, f"{module.__name__} describes {spec.game}, not {game}"
    return spec


def specs() -> list[Conformance]:
    """The conformance spec of every registered game, in registry order."""
    return [spec_of(name) for name in GAMES]


def sampled_states(game: Game, params: dict[str, Any], seed: int, every: int,
                   ) -> list[Any]:
    """Every ``every``-th state along a seeded random playout, the first and the last."""
    state = game.initial_state(params, seed)
    rng = Rng.from_seed(seed)
    states = [state.clone()]
    step = 0
    while game.current_player(state) is not None:
        actions = game.legal_actions(state)
        game.apply_unchecked(state, actions[rng.randbelow(len(actions))])
        step += 1
        if step % every == 0:
            states.append(state.clone())
    states.append(state)
    return states

