"""meeplehall: faithful rules engines, bots and clients for heavy euro board games."""

__version__ = "0.1.0"
