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
