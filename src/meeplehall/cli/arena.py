"""``meeplehall arena``: tournaments between bots, with confidence intervals and ratings.

Seatings are the rotations of the bot list over the seats (deduplicated): with bots
``a,b`` and 2 players, ``(a, b)`` and ``(b, a)``. Game ``g`` uses seating
``g % len(seatings)`` and game seed ``seed + g // len(seatings)``, so each game seed is
played once in every seating (paired comparisons). Bots are seeded from the game seed
and the seat, so a tournament is deterministic whatever the backend and worker count
(only the timings change). In a solo game the one bot plays against the engine's
automaton (Ivan in The Red Cathedral), which counts as a rated player of its own.

Backends: ``process`` (default) runs games in a ``ProcessPoolExecutor``; ``ray`` runs each
game as a Ray task on a local cluster (``ray.init(num_cpus=W)``) or on the cluster at
``--address`` (its machines need meeplehall installed at the same version).

Results go to ``--out``: ``results.json`` (settings, every game, the summary),
``games.csv`` (one row per game and seat), ``summary.csv`` (per bot: win rate with a 95 %
Wilson interval, mean score and rank, Bradley-Terry rating on the Elo scale, think time)
and ``chart.png`` (matplotlib, Agg backend). While the tournament runs, each finished game
is appended to ``games.jsonl`` (a first line with the settings, then one result per
line), so an interrupted tournament keeps its games: ``--resume`` plays only the games
that are missing, and with a larger ``--games`` extends a finished tournament (game ``g``
is the same game whatever the total). A folder holding an interrupted tournament is not
overwritten without ``--resume``. When the output is not a terminal, a line per finished
game replaces the progress bar.

A win is credited as ``1 / len(winners)`` to each winning seat, so shared wins split.
Ratings come from every pair of seats in a game held by different bots (ties count half
for each), fitted by Hunter's MM algorithm with one virtual draw per pair of players.
"""

from __future__ import annotations

import csv
import json
import math
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from meeplehall.ai import make_bot

Task = dict[str, Any]
Result = dict[str, Any]
JOURNAL = "games.jsonl"


class ArenaError(ValueError):
    """A tournament that cannot start as asked (the message says why)."""


