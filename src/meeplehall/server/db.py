"""Storage: the SQLAlchemy models, engine set-up and the schema check.

Three tables hold the games: ``game_tables`` (a ``GameRecord`` header per table,
with its hashed host token, turn deadline and stand-in level),
``seats`` (who sits where, with a hashed seat token) and ``moves``, the append-only
history; ``bot_leases`` says which server process drives a table's bots, and
``chat_messages`` holds the tables' chat. People (migration ``0005``): ``accounts``
with their ``account_sessions`` and ``sign_in_links``, turn-notification
``subscriptions`` and the ``deliveries`` made, ``ratings`` and ``results``.
``(table_id, seq)`` is unique in ``moves``: that constraint, not a lock, decides which of
two concurrent submissions wins. An undo is a history entry of its own (kind ``undo``)
and marks the moves it takes back as undone; nothing is ever deleted.

The schema is managed by the Alembic migrations under ``migrations/``; the server applies
them at start and refuses a database whose schema revision it does not know.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    false,
    func,
    inspect,
    text,
)
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql.elements import ColumnElement

NAME_COLUMN = 64  # characters the seats.name column holds (names are at most 24)
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
SQLITE_BUSY_MS = 2_000  # a SQLite write waits this long for another process's writer
# PostgreSQL, every statement of every session (but the migrations): reads and writes
# fail fast, as a 503 with Retry-After, instead of queueing behind a lock or a stuck
# query for longer than a client or the proxy waits.
PG_STATEMENT_TIMEOUT_MS = 2_000
PG_LOCK_TIMEOUT_MS = 1_000
POOL_TIMEOUT = 1.0  # seconds a request waits for a pooled connection
_PG_MIGRATION_LOCK = 0x6D65_6570  # pg_advisory_xact_lock key: one migrator at a time

# BIGINT in PostgreSQL; INTEGER in SQLite, where only INTEGER PRIMARY KEY autoincrements.
_ID = BigInteger().with_variant(Integer(), "sqlite")


class StorageError(RuntimeError):
    """The database cannot be used; the message says why and what to do."""


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    """A table: the header of its ``GameRecord``."""

    __tablename__ = "game_tables"

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(64))
    rules_version: Mapped[int] = mapped_column(Integer)
    params: Mapped[str] = mapped_column(Text)  # JSON object
    seed: Mapped[int] = mapped_column(BigInteger)
    source: Mapped[str] = mapped_column(String(16), default="new")  # "new" | "chosen" | "import"
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The creator asked for a rated game (meeplehall.server.ratings); else casual.
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    # The host's token, hashed (NULL: a table opened before hosts, without host controls).
    host_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # Turn deadline in seconds (NULL: none) and the bot level that stands in past it.
    deadline_s: Mapped[int | None] = mapped_column(Integer, nullable=True)
    stand_in: Mapped[str | None] = mapped_column(String(32), nullable=True)
    spectator_chat: Mapped[bool] = mapped_column(Boolean, default=False,
                                                 server_default=false())


class SeatRow(Base):
    """A seat: ``human`` (open while ``token_hash`` is NULL) or a bot kind."""

    __tablename__ = "seats"

    table_id: Mapped[int] = mapped_column(
        _ID, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    joined_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The name its player gave (public; NULL: none); see meeplehall.server.names.
    name: Mapped[str | None] = mapped_column(String(NAME_COLUMN), nullable=True)
    # The account the seat was joined under (NULL: an anonymous seat); not a foreign
    # key: deleting an account sets it back to NULL (meeplehall.server.accounts).
    account_id: Mapped[int | None] = mapped_column(_ID, nullable=True, index=True)
    # A one-time recovery secret, hashed (meeplehall.server.seat_control).
    recovery_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # A bot level playing this human seat: handed over by the host ("host") or standing
    # in past the turn deadline ("deadline"); NULL: the seat plays itself.
    played_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    played_why: Mapped[str | None] = mapped_column(String(8), nullable=True)
    # The seat's current turn deadline (server clock, UTC; NULL: not its turn or no
    # deadline) and whether its reminder went out (meeplehall.server.deadlines).
    deadline_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                         nullable=True, index=True)
    reminded: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    muted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class MoveRow(Base):
    """One history entry: a move (``kind='move'``) or an undo (``kind='undo'``)."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_moves_table_seq"),)

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(
        _ID, ForeignKey("game_tables.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8), default="move")
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[str] = mapped_column(Text)
    undone: Mapped[bool] = mapped_column(Boolean, default=False)
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """A chat message of a table: the seat that wrote it, its name then, the text."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(
        _ID, ForeignKey("game_tables.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str | None] = mapped_column(String(NAME_COLUMN), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LeaseRow(Base):
    """The server process driving a table's bots (``holder``), until ``expires_at``: it
    renews the lease while its bots move; another process takes over a lapsed one."""

    __tablename__ = "bot_leases"

    table_id: Mapped[int] = mapped_column(
        _ID, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    holder: Mapped[str] = mapped_column(String(32))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class AccountRow(Base):
    """An account: its sign-in address, public name and the key its seats' tokens are
    derived from (so that every device signed in to it can act for its seats)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[str | None] = mapped_column(String(NAME_COLUMN), nullable=True)
    seat_key: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # argon2id hash of the account's password (optional; NULL: sign-in by link only)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its session cookie, until ``expires_at``."""

    __tablename__ = "account_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        _ID, ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SignInRow(Base):
    """A sign-in link sent to ``email``: the SHA-256 of its token, usable once."""

    __tablename__ = "sign_in_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    email: Mapped[str] = mapped_column(String(254), index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used: Mapped[bool] = mapped_column(Boolean, default=False)


class SubscriptionRow(Base):
    """Where to tell a seat (``table_id``, ``seat``) or every seat of an account
    (``account_id``) that it is its turn: ``channel`` ``email`` or ``webhook``, at
    ``target``. An address is written to only once ``confirmed``."""

    __tablename__ = "subscriptions"

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    table_id: Mapped[int | None] = mapped_column(
        _ID, ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    account_id: Mapped[int | None] = mapped_column(
        _ID, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True, index=True)
    seat_token: Mapped[str | None] = mapped_column(String(64), nullable=True)  # its hash
    channel: Mapped[str] = mapped_column(String(8))
    target: Mapped[str] = mapped_column(String(2048))
    confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    confirm_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    unsubscribe: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DeliveryRow(Base):
    """One message sent (or being sent) for one notice on one channel to one target:
    inserted before sending, so its unique key makes the message go out at most once
    across processes and restarts."""

    __tablename__ = "deliveries"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    table_id: Mapped[int] = mapped_column(_ID, index=True)
    status: Mapped[str] = mapped_column(String(8))  # sending | sent | failed
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """A player's rating (``account:ID`` or ``bot:KIND``) in a game at a player count."""

    __tablename__ = "ratings"

    player: Mapped[str] = mapped_column(String(40), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ResultRow(Base):
    """A player's result at a finished table: rank and score, the rating before and
    after (rated games), the solo measure (``mode``, ``margin``)."""

    __tablename__ = "results"
    __table_args__ = (UniqueConstraint("table_id", "player", name="uq_results_table_player"),)

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(
        _ID, ForeignKey("game_tables.id", ondelete="CASCADE"))
    player: Mapped[str] = mapped_column(String(40), index=True)
    account_id: Mapped[int | None] = mapped_column(_ID, nullable=True, index=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    score: Mapped[int] = mapped_column(Integer)
    margin: Mapped[int | None] = mapped_column(Integer, nullable=True)
    mode: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    mu_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    mu_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


def now() -> datetime:
    return datetime.now(UTC)


# The database's own clock, for the bots' leases: every process compares expiries with
# one clock, so a host whose clock runs fast or slow neither takes live leases nor keeps
# lapsed ones. SQLite's text timestamps in SQLAlchemy's format (six fraction digits).
_SQLITE_STAMP = "%Y-%m-%d %H:%M:%f000"


def db_now(dialect: str) -> ColumnElement[Any]:
    """The database's current time, in SQL."""
    if dialect == "sqlite":
        return func.strftime(_SQLITE_STAMP, "now")
    return func.now()


def db_later(dialect: str, seconds: float) -> ColumnElement[Any]:
    """The database's current time plus ``seconds``, in SQL."""
    if dialect == "sqlite":
        return func.strftime(_SQLITE_STAMP, "now", f"{seconds:+.3f} seconds")
    return func.now() + func.make_interval(0, 0, 0, 0, 0, 0, float(seconds))


def describe_url(url: str | URL) -> str:
    """The URL with any password hidden, for messages and the start banner."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unparsable database URL>"


def make_engine(url: str) -> Engine:
    """An engine for a SQLite (WAL, synchronous=NORMAL) or PostgreSQL (psycopg) URL.

    SQLite durability: in WAL mode with ``synchronous=NORMAL`` a commit has written the
    transaction to the WAL file before it returns, so it survives the server process
    dying at any point (SIGKILL included: the operating system still holds the write);
    the WAL is synced at checkpoints, not at every commit, so a power cut or kernel crash
    may lose the last moments' moves. ``FULL`` would add an fsync to every commit (one
    per move) for that case only; the server does not claim to survive power loss on
    SQLite (use PostgreSQL with synchronous_commit=on for that).

    Raises:
        StorageError: the URL is malformed or names another kind of database.
    """
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise StorageError(f"cannot parse the database URL {url!r}") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        memory = parsed.database in (None, "", ":memory:")
        if not memory:
            Path(str(parsed.database)).expanduser().parent.mkdir(parents=True, exist_ok=True)
        kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False,
                                                   "timeout": SQLITE_BUSY_MS / 1000}}
        if memory:
            kwargs["poolclass"] = StaticPool
        else:
            kwargs.update(pool_size=8, max_overflow=8, pool_timeout=POOL_TIMEOUT)
        engine = create_engine(parsed, **kwargs)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            # In the WAL before the reply is sent: durable against a process crash.
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
            cursor.close()

        return engine
    if backend == "postgresql":
        if parsed.get_driver_name() not in ("psycopg", ""):
            raise StorageError("PostgreSQL URLs must use the psycopg driver: "
                               "postgresql+psycopg://user:password@host:port/database")
        # Pre-ping (a round trip on each checkout): after the database restarts, the
        # first request gets a fresh connection instead of an error. Moves do not pay
        # it: the move writer keeps its connection (meeplehall.server.writer).
        options = (f"-c statement_timeout={PG_STATEMENT_TIMEOUT_MS} "
                   f"-c lock_timeout={PG_LOCK_TIMEOUT_MS}")
        given = parsed.query.get("options")
        if isinstance(given, str) and given:  # the URL's own settings come last and win
            options = f"{options} {given}"
        return create_engine(parsed.set(drivername="postgresql+psycopg").difference_update_query(
                                 ["options"]),
                             pool_size=10, max_overflow=20, pool_pre_ping=True,
                             pool_timeout=POOL_TIMEOUT, connect_args={"options": options})
    raise StorageError(f"unsupported database {backend!r}: use sqlite:///PATH or "
                       "postgresql+psycopg://user:password@host:port/database")


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def known_revisions() -> list[str]:
    script = ScriptDirectory.from_config(_alembic_config())
    return [rev.revision for rev in script.walk_revisions()]


def ensure_schema(engine: Engine) -> None:
    """Apply the migrations, or refuse a database this version does not know.

    Raises:
        StorageError: the database cannot be reached, holds other tables, or carries a
            schema revision this program does not know (made by a newer version).
    """
    where = describe_url(engine.url)
    config = _alembic_config()
    known = known_revisions()
    try:
        with engine.begin() as connection:
            if engine.dialect.name == "postgresql":
                # Migrations may take long and wait for another process's migration.
                connection.execute(text("SET LOCAL statement_timeout = 0"))
                connection.execute(text("SET LOCAL lock_timeout = 0"))
                connection.execute(text("SELECT pg_advisory_xact_lock(:k)"),
                                   {"k": _PG_MIGRATION_LOCK})
            current = MigrationContext.configure(connection).get_current_revision()
            names = set(inspect(connection).get_table_names()) - {"alembic_version"}
            if current is None and names:
                raise StorageError(
                    f"the database {where} already holds tables ({', '.join(sorted(names))}) "
                    "but no meeplehall schema version: it is not a meeplehall database. "
                    "Use an empty database.")
            if current is not None and current not in known:
                raise StorageError(
                    f"the database {where} has schema revision {current!r}, which this "
                    f"version of meeplehall does not know (it knows {', '.join(known)}). "
                    "It was probably written by a newer meeplehall: upgrade meeplehall, or "
                    "use another database.")
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    except StorageError:
        raise
    except SQLAlchemyError as exc:
        raise StorageError(
            f"cannot open the database {where}: {type(exc).__name__}: "
            f"{str(getattr(exc, 'orig', None) or exc).splitlines()[0]}") from None
