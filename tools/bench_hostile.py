"""The hostile neighbour of ``bench server --hostile``: one client address running every
limited path of the server at the highest rate its limits allow (the defaults of
``meeplehall.server.limits``), beside the tables the benchmark measures.

Set up before the window (from the same address): long tables, imported from a random
game's record cut before its end, with both seats held. During the window, one task per
kind paces its requests at that kind's rate per address (and per seat token where one
is sent) after a first burst, so it spends exactly what the limits allow:

- ``view``: ``/view``, ``/me`` and ``/legal`` of a long table, in turn;
- ``log``: pages of a long table's log; ``replay``: past views of a long table;
- ``ws`` and ``sync``: open a WebSocket, read the sync frame of a long table, close;
- ``analysis``: hints for the seat to move (bot ``--hostile-bot``);
- ``import``: the long record again; ``create``: new tables, bot against bot
  (``--hostile-bot``) while the address may have bot tables running, else people's;
- ``undo``: move and undo on the long tables (the moves within the seat's move rate);
- sockets: as many spectator sockets and seat sockets as the counts allow, held open.

Each request's answer is counted by kind (``ok``, ``429``, other); the report says how
many of each.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import websockets

from meeplehall.core.record import GameRecord
from meeplehall.core.testing import random_playout
from meeplehall.games import GAMES
from meeplehall.server import jsontext
from meeplehall.server.limits import LimitConfig, Rate, default_limits

ADDRESS = "10.66.6.6"  # the hostile client, named by X-Forwarded-For (loopback is trusted)
GAME = "red-cathedral"


@dataclass
class Hostile:
    """What the hostile neighbour did: answers by kind and status class."""

    answers: dict[str, Counter[str]] = field(default_factory=dict)

    def count(self, kind: str, status: int | str) -> None:
        key = "ok" if status in (200, 201) else str(status)
        self.answers.setdefault(kind, Counter())[key] += 1

    def report(self) -> str:
        parts = []
        for kind in sorted(self.answers):
            got = self.answers[kind]
            parts.append(f"{kind} " + "/".join(f"{n} {k}" for k, n in sorted(got.items())))
        return "hostile neighbour (" + ADDRESS + "): " + "; ".join(parts)


def long_record(seed: int = 11) -> dict[str, Any]:
    """A random Red Cathedral game's record, cut a little before its end: a long table
    that is still running."""
    game = GAMES[GAME]
    _, whole = random_playout(game, {"players": 2}, seed, chooser_seed=5)
    cut = GameRecord(whole.game, whole.rules_version, whole.params, whole.seed,
                     whole.actions[:max(1, len(whole.actions) - 40)], {})
    data: dict[str, Any] = cut.to_dict()
    return data


class _Client:
    """The hostile address's requests: one keep-alive connection per task."""

    def __init__(self, make: Any) -> None:
        self.make = make
        self.conns: list[Any] = []

    def conn(self) -> Any:
        conn = self.make(ADDRESS)
        self.conns.append(conn)
        return conn

    def close(self) -> None:
        for conn in self.conns:
            conn.close()


async def _paced(rate: Rate, stop_at: float, step: Any) -> None:
    """Call ``step()`` ``rate.burst`` times at once, then ``rate.rate`` times a second
    until ``stop_at``."""
    budget = float(rate.burst)
    last = time.monotonic()
    while time.monotonic() < stop_at:
        now = time.monotonic()
        budget = min(float(rate.burst), budget + (now - last) * rate.rate)
        last = now
        if budget < 1.0:
            await asyncio.sleep(min((1.0 - budget) / rate.rate, max(0.0, stop_at - now)))
            continue
        budget -= 1.0
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError,
                                 asyncio.IncompleteReadError,
                                 websockets.exceptions.WebSocketException):
            await step()


def _rate(config: LimitConfig, kind: str, token: bool = False) -> Rate:
    """The highest rate one address may use for ``kind`` (with a token: the smaller of
    the address's and the token's)."""
    mine = config.client[kind]
    per_token = config.token.get(kind)
    if token and per_token is not None and per_token.rate < mine.rate:
        return per_token
    return mine


async def setup(make: Any, ws_base: str, tables: int = 2) -> list[tuple[int, list[str]]]:
    """The long tables, imported by the hostile address, both seats held."""
    client = _Client(make)
    conn = client.conn()
    record = long_record()
    out = []
    try:
        for _ in range(tables):
            status, made = await conn.request("POST", "/api/tables/import",
                                              {"record": record, "seats": ["human", "human"]})
            if status != 201:
                raise ConnectionError(f"the hostile neighbour cannot import: {status} {made}")
            table_id = made["id"]
            tokens = [(await conn.request("POST", f"/api/tables/{table_id}/seats/{s}/join"))[1]
                      ["token"] for s in (0, 1)]
            out.append((table_id, tokens))
    finally:
        client.close()
    return out


