"""API errors: each carries an HTTP status and a message naming the problem."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error answered as ``{"detail": message, ...extra}`` with ``status``."""

    status = 400

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"detail": self.detail, **self.extra}


class BadRequest(ApiError):
    status = 400


class Unauthorized(ApiError):
    status = 401


class Forbidden(ApiError):
    status = 403


class NotFound(ApiError):
    status = 404


class Conflict(ApiError):
    """409: the table moved on (``seq`` says where it is) or the request clashes."""

    status = 409


class Invalid(ApiError):
    status = 422


class TooManyRequests(ApiError):
    status = 429


class Unavailable(ApiError):
    """503: the database (or another service the server needs) cannot be reached;
    ``retry_after`` says when to try again."""

    status = 503


RETRY_AFTER = 2.0  # seconds a client is told to wait during an outage


def database_errors() -> tuple[type[Exception], ...]:
    """The exception classes that may mean the database is down (see :func:`outage`)."""
    import sqlite3

    import sqlalchemy.exc as sa

    classes: list[type[Exception]] = [sa.DBAPIError, sa.TimeoutError, sqlite3.OperationalError]
    try:
        import psycopg
    except ImportError:  # SQLite only
        pass
    else:
        classes += [psycopg.OperationalError, psycopg.InterfaceError]
    return tuple(classes)


def outage(exc: BaseException) -> Unavailable | None:
    """``Unavailable`` when ``exc`` says the database cannot be reached (a refused or
    lost connection, a pool that has none to give), else None."""
    import sqlite3

    import sqlalchemy.exc as sa

    if isinstance(exc, Unavailable):  # a read past its deadline (server.service)
        return exc
    lost = isinstance(exc, sa.OperationalError | sa.InterfaceError | sa.TimeoutError
                      | sqlite3.OperationalError) or (
        isinstance(exc, sa.DBAPIError) and exc.connection_invalidated)
    if not lost:
        try:
            import psycopg
        except ImportError:  # SQLite only
            return None
        lost = isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError)
    if not lost:
        return None
    return Unavailable("the database is unavailable: try again shortly",
                       retry_after=RETRY_AFTER)
