"""``meeplehall replay``: step through a saved game record.

States are rebuilt with the checked ``apply`` one move at a time and cached, so going
back and jumping are cheap. A move that does not replay stops the record there with a
message naming it; the moves before it can still be viewed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console

from meeplehall.cli.render import action_label, render_board, render_outcome, say, side_name
from meeplehall.core.protocol import Game, IllegalActionError
from meeplehall.core.record import GameRecord, RecordError, lookup_game, replay

HELP = ("Enter: next move, b: back one move, a number k: jump to after move k, "
        "q: quit")


class Replayer:
    """The states of one record, built lazily."""

    def __init__(self, record: GameRecord, game: Game) -> None:
        self.record = record
        self.game = game
        self.states: list[Any] = [replay(record, game, upto=0)]
        self.error: str | None = None

    @property
    def total(self) -> int:
        return len(self.record.actions)

    def state_at(self, k: int) -> Any:
        """The state after ``k`` moves (clamped to the moves that replay)."""
        while len(self.states) <= k and self.error is None:
            i = len(self.states)  # 1-based number of the move to apply
            player, text = self.record.actions[i - 1]
            state = self.states[-1]
            current = self.game.current_player(state)
            try:
                if player is not None and current != player:
                    raise RecordError(f"it was logged for seat {player}, but seat {current} "
                                      "is to move")
                self.states.append(self.game.apply(state, self.game.parse_action(text)))
            except (IllegalActionError, ValueError) as exc:
                self.error = f"move {i} ({text!r}) does not replay: {exc}"
        return self.states[min(k, len(self.states) - 1)]

    @property
    def playable(self) -> int:
        """How many moves are known to replay (all once the record was walked)."""
        return len(self.states) - 1


def show(console: Console, rep: Replayer, k: int, seat: int | None) -> None:
    """Draw the table after ``k`` moves, with the move that led there and the next one."""
    game = rep.game
    state = rep.state_at(k)
    k = min(k, rep.playable)
    render_board(console, game, state, seat, full=True)
    if k > 0:
        player, text = rep.record.actions[k - 1]
        before = rep.states[k - 1]
        who = side_name(game, before, player) if player is not None else "chance"
        label = action_label(game, before, game.parse_action(text))
        say(console, f"Move {k}/{rep.total}: {who}: {label}")
    else:
        console.print(f"Start of the game ({rep.total} moves recorded)")
    if k < rep.total and rep.error is None:
        player, text = rep.record.actions[k]
        who = side_name(game, state, player) if player is not None else "chance"
        say(console, f"Next: {who}: {text}")
    if rep.error is not None and k == rep.playable:
        say(console, f"Stopped: {rep.error}")
    outcome = game.outcome(state)
    if outcome is not None:
        render_outcome(console, game, state, outcome, _seats(rep.record))


def _seats(record: GameRecord) -> list[str] | None:
    seats = record.meta.get("seats")
    return [str(s) for s in seats] if isinstance(seats, list) else None


def load_replayer(console: Console, path: str) -> Replayer | None:
    try:
        record = GameRecord.load(path)
        game = lookup_game(record.game)
        return Replayer(record, game)
    except RecordError as exc:
        say(console, f"Cannot replay {path}: {exc}")
        return None


def run_replay(console: Console, path: str, to: int | None, print_only: bool,
               seat: int | None, input_fn: Callable[[str], str]) -> int:
    """Print the state after ``to`` moves, or step through the record interactively."""
    rep = load_replayer(console, path)
    if rep is None:
        return 1
    players = rep.game.num_players(rep.states[0])
    if seat is not None and not 0 <= seat < players:
        say(console, f"--seat must be between 0 and {players - 1} for this record")
        return 2
    if to is not None and not 0 <= to <= rep.total:
        say(console, f"--to must be between 0 and {rep.total} (the moves in {path})")
        return 2
    k = rep.total if to is None and print_only else (to or 0)
    if print_only:
        rep.state_at(k)
        show(console, rep, k, seat)
        return 1 if rep.error is not None and k > rep.playable else 0
    show(console, rep, k, seat)
    console.print(HELP, style="dim")
    while True:
        try:
            answer = input_fn("replay> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            return 0
        if answer in ("q", "quit", "exit"):
            return 0
        if answer == "":
            target = k + 1
        elif answer in ("b", "back"):
            target = k - 1
        elif answer.isdigit():
            target = int(answer)
        else:
            say(console, f"Unknown command {answer!r}. {HELP}")
            continue
        if not 0 <= target <= rep.total:
            console.print(f"No move {target}: the record has moves 0-{rep.total}.")
            continue
        rep.state_at(target)
        if target > rep.playable:
            say(console, f"Cannot go past move {rep.playable}: {rep.error}")
            target = rep.playable
        k = target
        show(console, rep, k, seat)
