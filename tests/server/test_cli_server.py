"""``serve`` and ``bench server`` on the command line; the schema check at start."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text
from tools.services import free_port

from meeplehall.server.cli import add_server_commands
from meeplehall.server.db import StorageError, ensure_schema, make_engine


def test_commands_register_on_a_parser() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    add_server_commands(sub)
    args = parser.parse_args(["serve", "--db", "sqlite:///x.db", "--port", "9000"])
    assert args.port == 9000 and args.host == "127.0.0.1" and args.redis is None
    assert parser.parse_args(["bench", "server", "--tables", "3"]).tables == 3
    other = argparse.ArgumentParser().add_subparsers()
    other.add_parser("bench")  # a host program's own bench: only serve is added
    add_server_commands(other)
    assert set(other.choices) == {"bench", "serve"}


def test_unknown_schema_revision_is_refused(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    ensure_schema(engine)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'f00d'"))
    with pytest.raises(StorageError, match="does not know"):
        ensure_schema(engine)
    engine.dispose()
    done = subprocess.run([sys.executable, "-m", "meeplehall.server", "serve", "--db",
                           sqlite_url, "--port", str(free_port())],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "schema revision 'f00d'" in done.stderr


def test_foreign_databases_are_refused(sqlite_url: str) -> None:
    engine = create_engine(sqlite_url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE customers (id INTEGER)"))
    with pytest.raises(StorageError, match="not a meeplehall database"):
        ensure_schema(make_engine(sqlite_url))


def test_serve_prints_the_default_database_path(tmp_path: Path) -> None:
    port = free_port()
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "meeplehall.server", "serve", "--port",
                             str(port), "--quiet"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        expected = tmp_path / "meeplehall" / "meeplehall.db"
        assert first.strip() == f"meeplehall server: database {expected}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        assert expected.exists()
    finally:
        proc.terminate()
        proc.wait(15)


def test_serve_shortens_the_interpreter_switch_interval(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The move writer's thread waits for the interpreter lock after each database call;
    at Python's default (5 ms a wait while the event loop is busy) a 0.3 ms commit took
    10-100 ms beside 1,500 spectators (``server.cli.tune_switching``)."""
    import uvicorn

    from meeplehall.server import cli

    seen: list[float] = []
    monkeypatch.setattr(cli, "tune_gc", lambda: None)  # keep this process's collector
    monkeypatch.setattr(uvicorn, "run", lambda *_a, **_k: seen.append(sys.getswitchinterval()))
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)  # Python's default (an in-process benchmark may have changed it)
    try:
        assert cli.main(["serve", "--db", f"sqlite:///{tmp_path / 'm.db'}", "--port",
                         str(free_port()), "--quiet"]) == 0
    finally:
        sys.setswitchinterval(before)
    assert seen == [pytest.approx(cli.SWITCH_INTERVAL)]
