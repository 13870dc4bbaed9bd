"""Fixtures for the browser client tests: a real ``meeplehall serve`` and Chromium.

- ``server_url``: ``python -m meeplehall.server serve`` on a free port with a temporary
  SQLite file (one server per test module).
- ``browser``: Debian's Chromium (``/usr/bin/chromium``) driven by Playwright for Python;
  never a downloaded browser. Skipped with the reason when either is missing.
- ``new_page``: a factory of fresh pages, each in its own browser context (own
  localStorage, so its own seat tokens), 1280×720. The replay of the others' moves that
  plays by itself when a turn comes is off in them unless ``new_page(replay=True)``
  (the tests that play whole games click at once; ``tests/web/test_replay.py`` tests it).
- ``artifacts_dir``: ``test-artifacts/`` at the repository root, for screenshots.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.procs import running_server

REPO = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


def chromium_path() -> str | None:
    for candidate in ("/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web") / "web.db"
    with running_server(f"sqlite:///{db}", "--bot-think-time", "5") as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright for Python is not installed (pip install playwright==1.65.2)")
    path = chromium_path()
    if path is None:
        pytest.skip("Chromium is not installed (.ci/run installs Debian's 'chromium')")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def new_page(browser: Any, server_url: str) -> Iterator[Callable[..., Any]]:
    contexts: list[Any] = []

    def make(replay: bool = False) -> Any:
        context = browser.new_context(viewport={"width": 1280, "height": 720},
                                      base_url=server_url)
        context.set_default_timeout(20_000)
        if not replay:  # the player's own switch ("Show them on the board..."), set to off
            context.add_init_script(
                "if (localStorage.getItem('meeplehall.autoReplay') === null)"
                " localStorage.setItem('meeplehall.autoReplay', '0');")
        contexts.append(context)
        page = context.new_page()
        page.errors = []  # uncaught page errors, checked by the tests
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    path = REPO / "test-artifacts"
    path.mkdir(exist_ok=True)
    return path
