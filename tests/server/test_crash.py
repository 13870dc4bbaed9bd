"""SIGKILL the server mid-game with moves in flight: acknowledged moves survive."""

from __future__ import annotations

import signal
import subprocess
import threading
import time

import httpx

from meeplehall.core.record import GameRecord, replay
from meeplehall.core.rng import Rng
from meeplehall.games import GAMES
from tests.server.helpers import GAME, bearer, hotseat, play_random
from tests.server.procs import running_server


def _hammer(base: str, table: int, tokens: list[str], acked: list[tuple[int, str]],
            stop: threading.Event) -> None:
    """Play random moves as fast as possible; remember each acknowledged one."""
    rng = Rng.from_seed(17)
    with httpx.Client(base_url=base, timeout=5) as client:
        while not stop.is_set():
            try:
                state = client.get(f"/api/tables/{table}/view").json()
                token = tokens[state["to_move"]]
                legal = client.get(f"/api/tables/{table}/legal", headers=bearer(token)).json()
                choice = legal["actions"][rng.randbelow(len(legal["actions"]))]["text"]
                reply = client.post(f"/api/tables/{table}/actions", headers=bearer(token),
                                    json={"action": choice, "seq": legal["seq"]})
                if reply.status_code == 200:
                    acked.append((reply.json()["seq"], choice))
            except (httpx.HTTPError, ValueError, KeyError, TypeError):
                return  # the server is gone


def test_sigkill_mid_game_keeps_every_acknowledged_move(db_url: str) -> None:
    procs: list[subprocess.Popen[bytes]] = []
    acked: list[tuple[int, str]] = []
    stop = threading.Event()
    with running_server(db_url, procs=procs) as base:
        with httpx.Client(base_url=base, timeout=10) as client:
            table, tokens = hotseat(client, seed=31, options={"players": 2, "round_limit": 25})
        workers = [threading.Thread(target=_hammer, args=(base, table, tokens, acked, stop))
                   for _ in range(3)]
        for worker in workers:
            worker.start()
        deadline = time.monotonic() + 30
        while len(acked) < 40 and time.monotonic() < deadline:
            time.sleep(0.01)
        procs[0].send_signal(signal.SIGKILL)  # moves are in flight right now
        procs[0].wait()
        stop.set()
        for worker in workers:
            worker.join()
    assert len(acked) >= 40
    with running_server(db_url) as base, httpx.Client(base_url=base, timeout=30) as client:
        state = client.get(f"/api/tables/{table}/view").json()
        assert state["seq"] >= max(seq for seq, _ in acked)
        play_random(client, table, tokens, Rng.from_seed(5))
        record = GameRecord.from_dict(client.get(f"/api/tables/{table}/record").json())
        final = client.get(f"/api/tables/{table}/view").json()
    for seq, text in acked:  # no undo happened, so seq k is the k-th action
        assert record.actions[seq - 1][1] == text
    game = GAMES[GAME]
    assert game.player_view(replay(record), None) == final["view"]
