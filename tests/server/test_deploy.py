"""The deployment kit's topology without containers: PostgreSQL, Redis, two server
processes and Debian's nginx in front, terminating TLS with the kit's own site
configuration (deploy/nginx/meeplehall.conf). One server process is killed mid-game: no
acknowledged move is lost, the bots' game goes on, and clients reconnect through the
proxy the way the browser client does (a new socket, a hello with the last seq seen)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from tools.services import TempPostgres, free_port
from websockets.exceptions import ConnectionClosed, InvalidStatus

from meeplehall.core.record import GameRecord
from meeplehall.core.rng import Rng
from tests.server.helpers import (
    QUICK,
    bearer,
    connect,
    hotseat,
    join,
    new_table,
    play_random,
    random_move,
    wait_finished,
)
from tests.server.procs import running_server

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx" / "meeplehall.conf"
UPSTREAM = "    server server:8000 max_fails=1 fail_timeout=5s;\n"


def _nginx() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.path.exists(p)), None)


def _certificate(where: Path) -> tuple[Path, Path]:
    cert, key = where / "proxy.crt", where / "proxy.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key


def _nginx_config(where: Path, port: int, upstreams: list[str], cert: Path, key: Path) -> Path:
    """The kit's site with this test's addresses, in a main configuration that runs in
    the foreground from a temporary directory."""
    site = SITE.read_text(encoding="utf-8")
    assert UPSTREAM in site and "listen 443 ssl;" in site
    site = site.replace(UPSTREAM, "".join(
        UPSTREAM.replace("server:8000", address) for address in upstreams))
    site = re.sub(r"server \{\n    listen 80;\n.*?\n\}\n", "", site, flags=re.S)
    site = site.replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")
    site = site.replace("/etc/nginx/tls/proxy.crt", str(cert))
    site = site.replace("/etc/nginx/tls/proxy.key", str(key))
    (where / "meeplehall.conf").write_text(site, encoding="utf-8")
    temp = " ".join(f"{kind}_temp_path {where / kind};"
                    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    user = "user root;" if os.geteuid() == 0 else ""
    main = where / "nginx.conf"
    main.write_text(
        f"{user} daemon off; worker_processes 1; pid {where / 'nginx.pid'};\n"
        f"error_log {where / 'error.log'} warn;\n"
        "events { worker_connections 1024; }\n"
        f"http {{ access_log off; {temp} include {where / 'meeplehall.conf'}; }}\n",
        encoding="utf-8")
    return main


def _wait_port(port: int, proc: subprocess.Popen[bytes]) -> None:
    import socket

    deadline = time.monotonic() + 20
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.5):
                return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("nginx did not start") from None
            time.sleep(0.05)


class Client(threading.Thread):
    """A browser-like client of one table: a live socket through the proxy, moves over
    HTTPS on its seat's turn (``token``; None: a spectator), and, when the socket ends,
    a new one with the last seq seen, as the browser client reconnects."""

    def __init__(self, base: str, table: int, token: str | None, context: ssl.SSLContext,
                 seed: int) -> None:
        super().__init__(daemon=True)
        self.base, self.table, self.token, self.context = base, table, token, context
        self.rng = Rng.from_seed(seed)
        self.acked: list[tuple[int, str]] = []
        self.reconnects = 0
        self.last: dict[str, Any] = {}
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self._run()
        except BaseException as exc:  # reported by the test
            self.error = exc

    def _run(self) -> None:
        url = self.base.replace("https://", "wss://") + f"/api/tables/{self.table}/ws"
        since: int | None = None
        deadline = time.monotonic() + 600
        with httpx.Client(base_url=self.base, verify=self.context, timeout=10) as http:
            while time.monotonic() < deadline:
                try:
                    with connect(url, ssl=self.context, open_timeout=5) as ws:
                        ws.send(json.dumps({"token": self.token, "since": since}))
                        while True:
                            message = json.loads(ws.recv(timeout=30))
                            if message["type"] == "error":
                                raise ConnectionError(message["detail"])
                            since = message["seq"]
                            self.last = message
                            if message["finished"]:
                                return
                            if self.token is not None and message["your_turn"]:
                                self._move(http, message)
                except (ConnectionClosed, InvalidStatus, OSError, TimeoutError,
                        ConnectionError, httpx.HTTPError):
                    self.reconnects += 1
                    time.sleep(0.2)
        raise AssertionError("the game did not end")

    def _move(self, http: httpx.Client, message: dict[str, Any]) -> None:
        legal = message["legal"]
        choice = legal[self.rng.randbelow(len(legal))]["text"]
        reply = http.post(f"/api/tables/{self.table}/actions", headers=bearer(self.token or ""),
                          json={"action": choice, "seq": message["seq"]})
        if reply.status_code == 200:
            self.acked.append((reply.json()["seq"], choice))
        elif reply.status_code != 409:  # the process went away: sync again
            raise ConnectionError(f"move refused with {reply.status_code}")


@dataclass
class Topology:
    """The kit's topology on this machine: ``base`` is the proxy's HTTPS address."""

    base: str
    direct: list[str]  # the server processes' own addresses
    procs: list[subprocess.Popen[bytes]]  # procs[0] is the process at direct[0]
    context: ssl.SSLContext
    cert: Path


def _connections(top: Topology) -> list[int]:
    """Live WebSockets per server process, as each says (asked directly)."""
    return [int(httpx.get(f"{base}/api/health", timeout=10).json()["connections"])
            for base in top.direct]


@contextlib.contextmanager
def topology(pg: TempPostgres, redis_url: str, where: Path) -> Iterator[Topology]:
    """PostgreSQL, Redis, two server processes and nginx with the kit's site in front."""
    nginx = _nginx()
    if nginx is None:
        pytest.skip("nginx is not installed (Debian: apt-get install nginx-light); .ci/run "
                    "installs it")
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    cert, key = _certificate(where)
    context = ssl.create_default_context(cafile=str(cert))
    db = pg.create_database()
    procs: list[subprocess.Popen[bytes]] = []
    extra = ("--redis", redis_url, "--bot-lease", "3", "--bot-think-time", "1")
    with running_server(db, *extra, procs=procs) as one, running_server(db, *extra) as two:
        port = free_port()
        config = _nginx_config(where, port, [one[len("http://"):], two[len("http://"):]],
                               cert, key)
        proxy = subprocess.Popen([nginx, "-c", str(config), "-p", str(where)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_port(port, proxy)
            yield Topology(f"https://127.0.0.1:{port}", [one, two], procs, context, cert)
        finally:
            proxy.terminate()
            proxy.wait(10)


def test_two_processes_behind_nginx_survive_a_kill(pg: TempPostgres, redis_url: str,
                                                   tmp_path: Path) -> None:
    with topology(pg, redis_url, tmp_path) as top, \
            httpx.Client(base_url=top.base, verify=top.context, timeout=30) as client:
        base, context = top.base, top.context
        assert client.get("/api/health").json()["ok"]
        options = dict(QUICK, round_limit=30)
        table = new_table(client, ["human", "human"], options=options, seed=23)["id"]
        tokens = [join(client, table, 0), join(client, table, 1)]
        with httpx.Client(base_url=top.direct[0], timeout=30) as direct:
            # Opened on the process that dies, which therefore drives its bots.
            bots = new_table(direct, ["random", "random"], options=options, seed=29)["id"]
        clients = [Client(base, table, tokens[0], context, 1),
                   Client(base, table, tokens[1], context, 2),
                   *(Client(base, table, None, context, 3) for _ in range(4))]
        for c in clients:
            c.start()
        deadline = time.monotonic() + 30
        while min(_connections(top)) == 0:  # a socket on each process (nginx alternates)
            assert time.monotonic() < deadline, "nginx sent every socket to one process"
            more = Client(base, table, None, context, 3)
            more.start()
            clients.append(more)
            time.sleep(0.5)
        # Liveness, not speed: a loaded 2-core machine may take minutes (it took 25 s at a
        # load average of 7).
        deadline = time.monotonic() + 240
        while min(seqs := [client.get(f"/api/tables/{t}/view").json()["seq"]
                           for t in (table, bots)]) < 30:
            assert time.monotonic() < deadline, (
                f"the games did not get going: seq {seqs[0]} of the people's table, "
                f"{seqs[1]} of the bots'; clients {[(c.reconnects, c.error) for c in clients]}")
            time.sleep(0.05)
        top.procs[0].send_signal(signal.SIGKILL)
        top.procs[0].wait()
        killed = {t: client.get(f"/api/tables/{t}/view").json() for t in (table, bots)}
        assert not any(state["finished"] for state in killed.values())
        for c in clients:
            c.join(620)
        for c in clients:
            assert c.error is None, repr(c.error)
            assert not c.is_alive()
        final = client.get(f"/api/tables/{table}/view").json()
        record = GameRecord.from_dict(client.get(f"/api/tables/{table}/record").json())
        bots_final = wait_finished(client, bots, timeout=300)
    assert final["finished"] and final["seq"] > killed[table]["seq"]
    assert bots_final["seq"] > killed[bots]["seq"]
    acked = [move for c in clients for move in c.acked]
    assert len(acked) >= 30
    for seq, text in acked:  # no undo in this game: seq k is the k-th action
        assert record.actions[seq - 1][1] == text
    assert all(c.last["seq"] == final["seq"] and c.last["finished"] for c in clients)
    assert sum(c.reconnects for c in clients) >= 1  # the killed process's sockets


def test_the_browser_client_reconnects_through_the_proxy(pg: TempPostgres, redis_url: str,
                                                          tmp_path: Path) -> None:
    """Browser pages watch a game through the proxy, at least one on each process; one
    process is killed; every page reconnects and follows the game to its end."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright for Python is not installed")
    from tests.web.conftest import CHROMIUM_ARGS, chromium_path

    chromium = chromium_path()
    if chromium is None:
        pytest.skip("Chromium is not installed (.ci/run installs Debian's 'chromium')")
    rng = Rng.from_seed(4)
    with topology(pg, redis_url, tmp_path) as top, \
            httpx.Client(base_url=top.base, verify=top.context, timeout=30) as client, \
            sync_playwright() as pw:
        table, tokens = hotseat(client, seed=19, options=dict(QUICK, round_limit=15))
        browser = pw.chromium.launch(executable_path=chromium, headless=True,
                                     args=CHROMIUM_ARGS)
        try:
            pages, sockets = [], []
            while len(pages) < 2 or min(_connections(top)) == 0:  # a page on each process
                assert len(pages) < 8, "nginx sent every socket to one process"
                # nginx takes the processes in turn, and a page makes a fixed number of
                # requests before its socket: one or two more requests (in turn) move the
                # next socket on, whatever that number's parity.
                for _ in range(1 + len(pages) % 2):
                    client.get("/api/health")
                context = browser.new_context(base_url=top.base, ignore_https_errors=True)
                context.set_default_timeout(30_000)
                page = context.new_page()
                opened: list[str] = []
                page.on("websocket", lambda ws, opened=opened: opened.append(ws.url))
                page.goto(f"/#/table/{table}")
                page.wait_for_function("() => document.getElementById('main').dataset.seq "
                                       "=== '0'")
                pages.append(page)
                sockets.append(opened)
            for _ in range(10):
                random_move(client, table, tokens, rng)
            top.procs[0].send_signal(signal.SIGKILL)
            top.procs[0].wait()
            play_random(client, table, tokens, rng)
            final = client.get(f"/api/tables/{table}/view").json()
            for page in pages:
                page.wait_for_function(
                    "(s) => document.getElementById('main').dataset.seq === s && "
                    "document.getElementById('main').dataset.finished === 'true'",
                    arg=str(final["seq"]))
            assert all(url.startswith("wss://127.0.0.1:") for s in sockets for url in s)
            assert max(len(s) for s in sockets) >= 2  # one page's socket died and came back
        finally:
            browser.close()
