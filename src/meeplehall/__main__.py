"""Allow ``python -m meeplehall``."""

from meeplehall.cli.main import main

raise SystemExit(main())
