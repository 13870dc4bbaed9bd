"""Terminal board of Praga Caput Regni, drawn from ``player_view`` only.

The view's designed sections (``view["board"]``, ``view["pending"]``, ``view["options"]``,
``view["sides"]``: games/praga/view_sections.py) name every component by its printed id
and every position decoded; this module draws them with the printed component data
(``games.praga.components``: costs, rewards, grids) and so never sees what the seat may
not know. It never reads the bot-only ``view["state"]``. Each section is drawn on its
own; a section the view cannot feed (a field renamed in the engine, say) falls back to
the view's readable lines with a note, so the rest of the table is still drawn.

Layout at 160 columns, top to bottom: a header (turn, era, platform, what this turn has
done); the action crane beside the city map (markets, sites, owners, cubes); the three
hex-tile rows beside King's Road, Charles Bridge, seals and production tokens; the Hunger
Wall and the Cathedral grids with every cube; one column per player with their boards;
the score line and the last log lines. Players are shown by colour and by the first
letter of their colour on the grids and the city map.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meeplehall.cli.render import COLOUR_STYLES, LOG_LINES, styled
from meeplehall.core.messages import Message, english
from meeplehall.games.praga.components import (
    ACTIONS,
    CELL_SIDE,
    CELL_UP,
    IV_EFFECTS,
    MARKET_COLOURS,
    REWARD_KINDS,
    ROAD_EGG,
    ROAD_FREE,
    SEAL_EFFECTS,
    TECH_EFFECTS,
    TRACKS,
    V_EFFECTS,
    Components,
    load,
)

C: Components = load()
ROMAN = ("", "I", "II", "III", "IV", "V")
ROW_TITLES = ("Buildings", "Walls", "Upgrades")

# Short names of reward kinds (components.REWARD_KINDS order).
REWARD_SHORT: dict[str, str] = {
    "vp": "VP", "gold": "gold", "stone": "stone", "silver": "silver win",
    "gold_window": "gold win", "egg": "egg", "red_token": "red tok",
    "blue_token": "blue tok", "tech": "tech", "univ": "univ", "mine": "mine",
    "quarry": "quarry", "hw_move": "HW move", "cat_move": "cath move",
    "side_move": "side move",
}

# One line per glossary effect (rules reference section 17); {res}, {track}, {token}
# and {symbol} are the tile's parameters.
TECH_TEXT: dict[str, str] = {
    "GL-T1-1": "{res} wheel bonus: +1 {res} +1 VP",
    "GL-T1-2": "+2 VP per {track} step",
    "GL-T1-3": "+2 VP per row up on a grid",
    "GL-T1-4": "+1 VP when the tile gives VP",
    "GL-T2-2": "1st {token} tok a turn: +1 VP +1 {res}",
    "GL-T2-1": "{symbol} building: +1 {res} +1 VP",
    "GL-T2-3": "non-{symbol} building: +1 {res} +1 VP",
    "GL-T2-4": "each egg: +1 VP +1 stone",
    "GL-T2-5": "{symbol} wall: +1 {res} +1 VP",
    "GL-T3-1": "1 egg, then King's Road",
    "GL-T3-2": "1 row up on a grid, free",
    "GL-T3-3": "4 University steps",
    "GL-T3-4": "Upgrade + 3 VP",
    "GL-T3-5": "produce gold + 2 stone",
    "GL-T3-6": "produce stone + 2 gold",
    "GL-T4-1": "Building, 2 gold cheaper",
    "GL-T4-2": "Wall, 2 stone cheaper",
    "GL-T4-3": "any one action",
    "GL-T4-4": "Upgrade + 1 gold window",
    "GL-T4-5": "both rewards of a market tile",
    "GL-T4-6": "+1 mine/quarry, produce",
}
ROAD_TEXT: dict[str, str] = {
    "gold-for-vp": "may pay 1g: 4 VP",
    "vp-per-silver": "2 VP per silver win",
    "vp-per-era1-upgrade": "3 VP per I upgrade",
    "window-or-tech": "gold win or tech step",
    "silver-or-mine-and-quarry": "2 silver or mine+quarry",
    "token-choice": "a corner token",
    "upgrade-vp-and-resource": "Upgrade: +2 VP +1 gold/stone",
    "building-without-cathedral-vp": "non-cathedral building: +3 VP",
    "wall-vp": "Wall: +2 VP",
}
BRIDGE_TEXT: dict[str, str] = {
    "hw-left-window-vp": "HW left, silver, 2 VP",
    "cathedral-right-window-vp": "Cath. right, silver, 2 VP",
    "advance-3": "3 {track} steps",
    "univ-position": "end: VP = univ steps",
    "per-upgrade": "end: 3 VP per upgrade",
    "per-wall": "end: 2 VP per wall",
    "mines": "end: VP = mines",
    "quarries": "end: VP = quarries",
    "rows": "end: 2 VP x grid rows",
}
SEAL_TEXT: dict[str, str] = {
    "vp-per-gold": "{vp} VP per gold", "vp-per-stone": "{vp} VP per stone",
    "vp-per-pair": "{vp} VP per gold+stone pair", "flat": "{vp} VP",
    "vp-per-token": "{vp} VP per corner token",
}


# Components by their printed id (the view names them so).
_BUILDINGS = {t.id: t for t in C.buildings}
_WALLS = {t.id: t for t in C.walls}
_UPGRADES = {t.id: t for t in C.upgrades}
_TECHS = {t.id: t for t in C.technologies}
_BRIDGE_TILES = {t.id: t for t in C.bridge_tiles}
_TOKENS = {t.id: t for t in C.production_tokens}
_MARKET_TILES = {t.id: t for t in C.market_tiles}
_ROWS = ("building", "wall", "upgrade")


# --- small helpers -----------------------------------------------------------------------
def _colours(view: Mapping[str, Any]) -> list[str]:
    return list(C.colours[: int(view["players"])])


def _board(view: Mapping[str, Any]) -> Mapping[str, Any]:
    board: Mapping[str, Any] = view["board"]
    return board


def _side_mark(view: Mapping[str, Any], side: int | None) -> Text:
    """A seat's initial in its colour; a side the engine plays by its initial, bold."""
    if side is None:
        return Text("-", style="dim")
    colours = _colours(view)
    if side < len(colours):
        return seat_mark(colours, side)
    names = view.get("sides") or []
    return Text(names[side][0].upper() if side < len(names) else "?", style="bold")


