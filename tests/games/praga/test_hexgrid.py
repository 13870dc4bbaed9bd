"""Hex geometry (hexgrid.py): axial neighbours, edges, corners, rotation and pixels."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from meeplehall.games.praga import hexgrid as hg

coords = st.tuples(st.integers(-20, 20), st.integers(-20, 20))
index = st.integers(0, 5)


@given(coords, index)
def test_neighbour_relation_is_symmetric(h, d):
    n = hg.neighbour(h, d)
    assert hg.distance(h, n) == 1
    assert hg.neighbour(n, hg.opposite(d)) == h
    assert hg.shared_edge(h, n) == d and hg.shared_edge(n, h) == hg.opposite(d)


@given(coords, index)
def test_each_vertex_is_a_corner_of_its_three_hexes(h, c):
    v = hg.vertex(h, c)
    assert h in v and len(set(v)) == 3
    for other in v:
        assert hg.vertex(other, hg.corner_of(other, v)) == v
        px = hg.corner_pixel(other, hg.corner_of(other, v), 10.0)
        qx = hg.corner_pixel(h, c, 10.0)
        assert abs(px[0] - qx[0]) < 1e-6 and abs(px[1] - qx[1]) < 1e-6


@given(index, index)
def test_rotation_round_trips(i, k):
    assert hg.unrotate_index(hg.rotate_index(i, k), k) == i
    assert hg.rotate_index(i, 0) == i and hg.rotate_index(i, 6) == i


@given(coords, st.floats(1.0, 50.0))
def test_pixel_round_trip(h, size):
    assert hg.from_pixel(*hg.to_pixel(h, size), size) == h


def test_rings_and_spirals():
    assert len(hg.ring((0, 0), 1)) == 6 and len(hg.ring((0, 0), 2)) == 12
    assert len(hg.spiral((3, -1), 2)) == 19
    assert all(hg.distance((0, 0), h) == 2 for h in hg.ring((0, 0), 2))
    assert set(hg.ring((0, 0), 1)) == set(hg.neighbours((0, 0)))


def test_edge_midpoints_sit_between_neighbours():
    for d in range(6):
        mx, my = hg.edge_midpoint((0, 0), d, 2.0)
        nx, ny = hg.to_pixel(hg.neighbour((0, 0), d), 2.0)
        assert abs(mx * 2 - nx) < 1e-6 and abs(my * 2 - ny) < 1e-6


def test_north_is_up_on_screen():
    assert hg.to_pixel(hg.neighbour((0, 0), 1))[1] < 0  # NE
    assert hg.to_pixel(hg.neighbour((0, 0), 4))[1] > 0  # SW
    assert hg.corner_pixel((0, 0), 1)[1] < 0  # corner 1 = top


def test_adjacent_pairs_and_bounds():
    pairs = list(hg.adjacent_pairs(hg.spiral((0, 0), 1)))
    assert len(pairs) == 12
    x0, y0, x1, y1 = hg.bounds([(0, 0)], 1.0)
    assert abs(x1 - x0 - 3 ** 0.5) < 1e-9 and abs(y1 - y0 - 2.0) < 1e-9
