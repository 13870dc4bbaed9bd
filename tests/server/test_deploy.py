"""The deployment kit's topology without containers: PostgreSQL, Redis, two server
processes and Debian's nginx in front, terminating TLS with the kit's own site
configuration (deploy/nginx/meeplehall.conf). One server process is killed mid-game: no
acknowledged move is lost, the bots' game goes on, and clients reconnect through the
proxy the way the browser client does (a new socket, a hello with the last seq seen)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from meeplehall.core.record import GameRecord
from meeplehall.core.rng import Rng
from meeplehall.server.services import TempPostgres, free_port
from tests.server.helpers import QUICK, bearer, join, new_table, wait_finished
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
        deadline = time.monotonic() + 180
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


def test_two_processes_behind_nginx_survive_a_kill(pg: TempPostgres, redis_url: str,
                                                   tmp_path: Path) -> None:
    nginx = _nginx()
    if nginx is None:
        pytest.skip("nginx is not installed (Debian: apt-get install nginx-light); .ci/run "
                    "installs it")
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    cert, key = _certificate(tmp_path)
    context = ssl.create_default_context(cafile=str(cert))
    db = pg.create_database()
    procs: list[subprocess.Popen[bytes]] = []
    extra = ("--redis", redis_url, "--bot-lease", "3", "--bot-think-time", "1")
    with running_server(db, *extra, procs=procs) as one, running_server(db, *extra) as two:
        port = free_port()
        config = _nginx_config(tmp_path, port, [one[len("http://"):], two[len("http://"):]],
                               cert, key)
        proxy = subprocess.Popen([nginx, "-c", str(config), "-p", str(tmp_path)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            _wait_port(port, proxy)
            base = f"https://127.0.0.1:{port}"
            with httpx.Client(base_url=base, verify=context, timeout=30) as client:
                assert client.get("/api/health").json()["ok"]
                options = dict(QUICK, round_limit=30)
                table = new_table(client, ["human", "human"], options=options, seed=23)["id"]
                tokens = [join(client, table, 0), join(client, table, 1)]
                with httpx.Client(base_url=one, timeout=30) as direct:
                    # Opened on the process that dies, which therefore drives its bots.
                    bots = new_table(direct, ["random", "random"], options=options,
                                     seed=29)["id"]
                clients = [Client(base, table, tokens[0], context, 1),
                           Client(base, table, tokens[1], context, 2),
                           *(Client(base, table, None, context, 3) for _ in range(4))]
                for c in clients:
                    c.start()
                deadline = time.monotonic() + 60
                while min(client.get(f"/api/tables/{t}/view").json()["seq"]
                          for t in (table, bots)) < 30:
                    assert time.monotonic() < deadline, "the games did not get going"
                    time.sleep(0.05)
                procs[0].send_signal(signal.SIGKILL)
                procs[0].wait()
                killed = {t: client.get(f"/api/tables/{t}/view").json() for t in (table, bots)}
                assert not any(state["finished"] for state in killed.values())
                for c in clients:
                    c.join(200)
                for c in clients:
                    assert c.error is None, repr(c.error)
                    assert not c.is_alive()
                final = client.get(f"/api/tables/{table}/view").json()
                record = GameRecord.from_dict(client.get(f"/api/tables/{table}/record").json())
                bots_final = wait_finished(client, bots, timeout=120)
        finally:
            proxy.terminate()
            proxy.wait(10)
    assert final["finished"] and final["seq"] > killed[table]["seq"]
    assert bots_final["seq"] > killed[bots]["seq"]
    acked = [move for c in clients for move in c.acked]
    assert len(acked) >= 30
    for seq, text in acked:  # no undo in this game: seq k is the k-th action
        assert record.actions[seq - 1][1] == text
    assert all(c.last["seq"] == final["seq"] and c.last["finished"] for c in clients)
    assert sum(c.reconnects for c in clients) >= 1  # the killed process's sockets