def _view_reward(items: Mapping[str, int]) -> str:
    """A reward of the view (``{kind: amount}``) in short words."""
    if not items:
        return "nothing"
    return " + ".join(f"{amount} {REWARD_SHORT.get(kind, kind)}" for kind, amount in items.items())


def seat_mark(colours: Sequence[str], seat: int) -> Text:
    """A seat's initial in its colour (``-`` for no seat)."""
    if seat < 0 or seat >= len(colours):
        return Text("-", style="dim")
    name = colours[seat]
    return Text(name[0].upper(), style=COLOUR_STYLES.get(name, ""))


def reward(items: Sequence[Sequence[int]]) -> str:
    """A reward (pairs of kind index and amount) in short words: ``2 VP + 1 silver win``."""
    if not items:
        return "nothing"
    return " + ".join(f"{amount} {REWARD_SHORT.get(REWARD_KINDS[kind], REWARD_KINDS[kind])}"
                      for kind, amount in items)


def cost(gold: int, stone: int, silver: int = 0, goldw: int = 0) -> str:
    parts = [f"{n} {k}" for n, k in ((gold, "gold"), (stone, "stone"), (silver, "silver"),
                                     (goldw, "gold win")) if n]
    return " ".join(parts) or "free"


def short_cost(gold: int, stone: int) -> str:
    """``3g 1s`` (``free`` when nothing is due)."""
    return " ".join(f"{n}{k}" for n, k in ((gold, "g"), (stone, "s")) if n) or "free"


def tech_text(tech_id: str) -> str:
    tech = _TECHS[tech_id]
    effect = TECH_EFFECTS[tech.effect]
    res = ("gold", "stone")[tech.resource - REWARD_KINDS.index("gold")] \
        if tech.resource >= 0 else "?"
    token = {REWARD_KINDS.index("red_token"): "red",
             REWARD_KINDS.index("blue_token"): "blue"}.get(tech.token, "?")
    track = TRACKS[tech.track] if tech.track >= 0 else "?"
    symbol = ("cathedral", "hunger-wall")[tech.symbol] if tech.symbol >= 0 else "?"
    text = TECH_TEXT.get(effect, effect).format(res=res, token=token, track=track,
                                                symbol=symbol)
    return f"{tech.id} {ROMAN[tech.level]}: {text}"


def bridge_tile_text(tile_id: str) -> str:
    tile = _BRIDGE_TILES[tile_id]
    effect = (V_EFFECTS if tile.is_v else IV_EFFECTS)[tile.effect]
    track = TRACKS[tile.track] if tile.track >= 0 else "?"
    text = BRIDGE_TEXT.get(effect, effect).format(track=track)
    if tile.now_vp:
        text = f"{tile.now_vp} VP now, {text}"
    return f"{tile.id} {'V' if tile.is_v else 'IV'} ({text})"


def track_bar(position: int, spaces: int, marks: Mapping[int, str]) -> str:
    """``■`` for spaces up to ``position`` (1-based), then ``·`` or a space's mark."""
    return "".join("■" if k <= position else marks.get(k, "·") for k in range(1, spaces + 1))


def _section(title: str, build: Callable[[], RenderableType],
             fallback: Sequence[Mapping[str, Any] | str] = ()) -> RenderableType:
    """Draw one section; if the view cannot feed it, show its readable lines instead
    (messages, in English)."""
    try:
        return build()
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        lines = "\n".join(_english(line) for line in fallback) or "(nothing to show)"
        return Panel(Text(f"{lines}\n(cannot draw {title}: {type(exc).__name__} {exc})"),
                     title=title, title_align="left")


