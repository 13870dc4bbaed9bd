"""Heavy work (a bot's analysis of a decision) in a bounded pool of worker processes.

The server's interpreter runs the event loop and the move writer; an analysis by a strong
bot costs more than a second of CPU, so with ``workers`` > 0 it runs in one of that many
worker processes (started with ``spawn``: no state of the server is inherited), never in
the server's own interpreter. Jobs are queued fairly: each client address has at most
:data:`PER_CLIENT` job queued or running at a time, and the queue holds at most
``workers * QUEUE_PER_WORKER`` jobs, so one client cannot fill it; a job over its time
limit has its worker process ended (the pool is started again for the next job) and is
answered ``503``. With ``workers`` = 0 the work runs in a thread, as a single small
installation (and the tests) need.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from meeplehall.server.errors import TooManyRequests, Unavailable

PER_CLIENT = 1  # jobs one client address may have queued or running at a time
QUEUE_PER_WORKER = 4  # jobs queued or running per worker process, in all
JOB_TIME_LIMIT = 10.0  # seconds a job may take before its worker process is ended


def analyse_job(game_name: str, view: dict[str, Any], legal: list[str], bot: str,
                seed: int, think: float | None) -> list[tuple[str, float]]:
    """Rank the legal actions (given as text) in a worker process: what
    :func:`meeplehall.ai.base.analyse` returns, with the actions as text."""
    from meeplehall.ai.base import analyse
    from meeplehall.games import GAMES

    game = GAMES[game_name]
    actions = tuple(game.parse_action(text) for text in legal)
    return [(str(action), float(score))
            for action, score in analyse(game, view, actions, bot, seed, think)]


class HeavyPool:
    """A bounded pool of worker processes, fair across client addresses."""

    def __init__(self, workers: int, time_limit: float = JOB_TIME_LIMIT) -> None:
        self.workers = workers
        self.time_limit = time_limit
        self._pool: ProcessPoolExecutor | None = None
        self._clients: Counter[str] = Counter()
        self.ended = 0  # worker pools ended for a job over its time limit

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def analyse(self, client: str, game_name: str, view: dict[str, Any],
                      legal: list[str], bot: str, seed: int,
                      think: float | None = None) -> list[tuple[str, float]]:
        """Run :func:`analyse_job` for ``client``.

        Raises:
            TooManyRequests: the client has a job queued or running, or the queue is full.
            Unavailable: the job ran past its time limit (its worker was ended).
        """
        if self._clients[client] >= PER_CLIENT:
            raise TooManyRequests("an analysis of yours is still running: wait for it",
                                  retry_after=1.0)
        if sum(self._clients.values()) >= max(1, self.workers) * QUEUE_PER_WORKER:
            raise TooManyRequests("the analysis queue is full: try again shortly",
                                  retry_after=2.0)
        self._clients[client] += 1
        try:
            if self.workers <= 0:
                return await asyncio.to_thread(analyse_job, game_name, view, legal, bot,
                                               seed, think)
            pool = self._executor()
            future = pool.submit(analyse_job, game_name, view, legal, bot, seed, think)
            try:
                return await asyncio.wait_for(asyncio.wrap_future(future), self.time_limit)
            except TimeoutError:
                self._end(pool)
                raise Unavailable(f"the analysis took longer than {self.time_limit:g} s",
                                  retry_after=2.0) from None
            except BrokenProcessPool:  # another job's worker was ended, or one died
                if self._pool is pool:
                    self._pool = None
                raise Unavailable("the analysis worker stopped: try again shortly",
                                  retry_after=2.0) from None
        finally:
            self._clients[client] -= 1
            if self._clients[client] <= 0:
                del self._clients[client]

    def _end(self, pool: ProcessPoolExecutor) -> None:
        """End the worker processes of ``pool`` (one of them runs a job past its time
        limit; the others' jobs fail and their clients get 503): the next job starts a
        new pool."""
        if self._pool is pool:
            self._pool = None
        self.ended += 1
        processes = list((getattr(pool, "_processes", None) or {}).values())
        for process in processes:
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
