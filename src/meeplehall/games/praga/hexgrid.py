"""Hex geometry for Praga Caput Regni: axial coordinates, edges, corners, rotation, pixels.

Used by the rules (adjacency, corner bonuses on the city map and around each action
board) and meant to be reused unchanged by a drawing client. Game-agnostic: it knows
hexes, not tiles.

Conventions (pointy-top hexes, axial coordinates ``(q, r)`` as in Red Blob Games'
"Hexagonal Grids"):

* Direction / edge ``i`` (0..5) faces the angle ``60 * i`` degrees, counter-clockwise
  from east in the usual maths frame (y up): 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE.
* Corner ``i`` (0..5) lies at ``60 * i + 30`` degrees, between edge ``i`` and edge
  ``i + 1``: 0 upper-right, 1 top, 2 upper-left, 3 lower-left, 4 bottom, 5 lower-right.
* A tile printed with symbols on its own edges/corners and placed with ``orientation``
  ``k`` (0..5) is turned ``60 * k`` degrees counter-clockwise: its edge ``e`` lies on
  board edge ``(e + k) % 6`` and its corner ``c`` on board corner ``(c + k) % 6``.
* On screen, y grows downwards: ``to_pixel`` returns screen coordinates, so "north" (NE,
  NW neighbours, smaller ``r``) is up.

>>> neighbour((0, 0), 1)
(1, -1)
>>> distance((0, 0), (2, 1))
3
>>> opposite(0)
3
>>> shared_edge((0, 0), (0, 1))
5
>>> vertex((0, 0), 0) == vertex((1, 0), 2) == vertex((1, -1), 4)
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

Hex = tuple[int, int]
Vertex = tuple[Hex, Hex, Hex]
"""A corner point of the grid, named by the three hexes around it, sorted."""

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")
CORNER_NAMES: tuple[str, ...] = ("upper-right", "top", "upper-left", "lower-left",
                                 "bottom", "lower-right")
SQRT3 = math.sqrt(3.0)


def add(a: Hex, b: Hex) -> Hex:
    return (a[0] + b[0], a[1] + b[1])


def neighbour(h: Hex, direction: int) -> Hex:
    """The hex across edge ``direction`` of ``h``."""
    d = DIRECTIONS[direction % 6]
    return (h[0] + d[0], h[1] + d[1])


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours in edge order 0..5."""
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def opposite(edge: int) -> int:
    """The edge of the neighbour that touches edge ``edge``."""
    return (edge + 3) % 6


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two hexes.

    >>> distance((0, 0), (-1, 3))
    3
    """
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def is_adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def shared_edge(a: Hex, b: Hex) -> int:
    """The edge of ``a`` that touches ``b``.

    Raises:
        ValueError: the hexes are not neighbours.
    """
    d = (b[0] - a[0], b[1] - a[1])
    try:
        return DIRECTIONS.index(d)
    except ValueError:
        raise ValueError(f"hexes {a} and {b} are not neighbours") from None


def ring(centre: Hex, radius: int) -> list[Hex]:
    """Hexes at exactly ``radius`` steps, starting east of the centre... walking
    counter-clockwise (radius 0 gives the centre).

    >>> len(ring((0, 0), 2))
    12
    """
    if radius == 0:
        return [centre]
    out: list[Hex] = []
    h = (centre[0] + DIRECTIONS[4][0] * radius, centre[1] + DIRECTIONS[4][1] * radius)
    for side in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbour(h, side)
    return out


def spiral(centre: Hex, radius: int) -> list[Hex]:
    """The centre and every ring up to ``radius``."""
    out: list[Hex] = []
    for k in range(radius + 1):
        out.extend(ring(centre, k))
    return out


def rotate_index(index: int, orientation: int) -> int:
    """A tile's own edge/corner ``index`` after turning it ``orientation`` steps.

    >>> rotate_index(5, 2)
    1
    """
    return (index + orientation) % 6


def unrotate_index(index: int, orientation: int) -> int:
    """Inverse of ``rotate_index``: which of the tile's own edges lies on board edge
    ``index``."""
    return (index - orientation) % 6


def corner_hexes(h: Hex, corner: int) -> tuple[Hex, Hex, Hex]:
    """The hex and the two neighbours meeting at its corner ``corner``."""
    return (h, neighbour(h, corner), neighbour(h, corner + 1))


def vertex(h: Hex, corner: int) -> Vertex:
    """Canonical name of corner ``corner`` of hex ``h``: the sorted three hexes."""
    a, b, c = sorted(corner_hexes(h, corner))
    return (a, b, c)


def corner_of(h: Hex, v: Vertex) -> int:
    """Which corner of ``h`` is the vertex ``v``.

    Raises:
        ValueError: ``h`` is not one of the hexes around ``v``.
    """
    for c in range(6):
        if vertex(h, c) == v:
            return c
    raise ValueError(f"vertex {v} is not a corner of hex {h}")


def vertices(h: Hex) -> tuple[Vertex, ...]:
    return tuple(vertex(h, c) for c in range(6))


def edge_key(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """Canonical name of the edge between two neighbouring hexes."""
    shared_edge(a, b)
    return (a, b) if a <= b else (b, a)


def to_pixel(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """Screen centre of hex ``h`` (y down); ``size`` is the centre-to-corner distance.

    >>> to_pixel((0, 0))
    (0.0, 0.0)
    >>> [round(v, 3) for v in to_pixel((0, 2), 10)]
    [17.321, 30.0]
    """
    q, r = h
    return (size * SQRT3 * (q + r / 2.0), size * 1.5 * r)


def corner_pixel(h: Hex, corner: int, size: float = 1.0) -> tuple[float, float]:
    """Screen position of corner ``corner`` of hex ``h``."""
    cx, cy = to_pixel(h, size)
    angle = math.radians(60 * corner + 30)
    return (cx + size * math.cos(angle), cy - size * math.sin(angle))


def polygon(h: Hex, size: float = 1.0) -> list[tuple[float, float]]:
    """The six screen corners of ``h`` in corner order (for drawing)."""
    return [corner_pixel(h, c, size) for c in range(6)]


def edge_midpoint(h: Hex, edge: int, size: float = 1.0) -> tuple[float, float]:
    """Screen midpoint of edge ``edge`` of ``h`` (where an edge symbol is drawn)."""
    cx, cy = to_pixel(h, size)
    angle = math.radians(60 * edge)
    inner = size * SQRT3 / 2.0
    return (cx + inner * math.cos(angle), cy - inner * math.sin(angle))


def from_pixel(x: float, y: float, size: float = 1.0) -> Hex:
    """The hex containing screen point ``(x, y)`` (for clicks).

    >>> from_pixel(*to_pixel((3, -2), 7.5), 7.5)
    (3, -2)
    """
    qf = (SQRT3 / 3.0 * x - y / 3.0) / size
    rf = (2.0 / 3.0 * y) / size
    return _round(qf, rf)


def _round(qf: float, rf: float) -> Hex:
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return (int(q), int(r))


def bounds(hexes: Iterable[Hex], size: float = 1.0) -> tuple[float, float, float, float]:
    """Screen bounding box ``(min_x, min_y, max_x, max_y)`` of some hexes, corners
    included (for sizing a drawing)."""
    xs: list[float] = []
    ys: list[float] = []
    for h in hexes:
        for x, y in polygon(h, size):
            xs.append(x)
            ys.append(y)
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))


def adjacent_pairs(hexes: Iterable[Hex]) -> Iterator[tuple[Hex, Hex]]:
    """Every unordered pair of neighbours within ``hexes`` (sorted, each once)."""
    hs = sorted(set(hexes))
    present = set(hs)
    for h in hs:
        for n in neighbours(h):
            if n in present and h < n:
                yield (h, n)
