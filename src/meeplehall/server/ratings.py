"""Ratings: OpenSkill (Plackett-Luce) per game and player count, bot levels anchored by
the arena's measured strengths, results and solo personal bests.

**Who is rated.** A table is rated when its creator asked for it (``"rated": true``
when it is opened) and every seat is a rated player: an account's seat (joined while
signed in) or a bot. A rated table with an anonymous human seat ends as a casual one.
Players are ``account:ID`` and ``bot:KIND``; ratings are kept per game and player count.

**Bots.** The bot levels whose strength the arena measured (docs/ai.md, "Measured
strength": two-player win rates against greedy) are anchored: their ``mu`` is greedy's
plus the Elo difference those win rates give, converted to OpenSkill's scale
(:data:`MU_PER_ELO`), with a small fixed ``sigma``, and their ratings never move, so a
person's first games against bots place them on that scale. The other levels (random,
planner, expert and those not measured in a game) are rated like people, from the
default rating. The anchors come from two-player games and serve every player count.

**When.** A game's end is rated by the process that committed its last move (a change
listener, as notices are), on a worker thread; the unique ``(table_id, player)`` of the
results makes a table count once, whichever process or restart rates it again.

**Solo.** A one-seat game of an account is kept as a result with its personal-best
measure: Praga's score against the dummy or against Peter Parler, The Red Cathedral's
margin against Ivan (the seat's score less his). Solo games change no rating.
"""

from __future__ import annotations

import logging
import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from meeplehall.server.clock import Clock
from meeplehall.server.db import AccountRow, RatingRow, ResultRow, SeatRow, TableRow
from meeplehall.server.live_table import Live
from meeplehall.server.service import HUMAN, TableService

log = logging.getLogger("meeplehall.server.ratings")

MU, SIGMA = 25.0, 25.0 / 3  # OpenSkill's defaults: a new player's rating
ANCHOR_SIGMA = 1.0  # an anchored bot's (fixed) uncertainty
# An Elo difference d gives odds 10**(d/400); OpenSkill's win probability between two
# players is about Phi(delta_mu / (sqrt(2) * beta)) with beta = SIGMA / 2, and the
# logistic curve is Phi(x / 1.702): delta_mu = d * sqrt(2) * beta * ln(10) / (400 * 1.702).
MU_PER_ELO = math.sqrt(2) * (SIGMA / 2) * math.log(10) / (400 * 1.702)


def elo_over(win_rate: float) -> float:
    """The Elo difference of a player who wins ``win_rate`` of its games."""
    return 400 * math.log10(win_rate / (1 - win_rate))


# Two-player win rates against greedy from docs/ai.md ("Measured strength"), current
# rules and data unless said: (game, level) -> the rate.
MEASURED = {
    ("red-cathedral", "mcts-medium"): 0.76,  # 152 of 200, seeds 2000-2099
    ("red-cathedral", "mcts-hard"): 0.9225,  # 184.5 of 200, seeds 2000-2099
    ("praga", "mcts-easy"): 0.63,  # 126 of 200, seeds 7000-7099, rules_version 2
    ("praga", "mcts-medium"): 0.735,  # 147 of 200, seeds 7000-7099
    ("praga", "mcts-hard"): 0.965,  # 193 of 200, seeds 7000-7099
}


def anchor(game: str, kind: str) -> float | None:
    """The fixed ``mu`` of an anchored bot level, or None (rated like a person)."""
    if kind == "greedy":
        return MU
    rate = MEASURED.get((game, kind))
    return None if rate is None else MU + elo_over(rate) * MU_PER_ELO


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown and ranked by: ``mu - 3 sigma``."""
    return mu - 3 * sigma


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat of a finished game, as rated."""

    seat: int
    player: str
    account_id: int | None
    rank: int
    score: int


