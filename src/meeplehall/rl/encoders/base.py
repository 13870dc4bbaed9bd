"""The encoder shared by both games: a fixed action catalogue and an observation layout.

An :class:`Encoder` owns two things for one game, player count and option set:

* the **action catalogue**: every action value the engine can ever produce, enumerated
  from the component data (all verbs times their argument ranges), sorted by
  ``(verb, arguments)``; ``index <-> action`` both ways, and a legal-action mask;
* the **observation layout**: an ordered list of :class:`Block` s, each a named slice of a
  fixed-length float32 vector. Each block is written two ways: ``Block.fill`` from a
  *player view* (the reference, easy to check against what a seat may see), and
  ``StateBlock.fill`` straight from the engine's state (fast: an :class:`Observer` keeps
  one preallocated vector per seat and rewrites only the blocks whose inputs changed).
  tests/rl/test_observation.py checks over random playouts that both give the same
  vector and that re-dealing the hidden components changes neither, so the state path
  cannot leak what the view hides (STYLE.md section 5).

Seat-indexed blocks are written *relative to the observing seat*: the observer comes
first, then the next seats in turn order; a seat number in the view (an owner, say) is
encoded the same way, so a policy can play any seat.
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import compress
from typing import Any

import numpy as np

View = dict[str, Any]
OBS_BOUND = 16.0
"""Every observation value is clipped to ``[-OBS_BOUND, OBS_BOUND]`` (the Box bounds);
the scales keep ordinary values within about [-2, 3]."""
MEMO_ENTRIES = 4096
"""The most (seat, key) entries a memoised state block keeps (see ``StateBlock.memo``)."""
ROW_ENTRIES = 1 << 16
"""The most rows an encoder's per-slot or per-seat cache keeps (see ``keep``)."""
LEGAL_ENTRIES = 1 << 14
"""The most lists of legal actions whose indices and mask an encoder keeps."""
Filler = Callable[[View, int], Sequence[float]]
StateFiller = Callable[[Any, int, Any], Sequence[float]]
"""``fill(state, seat, pending)``: a block's numbers read from the engine state;
``pending`` is what :attr:`Encoder.pending` returns for that state and seat."""


@dataclass(frozen=True)
class Block:
    """A named slice of the observation vector.

    Attributes:
        name: short identifier, unique in the layout.
        size: number of floats the block occupies.
        doc: what the numbers mean (documentation in ``docs/rl.md`` is generated from it).
        fill: ``fill(view, seat)`` returns at most ``size`` numbers; the rest stay zero.
    """

    name: str
    size: int
    doc: str
    fill: Filler = field(repr=False)


@dataclass(frozen=True)
class StateBlock:
    """How one :class:`Block` is filled from the engine state.

    Attributes:
        name: the name of the view block it mirrors (same slice, same numbers).
        fill: ``fill(state, seat, pending)``: at most the block's size of numbers (None
            only with ``columns``).
        key: ``key(state, seat, pending)``: a value made of everything ``fill`` reads
            (copied, not a live list, unless ``live``); the block is rewritten only when
            it changes. None: rewritten at every call.
        covers: how many consecutive view blocks, from ``name`` on, ``fill`` writes at
            once (blocks that change together: one write instead of several).
        memo: keep the numbers written for each (seat, key) and reuse them when the key
            comes back (for blocks whose keys repeat across positions, such as the
            decision on top; the key must then be hashable).
        live: the key is a tuple that may hold the state's own lists (of immutable
            values), compared as they are now and copied only when the observer keeps
            the key: cheaper than building a copy at every call, for large blocks that
            rarely change.
        ident: a memo whose key is a hashable object the engine hands out again and
            again (an interned decision): looked up by identity first (the memo keeps
            the object, so its id is not reused), by value only when a new object comes.
        sides: the block is ``sides`` equal parts, one per side, the observer first
            (part ``k`` shows side ``(seat + k) % sides``); ``key`` and ``fill`` are then
            called with the side instead of the observing seat and each part is
            rewritten on its own, when that side's key changed.
        reads: instead of ``key``: the names of the state fields ``fill`` reads (each a
            value, or a list of immutable values, with the pending decision as ``p``);
            the block is rewritten when one of them changed (a live key, read inline:
            the field itself with one name, the tuple of them with several).
        columns: instead of ``key`` and ``fill``: the block (each side's part, with
            ``sides``) is made of :class:`Column` s that tile it, each the numbers of one
            state field (with ``sides``, a list of one immutable value per side, checked
            as a whole first); a column is rewritten (for the sides whose value changed)
            only when its field changed. A tuple of columns is a group, checked as one
            first (for fields that rarely change: one comparison instead of several).
        update: instead of ``fill``, with ``reads`` or ``key``: when the key changed,
            ``update(s, seat, p, row, at, old)`` writes into ``row`` (the float32
            memoryview of the whole observation, the block starting at ``at``) the numbers
            that changed since ``old``, the key kept at the last write (None: nothing was
            written yet, write them all). For large blocks of which a move changes a
            little (one Cathedral card, one die).
    """

    name: str
    fill: StateFiller | None = field(default=None, repr=False)
    key: StateFiller | None = field(default=None, repr=False)
    covers: int = 1
    memo: bool = False
    live: bool = False
    ident: bool = False
    sides: int = 0
    reads: tuple[str, ...] = ()
    columns: tuple[Column | tuple[Column, ...], ...] = ()
    update: Callable[[Any, int, Any, memoryview, int, Any], None] | None = field(
        default=None, repr=False)


