"""Peter Parler's data (P-SOLO-4; the evidence file's "Peter Parler solo opponent",
P.1-P.7): his names, cards, limits, seals, plaza loop and score ladder, read and checked
from ``data/solo/parler.toml``. His play is ``parler.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from meeplehall.core.data import DataError, check_provenance, read_toml
from meeplehall.games.praga.components import load

C = load()
DATA_DIR = Path(__file__).parent / "data" / "solo"
SECTIONS = ("building", "wall", "upgrade", "mine", "quarry", "mine-or-quarry")


@dataclass(frozen=True, slots=True)
class ParlerCard:
    id: int
    sections: tuple[str, ...]
    recycle: int  # 0 oldest, 1 second-oldest, 2 third-oldest


@dataclass(frozen=True, slots=True)
class ParlerData:
    names: tuple[str, ...]
    start_mines: int
    start_quarries: int
    max_mines: int
    max_quarries: int
    token_mines: int
    token_quarries: int
    cards: tuple[ParlerCard, ...]
    gold_seal: int
    stone_seal: int
    fallback_seal: int
    loop: tuple[int, ...]  # market indices, clockwise
    benchmark: int
    ranks: tuple[tuple[int, str], ...]


def _int(entry: dict[str, Any], key: str, label: str, low: int, high: int) -> int:
    value = entry.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DataError(f"parler.toml: {label} needs {key} = an integer {low}..{high}, "
                        f"got {value!r}")
    return value


def _seal(entry: dict[str, Any], key: str) -> int:
    ids = [seal.id for seal in C.seals]
    if entry.get(key) not in ids:
        raise DataError(f"parler.toml: seals.{key} must be one of {', '.join(ids)}")
    return ids.index(entry[key])


@cache
def load_parler(directory: Path = DATA_DIR) -> ParlerData:
    """Read and check ``data/solo/parler.toml`` (cached).

    Raises:
        DataError: the file is missing or malformed, or an item has no ``source``.
    """
    f = "parler.toml"
    data = read_toml(directory, f)
    for key in ("bot", "seals", "plaza_loop", "benchmark"):
        if not isinstance(data.get(key), dict):
            raise DataError(f"{f}: table [{key}] is missing")
        check_provenance(data[key], f, key)
    bot = data["bot"]
    names = bot.get("names")
    if not isinstance(names, list) or len(names) != 3 or not all(
            isinstance(n, str) and n for n in names):
        raise DataError(f"{f}: bot.names needs the 3 bots' names")
    cards = []
    for k, e in enumerate(data.get("card", [])):
        label = f"card {k + 1}"
        check_provenance(e, f, label)
        sections = e.get("sections")
        if (not isinstance(sections, list) or not sections
                or any(x not in SECTIONS for x in sections)):
            raise DataError(f"{f}: {label} sections must be from {', '.join(SECTIONS)}")
        if "building" in sections[:-1]:  # the turn resumes after a placement choice
            raise DataError(f"{f}: {label}: a building must be the card's last section")
        cards.append(ParlerCard(_int(e, "id", label, 1, 9), tuple(sections),
                                _int(e, "recycle", label, 1, 3) - 1))
    if len(cards) != 5:
        raise DataError(f"{f}: the deck needs 5 cards (P.3), got {len(cards)}")
    ids = [m.id for m in C.markets]
    order = data["plaza_loop"].get("order")
    if not isinstance(order, list) or sorted(order) != sorted(ids):
        raise DataError(f"{f}: plaza_loop.order must list every market once")
    ranks = []
    for k, e in enumerate(data.get("rank", [])):
        check_provenance(e, f, f"rank {k + 1}")
        ranks.append((_int(e, "vp", f"rank {k + 1}", 0, 999), str(e.get("title", ""))))
    return ParlerData(
        tuple(names), _int(bot, "start_mines", "bot", 0, 9),
        _int(bot, "start_quarries", "bot", 0, 9), _int(bot, "max_mines", "bot", 1, 9),
        _int(bot, "max_quarries", "bot", 1, 9), _int(bot, "token_mines", "bot", 1, 9),
        _int(bot, "token_quarries", "bot", 1, 9), tuple(cards),
        _seal(data["seals"], "gold"), _seal(data["seals"], "stone"),
        _seal(data["seals"], "fallback"), tuple(ids.index(m) for m in order),
        _int(data["benchmark"], "vp", "benchmark", 1, 999), tuple(sorted(ranks)))


PARLER = load_parler()


def rank_title(vp: int) -> str:
    """P.1: the app's score ladder."""
    title = ""
    for low, name in PARLER.ranks:
        if vp >= low:
            title = name
    return title
