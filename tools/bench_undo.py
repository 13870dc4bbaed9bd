"""What an undo's rebuild costs early and late in a game: the state before the last move
rebuilt from the nearest snapshot (as the server does) and from the first move.

    PYTHONPATH=src python -m tools.bench_undo [--moves 8 800] [--game red-cathedral]
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime
from typing import Any

from meeplehall.core.rng import Rng
from meeplehall.games import GAMES
from meeplehall.server.live_table import Built, Entry, Live, SeatInfo, replay_entries, step


def _game_of(game: Any, params: dict[str, Any], seed: int, count: int) -> tuple[Live, list[Entry]]:
    """A live table after ``count`` random moves (fewer if the game ends), installed one
    by one as the server does, so it holds its snapshots."""
    players = int(params.get("players", 2))
    live = Live(1, game, params, seed, "bench", datetime(2026, 1, 1, tzinfo=UTC),
                [SeatInfo(i, "human", "hash") for i in range(players)])
    state = game.initial_state(params, seed)
    live.install(Built(state, [], 0, [], []))
    rng = Rng.from_seed(seed)
    entries: list[Entry] = []
    for seq in range(1, count + 1):
        seat = game.current_player(state)
        if seat is None:
            break
        actions = game.legal_actions(state)
        state, text, reveal = step(game, state, seat, str(actions[rng.randbelow(len(actions))]))
        entries.append(Entry(seq, seat, text, reveal))
        live.install(Built(state, list(entries), seq, [], []))
    return live, entries


def _per_call(fn: Any, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="red-cathedral", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--moves", type=int, nargs="+", default=[8, 800])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    game = GAMES[args.game]
    params = {"players": args.players}
    live, entries = _game_of(game, params, args.seed, max(args.moves))
    print(f"{args.game}, {args.players} players, seed {args.seed}: "
          f"{len(entries)} moves played, {len(live.snapshots)} snapshots")
    for moves in args.moves:
        keep = entries[:max(0, min(moves, len(entries)) - 1)]
        snapshots = dict(live.snapshots)
        fast = _per_call(lambda k=keep, s=snapshots: replay_entries(
            game, params, args.seed, k, s), args.repeat)
        full = _per_call(lambda k=keep: replay_entries(game, params, args.seed, k),
                         max(1, args.repeat // 4))
        print(f"undo at move {len(keep) + 1:>4}: {fast * 1000:7.2f} ms from the nearest "
              f"snapshot, {full * 1000:8.2f} ms from the first move")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
