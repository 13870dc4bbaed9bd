"""The conformance suite: the checks every game of ``GAMES`` passes, parametrised over the
registry (golden records, perft counts, playthroughs, protocol properties). Each game
describes its part in ``tests/games/<package>/conformance.py`` (see ``spec.py``)."""
