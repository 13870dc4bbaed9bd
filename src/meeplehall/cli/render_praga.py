"""Terminal board of Praga Caput Regni, drawn from ``player_view`` only.

The view carries the public part of the state (``view["state"]``: indices into the
component data) next to short readable lines. This module draws the public state with
the printed component data (``games.praga.components``: names, costs, grids) and so
never sees what the seat may not know. Each section is drawn on its own; a section the
view cannot feed (a field renamed in the engine, say) falls back to the view's readable
lines with a note, so the rest of the table is still drawn.

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
from meeplehall.core.messages import english
from meeplehall.games.praga.components import (
    ACTIONS,
    CELL_SIDE,
    CELL_UP,
    IV_EFFECTS,
    MARKET_COLOURS,
    REWARD_KINDS,
    ROAD_EGG,
    ROAD_FREE,
    ROAD_TILE_EFFECTS,
    SEAL_EFFECTS,
    TECH_EFFECTS,
    TRACKS,
    V_EFFECTS,
    Components,
    load,
)

C: Components = load()
ROW_BITS = 8  # a grid cell is row * ROW_BITS + column (games/praga/effects.py)
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


# --- small helpers -----------------------------------------------------------------------
def _colours(view: Mapping[str, Any]) -> list[str]:
    return list(C.colours[: int(view["players"])])


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


def tech_text(index: int) -> str:
    tech = C.technologies[index]
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


def bridge_tile_text(index: int) -> str:
    tile = C.bridge_tiles[index]
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
             fallback: Sequence[str] = ()) -> RenderableType:
    """Draw one section; if the view cannot feed it, show its readable lines instead."""
    try:
        return build()
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        lines = "\n".join(str(line) for line in fallback) or "(nothing to show)"
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
def _platform(state: Mapping[str, Any]) -> Text:
    spaces = C.crane.platform_spaces
    line = C.crane.era_line.get(int(state["players"]), -1)
    text = Text("platform ")
    at = int(state["platform"])
    for k in range(spaces):
        mark = "■" if k == at else ("|" if k == line else "·")
        text.append(mark, style="bold" if k == at else "dim")
    text.append("⌛", style="bold" if at >= spaces else "dim")
    return text


def header(view: Mapping[str, Any]) -> Text:
    state = view["state"]
    colours = _colours(view)
    text = Text("Praga Caput Regni", style="bold")
    text.append(f" · turn {view['turn']} · era {view['era']} · ")
    text.append_text(_platform(state))
    if state["platform"] >= C.crane.platform_spaces:
        text.append(" (the cube reached the hourglass)")
    else:
        text.append(f" ({view['platform']}")
        line = C.crane.era_line.get(int(state["players"]))
        if line is not None and state["era"] == 1:
            text.append(f", era line at {line}"
                        + (", star armed" if state["star_armed"] else ""))
        text.append(")")
    if state["platform"] == C.crane.platform_spaces - 1 and view.get("final") is None:
        left = ", ".join(f"{colours[p]} {C.turns_per_player - n}"
                         for p, n in enumerate(state["played"]))
        text.append(f" · last turns: {left}", style="bold red")
    text.append("\n")
    to_move = view.get("to_move")
    if to_move is None:
        text.append("The game is over.", style="bold")
        return text
    text.append_text(styled(view["turn_of"]))
    text.append("'s turn: " + str(view["this_turn"]) + " · ")
    text.append_text(styled(colours[to_move]))
    text.append(f" to decide ({view['decision']})")
    return text


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
    state = view["state"]
    crane = C.crane
    rotation = int(state["rotation"])
    five = int(state["five_vp"])
    table = Table(title="Action crane", title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False, padding=(0, 1))
    table.add_column("#", justify="right")
    table.add_column("Zone")
    table.add_column("Slot", justify="right")
    table.add_column("Wheel bonus")
    table.add_column("Action tile")
    marks = {crane.star: "★", crane.hole: "○", crane.double_rotation_mark: "⟳"}
    art = state.get("opts", {}).get("egg_price") == "art"
    for board in range(crane.positions):
        wheel = (board - rotation) % crane.positions
        number = Text(str(board))
        if board in marks:
            number = Text(marks[board] + str(board), style="bold")
        if wheel == 0:
            table.add_row(number, _zone(board), "", Text("▣ box (arrow)", style="bold"), "")
            continue
        tile = state["slots"][wheel]
        if tile < 0:
            what = Text("empty", style="dim")
        else:
            pair = "/".join(ACTIONS[a] for a in state["pairs"][tile])
            what = Text(f"{C.action_tiles[tile].id} {pair}")
            if tile == five:
                what.append(" +5VP", style="bold")
        table.add_row(number, _zone(board), str(wheel), _wheel_bonus(wheel, art), what)
    where = ("beside the crane" if five < 0 else f"on {C.action_tiles[five].id}")
    table.caption = f"★ star  ○ hole  ⟳ double rotation; 5-VP token {where}"
    table.caption_justify = "left"
    return table


# --- city map ----------------------------------------------------------------------------
def _site(state: Mapping[str, Any], colours: Sequence[str], index: int) -> Text:
    site = C.sites[index]
    tile = state["site_tile"][index]
    text = Text()
    if tile < 0:
        text.append(site.id, style="dim")
        if site.surcharge or site.vp:
            text.append(f"+{site.surcharge}g/{site.vp}", style="dim")
        return text
    text.append(f"{site.id}:{C.buildings[tile].id}")
    owner = state["site_owner"][index]
    if owner >= 0:
        text.append(" ")
        text.append_text(seat_mark(colours, owner))
    if state["site_cube"][index]:
        text.append("■", style=COLOUR_STYLES.get(colours[owner], "") if owner >= 0 else "")
    return text


def city_table(view: Mapping[str, Any]) -> Table:
    state = view["state"]
    colours = _colours(view)
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
        tile = state["market_tile"][k]
        if tile < 0:
            rewards = Text("no tile", style="dim")
        else:
            mt = C.market_tiles[tile]
            rewards = Text(f"{reward(mt.upper)} / {reward(mt.lower)}")
        if state["market_done"][k]:
            rewards.stylize("dim")
            rewards.append(" scored", style="bold")
        sites = C.market_sites[k]
        built = sum(1 for x in sites if state["site_tile"][x] >= 0)
        line = Text(f"{built}/{len(sites)} ", style="bold")
        for i, x in enumerate(sites):
            if i:
                line.append(" ")
            line.append_text(_site(state, colours, x))
        table.add_row(name, rewards, line)
    return table


# --- rows, road, bridge, seals -----------------------------------------------------------
def _hex_tile(row: int, tile: int) -> Text:
    if tile < 0:
        return Text("(empty)", style="dim")
    if row == 0:
        b = C.buildings[tile]
        text = Text(f"{b.id} ", style="bold")
        text.append(short_cost(b.gold, b.stone))
        text.append(f" → {reward(b.reward)}")
        marks = [m for m, on in (("cube", b.cube), ("cath", b.cathedral),
                                 (f"{len(b.blue_corners)}◆blue", bool(b.blue_corners))) if on]
    elif row == 1:
        w = C.walls[tile]
        text = Text(f"{w.id} ", style="bold")
        text.append(short_cost(w.gold, w.stone))
        text.append(f" → {reward(w.reward)}")
        marks = [m for m, on in (("HW", w.hunger_wall),
                                 (f"{len(w.red_corners)}◆red", bool(w.red_corners))) if on]
    else:
        u = C.upgrades[tile]
        text = Text(f"{u.id} ", style="bold")
        text.append(ACTIONS[u.action])
        text.append(f" → {reward(u.bonus)} each")
        marks = [f"{len(u.red_corners)}◆red"] if u.red_corners else []
    if marks:
        text.append(f"\n{', '.join(marks)}", style="dim")
    return text


def rows_table(view: Mapping[str, Any]) -> Table:
    state = view["state"]
    table = Table(title="Hex-tile rows (g gold, s stone; ◆ corners)", title_justify="left",
                  box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    table.add_column("Row")
    for k in range(1, 5):
        table.add_column("★ special" if k == 4 else str(k), max_width=34)
    counts = state.get("hidden_counts", {}).get("stacks")
    era = int(state["era"])
    for row, tiles in enumerate(state["rows"]):
        label = Text(ROW_TITLES[row], style="bold")
        if counts:
            base = (era - 1) * 6 + row * 2
            label.append(f"\nstack {counts[base]}+{counts[base + 1]}", style="dim")
        table.add_row(label, *[_hex_tile(row, t) for t in tiles])
    return table


def road_table(view: Mapping[str, Any]) -> Table:
    state = view["state"]
    colours = _colours(view)
    counts = state.get("hidden_counts", {})
    table = Table(title="King's Road", title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False, padding=(0, 1))
    table.add_column("")
    table.add_column("Free")
    table.add_column("For 1 egg")
    table.add_column("Pawns")

    def pawns(at: int) -> Text:
        text = Text()
        for p, pos in enumerate(state["road"]):
            if pos == at:
                text.append_text(seat_mark(colours, p))
        return text

    if any(pos == 0 for pos in state["road"]):
        table.add_row("-", Text("not yet", style="dim"), "", pawns(0))
    for k, space in enumerate(C.road):
        if space.bridge:
            pile = ("iv_stack",) if space.bridge == "iv" else ("v_pile",)
            free = Text(f"{space.entry_eggs} egg to enter", style="dim")
            egg = f"{space.bridge.upper()} tile ({counts.get(pile[0], '?')} left)"
        else:
            free = Text(ROAD_TEXT.get(ROAD_FREE[space.free], ROAD_FREE[space.free]))
            egg = ROAD_TEXT.get(ROAD_EGG[space.egg], ROAD_EGG[space.egg])
        tile = state["road_effect"][k] if k < len(state["road_effect"]) else -1
        if tile >= 0:
            name = ROAD_TILE_EFFECTS[tile]
            free.append(f"; while here: {ROAD_TEXT.get(name, name)}")
        table.add_row(ROMAN[space.numeral], free, egg, pawns(space.numeral))
    return table


def bridge_table(view: Mapping[str, Any]) -> Table:
    state = view["state"]
    laid = sum(1 for t in state["bridge"] if t >= 0)
    title = f"Charles Bridge ({laid}/{len(state['bridge'])} planks" + (
        ", complete)" if laid == len(state["bridge"]) else ")")
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  padding=(0, 1))
    table.add_column("Plank")
    table.add_column("Fields")
    table.add_column("Tile")
    for k, fields in enumerate(state["planks"]):
        tile = state["bridge"][k]
        table.add_row(str(k), " | ".join(reward(r) for r in fields),
                      bridge_tile_text(tile) if tile >= 0 else Text("free", style="dim"))
    return table


def seals_and_river(view: Mapping[str, Any]) -> Text:
    state = view["state"]
    colours = _colours(view)
    text = Text("Seals: ", style="bold")
    for k, owner in enumerate(state["seal_owner"]):
        seal = C.seals[k]
        if k:
            text.append(" · ")
        effect = SEAL_EFFECTS[seal.effect]
        text.append(f"{seal.id} {SEAL_TEXT.get(effect, effect).format(vp=seal.vp)} "
                    f"(cost {cost(*seal.cost)}): ")
        text.append_text(seat_mark(colours, owner) if owner >= 0
                         else Text("unclaimed", style="dim"))
    text.append("\nProduction tokens: ", style="bold")
    river = state["river"]
    text.append(" · ".join(f"{C.production_tokens[t].id} {reward(C.production_tokens[t].gain)}"
                           for t in river) if river else "none left")
    counts = state.get("hidden_counts")
    if counts:
        tech = "/".join(str(n) for n in counts.get("tech_stacks", ()))
        text.append("\nFace down: ", style="bold")
        text.append(f"technologies I-IV {tech}; IV tiles {counts.get('iv_stack')}; V pile "
                    f"{counts.get('v_pile')}; Cathedral tiles {counts.get('cat_pile')}")
    return text


# --- Hunger Wall and Cathedral -----------------------------------------------------------
def grid_table(view: Mapping[str, Any], grid: int) -> Table:
    """One grid, top row first; each cell shows its symbol and the cubes on it."""
    state = view["state"]
    colours = _colours(view)
    g = C.grids[grid]
    tier_set = state["opts"]["hunger_wall_tiers" if grid == 0 else "cathedral_tiers"]
    tiers = g.tiers[tier_set]
    side = "←" if g.direction < 0 else "→"
    cubes = state["hw" if grid == 0 else "cat"]
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
            here = [p for p, at in enumerate(cubes) if divmod(at, ROW_BITS) == (row, col)]
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
def _grid_spot(state: Mapping[str, Any], grid: int, seat: int) -> str:
    g = C.grids[grid]
    tier_set = state["opts"]["hunger_wall_tiers" if grid == 0 else "cathedral_tiers"]
    values = [v for t in g.tiers[tier_set] for v in t.row_values]
    row, col = divmod(state["hw" if grid == 0 else "cat"][seat], ROW_BITS)
    return f"row {row + 1} ({values[row]} VP), col {col} (x{g.column_values[col]})"


def _tech_level(steps: int) -> str:
    level = sum(1 for need in C.tech_levels if steps >= need)
    return ROMAN[level] if level else "-"


def _player_cells(view: Mapping[str, Any], seat: int) -> list[RenderableType]:
    state = view["state"]
    gold_t, quarry_t = C.gold_track, C.quarry_track
    mine, quarry = state["mine"][seat], state["quarry"][seat]
    tokens = state["ptoken"][seat]
    wealth = state["wealth"][seat]
    reached = [name for bit, name in ((1, "6g"), (2, "6s"), (4, "9")) if wealth & bit]
    gold_stone = f"{state['gold'][seat]} gold, {state['stone'][seat]} stone"
    if reached:
        gold_stone += f" (wealth {' '.join(reached)})"

    def track(pos: int, t: Any, name: str, token: int) -> Text:
        bar = track_bar(pos, t.spaces, {t.token_space: "T", t.seal_space: "S"})
        text = Text(f"{pos - 1} {name} {bar}")
        if token >= 0:
            pt = C.production_tokens[token]
            text.append(f" {pt.id} {reward(pt.gain)}", style="dim")
        return text

    tech, univ = state["tech"][seat], state["univ"][seat]
    univ_x = C.univ_multiplier[min(univ, len(C.univ_multiplier) - 1)]
    used = state.get("tech_used", [0] * (seat + 1))[seat]
    techs = Text()
    for i, t in enumerate(state["techs"][seat]):
        if i:
            techs.append("\n")
        level = C.technologies[t].level
        techs.append(tech_text(t), style="dim" if level >= 3 and used >> (level - 1) & 1
                     else "")
        if level >= 3 and used >> (level - 1) & 1:
            techs.append(" (used)", style="dim")
    upgrades = Text()
    for action, stack in enumerate(state["upg"][seat]):
        if stack:
            if upgrades.plain:
                upgrades.append("\n")
            tiles = " < ".join(f"{C.upgrades[c // 6].id} {reward(C.upgrades[c // 6].bonus)}"
                               for c in stack)
            upgrades.append(f"{ACTIONS[action]}: {tiles}")
    walls = [C.walls[c // 6].id for c in state["walls"][seat] if c >= 0]
    wall_text = f"{len(walls)}/{len(state['walls'][seat])}" + (
        f": {' '.join(walls)}" if walls else "")
    seals = [C.seals[k].id for k, o in enumerate(state["seal_owner"]) if o == seat]
    rights = state["seal_rights"][seat]
    seal_text = (" ".join(seals) or "-") + (f" (+{rights} to claim)" if rights else "")
    bridge = [f"{label}: {bridge_tile_text(t)}" for label, t in
              (("bridge", state["v_tile"][seat]), ("Cathedral", state["cat_tile"][seat]))
              if t >= 0]
    road = state["road"][seat]
    return [
        Text(f"{state['vp'][seat]}", style="bold"),
        gold_stone,
        track(mine, gold_t, "mines", tokens[0]),
        track(quarry, quarry_t, "quarries", tokens[1]),
        f"{tech}/{C.tech_top} {track_bar(tech, C.tech_top, {})} level {_tech_level(tech)}",
        f"{univ}/{C.univ_top} {track_bar(univ, C.univ_top, {})} x{univ_x}",
        f"{state['silver'][seat]} silver, {state['goldw'][seat]} gold",
        f"eggs {state['eggs'][seat]} · red {state['red'][seat]} · blue {state['blue'][seat]}"
        f" · cubes {state['cubes'][seat]}",
        _grid_spot(state, 0, seat),
        _grid_spot(state, 1, seat),
        f"space {ROMAN[road]}" if road else "not yet",
        techs if techs.plain else Text("-", style="dim"),
        upgrades if upgrades.plain else Text("-", style="dim"),
        wall_text,
        seal_text,
        "\n".join(bridge) or Text("-", style="dim"),
        f"{state['played'][seat]}/{C.turns_per_player}",
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
    state = view["state"]
    colours = _colours(view)
    final = view.get("final")
    vp = list(final["vp"]) if final else list(state["vp"])
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
        _section("header", lambda: header(view), [str(view.get("turn", ""))]),
        _side_by_side(
            _section("Action crane", lambda: crane_table(view), view.get("crane", ())),
            _section("City", lambda: city_table(view), view.get("markets", ()))),
        _section("Hex-tile rows", lambda: rows_table(view),
                 [f"{k}: {v}" for k, v in view.get("rows", {}).items()]),
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
    state = view["state"]
    colours = _colours(view)
    text = styled(colours[seat])
    text.append(f": {state['vp'][seat]} VP, {state['gold'][seat]} gold, "
                f"{state['stone'][seat]} stone, windows {state['silver'][seat]} silver + "
                f"{state['goldw'][seat]} gold, {state['eggs'][seat]} eggs, tokens "
                f"{state['red'][seat]} red + {state['blue'][seat]} blue")
    if view.get("turn_of") == colours[seat]:
        text.append(f" | this turn: {view['this_turn']}", style="dim")
    return text