class SideBySide:
    """Parts next to each other when they fit the console's width, else one below the
    other (so a narrow terminal gets a taller board instead of squeezed tables)."""

    def __init__(self, *parts: RenderableType, padding: int = 2) -> None:
        self.parts = parts
        self.padding = padding

    def __rich_console__(self, console: Console,
                         options: ConsoleOptions) -> RenderResult:
        widths = [Measurement.get(console, options, part).maximum for part in self.parts]
        if sum(widths) + self.padding * (len(self.parts) - 1) <= options.max_width:
            grid = Table.grid(padding=(0, self.padding))
            for _ in self.parts:
                grid.add_column(vertical="top")
            grid.add_row(*self.parts)
            yield grid
        else:
            yield from self.parts


def _side_by_side(*parts: RenderableType, padding: int = 2) -> SideBySide:
    return SideBySide(*parts, padding=padding)


# --- header ------------------------------------------------------------------------------
def _platform(view: Mapping[str, Any]) -> Text:
    spaces = C.crane.platform_spaces
    line = C.crane.era_line.get(_table_size(view), -1)
    text = Text("platform ")
    at = int(_board(view)["platform"])
    for k in range(spaces):
        mark = "■" if k == at else ("|" if k == line else "·")
        text.append(mark, style="bold" if k == at else "dim")
    text.append("⌛", style="bold" if at >= spaces else "dim")
    return text


def _table_size(view: Mapping[str, Any]) -> int:
    """The player count the board is set up for (``state.players``: the seats)."""
    return int(view["players"])


def header(view: Mapping[str, Any]) -> Text:
    b = _board(view)
    colours = _colours(view)
    text = Text("Praga Caput Regni", style="bold")
    text.append(f" · turn {_english(view['turn'])} · era {view['era']} · ")
    text.append_text(_platform(view))
    if b["platform"] >= C.crane.platform_spaces:
        text.append(" (the cube reached the hourglass)")
    else:
        text.append(f" ({_english(view['platform'])}")
        line = C.crane.era_line.get(_table_size(view))
        if line is not None and b["era"] == 1:
            text.append(f", era line at {line}"
                        + (", star armed" if b["star_armed"] else ""))
        text.append(")")
    if b["platform"] == C.crane.platform_spaces - 1 and view.get("final") is None:
        left = ", ".join(f"{colours[p]} {C.turns_per_player - pl['turns_played']}"
                         for p, pl in enumerate(b["players"]))
        text.append(f" · last turns: {left}", style="bold red")
    text.append("\n")
    to_move = view.get("to_move")
    if to_move is None:
        text.append("The game is over.", style="bold")
        return text
    text.append_text(styled(view["turn_of"]))
    text.append("'s turn: " + _english(view["this_turn"]) + " · ")
    text.append_text(styled(colours[to_move]))
    text.append(f" to decide ({view['decision']})")
    return text


def _english(line: Mapping[str, Any] | str) -> str:
    """A readable line of the view (a message) in English, from the catalogue."""
    return english(Message.from_json(line)) if isinstance(line, Mapping) else line


# --- action crane ------------------------------------------------------------------------
def _zone(board: int) -> Text:
    crane = C.crane
    if board < crane.green_start:
        return Text(f"red {crane.red_costs[board]}g", style="red")
    if board < crane.blue_start:
        return Text("green", style="green")
    if board < crane.beyond:
        return Text(f"blue +{crane.blue_vp[board - crane.blue_start]}", style="blue")
    return Text("beyond", style="dim")


def _wheel_bonus(wheel: int, art: bool = False) -> str:
    """The bonus of a wheel slot; ``art``: option egg_price = "art" (P-CRANE-7)."""
    slot = C.crane.slots[wheel - 1]
    kind = ("special", "gain", "egg", "track")[slot.kind]
    if kind == "special":
        return f"special or {slot.vp} VP"
    if kind == "gain":
        return reward(slot.gain)
    if kind == "egg":
        return f"egg for {cost(*(slot.art_price if art and any(slot.art_price) else slot.price))}"
    return f"{TRACKS[slot.track]} step" if slot.track >= 0 else "track step"


def crane_table(view: Mapping[str, Any]) -> Table:
    b = _board(view)
    crane = C.crane
    rotation = int(b["crane"]["rotation"])
    five = b["crane"]["five_vp_tile"]
    table = Table(title="Action crane", title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False, padding=(0, 1))
    table.add_column("#", justify="right")
    table.add_column("Zone")
    table.add_column("Slot", justify="right")
    table.add_column("Wheel bonus")
    table.add_column("Action tile")
    marks = {crane.star: "★", crane.hole: "○", crane.double_rotation_mark: "⟳"}
    art = view["options"].get("egg_price") == "art"
    for board in range(crane.positions):
        wheel = (board - rotation) % crane.positions
        number = Text(str(board))
        if board in marks:
            number = Text(marks[board] + str(board), style="bold")
        if wheel == 0:
            table.add_row(number, _zone(board), "", Text("▣ box (arrow)", style="bold"), "")
            continue
        tile = b["crane"]["wheel"][wheel]
        if tile is None:
            what = Text("empty", style="dim")
        else:
            pair = "/".join(b["action_tiles"][tile])
            what = Text(f"{tile} {pair}")
            if tile == five:
                what.append(" +5VP", style="bold")
        table.add_row(number, _zone(board), str(wheel), _wheel_bonus(wheel, art), what)
    where = ("beside the crane" if five is None else f"on {five}")
    table.caption = f"★ star  ○ hole  ⟳ double rotation; 5-VP token {where}"
    table.caption_justify = "left"
    return table


