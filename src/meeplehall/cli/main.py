"""The ``meeplehall`` command: play, simulate, replay, bench, arena and train.

``meeplehall`` with no arguments starts ``meeplehall play red-cathedral`` with its
defaults. Games are looked up in the registry (``meeplehall.games.GAMES``) and their
options are checked by the game's own ``Option`` list, so a new game needs no CLI code
beyond an optional board renderer (``cli/render.py``).
"""

from __future__ import annotations

import argparse
import math
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console

from meeplehall.ai import BOTS
from meeplehall.ai.expert import DEFAULT_THINK
from meeplehall.ai.ladder import check_kind
from meeplehall.cli.render import say
from meeplehall.core.protocol import Game, validate_params
from meeplehall.core.rng import check_seed, new_seed

DEFAULT_GAME = "red-cathedral"
COMMANDS = ("play", "simulate", "replay", "bench", "arena", "train")
HUMAN = "human"


class UsageError(Exception):
    """A bad command line; the message says what is wrong."""


def _games() -> dict[str, Game]:
    from meeplehall.games import GAMES

    return GAMES


def find_game(name: str) -> Game:
    games = _games()
    if name not in games:
        raise UsageError(f"unknown game {name!r}; games are: {', '.join(sorted(games))}")
    return games[name]


def parse_options(game: Game, items: Sequence[str], advanced: bool = False,
                  players: int | None = None) -> dict[str, Any]:
    """Turn ``key=value`` strings into validated params for ``game``."""
    raw: dict[str, Any] = {}
    by_name = {o.name: o for o in game.options}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise UsageError(f"--option needs key=value, got {item!r}")
        option = by_name.get(key)
        if option is not None and option.kind == "choice":
            # Choices may be ints or strings: match on the text form.
            value = next((c for c in option.choices if str(c) == value.strip()), value)
        elif isinstance(value, str):
            value = value.strip()
        raw[key] = value
    if advanced:
        if "advanced_workshops" not in by_name:
            raise UsageError(f"{game.name} has no advanced_workshops option")
        raw["advanced_workshops"] = True
    if players is not None:
        raw["players"] = players
    try:
        return validate_params(game.options, raw)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _csv(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _bot_kinds(text: str) -> list[str]:
    """``--bots`` as a list of registered bot kinds (at least one)."""
    bots = [b.lower() for b in _csv(text)]
    if not bots:
        raise UsageError("--bots needs at least one bot kind")
    for kind in bots:
        try:
            check_kind(kind)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    return bots


def _think(value: float | None) -> float | None:
    """``--think`` checked: a positive number of seconds, or None."""
    if value is not None and not (value > 0 and math.isfinite(value)):
        raise UsageError(f"--think must be a positive number of seconds, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="meeplehall",
        description="Play, simulate, replay and benchmark board games in the terminal. "
                    "With no command: play The Red Cathedral against the greedy bot.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def game_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("game", nargs="?", default=DEFAULT_GAME,
                       help=f"game name (default {DEFAULT_GAME})")
        p.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                       help="set a game option (repeatable), e.g. -o ruble_limit=40")
        p.add_argument("--advanced", action="store_true",
                       help="shortcut for --option advanced_workshops=true")
        p.add_argument("--list-options", action="store_true",
                       help="list the game's options and exit")

    play = sub.add_parser("play", help="play in the terminal against bots or friends",
                          epilog=_options_epilog(),
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    game_args(play)
    play.add_argument("--players", "-p", type=int, default=None,
                      help="number of players (default 2)")
    play.add_argument("--seats", default=None,
                      help="comma-separated seat list: human or a bot kind "
                           f"({', '.join(BOTS)}); default human,greedy,... "
                           "(solo: human, against the game's automaton)")
    play.add_argument("--seed", type=int, default=None, help="game seed (default: random)")
    play.add_argument("--think", type=float, default=None, metavar="SECONDS",
                      help=f"the expert bots' think time per decision "
                           f"(default {DEFAULT_THINK:g})")
    play.add_argument("--board", choices=("turn", "always"), default="turn",
                      help="draw the table at each turn (default) or each decision")
    play.add_argument("--full-board", action="store_true",
                      help="draw every detail of the table (default: a compact table of "
                           "about 40-50 lines; type 'board full' for the whole one)")

    sim = sub.add_parser("simulate", help="bot-against-bot games with statistics")
    game_args(sim)
    sim.add_argument("--games", "-n", type=int, default=10, help="number of games")
    sim.add_argument("--players", "-p", type=int, default=None,
                     help="number of players (default 2)")
    sim.add_argument("--bots", default="greedy,random",
                     help="comma-separated bot kinds, rotated over the seats")
    sim.add_argument("--seed", type=int, default=0, help="seed of the first game")
    sim.add_argument("--max-decisions", type=int, default=20_000,
                     help="stop a game unfinished after this many decisions")
    sim.add_argument("--json", metavar="FILE", default=None, help="write results as JSON")

    rep = sub.add_parser("replay", help="step through a saved game record")
    rep.add_argument("file", help="a game record (JSON) saved by 'play'")
    rep.add_argument("--to", type=int, default=None, metavar="K",
                     help="start at (or with --print, show) the state after K moves")
    rep.add_argument("--print", action="store_true", dest="print_only",
                     help="print the state (after --to K moves, default all) and exit")
    rep.add_argument("--seat", type=int, default=None,
                     help="show the table as this seat sees it (default: spectator)")

    rev = sub.add_parser("review", help="a finished game's review: chances of winning, "
                                        "each person's costliest moves")
    rev.add_argument("file", help="a finished game's record (JSON)")
    rev.add_argument("--seat", type=int, action="append", default=None,
                     help="review this seat (repeatable; default: every seat)")
    rev.add_argument("--bot", default="expert@16",
                     help="the bot asked for the better move (default expert@16)")
    rev.add_argument("--seed", type=int, default=0, help="the bot's seed (default 0)")
    rev.add_argument("--json", action="store_true", help="print the review as JSON")

    bench = sub.add_parser("bench", help="random-playout speed of the rules engine")
    game_args(bench)
    bench.add_argument("--seconds", type=float, default=2.0,
                       help="time budget per player count (default 2)")
    bench.add_argument("--players", default=None,
                       help="comma-separated player counts (default: all)")
    bench.add_argument("--mcts", action="store_true",
                       help="also print MCTS iterations per second for each player count")

    arena = sub.add_parser("arena", help="bot tournaments: win rates, ratings, chart")
    game_args(arena)
    arena.add_argument("--players", "-p", type=int, default=None,
                       help="number of players (default 2)")
    arena.add_argument("--bots", default="mcts-medium,greedy",
                       help="comma-separated bot kinds, rotated over the seats "
                            f"({', '.join(BOTS)})")
    arena.add_argument("--think", type=float, default=None, metavar="SECONDS",
                       help=f"the expert bots' think time per decision (default "
                            f"{DEFAULT_THINK:g}; expert@N plays N iterations instead)")
    arena.add_argument("--games", "-n", type=int, default=10, help="number of games")
    arena.add_argument("--seed", type=int, default=0, help="seed of the first game")
    arena.add_argument("--workers", "-w", type=int, default=None,
                       help="parallel games (default: the number of CPUs)")
    arena.add_argument("--backend", choices=("process", "ray"), default="process",
                       help="worker processes on this machine (default) or Ray tasks")
    arena.add_argument("--address", default=None,
                       help="Ray cluster address (default: start a local cluster)")
    arena.add_argument("--out", default=None, metavar="DIR",
                       help="folder for results.json, games.csv, summary.csv, chart.png "
                            "(default arena-GAME-pPLAYERS-sSEED)")
    arena.add_argument("--max-decisions", type=int, default=20_000,
                       help="stop a game unfinished after this many decisions")
    arena.add_argument("--resume", action="store_true",
                       help="keep the games already in DIR/games.jsonl and play only the "
                            "missing ones (also extends a finished tournament to --games)")

    from meeplehall.server.cli import add_server_commands

    sub.add_parser("train", add_help=False,
                   help="train the learned value and policy of a game (needs the [train] "
                        "extra; `meeplehall train --help`)")
    add_server_commands(sub)  # `serve`; `bench server` is dispatched in main()
    return parser


def _options_epilog() -> str:
    """The options of every registered game, for ``play --help``."""
    lines = []
    for name, game in sorted(_games().items()):
        lines.append(f"options of {name} (--option NAME=VALUE):")
        for opt in game.options:
            choices = f"; one of {', '.join(map(str, opt.choices))}" if opt.choices else ""
            lines.append(f"  {opt.name} (default {opt.default!r}{choices})")
            lines.extend(f"      {line}" for line in textwrap.wrap(opt.help, 70))
    return "\n".join(lines)


def _list_options(console: Console, game: Game) -> int:
    for opt in game.options:
        choices = f" (one of {', '.join(map(str, opt.choices))})" if opt.choices else ""
        say(console, f"{opt.name} = {opt.default!r}{choices}: {opt.help}")
    return 0


def _resolve_seats(game: Game, params: dict[str, Any], seats_text: str | None) -> list[str]:
    players = int(params["players"])
    if seats_text is None:
        return [HUMAN] + ["greedy"] * (players - 1)
    seats = [s.lower() for s in _csv(seats_text)]
    if len(seats) != players:
        raise UsageError(f"--seats lists {len(seats)} seat(s) but the game has {players} "
                         f"player(s); give exactly {players}")
    for kind in seats:
        if kind == HUMAN:
            continue
        try:
            check_kind(kind)
        except ValueError:
            raise UsageError(f"unknown seat {kind!r}; seats are: human, {', '.join(BOTS)}, "
                             "expert@N") from None
    return seats


def cmd_play(args: argparse.Namespace, console: Console, input_fn: Callable[[str], str]) -> int:
    from meeplehall.cli.play import PlaySession

    game = find_game(args.game)
    if args.list_options:
        return _list_options(console, game)
    params = parse_options(game, args.option, args.advanced, args.players)
    seats = _resolve_seats(game, params, args.seats)
    if args.seed is not None:
        try:
            seed = check_seed(args.seed)
        except ValueError as exc:
            raise UsageError(f"--seed: {exc}") from None
    else:
        seed = new_seed()
    # The seed is shown when the game ends: with it, every face-down stack is known.
    say(console, f"{game.title or game.name}: {params['players']} player(s), "
                 f"seats {', '.join(seats)}, seed "
                 f"{'given' if args.seed is not None else 'random'} (shown at the end). "
                 "Type 'help' for commands.")
    session = PlaySession(game, params, seed, seats, console, input_fn, board=args.board,
                          full_board=args.full_board, think=_think(args.think))
    return session.run()


def _check_seeds(first: int, games: int) -> None:
    """The seeds ``first .. first + games - 1`` of a batch: each a seed every client reads
    exactly (``core.rng.check_seed``)."""
    for seed in (first, first + games - 1):
        try:
            check_seed(seed)
        except ValueError as exc:
            raise UsageError(f"--seed: {exc}") from None


def cmd_simulate(args: argparse.Namespace, console: Console) -> int:
    from meeplehall.cli.simulate import simulate

    game = find_game(args.game)
    if args.list_options:
        return _list_options(console, game)
    params = parse_options(game, args.option, args.advanced, args.players)
    bots = _bot_kinds(args.bots)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.max_decisions < 1:
        raise UsageError("--max-decisions must be at least 1")
    _check_seeds(args.seed, args.games)
    say(console, f"{game.name}: {args.games} game(s), {params['players']} player(s), "
                 f"bots {', '.join(bots)} (rotating seats), seeds {args.seed}.."
                 f"{args.seed + args.games - 1}")
    try:
        simulate(console, game, params, bots, args.games, args.seed, args.max_decisions,
                 args.json)
    except OSError as exc:
        raise UsageError(f"cannot write {args.json}: {exc.strerror or exc}") from None
    return 0


def cmd_replay(args: argparse.Namespace, console: Console,
               input_fn: Callable[[str], str]) -> int:
    from meeplehall.cli.replay import run_replay

    return run_replay(console, args.file, args.to, args.print_only, args.seat, input_fn)


def player_range(game: Game) -> tuple[int, int]:
    """The smallest and largest player counts: the game's ``min_players`` and
    ``max_players`` (by default the bounds of its ``players`` option)."""
    return game.min_players, game.max_players


def cmd_bench(args: argparse.Namespace, console: Console) -> int:
    from meeplehall.cli.bench import run_bench

    game = find_game(args.game)
    if args.list_options:
        return _list_options(console, game)
    params = parse_options(game, args.option, args.advanced)
    if args.players is None:
        low, high = player_range(game)
        counts = list(range(low, high + 1))
    else:
        try:
            counts = [int(p) for p in _csv(args.players)]
        except ValueError:
            raise UsageError(f"--players needs comma-separated numbers, got "
                             f"{args.players!r}") from None
    if args.seconds <= 0:
        raise UsageError("--seconds must be positive")
    try:
        run_bench(console, game, params, counts, args.seconds, mcts=args.mcts)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return 0


def cmd_arena(args: argparse.Namespace, console: Console) -> int:
    import os
    from pathlib import Path

    from meeplehall.cli.arena import ArenaError, run_arena

    game = find_game(args.game)
    if args.list_options:
        return _list_options(console, game)
    params = parse_options(game, args.option, args.advanced, args.players)
    bots = _bot_kinds(args.bots)
    think = _think(args.think)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    _check_seeds(args.seed, args.games)
    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    if workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.address and args.backend != "ray":
        raise UsageError("--address needs --backend ray")
    if args.backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise UsageError("--backend ray needs Ray: python3 -m pip install -e '.[ai]'"
                             ) from None
    out = Path(args.out or f"arena-{game.name}-p{params['players']}-s{args.seed}")
    say(console, f"{game.name}: {args.games} game(s), {params['players']} player(s), "
                 f"bots {', '.join(bots)} (all seatings), seed {args.seed}, "
                 f"{args.backend} backend, {workers} worker(s)")
    try:
        run_arena(console, game.name, params, bots, args.games, args.seed, workers,
                  args.backend, args.address, out, args.max_decisions, resume=args.resume,
                  think=think)
    except ArenaError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot write to {out}: {exc.strerror or exc}") from None
    return 0


def bench_rl_main(argv: Sequence[str], console: Console) -> int:
    """``meeplehall bench rl GAME``: steps per second of the research environment."""
    parser = argparse.ArgumentParser(
        prog="meeplehall bench rl",
        description="Steps per second of the PettingZoo environment (action masks and "
                    "observation vectors included), or of the vector environment with "
                    "--num-envs, beside the engine's own decisions per second measured "
                    "in the same run; needs the rl extra.")
    parser.add_argument("game", choices=sorted(_games()))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--num-envs", type=int, default=0, metavar="N",
                        help="bench the vector environment with N games per step call")
    parser.add_argument("--workers", type=int, default=1, metavar="K",
                        help="with --num-envs: step the games in K worker processes")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option (repeatable)")
    args = parser.parse_args(list(argv))
    try:
        from meeplehall.rl.bench import bench_env, bench_vector
    except ImportError as exc:
        console.print(f"error: the rl extra is not installed ({exc}); "
                      'install it with: python3 -m pip install -e ".[rl]"')
        return 2
    try:
        options = parse_options(find_game(args.game), args.option, players=args.players)
        players = options.pop("players")
        if args.num_envs:
            report = bench_vector(args.game, args.num_envs, players=players,
                                  seconds=args.seconds, workers=args.workers, **options)
        else:
            report = bench_env(args.game, players=players, seconds=args.seconds, **options)
    except (UsageError, ValueError) as exc:
        console.print(f"error: {exc}")
        return 2
    for key, value in report.items():
        console.print(f"{key}={value}")
    return 0


