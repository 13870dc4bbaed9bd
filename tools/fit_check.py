"""Refit the rating of mcts-hard's rollout check in The Red Cathedral's solo game.

``CHECK_WIN`` in ``ai/heuristics/red_cathedral.py`` weighs the features of
``check_features`` into the log-odds that the human wins against Ivan. This module
plays games against Ivan with a bot (the planner by default: about a second a game),
records the features at the start of each of the human's turns, labels every position
with that game's result, and fits a logistic regression by Newton's method (pure
Python; the features are standardized and every weight but the constant takes a small
L2 penalty)::

    python -m tools.fit_check --games 1000 --seed 20000 --workers 2

prints the fitted weights as a ``CHECK_WIN`` literal and the mean log-loss of the fit
and of the rating's "margin" feature alone (both with the constant and "phase"), on
the games whose seed is a multiple of 5, fitted on the others.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from multiprocessing import Pool

Row = dict[str, float]


def positions(seed: int, bot: str = "planner") -> tuple[list[Row], int]:
    """Play the solo game of ``seed`` with ``bot`` (bot seed ``seed`` x 16, as the arena
    gives seat 0) and return the features (``check_features``) at the first decision of
    each of the human's turns, and 1 if the human won, else 0."""
    from meeplehall.ai import make_bot
    from meeplehall.ai.heuristics import red_cathedral as rh
    from meeplehall.games import GAMES

    game = GAMES["red-cathedral"]
    state = game.initial_state({"players": 1}, seed)
    player = make_bot(bot, seed * 16)
    rows: list[Row] = []
    last = None
    while (seat := game.current_player(state)) is not None:
        if state.turns != last:
            last = state.turns
            rows.append(rh.check_features(state, seat))
        action = player.choose(game, game.player_view(state, seat), game.legal_actions(state))
        game.apply_unchecked(state, action)
    won = 1 if rh.evaluate_play(state, 0) > rh.FINAL_RESULT / 2 else 0
    return rows, won


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a x = b`` (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if m[col][col] == 0.0:
            raise ValueError("singular system: a feature is constant or duplicated")
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def fit(rows: Sequence[Row], labels: Sequence[int], names: Sequence[str],
        l2: float = 1.0, iterations: int = 25) -> dict[str, float]:
    """Logistic regression of ``labels`` on the features ``names`` of ``rows``
    ("const" is the intercept, 1 in every row). Returns a weight per name, on the
    features' own scale."""
    if not rows or len(rows) != len(labels):
        raise ValueError("fit needs as many labels as rows, and at least one row")
    k = len(names)
    cols = [[float(r[n]) for r in rows] for n in names]
    mean = [0.0 if n == "const" else sum(c) / len(c) for n, c in zip(names, cols, strict=True)]
    sd = []
    for n, c, mu in zip(names, cols, mean, strict=True):
        var = sum((v - mu) ** 2 for v in c) / len(c)
        sd.append(1.0 if n == "const" or var == 0.0 else math.sqrt(var))
    z = [[(cols[j][i] - mean[j]) / sd[j] for j in range(k)] for i in range(len(rows))]
    w = [0.0] * k
    penalty = [0.0 if n == "const" else l2 for n in names]
    for _ in range(iterations):
        grad = [penalty[j] * w[j] for j in range(k)]
        hess = [[penalty[j] if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in zip(z, labels, strict=True):
            t = sum(wj * xj for wj, xj in zip(w, x, strict=True))
            p = 1.0 / (1.0 + math.exp(-t)) if t > -700 else 0.0
            d, h = p - y, p * (1.0 - p)
            for i in range(k):
                grad[i] += d * x[i]
                hx = h * x[i]
                row = hess[i]
                for j in range(i, k):
                    row[j] += hx * x[j]
        for i in range(k):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        w = [wj - sj for wj, sj in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-10:
            break
    raw = {n: w[j] / sd[j] for j, n in enumerate(names)}
    if "const" in raw:
        raw["const"] = w[names.index("const")] - sum(
            mean[j] * w[j] / sd[j] for j in range(k) if names[j] != "const")
    return raw


def log_loss(rows: Sequence[Row], labels: Sequence[int], weights: dict[str, float]) -> float:
    """Mean log-loss of the weights' predictions."""
    total = 0.0
    for r, y in zip(rows, labels, strict=True):
        t = sum(w * r[n] for n, w in weights.items())
        p = min(max(1.0 / (1.0 + math.exp(-max(t, -700.0))), 1e-12), 1.0 - 1e-12)
        total -= math.log(p) if y else math.log(1.0 - p)
    return total / len(rows)


def _play(args: tuple[int, str]) -> tuple[int, list[Row], int]:
    seed, bot = args
    rows, won = positions(seed, bot)
    return seed, rows, won


def main(argv: Sequence[str] | None = None) -> None:
    from meeplehall.ai.heuristics.red_cathedral import CHECK_WIN

    ap = argparse.ArgumentParser(prog="python -m tools.fit_check",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=20000, help="seed of the first game")
    ap.add_argument("--bot", default="planner", help="the human's bot in the games played")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--l2", type=float, default=1.0)
    args = ap.parse_args(argv)
    jobs = [(s, args.bot) for s in range(args.seed, args.seed + args.games)]
    if args.workers > 1:
        with Pool(args.workers) as pool:
            games = pool.map(_play, jobs)
    else:
        games = [_play(j) for j in jobs]
    names = list(CHECK_WIN)

    def flat(keep: bool) -> tuple[list[Row], list[int]]:
        rows, labels = [], []
        for seed, rs, won in games:
            if (seed % 5 == 0) == keep:
                rows += rs
                labels += [won] * len(rs)
        return rows, labels

    train, held = flat(False), flat(True)
    print(f"{len(games)} games, {sum(g[2] for g in games)} won, "
          f"{sum(len(g[1]) for g in games)} positions")
    if held[0] and train[0]:
        alone = ["const", "phase", "margin"]
        for label, keep in (("all features", names), ("margin alone", alone)):
            fitted = fit(*train, keep, args.l2)
            print(f"held-out log-loss, {label}: {log_loss(*held, fitted):.4f}")
    rows = train[0] + held[0]
    weights = fit(rows, train[1] + held[1], names, args.l2)
    print("CHECK_WIN: dict[str, float] = {")
    for n, w in weights.items():
        print(f"    {n!r}: {w!r},")
    print("}")


if __name__ == "__main__":
    main()
