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
from typing import Any


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def diff(old: Any, new: Any, path: str = "") -> list[dict[str, Any]]:
    """Operations that turn ``old`` into ``new``."""
    if isinstance(old, dict) and isinstance(new, dict):
        ops: list[dict[str, Any]] = []
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in new.items():
            sub = f"{path}/{_escape(key)}"
            if key not in old:
                ops.append({"op": "add", "path": sub, "value": value})
            elif old[key] != value or type(old[key]) is not type(value):
                ops.extend(diff(old[key], value, sub))
        return ops
    if isinstance(old, list) and isinstance(new, list):
        if len(new) > len(old) and new[:len(old)] == old:
            return [{"op": "add", "path": f"{path}/-", "value": v} for v in new[len(old):]]
        if len(new) == len(old):
            out: list[dict[str, Any]] = []
            for i, (a, b) in enumerate(zip(old, new, strict=True)):
                if a != b or type(a) is not type(b):
                    out.extend(diff(a, b, f"{path}/{i}"))
            return out
    return [{"op": "replace", "path": path, "value": new}]


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
