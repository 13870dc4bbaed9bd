"""The terminal client: ``meeplehall play | simulate | replay | bench``.

``main.py`` parses the command line; ``play.py`` runs an interactive game,
``simulate.py`` bot tournaments, ``replay.py`` steps through saved records,
``bench.py`` measures the forward model and ``render.py`` draws boards with ``rich``.
"""