def top_of_stack(state: Any, seat: int) -> Any:
    """An encoder's ``pending`` where every seat sees the decision on top of the stack
    (``state.stack``, top last) whole: that decision, or None (read inline by the
    observer)."""
    return state.stack[-1] if state.stack else None


def pending_key(state: Any, seat: int, pending: Any) -> Any:
    """A state block's ``key``: the pending decision itself (read inline by the observer)."""
    return pending


@dataclass(frozen=True)
class Column:
    """The numbers one state field gives a block (or each side's part of it).

    Attributes:
        attr: the state field: an immutable value, a list (or tuple) of immutable values,
            or, in a block with ``sides``, such a list of one value per side; or a tuple
            of such fields, whose values ``numbers`` gets as a tuple.
        at: where the numbers start within the block (or a side's part).
        item: read item ``item`` of the field (of each field) instead: an immutable
            value, or, with ``sides``, a list of one per side.
        scale, offset: by default the value's one number is ``(value - offset) / scale``.
        length: the value's length stands for the value there.
        number: ``number(value)``: the value's one number, instead (kept per value: the
            value must be hashable).
        table: the value's numbers are ``table[value]`` (the value an index into it;
            every entry of the same length), instead.
        numbers: ``numbers(value)``: the value's ``size`` numbers, instead (kept per
            value, as with ``number``).
        size: how many numbers ``numbers`` gives.
        each: the field is a list of ``each`` values (not with ``sides``, ``item`` or
            several fields) and item ``i`` gives its numbers (as above) at
            ``at + i * width``; only the items that changed are rewritten.
    """

    attr: str | tuple[str, ...]
    at: int
    scale: float = 1.0
    item: int | None = None
    offset: float = 0.0
    length: bool = False
    number: Callable[[Any], float] | None = field(default=None, repr=False)
    table: Sequence[Sequence[float]] | None = field(default=None, repr=False)
    numbers: Callable[[Any], Sequence[float]] | None = field(default=None, repr=False)
    size: int = 1
    each: int = 0

    @property
    def width(self) -> int:
        """How many numbers the column writes (per side)."""
        return self.item_width * (self.each or 1)

    @property
    def item_width(self) -> int:
        """How many numbers one value gives."""
        if self.table is not None:
            return len(self.table[0])
        return self.size if self.numbers is not None else 1


def keep(cache: dict[Any, Any], key: Any, value: Any, limit: int = ROW_ENTRIES) -> Any:
    """Store ``value`` under ``key`` in a bounded cache (emptied when it holds ``limit``
    entries) and return it.

    >>> cache = {}
    >>> keep(cache, "a", 1, limit=1), keep(cache, "b", 2, limit=1), cache
    (1, 2, {'b': 2})
    """
    if len(cache) >= limit:
        cache.clear()
    cache[key] = value
    return value


def flatten(value: Any) -> list[float]:
    """Flatten nested lists of numbers and booleans into one list of floats.

    >>> flatten([[1, 2], [True, [3]]])
    [1.0, 2.0, 1.0, 3.0]
    """
    out: list[float] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, list | tuple):
            stack.extend(reversed(item))
        elif isinstance(item, bool | int | float):
            out.append(float(item))
    return out