class Ratings:
    """Rates finished rated tables, keeps solo results, answers leaderboards."""

    def __init__(self, service: TableService, clock: Clock) -> None:
        self.service = service
        self.clock = clock
        self.model = PlackettLuce(mu=MU, sigma=SIGMA)
        self._pool: ThreadPoolExecutor | None = None

    def on_change(self, table_id: int, seq: int, undo: bool) -> None:
        """A change listener: a table that just finished is rated on a worker thread."""
        live = self.service.cached(table_id)
        if undo or live is None or live.seq != seq or not live.finished:
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="ratings")
        self._pool.submit(self._rate_logged, live)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)

    def idle(self) -> None:
        """Wait for the ratings queued now (tests)."""
        if self._pool is not None:
            self._pool.submit(lambda: None).result(timeout=30)

    def _rate_logged(self, live: Live) -> None:
        try:
            self.rate(live)
        except Exception:
            log.exception("rating table %d failed", live.table_id)

    # -- rating a game ------------------------------------------------------------------

    def standings(self, conn: Connection, live: Live) -> tuple[bool, list[Standing]] | None:
        """Whether the table is rated, and its seats' standings; None when a human
        seat is anonymous (nobody to rate it as) or the game has no outcome."""
        outcome = live.game.outcome(live.state)
        if outcome is None:
            return None
        rated = conn.execute(select(TableRow.rated).where(
            TableRow.id == live.table_id)).scalar_one_or_none()
        seats = conn.execute(select(SeatRow.seat, SeatRow.kind, SeatRow.account_id).where(
            SeatRow.table_id == live.table_id).order_by(SeatRow.seat)).all()
        found = []
        for seat, kind, account in seats:
            if kind == HUMAN and account is None:
                return None
            player = f"account:{account}" if kind == HUMAN else f"bot:{kind}"
            found.append(Standing(seat, player, account if kind == HUMAN else None,
                                  outcome.rank_of(seat), int(outcome.scores[seat])))
        return bool(rated), found

    def rate(self, live: Live) -> None:
        """Record the finished table's results and update its players' ratings (once)."""
        def write(conn: Connection) -> None:
            found = self.standings(conn, live)
            if found is None:
                return
            rated, standings = found
            if len(standings) == 1:
                self._solo(conn, live, standings[0])
            elif rated:
                self._rated(conn, live, standings)

        self.service.write_now(write)

    def _rating(self, conn: Connection, player: str, game: str, players: int
                ) -> tuple[float, float, bool]:
        """(mu, sigma, stored) of a player now."""
        if player.startswith("bot:"):
            fixed = anchor(game, player[4:])
            if fixed is not None:
                return fixed, ANCHOR_SIGMA, False
        row = conn.execute(select(RatingRow.mu, RatingRow.sigma).where(
            RatingRow.player == player, RatingRow.game == game,
            RatingRow.players == players)).first()
        return (MU, SIGMA, False) if row is None else (float(row.mu), float(row.sigma), True)

    def _rated(self, conn: Connection, live: Live, standings: list[Standing]) -> None:
        game, players, now = live.game.name, len(standings), self.clock.now()
        before = [self._rating(conn, s.player, game, players) for s in standings]
        teams = [[self.model.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in before]
        after = self.model.rate(teams, ranks=[float(s.rank) for s in standings])
        try:
            with conn.begin_nested():
                for s, (mu0, _, _), team in zip(standings, before, after, strict=True):
                    fixed = s.player.startswith("bot:") and anchor(game, s.player[4:]) \
                        is not None
                    mu1 = mu0 if fixed else float(team[0].mu)
                    conn.execute(insert(ResultRow).values(
                        table_id=live.table_id, player=s.player, account_id=s.account_id,
                        game=game, players=players, rank=s.rank, score=s.score, margin=None,
                        mode=None, mu_before=mu0, mu_after=mu1, rated=True, at=now))
        except IntegrityError:
            return  # rated already (another process, or before a restart)
        for s, (_, _, stored), team in zip(standings, before, after, strict=True):
            if s.player.startswith("bot:") and anchor(game, s.player[4:]) is not None:
                continue
            values = {"mu": float(team[0].mu), "sigma": float(team[0].sigma), "updated_at": now}
            if stored:
                conn.execute(update(RatingRow).where(
                    RatingRow.player == s.player, RatingRow.game == game,
                    RatingRow.players == players).values(games=RatingRow.games + 1, **values))
            else:
                conn.execute(insert(RatingRow).values(
                    player=s.player, game=game, players=players, games=1, **values))

    def _solo(self, conn: Connection, live: Live, standing: Standing) -> None:
        if standing.account_id is None:
            return
        outcome = live.game.outcome(live.state)
        assert outcome is not None
        details: dict[str, Any] = dict(outcome.details)
        margin: int | None = None
        if isinstance(details.get("ivan"), dict):
            mode = "ivan"
            margin = standing.score - int(details["ivan"]["score"])
        else:
            mode = str(details.get("solo_opponent") or "solo")
        try:
            with conn.begin_nested():
                conn.execute(insert(ResultRow).values(
                    table_id=live.table_id, player=standing.player,
                    account_id=standing.account_id, game=live.game.name, players=1,
                    rank=standing.rank, score=standing.score, margin=margin, mode=mode,
                    mu_before=None, mu_after=None, rated=False, at=self.clock.now()))
        except IntegrityError:
            return

    # -- reading ------------------------------------------------------------------------

    async def leaderboard(self, game: str, players: int, limit: int = 50
                          ) -> list[dict[str, Any]]:
        """The rated players of ``game`` at ``players`` seats, best first (by
        :func:`ordinal`), the anchored bot levels among them."""
        def read(conn: Connection) -> list[dict[str, Any]]:
            rows = conn.execute(select(RatingRow).where(
                RatingRow.game == game, RatingRow.players == players))
            found = [{"player": r.player, "mu": r.mu, "sigma": r.sigma, "games": r.games}
                     for r in rows]
            for (name, kind) in MEASURED:
                if name == game:
                    found.append({"player": f"bot:{kind}", "mu": anchor(game, kind),
                                  "sigma": ANCHOR_SIGMA, "games": None})
            found.append({"player": "bot:greedy", "mu": MU, "sigma": ANCHOR_SIGMA,
                          "games": None})
            names = _names(conn, found)
            for entry in found:
                entry["name"] = names.get(entry["player"])
                entry["rating"] = round(ordinal(entry["mu"], entry["sigma"]), 2)
                entry["anchored"] = entry["games"] is None
                entry["account"] = _account_of(entry["player"])
            found.sort(key=lambda e: -e["rating"])
            return found[:limit]

        return await self.service.read(read)

    async def profile(self, account_id: int) -> dict[str, Any] | None:
        """An account's public profile: its name, ratings, results (newest first, with
        each rating change) and solo personal bests; None when there is no such account."""
        player = f"account:{account_id}"

        def read(conn: Connection) -> dict[str, Any] | None:
            name = conn.execute(select(AccountRow.name).where(
                AccountRow.id == account_id)).first()
            if name is None:
                return None
            ratings = [{"game": r.game, "players": r.players, "games": r.games,
                        "rating": round(ordinal(r.mu, r.sigma), 2), "mu": r.mu,
                        "sigma": r.sigma}
                       for r in conn.execute(select(RatingRow).where(RatingRow.player == player)
                                             .order_by(RatingRow.game, RatingRow.players))]
            results = [{"table_id": r.table_id, "game": r.game, "players": r.players,
                        "rank": r.rank, "score": r.score, "margin": r.margin, "mode": r.mode,
                        "rated": bool(r.rated), "mu_before": r.mu_before,
                        "mu_after": r.mu_after, "at": r.at.isoformat()}
                       for r in conn.execute(select(ResultRow).where(
                           ResultRow.player == player).order_by(ResultRow.id.desc()).limit(200))]
            bests: dict[str, dict[str, Any]] = {}
            for r in results:
                if r["players"] != 1:
                    continue
                key = f"{r['game']}:{r['mode']}"
                measure = r["margin"] if r["margin"] is not None else r["score"]
                kept = bests.get(key)
                if kept is None or measure > kept["best"]:
                    bests[key] = {"game": r["game"], "mode": r["mode"], "best": measure,
                                  "measure": "margin" if r["margin"] is not None else "score",
                                  "table_id": r["table_id"]}
            return {"id": account_id, "name": name[0], "ratings": ratings,
                    "results": results, "bests": list(bests.values())}

        return await self.service.read(read)


def forget_account(conn: Connection, account_id: int) -> None:
    """Delete an account's ratings and results (its deletion)."""
    conn.execute(delete(RatingRow).where(RatingRow.player == f"account:{account_id}"))
    conn.execute(delete(ResultRow).where(ResultRow.account_id == account_id))


def _account_of(player: str) -> int | None:
    return int(player[8:]) if player.startswith("account:") else None


def _names(conn: Connection, entries: list[dict[str, Any]]) -> dict[str, str | None]:
    ids = [a for a in (_account_of(e["player"]) for e in entries) if a is not None]
    names: dict[str, str | None] = {e["player"]: e["player"][4:] for e in entries
                                    if e["player"].startswith("bot:")}
    if ids:
        for row in conn.execute(select(AccountRow.id, AccountRow.name).where(
                AccountRow.id.in_(ids))):
            names[f"account:{row.id}"] = row.name
    return names
