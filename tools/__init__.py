"""Development tools outside the runtime package: the server benchmark
(``meeplehall bench server``), throwaway PostgreSQL and Redis servers for it and for the
tests, the balance study (``python -m tools.study``) and the refit of mcts-hard's check
rating (``python -m tools.fit_check``). Installed with the project (``pip install -e .``)
but imported by no runtime module except, lazily, the ``bench server`` command."""