def one_hot(values: Iterable[int], classes: int) -> list[float]:
    """One row of ``classes`` per value; a value outside ``0..classes-1`` (say -1) is a
    row of zeros.

    >>> one_hot([1, -1], 3)
    [0.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    """
    out: list[float] = []
    for v in values:
        row = [0.0] * classes
        if 0 <= v < classes:
            row[v] = 1.0
        out.extend(row)
    return out


def relative(seat_value: int, seat: int, seats: int) -> int:
    """A seat number as seen from ``seat`` (0 = the observer); -1 stays -1.

    >>> [relative(v, 1, 3) for v in (0, 1, 2, -1)]
    [2, 0, 1, -1]
    """
    return -1 if seat_value < 0 else (seat_value - seat) % seats


def rotate(per_seat: Sequence[Any], seat: int) -> list[Any]:
    """Reorder a per-seat list so that ``seat`` comes first.

    >>> rotate(["a", "b", "c"], 1)
    ['b', 'c', 'a']
    """
    return [*per_seat[seat:], *per_seat[:seat]]


def scaled(values: Iterable[float], scale: float) -> list[float]:
    return [float(v) / scale for v in values]


def action_key(action: Any) -> tuple[str, tuple[float, ...], str]:
    """Sort key of an action: its verb (first word of the text form), then its numeric
    fields in order, then its text (a tie-break that never changes the order of one verb)."""
    text = str(action)
    slots = getattr(type(action), "__slots__", ())
    fields = [getattr(action, name) for name in slots]
    return text.split(" ", 1)[0], tuple(flatten(fields)), text