# --- city map ----------------------------------------------------------------------------
def _site(view: Mapping[str, Any], index: int) -> Text:
    site = C.sites[index]
    entry = _board(view)["sites"][index]
    tile = entry["building"]
    text = Text()
    if tile is None:
        text.append(site.id, style="dim")
        if site.surcharge or site.vp:
            text.append(f"+{site.surcharge}g/{site.vp}", style="dim")
        return text
    text.append(f"{site.id}:{tile}")
    owner = entry["owner"]
    if owner is not None:
        text.append(" ")
        text.append_text(_side_mark(view, owner))
    if entry["cube"]:
        colours = _colours(view)
        text.append("■", style=COLOUR_STYLES.get(colours[owner], "")
                    if owner is not None and owner < len(colours) else "")
    return text


def city_table(view: Mapping[str, Any]) -> Table:
    b = _board(view)
    table = Table(title="City (free Old Town site S01+1g/2: surcharge / VP; ■ cube)",
                  title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    table.add_column("Market")
    table.add_column("Tile: upper / lower")
    table.add_column("Sites (built/all)")
    for k, market in enumerate(C.markets):
        colour = MARKET_COLOURS[market.colour]
        name = Text(f"{market.id} ", style="bold")
        name.append(colour, style=COLOUR_STYLES.get(colour, ""))
        name.append(" Old" if any(C.sites[x].old_town for x in C.market_sites[k]) else " New",
                    style="dim")
        tile = b["markets"][k]["tile"]
        if tile is None:
            rewards = Text("no tile", style="dim")
        else:
            mt = _MARKET_TILES[tile]
            rewards = Text(f"{reward(mt.upper)} / {reward(mt.lower)}")
        if b["markets"][k]["scored"]:
            rewards.stylize("dim")
            rewards.append(" scored", style="bold")
        sites = C.market_sites[k]
        built = sum(1 for x in sites if b["sites"][x]["building"] is not None)
        line = Text(f"{built}/{len(sites)} ", style="bold")
        for i, x in enumerate(sites):
            if i:
                line.append(" ")
            line.append_text(_site(view, x))
        table.add_row(name, rewards, line)
    return table


# --- rows, road, bridge, seals -----------------------------------------------------------
def _hex_tile(row: int, tile: str | None) -> Text:
    if tile is None:
        return Text("(empty)", style="dim")
    if row == 0:
        b = _BUILDINGS[tile]
        text = Text(f"{b.id} ", style="bold")
        text.append(short_cost(b.gold, b.stone))
        text.append(f" → {reward(b.reward)}")
        marks = [m for m, on in (("cube", b.cube), ("cath", b.cathedral),
                                 (f"{len(b.blue_corners)}◆blue", bool(b.blue_corners))) if on]
    elif row == 1:
        w = _WALLS[tile]
        text = Text(f"{w.id} ", style="bold")
        text.append(short_cost(w.gold, w.stone))
        text.append(f" → {reward(w.reward)}")
        marks = [m for m, on in (("HW", w.hunger_wall),
                                 (f"{len(w.red_corners)}◆red", bool(w.red_corners))) if on]
    else:
        u = _UPGRADES[tile]
        text = Text(f"{u.id} ", style="bold")
        text.append(ACTIONS[u.action])
        text.append(f" → {reward(u.bonus)} each")
        marks = [f"{len(u.red_corners)}◆red"] if u.red_corners else []
    if marks:
        text.append(f"\n{', '.join(marks)}", style="dim")
    return text


def rows_table(view: Mapping[str, Any]) -> Table:
    b = _board(view)
    table = Table(title="Hex-tile rows (g gold, s stone; ◆ corners)", title_justify="left",
                  box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    table.add_column("Row")
    for k in range(1, 5):
        table.add_column("★ special" if k == 4 else str(k), max_width=34)
    stacks = b["face_down"]["stacks"][int(b["era"]) - 1]
    for row, name in enumerate(_ROWS):
        label = Text(ROW_TITLES[row], style="bold")
        counts = stacks[name]
        label.append(f"\nstack {counts['normal']}+{counts['special']}", style="dim")
        table.add_row(label, *[_hex_tile(row, t) for t in b["rows"][name]])
    return table


def road_table(view: Mapping[str, Any]) -> Table:
    b = _board(view)
    colours = _colours(view)
    counts = b["face_down"]
    table = Table(title="King's Road", title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False, padding=(0, 1))
    table.add_column("")
    table.add_column("Free")
    table.add_column("For 1 egg")
    table.add_column("Pawns")

    def pawns(at: int) -> Text:
        text = Text()
        for p, pl in enumerate(b["players"]):
            if pl["road"] == at:
                text.append_text(seat_mark(colours, p))
        return text

    if any(pl["road"] == 0 for pl in b["players"]):
        table.add_row("-", Text("not yet", style="dim"), "", pawns(0))
    for k, space in enumerate(C.road):
        if space.bridge:
            pile = ("bridge_iv",) if space.bridge == "iv" else ("bridge_v",)
            free = Text(f"{space.entry_eggs} egg to enter", style="dim")
            egg = f"{space.bridge.upper()} tile ({counts.get(pile[0], '?')} left)"
        else:
            free = Text(ROAD_TEXT.get(ROAD_FREE[space.free], ROAD_FREE[space.free]))
            egg = ROAD_TEXT.get(ROAD_EGG[space.egg], ROAD_EGG[space.egg])
        name = b["road_tiles"][k] if k < len(b["road_tiles"]) else None
        if name is not None:
            free.append(f"; while here: {ROAD_TEXT.get(name, name)}")
        table.add_row(ROMAN[space.numeral], free, egg, pawns(space.numeral))
    return table


def bridge_table(view: Mapping[str, Any]) -> Table:
    planks = _board(view)["bridge"]
    laid = sum(1 for p in planks if p["tile"] is not None)
    title = f"Charles Bridge ({laid}/{len(planks)} planks" + (
        ", complete)" if laid == len(planks) else ")")
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  padding=(0, 1))
    table.add_column("Plank")
    table.add_column("Fields")
    table.add_column("Tile")
    for plank in planks:
        tile = plank["tile"]
        rewards = " | ".join(_view_reward(r) for r in plank["bonuses"])
        table.add_row(str(plank["plank"] + 1), rewards,
                      bridge_tile_text(tile) if tile is not None else Text("free", style="dim"))
    return table


def seals_and_river(view: Mapping[str, Any]) -> Text:
    b = _board(view)
    text = Text("Seals: ", style="bold")
    for k, entry in enumerate(b["seals"]):
        seal = C.seals[k]
        owner = entry["owner"]
        if k:
            text.append(" · ")
        effect = SEAL_EFFECTS[seal.effect]
        text.append(f"{seal.id} {SEAL_TEXT.get(effect, effect).format(vp=seal.vp)} "
                    f"(cost {cost(*seal.cost)}): ")
        text.append_text(_side_mark(view, owner) if owner is not None
                         else Text("unclaimed", style="dim"))
    text.append("\nProduction tokens: ", style="bold")
    river = b["river"]
    text.append(" · ".join(f"{t} {reward(_TOKENS[t].gain)}" for t in river)
                if river else "none left")
    counts = b["face_down"]
    tech = "/".join(str(counts["technologies"][lv]) for lv in ("1", "2", "3", "4"))
    text.append("\nFace down: ", style="bold")
    text.append(f"technologies I-IV {tech}; IV tiles {counts['bridge_iv']}; V pile "
                f"{counts['bridge_v']}; Cathedral tiles {counts['cathedral_tiles']}")
    return text


# --- Hunger Wall and Cathedral -----------------------------------------------------------
def grid_table(view: Mapping[str, Any], grid: int) -> Table:
    """One grid, top row first; each cell shows its symbol and the cubes on it."""
    colours = _colours(view)
    g = C.grids[grid]
    tier_set = view["options"]["hunger_wall_tiers" if grid == 0 else "cathedral_tiers"]
    tiers = g.tiers[tier_set]
    side = "←" if g.direction < 0 else "→"
    key = "hunger_wall" if grid == 0 else "cathedral"
    cubes = [(pl[key]["row"], pl[key]["column"]) for pl in _board(view)["players"]]
    title = (f"Hunger Wall {side} (col x blue tok)" if grid == 0
             else f"Cathedral {side} (col x red tok)")
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  padding=(0, 0), show_footer=True)
    table.add_column("Row", footer="col", min_width=6, no_wrap=True)
    for col in range(g.columns):
        table.add_column(str(col), justify="center", min_width=4, no_wrap=True,
                         footer=f"x{g.column_values[col]}")
    table.add_column("VP", justify="right", min_width=3, no_wrap=True)
    rows: list[tuple[int, int, Sequence[int], int]] = []
    for t in tiers:
        for r, cells in enumerate(t.rows):
            rows.append((len(rows), t.level, cells, t.row_values[r]))
    level_seen = None
    for row, level, row_cells, value in reversed(rows):
        if level_seen is not None and level != level_seen:
            table.add_section()
        level_seen = level
        line: list[RenderableType] = [f"{ROMAN[level]}.{row + 1}"]
        for col, code in enumerate(row_cells):
            cell = Text()
            if code == CELL_UP:
                cell.append("↑", style="bold")
            elif code == CELL_SIDE:
                cell.append(side, style="bold")
            elif code > 0:
                cell.append(str(code), style="yellow")
            else:
                cell.append("·", style="dim")
            here = [p for p, at in enumerate(cubes) if at == (row, col)]
            if here:
                for p in here:
                    cell.append_text(seat_mark(colours, p))
            line.append(cell)
        line.append(str(value))
        table.add_row(*line)
    table.caption = "to enter tier " + ", ".join(
        f"{ROMAN[t.level]}: {short_cost(t.gold, t.stone)}" for t in tiers if t.level > 1)
    table.caption_justify = "left"
    return table


