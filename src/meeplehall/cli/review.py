"""``meeplehall review RECORD``: the game review of a finished game in the terminal
(each side's chance of winning as a line of bars, each person's costliest moves), or
as JSON (``--json``), the same document the server's ``GET /tables/{id}/review`` gives."""

from __future__ import annotations

import json
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from meeplehall.ai.review import Review, ReviewError, review
from meeplehall.cli.render import say
from meeplehall.core.messages import english
from meeplehall.core.record import GameRecord, RecordError

BARS = "▁▂▃▄▅▆▇█"
WIDTH = 60  # columns of the chance lines


def sparkline(values: Sequence[float], width: int = WIDTH) -> str:
    """``values`` (0..1) as at most ``width`` bars, each the mean of its share."""
    if not values:
        return ""
    cells = min(width, len(values))
    out = []
    for k in range(cells):
        part = values[k * len(values) // cells:max(k * len(values) // cells + 1,
                                                    (k + 1) * len(values) // cells)]
        mean = sum(part) / len(part)
        out.append(BARS[min(len(BARS) - 1, int(mean * len(BARS)))])
    return "".join(out)


def show(console: Console, result: Review) -> None:
    if result.unit == "chance":
        note = "" if result.calibrated else " (uncalibrated for this player count)"
        say(console, f"Chance of winning over the game{note}, "
                     f"{result.curve[-1][0] if result.curve else 0} moves:")
        for side, name in enumerate(result.sides):
            values = [c[side] for _m, c in result.curve]
            say(console, f"  {name:<14} {sparkline(values)}  "
                         f"{values[0]:.0%} → {values[-1]:.0%}" if values else f"  {name}")
    else:
        say(console, "No chance of winning is calibrated for this mode: the costly moves "
                     "are measured in evaluation points.")
    unit = "chance" if result.unit == "chance" else "points"
    for seat, moves in result.costly.items():
        name = result.sides[seat]
        if not moves:
            say(console, f"{name}: no move cost more than the expert's choice would have.")
            continue
        table = Table(title=f"{name}: the moves that cost the most ({result.bot})",
                      title_justify="left")
        for column in ("move", "played", "the expert", f"{unit} lost"):
            table.add_column(column)
        for m in moves:
            lost = f"{m.loss:.0%}" if result.unit == "chance" else f"{m.loss:.1f}"
            table.add_row(str(m.move), english(m.played.label), english(m.suggested.label),
                          lost)
        console.print(table)


def run_review(console: Console, path: str, seats: list[int] | None, bot: str,
               seed: int, as_json: bool) -> int:
    try:
        record = GameRecord.load(path)
        result = review(record, seats=seats, bot=bot, seed=seed)
    except (RecordError, ReviewError) as exc:
        say(console, f"meeplehall: cannot review {path}: {exc}")
        return 1
    if as_json:
        console.print_json(json.dumps(result.to_dict()))
    else:
        show(console, result)
    return 0
