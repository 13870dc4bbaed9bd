"""Does the expert search get stronger with its budget? Arena runs of ``expert@2b``
against ``expert@b`` for each doubling of the iteration budget, in both games with 2
players, summarised as the Markdown table of docs/ai.md (and a chart)::

    python -m tools.scaling --budgets 4,8,16 --games 20 --seed 32000 --workers 1 \\
        --out scaling --chart docs/ai-scaling.png

Each pair is an ordinary ``meeplehall arena`` tournament in ``OUT/GAME-expert_HI_expert_LO``
(resumed where its journal holds games already, so an interrupted run goes on and
``--summarise`` reads what has been played so far). The table counts a shared win as a
half and gives the 95 % Wilson interval of the larger budget's win rate.
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

GAMES = ("praga", "red-cathedral")
TITLES = {"praga": "Praga", "red-cathedral": "The Red Cathedral"}


def folder(out: Path, game: str, hi: int, lo: int) -> Path:
    return out / f"{game}-expert_{hi}_expert_{lo}"


def played(path: Path) -> list[dict[str, Any]]:
    """The finished games of the tournament journal in ``path`` (none if absent)."""
    journal = path / "games.jsonl"
    if not journal.exists():
        return []
    rows = []
    for line in journal.read_text(encoding="utf-8").splitlines()[1:]:
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a line cut short by an interruption
    return rows


def row(game: str, hi: int, lo: int, results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The larger budget's record against the smaller one."""
    from meeplehall.cli.arena import summarise, wilson

    a, b = f"expert@{hi}", f"expert@{lo}"
    summary = summarise(list(results), [a, b])["bots"]
    games, wins = summary[a]["games"], summary[a]["wins"]
    low, high = wilson(wins, games)
    return {"game": game, "hi": hi, "lo": lo, "games": games, "wins": wins,
            "rate": wins / games if games else 0.0, "ci": (low, high),
            "s_hi": summary[a]["s_per_decision"], "s_lo": summary[b]["s_per_decision"]}


def table(rows: Sequence[dict[str, Any]]) -> str:
    lines = ["| game | budget against half of it (iterations) | games | wins of the larger "
             "budget | 95 % CI | s per decision (larger, smaller) |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {TITLES[r['game']]} | {r['hi']} vs {r['lo']} | {r['games']} | "
                     f"{r['wins']:g} ({r['rate']:.0%}) | {r['ci'][0]:.2f}-{r['ci'][1]:.2f} | "
                     f"{r['s_hi']:.3f}, {r['s_lo']:.3f} |")
    return "\n".join(lines)


def chart(rows: Sequence[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for game in GAMES:
        mine = [r for r in rows if r["game"] == game and r["games"]]
        if not mine:
            continue
        xs = [r["hi"] for r in mine]
        ys = [r["rate"] for r in mine]
        err = [[max(0.0, r["rate"] - r["ci"][0]) for r in mine],
               [max(0.0, r["ci"][1] - r["rate"]) for r in mine]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=4, label=TITLES[game])
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_xscale("log", base=2)
    ax.set_ylim(0, 1)
    ax.set_xlabel("iterations per decision (against half as many)")
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title("expert: each doubling of the budget, 2 players")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.scaling", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budgets", default="4,8,16",
                        help="iteration budgets, smallest first (default 4,8,16)")
    parser.add_argument("--games", type=int, default=20, help="games per pair")
    parser.add_argument("--seed", type=int, default=32000, help="the first game seed")
    parser.add_argument("--workers", type=int, default=1, help="parallel games")
    parser.add_argument("--game", action="append", choices=GAMES, default=None,
                        help="a game to run (repeatable; default both)")
    parser.add_argument("--out", type=Path, default=Path("scaling"),
                        help="folder of the tournaments")
    parser.add_argument("--chart", type=Path, default=None, help="write the chart here")
    parser.add_argument("--summarise", action="store_true",
                        help="play nothing: summarise the games played so far")
    args = parser.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    if len(budgets) < 2 or any(b < 1 for b in budgets) or budgets != sorted(budgets):
        parser.error("--budgets needs two or more positive budgets, smallest first")
    rows = []
    for game in args.game or GAMES:
        for lo, hi in itertools.pairwise(budgets):
            path = folder(args.out, game, hi, lo)
            if not args.summarise:
                from rich.console import Console

                from meeplehall.cli.arena import run_arena
                from meeplehall.core.protocol import validate_params
                from meeplehall.games import GAMES as REGISTRY

                params = validate_params(REGISTRY[game].options, {"players": 2})
                run_arena(Console(), game, params, [f"expert@{hi}", f"expert@{lo}"],
                          args.games, args.seed, args.workers, "process", None, path,
                          resume=True)
            rows.append(row(game, hi, lo, played(path)))
    print(table(rows))
    if args.chart is not None:
        chart(rows, args.chart)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