# --- players -----------------------------------------------------------------------------
def _grid_spot(view: Mapping[str, Any], grid: int, seat: int) -> str:
    g = C.grids[grid]
    tier_set = view["options"]["hunger_wall_tiers" if grid == 0 else "cathedral_tiers"]
    values = [v for t in g.tiers[tier_set] for v in t.row_values]
    cube = _board(view)["players"][seat]["hunger_wall" if grid == 0 else "cathedral"]
    row, col = cube["row"], cube["column"]
    return f"row {row + 1} ({values[row]} VP), col {col} (x{g.column_values[col]})"


def _tech_level(steps: int) -> str:
    level = sum(1 for need in C.tech_levels if steps >= need)
    return ROMAN[level] if level else "-"


def _player_cells(view: Mapping[str, Any], seat: int) -> list[RenderableType]:
    b = _board(view)
    pl = b["players"][seat]
    gold_t, quarry_t = C.gold_track, C.quarry_track
    mine, quarry = pl["mines"] + 1, pl["quarries"] + 1  # track spaces (GL-P1)
    tokens = (pl["production_tokens"]["gold"], pl["production_tokens"]["quarry"])
    wealth = pl["wealth_bonuses"]
    reached = [name for key, name in (("six_gold", "6g"), ("six_stone", "6s"), ("nine", "9"))
               if wealth[key]]
    gold_stone = f"{pl['gold']} gold, {pl['stone']} stone"
    if reached:
        gold_stone += f" (wealth {' '.join(reached)})"

    def track(pos: int, t: Any, name: str, token: str | None) -> Text:
        bar = track_bar(pos, t.spaces, {t.token_space: "T", t.seal_space: "S"})
        text = Text(f"{pos - 1} {name} {bar}")
        if token is not None:
            pt = _TOKENS[token]
            text.append(f" {pt.id} {reward(pt.gain)}", style="dim")
        return text

    tech, univ = pl["technology"], pl["university"]
    univ_x = C.univ_multiplier[min(univ, len(C.univ_multiplier) - 1)]
    used = set(pl["technology_levels_used"])
    techs = Text()
    for i, t in enumerate(pl["technologies"]):
        if i:
            techs.append("\n")
        level = _TECHS[t].level
        techs.append(tech_text(t), style="dim" if level >= 3 and level in used else "")
        if level >= 3 and level in used:
            techs.append(" (used)", style="dim")
    upgrades = Text()
    for action in ACTIONS:
        stack = pl["action_board"]["upgrades"][action]
        if stack:
            if upgrades.plain:
                upgrades.append("\n")
            tiles = " < ".join(f"{u['tile']} {reward(_UPGRADES[u['tile']].bonus)}"
                               for u in stack)
            upgrades.append(f"{action}: {tiles}")
    positions = pl["action_board"]["walls"]
    walls = [w["tile"] for w in positions if w is not None]
    wall_text = f"{len(walls)}/{len(positions)}" + (
        f": {' '.join(walls)}" if walls else "")
    seals = [s["id"] for s in b["seals"] if s["owner"] == seat]
    rights = pl["seal_rights"]
    seal_text = (" ".join(seals) or "-") + (f" (+{rights} to claim)" if rights else "")
    bridge = [f"{label}: {bridge_tile_text(t)}" for label, t in
              (("bridge", pl["v_tile"]), ("Cathedral", pl["cathedral_tile"]))
              if t is not None]
    road = pl["road"]
    return [
        Text(f"{pl['vp']}", style="bold"),
        gold_stone,
        track(mine, gold_t, "mines", tokens[0]),
        track(quarry, quarry_t, "quarries", tokens[1]),
        f"{tech}/{C.tech_top} {track_bar(tech, C.tech_top, {})} level {_tech_level(tech)}",
        f"{univ}/{C.univ_top} {track_bar(univ, C.univ_top, {})} x{univ_x}",
        f"{pl['silver_windows']} silver, {pl['gold_windows']} gold",
        f"eggs {pl['eggs']} · red {pl['red_tokens']} · blue {pl['blue_tokens']}"
        f" · cubes {pl['cubes']}",
        _grid_spot(view, 0, seat),
        _grid_spot(view, 1, seat),
        f"space {ROMAN[road]}" if road else "not yet",
        techs if techs.plain else Text("-", style="dim"),
        upgrades if upgrades.plain else Text("-", style="dim"),
        wall_text,
        seal_text,
        "\n".join(bridge) or Text("-", style="dim"),
        f"{pl['turns_played']}/{C.turns_per_player}",
    ]


