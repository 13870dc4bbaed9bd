"""Terminal rendering of boards and outcomes with ``rich``.

Boards are drawn from ``player_view`` only, so the terminal shows what the seat may
know. Each game can register a board renderer in ``BOARD_RENDERERS`` (keyed by the
game's registry name); a game without one gets a generic dump of its view.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meeplehall.core.messages import Message, english
from meeplehall.core.protocol import Game, Outcome

LOG_LINES = 12

BoardRenderer = Callable[[Mapping[str, Any]], RenderableType]

# Rich styles for the colours the games use (white is drawn bold so it shows on light
# backgrounds too).
COLOUR_STYLES = {
    "yellow": "bold yellow",
    "red": "bold red",
    "blue": "bold blue",
    "green": "bold green",
    "white": "bold bright_white on grey30",
    "purple": "bold magenta",
    "Ivan": "bold cyan",
}


def say(console: Console, text: str, style: str | None = None) -> None:
    """Print plain text (no markup) as one logical line, left to the terminal to wrap."""
    console.print(text, markup=False, highlight=False, soft_wrap=True, style=style)


def side_name(game: Game, state: Any, side: int) -> str:
    """The game's name for a side (``seat N`` by default, ``GameBase.side_name``)."""
    return game.side_name(state, side)


def action_label(game: Game, state: Any, action: Any) -> str:
    """A readable sentence for ``action`` plus its text form when they differ."""
    label = game.action_label(state, action)
    text = str(action)
    return label if label == text else f"{label}  [{text}]"


def styled(name: str) -> Text:
    """A colour or seat name drawn in its own colour."""
    return Text(name, style=COLOUR_STYLES.get(name, ""))