def main(argv: Sequence[str] | None = None, *, console: Console | None = None,
         input_fn: Callable[[str], str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Args:
        argv: arguments without the program name (default ``sys.argv[1:]``).
        console: where to print (default: the terminal); errors go there too.
        input_fn: reads a line for interactive commands (default: ``console.input``).
    """
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:2] == ["bench", "server"]:
        from meeplehall.server.cli import bench_server_main

        return bench_server_main(args_list[2:])
    if args_list[:2] == ["bench", "rl"]:
        return bench_rl_main(args_list[2:], console or Console())
    if args_list[:1] == ["train"]:
        from tools.train import main as train_main

        return train_main(args_list[1:])
    if not args_list or (args_list[0].startswith("-") and args_list[0] not in ("-h", "--help")):
        args_list = ["play", *args_list]
    out = console or Console()
    err = console or Console(stderr=True)
    read = input_fn or (lambda prompt: out.input(prompt))
    parser = build_parser()
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse has printed its message
        return exc.code if isinstance(exc.code, int) else 2
    try:
        if args.command == "play":
            return cmd_play(args, out, read)
        if args.command == "simulate":
            return cmd_simulate(args, out)
        if args.command == "replay":
            return cmd_replay(args, out, read)
        if args.command == "review":
            from meeplehall.cli.review import run_review

            return run_review(out, args.file, args.seat, args.bot, args.seed, args.json)
        if args.command == "bench":
            return cmd_bench(args, out)
        if args.command == "arena":
            return cmd_arena(args, out)
        if getattr(args, "server_command", None) is not None:  # `serve`
            try:
                result: int = args.server_command(args)
            except ImportError as exc:
                raise UsageError(f"the server needs its extra packages ({exc.name} is "
                                 "missing): python3 -m pip install -e '.[server]'") from None
            return result
        parser.print_help()
        return 2
    except UsageError as exc:
        say(err, f"meeplehall: error: {exc}")
        return 2
    except KeyboardInterrupt:
        err.print("\ninterrupted")
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
