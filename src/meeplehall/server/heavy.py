"""Heavy work (bots' moves, analyses) in a bounded pool of worker processes, queued fairly.

The server's interpreter runs the event loop and the move writer; a strong bot's move or
analysis costs a second of CPU or more, so it runs in one of ``workers`` worker processes
(started with ``spawn``: no state of the server is inherited), never in the server's own
interpreter. :meth:`HeavyPool.submit` takes a job of any kind (a module-level function and
its arguments, both picklable) for a queue key: the table for a bot's move, the client
address for an analysis. Each key has a queue of its own, and a free worker takes the next
job of the key after the one served last (round robin), so one client or table with many
jobs waits behind its own jobs, not in front of others'. Each job has a time limit counted
from when a worker takes it up; a job past it is answered :class:`JobTimeout` at once and
its worker process is ended and replaced. A job that no worker takes up within its wait
limit leaves the queue with :class:`JobQueued`. Talking to a worker (pickling, the pipe)
happens in a thread of its own, so the event loop never waits for a worker.

With ``workers`` = 0 the jobs run in ``threads`` threads of the server (the same queue, the
same limits answered, but a job past its limit runs on to its end, holding its thread), as
the tests that replace a bot in the server's registry need.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from meeplehall.server.errors import TooManyRequests, Unavailable

log = logging.getLogger("meeplehall.server.heavy")

PER_CLIENT = 1  # analyses one client address may have queued or running at a time
QUEUE_PER_WORKER = 4  # analyses queued or running per worker, in all
JOB_TIME_LIMIT = 10.0  # seconds an analysis may run before its worker process is ended
REVIEW_TIME_LIMIT = 60.0  # seconds a game review may run before its worker process is ended
START_TIME = 60.0  # seconds a new worker process may take to start (import the games)
WORKER_NICE = 10  # how much lower a worker's CPU priority is than the server's


def default_workers() -> int:
    """The pool's default size: one worker per CPU core beyond the first (the server's
    own), at least 1 and at most 8."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 2
    return max(1, min(8, cores - 1))


class JobTimeout(Exception):
    """The job ran past its time limit (in a worker process: the worker was ended)."""


class JobQueued(Exception):
    """No worker took the job up within its wait limit."""


class JobFailed(Exception):
    """The job raised; the message is only the exception's type name (a job's own message
    could quote a seat's view)."""


class WorkerLost(Exception):
    """The worker process died while running the job."""


def _serve(conn: Connection) -> None:
    """A worker process: run each ``(fn, args)`` received and send back its result. It
    runs at a lower CPU priority, so on a busy machine the server's own process (the
    event loop, the move writer) is served first."""
    with contextlib.suppress(OSError, AttributeError):  # not permitted, or not on POSIX
        os.nice(WORKER_NICE)
    # Imported once, before the first job.
    import meeplehall.ai.base
    import meeplehall.games  # noqa: F401

    conn.send(("ready", None))
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("ok", fn(*args)))
        except Exception as exc:
            conn.send(("error", type(exc).__name__))


