"""The Praga board in every language and for screen readers (games/praga.js), in Chromium.

- Chips (the buttons drawn on the board: up, sideways, technology, refresh, grow) keep
  their labels inside their boxes in German, whose words are the longest, and the tier
  costs beside a grid stay inside its frame.
- The board's short labels (action abbreviations, reward and cost letters) come from the
  catalogue (``abbreviation: ...``, ``short: ...`` in praga.po) in every language.
- Screen readers: each board region has a summary with the view's numbers, and an
  opponent's move is announced in a live region.
"""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

from babel.messages.pofile import read_po

from meeplehall.games.praga.components import ACTIONS
from meeplehall.web import LANGUAGES, LOCALE, praga_geometry
from tests.web.play import join_by_link, wait_ready
from tests.web.test_praga_table import _table

# Render the board of a table into a fresh element with the given legal actions (every
# chip the board draws for them), in the page's current language; then, per chip, how
# far its label runs out of its box (screen pixels, <= 0 when inside).
RENDER = """async ([table, seat, legal]) => {
  const board = await import('/static/js/games/praga.js');
  const i18n = await import('/static/js/i18n.js');
  const body = await (await fetch(`/api/tables/${table}/view?seat=${seat}`)).json();
  const view = body.view || body;
  const box = document.createElement('div');
  box.id = 'probe';
  box.style.width = '1250px';
  document.getElementById('probe')?.remove();
  document.body.append(box);
  await board.renderBoard(box, view, { seat, legal, t: i18n.t, tr: i18n.tr, choose: () => {} });
  // a text fitted to its section (the tier costs beside a grid): its frame is its box
  const fitted = [...box.querySelectorAll('g.section text[data-fit]')].map((t) => {
    const r = t.closest('g.section').querySelector('rect.frame').getBoundingClientRect();
    const b = t.getBoundingClientRect();
    return { label: t.textContent, over: b.right - r.right, height: b.height };
  });
  // elsewhere (the cards' track names and lines, drawn one unit per pixel): its width
  const cards = 'svg.praga-player text[data-fit], svg.praga-bot text[data-fit]';
  for (const t of box.querySelectorAll(cards)) {
    const b = t.getBoundingClientRect();
    if (!b.width) continue;
    fitted.push({ label: t.textContent, over: b.width - Number(t.dataset.fit), height: b.height });
  }
  return fitted.concat([...box.querySelectorAll('g.chip')].map((chip) => {
    const r = chip.querySelector('rect').getBoundingClientRect();
    const t = chip.querySelector('text').getBoundingClientRect();
    return { label: chip.textContent, over: Math.max(r.left - t.left, t.right - r.right,
      r.top - t.top, t.bottom - r.bottom), height: t.height };
  }));
}"""

CHIP_KEYS = [f"{verb} {grid}" for grid in ("hunger-wall", "cathedral")
             for verb in ("up", "side", "tech-grid")]
CHIP_KEYS += [f"refresh {row} {res}" for row in ("building", "wall", "upgrade")
              for res in ("gold", "stone")]
CHIP_KEYS += [f"grow {track} {res}" for track in ("mine", "quarry") for res in ("gold", "stone")]


def _language(page: Any, lang: str) -> None:
    page.select_option("#language", lang)
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
    page.wait_for_selector(".praga-table [data-part='player-0']", state="attached")


def _open(new_page: Any, server_url: str, table: int, seat: int = 0) -> Any:
    page = new_page()
    join_by_link(page, f"{server_url}/#/table/{table}/join/{seat}")
    page.wait_for_selector(".praga-table [data-part='player-0']", state="attached")
    return page


def test_german_chips_keep_their_labels_inside_their_boxes(new_page: Any,
                                                           server_url: str) -> None:
    table = _table(server_url, ["human", "random"])
    page = _open(new_page, server_url, table)
    wait_ready(page)
    for lang in ("de", "ru", "pl", "pt", "en"):
        _language(page, lang)
        chips = page.evaluate(RENDER, [table, 0, CHIP_KEYS])
        assert len(chips) >= 12, (lang, chips)
        out = [(c["label"], round(c["over"], 1)) for c in chips if c["over"] > 0.5]
        assert not out, (lang, out)
        assert min(c["height"] for c in chips) >= 10, lang  # narrowed, never made smaller
        if lang == "de":
            assert any("Technologie" in c["label"] for c in chips)
    assert not page.errors, page.errors


def _praga_po(lang: str) -> dict[str, str]:
    with (LOCALE / lang / "LC_MESSAGES" / "praga.po").open("rb") as handle:
        return {str(m.id): str(m.string) for m in read_po(handle) if m.id
                and isinstance(m.id, str)}


def test_every_short_label_of_the_board_is_in_the_catalogue() -> None:
    kinds = json.loads(praga_geometry.render())["names"]["reward_kinds"]
    wanted = [f"abbreviation: {a}" for a in ACTIONS] + [f"short: {k}" for k in kinds]
    english = _praga_po("en")
    for lang in LANGUAGES:
        po = _praga_po(lang)
        missing = [key for key in wanted if not po.get(key)]
        assert not missing, (lang, missing)
        assert all(len(po[key]) <= 4 for key in wanted), lang  # they fit a hex
        if lang != "en":
            same = [key for key in wanted if po[key] == english[key]]
            assert len(same) <= 5, (lang, same)
    source = (praga_geometry.OUTPUT.parent.parent / "games" / "praga.js").read_text()
    assert "this.short(" in source and "shortParts(reward, kinds)" not in source


