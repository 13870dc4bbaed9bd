"""Balance study: planner bots following different strategy profiles play each other.

``python -m meeplehall.ai.study praga --players 2 --games 4`` plays every seating of the
chosen profiles (``planner.PRAGA_PROFILES``) and prints, per profile, the mean final
score, its spread, the wins and the mean points per scoring category. This is how the
reconstructed Praga data was checked (docs/praga-balance.md): strong play should land
in the real game's usual range and no single plan should dominate.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from meeplehall.ai.planner import PRAGA_PROFILES, PlannerBot
from meeplehall.games import GAMES


def seatings(profiles: Sequence[str], players: int, games: int) -> list[tuple[str, ...]]:
    """The line-up of each game: for 2 players every pair in both seat orders, for more
    players rotations of the profile list; ``games`` games per pair or rotation."""
    if players == 2:
        pairs = list(itertools.combinations(profiles, 2))
        return [pair if g % 2 == 0 else pair[::-1] for pair in pairs for g in range(games)]
    out = []
    for g in range(games * len(profiles)):
        out.append(tuple(profiles[(g + i) % len(profiles)] for i in range(players)))
    return out


def play_one(job: tuple[str, tuple[str, ...], int]) -> dict[str, Any]:
    """Play one game; returns the line-up, scores, winners and breakdown."""
    game_name, lineup, seed = job
    game = GAMES[game_name]
    state = game.initial_state({"players": len(lineup)}, seed)
    bots = [PlannerBot(seed * 10 + i, profile) for i, profile in enumerate(lineup)]
    while (outcome := game.outcome(state)) is None:
        seat = game.current_player(state)
        assert seat is not None
        legal = game.legal_actions(state)
        action = bots[seat].choose(game, game.player_view(state, seat), legal)
        game.apply_unchecked(state, action)
    return {"lineup": lineup, "scores": list(outcome.scores),
            "winners": list(outcome.winners),
            "breakdown": [dict(b) for b in outcome.breakdown]}


def summarise(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    scores: dict[str, list[int]] = defaultdict(list)
    wins: Counter[str] = Counter()
    cats: dict[str, Counter[str]] = defaultdict(Counter)
    for r in results:
        for seat, profile in enumerate(r["lineup"]):
            scores[profile].append(r["scores"][seat])
            cats[profile].update(r["breakdown"][seat])
        for seat in r["winners"]:
            wins[r["lineup"][seat]] += 1
    return {p: {"games": len(v), "mean": statistics.mean(v), "sd": statistics.pstdev(v),
                "min": min(v), "max": max(v), "wins": wins[p],
                "categories": {k: round(n / len(v), 1) for k, n in cats[p].items()}}
            for p, v in scores.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m meeplehall.ai.study",
                                     description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("game", choices=["praga"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2, help="games per pair or rotation")
    parser.add_argument("--profiles", default=",".join(PRAGA_PROFILES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    profiles = args.profiles.split(",")
    for p in profiles:
        if p not in PRAGA_PROFILES:
            parser.error(f"unknown profile {p!r}; profiles are: {', '.join(PRAGA_PROFILES)}")
    jobs = [(args.game, lineup, args.seed + k)
            for k, lineup in enumerate(seatings(profiles, args.players, args.games))]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(play_one, jobs))
    else:
        results = [play_one(job) for job in jobs]
    table = summarise(results)
    print(f"{args.game}, {args.players} players, {len(results)} games (seeds {args.seed}.."
          f"{args.seed + len(results) - 1})")
    for p in profiles:
        row = table[p]
        print(f"{p:10s} mean {row['mean']:6.1f} sd {row['sd']:5.1f} range {row['min']}-"
              f"{row['max']} wins {row['wins']}/{row['games']}  {row['categories']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
