"""Server processes for the tests that need real concurrency, crashes or two processes."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator

from tools.bench_server import server_process
from tools.services import free_port


@contextlib.contextmanager
def running_server(db_url: str, *extra: str,
                   procs: list[subprocess.Popen[bytes]] | None = None) -> Iterator[str]:
    """``python -m meeplehall.server serve`` on a free loopback port; yields its URL."""
    with server_process(db_url, free_port(), *extra, procs=procs) as base:
        yield base