PLAYER_ROWS = ("VP", "Gold, stone", "Mine track", "Quarry track", "Technology",
               "University", "Windows", "Eggs, tokens", "Hunger Wall", "Cathedral",
               "King's Road", "Technologies", "Upgrades", "Walls", "Seals", "Bridge tiles",
               "Turns")


def players_table(view: Mapping[str, Any]) -> Table:
    colours = _colours(view)
    to_move = view.get("to_move")
    table = Table(title="Players (tracks: ■ reached, T token space, S seal space)",
                  title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  padding=(0, 1))
    table.add_column("")
    columns = []
    for seat, name in enumerate(colours):
        head = styled(name)
        if seat == to_move:
            head.append(" ◀ to move", style="bold")
        if seat == view.get("seat"):
            head.append(" (you)")
        table.add_column(head, ratio=1)
        columns.append(_player_cells(view, seat))
    for i, label in enumerate(PLAYER_ROWS):
        table.add_row(Text(label, style="bold"), *[col[i] for col in columns])
    return table


# --- score and log -----------------------------------------------------------------------
def score_line(view: Mapping[str, Any]) -> Text:
    colours = _colours(view)
    final = view.get("final")
    vp = list(final["vp"]) if final else [pl["vp"] for pl in _board(view)["players"]]
    text = Text("Final score: " if final else "Score: ", style="bold")
    order = sorted(range(len(colours)), key=lambda p: -vp[p])
    for i, p in enumerate(order):
        if i:
            text.append(", ")
        text.append_text(styled(colours[p]))
        text.append(f" {vp[p]} VP")
    return text


