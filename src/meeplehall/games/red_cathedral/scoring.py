"""Scoring: the Recognition/Prestige track, tower majorities and final scoring.

The marker is one integer ``t`` = lap * lap_length + position (RC-SCORE-2). Prestige is
the number of Prestige spaces at or behind the marker, 40 per completed lap
(RC-SCORE-8).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from functools import cache

from meeplehall.games.red_cathedral.components import Components, load


class Track:
    """Movement rules of the scoring track (RC-SCORE-3..8), from ``track.toml``."""

    def __init__(self, lap_length: int, prestige_positions: Sequence[int]) -> None:
        self.lap = lap_length
        self.positions = tuple(prestige_positions)
        self.per_lap = len(self.positions)
        marks = set(self.positions)
        self.is_prestige = tuple(p in marks for p in range(lap_length))
        # next Prestige position strictly after pos (may be in the next lap)
        # nearest Prestige position strictly before pos within the lap, or -1
        self._prev = tuple(
            max((q for q in self.positions if q < p), default=-1) for p in range(lap_length))
        self._next = tuple(
            next((q for q in self.positions if q > p), self.positions[0] + lap_length)
            for p in range(lap_length))

    def pp(self, t: int) -> int:
        """Prestige of a marker at absolute space ``t`` (RC-SCORE-8)."""
        if t < 0:
            return 0
        lap, pos = divmod(t, self.lap)
        return self.per_lap * lap + bisect_right(self.positions, pos)

    def on_prestige(self, t: int) -> bool:
        return t >= 0 and self.is_prestige[t % self.lap]

    def next_prestige(self, t: int) -> int:
        """The nearest Prestige space strictly ahead (RC-SCORE-5)."""
        if t < 0:
            return self.positions[0]
        lap, pos = divmod(t, self.lap)
        return lap * self.lap + self._next[pos]

    def prev_prestige(self, t: int) -> int | None:
        """The nearest Prestige space strictly behind, or None (RC-SCORE-6)."""
        if t <= 0:
            return None
        lap, pos = divmod(t, self.lap)
        q = self._prev[pos]
        if q >= 0:
            return lap * self.lap + q
        if lap == 0:
            return None
        return (lap - 1) * self.lap + self.positions[-1]

    def gain_pp(self, t: int, n: int) -> int:
        for _ in range(n):
            t = self.next_prestige(t)
        return t

    def lose_pp(self, t: int, n: int, full_point: bool = False) -> int | None:
        """Lose ``n`` Prestige; None if the loss cannot be made (RC-SCORE-6).

        With ``full_point`` (the alternative reading of RC-AMB-4) a marker between two
        Prestige spaces first drops to the space at or behind it without paying.
        """
        if n == 1 and not full_point:
            return self.prev_prestige(t)
        for _ in range(n):
            if full_point and not self.on_prestige(t):
                back = self.prev_prestige(t)
                if back is None:
                    return None
                t = back
            back = self.prev_prestige(t)
            if back is None:
                return None
            t = back
        return t

    def round_down(self, t: int) -> int:
        """Final round-down (RC-FINAL-1): back to a Prestige space, else to 0 (RC-AMB-5)."""
        if self.on_prestige(t):
            return t
        back = self.prev_prestige(t)
        return 0 if back is None else back


@cache
def track() -> Track:
    comps = load()
    return Track(comps.lap_length, comps.prestige_positions)


def tower_value(completed_cards: int, ornaments: int) -> int:
    """RC-TOWER-1: 2 per completed card plus 1 per Ornamentation."""
    return 2 * completed_cards + ornaments


def tower_payout(value: int, presence: Mapping[int, int], players: int) -> dict[int, int]:
    """Prestige each seat earns from one tower (RC-TOWER-3, RC-2P-1).

    Args:
        value: the tower's value (RC-TOWER-1).
        presence: seat -> presence (Banners on completed cards + Ornamentations).
        players: player count; 2 (and solo) use the two-player rule.

    Returns:
        seat -> Prestige for every seat with presence > 0; seats without presence are
        absent.

    >>> tower_payout(11, {0: 3, 1: 3, 2: 1}, 3)
    {0: 8, 1: 8, 2: 2}
    >>> tower_payout(9, {0: 2, 1: 1}, 2)
    {0: 9, 1: 3}
    """
    present = sorted((s for s, p in presence.items() if p > 0),
                     key=lambda s: (-presence[s], s))
    if not present:
        return {}
    if players <= 2:
        if len(present) == 1:
            return {present[0]: value}
        first, second = present[0], present[1]
        if presence[first] == presence[second]:
            return {first: 0, second: 0}
        return {first: value, second: value // 3}
    result: dict[int, int] = {}
    position_value = value
    i = 0
    while i < len(present):
        j = i
        while j + 1 < len(present) and presence[present[j + 1]] == presence[present[i]]:
            j += 1
        share = 0
        for _ in range(i, j + 1):
            share += position_value
            position_value //= 2
        for seat in present[i:j + 1]:
            result[seat] = share // (j - i + 1)
        i = j + 1
    return dict(sorted(result.items()))


def tower_presence(owner: Sequence[int], done: Sequence[bool], orn: Sequence[int],
                   slots: Sequence[int]) -> tuple[int, dict[int, int]]:
    """Value and presence per side of one tower (RC-TOWER-1, RC-TOWER-2)."""
    completed = 0
    ornaments = 0
    presence: dict[int, int] = {}
    for slot in slots:
        if done[slot]:
            completed += 1
            presence[owner[slot]] = presence.get(owner[slot], 0) + 1
        if orn[slot] >= 0:
            ornaments += 1
            presence[orn[slot]] = presence.get(orn[slot], 0) + 1
    return tower_value(completed, ornaments), presence


def leftover_pp(materials: int, rubles: int) -> int:
    """RC-FINAL-2: 1 Prestige per 5 Materials and Rubles together."""
    return (materials + rubles) // 5


def components() -> Components:
    return load()
