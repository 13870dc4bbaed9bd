"""The Red Cathedral's part of the conformance suite (``tests/conformance/``).

Golden games, perft counts and the solo playthrough are kept in this folder
(``golden/``, ``perft.txt``; regenerate with
``python tests/games/red_cathedral/regen_golden.py``). The property tests play every
player count and the advanced Workshop side; after every step Materials are conserved
(RC-COMP-11), no Inventory overflows (RC-INV-1), no Market space holds more than 3 dice
(RC-MARKET-4) and the counters stay sane.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from meeplehall.games.red_cathedral.components import load
from meeplehall.games.red_cathedral.effects import free_space
from meeplehall.games.red_cathedral.state import RCState
from tests.conformance.spec import Conformance, PropertySet
from tests.games.red_cathedral.fixtures import held

C = load()


def materials_conserved(s: RCState) -> None:
    """Supply + Inventories + cards' deliveries + Ivan's cards = the game's totals."""
    out = held(s)
    assert [s.supply[m] + out[m] for m in range(6)] == list(C.supply), "Materials leaked"
    assert min(s.supply) >= 0


def inventories_fit(s: RCState) -> None:
    for side in range(s.players):
        assert free_space(s, side) >= 0, f"seat {side}'s Inventory overflows"
        assert min(s.inv[side]) >= 0


def dice_capacity(s: RCState) -> None:
    assert all(s.die_pos.count(space) <= 3 for space in range(8)), s.die_pos


def sane_counters(s: RCState) -> None:
    assert all(r >= 0 for r in s.rubles) and all(sc >= 0 for sc in s.score)
    assert all(b >= 0 for b in s.inv_banners + s.out_banners)
    for side in range(s.sides):
        assert s.completed[side] == sum(1 for k, o in enumerate(s.owner)
                                        if o == side and s.done[k])


INVARIANTS = (materials_conserved, inventories_fit, dice_capacity, sane_counters)


def _view_summary(view: dict[str, Any]) -> list[str]:
    lines = []
    for side in view["sides"]:
        extra = ""
        if "rubles" in side:
            inv = ", ".join(f"{n} {m}" for m, n in side["inventory"].items()) or "empty"
            extra = f", {side['rubles']} Rubles, Inventory {inv} (of {side['capacity']})"
        lines.append(f"    {side['name']}: track {side['recognition']} "
                     f"({side['prestige']} PP), {side['completed']} completed{extra}")
    market = []
    for space in view["market"]:
        dice = "/".join(f"{d['colour']}{d['value']}" for d in space["dice"]) or "-"
        market.append(f"{space['space']}:{space['tile']['amount']} "
                      f"{space['tile']['resource']}[{dice}]")
    lines.append("    market " + " ".join(market))
    if "ivan" in view:
        row = " ".join(f"{c['card']}({c['die']}{'' if c['face_up'] else ', down'})"
                       for c in view["ivan"]["row"])
        lines.append(f"    Ivan's row {row}; Banners {view['ivan']['banners']}")
    return lines


def _properties(players: int, advanced: bool, playouts: int) -> PropertySet:
    params: dict[str, Any] = {"players": players}
    if advanced:
        params["advanced_workshops"] = True
    return PropertySet(f"{players}p" + ("-advanced" if advanced else ""), params,
                       playouts=playouts, replays=5, round_trips=4)


SPEC = Conformance(
    game="red-cathedral",
    here=Path(__file__).resolve().parent,
    title="The Red Cathedral",
    golden_games=(
        ("solo", {"players": 1}, 11, 101),
        ("two_players", {"players": 2}, 12, 102),
        ("three_players", {"players": 3}, 13, 103),
        ("four_players", {"players": 4}, 14, 104),
        ("three_players_advanced", {"players": 3, "advanced_workshops": True}, 15, 105),
    ),
    perft_seeds=(1, 7),
    perft_players=(1, 2, 3, 4),
    cheap_perft=4000,
    playthrough=({"players": 1}, 3, 33, 30),
    playthrough_file="solo_playthrough.txt",
    playthrough_title="The Red Cathedral, solo playthrough",
    view_summary=_view_summary,
    # Examples per parameter set: long 3-4 player games get fewer, so the suite stays fast.
    properties=(
        _properties(1, False, 15),
        _properties(2, False, 10),
        _properties(3, False, 6),
        _properties(4, False, 6),
        _properties(1, True, 15),
        _properties(2, True, 8),
        _properties(4, True, 5),
    ),
    invariants=INVARIANTS,
    sample_every=97,
)
