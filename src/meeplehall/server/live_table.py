"""One table rebuilt from its move log: state, active moves, notes and per-seat views.

``replay_rows`` turns database rows into the pieces of a :class:`Live`; it is a pure
function, so the server runs it in a worker thread and installs the result on the event
loop.

A live table keeps snapshots of its state after every :data:`SNAPSHOT_EVERY` active
moves (states are never changed once made: ``Game.apply`` returns a new one), so an undo
or a replay view rebuilds from the nearest snapshot at or before the point it needs and
replays fewer than that many moves, whatever the length of the game.
"""

from __future__ import annotations

import json
import pickle
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from meeplehall.core.messages import message_json
from meeplehall.core.protocol import Game, IllegalActionError

MOVE = "move"
UNDO = "undo"
SNAPSHOT_EVERY = 32  # active moves between two snapshots of a live table's state
# k -> (seq of the k-th active move, the state after the first k active moves, or a
# Packed one)
Snapshots = dict[int, tuple[int, Any]]


class Packed:
    """A state as pickled bytes, unpickled the first time it is needed (then kept).

    A table rebuilt in a worker process (an import) sends its snapshots so: unpickling
    all of them would cost the server's interpreter about as much as the replay it
    avoids, and most are never used."""

    __slots__ = ("_data", "_state", "_lock")

    def __init__(self, state: Any) -> None:
        self._data: bytes | None = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        self._state: Any = None
        self._lock = threading.Lock()

    def __getstate__(self) -> bytes | None:
        return self._data if self._data is not None else \
            pickle.dumps(self._state, protocol=pickle.HIGHEST_PROTOCOL)

    def __setstate__(self, data: bytes) -> None:
        self._data, self._state, self._lock = data, None, threading.Lock()

    def state(self) -> Any:
        with self._lock:
            if self._data is not None:
                self._state, self._data = pickle.loads(self._data), None
            return self._state


def unpacked(state: Any) -> Any:
    """``state`` itself, or the state a :class:`Packed` holds."""
    return state.state() if isinstance(state, Packed) else state


@dataclass(frozen=True, slots=True)
class Row:
    """A history entry as read from the ``moves`` table."""

    seq: int
    kind: str
    seat: int | None
    action: str
    undone: bool
    note: str | None


@dataclass(frozen=True, slots=True)
class Entry:
    """An active (not undone) move. ``reveal``: it showed some seat something hidden
    (``Game.reveals``), an undo barrier."""

    seq: int
    seat: int
    action: str
    reveal: bool


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as cached in memory; ``token_hash`` never leaves the server."""

    seat: int
    kind: str
    token_hash: str | None
    name: str | None = None  # the player's name, public (meeplehall.server.names)
    # A bot level playing this human seat, and why: "host" (handed over) or "deadline"
    # (standing in until the player returns); None: the seat plays itself.
    played_by: str | None = None
    played_why: str | None = None
    muted: bool = False  # the host muted its chat
    deadline_at: datetime | None = None  # its turn deadline (server clock), if running

    @property
    def taken(self) -> bool:
        return self.token_hash is not None

    @property
    def bot(self) -> str | None:
        """The bot level that moves for this seat now (None: a person)."""
        if self.played_by is not None:
            return self.played_by
        return None if self.kind == "human" else self.kind


@dataclass
class Built:
    """What a replay of a table's rows produces."""

    state: Any
    entries: list[Entry]
    seq: int
    undo_seqs: list[int]
    notes: list[tuple[int, str]]
    snapshots: Snapshots = field(default_factory=dict)  # taken while replaying


def note_text(note: str) -> Any:
    """A stored note as clients get it: a message ``{key, args}`` where it was stored
    as one (JSON), else its text."""
    if note.startswith('{"key"'):
        try:
            message = json.loads(note)
        except ValueError:
            return note
        if isinstance(message, dict) and isinstance(message.get("key"), str):
            return message
    return note


class CorruptLog(RuntimeError):
    """A stored move does not replay: the database was changed behind the server's back."""


def step(game: Game, state: Any, seat: int | None, text: str) -> tuple[Any, str, bool]:
    """Apply one logged action; returns (new state, canonical text, revealed something
    hidden: ``Game.reveals``).

    Raises:
        IllegalActionError, ValueError: the action does not apply here.
    """
    current = game.current_player(state)
    if seat is not None and current != seat:
        raise IllegalActionError(f"seat {seat} is not to move (seat {current} is)")
    action = game.parse_action(text)
    new_state = game.apply(state, action)
    return new_state, str(action), game.reveals(state, action, new_state)


def step_legal(game: Game, state: Any, text: str, legal: Sequence[Any]) -> tuple[Any, str, bool]:
    """``step`` for the seat to move, given the legal actions of ``state`` (already
    known to the caller): checked against them, applied to a clone, so the legal actions
    are not worked out a second time. Same results and errors as ``game.apply``.

    Raises:
        IllegalActionError, ValueError: the action does not apply here.
    """
    action = game.parse_action(text)
    if action not in legal:
        raise IllegalActionError(game.explain_illegal(state, action, tuple(legal)))
    new_state = state.clone()
    game.apply_unchecked(new_state, action)
    return new_state, str(action), game.reveals(state, action, new_state)