class Encoder:
    """Action catalogue and observation layout of one game configuration."""

    def __init__(self, game_name: str, players: int, actions: Iterable[Any],
                 blocks: Sequence[Block], state_blocks: Sequence[StateBlock] = (),
                 pending: Callable[[Any, int], Any] | None = None) -> None:
        self.game_name = game_name
        self.players = players
        unique = set(actions)
        self.actions: tuple[Any, ...] = tuple(sorted(unique, key=action_key))
        self.index: dict[Any, int] = {a: i for i, a in enumerate(self.actions)}
        self._by_id: dict[int, tuple[Any, int]] = {}
        self._by_ids: dict[tuple[int, ...], tuple[tuple[Any, ...], list[int], bytes]] = {}
        self.blocks = tuple(blocks)
        names = [b.name for b in self.blocks]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate block names in the {game_name} layout")
        self.offsets: dict[str, tuple[int, int]] = {}
        start = 0
        for b in self.blocks:
            self.offsets[b.name] = (start, start + b.size)
            start += b.size
        self.size = start
        self.state_blocks = tuple(state_blocks)
        # Per state block: (start, size) of the view blocks it covers.
        self.state_slices: list[tuple[int, int]] = []
        at = 0
        for sb in self.state_blocks:
            covered = self.blocks[at:at + sb.covers]
            if not covered or covered[0].name != sb.name or len(covered) != sb.covers:
                raise ValueError(f"the {game_name} state block {sb.name!r} does not "
                                 f"follow the layout")
            self.state_slices.append((self.offsets[sb.name][0],
                                      sum(b.size for b in covered)))
            at += sb.covers
        if self.state_blocks and at != len(self.blocks):
            raise ValueError(f"the {game_name} state blocks do not cover the layout")
        self.pending: Callable[[Any, int], Any] = pending or (lambda state, seat: None)
        # Per memoised state block: the numbers it wrote for each (seat, key) seen, shared
        # by every observer of this encoder, at most MEMO_ENTRIES (emptied when full).
        self.memos: list[dict[Any, Any] | None] = [
            {} if (sb.memo or sb.ident) and (sb.key is not None or sb.reads) else None
            for sb in self.state_blocks]

    def legal(self, actions: Sequence[Any]) -> tuple[list[int], bytes]:
        """The catalogue index of each action, in order (a list the caller must not
        change), and the legal mask as bytes (1 at each of those indices).

        The engines hand out the same action objects again and again, and the same lists
        of them often: both are kept by identity, each action's index (with the action,
        so that its id cannot be reused meanwhile) and the answer for each sequence of
        action ids (with the actions), at most LEGAL_ENTRIES sequences.

        Raises:
            KeyError: an action is not in the catalogue.
        """
        key = tuple(map(id, actions))
        hit = self._by_ids.get(key)
        if hit is None:
            memo = self._by_id
            indices = []
            for action in actions:
                known = memo.get(id(action))
                if known is None or known[0] is not action:
                    known = keep(memo, id(action), (action, self.action_index(action)))
                indices.append(known[1])
            mask = bytearray(self.num_actions)
            for i in indices:
                mask[i] = 1
            hit = keep(self._by_ids, key, (tuple(actions), indices, bytes(mask)),
                       LEGAL_ENTRIES)
        return hit[1], hit[2]

    def indices(self, legal: Iterable[Any]) -> list[int]:
        """The catalogue index of each action, in order (see :meth:`legal`).

        Raises:
            KeyError: an action is not in the catalogue.
        """
        return list(self.legal(tuple(legal))[0])

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def action_index(self, action: Any) -> int:
        """The catalogue index of an action value.

        Raises:
            KeyError: the action is not in the catalogue (a bug in the catalogue).
        """
        try:
            return self.index[action]
        except KeyError:
            raise KeyError(f"{self.game_name}: action {str(action)!r} is not in the action "
                           f"catalogue ({self.num_actions} actions)") from None

    def action_at(self, index: int) -> Any:
        """The action value at a catalogue index.

        Raises:
            ValueError: the index is out of range.
        """
        if isinstance(index, bool) or not 0 <= int(index) < self.num_actions:
            raise ValueError(f"{self.game_name}: action index {index!r} is out of range "
                             f"0..{self.num_actions - 1}")
        return self.actions[int(index)]

    def mask(self, legal: Iterable[Any]) -> np.ndarray:
        """An int8 vector with 1 at the index of each legal action."""
        out = np.zeros(self.num_actions, dtype=np.int8)
        for action in legal:
            out[self.action_index(action)] = 1
        return out

    def encode(self, view: View, seat: int) -> np.ndarray:
        """The float32 observation vector of ``seat`` from its view.

        Raises:
            ValueError: a block produced more numbers than its size (a layout bug).
        """
        out = np.zeros(self.size, dtype=np.float32)
        for b in self.blocks:
            values = b.fill(view, seat)
            if len(values) > b.size:
                raise ValueError(f"{self.game_name}: observation block {b.name!r} has "
                                 f"{len(values)} values for {b.size} places")
            start = self.offsets[b.name][0]
            out[start:start + len(values)] = values
        np.clip(out, -OBS_BOUND, OBS_BOUND, out=out)
        return out

    def describe_actions(self) -> list[tuple[str, int, int, str, str]]:
        """Rows ``(verb, first index, count, first action, last action)`` of the catalogue."""
        rows: list[tuple[str, int, int, str, str]] = []
        for i, action in enumerate(self.actions):
            verb = action_key(action)[0]
            if rows and rows[-1][0] == verb:
                v, first, count, a0, _ = rows[-1]
                rows[-1] = (v, first, count + 1, a0, str(action))
            else:
                rows.append((verb, i, 1, str(action), str(action)))
        return rows

    def describe_blocks(self) -> list[tuple[str, int, int, str]]:
        """Rows ``(name, start, size, doc)`` of the observation layout."""
        return [(b.name, self.offsets[b.name][0], b.size, b.doc) for b in self.blocks]


_UNSET = object()


def _kept(key: tuple[Any, ...]) -> tuple[Any, ...]:
    """A live key as the observer keeps it: the state's lists in it copied."""
    return tuple([x[:] if type(x) is list else x for x in key])


def _padded(numbers: Sequence[float], size: int, name: str, game: str) -> array[float]:
    """A block's numbers as float32, zero-padded to its size.

    Raises:
        ValueError: more numbers than the block's size (a layout bug).
    """
    values = array("f", numbers)
    if len(values) > size:
        raise ValueError(f"{game}: state block {name!r} has {len(values)} values for "
                         f"{size} places")
    if len(values) < size:
        values.frombytes(bytes(4 * (size - len(values))))
    return values


