"""Regenerate the golden files of The Red Cathedral tests (STYLE.md section 9).

Run from the repository root::

    python tests/games/red_cathedral/regen_golden.py

It writes

- ``golden/<name>.json``: records of complete games played by a seeded random chooser,
  with the final scores, ranking and ``core.testing.state_digest`` of the final state;
- ``perft.txt``: counts of decision sequences from fixed seeds, depths 1-3;
- ``golden/solo_playthrough.txt``: a readable solo game, its first decisions step by step.

A changed file needs a rules explanation in the commit (and usually a ``rules_version``
bump); review the diff like code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from meeplehall.core import testing
from meeplehall.games.red_cathedral import GAME

HERE = Path(__file__).resolve().parent
GOLDEN_DIR = HERE / "golden"
PERFT_FILE = HERE / "perft.txt"
PLAYTHROUGH_FILE = GOLDEN_DIR / "solo_playthrough.txt"

# name, params, game seed, chooser seed
GOLDEN_GAMES: tuple[tuple[str, dict[str, Any], int, int], ...] = (
    ("solo", {"players": 1}, 11, 101),
    ("two_players", {"players": 2}, 12, 102),
    ("three_players", {"players": 3}, 13, 103),
    ("four_players", {"players": 4}, 14, 104),
    ("three_players_advanced", {"players": 3, "advanced_workshops": True}, 15, 105),
)
PERFT_SEEDS = (1, 7)
PERFT_PLAYERS = (1, 2, 3, 4)
PERFT_DEPTHS = (1, 2, 3)
PLAYTHROUGH = ({"players": 1}, 3, 33, 30)  # params, seed, chooser seed, decisions


def golden_game(params: dict[str, Any], seed: int, chooser_seed: int) -> dict[str, Any]:
    return testing.golden_game(GAME, params, seed, chooser_seed)


def perft_lines() -> list[str]:
    return [testing.perft_line(GAME, seed, players, depth) for seed in PERFT_SEEDS
            for players in PERFT_PLAYERS for depth in PERFT_DEPTHS]


def _view_summary(view: dict[str, Any]) -> list[str]:
    lines = []
    for side in view["sides"]:
        extra = ""
        if "rubles" in side:
            inv = ", ".join(f"{n} {m}" for m, n in side["inventory"].items()) or "empty"
            extra = f", {side['rubles']} Rubles, Inventory {inv} (of {side['capacity']})"
        lines.append(f"    {side['name']}: track {side['recognition']} "
                     f"({side['prestige']} PP), {side['completed']} completed{extra}")
    market = []
    for space in view["market"]:
        dice = "/".join(f"{d['colour']}{d['value']}" for d in space["dice"]) or "-"
        market.append(f"{space['space']}:{space['tile']['amount']} "
                      f"{space['tile']['resource']}[{dice}]")
    lines.append("    market " + " ".join(market))
    if "ivan" in view:
        row = " ".join(f"{c['card']}({c['die']}{'' if c['face_up'] else ', down'})"
                       for c in view["ivan"]["row"])
        lines.append(f"    Ivan's row {row}; Banners {view['ivan']['banners']}")
    return lines


def playthrough_text() -> str:
    """The first decisions of a seeded game: decision, legal actions, choice, view."""
    params, seed, chooser_seed, decisions = PLAYTHROUGH
    return testing.playthrough_text(GAME, params, seed, chooser_seed, decisions,
                                    _view_summary, "The Red Cathedral, solo playthrough",
                                    "python tests/games/red_cathedral/regen_golden.py")


def main() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, params, seed, chooser_seed in GOLDEN_GAMES:
        data = golden_game(params, seed, chooser_seed)
        (GOLDEN_DIR / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n",
                                                 encoding="utf-8")
        print(f"golden/{name}.json: {data['decisions']} decisions, scores {data['scores']}")
    header = ["# Perft counts of The Red Cathedral from the initial state (default options).",
              "# Regenerate with: python tests/games/red_cathedral/regen_golden.py"]
    PERFT_FILE.write_text("\n".join(header + perft_lines()) + "\n", encoding="utf-8")
    print(f"perft.txt: {len(PERFT_SEEDS) * len(PERFT_PLAYERS) * len(PERFT_DEPTHS)} counts")
    PLAYTHROUGH_FILE.write_text(playthrough_text(), encoding="utf-8")
    print("golden/solo_playthrough.txt")


if __name__ == "__main__":
    main()
