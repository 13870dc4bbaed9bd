"""Seeded pseudo-random numbers whose whole state is one plain integer.

The generator is SplitMix64 (Steele, Lea and Flood, 2014). We write the integer and
shuffle helpers ourselves so that a game record replays identically on every Python
release: the standard library only promises that ``random()`` repeats, not ``shuffle``
or ``randrange``.

>>> r = Rng.from_seed(7)
>>> [r.randbelow(6) + 1 for _ in range(5)]
[1, 4, 2, 4, 4]
>>> r2 = Rng(r.state)
>>> r2.randbelow(1000) == r.randbelow(1000)
True
"""

from __future__ import annotations

import secrets
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

# Game seeds lie strictly between -SEED_BOUND and SEED_BOUND: a JavaScript number holds
# every integer in that range exactly, so a record is the same in every client.
SEED_BOUND = 2**53


def new_seed() -> int:
    """A random game seed for a new game, in ``[0, SEED_BOUND)``."""
    return secrets.randbelow(SEED_BOUND)


def check_seed(seed: object) -> int:
    """Return a seed a person gave, or raise ``ValueError`` saying why it is refused.

    >>> check_seed(2**53 - 1)
    9007199254740991
    >>> check_seed(-(2**53))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: seed -9007199254740992 is out of range: a seed must be a whole number between ...
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"a seed must be a whole number, got {seed!r}")
    if not -SEED_BOUND < seed < SEED_BOUND:
        raise ValueError(
            f"seed {seed} is out of range: a seed must be a whole number between "
            f"{-(SEED_BOUND - 1)} and {SEED_BOUND - 1} (larger numbers are not exact in "
            "a browser)")
    return seed

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class Rng:
    """A tiny generator; ``state`` is the only field and is plain data."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """Start a generator from any integer seed (negative seeds are folded in)."""
        return cls((seed * 0x2545F4914F6CDD1D + 0x1234567) & _MASK)

    def next_u64(self) -> int:
        """Return the next 64-bit output and advance the state."""
        s = (self.state + _GAMMA) & _MASK
        self.state = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """Return a uniform integer in ``[0, n)`` without modulo bias (Lemire's method).

        >>> Rng(1).randbelow(1)
        0
        """
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, got {n}")
        m = self.next_u64() * n
        low = m & _MASK
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next_u64() * n
                low = m & _MASK
        return m >> 64

    def randint(self, a: int, b: int) -> int:
        """Return a uniform integer in ``[a, b]``."""
        return a + self.randbelow(b - a + 1)

    def choice(self, seq: Sequence[T]) -> T:
        """Return a uniformly chosen element of a non-empty sequence."""
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates, from the end).

        >>> xs = list(range(6)); Rng(3).shuffle(xs); sorted(xs) == list(range(6))
        True
        """
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def spawn(self) -> Rng:
        """Return an independent generator seeded from this one (advances this one)."""
        return Rng(self.next_u64())

    def clone(self) -> Rng:
        return Rng(self.state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return f"Rng({self.state:#x})"
