"""Alembic environment: migrations run on the connection the server hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from meeplehall.server.db import Base

target_metadata = Base.metadata
connection = context.config.attributes.get("connection")

if connection is None:  # the alembic command line: -x url=... or sqlalchemy.url
    url = context.get_x_argument(as_dictionary=True).get("url") or context.config.get_main_option(
        "sqlalchemy.url")
    if not url:
        raise SystemExit("give the database URL with: alembic -x url=URL upgrade head")
    with create_engine(url).begin() as own:
        context.configure(connection=own, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=target_metadata)
    with context.begin_transaction():
        context.run_migrations()
