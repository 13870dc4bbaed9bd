"""Praga Caput Regni (Vladimír Suchý, Delicious Games 2020), 2-4 players.

Work in progress: component data (``components.load``), hex geometry (``hexgrid``) and
the stand-alone scoring tables (``scoring``) are complete; the forward model is not yet
written, so the game is not registered in ``meeplehall.games.GAMES``. See
docs/praga-data.md and docs/praga-status.md.
"""
