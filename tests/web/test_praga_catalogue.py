"""The Praga board's static geometry and its message catalogues (praga.po).

- ``static/js/praga/geometry.json`` is what ``meeplehall.web.praga_geometry`` makes from
  the engine's data files (edit the TOML, then regenerate).
- Every ``praga.po`` parses, has a proper header, keeps the placeholders of each msgid,
  and translates the board's own labels (``t("...")`` in praga.js).
- Whether the engine's messages are covered: test_message_coverage.py.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from meeplehall.games.praga.components import ACTIONS, load
from meeplehall.web import praga_geometry

WEB = Path(praga_geometry.__file__).resolve().parent
LANGS = ("en", "de", "pl", "ru", "pt")
PLACEHOLDER = re.compile(r"\{([a-zA-Z_][a-zA-Z0-9_]*)\}")
SEED = 11


@cache
def messages(lang: str) -> dict[str, str]:
    path = WEB / "locale" / lang / "LC_MESSAGES" / "praga.po"
    with path.open("rb") as handle:
        cat = read_po(handle, locale=None, abort_invalid=True)
    assert cat.mime_headers, path
    headers = dict(cat.mime_headers)
    assert headers.get("Content-Type", "").lower() == "text/plain; charset=utf-8", headers
    assert headers.get("Language") == lang, headers
    # a plural entry: its msgid -> its forms joined by "|" (each form keeps the placeholders)
    return {str(m.id[0] if isinstance(m.id, tuple) else m.id):
            "|".join(m.string) if isinstance(m.string, tuple) else str(m.string)
            for m in cat if m.id and not m.fuzzy}


# --- geometry ---------------------------------------------------------------------------

def test_committed_geometry_is_what_the_script_makes() -> None:
    committed = praga_geometry.OUTPUT.read_text(encoding="utf-8")
    assert committed == praga_geometry.render(), (
        "geometry.json is stale: run python3 -m meeplehall.web.praga_geometry")
    assert praga_geometry.main(["--check"]) == 0


def test_geometry_indices_are_the_engines() -> None:
    data = json.loads(praga_geometry.render())
    c = load()
    comp = data["components"]
    assert [s["id"] for s in comp["sites"]] == [s.id for s in c.sites]
    assert [list(s["hex"]) for s in comp["sites"]] == [list(s.hex) for s in c.sites]
    assert [m["id"] for m in comp["markets"]] == [m.id for m in c.markets]
    assert [t["id"] for t in comp["technologies"]] == [t.id for t in c.technologies]
    assert data["names"]["actions"] == list(ACTIONS)
    assert len(comp["wall_positions"]) == 12 and len(comp["board_actions"]) == 6
    assert data["zones"]["beyond"] == c.crane.beyond


def test_geometry_script_refuses_unknown_arguments() -> None:
    assert praga_geometry.main(["--frobnicate"]) == 2


# --- catalogues -------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_entries_keep_their_placeholders(lang: str) -> None:
    msgs = messages(lang)
    assert len(msgs) > 200
    for msgid, msgstr in msgs.items():
        assert msgstr, f"{lang}: {msgid!r} is untranslated"
        for form in msgstr.split("|"):
            assert set(PLACEHOLDER.findall(form)) <= set(PLACEHOLDER.findall(msgid)), (
                f"{lang}: {msgid!r} -> {form!r} names a placeholder the msgid lacks")
    if lang != "en":
        same = [m for m, s in msgs.items() if m == s]
        assert len(same) <= len(msgs) // 20, f"{lang}: left in English: {same}"


def test_catalogues_have_the_same_entries() -> None:
    ids = set(messages("en"))
    for lang in LANGS[1:]:
        assert set(messages(lang)) == ids, lang


def test_board_labels_are_in_the_catalogue() -> None:
    source = (WEB / "static" / "js" / "games" / "praga.js").read_text(encoding="utf-8")
    used = set(re.findall(r'this\.t\("([^"]+)"', source))
    used |= {f"{row} row" for row in ("building", "wall", "upgrade")}
    used |= {f"{zone} zone" for zone in ("red", "green", "blue", "beyond")}
    used |= {f"{track} track" for track in ("mines", "quarries", "technology", "University")}
    names = json.loads(praga_geometry.render())["names"]
    for table in ("actions", "reward_kinds", "cost_kinds", "market_colours", "hex_kinds",
                  "grids", "road_free", "road_egg", "seal_effects"):
        used |= set(names[table])
    used |= set(load().colours)
    used |= {f"bridge tile: {e}" for e in (*names["iv_effects"], *names["v_effects"])}
    used |= {f"technology: {e}" for e in names["tech_effects"]}
    assert len(used) > 100
    for lang in LANGS:
        missing = sorted(used - set(messages(lang)))
        assert not missing, f"{lang}: board labels without an entry: {missing}"
