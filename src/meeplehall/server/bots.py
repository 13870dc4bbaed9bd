"""Bots as seats: they think in the heavy pool's worker processes, within a time budget.

After every change of a table, the driver checks whose turn it is; when a bot seat is to
move, it hands the bot's job (the seat's ``player_view`` only, the legal actions and the
move's seed) to :class:`meeplehall.server.heavy.HeavyPool`, queued under the table, and
submits the choice like any seat would. A bot that raises, overruns its think time
(counted from when a worker takes it up, not while it waits for one: its worker process
is then ended and replaced), waits for a worker past ``QUEUE_WAITS`` think times, or
answers with an action that is not legal is logged, and the random bot (a cheap level,
in the server's interpreter) moves for it that once, with a note in the table's history
that every client sees. So a table never hangs on a bot, and no bot move is lost.

One process drives a table's bots at a time: the holder of its lease in the database
(``bot_leases``), taken when a bot is to move and renewed while bots keep moving, dropped
when a human is to move or the game ends. The change that hands a table to a bot (a
person's move, or opening a table where a bot moves first) takes the lease in its own
transaction, so there is no moment at which a bot is to move and no lease exists. Every
process looks for lapsed leases every third of the lease time and takes those tables
over: when the driving process dies, its tables' bots go on from another one within
about a lease time. Expiries are computed and compared by the database (its ``now()``),
never on a host's clock, so a process whose clock is skewed neither takes live leases
nor keeps lapsed ones; a process that shuts down cleanly lets all its leases lapse, so
a restarted one resumes its tables at once (another within a third of a lease time).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import time

from meeplehall.ai.base import make_bot
from meeplehall.server.errors import ApiError, Conflict, NotFound
from meeplehall.server.heavy import HeavyPool, JobFailed, JobQueued, JobTimeout, bot_job
from meeplehall.server.live_table import Live, SeatInfo
from meeplehall.server.service import TableService

log = logging.getLogger("meeplehall.server.bots")

QUEUE_WAITS = 10  # a bot waits at most this many think times for a free worker
START_WAIT = 30.0  # seconds added to that wait while the pool's first workers start


def bot_seed(table_seed: int, seat: int, seq: int) -> int:
    """A per-move bot seed: bots are reproducible without keeping their state."""
    digest = hashlib.sha256(f"{table_seed}:{seat}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class BotDriver:
    """Plays the bot seats of every table this process changes."""

    def __init__(self, service: TableService, pool: HeavyPool, *,
                 think_time: float = 5.0, lease_time: float = 15.0) -> None:
        self.service = service
        self.pool = pool
        self.think_time = think_time
        # A lease outlasts a bot's longest think, so a live driver never loses it.
        self.lease_time = max(lease_time, 2 * think_time + 1)
        self.holder = secrets.token_hex(8)
        service.bot_lease = (self.holder, self.lease_time)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._pending: set[int] = set()
        self._held: dict[int, float] = {}  # table -> when our lease runs out (monotonic)
        self._sweeper: asyncio.Task[None] | None = None
        self._closed = False

    def start(self) -> None:
        """Start looking for tables whose driver's lease lapsed."""
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        while not self._closed:
            await asyncio.sleep(self.lease_time / 3)
            try:
                for table_id in await self.service.lapsed_leases():
                    self.kick(table_id)
            except Exception as exc:  # the database is down, say: look again later
                log.warning("cannot look for lapsed bot leases (%s)", type(exc).__name__)

    async def _lease(self, table_id: int) -> bool:
        """Hold (or renew) the table's lease; False when another process holds it."""
        until = self._held.get(table_id)
        stamp = time.monotonic()
        if until is not None and until - stamp > self.lease_time * 2 / 3:
            return True
        if await self.service.take_lease(table_id, self.holder, self.lease_time):
            self._held[table_id] = stamp + self.lease_time
            return True
        self._held.pop(table_id, None)
        return False

    async def _release(self, table_id: int) -> None:
        if self._held.pop(table_id, None) is not None:
            await self.service.drop_lease(table_id, self.holder)

    def on_change(self, table_id: int, _seq: int, _undo: bool) -> None:
        live = self.service.cached(table_id)
        if live is not None and all(s.bot is None for s in live.seats):
            return
        self.kick(table_id)

    def kick(self, table_id: int) -> None:
        """Make sure the table's bots get to move if it is a bot's turn."""
        if self._closed:
            return
        self._pending.add(table_id)
        if table_id not in self._tasks:
            task = asyncio.get_running_loop().create_task(self._drive(table_id))
            self._tasks[table_id] = task

    async def _drive(self, table_id: int) -> None:
        try:
            while table_id in self._pending and not self._closed:
                self._pending.discard(table_id)
                try:
                    live = await self.service.get_live(table_id)
                except NotFound:
                    return
                seat = live.to_move
                if seat is None or live.seats[seat].bot is None:
                    await self._release(table_id)
                    continue
                if not await self._lease(table_id):
                    return  # another process drives this table's bots
                await self._move(live, seat)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot driver of table %d stopped", table_id)
        finally:
            self._tasks.pop(table_id, None)

    async def _move(self, live: Live, seat: int) -> None:
        info = live.seats[seat]
        kind = info.bot
        assert kind is not None
        seq = live.seq
        game = live.game
        state = live.state
        view = live.view(seat)  # for the fallback; the bot gets its own copy
        legal = game.legal_actions(state)
        seed = bot_seed(live.seed, seat, seq)
        note = stand_in_note(info) if info.played_by is not None else None
        texts = [str(action) for action in legal]
        wait = QUEUE_WAITS * self.think_time + (START_WAIT if not self.pool.done else 0.0)
        try:
            index = await self.pool.submit(
                "bot", bot_job, (game.name, kind, seed, game.player_view(state, seat), texts),
                key=f"table:{live.table_id}", time_limit=self.think_time, wait_limit=wait)
            if not 0 <= index < len(legal):
                raise _IllegalChoice
            action = legal[index]
        except Exception as exc:
            reason = _reason(exc, self.think_time)
            log.warning("table %d seat %d: bot %r failed (%s); the random bot moves instead",
                        live.table_id, seat, kind, reason)
            note = f"seat {seat}: the {kind} bot failed ({reason}); the random bot moved instead"
            action = make_bot("random", seed).choose(game, view, legal)  # reads only len()
        try:
            await self.service.submit(live.table_id, seat, str(action), seq, note=note,
                                      bot=kind)
        except Conflict:
            pass  # someone else changed the table (an undo, another process): look again
        except ApiError as exc:
            log.warning("table %d seat %d: bot move refused (%s)", live.table_id, seat,
                        type(exc).__name__)
            raise
        self._pending.add(live.table_id)

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._tasks.values())
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # Every lease of this process, also those taken with a person's move, lapses
        # now: another process takes the tables at its next look, this one restarted
        # at once.
        self._held.clear()
        try:
            await self.service.expire_leases(self.holder)
        except Exception as exc:  # they lapse instead
            log.warning("cannot give up the bots' leases (%s)", type(exc).__name__)


def stand_in_note(info: SeatInfo) -> str:
    """The note of a move a bot made for a person's seat, as a message every seat's
    log shows: who it was played for, and why (past the deadline, or handed over)."""
    who = "for {name}" if info.name else "for seat {n}"
    if info.played_why == "deadline":
        key = f"Played by the stand-in bot {who}"
    else:
        key = f"Played by the {{bot}} bot {who} (handed over by the host)"
    args: dict[str, object] = {"bot": info.played_by or ""}
    if info.name:
        args["name"] = info.name
    else:
        args["n"] = info.seat + 1
    return json.dumps({"key": key, "args": args})  # "key" first: see note_text


class _IllegalChoice(Exception):
    pass


def _reason(exc: BaseException, think_time: float) -> str:
    # Only the exception's type: its message could quote the bot's view of the table.
    if isinstance(exc, JobTimeout):
        return f"no answer within {think_time:g} s"
    if isinstance(exc, _IllegalChoice):
        return "it chose an action that is not legal"
    if isinstance(exc, JobQueued):
        return f"no free bot worker within {QUEUE_WAITS * think_time:g} s"
    if isinstance(exc, JobFailed):
        return f"it raised {exc}"
    return f"it raised {type(exc).__name__}"
