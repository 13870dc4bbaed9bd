"""Fixtures: the app on SQLite and on a throwaway PostgreSQL, a throwaway Redis."""

from __future__ import annotations

import os
import pwd
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from fastapi.testclient import TestClient  # noqa: E402
from tools.services import (  # noqa: E402
    TempPostgres,
    find_postgres,
    find_redis,
    temp_postgres,
    temp_redis,
)

from meeplehall.server.app import create_app  # noqa: E402
from meeplehall.server.limits import LimitConfig  # noqa: E402


def _postgres_missing() -> str | None:
    if find_postgres() is None:
        return "PostgreSQL binaries (initdb, pg_ctl) are not installed; .ci/run installs them"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run PostgreSQL as"
    return None


@pytest.fixture(scope="session")
def pg() -> Iterator[TempPostgres]:
    reason = _postgres_missing()
    if reason:
        pytest.skip(reason)
    with temp_postgres() as cluster:
        yield cluster


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    if find_redis() is None:
        pytest.skip("redis-server is not installed; .ci/run installs it")
    with temp_redis() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.db'}"
    cluster: TempPostgres = request.getfixturevalue("pg")
    return cluster.create_database()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'server.db'}"


def make_client(url: str, **kwargs: Any) -> TestClient:
    kwargs.setdefault("move_rate", 0)
    # In-process heavy work (threads): tests replace bots in the registry, which a
    # worker process would not see; test_heavy.py runs the worker processes.
    kwargs.setdefault("heavy_workers", 0)
    kwargs.setdefault("limits", LimitConfig(client={}, total={}))  # tests make many tables
    # A loaded test machine can take longer than the real deadline for a read;
    # test_frozen_database.py tests the real one.
    kwargs.setdefault("read_deadline", 30.0)
    return TestClient(create_app(url, **kwargs))


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with make_client(db_url) as c:
        yield c
