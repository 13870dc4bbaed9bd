"""``python -m meeplehall.server serve|bench server``."""

from __future__ import annotations

import sys

from meeplehall.server.cli import main

if __name__ == "__main__":
    sys.exit(main())