class _Process:
    """One worker process and the parent's end of its pipe (used from one thread at a
    time)."""

    def __init__(self, context: Any) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child,), daemon=True,
                                       name="meeplehall-heavy")
        self.process.start()
        child.close()
        if not self.conn.poll(START_TIME):
            self.end()
            raise WorkerLost(f"the worker process did not start within {START_TIME:g} s")
        self.conn.recv()  # ("ready", None)

    def call(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        try:
            self.conn.send((fn, args))
            status, value = self.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            raise WorkerLost("the worker process stopped") from None
        if status == "error":
            raise JobFailed(value)
        return value

    def end(self) -> None:
        self.process.kill()
        self.process.join(5)
        self.conn.close()


@dataclass(eq=False)
class _Job:
    kind: str
    key: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    time_limit: float
    future: asyncio.Future[Any]
    expiry: asyncio.TimerHandle | None = field(default=None)


class HeavyPool:
    """A bounded pool of worker processes (or threads), fair across queue keys."""

    def __init__(self, workers: int | None = None, *, threads: int = 2,
                 time_limit: float = JOB_TIME_LIMIT) -> None:
        self.workers = default_workers() if workers is None else max(0, workers)
        self.slots = self.workers or max(1, threads)
        self.time_limit = time_limit  # an analysis's
        self._context = multiprocessing.get_context("spawn")
        self._threads = ThreadPoolExecutor(max_workers=self.slots,
                                           thread_name_prefix="heavy")
        self._idle: list[_Process | None] = []  # free slots (None: a thread, or to start)
        self._starting = 0
        self._queues: dict[str, collections.deque[_Job]] = {}
        self._ring: collections.deque[str] = collections.deque()  # keys with queued jobs
        self._clients: collections.Counter[str] = collections.Counter()
        self._running: set[asyncio.Task[None]] = set()
        self._live: set[_Process] = set()
        self._closed = False
        self.ended = 0  # worker processes ended for a job past its time limit
        self.done: collections.Counter[str] = collections.Counter()  # jobs answered, by kind

    # -- the pool ---------------------------------------------------------------------

    def start(self) -> None:
        """Start the worker processes now (in the background), so the first jobs do not
        wait for them; called by the app when it starts."""
        if self._idle or self._starting or self._running:
            return
        for _ in range(self.slots):
            self._add_slot()

    def _add_slot(self) -> None:
        if self.workers == 0:
            self._idle.append(None)
            self._dispatch()
            return
        self._starting += 1
        task = asyncio.get_running_loop().create_task(self._spawn())
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _spawn(self) -> None:
        try:
            while not self._closed:
                try:
                    worker = await asyncio.get_running_loop().run_in_executor(
                        self._threads, _Process, self._context)
                except Exception as exc:
                    log.warning("cannot start a heavy worker (%s); trying again",
                                type(exc).__name__)
                    await asyncio.sleep(1.0)
                    continue
                if self._closed:
                    worker.end()
                    return
                self._live.add(worker)
                self._idle.append(worker)
                return
        finally:
            self._starting -= 1
            self._dispatch()

    @property
    def queued(self) -> int:
        return sum(len(q) for q in self._queues.values())

    async def submit(self, kind: str, fn: Callable[..., Any], args: tuple[Any, ...], *,
                     key: str, time_limit: float, wait_limit: float | None = None) -> Any:
        """Run ``fn(*args)`` in a worker, queued under ``key``; its result.

        Raises:
            JobTimeout: the job ran past ``time_limit`` seconds.
            JobQueued: no worker took it up within ``wait_limit`` seconds.
            JobFailed: ``fn`` raised.
            WorkerLost: the worker process died.
            Unavailable: the pool is closing.
        """
        if self._closed:
            raise Unavailable("the server is stopping", retry_after=2.0)
        if not (self._idle or self._starting or self._running):
            self.start()
        loop = asyncio.get_running_loop()
        job = _Job(kind, key, fn, args, time_limit, loop.create_future())
        queue = self._queues.get(key)
        if queue is None:
            queue = self._queues[key] = collections.deque()
            self._ring.append(key)
        queue.append(job)
        if wait_limit is not None:
            job.expiry = loop.call_later(wait_limit, self._expire, job)
        self._dispatch()
        return await job.future

    def _expire(self, job: _Job) -> None:
        queue = self._queues.get(job.key)
        if queue is not None and job in queue:
            queue.remove(job)
            if not queue:
                self._drop_key(job.key)
            if not job.future.done():
                job.future.set_exception(JobQueued())

    def _drop_key(self, key: str) -> None:
        del self._queues[key]
        self._ring.remove(key)

    def _next(self) -> _Job | None:
        while self._ring:
            key = self._ring.popleft()
            queue = self._queues[key]
            job = queue.popleft()
            if queue:
                self._ring.append(key)  # its next job after the other keys' next ones
            else:
                del self._queues[key]
            if job.expiry is not None:
                job.expiry.cancel()
            if job.future.done():  # its submitter went away
                continue
            return job
        return None

    def _dispatch(self) -> None:
        while self._idle and self._ring and not self._closed:
            job = self._next()
            if job is None:
                return
            worker = self._idle.pop()
            task = asyncio.get_running_loop().create_task(self._run(worker, job))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def _run(self, worker: _Process | None, job: _Job) -> None:
        loop = asyncio.get_running_loop()
        if worker is None:
            call = loop.run_in_executor(self._threads, job.fn, *job.args)
        else:
            call = loop.run_in_executor(self._threads, worker.call, job.fn, job.args)
        replace = False
        try:
            try:
                result = await asyncio.wait_for(asyncio.shield(call), job.time_limit)
            except TimeoutError:
                _answer(job, JobTimeout())
                if worker is not None:
                    self.ended += 1
                    self._end(worker)
                    replace = True
                with contextlib.suppress(Exception):
                    await call  # a thread runs on to the job's end; a process has ended
            except WorkerLost as exc:
                _answer(job, exc)
                replace = True
                if worker is not None:
                    self._end(worker)
            except Exception as exc:
                _answer(job, exc)
            else:
                self.done[job.kind] += 1
                if not job.future.done():
                    job.future.set_result(result)
        finally:
            if self._closed:
                if worker is not None:
                    self._end(worker)
            elif replace:
                self._add_slot()
            else:
                self._idle.append(worker)
                self._dispatch()

    def _end(self, worker: _Process) -> None:
        self._live.discard(worker)
        try:
            worker.end()
        except Exception as exc:
            log.warning("cannot end a heavy worker (%s)", type(exc).__name__)

    # -- analyses -----------------------------------------------------------------------

    async def analyse(self, client: str, game_name: str, view: dict[str, Any],
                      legal: list[str], bot: str, seed: int,
                      think: float | None = None) -> list[tuple[str, float]]:
        """Run :func:`analyse_job` for ``client``.

        Raises:
            TooManyRequests: the client has an analysis queued or running, or the
                analyses' queue is full.
            Unavailable: the job ran past its time limit (its worker was ended), or its
                worker stopped.
        """
        if self._clients[client] >= PER_CLIENT:
            raise TooManyRequests("an analysis of yours is still running: wait for it",
                                  retry_after=1.0)
        if sum(self._clients.values()) >= self.slots * QUEUE_PER_WORKER:
            raise TooManyRequests("the analysis queue is full: try again shortly",
                                  retry_after=2.0)
        self._clients[client] += 1
        try:
            return await self.submit(  # type: ignore[no-any-return]
                "analysis", analyse_job, (game_name, view, legal, bot, seed, think),
                key=f"client:{client}", time_limit=self.time_limit,
                wait_limit=self.time_limit * QUEUE_PER_WORKER)
        except JobTimeout:
            raise Unavailable(f"the analysis took longer than {self.time_limit:g} s",
                              retry_after=2.0) from None
        except (JobQueued, WorkerLost):
            raise Unavailable("no analysis worker was free in time: try again shortly",
                              retry_after=2.0) from None
        finally:
            self._clients[client] -= 1
            if self._clients[client] <= 0:
                del self._clients[client]

    async def review(self, client: str, record: dict[str, Any],
                     seats: list[int]) -> dict[str, Any]:
        """Run :func:`review_job` for ``client`` (one at a time per client, like an
        analysis, within ``REVIEW_TIME_LIMIT``).

        Raises:
            TooManyRequests: the client has a heavy job queued or running, or the queue
                is full.
            Unavailable: the review ran past its time limit, or its worker stopped.
        """
        if self._clients[client] >= PER_CLIENT:
            raise TooManyRequests("a review or analysis of yours is still running: wait "
                                  "for it", retry_after=2.0)
        if sum(self._clients.values()) >= self.slots * QUEUE_PER_WORKER:
            raise TooManyRequests("the review queue is full: try again shortly",
                                  retry_after=5.0)
        self._clients[client] += 1
        try:
            return await self.submit(  # type: ignore[no-any-return]
                "review", review_job, (record, seats), key=f"client:{client}",
                time_limit=REVIEW_TIME_LIMIT, wait_limit=REVIEW_TIME_LIMIT)
        except JobTimeout:
            raise Unavailable(f"the review took longer than {REVIEW_TIME_LIMIT:g} s",
                              retry_after=5.0) from None
        except (JobQueued, WorkerLost):
            raise Unavailable("no worker was free for the review in time: try again "
                              "shortly", retry_after=5.0) from None
        finally:
            self._clients[client] -= 1
            if self._clients[client] <= 0:
                del self._clients[client]

    async def close(self) -> None:
        """Answer the queued jobs 503 and end the workers."""
        self._closed = True
        for queue in self._queues.values():
            for job in queue:
                _answer(job, Unavailable("the server is stopping", retry_after=2.0))
        self._queues.clear()
        self._ring.clear()
        for worker in list(self._live):
            self._end(worker)
        self._idle.clear()
        for task in list(self._running):
            task.cancel()
        await asyncio.gather(*self._running, return_exceptions=True)
        self._threads.shutdown(wait=False, cancel_futures=True)


def _answer(job: _Job, exc: BaseException) -> None:
    if not job.future.done():
        job.future.set_exception(exc)


def analyse_job(game_name: str, view: dict[str, Any], legal: list[str], bot: str,
                seed: int, think: float | None) -> list[tuple[str, float]]:
    """Rank the legal actions (given as text): what :func:`meeplehall.ai.base.analyse`
    returns, with the actions as text."""
    from meeplehall.ai.base import analyse
    from meeplehall.games import GAMES

    game = GAMES[game_name]
    actions = tuple(game.parse_action(text) for text in legal)
    return [(str(action), float(score))
            for action, score in analyse(game, view, actions, bot, seed, think)]


def review_job(record: dict[str, Any], seats: list[int]) -> dict[str, Any]:
    """The game review of a finished game's record (its dict) for ``seats``:
    :meth:`meeplehall.ai.review.Review.to_dict`."""
    from meeplehall.ai.review import review
    from meeplehall.core.record import GameRecord

    return review(GameRecord.from_dict(record), seats=seats).to_dict()


def bot_job(game_name: str, kind: str, seed: int, view: dict[str, Any],
            legal: list[str]) -> int:
    """A bot's move: the index in ``legal`` (the legal actions as text) of the action the
    ``kind`` bot made with ``seed`` chooses from the seat's ``view``, or -1 when it chose
    one that is not legal. The same in a worker process as in the server's."""
    from meeplehall.ai.base import make_bot
    from meeplehall.games import GAMES

    game = GAMES[game_name]
    actions = tuple(game.parse_action(text) for text in legal)
    action = make_bot(kind, seed).choose(game, view, actions)
    try:
        return actions.index(action)
    except ValueError:
        return -1


def check_record_job(data: dict[str, Any]) -> str | None:
    """An import's check of an exported record (its dict): None when every move replays
    under its rules version, else what :func:`meeplehall.core.record.replay` says is
    wrong (the message names the move and why)."""
    from meeplehall.core.record import GameRecord, RecordError, replay

    try:
        replay(GameRecord.from_dict(data))
    except RecordError as exc:
        return str(exc)
    return None


def import_record_job(data: dict[str, Any], params: dict[str, Any], pack: bool) -> Any:
    """An import in a worker: the record (its dict) checked as :func:`check_record_job`
    does, then the table its moves make (:func:`meeplehall.server.live_table.record_built`
    with ``params``, the validated options), with ``pack`` (from a worker process) its
    snapshots :class:`~meeplehall.server.live_table.Packed`. Returns what is wrong (a
    ``str``) or the ``Built``."""
    from meeplehall.core.record import GameRecord
    from meeplehall.games import GAMES
    from meeplehall.server.live_table import CorruptLog, packed, record_built

    why = check_record_job(data)
    if why is not None:
        return why
    record = GameRecord.from_dict(data)
    try:
        built = record_built(GAMES[record.game], params, record.seed, record.actions)
    except CorruptLog as exc:
        return str(exc)
    return packed(built) if pack else built