class Observer:
    """Observations of one table, encoded from its engine state into preallocated arrays.

    One float32 row per seat is kept from call to call; ``encode`` rewrites only the
    blocks (or, for per-side blocks, the parts or columns) whose key changed since that
    seat's last observation. An encoder is shared by every table of a configuration, an
    observer belongs to one table (or one slot of a vector environment).

    The layout's checks and writes are compiled once per encoder into one function of
    straight-line Python (``source`` holds its text): no loop over the blocks, no
    dispatch on their kind, and keys given as ``reads`` read inline. It does what the
    blocks say and nothing else, so the view-encoding tests cover it.

    Raises:
        ValueError: the encoder has no state blocks, or a block's parts or columns do
            not tile it.
    """

    def __init__(self, encoder: Encoder, seats: int) -> None:
        if not encoder.state_blocks:
            raise ValueError(f"{encoder.game_name}: no state encoder")
        self.encoder = encoder
        self.rows = np.zeros((seats, encoder.size), dtype=np.float32)
        self._run, self.source, self._init = _compiled(encoder)
        self._keys: list[list[Any]] = [list(self._init) for _ in range(seats)]
        # Blocks are written through a float32 memoryview: about half the cost of
        # assigning to a numpy slice.
        self._views = [row.data for row in self.rows]
        self._arrays = list(self.rows)
        self._lent: int | None = None  # the seat whose observation is in _target
        self._target: memoryview | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Observer:
        """A fresh observer of the same encoder (what it kept is only a cache)."""
        return Observer(self.encoder, len(self.rows))

    def forget(self) -> None:
        """Drop what was kept (call it when the table starts a new game)."""
        for keys in self._keys:
            keys[:] = self._init

    def encode(self, state: Any, seat: int) -> np.ndarray:
        """``seat``'s observation of ``state``: the observer's own row, overwritten by the
        next call for that seat (copy it to keep it)."""
        if self._lent == seat:
            self._take_back()
        self._run(state, seat, self._views[seat], self._keys[seat])
        return self._arrays[seat]

    def write_to(self, state: Any, seat: int, target: memoryview) -> None:
        """Write ``seat``'s observation of ``state`` into ``target``, a float32 memoryview
        of the observation's size (a row of a vector environment's batch) that nothing
        else writes to.

        The observer then keeps that seat's observation in ``target`` (one row for all
        seats: a move usually changes a few blocks, and the same seat often decides
        again), copying it to its own row only when another seat's observation is
        written there (or :meth:`encode` asks for that seat).
        """
        if self._lent != seat or self._target is not target:
            if self._lent is not None:
                self._take_back()
            target[:] = self._views[seat]
            self._views[seat] = target
            self._lent, self._target = seat, target
        self._run(state, seat, target, self._keys[seat])

    def _take_back(self) -> None:
        """Copy the seat kept in the target (see :meth:`write_to`) back to its own row."""
        seat = self._lent
        assert seat is not None and self._target is not None
        own = self.rows[seat].data
        own[:] = self._target
        self._views[seat] = own
        self._lent = self._target = None

    def view(self, seat: int) -> memoryview:
        """``seat``'s observation as a float32 memoryview (what was written last)."""
        return self._views[seat]


_COMPILED: dict[int, tuple[Encoder, Callable[..., None], str, tuple[Any, ...]]] = {}