# the labels of the six actions on a player's board, and the short lines of the row tiles
SHORT_LABELS = """() => ({
  actions: [...document.querySelectorAll("[data-part='player-0'] g.action-hex > text.bold")]
    .map((t) => t.textContent),
  rows: [...document.querySelectorAll("[data-part='rows'] g.row-tile text:not(.bold)")]
    .map((t) => t.textContent),
})"""


def test_the_boards_short_labels_follow_the_language(new_page: Any, server_url: str) -> None:
    table = _table(server_url, ["human", "random"])
    page = _open(new_page, server_url, table)
    wait_ready(page)
    seen = {}
    for lang in ("en", "de", "pl"):
        _language(page, lang)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        seen[lang] = page.evaluate(SHORT_LABELS)
    po = {lang: _praga_po(lang) for lang in ("en", "de", "pl")}
    for lang in ("en", "de", "pl"):
        assert seen[lang]["actions"] == [po[lang][f"abbreviation: {a}"] for a in ACTIONS], lang
    for lang in ("de", "pl"):
        assert seen[lang]["actions"] != seen["en"]["actions"]
        assert seen[lang]["rows"] != seen["en"]["rows"]
        # no English cost or reward letter after a number ("2g", "1s", "3rt")
        english = re.compile(r"\d(?:g|s|sw|gw|rt|bt|qu)\b")
        assert not [line for line in seen[lang]["rows"] if english.search(line)], (
            lang, seen[lang]["rows"])
    assert not page.errors, page.errors


def _view(server_url: str, table: int) -> dict[str, Any]:
    body = json.loads(urllib.request.urlopen(f"{server_url}/api/tables/{table}/view",
                                             timeout=20).read())
    view: dict[str, Any] = body.get("view") or body
    return view


def _play_until_the_opponent_moved(page: Any) -> None:
    """Click side-panel choices until the other seat (a bot) has made a move."""
    state = wait_ready(page)
    for made in range(60):
        if page.locator("#board .praga-summary li[data-region='last-1']").count():
            return
        seq = state["seq"]
        buttons = page.locator("#choices button[data-action]")
        buttons.nth(0 if made % 4 else (made // 4) % buttons.count()).click()
        state = wait_ready(page, seq)
    raise AssertionError("the opponent never moved")


def test_each_region_has_a_summary_with_the_views_numbers(new_page: Any,
                                                          server_url: str) -> None:
    table = _table(server_url, ["human", "random"])
    page = _open(new_page, server_url, table)
    _play_until_the_opponent_moved(page)
    view = _view(server_url, table)
    board = view["board"]
    items = dict(page.evaluate("""() => [...document.querySelectorAll(
        '#board .praga-summary li')].map((li) => [li.dataset.region, li.textContent])"""))
    print("\n" + "\n".join(f"{k}: {v}" for k, v in items.items()))
    for p, pl in enumerate(board["players"]):
        line = items[f"player-{p}"]
        for part in (f"{pl['vp']} VP", f"gold: {pl['gold']}", f"stone: {pl['stone']}",
                     f"egg: {pl['eggs']}", f"cubes: {pl['cubes']}",
                     f"mines: {pl['mines']}", f"quarries: {pl['quarries']}",
                     f"University: {pl['university']}", f"technology: {pl['technology']}"):
            assert part in line, (part, line)
        # the player's card carries the same summary as its label
        label = page.get_attribute(f"#board [data-part='player-{p}']", "aria-label")
        assert label == line
        grid = items["grid-hunger-wall"]
        assert f"row {pl['hunger_wall']['row'] + 1}, column {pl['hunger_wall']['column']}" in grid
    # the status line says what the board's status bar says
    drawn = page.inner_html("#board [data-part='status'] text")
    turn = re.search(r"turn \d+ of \d+", drawn)
    assert turn and turn.group(0) in items["status"], (drawn, items["status"])
    assert f"era {view['era']}," in items["status"]
    for slot, tile in enumerate(board["crane"]["wheel"]):
        if slot and tile is not None:
            assert f"slot {slot}: {tile} (" in items["crane"]
    for p, pl in enumerate(board["players"]):
        built = sum(1 for site in board["sites"] if site["owner"] == p)
        assert f"buildings of {pl['name']}: {built}" in items["city"], (pl["name"], items["city"])
    for row in ("building", "wall", "upgrade"):
        assert all(tile in items["rows"] for tile in board["rows"][row] if tile)
    # the board's regions are labelled with their summaries
    for region in ("crane", "rows", "grid-hunger-wall", "grid-cathedral", "city"):
        assert page.get_attribute(f"#board g[data-part='{region}']", "aria-label") == items[
            region]
    # what changed: the opponent's last move, by region
    assert items["last-1"].startswith("last move of ")
    assert not page.errors, page.errors


def test_an_opponents_move_is_announced_in_the_live_region(new_page: Any,
                                                           server_url: str) -> None:
    table = _table(server_url, ["human", "random"])
    page = _open(new_page, server_url, table)
    assert page.get_attribute("#live", "aria-live") == "polite"
    state = wait_ready(page)
    heard = []
    for _ in range(40):
        before = len(_view(server_url, table)["log"])
        seq = state["seq"]
        page.evaluate("() => { document.getElementById('live').textContent = ''; }")
        page.locator("#choices button[data-action]").first.click()
        state = wait_ready(page, seq)
        log = _view(server_url, table)["log"]
        live = page.inner_text("#live")
        if len(log) > before + 1 and live.strip():
            heard.append(live)
            # the announcement is the opponent's log lines, as the log shows them
            texts = page.locator("#log li").all_inner_texts()
            assert any(text.strip() and text.strip() in live for text in texts[-3:]), (
                live, texts[-3:])
            break
    assert heard, "no opponent's move was announced"
    assert not page.errors, page.errors