_SEAT_RE = re.compile(r"\bseat (\d)\b")
_MOVE_RE = re.compile(r"^(\d): ")


def name_seats(line: str, colours: Sequence[str]) -> str:
    """A log line with ``seat N`` and a leading ``N: `` replaced by the seat's colour.

    >>> name_seats("1: end-turn", ["green", "red"])
    'red: end-turn'
    >>> name_seats("seat 0 builds B03 on S07", ["green", "red"])
    'green builds B03 on S07'
    """
    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return colours[seat] if seat < len(colours) else match.group(0)

    line = _SEAT_RE.sub(name, line)
    return _MOVE_RE.sub(lambda m: f"{name(m)}: ", line)


def log_lines(view: Mapping[str, Any], lines: int = LOG_LINES) -> Panel:
    """The last log lines with seat numbers replaced by colours."""
    colours = _colours(view)
    log = list(view.get("log", ()))
    shown = [name_seats(english(line), colours) for line in log[-lines:]]
    return Panel(Text("\n".join(shown) if shown else "(empty)"),
                 title=f"Log (last {len(shown)} lines)", title_align="left")


# --- the whole table ---------------------------------------------------------------------
def render_praga(view: Mapping[str, Any]) -> RenderableType:
    """The whole Praga table as one renderable (about 160 columns wide)."""
    parts: list[RenderableType] = [
        _section("header", lambda: header(view), [view.get("turn", "")]),
        _side_by_side(
            _section("Action crane", lambda: crane_table(view), view.get("crane", ())),
            _section("City", lambda: city_table(view), view.get("markets", ()))),
        _section("Hex-tile rows", lambda: rows_table(view),
                 [f"{k}: " + ", ".join(_english(x) for x in v)
                  for k, v in view.get("rows", {}).items()]),
        _side_by_side(
            _section("Hunger Wall", lambda: grid_table(view, 0)),
            _section("Cathedral", lambda: grid_table(view, 1)),
            Group(_section("King's Road", lambda: road_table(view)),
                  _section("Charles Bridge", lambda: bridge_table(view),
                           view.get("bridge", ())))),
        _section("Seals", lambda: seals_and_river(view),
                 [*view.get("seals", ()), *view.get("river", ())]),
        _section("Players", lambda: players_table(view), view.get("seats", ())),
        _section("Score", lambda: score_line(view)),
        log_lines(view),
    ]
    return Group(*parts)


def status_praga(view: Mapping[str, Any]) -> RenderableType:
    """One line about the seat to decide, between the steps of a turn."""
    seat = view.get("seat")
    if seat is None:
        return Text("")
    pl = _board(view)["players"][seat]
    colours = _colours(view)
    text = styled(colours[seat])
    text.append(f": {pl['vp']} VP, {pl['gold']} gold, "
                f"{pl['stone']} stone, windows {pl['silver_windows']} silver + "
                f"{pl['gold_windows']} gold, {pl['eggs']} eggs, tokens "
                f"{pl['red_tokens']} red + {pl['blue_tokens']} blue")
    if view.get("turn_of") == colours[seat]:
        text.append(f" | this turn: {_english(view['this_turn'])}", style="dim")
    return text


# --- the compact table -------------------------------------------------------------------
COMPACT_LOG_LINES = 6
LEGEND = ("g gold, s stone, tok token, win window, HW Hunger Wall, Cath Cathedral, "
          "r/c row/column; 'board full' draws every detail")


def compact_crane(view: Mapping[str, Any]) -> Text:
    """The crane's tiles in one or two lines: position, zone and tile."""
    b = _board(view)
    crane = C.crane
    rotation = int(b["crane"]["rotation"])
    five = b["crane"]["five_vp_tile"]
    text = Text("Crane: ", style="bold")
    first = True
    for board in range(crane.positions):
        wheel = (board - rotation) % crane.positions
        tile = b["crane"]["wheel"][wheel] if wheel else None
        if wheel and tile is None:
            continue
        if not first:
            text.append(" · ")
        first = False
        text.append(f"{board} ")
        text.append_text(_zone(board))
        if wheel == 0:
            text.append(" box", style="bold")
            continue
        text.append(f" {tile} {'/'.join(b['action_tiles'][tile])}")
        if tile == five:
            text.append(" +5VP", style="bold")
    return text


