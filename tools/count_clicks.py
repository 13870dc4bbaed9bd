"""Clicks per turn in the browser client: a scripted Chromium game against a bot.

    python -m tools.count_clicks red-cathedral --seed 5 --rounds 4 [--auto-end]
    python -m tools.count_clicks praga --seed 5 --turns 12

The page plays seat 1 by clicking like a player who always takes the first choice of the
side panel (so that two clients play the same moves). A turn is a run of the page's own
decisions; a decision that the page took by itself (the setting "end my turn when nothing
is left", ``--auto-end``) costs no click. Prints decisions, clicks and clicks per turn.
Needs Playwright for Python and Debian's Chromium (as the browser tests do).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from tests.web.conftest import CHROMIUM_ARGS, chromium_path

from tools.bench_server import server_process
from tools.services import free_port

READY = """() => { const m = document.getElementById('main');
  return m.dataset.page === 'table' && (m.dataset.finished === 'true' ||
    (m.dataset.yourTurn === 'true' && m.dataset.busy === 'false')); }"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=["red-cathedral", "praga"])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=4, help="red-cathedral: round_limit")
    parser.add_argument("--turns", type=int, default=12, help="stop after this many own turns")
    parser.add_argument("--auto-end", action="store_true",
                        help="turn on 'end my turn when nothing is left'")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, \
            server_process(f"sqlite:///{Path(tmp) / 'clicks.db'}", free_port(),
                           "--bot-think-time", "5") as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), headless=True,
                                     args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1440, "height": 900}, base_url=base)
        page.set_default_timeout(30_000)
        posted: list[str] = []
        page.on("request", lambda r: posted.append(str((r.post_data_json or {}).get("action")))
                if r.method == "POST" and r.url.endswith("/actions") else None)
        page.goto("/")
        page.evaluate(f"() => localStorage.setItem('meeplehall.autoEnd', '{int(args.auto_end)}')")
        page.wait_for_selector("#create")
        page.click(f"button[data-game='{args.game}']")
        page.select_option("#seat-0", "here")
        page.select_option("#seat-1", "random")
        page.click("details summary")
        if args.game == "red-cathedral":
            page.fill("#opt-round_limit", str(args.rounds))
            page.dispatch_event("#opt-round_limit", "change")
        page.fill("#seed", str(args.seed))
        page.dispatch_event("#seed", "change")
        page.click("#create")
        page.wait_for_url("**/#/table/*")
        clicks = turns = 0
        last = -10
        posted_before = 0
        while True:
            page.wait_for_function(READY)
            main_data = page.evaluate("() => ({...document.getElementById('main').dataset})")
            if main_data["finished"] == "true":
                break
            seq = main_data["seq"]
            # the turn goes on while no other seat moved since our click (the moves since
            # then are ours: the click's and any the page made by itself)
            if int(seq) != last + len(posted) - posted_before:
                turns += 1
                if turns > args.turns:
                    turns -= 1
                    break
            if args.verbose:
                print(seq, turns, page.locator("#choices button[data-action]").first
                      .get_attribute("data-action"))
            posted_before = len(posted)
            page.locator("#choices button[data-action]").first.click()
            clicks += 1
            last = int(seq)
            page.wait_for_function(
                "(s) => { const m = document.getElementById('main');"
                " return m.dataset.seq !== s && m.dataset.busy === 'false'; }", arg=seq)
        # the decisions of the counted turns (a move the page made by itself included)
        decisions = len(posted)
        print(f"{args.game} seed {args.seed}{' auto-end' if args.auto_end else ''}: "
              f"{turns} turns, {decisions} decisions, {clicks} clicks, "
              f"{clicks / max(1, turns):.2f} clicks per turn, "
              f"{decisions / max(1, turns):.2f} decisions per turn")
        browser.close()


if __name__ == "__main__":
    main()