def views_builder(game: Game) -> Any:
    """The game's ``player_views(state, seats, memo)`` where the game builds the views of
    several seats at once for less than one ``player_view`` each (``Game.shared_views``):
    what they have in common is worked out once per state (every seat and spectator of a
    table needs its view after each move). ``memo`` is a dict the table keeps from one
    call to the next: parts of the view whose inputs did not change are then the objects
    of the last call, which the diffs skip by identity. None: the server calls
    ``player_view`` per seat, for the seats that ask."""
    return game.player_views if game.shared_views else None


def replay_entries(game: Game, params: dict[str, Any], seed: int,
                   entries: Sequence[Entry],
                   snapshots: Mapping[int, tuple[int, Any]] | None = None) -> Any:
    """The state after ``entries`` (which are known to replay), from the latest of
    ``snapshots`` that lies on their path (its k-th entry's seq matches), else from the
    start."""
    start, state, known = 0, None, snapshots or {}
    for k in sorted(known, reverse=True):
        if k <= len(entries):
            seq, snapshot = known[k]
            if entries[k - 1].seq == seq:
                start, state = k, unpacked(snapshot)
                break
    if state is None:
        state = game.initial_state(params, seed)
    for entry in entries[start:]:
        state = game.apply(state, game.parse_action(entry.action))
    return state


def replay_rows(game: Game, params: dict[str, Any], seed: int, rows: Sequence[Row],
                base: Built | None = None) -> Built:
    """Replay history rows (ordered by seq), from scratch or on top of ``base``.

    Raises:
        CorruptLog: a move does not replay.
    """
    if base is None:
        base = Built(game.initial_state(params, seed), [], 0, [], [])
    state, entries = base.state, list(base.entries)
    undo_seqs, notes, seq = list(base.undo_seqs), list(base.notes), base.seq
    snapshots: Snapshots = {}
    for row in rows:
        seq = row.seq
        if row.note:
            notes.append((row.seq, row.note))
        if row.kind == UNDO:
            undo_seqs.append(row.seq)
            continue
        if row.undone:
            continue
        # An imported move is stored without its seat: it is the seat that was to move
        # (the exported record names it, so that the record replays).
        mover = row.seat if row.seat is not None else game.current_player(state)
        try:
            state, text, reveal = step(game, state, row.seat, row.action)
        except (IllegalActionError, ValueError) as exc:
            raise CorruptLog(f"stored move {row.seq} does not replay: {exc}") from None
        entries.append(Entry(row.seq, mover if mover is not None else -1, text, reveal))
        if len(entries) % SNAPSHOT_EVERY == 0:
            snapshots[len(entries)] = (row.seq, state)
    return Built(state, entries, seq, undo_seqs, notes, snapshots)


def record_built(game: Game, params: dict[str, Any], seed: int,
                 actions: Sequence[tuple[int | None, str]]) -> Built:
    """The table an imported record's ``actions`` make, as its stored rows replay (each
    move without its seat: the seat to move).

    Raises:
        CorruptLog: a move does not replay.
    """
    rows = [Row(i, MOVE, None, text, False, None) for i, (_, text) in enumerate(actions, 1)]
    return replay_rows(game, params, seed, rows)