def seatings(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The distinct rotations of ``bots`` over ``players`` seats.

    >>> seatings(["a", "b"], 2)
    [('a', 'b'), ('b', 'a')]
    >>> seatings(["a", "b", "c"], 1)
    [('a',), ('b',), ('c',)]
    """
    out: list[tuple[str, ...]] = []
    for r in range(len(bots)):
        seating = tuple(bots[(seat + r) % len(bots)] for seat in range(players))
        if seating not in out:
            out.append(seating)
    return out


def make_tasks(game: str, params: dict[str, Any], bots: Sequence[str], games: int,
               seed: int, max_decisions: int, think: float | None = None) -> list[Task]:
    """The games of a tournament; ``think``: the ``expert`` bots' seconds per decision
    (None: the level's default)."""
    table = seatings(bots, int(params["players"]))
    extra = {} if think is None else {"think": think}
    return [{"index": g, "game": game, "params": dict(params),
             "seed": seed + g // len(table), "seats": list(table[g % len(table)]),
             "max_decisions": max_decisions, **extra} for g in range(games)]


def play_task(task: Task) -> Result:
    """Play one game of a tournament (runs in a worker process or a Ray task)."""
    from meeplehall.games import GAMES

    game = GAMES[task["game"]]
    state = game.initial_state(task["params"], task["seed"])
    kinds = task["seats"]
    bots = [make_bot(kind, task["seed"] * 16 + seat, task.get("think"))
            for seat, kind in enumerate(kinds)]
    think = [0.0] * len(kinds)
    choices = [0] * len(kinds)
    decisions = 0
    start = time.perf_counter()
    while decisions < task["max_decisions"]:
        seat = game.current_player(state)
        if seat is None:
            break
        legal = game.legal_actions(state)
        t0 = time.perf_counter()
        action = bots[seat].choose(game, game.player_view(state, seat), legal)
        if len(legal) > 1:
            think[seat] += time.perf_counter() - t0
            choices[seat] += 1
        if action not in legal:
            raise RuntimeError(f"bot {kinds[seat]} chose an illegal action {action}")
        game.apply_unchecked(state, action)
        decisions += 1
    result: Result = {"index": task["index"], "seed": task["seed"], "seats": list(kinds),
                      "finished": game.current_player(state) is None,
                      "decisions": decisions, "choices": choices,
                      "think_s": [round(t, 4) for t in think],
                      "seconds": round(time.perf_counter() - start, 3),
                      "scores": [], "winners": [], "ranks": []}
    outcome = game.outcome(state)
    if outcome is not None:
        result["scores"] = list(outcome.scores)
        result["winners"] = list(outcome.winners)
        result["ranks"] = [outcome.rank_of(s) for s in range(len(kinds))]
        ivan = outcome.details.get("ivan")
        if isinstance(ivan, dict):
            result["automaton"] = {"name": "ivan", "score": ivan.get("score"),
                                   "result": outcome.details.get("result")}
    return result


# --- statistics ---------------------------------------------------------------------------
def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion.

    >>> [round(x, 3) for x in wilson(8, 10)]
    [0.49, 0.943]
    >>> wilson(0, 0)
    (0.0, 1.0)
    >>> wilson(4, 4)[1]  # rounding never leaves the observed rate outside its interval
    1.0
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def pairwise(results: Iterable[Result]) -> dict[tuple[str, str], float]:
    """Wins of player a over player b (``(a, b) -> wins``) from every finished game."""
    wins: dict[tuple[str, str], float] = {}

    def add(a: str, b: str, score: float) -> None:
        wins[(a, b)] = wins.get((a, b), 0.0) + score
        wins[(b, a)] = wins.get((b, a), 0.0) + 1.0 - score

    for r in results:
        if not r["finished"]:
            continue
        seats = r["seats"]
        if len(seats) == 1:
            name = r.get("automaton", {}).get("name", "automaton")
            add(seats[0], name, 1.0 if 0 in r["winners"] else 0.0)
            continue
        ranks = r["ranks"]
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                if seats[i] == seats[j]:
                    continue
                score = 1.0 if ranks[i] < ranks[j] else 0.0 if ranks[i] > ranks[j] else 0.5
                add(seats[i], seats[j], score)
    return wins


def bradley_terry(wins: dict[tuple[str, str], float], players: Sequence[str],
                  iterations: int = 500) -> dict[str, float]:
    """Bradley-Terry strengths on the Elo scale (mean 1500), by Hunter's MM updates.

    >>> r = bradley_terry({("a", "b"): 3.0, ("b", "a"): 1.0}, ["a", "b"])
    >>> r["a"] > 1500 > r["b"]
    True
    """
    names = list(players)
    met = {(a, b) for (a, b) in wins if a != b}
    w = {k: v + 0.5 for k, v in wins.items()}  # one virtual draw per pair that met
    gamma = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        new = {}
        for a in names:
            total = sum(w.get((a, b), 0.0) for b in names if (a, b) in met)
            denom = sum((w.get((a, b), 0.0) + w.get((b, a), 0.0)) / (gamma[a] + gamma[b])
                        for b in names if (a, b) in met)
            new[a] = total / denom if denom > 0 else gamma[a]
        mean_log = sum(math.log(g) for g in new.values()) / len(new)
        gamma = {a: g / math.exp(mean_log) for a, g in new.items()}
    return {a: 1500.0 + 400.0 * math.log10(g) for a, g in gamma.items()}


def summarise(results: Sequence[Result], bots: Sequence[str]) -> dict[str, Any]:
    per: dict[str, dict[str, Any]] = {}
    for kind in dict.fromkeys(bots):
        per[kind] = {"games": 0, "wins": 0.0, "scores": [], "ranks": [], "think_s": 0.0,
                     "choices": 0}
    unfinished = 0
    for r in results:
        if not r["finished"]:
            unfinished += 1
            continue
        for seat, kind in enumerate(r["seats"]):
            row = per[kind]
            row["games"] += 1
            if seat in r["winners"]:
                row["wins"] += 1.0 / len(r["winners"])
            row["scores"].append(r["scores"][seat])
            row["ranks"].append(r["ranks"][seat])
            row["think_s"] += r["think_s"][seat]
            row["choices"] += r["choices"][seat]
    wins = pairwise(results)
    players = list(per) + sorted({b for (_, b) in wins} - set(per))
    ratings = bradley_terry(wins, players)
    bots_out = {}
    for kind, row in per.items():
        n = row["games"]
        low, high = wilson(row["wins"], n)
        bots_out[kind] = {
            "games": n, "wins": row["wins"], "win_rate": row["wins"] / n if n else 0.0,
            "ci95": [low, high],
            "mean_score": sum(row["scores"]) / n if n else None,
            "mean_rank": sum(row["ranks"]) / n if n else None,
            "rating": ratings[kind],
            "s_per_decision": row["think_s"] / row["choices"] if row["choices"] else 0.0,
        }
    return {"bots": bots_out, "ratings": ratings, "unfinished": unfinished,
            "pairwise": [{"a": a, "b": b, "wins": v} for (a, b), v in sorted(wins.items())]}


# --- running ------------------------------------------------------------------------------
def _run_process(tasks: list[Task], workers: int,
                 done: Callable[[Result], None]) -> None:
    if workers <= 1:
        for task in tasks:
            done(play_task(task))
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_task, task) for task in tasks]
        for future in as_completed(futures):
            done(future.result())


