"""Balance study: planner bots following different strategy profiles play each other.

``python -m tools.study praga --players 2 --games 4`` plays every seating of the
chosen profiles (``PROFILES`` of ``ai/heuristics/praga.py`` or, for red-cathedral,
``ai/heuristics/red_cathedral.py``) and prints, per profile, the mean final score, its
spread, the wins and the mean points per scoring category. With ``--players 1`` each
profile plays its games alone against the game's automaton (Ivan in The Red Cathedral).
For The Red Cathedral it also prints, per profile, the mean cards completed, the turns
each player took, the Prestige sales (and how many of them cost no Prestige, RC-AMB-4),
Ivan's mean score and the games won without completing a card. This is how the
reconstructed data was checked (docs/praga-balance.md, docs/red-cathedral-balance.md):
strong play should land in the real game's usual range and no single plan should
dominate.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from meeplehall.ai.heuristics import praga, red_cathedral
from meeplehall.ai.ladder import evaluator_for
from meeplehall.ai.planner import PlannerBot
from meeplehall.games import GAMES

PROFILES: dict[str, dict[str, dict[str, float]]] = {
    "praga": praga.PROFILES, "red-cathedral": red_cathedral.PROFILES}


def seatings(profiles: Sequence[str], players: int, games: int) -> list[tuple[str, ...]]:
    """The line-up of each game: alone against the automaton for 1 player, for 2 players
    every pair in both seat orders, for more players rotations of the profile list;
    ``games`` games per profile, pair or rotation."""
    if players == 1:
        return [(p,) for p in profiles for _ in range(games)]
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
    bots = [PlannerBot(seed * 10 + i, evaluator_for(game, profile))
            for i, profile in enumerate(lineup)]
    sales = [0] * len(lineup)
    free_sales = [0] * len(lineup)
    rc = game_name == "red-cathedral"
    while (outcome := game.outcome(state)) is None:
        seat = game.current_player(state)
        assert seat is not None
        legal = game.legal_actions(state)
        action = bots[seat].choose(game, game.player_view(state, seat), legal)
        if rc and str(action) == "sell-prestige":
            before = _rc_pp(state, seat)
            game.apply_unchecked(state, action)
            sales[seat] += 1
            free_sales[seat] += _rc_pp(state, seat) == before
            continue
        game.apply_unchecked(state, action)
    result: dict[str, Any] = {"lineup": lineup, "scores": list(outcome.scores),
                              "winners": list(outcome.winners),
                              "breakdown": [dict(b) for b in outcome.breakdown]}
    if rc:
        result["completed"] = list(state.completed[: len(lineup)])
        result["turns"] = state.turns / state.sides
        result["sales"] = sales
        result["free_sales"] = free_sales
        if state.solo:
            result["ivan"] = outcome.details["ivan"]["score"]
    return result


def _rc_pp(state: Any, seat: int) -> int:
    """The seat's Prestige on the track now (RC-SCORE-8)."""
    from meeplehall.games.red_cathedral.scoring import track

    return track().pp(state.score[seat])


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
    table: dict[str, dict[str, Any]] = {
        p: {"games": len(v), "mean": statistics.mean(v), "sd": statistics.pstdev(v),
            "min": min(v), "max": max(v), "wins": wins[p],
            "categories": {k: round(n / len(v), 1) for k, n in cats[p].items()}}
        for p, v in scores.items()}
    if results and "completed" in results[0]:
        extra: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        for r in results:
            for seat, profile in enumerate(r["lineup"]):
                e = extra[profile]
                e["completed"].append(r["completed"][seat])
                e["turns"].append(r["turns"])
                e["sales"].append(r["sales"][seat])
                e["free_sales"].append(r["free_sales"][seat])
                won = seat in r["winners"]
                e["won_no_card"].append(float(won and r["completed"][seat] == 0))
                if "ivan" in r:
                    e["ivan"].append(r["ivan"])
        for p, e in extra.items():
            row = table[p]
            row["completed"] = statistics.mean(e["completed"])
            row["turns"] = statistics.mean(e["turns"])
            row["max_turns"] = max(e["turns"])
            row["sales"] = sum(e["sales"]) / len(e["sales"])
            row["free_share"] = (sum(e["free_sales"]) / sum(e["sales"])
                                 if sum(e["sales"]) else 0.0)
            row["won_no_card"] = int(sum(e["won_no_card"]))
            if e["ivan"]:
                row["ivan"] = statistics.mean(e["ivan"])
    return table


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.study",
                                     description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("game", choices=sorted(PROFILES))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2, help="games per pair or rotation")
    parser.add_argument("--profiles", help="comma-separated profiles (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", metavar="FILE", help="also write every game's result as JSON")
    args = parser.parse_args(argv)
    known = PROFILES[args.game]
    profiles = args.profiles.split(",") if args.profiles else list(known)
    for p in profiles:
        if p not in known:
            parser.error(f"unknown profile {p!r}; profiles are: {', '.join(known)}")
    if args.players == 1 and args.game != "red-cathedral":
        parser.error("--players 1 is offered for red-cathedral only")
    lineups = seatings(profiles, args.players, args.games)
    # alone against the automaton every profile plays the same seeds (a paired comparison)
    jobs = [(args.game, lineup, args.seed + (k % args.games if args.players == 1 else k))
            for k, lineup in enumerate(lineups)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(play_one, jobs))
    else:
        results = [play_one(job) for job in jobs]
    table = summarise(results)
    last = max(job[2] for job in jobs)
    each = " each profile" if args.players == 1 else ""
    print(f"{args.game}, {args.players} players, {len(results)} games (seeds {args.seed}.."
          f"{last}{each})")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"seeds": [job[2] for job in jobs], "results": results}, out, indent=1)
    for p in profiles:
        row = table[p]
        print(f"{p:10s} mean {row['mean']:6.1f} sd {row['sd']:5.1f} range {row['min']}-"
              f"{row['max']} wins {row['wins']}/{row['games']}  {row['categories']}")
        if "completed" in row:
            ivan = f" ivan {row['ivan']:.1f}" if "ivan" in row else ""
            print(f"{'':10s} cards {row['completed']:.1f} turns/player {row['turns']:.1f}"
                  f" (max {row['max_turns']:.1f}) prestige sales {row['sales']:.1f}"
                  f" ({100 * row['free_share']:.0f} % free) won with no card "
                  f"{row['won_no_card']}{ivan}")
    if results and "completed" in results[0]:
        print("by cards completed (all profiles): " + "; ".join(
            f"{n} cards: {g} games, {w} won, mean {m:.1f}"
            for n, (g, w, m) in by_cards(results).items()))
    return 0


def by_cards(results: list[dict[str, Any]]) -> dict[int, tuple[int, int, float]]:
    """The Red Cathedral: per number of cards a player completed, the players' games,
    wins and mean score (is building the road to victory?)."""
    rows: dict[int, list[tuple[bool, int]]] = defaultdict(list)
    for r in results:
        for seat in range(len(r["lineup"])):
            rows[r["completed"][seat]].append((seat in r["winners"], r["scores"][seat]))
    return {n: (len(v), sum(w for w, _ in v), statistics.mean(x for _, x in v))
            for n, v in sorted(rows.items())}


if __name__ == "__main__":
    sys.exit(main())