def _amounts(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {m}" for m, n in counts.items()) if counts else "-"


# --- The Red Cathedral -------------------------------------------------------------------

def _rc_market(view: Mapping[str, Any]) -> Table:
    table = Table(title="Market", title_justify="left", expand=False, show_lines=False)
    table.add_column("Space", justify="right")
    table.add_column("Resource")
    table.add_column("Dice")
    table.add_column("Quadrant: Influence card (actions)")
    influence = {q["quadrant"]: q for q in view["influence"]}
    for space in view["market"]:
        dice = Text()
        for i, die in enumerate(space["dice"]):
            if i:
                dice.append(" ")
            dice.append(f"{die['colour']} {die['value']}", style=COLOUR_STYLES.get(die["colour"]))
        tile = space["tile"]
        card = ""
        if space["space"] % 2 == 0:
            inf = influence.get(space["quadrant"])
            if inf is not None:
                acts = "; ".join(f"{a['rule']} {a['effect']} ({a['mark']})"
                                 for a in inf["actions"])
                card = f"Q{space['quadrant'] + 1}: {inf['card']} ({acts})"
        # the numbers printed on the board: spaces, quadrants and slots from 1
        table.add_row(str(space["space"] + 1), f"{tile['amount']} {tile['resource']}", dice, card)
    return table


def _rc_card(card: Mapping[str, Any]) -> Text:
    text = Text()
    text.append(f"#{card['slot'] + 1} {card['card']} {card['kind']}", style="bold")
    text.append(f"  {card['rp']} RP" + (f", {card['rubles']} R" if card["rubles"] else ""))
    cost = card["cost"]
    delivered = card["delivered"]
    if card["completed"]:
        text.append("\ncompleted", style="bold green")
    else:
        parts = [f"{m} {delivered.get(m, 0)}/{n}" for m, n in cost.items()]
        text.append("\n" + ", ".join(parts))
    text.append("\nbanner: ")
    if card["owner"] is None:
        text.append("-")
    else:
        text.append_text(styled(card["owner"]))
    if card["ornament"] is not None:
        text.append(f"\n{card['ornament']['type']} by ")
        text.append_text(styled(card["ornament"]["owner"]))
    if card["workshop_tile"] is not None:
        tile = card["workshop_tile"]
        text.append(f"\ntile {tile['id']}: {tile['benefit']}", style="dim")
    return text


def _rc_cathedral(view: Mapping[str, Any]) -> Table:
    towers = view["cathedral"]
    table = Table(title=f"Cathedral (Building Plan {view['plan']}; costs delivered/needed)",
                  title_justify="left", show_lines=True)
    table.add_column("Level")
    for i in range(len(towers)):
        table.add_column(f"Tower {i + 1}")
    height = max((len(t) for t in towers), default=0)
    # Top level first, so the table looks like the building: domes above, bases below.
    for level in reversed(range(height)):
        cells: list[RenderableType] = [str(level + 1)]
        for tower in towers:
            cells.append(_rc_card(tower[level]) if level < len(tower) else "")
        table.add_row(*cells)
    return table


def _rc_workshop(entries: Sequence[Mapping[str, Any]]) -> Text:
    text = Text()
    for i, entry in enumerate(entries):
        if i:
            text.append("\n")
        text.append(f"{entry['position']}: ")
        if entry.get("banner"):
            text.append("Banner")
        elif "tile" in entry:
            face = "up" if entry["face_up"] else "down"
            text.append(f"{entry['tile']} {face} ({entry['benefit']})")
        else:
            text.append("empty", style="dim")
        if "locked_ornament" in entry:
            text.append(f" [{entry['locked_ornament']} locked]", style="dim")
    return text


def _rc_sides(view: Mapping[str, Any]) -> Table:
    table = Table(title="Players", title_justify="left", show_lines=True)
    for col in ("Side", "Score", "Rubles", "Inventory", "Banners", "Ornaments", "Workshop"):
        table.add_column(col)
    to_move = view["to_move"]
    for side in view["sides"]:
        name = styled(side["name"])
        if side["side"] == to_move:
            name.append(" <", style="bold")
        score = (f"{side['prestige']} PP\nRP space {side['recognition']}\nlap {side['lap']}\n"
                 f"{side['completed']} completed")
        if "rubles" not in side:  # Ivan: no Workshop, Rubles or Inventory
            table.add_row(name, score, "-", "-", f"{view['ivan']['banners']} left",
                          f"{side['ornaments_placed']} placed", "-")
            continue
        inv = side["inventory"]
        used = sum(inv.values())
        orn = ", ".join(f"{n} {k}" for k, n in side["ornaments_available"].items())
        table.add_row(
            name, score, str(side["rubles"]), f"{_amounts(inv)}\n({used}/{side['capacity']})",
            f"{side['banners_in_inventory']} in Inventory\n{side['banners_outside']} outside",
            f"{orn}\n{side['ornaments_placed']} placed", _rc_workshop(side["workshop"]))
    return table


def _rc_ivan(view: Mapping[str, Any]) -> Text:
    ivan = view["ivan"]
    text = Text("Ivan's row: ", style="bold cyan")
    for i, card in enumerate(ivan["row"]):
        if i:
            text.append(" | ")
        text.append(f"{card['card']} ")
        text.append(card["die"], style=COLOUR_STYLES.get(card["die"]))
        if not card["face_up"]:
            text.append(" (face down)", style="dim")
    nxt = ivan["next_ornament"] or "none left"
    text.append(f"\nBanners left {ivan['banners']}; next Ornamentation {nxt}; "
                f"Inventory card {_amounts(ivan['inventory_card'])}; "
                f"Build card {_amounts(ivan['build_card'])}")
    return text


def _rc_track(view: Mapping[str, Any]) -> Text:
    text = Text("Score track: ", style="bold")
    order = sorted(view["sides"], key=lambda s: -s["recognition"])
    for i, side in enumerate(order):
        if i:
            text.append(", ")
        text.append_text(styled(side["name"]))
        text.append(f" {side['prestige']} PP (space {side['recognition']}, lap {side['lap']})")
    supply = view.get("supply")
    if supply is not None:
        text.append(f"\nGeneral supply: {_amounts(supply)}")
    return text


def _rc_header(view: Mapping[str, Any]) -> Text:
    """Whose turn it is, who decides what, and who triggered the end."""
    to_move = view["to_move"]
    header = Text(f"The Red Cathedral - {view['turn_of']}'s turn", style="bold")
    if to_move is not None:
        mover = next((s["name"] for s in view["sides"] if s["side"] == to_move), "?")
        header.append(f"; {mover} to decide ({view['decision']})")
    if view.get("end_triggered_by"):
        header.append(f"; the end was triggered by {view['end_triggered_by']}",
                      style="bold red")
    return header


def render_red_cathedral(view: Mapping[str, Any]) -> RenderableType:
    """The whole table of The Red Cathedral as one renderable."""
    header = _rc_header(view)
    parts: list[RenderableType] = [header, _rc_market(view), _rc_cathedral(view),
                                   _rc_sides(view)]
    if view.get("solo") and "ivan" in view:
        parts.append(_rc_ivan(view))
    parts.append(_rc_track(view))
    parts.append(render_log(view.get("log", ())))
    return Group(*parts)


# The compact table: about 40 lines at 120 columns; ``board full`` prints the whole one.
COMPACT_LOG_LINES = 6
SHORT = {"wood": "wo", "brick": "br", "stone": "st", "gold": "go", "green": "gr",
         "purple": "pu", "rubles": "R", "rp": "RP"}
RC_LEGEND = ("wo wood, br brick, st stone, go gold, gr green, pu purple; RP Recognition, "
             "PP Prestige, R Rubles; 1/2 delivered/needed; Wk Workshop (^ face up)")


def _short(counts: Mapping[str, int]) -> str:
    return " ".join(f"{n}{SHORT.get(m, m)}" for m, n in counts.items()) if counts else "-"


def _rc_compact_card(card: Mapping[str, Any]) -> Text:
    text = Text(f"#{card['slot'] + 1} {card['card']}", style="bold")
    if card["owner"] is not None:  # its Banner
        text.append(" ")
        text.append_text(styled(card["owner"]))
    if card["completed"]:
        text.append(" done", style="green")
    else:
        delivered = card["delivered"]
        text.append(" " + " ".join(f"{SHORT.get(m, m)}{delivered.get(m, 0)}/{n}"
                                   for m, n in card["cost"].items()))
    if card["ornament"] is not None:
        text.append(f" +{card['ornament']['type']}", style="dim")
    return text


def render_red_cathedral_compact(view: Mapping[str, Any]) -> RenderableType:
    """The Red Cathedral in about 40 lines at 120 columns: the Market with its dice and
    Influence cards, the Cathedral a line per level, one or two lines per side, the
    track and the last log entries."""
    to_move = view["to_move"]
    header = _rc_header(view)
    market = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    influence = {q["quadrant"]: q for q in view["influence"]}
    for space in view["market"]:
        dice = Text()
        for die in space["dice"]:
            dice.append(f"{die['colour']} {die['value']} ",
                        style=COLOUR_STYLES.get(die["colour"]))
        card = ""
        if space["space"] % 2 == 0 and (inf := influence.get(space["quadrant"])):
            card = f"Q{space['quadrant'] + 1} {inf['card']}: " + "; ".join(
                f"{a['rule']} {a['effect']}" + ("" if a["mark"] == "once" else "*")
                for a in inf["actions"])
        tile = space["tile"]
        resource = SHORT.get(tile["resource"], tile["resource"])
        market.add_row(str(space["space"] + 1), f"{tile['amount']}{resource}", dice, card)
    towers = view["cathedral"]
    cathedral = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    height = max((len(t) for t in towers), default=0)
    for level in reversed(range(height)):
        cathedral.add_row(f"L{level + 1}", *[
            _rc_compact_card(tower[level]) if level < len(tower) else Text("")
            for tower in towers])
    sides = Text()
    for i, side in enumerate(view["sides"]):
        if i:
            sides.append("\n")
        sides.append_text(styled(side["name"]))
        if side["side"] == to_move:
            sides.append(" <", style="bold")
        lap = f" lap {side['lap']}" if side["lap"] else ""
        sides.append(f" {side['prestige']}PP RP{side['recognition']}{lap}"
                     f" {side['completed']} done")
        if "rubles" not in side:  # Ivan
            sides.append(f", {view['ivan']['banners']} Banners left")
            continue
        inv = side["inventory"]
        orn = " ".join(f"{n} {k}" for k, n in side["ornaments_available"].items() if n)
        sides.append(f" · {side['rubles']}R · inv {_short(inv)} "
                     f"({sum(inv.values())}/{side['capacity']}) · Banners "
                     f"{side['banners_in_inventory']}+{side['banners_outside']} out · "
                     f"{orn or 'no ornaments'}")
        shop = []
        for entry in side["workshop"]:
            if entry.get("banner"):
                shop.append(f"{entry['position']} Banner")
            elif "tile" in entry:
                shop.append(f"{entry['position']} {entry['tile']}"
                            f"{'^' if entry['face_up'] else ''} {entry['benefit']}")
            if "locked_ornament" in entry:
                shop.append(f"{entry['position']} [{entry['locked_ornament']} locked]")
        sides.append("\n  Wk: " + ("; ".join(shop) or "empty"), style="dim")
    parts: list[RenderableType] = [
        header, Text("Market", style="bold"), market,
        Text(f"Cathedral (plan {view['plan']})", style="bold"), cathedral, sides]
    if view.get("solo") and "ivan" in view:
        parts.append(_rc_ivan(view))
    parts.append(_rc_track(view))
    parts.append(Text(RC_LEGEND, style="dim"))
    parts.append(render_log(view.get("log", ()), COMPACT_LOG_LINES))
    return Group(*parts)


def render_log(log: Sequence[Any], lines: int = LOG_LINES) -> Panel:
    """The last ``lines`` entries of a view's log (messages), in English."""
    shown = [english(entry) for entry in list(log)[-lines:]]
    return Panel(Text("\n".join(shown) if shown else "(empty)"),
                 title=f"Log (last {len(shown)} of {len(log)})", title_align="left")


def render_generic(view: Mapping[str, Any]) -> RenderableType:
    """Fallback for games without a renderer: every top-level field of the view."""
    table = Table(title="View", show_header=False)
    for key, value in view.items():
        if key in ("log", "state"):
            continue
        table.add_row(str(key), Text(repr(value)))
    return Group(table, render_log(view.get("log", ())))


def status_red_cathedral(view: Mapping[str, Any]) -> RenderableType:
    """One line about the seat to decide: score, Rubles, Inventory, Banners."""
    seat = view["seat"]
    side = next((s for s in view["sides"] if s["side"] == seat), None)
    if side is None or "rubles" not in side:
        return Text("")
    inv = side["inventory"]
    text = styled(side["name"])
    text.append(f": {side['prestige']} PP (space {side['recognition']}), "
                f"{side['rubles']} Rubles, Inventory {_amounts(inv)} "
                f"({sum(inv.values())}/{side['capacity']}), Banners "
                f"{side['banners_in_inventory']} in Inventory + {side['banners_outside']} "
                f"outside, {side['completed']} completed")
    return text


def status_generic(view: Mapping[str, Any]) -> RenderableType:
    return Text("")


# Praga's renderer lives in its own module (it imports this one): loaded on first use.
def render_praga(view: Mapping[str, Any]) -> RenderableType:
    """Praga Caput Regni (``cli/render_praga.py``)."""
    from meeplehall.cli import render_praga as module

    return module.render_praga(view)


def status_praga(view: Mapping[str, Any]) -> RenderableType:
    from meeplehall.cli import render_praga as module

    return module.status_praga(view)


def log_praga(view: Mapping[str, Any], line: str) -> str:
    from meeplehall.cli import render_praga as module

    return module.name_seats(line, module.C.colours[: int(view["players"])])


BOARD_RENDERERS: dict[str, BoardRenderer] = {
    "red-cathedral": render_red_cathedral,
    "praga": render_praga,
}
def render_praga_compact(view: Mapping[str, Any]) -> RenderableType:
    from meeplehall.cli import render_praga as module

    return module.render_praga_compact(view)


COMPACT_RENDERERS: dict[str, BoardRenderer] = {
    "red-cathedral": render_red_cathedral_compact,
    "praga": render_praga_compact,
}
STATUS_RENDERERS: dict[str, BoardRenderer] = {
    "red-cathedral": status_red_cathedral,
    "praga": status_praga,
}
# How a game's log lines read in the terminal (the view gives the names); default: as is.
LOG_FORMATTERS: dict[str, Callable[[Mapping[str, Any], str], str]] = {
    "praga": log_praga,
}


def format_log(game: Game, state: Any, seat: int | None, lines: Sequence[Any]) -> list[str]:
    """``lines`` of the game's log (messages) as the terminal shows them to ``seat``: the
    entries it may read, in English."""
    lines = [english(m) for m in lines if not isinstance(m, Message) or m.seen_by(seat)]
    formatter = LOG_FORMATTERS.get(game.name)
    if formatter is None:
        return lines
    view = game.player_view(state, seat)
    return [formatter(view, line) for line in lines]


def render_status(console: Console, game: Game, state: Any, seat: int) -> None:
    """Print a one-line summary for ``seat`` (between the steps of one turn)."""
    renderer = STATUS_RENDERERS.get(game.name, status_generic)
    line = renderer(game.player_view(state, seat))
    if isinstance(line, Text) and not line.plain:
        return
    console.print(line)


def render_board(console: Console, game: Game, state: Any, seat: int | None,
                 full: bool = False) -> None:
    """Print the table as seen by ``seat`` (None: a spectator): compact (about 40-50
    lines at 120 columns), or every detail with ``full``."""
    view = game.player_view(state, seat)
    renderer = (None if full else COMPACT_RENDERERS.get(game.name)) or \
        BOARD_RENDERERS.get(game.name, render_generic)
    console.print(renderer(view))


def render_outcome(console: Console, game: Game, state: Any, outcome: Outcome,
                   seat_kinds: Sequence[str] | None = None) -> None:
    """Print the final breakdown per seat, the ranking and the solo result."""
    categories: list[str] = []
    for part in outcome.breakdown:
        for key in part:
            if key not in categories:
                categories.append(key)
    table = Table(title="Final scores", title_justify="left")
    table.add_column("Seat")
    table.add_column("Player")
    for cat in categories:
        table.add_column(cat.replace("_", " ").capitalize(), justify="right")
    table.add_column("Total", justify="right", style="bold")
    ivan = outcome.details.get("ivan") if isinstance(outcome.details, Mapping) else None
    if ivan is None:  # solo: the result against the automaton is printed below instead
        table.add_column("Rank", justify="right")
    for seat, score in enumerate(outcome.scores):
        kind = seat_kinds[seat] if seat_kinds and seat < len(seat_kinds) else ""
        parts = outcome.breakdown[seat] if seat < len(outcome.breakdown) else {}
        rank = [] if ivan is not None else [str(outcome.rank_of(seat))]
        table.add_row(styled(side_name(game, state, seat)), kind,
                      *[str(parts.get(c, 0)) for c in categories], str(score), *rank)
    if isinstance(ivan, Mapping):
        parts = ivan.get("breakdown", {})
        table.add_row(styled("Ivan"), "automaton", *[str(parts.get(c, 0)) for c in categories],
                      str(ivan.get("score", "?")))
    console.print(table)
    ranking = " > ".join(
        " = ".join(side_name(game, state, s) for s in group) for group in outcome.ranking)
    if ivan is not None:
        result = outcome.details.get("result", "?")
        words = {"win": "you beat Ivan", "loss": "Ivan wins",
                 "shared": "you share the victory with Ivan"}
        console.print(f"Solo result: {words.get(result, result)} "
                      f"({outcome.scores[0]} PP against Ivan's {ivan.get('score', '?')} PP)")
    else:
        winners = ", ".join(side_name(game, state, s) for s in outcome.winners) or "nobody"
        console.print(f"Ranking: {ranking}")
        console.print(f"Winner(s): {winners}")