async def run(make: Any, ws_base: str, long_tables: list[tuple[int, list[str]]],
              stop_at: float, hostile: Hostile, bot: str = "greedy",
              config: LimitConfig | None = None) -> None:
    """Every limited path at its highest allowed rate until ``stop_at``."""
    config = config or default_limits()
    client = _Client(make)
    headers = {"X-Forwarded-For": ADDRESS}
    table, tokens = long_tables[0]
    record = long_record()
    held: list[Any] = []

    async def ws_open(token: str | None, table_id: int = table) -> Any:
        ws = await websockets.connect(f"{ws_base}/api/tables/{table_id}/ws", max_size=None,
                                      compression=None, additional_headers=headers)
        await ws.send(jsontext.dumps_text({"token": token, "since": None}))
        return ws, jsontext.loads(await ws.recv())

    async def request(conn: Any, kind: str, method: str, path: str, body: Any = None,
                      token: str | None = None) -> tuple[int, Any]:
        status, data = await conn.request(method, path, body, token)
        hostile.count(kind, status)
        return status, data

    async def to_move(conn: Any, table_id: int, seats: list[str]) -> tuple[str, Any]:
        status, state = await request(conn, "view", "GET", f"/api/tables/{table_id}/view")
        if status != 200 or state["to_move"] is None:
            raise ValueError("no seat to move")
        return seats[state["to_move"]], state

    def task(kind: str, rate: Rate, step: Any) -> asyncio.Task[None]:
        return asyncio.ensure_future(_paced(rate, stop_at, step))

    views = client.conn()
    turn = [0]

    async def view() -> None:
        path = ("view", "me", "legal")[turn[0] % 3]
        turn[0] += 1
        await request(views, "view", "GET", f"/api/tables/{table}/{path}",
                      token=None if path == "view" else tokens[turn[0] % 2])

    logs = client.conn()

    async def log_page() -> None:
        await request(logs, "log", "GET", f"/api/tables/{table}/log?before=200&limit=200",
                      token=tokens[0])

    replays = client.conn()
    k = [0]

    async def replay() -> None:
        k[0] = (k[0] + 37) % 400
        await request(replays, "replay", "GET", f"/api/tables/{table}/replay/{k[0]}",
                      token=tokens[1])

    async def sync() -> None:
        ws, first = await ws_open(tokens[0])
        hostile.count("ws+sync", 200 if first.get("type") == "sync" else first.get("status", 0))
        await ws.close()

    hints = client.conn()

    async def analysis() -> None:
        token, _ = await to_move(hints, table, tokens)
        await request(hints, "analysis", "GET", f"/api/tables/{table}/analysis?bot={bot}",
                      token=token)

    imports = client.conn()

    async def import_() -> None:
        await request(imports, "import", "POST", "/api/tables/import",
                      {"record": record, "seats": ["human", "human"]})

    creates = client.conn()

    async def create() -> None:
        status, _ = await request(creates, "create", "POST", "/api/tables", {
            "game": GAME, "options": {"players": 2}, "seats": [bot, bot]})
        if status == 429:  # the bot tables it may run are running: a people's table
            await request(creates, "create", "POST", "/api/tables", {
                "game": GAME, "options": {"players": 2}})

    undos = client.conn()
    which = [0]

    async def undo() -> None:
        table_id, seats = long_tables[which[0] % len(long_tables)]
        which[0] += 1
        token, _ = await to_move(undos, table_id, seats)
        status, legal = await request(undos, "view", "GET", f"/api/tables/{table_id}/legal",
                                      token=token)
        if status != 200 or not legal["actions"]:
            return
        status, moved = await request(undos, "move", "POST", f"/api/tables/{table_id}/actions",
                                      {"action": legal["actions"][-1]["text"],
                                       "seq": legal["seq"]}, token)
        if status == 200 and moved.get("undoable"):
            await request(undos, "undo", "POST", f"/api/tables/{table_id}/undo",
                          {"seq": moved["seq"]}, token)

    async def hold_sockets() -> None:
        """Spectator sockets and seat sockets, as many as the counts let in."""
        for token in [None] * config.spectators_per_client + \
                [tokens[1]] * config.sockets_per_seat + [None, tokens[1]]:
            with contextlib.suppress(OSError, websockets.exceptions.WebSocketException):
                ws, first = await ws_open(token)
                hostile.count("sockets held", 200 if first.get("type") == "sync" else
                              first.get("status", 0))
                held.append(ws)

    tasks = [task("view", _rate(config, "view"), view),
             task("log", _rate(config, "log", token=True), log_page),
             task("replay", _rate(config, "replay", token=True), replay),
             task("sync", _rate(config, "sync", token=True), sync),
             task("analysis", _rate(config, "analysis", token=True), analysis),
             task("import", _rate(config, "import"), import_),
             task("create", _rate(config, "create"), create),
             task("undo", _rate(config, "undo", token=True), undo)]
    try:
        await hold_sockets()
        # the sockets read nothing: their updates pile up in the kernel's buffers
        await asyncio.gather(*tasks)
    finally:
        for t in tasks:
            t.cancel()
        for ws in held:
            with contextlib.suppress(Exception):
                await ws.close()
        client.close()
