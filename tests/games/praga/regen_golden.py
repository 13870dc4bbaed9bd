"""Regenerate the golden files of the Praga tests (STYLE.md section 9).

Run from the repository root::

    python tests/games/praga/regen_golden.py

It writes

- ``golden/<name>.json``: records of complete games played by a seeded random chooser,
  with the final scores, ranking and ``core.testing.state_digest`` of the final state;
- ``perft.txt``: counts of decision sequences from fixed seeds, depths 1-3;
- ``golden/two_players_playthrough.txt``: a readable game, its first decisions step by
  step.

A changed file needs a rules explanation in the commit (and usually a ``rules_version``
bump); review the diff like code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from meeplehall.core import testing
from meeplehall.games.praga import GAME

HERE = Path(__file__).resolve().parent
GOLDEN_DIR = HERE / "golden"
PERFT_FILE = HERE / "perft.txt"
PLAYTHROUGH_FILE = GOLDEN_DIR / "two_players_playthrough.txt"

# name, params, game seed, chooser seed
GOLDEN_GAMES: tuple[tuple[str, dict[str, Any], int, int], ...] = (
    ("two_players", {"players": 2}, 12, 102),
    ("three_players", {"players": 3}, 13, 103),
    ("four_players", {"players": 4}, 14, 104),
    ("three_players_variants", {"players": 3, "action_side": "B", "road_tiles": True,
                                "bridge_layout": "random", "cathedral_tiers": "A",
                                "hunger_wall_tiers": "B"}, 15, 105),
)
PERFT_SEEDS = (1, 7)
PERFT_PLAYERS = (2, 3, 4)
PERFT_DEPTHS = (1, 2, 3)
PLAYTHROUGH = ({"players": 2}, 5, 55, 60)  # params, seed, chooser seed, decisions


def golden_game(params: dict[str, Any], seed: int, chooser_seed: int) -> dict[str, Any]:
    return testing.golden_game(GAME, params, seed, chooser_seed)


def perft_lines() -> list[str]:
    return [testing.perft_line(GAME, seed, players, depth) for seed in PERFT_SEEDS
            for players in PERFT_PLAYERS for depth in PERFT_DEPTHS]


def _view_summary(view: dict[str, Any]) -> list[str]:
    return [f"    {line}" for line in (*view["seats"], view["this_turn"])]


def playthrough_text() -> str:
    """The first decisions of a seeded game: decision, legal actions, choice, view."""
    params, seed, chooser_seed, decisions = PLAYTHROUGH
    return testing.playthrough_text(GAME, params, seed, chooser_seed, decisions,
                                    _view_summary, "Praga Caput Regni playthrough",
                                    "python tests/games/praga/regen_golden.py")


def main() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, params, seed, chooser_seed in GOLDEN_GAMES:
        data = golden_game(params, seed, chooser_seed)
        (GOLDEN_DIR / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n",
                                                 encoding="utf-8")
        print(f"golden/{name}.json: {data['decisions']} decisions, scores {data['scores']}")
    header = ["# Perft counts of Praga Caput Regni from the initial state (default options).",
              "# Regenerate with: python tests/games/praga/regen_golden.py"]
    PERFT_FILE.write_text("\n".join(header + perft_lines()) + "\n", encoding="utf-8")
    print(f"perft.txt: {len(PERFT_SEEDS) * len(PERFT_PLAYERS) * len(PERFT_DEPTHS)} counts")
    PLAYTHROUGH_FILE.write_text(playthrough_text(), encoding="utf-8")
    print(f"golden/{PLAYTHROUGH_FILE.name}")


if __name__ == "__main__":
    main()
