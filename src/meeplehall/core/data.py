"""Reading component data files: TOML with a provenance on every entry.

Every game keeps its components in ``games/<game>/data/*.toml``; each entry says where
its values come from (STYLE.md section 6). These helpers read a file and check that
provenance, with messages that name the file and the entry.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

SOURCES = ("rulebook", "public-page", "reconstructed")


class DataError(ValueError):
    """Component data that is missing, malformed or inconsistent."""


def read_toml(directory: Path, name: str) -> dict[str, Any]:
    """Load ``directory/name``; a missing or invalid file raises ``DataError``."""
    path = directory / name
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise DataError(f"component file {name} is missing") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"component file {name} is not valid TOML: {exc}") from None


def check_provenance(entry: dict[str, Any], file: str, label: str) -> None:
    """Every entry needs ``source``; a ``public-page`` source also needs its ``url``.

    >>> check_provenance({"source": "rulebook"}, "x.toml", "B01")
    >>> check_provenance({"source": "public-page"}, "x.toml", "B01")
    Traceback (most recent call last):
    ...
    meeplehall.core.data.DataError: x.toml: B01 has source 'public-page' but no url
    """
    source = entry.get("source")
    if source not in SOURCES:
        raise DataError(f"{file}: {label} needs source = one of {', '.join(SOURCES)}")
    if source == "public-page" and not entry.get("url"):
        raise DataError(f"{file}: {label} has source 'public-page' but no url")
