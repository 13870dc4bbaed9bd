"""JSON patches between views: applying ``diff(old, new)`` to ``old`` gives ``new``."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from meeplehall.server.patch import apply_patch, diff

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text("ab/~", max_size=2))
_json = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text("ab/~", max_size=2), inner, max_size=4)),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(_json, _json)
def test_diff_then_apply_gives_the_new_document(old: Any, new: Any) -> None:
    ops = diff(old, new)
    patched = apply_patch(old, ops)
    assert patched == new
    assert _types(patched) == _types(new)  # 1 and True, 0 and False stay apart


@given(_json)
def test_no_change_no_operations(doc: Any) -> None:
    assert diff(doc, doc) == []


def test_a_grown_list_is_appended_to() -> None:
    assert diff({"log": ["a"]}, {"log": ["a", "b"]}) == [
        {"op": "add", "path": "/log/-", "value": "b"}]


def _types(doc: Any) -> Any:
    if isinstance(doc, dict):
        return {k: _types(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_types(v) for v in doc]
    return type(doc).__name__
