"""Praga's part of the conformance suite (``tests/conformance/``).

Golden games, perft counts and the two-player playthrough are kept in this folder
(``golden/``, ``perft.txt``; regenerate with ``python tests/games/praga/regen_golden.py``).
The property tests play 2, 3 and 4 players and a variant set (side B, random bridges, road
tiles, other tier sets); their invariants are in ``test_properties.py``.
Every playout ends after exactly 16 turns per player (P-CLOCK-8) and, as final scoring
begins, the seat that played the last turn holds at most 2 windows (P-WIN-2). Views carry
neither the order nor the contents of the face-down stacks, and the
technologies a seat draws are seen by that seat only (P-TECH-2).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from meeplehall.core.messages import Message, english
from meeplehall.core.protocol import Outcome
from meeplehall.games.praga import GAME
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.state import PragaState
from tests.conformance.spec import Conformance, PropertySet
from tests.games.praga.test_properties import INVARIANTS, last_turn_checked

HIDDEN = ("stacks", "tech_stacks", "iv_stack", "v_pile", "cat_pile", "unused")
VARIANTS = {"players": 3, "action_side": "B", "bridge_layout": "random", "road_tiles": True,
            "cathedral_tiers": "B", "hunger_wall_tiers": "A", "up_arrow": "automatic",
            "corner_repay": False, "road_mine_and_quarry": "one"}


def sixteen_turns_each(final: PragaState, params: dict[str, Any], outcome: Outcome) -> None:
    """P-CLOCK-8: the game ends after 16 turns per player."""
    assert final.played == [16] * params["players"]


def face_down_stays_hidden(state: PragaState) -> None:
    """No face-down stack in any view, only its size; drawn technologies only for the
    drawing seat (P-TECH-2)."""
    for seat in [None, *range(state.players)]:
        view = GAME.player_view(state, seat)
        blob = view["state"]
        assert not set(HIDDEN) & set(blob), "a face-down stack is in the view"
        counts = view["face_down"]
        assert all(isinstance(n, int) for n in counts["stacks"] + counts["tech_stacks"])
        for d in blob["stack"]:  # drawn tiles only for the drawing seat
            if d[0] == D.TechDraw.code and d[1] != seat:  # the saved form
                assert set(d[2]) == {-1}


def _view_summary(view: dict[str, Any]) -> list[str]:
    return [f"    {english(Message.from_json(line))}"
            for line in (*view["seats"], view["this_turn"])]


SPEC = Conformance(
    game="praga",
    here=Path(__file__).resolve().parent,
    title="Praga Caput Regni",
    golden_games=(
        ("two_players", {"players": 2}, 12, 102),
        ("three_players", {"players": 3}, 13, 103),
        ("four_players", {"players": 4}, 14, 104),
        ("three_players_variants", {"players": 3, "action_side": "B", "road_tiles": True,
                                    "bridge_layout": "random", "cathedral_tiers": "A",
                                    "hunger_wall_tiers": "B"}, 15, 105),
    ),
    perft_seeds=(1, 7),
    perft_players=(2, 3, 4),
    cheap_perft=20000,
    playthrough=({"players": 2}, 5, 55, 60),
    playthrough_file="two_players_playthrough.txt",
    playthrough_title="Praga Caput Regni playthrough",
    view_summary=_view_summary,
    properties=(
        PropertySet("2p", {"players": 2}, playouts=8, replays=4, round_trips=3),
        PropertySet("3p", {"players": 3}, playouts=5, replays=4, round_trips=3),
        PropertySet("4p", {"players": 4}, playouts=4, replays=4, round_trips=3),
        PropertySet("3p-variants", VARIANTS, playouts=4, replays=4, round_trips=3),
    ),
    invariants=INVARIANTS,
    sample_every=53,
    final_checks=sixteen_turns_each,
    state_checks=face_down_stays_hidden,
    playout_guard=last_turn_checked,
)
