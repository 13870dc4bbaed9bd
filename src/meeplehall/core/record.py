"""Game records: header (game, rules version, params, seed) plus the action log.

A record replays to the identical state: ``initial_state(params, seed)`` followed by
``apply`` of each logged action (STYLE.md section 4). Saving is atomic, and a failed
load or save never changes what is on disk.
"""

from __future__ import annotations

import importlib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeplehall.core.protocol import Game, IllegalActionError

FORMAT = "meeplehall-record"
FORMAT_VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says what is wrong."""


@dataclass
class GameRecord:
    """Everything needed to rebuild a game: header plus ``(player, action text)`` pairs."""

    game: str
    rules_version: int
    params: dict[str, Any]
    seed: int
    actions: list[tuple[int | None, str]] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def append(self, player: int | None, action: object) -> None:
        self.actions.append((player, str(action)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": self.game,
            "rules_version": self.rules_version,
            "params": dict(self.params),
            "seed": self.seed,
            "actions": [[p, a] for p, a in self.actions],
            "meta": dict(self.meta),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, sort_keys=True)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Build a record from decoded JSON, checking every field.

        Raises:
            RecordError: a field is missing or has the wrong type.
        """
        if not isinstance(data, Mapping):
            raise RecordError("not a game record: the top level must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a game record: 'format' must be {FORMAT!r}")
        if data.get("format_version") != FORMAT_VERSION:
            raise RecordError(
                f"record format version {data.get('format_version')!r} is not supported "
                f"(this program reads version {FORMAT_VERSION})"
            )
        for key, kind in (("game", str), ("rules_version", int), ("params", dict),
                          ("seed", int), ("actions", list)):
            if key not in data:
                raise RecordError(f"corrupt record: field {key!r} is missing")
            value = data[key]
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise RecordError(f"corrupt record: field {key!r} must be {kind.__name__}")
        actions: list[tuple[int | None, str]] = []
        for i, item in enumerate(data["actions"]):
            if (not isinstance(item, list) or len(item) != 2 or not isinstance(item[1], str)
                    or not (item[0] is None or (isinstance(item[0], int)
                                                and not isinstance(item[0], bool)))):
                raise RecordError(
                    f"corrupt record: action {i} must be [player, text], got {item!r}")
            actions.append((item[0], item[1]))
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("corrupt record: field 'meta' must be an object")
        return cls(data["game"], data["rules_version"], dict(data["params"]), data["seed"],
                   actions, dict(meta))

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"corrupt record: not valid JSON ({exc.msg} at line {exc.lineno}, "
                f"column {exc.colno})") from None
        return cls.from_dict(data)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically: the old file stays intact if anything fails."""
        save_text(path, self.to_json() + "\n")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise RecordError(f"no such file: {path}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"cannot read {path}: {exc}") from None
        return cls.from_json(text)


def save_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and an atomic rename."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def lookup_game(name: str) -> Game:
    """Find a game in the registry by name (imported lazily: core imports no game)."""
    registry: Mapping[str, Game] = importlib.import_module("meeplehall.games").GAMES
    if name not in registry:
        raise RecordError(f"unknown game {name!r}; known games: {', '.join(sorted(registry))}")
    return registry[name]


def replay(record: GameRecord, game: Game | None = None, upto: int | None = None,
           expect_game: str | None = None) -> Any:
    """Rebuild the state after the first ``upto`` actions (all by default).

    Raises:
        RecordError: the record is for another game or rules version, or a move does
            not replay (the message names the move number and why).
    """
    if expect_game is not None and record.game != expect_game:
        raise RecordError(f"this record is a game of {record.game!r}, not {expect_game!r}")
    game = game or lookup_game(record.game)
    if record.game != game.name:
        raise RecordError(f"this record is a game of {record.game!r}, not {game.name!r}")
    if record.rules_version != game.rules_version:
        raise RecordError(
            f"this record was made with rules version {record.rules_version} of {game.name}; "
            f"this program plays version {game.rules_version}, so it cannot be replayed")
    try:
        state = game.initial_state(record.params, record.seed)
    except ValueError as exc:
        raise RecordError(f"bad parameters in record: {exc}") from None
    steps = record.actions if upto is None else record.actions[:upto]
    for i, (player, text) in enumerate(steps, start=1):
        current = game.current_player(state)
        if player is not None and current != player:
            raise RecordError(
                f"move {i} ({text!r}) was logged for seat {player}, but seat {current} is to move")
        try:
            state = game.apply(state, game.parse_action(text))
        except (IllegalActionError, ValueError) as exc:
            raise RecordError(f"move {i} ({text!r}) does not replay: {exc}") from None
    return state
