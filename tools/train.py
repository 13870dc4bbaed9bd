"""Train a generation of the learned value and policy (``meeplehall train``).

``python -m tools.train GAME --players P --seed S`` (or ``meeplehall train ...``):

1. **Self-play data** through the vector environment (``rl/vector.py``): ``--games``
   games of ``--bot`` (generation 0: the existing bots, ``greedy`` by default) against
   itself, ``--envs`` games stepped together, game ``i`` from seed ``S + i``. At every
   decision with more than one legal action, with probability ``--keep``, the mover's
   observation is kept with the bot's chosen action (the policy target); with
   probability ``--epsilon`` a uniformly random legal action is played instead (the
   target stays the bot's choice), so that the positions vary. The value target of a
   position is each seat's final rank, scaled to [0, 1] (``rank`` rewards), observer
   first. Every position of a game shares that game's result, so the value learns from
   as many results as there are games: kept whole, a few hundred games of a few hundred
   positions each let the network recognise each training game and learn its result
   (held-out Brier worse than a constant guess); a tenth of the positions of ten times
   the games does not.
2. **Fitting** with PyTorch (the optional extra ``[train]``): the games are split by
   game into training and held-out sets (``--holdout``), an MLP (``--hidden``) is fitted
   with Adam for ``--epochs`` epochs, minimising the policy's cross-entropy plus the
   value's binary cross-entropy; the epoch kept is the one whose value rates the check
   games (the last tenth of the training games) best. Deterministic given the seed:
   ``torch.manual_seed``, deterministic algorithms, one thread.
3. **Output**: the weights (``<game>-<players>p.npz``, numpy arrays, read by
   ``meeplehall.ai.learned``) and the model card (``.json``: the identity the weights
   were made for, data seeds, command, held-out losses and calibration, and the Brier
   scores to beat: a constant guess, the mean result of the training positions, and a
   logistic of the hand-written evaluation's margin fitted on them) in ``--out``.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from meeplehall.ai.learned import MODELS, LearnedModel, identity, model_name


def hand_margin(evaluator: Any, state: Any, seat: int) -> float:
    """The hand-written evaluation's margin of ``seat`` (its evaluation less the best
    other side's, an automaton included) in units of the search's logistic ``scale``."""
    evals = evaluator.evaluate_all(state)
    others = [e for side, e in enumerate(evals) if side != seat]
    return float((evals[seat] - max(others) if others else evals[seat]) / evaluator.scale)


def self_play(game: str, players: int, seed: int, games: int, bot: str, epsilon: float,
              envs: int, keep: float = 1.0) -> dict[str, Any]:
    """``games`` games of ``bot`` through the vector environment; the arrays of the
    positions (``obs``, ``action``, ``value``, ``game``, and ``margin``: the hand-written
    evaluation's margin of the mover, the baseline the value must beat) and the
    decisions played. Each decision is kept with probability ``keep``: a game's
    positions share one outcome, so many games with a few positions each teach the value
    more than a few games with all of theirs."""
    import numpy as np

    from meeplehall.ai import make_bot
    from meeplehall.ai.evaluator import resolve
    from meeplehall.core.rng import Rng
    from meeplehall.games import GAMES
    from meeplehall.rl.vector import MeeplehallVectorEnv

    envs = max(1, min(envs, games))
    env = MeeplehallVectorEnv(game, envs, players=players, reward="rank")
    batch, infos = env.reset(seed=seed)
    rng = Rng.from_seed(seed ^ 0x7EA1)
    # per slot: the game number it plays, its bots, and its positions so far
    number = list(range(envs))
    started = envs
    bots = [[make_bot(bot, (seed + i) * 16 + s) for s in range(players)] for i in range(envs)]
    kept: list[list[tuple[Any, int, int, float]]] = [[] for _ in range(envs)]
    engine = GAMES[game]
    evaluator = resolve(None, engine)
    obs: list[Any] = []
    margins: list[float] = []
    actions: list[int] = []
    values: list[Any] = []
    game_of: list[int] = []
    finished = decisions = 0
    encoder = env.encoder
    while finished < games:
        seats = infos["seat"]
        chosen = np.zeros(envs, np.int64)
        for i, table in enumerate(env.tables):
            seat = int(seats[i])
            legal = table.legal
            if len(legal) == 1:
                chosen[i] = encoder.action_index(legal[0])
                continue
            action = bots[i][seat].choose(table.game, table.view(seat), legal)
            target = encoder.action_index(action)
            if epsilon > 0 and rng.randbelow(1 << 30) < epsilon * (1 << 30):
                action = legal[rng.randbelow(len(legal))]
            chosen[i] = encoder.action_index(action)
            if number[i] < games and (keep >= 1 or rng.randbelow(1 << 30) < keep * (1 << 30)):
                margin = hand_margin(evaluator, table.state, seat)
                kept[i].append((batch["observation"][i].copy(), target, seat, margin))
        batch, _, terminated, _, infos = env.step(chosen)
        decisions += envs
        for i in np.flatnonzero(terminated).tolist():
            rank = (infos["rewards"][i] + 1.0) / 2.0
            if number[i] < games:
                for o, target, seat, margin in kept[i]:
                    obs.append(o)
                    margins.append(margin)
                    actions.append(target)
                    values.append(np.roll(rank, -seat))
                    game_of.append(number[i])
                finished += 1
                if finished % 20 == 0:
                    print(f"self-play: {finished}/{games} games", file=sys.stderr)
            kept[i] = []
            number[i] = started
            bots[i] = [make_bot(bot, (seed + started) * 16 + s) for s in range(players)]
            started += 1
    env.close()
    return {"obs": np.stack(obs).astype(np.float32), "action": np.array(actions, np.int64),
            "value": np.stack(values).astype(np.float32), "game": np.array(game_of),
            "margin": np.array(margins, np.float32),
            "decisions": decisions}


def write_data(path: Path, data: dict[str, Any], made_by: dict[str, Any]) -> None:
    """Keep the self-play arrays in ``path`` with the arguments that made them."""
    import numpy as np

    path.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {k: np.asarray(v) for k, v in data.items()}
    arrays["made_by"] = np.frombuffer(json.dumps(made_by).encode(), np.uint8)
    with open(path, "wb") as f:
        np.savez(f, **arrays)


def read_data(path: Path, made_by: dict[str, Any]) -> dict[str, Any] | None:
    """The self-play arrays kept in ``path`` if they were made by ``made_by`` (None where
    there are none, or they were made by other arguments)."""
    import numpy as np

    if not path.exists():
        return None
    with np.load(path, allow_pickle=False) as kept:
        arrays = {k: kept[k] for k in kept.files}
    if json.loads(bytes(arrays.pop("made_by")).decode()) != made_by:
        print(f"{path} holds other games: playing them again", file=sys.stderr)
        return None
    arrays["decisions"] = int(arrays["decisions"])
    print(f"self-play data read from {path}", file=sys.stderr)
    return arrays


def calibration(chance: Any, outcome: Any, bins: int = 10) -> dict[str, Any]:
    """Expected calibration error of predicted win chances, and the bins' rows
    (mean prediction, observed rate, count)."""

    rows = []
    error = 0.0
    for k in range(bins):
        lo, hi = k / bins, (k + 1) / bins
        sel = (chance >= lo) & ((chance < hi) if k < bins - 1 else (chance <= hi))
        n = int(sel.sum())
        if not n:
            continue
        p, o = float(chance[sel].mean()), float(outcome[sel].mean())
        rows.append([round(p, 3), round(o, 3), n])
        error += n / len(chance) * abs(p - o)
    return {"ece": round(error, 4), "bins": rows}


HAND_CLIP = 10.0
"""The hand-written margin (in units of the search's ``scale``) is clipped to this before
its logistic is fitted: a few positions rate far outside it, and unclipped they flatten
the fit."""


def logistic(x: Any, y: Any, iterations: int = 30, l2: float = 1e-3) -> Any:
    """Weights of a logistic regression of ``y`` on the columns of ``x`` (Newton's
    method, a small L2 penalty so that a separable column stays finite)."""
    import numpy as np

    w = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) + l2 * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def baselines(data: dict[str, Any], train: Any, test: Any) -> dict[str, Any]:
    """The held-out Brier scores the value must beat: a constant guess (the mean result
    of the training positions) and a logistic of the hand-written evaluation's margin
    fitted on the training positions."""
    import numpy as np

    y = data["value"][:, 0].astype(np.float64)
    constant = float(y[train].mean())
    out: dict[str, Any] = {
        "value_brier_constant": round(float(((constant - y[test]) ** 2).mean()), 4),
        "constant": round(constant, 4)}
    if "margin" in data:
        m = np.clip(data["margin"].astype(np.float64), -HAND_CLIP, HAND_CLIP)
        x = np.stack([np.ones_like(m), m], 1)
        w = logistic(x[train], y[train])
        p = 1.0 / (1.0 + np.exp(-np.clip(x[test] @ w, -30, 30)))
        out["value_brier_hand"] = round(float(((p - y[test]) ** 2).mean()), 4)
        out["hand_logistic"] = [round(float(c), 4) for c in w]
    return out


def fit(data: dict[str, Any], seed: int, hidden: list[int], epochs: int, holdout: float,
        batch_size: int = 256, lr: float = 1e-3) -> tuple[LearnedModel, dict[str, Any]]:
    """Fit the MLP on the data's training games; the model and its held-out figures.

    The epoch kept is the one whose value rates the check games best (their value
    cross-entropy): the value is what the search's leaves are rated by, and it is the
    head that overfits (a game's positions share one result, which a wide network
    learns to recognise by game), long before the policy stops improving."""
    import numpy as np
    import torch

    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    games = np.unique(data["game"])
    cut = games[int(len(games) * (1 - holdout))]
    train = data["game"] < cut
    test = ~train
    # the last tenth of the training games picks the epoch kept (early stopping)
    fit_games = games[games < cut]
    check_cut = fit_games[max(1, int(len(fit_games) * 0.9))] if len(fit_games) > 1 else cut
    check = train & (data["game"] >= check_cut)
    if check.any() and (train & ~check).any():
        train = train & ~check
    x = torch.from_numpy(data["obs"])
    a = torch.from_numpy(data["action"])
    v = torch.from_numpy(data["value"])
    size, players = x.shape[1], v.shape[1]
    actions = int(data["actions"])
    dims = [size, *hidden]
    body = torch.nn.Sequential(*[m for i in range(len(hidden)) for m in
                                 (torch.nn.Linear(dims[i], dims[i + 1]), torch.nn.ReLU())])
    phead = torch.nn.Linear(dims[-1], actions)
    vhead = torch.nn.Linear(dims[-1], players)
    params = [*body.parameters(), *phead.parameters(), *vhead.parameters()]
    opt = torch.optim.Adam(params, lr=lr, weight_decay=1e-5)
    ce = torch.nn.CrossEntropyLoss()
    bce = torch.nn.BCEWithLogitsLoss()
    idx_train = torch.from_numpy(np.flatnonzero(train))
    idx_check = torch.from_numpy(np.flatnonzero(check))
    idx_test = torch.from_numpy(np.flatnonzero(test))
    gen = torch.Generator().manual_seed(seed)
    history = []
    checked: list[float] = []
    checked_policy: list[float] = []
    best: tuple[float, int, list[Any]] | None = None
    modules = (body, phead, vhead)
    for epoch in range(epochs):
        body.train()
        order = idx_train[torch.randperm(len(idx_train), generator=gen)]
        total = 0.0
        for start in range(0, len(order), batch_size):
            b = order[start:start + batch_size]
            h = body(x[b])
            loss = ce(phead(h), a[b]) + bce(vhead(h), v[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(b)
        history.append(round(total / max(1, len(order)), 4))
        with torch.no_grad():
            hc = body(x[idx_check])
            score = float(bce(vhead(hc), v[idx_check])) if len(idx_check) else -float(epoch)
            checked_policy.append(round(float(ce(phead(hc), a[idx_check])), 4)
                                  if len(idx_check) else 0.0)
        checked.append(round(score, 4))
        if best is None or score < best[0]:
            best = (score, epoch, [{k: t.clone() for k, t in m.state_dict().items()}
                                   for m in modules])
        print(f"epoch {epoch + 1}/{epochs} train loss {history[-1]} check value loss "
              f"{checked[-1]} check policy loss {checked_policy[-1]}", file=sys.stderr)
    if best is not None:
        for m, state in zip(modules, best[2], strict=True):
            m.load_state_dict(state)
    with torch.no_grad():
        h = body(x[idx_test])
        logits, vlog = phead(h), vhead(h)
        policy_ce = float(ce(logits, a[idx_test]))
        value_bce = float(bce(vlog, v[idx_test]))
        top1 = float((logits.argmax(1) == a[idx_test]).float().mean())
        chance = torch.sigmoid(vlog[:, 0]).numpy()
    outcome = v[idx_test][:, 0].numpy()
    figures = {
        "positions": {"train": int(train.sum()), "check": int(check.sum()),
                      "held_out": int(test.sum())},
        "games": {"train": int((games < cut).sum()), "held_out": int((games >= cut).sum())},
        "train_loss_by_epoch": history,
        "check_loss_by_epoch": checked,
        "check_policy_by_epoch": checked_policy,
        "epoch_kept": (best[1] + 1) if best is not None else 0,
        "held_out": {"policy_cross_entropy": round(policy_ce, 4),
                     "policy_top1": round(top1, 4),
                     "value_bce": round(value_bce, 4),
                     "value_brier": round(float(((chance - outcome) ** 2).mean()), 4),
                     **baselines(data, data["game"] < cut, test),
                     "calibration": calibration(chance, outcome)},
    }
    linears = [m for m in body if isinstance(m, torch.nn.Linear)]

    def arr(t: Any) -> Any:
        return t.detach().numpy().astype(np.float32).copy()

    model = LearnedModel([(arr(m.weight.T), arr(m.bias)) for m in linears],
                         (arr(phead.weight.T), arr(phead.bias)),
                         (arr(vhead.weight.T), arr(vhead.bias)), {})
    return model, figures


def recorded(argv: list[str]) -> list[str]:
    """The arguments a model card records: all but where files go (``--out``,
    ``--data``), which change nothing in the model."""
    out: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
        elif a in ("--out", "--data"):
            skip = True
        elif a and not a.startswith(("--out=", "--data=")):
            out.append(a)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="meeplehall train", description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=["praga", "red-cathedral"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="first game's seed (and the fit's)")
    parser.add_argument("--games", type=int, default=400, help="self-play games")
    parser.add_argument("--bot", default="greedy", help="the bot whose games are learned")
    parser.add_argument("--epsilon", type=float, default=0.1,
                        help="chance of a random move in the self-play games")
    parser.add_argument("--envs", type=int, default=16, help="games stepped together")
    parser.add_argument("--keep", type=float, default=0.1,
                        help="share of the decisions kept as positions (a game's positions "
                             "share one result: more games teach the value more)")
    parser.add_argument("--hidden", default="128,128", help="hidden layer widths")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--holdout", type=float, default=0.1,
                        help="share of the games held out")
    parser.add_argument("--generation", type=int, default=0)
    parser.add_argument("--out", type=Path, default=MODELS, help="where to write the model")
    parser.add_argument("--data", type=Path, default=None,
                        help="a file that keeps the self-play data: read where it holds the "
                             "games these arguments ask for, else played and written there "
                             "(a refit with other fitting arguments replays nothing)")
    args = parser.parse_args(argv)
    if args.players < 1:
        parser.error("--players must be at least 1")
    if not 0 < args.holdout < 1:
        parser.error("--holdout must be between 0 and 1")
    if not 0 < args.keep <= 1:
        parser.error("--keep must be above 0 and at most 1")
    if args.games < 2:
        parser.error("--games must be at least 2")
    try:
        import torch
    except ImportError:
        parser.error("training needs PyTorch: pip install 'meeplehall[train]'")
    from meeplehall.ai.ladder import check_kind
    from meeplehall.rl.encoders import make_encoder

    try:
        check_kind(args.bot)
    except ValueError as exc:
        parser.error(str(exc))
    hidden = [int(h) for h in args.hidden.split(",")]
    t0 = time.perf_counter()
    made_by = {"game": args.game, "players": args.players, "seed": args.seed,
               "games": args.games, "bot": args.bot, "epsilon": args.epsilon,
               "envs": args.envs, "keep": args.keep,
               "encoder": identity(args.game, args.players)["encoder"]}
    data = read_data(args.data, made_by) if args.data is not None else None
    played = None  # seconds of self-play (None: the data was read from ``--data``)
    if data is None:
        data = self_play(args.game, args.players, args.seed, args.games, args.bot,
                         args.epsilon, args.envs, args.keep)
        played = time.perf_counter() - t0
        if args.data is not None:
            write_data(args.data, data, made_by)
    data["actions"] = make_encoder(args.game, args.players).num_actions
    t1 = time.perf_counter()
    print(f"self-play: {args.games} games, {len(data['action'])} positions, "
          f"{t1 - t0:.0f} s", file=sys.stderr)
    model, figures = fit(data, args.seed, hidden, args.epochs, args.holdout)
    t2 = time.perf_counter()
    name = model_name(args.game, args.players)
    command = "meeplehall train " + shlex.join(
        recorded(argv if argv is not None else sys.argv[1:]))
    card: dict[str, Any] = {
        "model": name, "generation": args.generation, "identity": identity(args.game,
                                                                           args.players),
        "architecture": {"input": int(data["obs"].shape[1]), "hidden": hidden,
                         "policy": int(data["actions"]), "value": args.players},
        "data": {"bot": args.bot, "epsilon": args.epsilon, "keep": args.keep,
                 "games": args.games, "positions": len(data["action"]),
                 "seed": args.seed,
                 "seeds": f"the first {min(args.envs, args.games)} games from seeds "
                          f"{args.seed}..{args.seed + min(args.envs, args.games) - 1}, the "
                          f"later ones from the vector environment's generator seeded "
                          f"with {args.seed}"},
        "command": command, "torch": torch.__version__,
        "seconds": {"self_play": None if played is None else round(played),
                    "fit": round(t2 - t1)},
        **figures,
    }
    model.meta = {"identity": card["identity"], "generation": args.generation}
    args.out.mkdir(parents=True, exist_ok=True)
    model.save(args.out / f"{name}.npz")
    (args.out / f"{name}.json").write_text(json.dumps(card, indent=1) + "\n")
    print(json.dumps(card["held_out"]))
    print(f"wrote {args.out / name}.npz and .json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
