"""Schemathesis against the OpenAPI schema: no input makes the server answer 5xx."""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from meeplehall.server.app import create_app

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
_DB = Path(tempfile.mkdtemp(prefix="meeplehall-schemathesis-")) / "server.db"
app = create_app(f"sqlite:///{_DB}", move_rate=0)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=True)
def test_no_input_gets_a_server_error(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=[not_a_server_error])
