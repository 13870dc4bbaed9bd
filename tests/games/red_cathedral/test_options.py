"""Every ambiguity of the reference (RC-AMB-1..22) is an option with the chosen default, or
data, or needs no choice. The behaviour of each option, flipped, is tested next to its rule
(file named in the table).

Defaults follow the reference, except where the seed audit found the seed saying otherwise
(docs/red-cathedral-seed-audit.md): ``sell_prestige_window='any'`` (D-1),
``ivan_inventory_take='single-pile'`` (D-5), ``ivan_fallback_claim='any'`` (D-4) and
``ivan_opening_claim_rp=True`` (D-3).
"""

from __future__ import annotations

import importlib

import pytest

from meeplehall.games.red_cathedral import GAME
from meeplehall.games.red_cathedral.setup import OPTIONS

# option, the rule it belongs to, default, test file with the flipped behaviour
TABLE = [
    ("end_bonus_unit", "RC-AMB-1", "pp", "test_end"),
    ("ruble_limit", "RC-AMB-2", 0, "test_market"),
    ("sell_prestige_window", "RC-AMB-3", "any", "test_turn"),
    ("prestige_loss", "RC-AMB-4", "previous-space", "test_track"),
    ("negative_recognition", "RC-AMB-5", False, "test_track"),
    ("ivan_build_scan", "RC-AMB-6", "rows", "test_solo"),
    ("ivan_inventory_take", "RC-AMB-6", "single-pile", "test_solo"),
    ("ivan_rerolls", "RC-AMB-7", True, "test_solo"),
    ("ivan_rp_multiplied", "RC-AMB-7", True, "test_solo"),
    ("ivan_flip_when_skipped", "RC-IVAN-4", True, "test_solo"),
    ("ivan_ornament_pp", "RC-AMB-9", 1, "test_solo"),
    ("ivan_scores_leftovers", "RC-AMB-10", False, "test_solo"),
    ("later_sixth_bonus", "RC-AMB-11", False, "test_end"),
    ("allow_pass", "RC-AMB-12", False, "test_turn"),
    ("dice_start", "RC-AMB-14", "recognition-tile", "test_setup"),
    ("advanced_workshops", "RC-ADV-1", False, "test_claim"),  # RC-AMB-16: for all seats
    ("allow_full_circle", "RC-AMB-17", True, "test_market"),
    ("ivan_fallback_claim", "RC-AMB-18", "any", "test_solo"),
    ("ivan_choice", "RC-AMB-18", "human", "test_solo"),
    ("free_actions_between_steps", "RC-AMB-19", True, "test_turn"),
    ("exchange_needs_room", "RC-AMB-20", False, "test_market"),
    ("swap_moves_dice", "RC-AMB-21", False, "test_market"),
    ("merchants_activate", "RC-AMB-22", "any", "test_market"),
    ("ivan_opening_claim_rp", "RC-SOLO-5", True, "test_setup"),
    ("first_game_cards", "RC-SETUP-6", False, "test_setup"),
    ("round_limit", "RC-END-1", 500, "test_end"),  # a safety stop, not a printed rule
    ("players", "RC-SETUP-12", 2, "test_setup"),
]


def test_every_option_is_in_the_table():
    """The table covers every option of ``setup.OPTIONS`` exactly once."""
    assert sorted(name for name, *_ in TABLE) == sorted(o.name for o in OPTIONS)
    assert GAME.options is OPTIONS


@pytest.mark.parametrize(("name", "rule", "default", "where"), TABLE)
def test_option_exists_with_the_chosen_default(name, rule, default, where):
    """RC-AMB-1, RC-AMB-2, RC-AMB-3, RC-AMB-4, RC-AMB-5, RC-AMB-6, RC-AMB-7, RC-AMB-9,
    RC-AMB-10, RC-AMB-11, RC-AMB-12, RC-AMB-14, RC-AMB-16, RC-AMB-17, RC-AMB-18,
    RC-AMB-19, RC-AMB-20, RC-AMB-21, RC-AMB-22: the option exists, names its rule, has the
    chosen default, and a non-default value is accepted and changes the state's options."""
    opt = {o.name: o for o in OPTIONS}[name]
    assert opt.rule == rule
    assert opt.default == default
    assert opt.help
    other = {"bool": lambda: not default, "int": lambda: default + 1,
             "choice": lambda: next(c for c in opt.choices if c != default)}[opt.kind]()
    params = {"players": 1 if name.startswith("ivan") else 3, name: other}
    s = GAME.initial_state(params, 0)
    assert getattr(s.opts, name) == other
    assert importlib.import_module(f"tests.games.red_cathedral.{where}")


def test_ambiguities_kept_as_data_or_needing_no_option():
    """RC-AMB-8 (Clergy units) and RC-AMB-13 ("3+" die tiles) are data (see
    test_components); RC-AMB-15 (Teamsters' deliveries beyond a Build's 3) needs no option,
    since a Build and a Market action never share a turn (see test_market); RC-AMB-16:
    ``advanced_workshops`` turns every seat's board (see test_setup)."""
    names = {o.name for o in OPTIONS}
    assert not {"clergy_units", "teamsters_cap"} & names