def _run_ray(tasks: list[Task], workers: int, address: str | None,
             done: Callable[[Result], None]) -> None:
    import ray

    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
        started = True
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(play_task)
        pending = [remote.remote(task) for task in tasks]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                done(ray.get(ref))
    finally:
        if started:
            ray.shutdown()


def settings_of(game: str, params: dict[str, Any], bots: Sequence[str], seed: int,
                max_decisions: int, think: float | None = None) -> dict[str, Any]:
    """What makes game ``g`` of a tournament the same game (not the number of games)."""
    settings: dict[str, Any] = {"game": game, "params": dict(params), "bots": list(bots),
                                "seed": seed, "max_decisions": max_decisions}
    if think is not None:
        settings["think"] = think
    return dict(json.loads(json.dumps(settings)))  # as the journal holds them


def load_journal(path: Path, settings: dict[str, Any],
                 tasks: Sequence[Task]) -> dict[int, Result]:
    """The results kept in ``games.jsonl`` (by game index). A last line cut short by an
    interruption is dropped (its game is played again); anything else that is not a
    result of this tournament raises ``ArenaError``. ``tasks`` are the games to check
    results against."""
    lines = _lines(path)
    if not lines:
        return {}
    try:
        kept_settings = json.loads(lines[0])["arena"]
    except (ValueError, KeyError, TypeError):
        raise ArenaError(f"{path}: the first line is not an arena header") from None
    if kept_settings != settings:
        diff = ", ".join(f"{k} {kept_settings.get(k)!r} (now {v!r})"
                         for k, v in settings.items() if kept_settings.get(k) != v)
        raise ArenaError(f"{path} holds another tournament: {diff}; use another --out")
    by_index = {t["index"]: t for t in tasks}
    results: dict[int, Result] = {}
    for n, line in enumerate(lines[1:], start=2):
        try:
            r = json.loads(line)
            index = r["index"]
            task = by_index.get(index)
            if not isinstance(index, int) or index < 0:
                raise ValueError(f"game index {index!r}")
            if task is not None and (r["seed"] != task["seed"] or r["seats"] != task["seats"]):
                raise ValueError("its seed or seats do not match game " + str(index))
        except (ValueError, KeyError, TypeError) as exc:
            raise ArenaError(f"{path}, line {n}: not a game of this tournament ({exc})"
                             ) from None
        results[index] = r
    return results


def _lines(path: Path) -> list[bytes]:
    lines = path.read_bytes().split(b"\n")
    if lines and lines[-1]:
        lines = lines[:-1]  # torn write: the process stopped in the middle of a line
    return [line for line in lines if line.strip()]


def _peek(path: Path) -> tuple[int | None, int]:
    """The number of games a journal's tournament was started with (None when its first
    line is not an arena header) and the number of results it holds."""
    lines = _lines(path)
    try:
        total = int(json.loads(lines[0])["games"]) if lines else 0
    except (ValueError, KeyError, TypeError):
        return None, 0
    return total, max(0, len(lines) - 1)


