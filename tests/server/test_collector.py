"""The server's garbage-collection policy (``server.cli.CollectorPolicy``): young objects
are frozen out of the collector instead of being walked by it, and the reference cycles
that die among frozen objects are reclaimed by a full collection when one is due."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from meeplehall.server.cli import CollectorPolicy


class Node:
    def __init__(self) -> None:
        self.me: Node | None = self


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def restored_collector() -> Iterator[None]:
    thresholds = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        gc.collect()


@pytest.mark.usefixtures("restored_collector")
def test_young_objects_are_frozen_and_dead_cycles_reclaimed_by_a_due_full_collection(
) -> None:
    clock = Clock()
    policy = CollectorPolicy(growth=1.05, full_every=10.0, clock=clock)
    frozen = gc.get_freeze_count()
    assert gc.get_threshold()[0] == 100_000

    young = [[i] for i in range(100)]
    cycle = Node()
    dead = weakref.ref(cycle)
    assert policy.step() is False
    assert gc.get_freeze_count() >= frozen + len(young) + 1
    assert gc.get_count()[0] == 0

    del cycle  # now garbage, but frozen: the young collections never see it
    gc.collect(0)
    gc.collect(1)
    assert dead() is not None

    grown = [[i] for i in range(gc.get_freeze_count() // 10)]
    assert policy.step() is False  # grown, but not yet time to look
    assert dead() is not None
    clock.now = 10.0
    assert policy.step() is True
    assert dead() is None and policy.full_collections == 1
    clock.now = 20.0
    assert policy.step() is False  # looked again: not grown since
    assert len(grown) > 0 and len(young) == 100