class _Source:
    """The lines of an observer's ``run`` being built, the names they use, and the first
    value of each key they keep (``K[j]``)."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.names: dict[str, Any] = {"array": array, "keep": keep, "_kept": _kept,
                                      "MEMO_ENTRIES": MEMO_ENTRIES, "compress": compress,
                                      "ne": operator.ne, "_UNSET": _UNSET}
        self.body: list[str] = []
        self.sides: set[tuple[int, int]] = set()  # the side numbers q{n}_{k} read
        self.init: list[Any] = []

    def emit(self, *lines: str) -> None:
        self.body.extend(lines)

    def slot(self, first: Any = _UNSET) -> int:
        """A new kept key, ``first`` until the first write (nothing equals ``_UNSET``)."""
        self.init.append(first)
        return len(self.init) - 1

    def name(self, value: Any) -> str:
        """A new global of the generated code holding ``value``."""
        name = f"N{len(self.names)}"
        self.names[name] = value
        return name

    def side(self, sides: int, k: int) -> str:
        """The expression of side ``(seat + k) % sides``."""
        if k == 0:
            return "seat"
        self.sides.add((sides, k))
        return f"q{sides}_{k}"


def _compiled(encoder: Encoder) -> tuple[Callable[..., None], str, tuple[Any, ...]]:
    """The encoder's ``run(s, seat, row, K)`` (write ``seat``'s row of state ``s``, ``K``
    the seat's kept keys; ``p`` in it is the pending decision), its source and the first
    value of each kept key; built once per encoder.

    Raises:
        ValueError: a block's parts or columns do not tile it, or it mixes options
            that do not go together.
    """
    hit = _COMPILED.get(id(encoder))
    if hit is not None and hit[0] is encoder:
        return hit[1], hit[2], hit[3]
    game = encoder.game_name
    src = _Source(game)
    names, emit = src.names, src.emit
    for i, (b, (start, size), memo) in enumerate(zip(
            encoder.state_blocks, encoder.state_slices, encoder.memos, strict=True)):
        names[f"F{i}"], names[f"KEY{i}"], names[f"M{i}"] = b.fill, b.key, memo
        names[f"U{i}"] = b.update
        if sum(bool(x) for x in (b.key, b.reads, b.columns)) > 1:
            raise ValueError(f"{game}: state block {b.name!r} has more than one of key, "
                             f"reads and columns")
        if sum(x is not None for x in (b.fill, b.update)) + bool(b.columns) != 1:
            raise ValueError(f"{game}: state block {b.name!r} needs one of fill, update "
                             f"and columns")
        if b.update is not None and ((b.key is None and not b.reads) or b.memo or b.ident):
            raise ValueError(f"{game}: state block {b.name!r}: update needs key or reads, "
                             f"and no memo")
        emit(f"# {b.name}")
        if b.columns:
            _emit_columns(b, start, size, src)
            continue
        parts = b.sides or 1
        if size % parts:
            raise ValueError(f"{game}: state block {b.name!r} of {size} values is not "
                             f"{parts} equal parts")
        part = size // parts
        names[f"PAD{i}"] = (lambda numbers, size=part, name=b.name:
                            _padded(numbers, size, name, game))
        if b.ident:  # per seat (or side): the numbers of each decision object seen, by id
            names[f"I{i}"] = [{} for _ in range(max(encoder.players, parts))]
        for k in range(parts):
            who = "seat" if not b.sides else src.side(parts, k)
            a, z = start + k * part, start + (k + 1) * part
            pad = f"PAD{i}"
            fill = f"F{i}(s, {who}, p)"
            if b.key is None and not b.reads:
                emit(f"v = array('f', {fill})",
                     f"if len(v) != {part}: v = {pad}(v)",
                     f"row[{a}:{z}] = v")
                continue
            j = src.slot()
            if b.reads == ("p",):
                emit("k = p")
                kept = "k"
            elif len(b.reads) == 1:  # the field itself (a copy of a list) is the key
                emit(f"k = s.{b.reads[0]}")
                kept = "k[:] if type(k) is list else k"
            elif b.reads:
                emit(f"k = ({''.join(f's.{r}, ' if r != 'p' else 'p, ' for r in b.reads)})")
                # the kept key: the state's lists in it copied
                kept = "(" + "".join(
                    f"k[{n}], " if r == "p" else f"k[{n}][:] if type(k[{n}]) is list else "
                    f"k[{n}], " for n, r in enumerate(b.reads)) + ")"
            elif b.key is pending_key:
                emit("k = p")
            else:
                emit(f"k = KEY{i}(s, {who}, p)")
            if b.ident:
                emit(f"if k is not K[{j}]:",
                     f"    K[{j}] = k",
                     f"    hit = I{i}[{who}].get(id(k))",
                     "    if hit is None or hit[0] is not k:",
                     f"        v = M{i}.get(({who}, k))",
                     "        if v is None:",
                     f"            v = keep(M{i}, ({who}, k), {pad}({fill}), MEMO_ENTRIES)",
                     f"        hit = keep(I{i}[{who}], id(k), (k, v), MEMO_ENTRIES)",
                     f"    row[{a}:{z}] = hit[1]")
                continue
            emit(f"if k is not K[{j}] and k != K[{j}]:")
            if b.update is not None:
                emit(f"    o = K[{j}]")
            emit(f"    K[{j}] = {kept if b.reads else '_kept(k)' if b.live else 'k'}")
            if b.update is not None:
                emit(f"    U{i}(s, {who}, p, row, {a}, None if o is _UNSET else o)")
                continue
            if memo is not None:
                emit(f"    v = M{i}.get(({who}, k))",
                     "    if v is None:",
                     f"        v = keep(M{i}, ({who}, k), {pad}({fill}), MEMO_ENTRIES)")
            else:
                emit(f"    v = array('f', {fill})",
                     f"    if len(v) != {part}: v = {pad}(v)")
            emit(f"    row[{a}:{z}] = v")
    names["PENDING"] = encoder.pending
    prelude = [f"q{n}_{k} = (seat + {k}) % {n}" for n, k in sorted(src.sides)]
    prelude.append("p = s.stack[-1] if s.stack else None" if encoder.pending is top_of_stack
                   else "p = PENDING(s, seat)")
    source = "def run(s, seat, row, K):\n" + "".join(
        f"    {line}\n" for line in prelude + src.body) + "    return None\n"
    code = compile(source, f"<{game} observer>", "exec")
    exec(code, names)
    run: Callable[..., None] = names["run"]
    if len(_COMPILED) >= 64:
        _COMPILED.clear()
    init = tuple(src.init)
    _COMPILED[id(encoder)] = (encoder, run, source, init)
    return run, source, init


def _maker(memo: dict[Any, Any], c: Column, block: str, game: str) -> Callable[[Any], Any]:
    """The numbers of a value of column ``c`` (one float with ``number``, else a float32
    array), kept in ``memo`` unless the value is a list."""
    number, numbers, width = c.number, c.numbers, c.size

    def make(value: Any) -> Any:
        if number is not None:
            out: Any = float(number(value))
        else:
            assert numbers is not None
            out = _padded(numbers(value), width, block, game)
        return out if type(value) is list else keep(memo, value, out)

    return make


def _check_columns(b: StateBlock, part: int, game: str) -> None:
    """Raises ValueError unless the columns of ``b`` tile each side's part of ``part``
    values, each with at most one of number, table and numbers."""
    flat = [c for entry in b.columns
            for c in (entry if isinstance(entry, tuple) else (entry,))]
    at = 0
    for c in sorted(flat, key=lambda c: c.at):
        if sum(x is not None for x in (c.number, c.table, c.numbers)) > 1:
            raise ValueError(f"{game}: column {c.attr!r} of state block {b.name!r} has "
                             f"more than one of number, table and numbers")
        if c.table is not None and len({len(x) for x in c.table}) != 1:
            raise ValueError(f"{game}: the table of column {c.attr!r} of state block "
                             f"{b.name!r} has entries of different lengths")
        if c.each and (b.sides or c.item is not None or not isinstance(c.attr, str)):
            raise ValueError(f"{game}: column {c.attr!r} of state block {b.name!r}: each "
                             f"goes with one field, no item and no sides")
        if c.at != at:
            raise ValueError(f"{game}: the columns of state block {b.name!r} do not tile "
                             f"its parts (a gap or overlap at {at})")
        at += c.width
    if at != part:
        raise ValueError(f"{game}: the columns of state block {b.name!r} fill {at} of "
                         f"{part} places per side")


def _emit_columns(b: StateBlock, start: int, size: int, src: _Source) -> None:
    """The lines of a block made of columns.

    Raises:
        ValueError: the columns do not tile each side's part.
    """
    game, emit = src.game, src.emit
    sides = b.sides or 1
    if size % sides:
        raise ValueError(f"{game}: state block {b.name!r} of {size} values is not {sides} "
                         f"equal parts")
    part = size // sides
    _check_columns(b, part, game)

    def read(c: Column) -> str:
        """The column's value (per side: its list of values), a length without sides."""
        at = "" if c.item is None else f"[{c.item}]"
        if isinstance(c.attr, str):
            value = f"s.{c.attr}{at}"
            return f"len({value})" if c.length and not b.sides else value
        if c.number is None and c.table is None and c.numbers is None:
            raise ValueError(f"{game}: column {c.attr!r} of state block {b.name!r} reads "
                             f"several fields and has no number, table or numbers")
        return f"({''.join(f's.{a}{at}, ' for a in c.attr)})"

    def maker(c: Column) -> str:
        """The global holding the column's table, or its memo of numbers per value."""
        if c.table is not None:
            return src.name(tuple(array("f", x) for x in c.table))
        if c.number is not None or c.numbers is not None:
            # the numbers of each (hashable) value seen, kept: a call costs more than a
            # look-up
            name = src.name({})
            src.names[name + "_"] = _maker(src.names[name], c, b.name, game)
            return name
        return ""

    def write(c: Column, name: str, value: str, at: str, indent: str,
              measured: bool) -> None:
        """The lines writing ``value``'s numbers at ``at`` (an expression; ``measured``:
        a length column's value is the length already)."""
        z = f"{at} + {c.item_width}"
        if c.table is not None:
            emit(f"{indent}row[{at}:{z}] = {name}[{value}]")
        elif c.number is not None or c.numbers is not None:
            emit(f"{indent}x = {name}.get({value}) if type({value}) is not list else None",
                 f"{indent}if x is None: x = {name}_({value})",
                 f"{indent}row[{at}{'' if c.number is not None else f':{z}'}] = x")
        else:
            x = f"len({value})" if c.length and not measured else value
            if c.offset:
                x = f"({x} - {float(c.offset)!r})"
            emit(f"{indent}row[{at}] = {x} / {float(c.scale)!r}")

    def changes(c: Column, name: str, old: str, indent: str) -> None:
        """The lines writing the numbers of the value ``c`` (changed since ``old``,
        without ``sides``): every number, or with ``each`` the items that changed."""
        a = start + c.at
        if not c.each:
            write(c, name, "c", str(a), indent, True)
            return
        w = c.item_width
        for i in range(c.each):  # unrolled: a comparison costs less than a loop step
            emit(f"{indent}v = c[{i}]",
                 f"{indent}if v != {old}[{i}]:")
            write(c, name, "v", str(a + i * w), indent + "    ", False)

    def each_side(c: Column, name: str, old: str, indent: str) -> None:
        """The lines writing the part of each side whose value in ``c`` (the list of
        the sides' values) changed since ``old``."""
        for k in range(sides):
            q = src.side(sides, k)
            emit(f"{indent}v = c[{q}]",
                 f"{indent}if v != {old}[{q}]:")
            write(c, name, "v", str(start + c.at + k * part), indent + "    ", False)

    def first(c: Column) -> Any:
        """What the kept value of ``c`` is before the first write."""
        return (_UNSET,) * c.each if c.each else _UNSET

    def column(c: Column, value: str) -> None:
        name = maker(c)
        a = start + c.at
        if not b.sides:
            j = src.slot(first(c))
            kept = "c" if c.length else "c[:] if type(c) is list else c" \
                if isinstance(c.attr, str) else "_kept(c)"
            emit(f"c = {value}",
                 f"if c != K[{j}]:")
            if c.each:
                emit(f"    o = K[{j}]")
            emit(f"    K[{j}] = {kept}")
            changes(c, name, "o", "    ")
            return
        if isinstance(c.attr, str):
            # the list of the sides' values checked as one, then each side's value
            j = src.slot([_UNSET] * sides)
            emit(f"c = {value}",
                 f"if c != K[{j}]:",
                 f"    o = K[{j}]",
                 f"    K[{j}] = c[:]")
            each_side(c, name, "o", "    ")
            return
        # several fields per side: each side's value kept and compared on its own
        emit(f"c = {value}")
        for k in range(sides):
            j = src.slot()
            q = src.side(sides, k)
            v = f"({''.join(f'c[{n}][{q}], ' for n in range(len(c.attr)))})"
            emit(f"v = {v}",
                 f"if v is not K[{j}] and v != K[{j}]:",
                 f"    K[{j}] = v")
            write(c, name, "v", str(a + k * part), "    ", False)

    for entry in b.columns:
        if isinstance(entry, Column) or (b.sides and not all(
                isinstance(c.attr, str) for c in entry)):
            for c in (entry,) if isinstance(entry, Column) else entry:
                column(c, read(c))
            continue
        # a group: its values as one tuple against the kept one, then each column's
        # (a group of per-side lists: then each list, then each side)
        j = src.slot(tuple([_UNSET] * sides for _ in entry) if b.sides
                     else tuple(first(c) for c in entry))
        rewrite = each_side if b.sides else changes
        emit(f"g = ({''.join(f'{read(c)}, ' for c in entry)})",
             f"if g != K[{j}]:",
             f"    o = K[{j}]",
             f"    K[{j}] = _kept(g)")
        for n, c in enumerate(entry):
            emit(f"    c = g[{n}]",
                 f"    if c != o[{n}]:")
            rewrite(c, maker(c), f"o[{n}]", "        ")