def _journal_lines(settings: dict[str, Any], games: int,
                   results: Iterable[Result]) -> str:
    head = json.dumps({"arena": settings, "games": games})
    return "".join(f"{line}\n" for line in [head, *(json.dumps(r) for r in results)])


def run_arena(console: Console, game: str, params: dict[str, Any], bots: Sequence[str],
              games: int, seed: int, workers: int, backend: str, address: str | None,
              out_dir: Path, max_decisions: int = 20_000,
              resume: bool = False, think: float | None = None) -> dict[str, Any]:
    """Play the tournament, write its files and print the summary; returns the report.

    Raises ``ArenaError`` when ``out_dir`` holds an interrupted tournament and ``resume``
    is false, or a journal that does not belong to this tournament."""
    tasks = make_tasks(game, params, bots, games, seed, max_decisions, think)
    settings = settings_of(game, params, bots, seed, max_decisions, think)
    journal = out_dir / JOURNAL
    kept: dict[int, Result] = {}
    if journal.exists():
        if resume:
            kept = load_journal(journal, settings, tasks)
        else:
            total, played = _peek(journal)
            if total is None:
                raise ArenaError(f"{journal} is not an arena journal; remove it or choose "
                                 "another --out")
            if played < total:
                raise ArenaError(f"{out_dir} holds an interrupted tournament ({played} of "
                                 f"{total} games); pass --resume to finish it, or choose "
                                 "another --out")
    out_dir.mkdir(parents=True, exist_ok=True)
    todo = [t for t in tasks if t["index"] not in kept]
    tmp = journal.with_suffix(".tmp")
    # games beyond --games stay in the journal (a later --resume may want them back)
    tmp.write_text(_journal_lines(settings, games, (kept[i] for i in sorted(kept))))
    tmp.replace(journal)
    results: list[Result] = [kept[t["index"]] for t in tasks if t["index"] in kept]
    if kept:
        console.print(f"resuming: {len(results)} of {games} games kept from {journal}",
                      markup=False, highlight=False, soft_wrap=True)
    lines = not console.is_terminal
    if lines:
        console.print(f"{game} arena ({backend}): {len(todo)} game(s) to play",
                      markup=False, highlight=False)
    start = time.perf_counter()
    with journal.open("a") as log, \
            Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                     MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                     transient=False, disable=lines) as progress:
        bar = progress.add_task(f"{game} arena ({backend})", total=len(tasks),
                                completed=len(results))

        def done(result: Result) -> None:
            results.append(result)
            log.write(json.dumps(result) + "\n")
            log.flush()
            progress.advance(bar)
            if lines:
                console.print(_game_line(result, len(results), len(tasks)), markup=False,
                              highlight=False, soft_wrap=True)

        if backend == "ray":
            _run_ray(todo, workers, address, done)
        else:
            _run_process(todo, workers, done)
    results.sort(key=lambda r: r["index"])
    summary = summarise(results, bots)
    report = {"game": game, "params": params, "bots": list(bots), "games": games,
              "seed": seed, "backend": backend, "workers": workers,
              "wall_s": round(time.perf_counter() - start, 2), "resumed": len(tasks) - len(todo),
              "seatings": [list(s) for s in seatings(bots, int(params["players"]))],
              "summary": summary, "results": results}
    (out_dir / "results.json").write_text(json.dumps(report, indent=1) + "\n")
    _write_csv(out_dir, results, summary)
    chart = _chart(out_dir / "chart.png", game, summary)
    _print(console, summary, out_dir, chart)
    return report


def _game_line(r: Result, n: int, total: int) -> str:
    """One line per finished game when the output is not a terminal."""
    who = " vs ".join(r["seats"])
    if not r["finished"]:
        return f"game {n}/{total} (#{r['index']}, seed {r['seed']}, {who}): unfinished " \
               f"after {r['decisions']} decisions"
    if len(r["seats"]) == 1:  # against the game's automaton
        won = "won" if r["winners"] else "lost"
    else:
        won = "won by " + (", ".join(r["seats"][w] for w in r["winners"]) or "nobody")
    scores = "-".join(str(x) for x in r["scores"])
    return (f"game {n}/{total} (#{r['index']}, seed {r['seed']}, {who}): {scores}, "
            f"{won}, {r['decisions']} decisions, {r['seconds']:.0f} s")