def packed(built: Built) -> Built:
    """``built`` with its snapshots :class:`Packed`, to send from a worker process."""
    return Built(built.state, built.entries, built.seq, built.undo_seqs, built.notes,
                 {k: (seq, Packed(state)) for k, (seq, state) in built.snapshots.items()})


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What the creator chose for a table over days: a host exists (``hosted``), the
    turn deadline in seconds (None: none), the stand-in bot level past it, and whether
    spectators see the chat."""

    hosted: bool = False
    deadline_s: int | None = None
    stand_in: str | None = None
    spectator_chat: bool = False


@dataclass
class Live:
    """A table as the server holds it in memory. Mutated only on the event loop."""

    table_id: int
    game: Game
    params: dict[str, Any]
    seed: int
    source: str
    created_at: datetime
    seats: list[SeatInfo]
    settings: TableSettings = field(default_factory=TableSettings)
    state: Any = None
    entries: list[Entry] = field(default_factory=list)
    seq: int = 0
    undo_seqs: list[int] = field(default_factory=list)
    notes: list[tuple[int, str]] = field(default_factory=list)
    rated: bool = False  # its creator asked for a rated game (meeplehall.server.ratings)
    # The state every SNAPSHOT_EVERY active moves (for undo and replay views).
    snapshots: Snapshots = field(default_factory=dict)
    _views: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    # Per view, the marshal bytes of its members that diffs have compared (see
    # meeplehall.server.patch.diff): they go with the view to the next diff.
    _memos: dict[int | None, dict[Any, bytes]] = field(default_factory=dict)
    # The views builder's memo for this table (see views_builder): kept across moves.
    _view_memo: dict[Any, Any] = field(default_factory=dict)
    _actions: tuple[Any, ...] | None = None
    _legal: list[dict[str, Any]] | None = None
    # Update messages already serialised for this seq, shared by every connection that
    # last saw the same view of the same seat (see meeplehall.server.live).
    messages: dict[tuple[int | None, int, int], tuple[dict[str, Any], str]] = field(
        default_factory=dict)
    # The WebSocket frame of such a message text (the text, then the frame), for the
    # sockets it is written to directly (meeplehall.server.direct).
    frames: dict[tuple[int | None, int, int], tuple[str, bytes]] = field(default_factory=dict)
    # Patches already worked out for this seq, as (old view, new view, operations): the
    # views of different seats built together share all their members but "seat", so one
    # patch serves them all (see meeplehall.server.live.Hub.patch).
    patches: list[tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]] = field(
        default_factory=list)
    # Each seat's turn fields for this seq (meeplehall.server.live.table_message).
    summaries: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    # Each seat's answer to GET /view or /me for this seq as JSON (with the view it was
    # made from): a long game's view is serialised once per move, not once per request.
    replies: dict[int | None, tuple[dict[str, Any], bytes]] = field(default_factory=dict)

    def install(self, built: Built) -> None:
        count = len(built.entries)
        for k in [k for k in self.snapshots if k > count]:  # taken back
            del self.snapshots[k]
        self.snapshots.update(built.snapshots)
        if count and count % SNAPSHOT_EVERY == 0:
            self.snapshots[count] = (built.entries[-1].seq, built.state)
        self.state = built.state
        self.entries = built.entries
        self.seq = built.seq
        self.undo_seqs = built.undo_seqs
        self.notes = built.notes
        self._views = {}
        self._memos = {}
        self._actions = None
        self._legal = None
        self.messages = {}
        self.frames = {}
        self.patches = []
        self.summaries = {}
        self.replies = {}

    def built(self) -> Built:
        return Built(self.state, self.entries, self.seq, self.undo_seqs, self.notes)

    @property
    def to_move(self) -> int | None:
        seat: int | None = self.game.current_player(self.state)
        return seat

    @property
    def finished(self) -> bool:
        return self.to_move is None

    def outcome(self) -> dict[str, Any] | None:
        result = self.game.outcome(self.state)
        return None if result is None else result.to_dict()

    def view(self, seat: int | None) -> dict[str, Any]:
        """``player_view`` for ``seat`` (None: spectator), cached until the next change.
        Callers must not mutate it: with a game that builds the views of all seats at
        once (see :func:`views_builder`), the views of one state share their members."""
        cached = self._views.get(seat)
        if cached is None:
            build = views_builder(self.game)
            if build is None or (seat is not None and not 0 <= seat < len(self.seats)):
                cached = self.game.player_view(self.state, seat)
                self._views[seat] = cached
            else:
                seats = [seat, *(s for s in (*range(len(self.seats)), None)
                                 if s != seat and s not in self._views)]
                self._views.update(build(self.state, seats, self._view_memo))
                cached = self._views[seat]
        return cached

    def memo(self, seat: int | None) -> dict[Any, bytes]:
        """The diff memo of ``view(seat)`` (see :func:`meeplehall.server.patch.diff`)."""
        memo = self._memos.get(seat)
        if memo is None:
            memo = self._memos[seat] = {}
        return memo

    def legal_actions(self) -> tuple[Any, ...]:
        """The game's legal actions now (none when the game is over), worked out once per
        state: for checking a move and for telling the seat to move what it may do."""
        if self._actions is None:
            self._actions = () if self.to_move is None else tuple(
                self.game.legal_actions(self.state))
        return self._actions

    def legal(self) -> list[dict[str, Any]]:
        """The legal actions of the current decision: text form and a label for people (a
        message, ``{"key", "args"}``)."""
        if self._legal is None:
            label = self.game.action_message
            self._legal = [{"text": str(a), "label": message_json(label(self.state, a))}
                           for a in self.legal_actions()]
        return self._legal

    def decision(self) -> dict[str, Any] | None:
        """The current decision's prompt as a message (None when the game is over)."""
        if self.to_move is None:
            return None
        return message_json(self.game.decision_message(self.state))

    def undoable(self, seat: int) -> int:
        """How many of ``seat``'s latest moves can be taken back: back to the last move
        that revealed something hidden (``Game.reveals``) or was made by another seat (it
        handed the table over): both are barriers. Handing the table over is one too: once
        another seat is to move (the turn was ended), the previous player's moves stay."""
        if self.state is not None and self.to_move != seat:
            return 0
        count = 0
        for entry in reversed(self.entries):
            if entry.seat != seat or entry.reveal:
                break
            count += 1
        return count

    def notes_since(self, seq: int) -> list[dict[str, Any]]:
        """The notes after history point ``seq``; a note stored as a message's JSON
        (a stand-in's move) is sent as that message, a plain one as text."""
        return [{"seq": s, "text": note_text(t)} for s, t in self.notes if s > seq]

    def undone_since(self, seq: int) -> bool:
        return any(s > seq for s in self.undo_seqs)

    def active_at(self, seq: int) -> int:
        """How many active moves existed at history point ``seq`` (when no undo since)."""
        return sum(1 for e in self.entries if e.seq <= seq)
