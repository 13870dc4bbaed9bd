"""The game server: tables, seats, the move log as the truth, views and live updates.

``create_app(db_url, redis_url=None)`` in :mod:`meeplehall.server.app` builds the ASGI app;
``meeplehall serve`` (or ``python -m meeplehall.server serve``) runs it on uvicorn. The
server serves every game of the registry (``meeplehall.games.GAMES``) and only ever sends
player views: never a state, a PRNG state or a face-down stack.
"""
