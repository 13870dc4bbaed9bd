"""Game states as plain JSON data and back.

A state is a ``__slots__`` object whose fields are ints, bools, strings, lists and
tuples (nested), an options dataclass (``opts``) and an ``Rng`` (``rng``). JSON has only
lists, so ``to_plain`` turns tuples into lists and ``state_from_plain`` turns them back:
fields named in ``list_fields`` are lists whose items may be tuples; every other list
becomes a tuple.

>>> to_plain((1, [2, (3,)], {"a": (4,)}))
[1, [2, [3]], {'a': [4]}]
>>> tuplify([1, [2, [3]]])
(1, (2, (3,)))
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, TypeVar

from meeplehall.core.messages import Message
from meeplehall.core.rng import Rng

S = TypeVar("S")


def to_plain(value: Any) -> Any:
    """Tuples and lists to lists, recursively (dict values too)."""
    if isinstance(value, tuple | list):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    return value


def tuplify(value: Any) -> Any:
    """Lists to tuples, recursively."""
    if isinstance(value, list):
        return tuple(tuplify(v) for v in value)
    return value


def state_to_plain(state: Any, slots: Collection[str]) -> dict[str, Any]:
    """Every field of ``state`` as JSON-compatible data."""
    out: dict[str, Any] = {}
    for name in slots:
        value = getattr(state, name)
        if name == "opts":
            value = value.to_params()
        elif name == "rng":
            value = value.state
        elif name == "log":  # messages: their JSON form
            out[name] = [m.to_json() for m in value]
            continue
        out[name] = to_plain(value)
    return out


def state_from_plain(cls: type[S], data: Mapping[str, Any], slots: Collection[str],
                     list_fields: Collection[str],
                     make_options: Callable[..., Any]) -> S:
    """Inverse of ``state_to_plain``; a missing field raises ``ValueError`` naming it."""
    state = cls.__new__(cls)
    for name in slots:
        if name not in data:
            raise ValueError(f"state field {name!r} is missing")
        value = data[name]
        if name == "opts":
            value = make_options(**value)
        elif name == "rng":
            value = Rng(int(value))
        elif name == "log":
            value = [Message.from_json(m) for m in value]
        elif name in list_fields:
            value = [tuplify(v) for v in value]
        else:
            value = tuplify(value)
        setattr(state, name, value)
    return state
