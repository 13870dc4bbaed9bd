"""The interactive terminal game: humans and bots around one table.

``PlaySession`` owns the state, the game record and the undo stack. It reads input
through an ``input_fn`` and prints to a ``rich`` console, so tests script a whole game
with a list of answers and read the console's output.

Undo takes back one of your own decisions at a time, but never past an *undo barrier*:
an action that showed some seat something hidden (``Game.reveals``: dice rolled, tiles or
cards drawn, Ivan's turn) or after which another seat acted.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from meeplehall.ai import analyse, make_bot
from meeplehall.ai.base import Bot
from meeplehall.ai.greedy import GreedyBot
from meeplehall.ai.ladder import check_kind
from meeplehall.cli.render import (
    COLOUR_STYLES,
    action_label,
    format_log,
    render_board,
    render_outcome,
    render_status,
    say,
    side_name,
)
from meeplehall.core.messages import message_json
from meeplehall.core.protocol import Game, IllegalActionError
from meeplehall.core.record import GameRecord, RecordError, replay

HUMAN = "human"
HINT_EXPERT = "expert@32"  # the expert search's budget for a hint (iterations)
InputFn = Callable[[str], str]

HELP = """Commands:
  <number>        choose that option from the list (an option keeps its number while
                  the same decision goes on, e.g. between the free steps of a turn)
  <action text>   type an action in its text form, e.g. 'move-die white +0'
  <Enter>         take the only choice when there is exactly one
  undo            take back your last decision (not past draws, dice or others' moves)
  save FILE       save the game record (JSON) to FILE
  load FILE       load a game record from FILE and continue from it
  hint [BOT]      what a bot would do here, best 3: the greedy bot (default) with its
                  evaluation, or e.g. 'hint mcts' (mcts-hard) with its visit shares;
                  'hint expert': a short expert search, saying how sure it is
  rules           the rules that apply to the current decision
  board [full]    draw the table again (compact; 'board full': every detail)
  help            this text
  quit            leave the game (save first if you want to continue later)"""


@dataclass
class _Snapshot:
    state: Any
    record_len: int
    seat: int


class PlaySession:
    """One game in the terminal.

    Args:
        game: the game object from the registry.
        params: validated parameters for ``initial_state``.
        seed: the game seed (recorded in saves).
        seats: per seat, ``"human"`` or a bot kind from ``meeplehall.ai.BOTS``.
        console: where everything is printed.
        input_fn: reads one line of input given a prompt; ``EOFError`` ends the game.
        bot_seed: seeds the bots and the hint bot (derived from ``seed`` by default).
        board: ``"turn"`` draws the table at the start of each of your turns and
            after others moved; ``"always"`` before every decision.
        full_board: draw every detail of the table instead of the compact table
            (about 40-50 lines at 120 columns).
        think: the expert bots' seconds per decision (None: the level's default).
    """

    def __init__(self, game: Game, params: dict[str, Any], seed: int, seats: Sequence[str],
                 console: Console, input_fn: InputFn, bot_seed: int | None = None,
                 board: str = "turn", full_board: bool = False,
                 think: float | None = None) -> None:
        self.game = game
        self.think = think
        self.console = console
        self.input_fn = input_fn
        self.board = board
        self.full_board = full_board
        self.seats = list(seats)
        self.bot_seed = seed if bot_seed is None else bot_seed
        self.state = game.initial_state(params, seed)
        if game.num_players(self.state) != len(self.seats):
            raise ValueError(f"{len(self.seats)} seat(s) given for a "
                             f"{game.num_players(self.state)}-player game")
        self.record = GameRecord(game.name, game.rules_version, dict(params), seed,
                                 meta={"seats": list(self.seats)})
        self.bots: dict[int, Bot] = self._make_bots()
        self.hinter = GreedyBot(self.bot_seed ^ 0x4849)
        self.undo_stack: list[_Snapshot] = []
        self.need_board = True
        self.log_seen = 0
        self.last_prompt_seat: int | None = None
        # The menu's numbers: kept for an action while the same seat faces the same
        # decision (its prompt, arguments included); new actions get new numbers.
        self.menu: dict[Any, int] = {}
        self.menu_decision: tuple[int, str] | None = None

    # --- setup ------------------------------------------------------------------------
    def _make_bots(self) -> dict[int, Bot]:
        return {seat: make_bot(kind, self.bot_seed * 16 + seat, self.think)
                for seat, kind in enumerate(self.seats) if kind != HUMAN}

    def say(self, text: str) -> None:
        say(self.console, text)

    def seat_label(self, seat: int) -> Text:
        text = Text()
        name = side_name(self.game, self.state, seat)
        text.append(name, style=COLOUR_STYLES.get(name, ""))
        text.append(f" (seat {seat + 1}, {self.seats[seat]})")
        return text

    # --- main loop --------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game ends or the user quits; returns an exit status."""
        while True:
            seat = self.game.current_player(self.state)
            if seat is None:
                self.show_end()
                return 0
            if self.seats[seat] != HUMAN:
                self.bot_move(seat)
                continue
            if not self.human_turn(seat):
                return 0

    def show_end(self) -> None:
        render_board(self.console, self.game, self.state, None, full=True)
        outcome = self.game.outcome(self.state)
        self.console.rule("Game over")
        if outcome is not None:
            render_outcome(self.console, self.game, self.state, outcome, self.seats)
        seed = self.record.seed
        self.say(f"Seed {seed}: play this table again with --seed {seed}.")

    def apply(self, seat: int, action: Any) -> None:
        """Apply a legal action for ``seat``, recording it and maintaining undo barriers."""
        before = self.state
        after = self.game.apply(before, action)
        if self.undo_stack and self.undo_stack[-1].seat != seat:
            self.undo_stack.clear()  # another seat moved: a barrier
        if self.seats[seat] == HUMAN and not self.game.reveals(before, action, after):
            self.undo_stack.append(_Snapshot(before, len(self.record.actions), seat))
        else:
            # Something hidden was shown (dice, draws, Ivan's turn) or a bot moved: a
            # barrier (the same rule as the server's: Game.reveals).
            self.undo_stack.clear()
            self.need_board = True
        self.record.append(seat, action)
        self.state = after

    def bot_move(self, seat: int) -> None:
        legal = self.game.legal_actions(self.state)
        view = self.game.player_view(self.state, seat)
        action = self.bots[seat].choose(self.game, view, legal)
        line = self.seat_label(seat)
        line.append(": " + action_label(self.game, self.state, action))
        self.console.print(line)
        self.apply(seat, action)

    def human_turn(self, seat: int) -> bool:
        """Ask ``seat`` until one action is applied; False when the user quits."""
        legal = self.game.legal_actions(self.state)
        self.show_decision(seat, legal)
        while True:
            try:
                answer = self.input_fn(f"{side_name(self.game, self.state, seat)}> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.say("\nInput closed: leaving the game.")
                return False
            result = self.handle(seat, answer, legal)
            if result == "quit":
                self.say("Game left. (Use 'save FILE' before 'quit' to keep it.)")
                return False
            if result in ("moved", "changed"):  # changed: undo or load, a new decision
                return True

    def show_decision(self, seat: int, legal: tuple[Any, ...]) -> None:
        if self.need_board or self.board == "always" or seat != self.last_prompt_seat:
            render_board(self.console, self.game, self.state, seat, self.full_board)
            self.need_board = False
        else:
            new = format_log(self.game, self.state, seat, self._new_log())
            if new:
                self.say("\n".join(f"  * {line}" for line in new))
            render_status(self.console, self.game, self.state, seat)
        self.log_seen = len(getattr(self.state, "log", ()))
        self.last_prompt_seat = seat
        header = Text(f"[seat {seat + 1}, {self.seats[seat]}] ", style="dim")
        header.append(self.game.describe_decision(self.state), style="bold")
        self.console.print(header)
        choices = "\n".join(f"  {i:>2}. {action_label(self.game, self.state, action)}"
                            for i, action in self.numbered(seat, legal))
        self.say(choices)
        self.console.print("Type a number, an action, or 'help'.", style="dim")

    def numbered(self, seat: int, legal: tuple[Any, ...]) -> list[tuple[int, Any]]:
        """The menu: ``legal`` with their numbers, in order. While ``seat`` faces the same
        decision (same prompt and arguments), an action keeps the number it was shown
        with and a number that was shown is never given to another action, so a number
        read from an earlier list picks the same action or none."""
        decision = (seat, json.dumps(message_json(self.game.decision_message(self.state)),
                                     sort_keys=True))
        if decision != self.menu_decision:
            self.menu_decision = decision
            self.menu = {}
        top = max(self.menu.values(), default=0)
        for action in legal:
            if action not in self.menu:
                top += 1
                self.menu[action] = top
        live = set(legal)
        return sorted(((n, a) for a, n in self.menu.items() if a in live),
                      key=lambda pair: pair[0])

    def _new_log(self) -> list[str]:
        log = list(getattr(self.state, "log", ()))
        return log[self.log_seen:] if self.log_seen <= len(log) else log

    # --- input ------------------------------------------------------------------------
    def handle(self, seat: int, answer: str, legal: tuple[Any, ...]) -> str:
        """Act on one line of input: 'moved', 'changed', 'quit' or 'again'."""
        if not answer:
            if len(legal) == 1:
                self.apply(seat, legal[0])
                return "moved"
            self.say("Please choose a number from the list, type an action, or 'help'.")
            return "again"
        if answer.isdigit():
            k = int(answer)
            menu = dict(self.numbered(seat, legal))
            if k not in menu:
                shown = ", ".join(str(n) for n in menu)
                gone = any(n == k for n in self.menu.values())
                self.say(f"Choice {k} {'is no longer available' if gone else 'does not exist'}"
                         f": choose one of {shown}.")
                return "again"
            self.apply(seat, menu[k])
            return "moved"
        word, _, rest = answer.partition(" ")
        word = word.lower()
        rest = rest.strip()
        commands: dict[str, Callable[[str], str]] = {
            "undo": lambda _: self.cmd_undo(seat),
            "save": self.cmd_save,
            "load": self.cmd_load,
            "hint": lambda rest: self.cmd_hint(seat, legal, rest),
            "rules": lambda _: self.cmd_rules(),
            "board": lambda rest: self.cmd_board(seat, rest),
            "help": lambda _: self.cmd_help(),
            "quit": lambda _: "quit",
            "exit": lambda _: "quit",
        }
        if word in commands:
            return commands[word](rest)
        try:
            action = self.game.parse_action(answer)
        except (IllegalActionError, ValueError) as exc:
            self.say(f"Unknown command or action: {exc} (type 'help' for commands)")
            return "again"
        if action not in legal:
            try:
                self.game.apply(self.state, action)  # only for its explanation
            except IllegalActionError as exc:
                self.say(str(exc))
                return "again"
        self.apply(seat, action)
        return "moved"

    def cmd_undo(self, seat: int) -> str:
        if not self.undo_stack or self.undo_stack[-1].seat != seat:
            self.say("Nothing to undo: something hidden was shown (dice rolled, tiles or "
                     "cards drawn) or another seat moved since your last decision.")
            return "again"
        snap = self.undo_stack.pop()
        self.state = snap.state
        del self.record.actions[snap.record_len:]
        self.log_seen = min(self.log_seen, len(getattr(self.state, "log", ())))
        self.need_board = True
        self.say(f"Undone. {len(self.undo_stack)} more step(s) can be undone.")
        return "changed"

    def cmd_save(self, path: str) -> str:
        if not path:
            self.say("Usage: save FILE")
            return "again"
        target = Path(path)
        if target.is_dir():
            self.say(f"Cannot save: {path} is a directory.")
            return "again"
        try:
            self.record.save(target)
        except OSError as exc:
            self.say(f"Cannot save to {path}: {exc.strerror or exc}")
            return "again"
        self.say(f"Saved {len(self.record.actions)} moves to {path}.")
        return "again"

    def cmd_load(self, path: str) -> str:
        if not path:
            self.say("Usage: load FILE")
            return "again"
        try:
            record = GameRecord.load(path)
            state = replay(record, self.game, expect_game=self.game.name)
        except RecordError as exc:
            self.say(f"Cannot load {path}: {exc}. The current game goes on.")
            return "again"
        players = self.game.num_players(state)
        if players != len(self.seats):
            saved = record.meta.get("seats")
            seats = ([str(s) for s in saved] if isinstance(saved, list) and len(saved) == players
                     and all(s == HUMAN or _is_bot(s) for s in saved)
                     else [HUMAN] + ["greedy"] * (players - 1))
            self.seats = seats
            self.bots = self._make_bots()
            self.say(f"Seats now: {', '.join(self.seats)}")
        self.state = state
        self.record = GameRecord(record.game, record.rules_version, dict(record.params),
                                 record.seed, list(record.actions),
                                 dict(record.meta) | {"seats": list(self.seats)})
        self.undo_stack.clear()
        self.need_board = True
        self.log_seen = 0
        self.say(f"Loaded {path}: {len(record.actions)} moves replayed.")
        return "changed"

    def cmd_hint(self, seat: int, legal: tuple[Any, ...], kind: str = "") -> str:
        view = self.game.player_view(self.state, seat)
        index = {a: i for i, a in self.numbered(seat, legal)}
        kind = kind.strip().lower()
        if kind in ("mcts", "mcts-easy", "mcts-medium", "mcts-hard"):
            kind = "mcts-hard" if kind == "mcts" else kind
            rows = analyse(self.game, view, legal, kind, self.bot_seed ^ 0x4849)
            self.say(f"The {kind} bot would choose:")
            for action, share in rows[:3]:
                self.say(f"  {index[action]:>2}. {action_label(self.game, self.state, action)}"
                         f"  (visits {share:.0%})")
            return "again"
        if kind == "expert":
            rows = analyse(self.game, view, legal, HINT_EXPERT, self.bot_seed ^ 0x4849)
            self.say(f"The expert search ({HINT_EXPERT[len('expert@'):]} iterations) "
                     f"would choose, {_sureness(rows[0][1])}:")
            for action, share in rows[:3]:
                self.say(f"  {index[action]:>2}. {action_label(self.game, self.state, action)}"
                         f"  (visits {share:.0%})")
            return "again"
        if kind == "planner":
            rows = analyse(self.game, view, legal, kind, self.bot_seed ^ 0x4849)
            self.say("The planner bot would choose:")
            for action, value in rows[:3]:
                self.say(f"  {index[action]:>2}. {action_label(self.game, self.state, action)}"
                         f"  (turn value {value:.1f})")
            return "again"
        if kind not in ("", "greedy"):
            self.say("Usage: hint [greedy|planner|mcts|mcts-easy|mcts-medium|mcts-hard|expert]")
            return "again"
        ranked = self.hinter.rank(self.game, view, legal)
        self.say("The greedy bot would choose:")
        for score, action in ranked[:3]:
            self.say(f"  {index[action]:>2}. {action_label(self.game, self.state, action)}"
                     f"  (evaluation {score:.2f})")
        return "again"

    def cmd_rules(self) -> str:
        self.say(self.game.rules_text(self.state) or "No rules text for this game.")
        return "again"

    def cmd_board(self, seat: int, rest: str = "") -> str:
        if rest.lower() not in ("", "full"):
            self.say("Usage: board [full]")
            return "again"
        render_board(self.console, self.game, self.state, seat,
                     full=self.full_board or rest.lower() == "full")
        return "again"

    def cmd_help(self) -> str:
        self.say(HELP)
        return "again"


def _sureness(share: float) -> str:
    """How sure the expert search is of its best move, from that move's visit share."""
    word = "sure" if share >= 0.6 else "fairly sure" if share >= 0.35 else "unsure"
    return f"{word} ({share:.0%} of its visits on the best move)"


def _is_bot(kind: object) -> bool:
    if not isinstance(kind, str):
        return False
    try:
        check_kind(kind)
    except ValueError:
        return False
    return True
