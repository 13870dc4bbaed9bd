"""Fit the game review's chance model (``meeplehall.ai.review``) to self-play games.

For each game seed, the bots play a game; every position where a turn begins is kept
with the share of the game's moves played so far and the game's result. Per bucket of
progress, the temperature (and, for one-side games, the offset) that maximise the
likelihood of the results are found by a grid search on all the games; the log-loss of
a fit to half the games (both seatings) on the other half, and the other way round, is
reported beside that of a constant guess (the mean result per side). The result is
merged into ``src/meeplehall/ai/data/review-calibration.json`` with its provenance
(command, seeds, bots, the cross-validated figures).

    python -m tools.fit_review red-cathedral --players 2 --games 200 --seed 60000
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from meeplehall.ai.ladder import evaluator_for, make_bot
from meeplehall.ai.review import BUCKETS, CALIBRATION, bucket, softmax_chances
from meeplehall.games import GAMES

# the temperatures tried: of relative evaluations, or of points in one-side games
TEMPERATURES = [0.01 * 1.15 ** k for k in range(70)]
Sample = tuple[int, list[float], list[float]]  # bucket, evaluations, result per side


def play(game_name: str, players: int, seed: int, bots: list[str]) -> list[Sample]:
    game = GAMES[game_name]
    evaluator = evaluator_for(game)
    state = game.initial_state({"players": players}, seed)
    seated = [make_bot(bots[(s + seed) % len(bots)], seed=seed * 7 + s) for s in range(players)]
    kept: list[tuple[int, list[float]]] = []
    moves = 0
    turn = None
    while (player := game.current_player(state)) is not None:
        now = getattr(state, "turns", None)
        if now != turn:
            turn = now
            kept.append((moves, evaluator.evaluate_all(state)))
        legal = tuple(game.legal_actions(state))
        action = seated[player].choose(game, game.player_view(state, player), legal)
        state = game.apply(state, action)
        moves += 1
    out = game.outcome(state)
    assert out is not None
    sides = evaluator.sides(state)
    won = [1.0 if s in out.winners else 0.0 for s in range(sides)]
    if sides > players and not out.winners:
        won[players:] = [1.0] * (sides - players)
    total = sum(won)
    result = [w / total for w in won] if total else won
    return [(bucket(m / max(1, moves)), evals, result) for m, evals in kept]


def log_loss(result: list[float], chances: list[float]) -> float:
    """The log-loss of ``chances`` (per side; one side: its chance to win) given the
    game's ``result``."""
    if len(chances) == 1:
        p = min(1 - 1e-6, max(1e-6, chances[0]))
        return -(result[0] * math.log(p) + (1 - result[0]) * math.log(1 - p))
    return -sum(r * math.log(max(1e-9, c)) for r, c in zip(result, chances, strict=True))


def loss(samples: list[Sample], temperature: float, offset: float,
         automaton: bool = False) -> float:
    total = sum(log_loss(result, softmax_chances(evals, temperature, offset, automaton))
                for _b, evals, result in samples)
    return total / max(1, len(samples))


def constant_loss(train: list[Sample], test: list[Sample]) -> float:
    """The held-out log-loss of each side's mean result on the training games."""
    sides = len(train[0][2])
    mean = [sum(s[2][k] for s in train) / len(train) for k in range(sides)]
    return sum(log_loss(result, mean) for _b, _e, result in test) / max(1, len(test))


OFFSETS = [k / 4 for k in range(-16, 17)]  # an automaton's log-odds factors tried


def fit(train: list[Sample], players: int) -> tuple[list[float], list[float]]:
    """Per bucket, the temperature and offset of the largest likelihood: the temperature
    alone where every side is a seat; else temperature and offset by turns (twice)."""
    temperatures, offsets = [], []
    for b in range(BUCKETS):
        part = [s for s in train if s[0] == b]
        if not part:
            temperatures.append(TEMPERATURES[len(TEMPERATURES) // 2])
            offsets.append(0.0)
            continue
        sides = len(part[0][1])
        automaton = sides > players
        if sides == 1:
            values = sorted(s[1][0] for s in part)
            grid = [values[int(q * (len(values) - 1) / 40)] for q in range(41)]
        else:
            grid = OFFSETS if automaton else [0.0]
        t, c = TEMPERATURES[len(TEMPERATURES) // 2], grid[len(grid) // 2]
        for _ in range(2):
            t = min(TEMPERATURES, key=lambda x: loss(part, x, c, automaton))
            c = min(grid, key=lambda x: loss(part, t, x, automaton))
        temperatures.append(round(t, 4))
        offsets.append(round(c, 4))
    return temperatures, offsets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.fit_review", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=60000)
    parser.add_argument("--bots", default="greedy,mcts-easy",
                        help="bot levels the seats take in turn (default: greedy,mcts-easy)")
    parser.add_argument("--out", type=Path, default=CALIBRATION)
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    folds: tuple[list[Sample], list[Sample]] = ([], [])
    for k in range(args.games):
        seed = args.seed + k
        folds[(k // 2) % 2].extend(play(args.game, args.players, seed, bots))
        print(f"\rgame {k + 1}/{args.games}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    # Two folds of games (each holding both seatings): each fold's fit is rated on the
    # other's games; the calibration kept is fitted to all of them.
    held_out = constant = 0.0
    automaton = len(folds[0][0][1]) > args.players
    for train, test in (folds, folds[::-1]):
        t_fit, o_fit = fit(train, args.players)
        held_out += sum(loss([s for s in test if s[0] == b], t_fit[b], o_fit[b],
                             automaton)
                        * sum(1 for s in test if s[0] == b) for b in range(BUCKETS))
        constant += constant_loss(train, test) * len(test)
    positions = len(folds[0]) + len(folds[1])
    held_out /= positions
    constant /= positions
    temperatures, offsets = fit(folds[0] + folds[1], args.players)
    game = GAMES[args.game]
    entry: dict[str, Any] = {
        "game": args.game, "players": args.players, "rules_version": game.rules_version,
        "temperatures": temperatures, "offsets": offsets,
        "provenance": {
            "source": "reconstructed: fitted to self-play games",
            "command": f"python -m tools.fit_review {args.game} --players {args.players} "
                       f"--games {args.games} --seed {args.seed} --bots {args.bots}",
            "seeds": [args.seed, args.seed + args.games - 1], "bots": bots,
            "positions": positions,
            "cross_validated_log_loss": round(held_out, 4),
            "cross_validated_constant_log_loss": round(constant, 4),
        },
    }
    try:
        data = json.loads(args.out.read_text(encoding="utf-8"))
    except FileNotFoundError:
        data = {"about": "The game review's chance model: per game and player count, "
                         "a temperature (and for one-side games an offset) per fifth of "
                         "the game. Written by tools/fit_review.py; see "
                         "meeplehall.ai.review.", "calibrations": []}
    data["calibrations"] = [c for c in data["calibrations"]
                            if (c["game"], c["players"]) != (args.game, args.players)]
    data["calibrations"].append(entry)
    data["calibrations"].sort(key=lambda c: (c["game"], c["players"]))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(entry, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