def compact_city(view: Mapping[str, Any]) -> Table:
    """Two markets a line: colour, tile rewards, sites built with their owners."""
    b = _board(view)
    table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    cells: list[list[RenderableType]] = []
    for k, market in enumerate(C.markets):
        colour = MARKET_COLOURS[market.colour]
        name = Text(f"{market.id} ", style="bold")
        name.append(colour, style=COLOUR_STYLES.get(colour, ""))
        tile = b["markets"][k]["tile"]
        if b["markets"][k]["scored"]:
            rewards = Text("scored", style="dim")
        elif tile is None:
            rewards = Text("no tile", style="dim")
        else:
            mt = _MARKET_TILES[tile]
            rewards = Text(f"{reward(mt.upper)} / {reward(mt.lower)}")
        sites = C.market_sites[k]
        built = Text(f"{sum(1 for x in sites if b['sites'][x]['building'] is not None)}"
                     f"/{len(sites)}")
        for x in sites:
            owner = b["sites"][x]["owner"]
            if b["sites"][x]["building"] is not None and owner is not None:
                built.append(" ")
                built.append_text(_side_mark(view, owner))
        cells.append([name, rewards, built])
    half = (len(cells) + 1) // 2
    for i in range(half):
        right = cells[half + i] if half + i < len(cells) else ["", "", ""]
        table.add_row(*cells[i], Text("│", style="dim"), *right)
    return table


def compact_rows(view: Mapping[str, Any]) -> Text:
    b = _board(view)
    text = Text()
    stacks = b["face_down"]["stacks"][int(b["era"]) - 1]
    for row, name in enumerate(_ROWS):
        if row:
            text.append("\n")
        counts = stacks[name]
        text.append(f"{ROW_TITLES[row]} ({counts['normal']}+{counts['special']}): ",
                    style="bold")
        for k, tile in enumerate(b["rows"][name]):
            if k:
                text.append(" | ")
            if k == 3:
                text.append("★")
            text.append(_hex_tile(row, tile).plain.replace("\n", ", "))
    return text


def compact_players(view: Mapping[str, Any]) -> Table:
    b = _board(view)
    colours = _colours(view)
    to_move = view.get("to_move")
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    table.add_column("")
    columns: list[list[str]] = []
    for seat, name in enumerate(colours):
        head = styled(name)
        if seat == to_move:
            head.append(" ◀", style="bold")
        if seat == view.get("seat"):
            head.append(" (you)")
        table.add_column(head, ratio=1)
        pl = b["players"][seat]
        hw, cath = pl["hunger_wall"], pl["cathedral"]
        ups = ", ".join(f"{a} {' '.join(u['tile'] for u in pl['action_board']['upgrades'][a])}"
                        for a in ACTIONS if pl["action_board"]["upgrades"][a])
        walls = sum(1 for w in pl["action_board"]["walls"] if w is not None)
        seals = " ".join(s["id"] for s in b["seals"] if s["owner"] == seat)
        tiles = " ".join(t for t in (pl["v_tile"], pl["cathedral_tile"]) if t is not None)
        columns.append([
            f"{pl['vp']} VP · {pl['gold']}g {pl['stone']}s",
            f"{pl['mines']} mines · {pl['quarries']} quarries",
            f"tech {pl['technology']} ({_tech_level(pl['technology'])}) · univ "
            f"{pl['university']}",
            f"win {pl['silver_windows']}s {pl['gold_windows']}g · eggs {pl['eggs']} · cubes "
            f"{pl['cubes']}",
            f"tok {pl['red_tokens']} red {pl['blue_tokens']} blue",
            f"HW r{hw['row'] + 1} c{hw['column']} · Cath r{cath['row'] + 1} "
            f"c{cath['column']}",
            f"road {ROMAN[pl['road']] if pl['road'] else '-'} · walls {walls} · turn "
            f"{pl['turns_played']}/{C.turns_per_player}",
            " ".join(pl["technologies"]) or "no technologies",
            ups or "no upgrades",
            " ".join(x for x in (seals, tiles) if x) or "-",
        ])
    labels = ("score", "mines", "tracks", "resources", "tokens", "grids", "road", "techs",
              "upgrades", "seals, tiles")
    for i, label in enumerate(labels):
        table.add_row(Text(label, style="dim"), *[col[i] for col in columns])
    return table


def compact_extras(view: Mapping[str, Any]) -> Text:
    """Seals claimed, production tokens, the road's pawns, the bridge."""
    b = _board(view)
    text = Text("Seals: ", style="bold")
    text.append(" ".join(f"{C.seals[k].id}" + ("" if e["owner"] is None else
                                                f"={_colours(view)[e['owner']]}"
                                                if e["owner"] < len(_colours(view)) else "=bot")
                         for k, e in enumerate(b["seals"])))
    river = b["river"]
    text.append(" · Production tokens: ", style="bold")
    text.append(" ".join(t for t in river) if river else "none left")
    laid = sum(1 for p in b["bridge"] if p["tile"] is not None)
    text.append(f" · Bridge {laid}/{len(b['bridge'])} planks", style="bold")
    return text


def render_praga_compact(view: Mapping[str, Any]) -> RenderableType:
    """Praga in about 50 lines at 120 columns (``render_praga`` draws every detail)."""
    return Group(
        header(view),
        compact_crane(view),
        compact_city(view),
        compact_rows(view),
        compact_extras(view),
        compact_players(view),
        score_line(view),
        Text(LEGEND, style="dim"),
        log_lines(view, COMPACT_LOG_LINES),
    )