def _write_csv(out_dir: Path, results: Sequence[Result], summary: dict[str, Any]) -> None:
    with (out_dir / "games.csv").open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["game", "seed", "seat", "bot", "finished", "score", "rank", "win",
                         "decisions", "think_s"])
        for r in results:
            for seat, kind in enumerate(r["seats"]):
                won = seat in r["winners"]
                writer.writerow([r["index"], r["seed"], seat, kind, r["finished"],
                                 r["scores"][seat] if r["scores"] else "",
                                 r["ranks"][seat] if r["ranks"] else "",
                                 1.0 / len(r["winners"]) if won else 0.0,
                                 r["decisions"], r["think_s"][seat]])
    with (out_dir / "summary.csv").open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["bot", "games", "wins", "win_rate", "ci95_low", "ci95_high",
                         "mean_score", "mean_rank", "rating", "s_per_decision"])
        for kind, row in summary["bots"].items():
            writer.writerow([kind, row["games"], row["wins"], f"{row['win_rate']:.4f}",
                             f"{row['ci95'][0]:.4f}", f"{row['ci95'][1]:.4f}",
                             row["mean_score"], row["mean_rank"], f"{row['rating']:.1f}",
                             f"{row['s_per_decision']:.4f}"])


def _chart(path: Path, game: str, summary: dict[str, Any]) -> Path | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    names = list(summary["bots"])
    rates = [summary["bots"][k]["win_rate"] for k in names]
    # Error bars are distances from the rate, never negative (a rate of 0 or 1 included).
    lows = [max(0.0, r - summary["bots"][k]["ci95"][0])
            for k, r in zip(names, rates, strict=True)]
    highs = [max(0.0, summary["bots"][k]["ci95"][1] - r)
             for k, r in zip(names, rates, strict=True)]
    rated = list(summary["ratings"])
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    ax1.bar(names, rates, yerr=[lows, highs], capsize=4, color="tab:blue")
    ax1.set_ylim(0, 1)
    ax1.set_ylabel("win rate (95% Wilson interval)")
    ax1.set_title(f"{game}: win rates")
    ax2.bar(rated, [summary["ratings"][k] for k in rated], color="tab:orange")
    ax2.set_ylabel("Bradley-Terry rating (Elo scale)")
    ax2.set_title("ratings")
    for ax in (ax1, ax2):
        ax.tick_params(axis="x", labelrotation=30)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _print(console: Console, summary: dict[str, Any], out_dir: Path,
           chart: Path | None) -> None:
    table = Table(title="Arena results")
    for column in ("bot", "games", "wins", "win rate", "95% CI", "mean score", "mean rank",
                   "rating", "s/decision"):
        table.add_column(column)
    for kind, row in summary["bots"].items():
        table.add_row(kind, str(row["games"]), f"{row['wins']:g}", f"{row['win_rate']:.1%}",
                      f"{row['ci95'][0]:.1%}-{row['ci95'][1]:.1%}",
                      "-" if row["mean_score"] is None else f"{row['mean_score']:.1f}",
                      "-" if row["mean_rank"] is None else f"{row['mean_rank']:.2f}",
                      f"{row['rating']:.0f}", f"{row['s_per_decision']:.3f}")
    console.print(table)
    for kind, row in summary["bots"].items():
        console.print(f"win rate {kind}: {row['win_rate']:.3f} "
                      f"(95% CI {row['ci95'][0]:.3f}-{row['ci95'][1]:.3f}, "
                      f"{row['games']} games)", markup=False, highlight=False)
    others = [k for k in summary["ratings"] if k not in summary["bots"]]
    for kind in others:
        console.print(f"rating {kind}: {summary['ratings'][kind]:.0f}", markup=False,
                      highlight=False)
    if summary["unfinished"]:
        console.print(f"unfinished games: {summary['unfinished']}", markup=False)
    files = "results.json, games.csv, summary.csv" + (", chart.png" if chart else
                                                        " (no chart: matplotlib missing)")
    console.print(f"wrote {files} to {out_dir}", markup=False, highlight=False,
                  soft_wrap=True)
