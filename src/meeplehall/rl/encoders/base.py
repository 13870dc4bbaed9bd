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

from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
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
        fill: ``fill(state, seat, pending)``: at most the block's size of numbers.
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
    """

    name: str
    fill: StateFiller = field(repr=False)
    key: StateFiller | None = field(default=None, repr=False)
    covers: int = 1
    memo: bool = False
    live: bool = False
    ident: bool = False
    sides: int = 0


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
            {} if (sb.memo or sb.ident) and sb.key is not None else None
            for sb in self.state_blocks]

    def indices(self, legal: Iterable[Any]) -> list[int]:
        """The catalogue index of each action, in order. The engines hand out the same
        action objects again and again, so each object's index is remembered by
        identity (the object is kept with it, so its id cannot be reused meanwhile).

        Raises:
            KeyError: an action is not in the catalogue.
        """
        memo = self._by_id
        out = []
        for action in legal:
            hit = memo.get(id(action))
            if hit is None or hit[0] is not action:
                if len(memo) >= 1 << 16:
                    memo.clear()
                hit = memo[id(action)] = (action, self.action_index(action))
            out.append(hit[1])
        return out

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


class Observer:
    """Observations of one table, encoded from its engine state into preallocated arrays.

    One float32 row per seat is kept from call to call; ``encode`` rewrites only the
    blocks (or, for per-side blocks, the parts) whose key changed since that seat's last
    observation. An encoder is shared by every table of a configuration, an observer
    belongs to one table (or one slot of a vector environment).

    Raises:
        ValueError: the encoder has no state blocks.
    """

    def __init__(self, encoder: Encoder, seats: int) -> None:
        if not encoder.state_blocks:
            raise ValueError(f"{encoder.game_name}: no state encoder")
        self.encoder = encoder
        self.rows = np.zeros((seats, encoder.size), dtype=np.float32)
        # One step per block, or per part of a per-side block: (start, size, key, fill,
        # memo, mode, part, parts, block number); mode 0 plain, 1 live key, 2 memo
        # keyed by (seat, key), 3 memo keyed by the key's identity.
        plan = []
        for i, (b, (start, size), memo) in enumerate(zip(
                encoder.state_blocks, encoder.state_slices, encoder.memos, strict=True)):
            mode = 3 if b.ident else 2 if memo is not None else 1 if b.live else 0
            if b.sides:
                if size % b.sides:
                    raise ValueError(f"{encoder.game_name}: state block {b.name!r} of "
                                     f"{size} values is not {b.sides} equal parts")
                part = size // b.sides
                plan += [(start + k * part, part, b.key, b.fill, memo, mode, k, b.sides, i)
                         for k in range(b.sides)]
            else:
                plan.append((start, size, b.key, b.fill, memo, mode, -1, 0, i))
        self._plan = tuple(plan)
        self._keys: list[list[Any]] = [[_UNSET] * len(self._plan) for _ in range(seats)]
        # Blocks are written through a float32 memoryview from array("f", numbers): about
        # half the cost of assigning a list to a numpy slice.
        self._views = [row.data for row in self.rows]
        self._zeros = memoryview(array("f", bytes(4 * encoder.size)))

    def __deepcopy__(self, memo: dict[int, Any]) -> Observer:
        """A fresh observer of the same encoder (what it kept is only a cache)."""
        return Observer(self.encoder, len(self.rows))

    def forget(self) -> None:
        """Drop what was kept (call it when the table starts a new game)."""
        for keys in self._keys:
            keys[:] = [_UNSET] * len(keys)

    def encode(self, state: Any, seat: int) -> np.ndarray:
        """``seat``'s observation of ``state``: the observer's own row, overwritten by the
        next call for that seat (copy it to keep it)."""
        pending = self.encoder.pending(state, seat)
        row = self._views[seat]
        keys = self._keys[seat]
        j = -1
        for start, size, key, fill, memo, mode, part, parts, i in self._plan:
            j += 1
            who = seat if part < 0 else (seat + part) % parts
            if key is None:
                values = array("f", fill(state, who, pending))
            else:
                k = key(state, who, pending)
                old = keys[j]
                if old is k or (mode != 3 and old == k and old is not _UNSET):
                    continue
                if mode == 3:  # an interned key: its numbers by identity (else by value)
                    keys[j] = k
                    hit = memo.get((who, id(k)))
                    if hit is None or hit[0] is not k:
                        values = memo.get((who, k))
                        if values is None:
                            values = keep(memo, (who, k), self._padded(
                                fill(state, who, pending), size, i), MEMO_ENTRIES)
                        hit = keep(memo, (who, id(k)), (k, values), MEMO_ENTRIES)
                    row[start:start + size] = hit[1]
                    continue
                if mode == 1:
                    keys[j] = tuple([x[:] if type(x) is list else x for x in k])
                else:
                    keys[j] = k
                if mode == 2:
                    values = memo.get((who, k))
                    if values is None:
                        values = keep(memo, (who, k),
                                      self._padded(fill(state, who, pending), size, i),
                                      MEMO_ENTRIES)
                    row[start:start + size] = values
                    continue
                values = array("f", fill(state, who, pending))
            if len(values) != size:
                values = self._padded(values, size, i)
            row[start:start + size] = values
        out: np.ndarray = self.rows[seat]
        return out

    def view(self, seat: int) -> memoryview:
        """``seat``'s row as a float32 memoryview (what ``encode`` wrote last)."""
        return self._views[seat]

    def _padded(self, numbers: Sequence[float], size: int, i: int) -> array[float]:
        """A block's numbers as float32, zero-padded to its size.

        Raises:
            ValueError: more numbers than the block's size (a layout bug).
        """
        values = array("f", numbers)
        if len(values) > size:
            raise ValueError(f"{self.encoder.game_name}: state block "
                             f"{self.encoder.state_blocks[i].name!r} has {len(values)} "
                             f"values for {size} places")
        values.extend(self._zeros[:size - len(values)])
        return values
