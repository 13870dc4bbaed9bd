"""JSON patches (RFC 6902 subset) between two views of the same seat.

A patch is computed from two views only, so it cannot carry anything the newer view
does not hold (STYLE.md section 5). Lists that only grew become ``add .../-`` operations,
which keeps the pushes of an ever-growing game log small.

>>> old = {"a": 1, "log": ["x"], "b": {"c": [1, 2]}}
>>> new = {"a": 2, "log": ["x", "y"], "b": {"c": [1, 3]}}
>>> ops = diff(old, new)
>>> ops
[{'op': 'replace', 'path': '/a', 'value': 2}, {'op': 'add', 'path': '/log/-', 'value': 'y'}, \
{'op': 'replace', 'path': '/b/c/1', 'value': 3}]
>>> apply_patch(old, ops) == new
True
"""

from __future__ import annotations

import copy
import marshal
from operator import is_
from typing import Any


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


Memo = dict[Any, bytes]


def diff(old: Any, new: Any, path: str = "", old_memo: Memo | None = None,
         new_memo: Memo | None = None) -> list[dict[str, Any]]:
    """Operations that turn ``old`` into ``new``.

    ``old_memo`` and ``new_memo`` (optional, for two objects) remember the ``marshal``
    bytes of their members for the type-exact comparison (see ``_same``): pass the same
    dict with the same (unchanged) document every time, and a member that stays equal
    from one document to the next is serialised once per document, not twice per diff
    (a view is the newer side of one diff and the older side of the next)."""
    ops: list[dict[str, Any]] = []
    if old_memo is not None and new_memo is not None and type(old) is dict \
            and type(new) is dict:
        if old is not new:
            _diff_members(old, new, path, ops, old_memo, new_memo)
        return ops
    if not _same(old, new):
        _diff(old, new, path, ops)
    return ops


def _diff_members(old: dict[Any, Any], new: dict[Any, Any], path: str,
                  ops: list[dict[str, Any]], old_memo: Memo, new_memo: Memo) -> None:
    """The object branch of ``_diff``, with memos of the members' bytes."""
    for key in old:
        if key not in new:
            ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
    for key, value in new.items():
        if key not in old:
            ops.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": value})
            continue
        before = old[key]
        if before is value:
            continue
        kind = type(value)
        if (kind is dict or kind is list) and type(before) is kind and before == value:
            try:
                left = old_memo.get(key)
                if left is None:
                    left = old_memo[key] = marshal.dumps(before)
                right = new_memo.get(key)
                if right is None:
                    right = new_memo[key] = marshal.dumps(value)
            except ValueError:  # not plain data: the general comparison decides
                pass
            else:
                if left == right:
                    continue
        if not _same(before, value):
            _diff(before, value, f"{path}/{_escape(key)}", ops)


def _same(a: Any, b: Any) -> bool:
    """``a == b`` without Python's ``True == 1 == 1.0``: JSON tells them apart. Equal
    containers are checked once more by their ``marshal`` bytes, which carry every
    value's type (both are C loops over the subtree, much cheaper than a Python walk)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if type(a) is list:
        if len(a) == len(b) and all(map(is_, a, b)):
            return True  # the same elements: equal, and of equal types (no walk, no copy)
    elif type(a) is dict and len(a) == len(b) and all(map(is_, a.values(), b.values())) \
            and all(map(is_, a, b)):
        return True  # the same keys in the same order, with the same values
    if a != b:
        return False
    if type(a) is dict or type(a) is list:
        try:
            return marshal.dumps(a) == marshal.dumps(b)
        except ValueError:  # not plain data: a walk decides
            return _same_walk(a, b)
    return True


def _same_walk(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_walk(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_walk(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]]) -> None:
    # Equal subtrees are skipped by one comparison in C; paths are built only where
    # something changed (this runs for every seat on every move).
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": value})
            elif not _same(old[key], value):
                _diff(old[key], value, f"{path}/{_escape(key)}", ops)
        return
    if isinstance(old, list) and isinstance(new, list):
        count = len(old)
        if len(new) > count and (all(map(is_, old, new)) or _same(new[:count], old)):
            ops.extend({"op": "add", "path": f"{path}/-", "value": v} for v in new[count:])
            return
        if len(new) == count:
            for i, (a, b) in enumerate(zip(old, new, strict=True)):
                if not _same(a, b):
                    _diff(a, b, f"{path}/{i}", ops)
            return
    ops.append({"op": "replace", "path": path, "value": new})


def apply_patch(doc: Any, ops: list[dict[str, Any]]) -> Any:
    """Return ``doc`` with ``ops`` applied (the input is not changed)."""
    doc = copy.deepcopy(doc)
    for op in ops:
        tokens = [_unescape(t) for t in op["path"].split("/")[1:]]
        if not tokens:
            doc = copy.deepcopy(op["value"])
            continue
        parent = doc
        for token in tokens[:-1]:
            parent = parent[int(token)] if isinstance(parent, list) else parent[token]
        last = tokens[-1]
        if op["op"] == "remove":
            if isinstance(parent, list):
                del parent[int(last)]
            else:
                del parent[last]
        elif isinstance(parent, list):
            if last == "-":
                parent.append(copy.deepcopy(op["value"]))
            elif op["op"] == "add":
                parent.insert(int(last), copy.deepcopy(op["value"]))
            else:
                parent[int(last)] = copy.deepcopy(op["value"])
        else:
            parent[last] = copy.deepcopy(op["value"])
    return doc
