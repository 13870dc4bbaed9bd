"""Player views (built by whitelist) and ``sample_hidden`` for AI determinisation.

Hidden in Praga: the order and contents of the face-down stacks (hex tiles of both eras,
technologies, IV bridge tiles, the V piles by the bridge and the Cathedral), the market
tiles left in the box, the technologies or IV tiles another player is choosing among, and
the PRNG state. A view shows counts of those and everything else, both as readable
sections and as the public part of the state, so a bot can rebuild a full state with
``sample_hidden`` (re-dealing the hidden parts from its own generator).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from meeplehall.core.messages import M, Message, log_json, message_json, term
from meeplehall.core.plain import to_plain
from meeplehall.core.rng import Rng
from meeplehall.games.praga import crane as K
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga import scoring, solo, view_sections
from meeplehall.games.praga.actions_family import egg_price
from meeplehall.games.praga.components import (
    CATHEDRAL,
    HUNGER_WALL,
    MARKET_COLOURS,
    SEAL_EFFECTS,
    TECH_EFFECTS,
    load,
)
from meeplehall.games.praga.effects import ROW_BITS, grid_of
from meeplehall.games.praga.effects import side_name as colour_name
from meeplehall.games.praga.final import CATEGORIES, outcome
from meeplehall.games.praga.parler_data import PARLER
from meeplehall.games.praga.state import (
    ROW_NAMES,
    Decision,
    PragaState,
    decision_from_plain,
)
from meeplehall.games.praga.texts import (
    ACTION_TERMS,
    ROW_TERMS,
    joined,
    reward_message,
    tile_message,
)

C = load()

# Whitelist: state fields any seat may know as they are. A new field stays hidden until
# added here; the hidden ones are shown as counts (``HIDDEN_COUNTS``).
PUBLIC_FIELDS: tuple[str, ...] = (
    "opts", "players", "market_tile", "planks", "road_effect", "pairs",
    "rotation", "slots", "five_vp", "platform", "era", "star_armed", "turns", "rows",
    "river", "seal_owner", "bridge", "site_tile", "site_owner", "site_cube", "site_spent",
    "site_orient", "market_done",
    "vp", "gold", "stone", "eggs", "silver", "goldw", "red", "blue", "mine", "quarry",
    "tech", "univ", "wealth", "cubes", "hw", "cat", "cat_tile", "v_tile", "road", "ptoken",
    "seal_rights", "techs", "tech_ready", "tech_used", "upg", "walls", "edge_paid",
    "corner_paid", "once", "played",
    "seat", "taken", "taken_slot", "action_done", "bonus", "special", "xact", "refreshed",
    "moves_hw", "moves_cat", "performed", "covered", "t14", "road_free", "road_egg",
    "final", "log",
    "bots",  # only in games with sides the engine plays (solo.py)
    "stack", "hidden_counts",  # the decision stack masked per seat; counts of HIDDEN_COUNTS
)
# The whitelisted state fields copied into every view (the decision stack is masked per
# seat and the counts are built apart; ``bots`` exists only where the engine plays sides).
_PUBLIC_SLOTS: tuple[str, ...] = tuple(
    name for name in PUBLIC_FIELDS if name in PragaState.__slots__ and name != "stack")
_PUBLIC_NO_BOTS: tuple[str, ...] = tuple(name for name in _PUBLIC_SLOTS if name != "bots")
HIDDEN_COUNTS: tuple[str, ...] = ("stacks", "tech_stacks", "iv_stack", "v_pile",
                                  "cat_pile", "unused")
# How deep each public field's lists nest (state.py), for ``_public``: 2 a list of lists of
# ints, 3 one level more; the fields not named are ints, bools or flat lists of them.
_NESTED: dict[str, int] = {"pairs": 2, "rows": 2, "ptoken": 2, "techs": 2, "walls": 2,
                           "bots": 2, "upg": 3}
_SPECIAL = ("opts", "planks", "final", "log")


def _public(s: PragaState, slots: tuple[str, ...]) -> dict[str, Any]:
    """``state_to_plain(s, slots)`` field by field: the same data in fresh lists, without
    walking every int (the view of every seat is built after every move)."""
    out: dict[str, Any] = {}
    for name in slots:
        value = getattr(s, name)
        depth = _NESTED.get(name)
        if name in _SPECIAL:
            out[name] = (value.to_params() if name == "opts" else
                         [m.to_json() for m in value] if name == "log" else to_plain(value))
        elif depth == 2:
            out[name] = [list(x) for x in value]
        elif depth == 3:
            out[name] = [[list(y) for y in x] for x in value]
        elif type(value) is list or type(value) is tuple:
            out[name] = list(value)
        else:
            out[name] = value
    return out


def side_name(s: PragaState, seat: int) -> str:
    """A seat by its colour; a Parler bot (side ``players + b``) by his name."""
    if s.bots is not None and seat >= s.players and s.opts.solo_opponent == "parler":
        return PARLER.names[seat - s.players]
    return colour_name(s, seat)


def _side(s: PragaState, seat: int) -> Message | str:
    """A side in a message: a colour (translated) or a Parler bot's name."""
    name = side_name(s, seat)
    return name if name in PARLER.names else term(name)


def _bot_lines(s: PragaState) -> list[Message]:
    """The sides the engine plays (solo.py): what everybody sees of them."""
    assert s.bots is not None
    if s.opts.solo_opponent == "dummy":
        # P-SOLO-2 (cited here, not in the line the players read)
        return [M("the dummy: {n} of 16 turns taken (it takes the action tile "
                  "furthest along and returns it)", n=s.bots[0][solo.B_TURNS])]
    out = []
    for b, bot in enumerate(s.bots):
        pawn = bot[solo.B_PAWN]
        card = bot[solo.B_CARD]
        left = bin(bot[solo.B_DECK]).count("1")
        args: dict[str, Any] = {
            "bot": PARLER.names[b], "n": bot[solo.B_TURNS], "mines": bot[solo.B_MINES],
            "quarries": bot[solo.B_QUARRIES], "cubes": bot[solo.B_CUBES],
            "pawn": (M("at market {market}", market=C.markets[pawn].id) if pawn >= 0
                     else term("with nowhere to build")),
            "pointers": tuple(M("{row} {n}", row=ROW_TERMS[r], n=bot[solo.B_PTR + r] + 1)
                              for r in range(3)),
            "left": left if left else 5}
        if card >= 0:
            args["card"] = PARLER.cards[card].id
            key = ("{bot}: {n} of 16 turns, {mines} gold mines, {quarries} quarries, {cubes} "
                   "cubes, pawn {pawn}, pointers {pointers}, last card {card}, {left} cards "
                   "in the draw pile")
        else:
            key = ("{bot}: {n} of 16 turns, {mines} gold mines, {quarries} quarries, {cubes} "
                   "cubes, pawn {pawn}, pointers {pointers}, {left} cards in the draw pile")
        out.append(Message(key, args))
    return out


_TILE_KINDS: tuple[tuple[tuple[int, bool], ...], ...] = (
    tuple((t.era, t.special) for t in C.buildings),
    tuple((t.era, t.special) for t in C.walls),
    tuple((t.era, t.special) for t in C.upgrades))


def _stack_for(s: PragaState, player: int | None) -> list[Decision]:
    """The decision stack as ``player`` may see it (P-TECH-2, P-BRIDGE-2)."""
    return [d.masked(player) for d in s.stack]


def masked_top(s: PragaState, player: int | None) -> Decision:
    """The decision on top of the stack as ``player`` may see it (``_stack_for``'s last)."""
    return s.stack[-1].masked(player)


def _hidden_key(s: PragaState) -> tuple[object, ...]:
    """Everything some seat cannot see, and what the decision on top shows its seat of
    it: the face-down stacks and piles (their order too), the market tiles in the box,
    the drawn technologies and bridge tiles a seat is choosing among, the Cathedral tiles
    a seat is offered (P-GRID-7: its legal actions list the pile) and the PRNG state
    (Parler's cards and production tokens, P.3)."""
    top = s.stack[-1] if s.stack else None
    offered = s.cat_pile if isinstance(top, D.CatTile) else None
    return (s.rng.state, tuple(s.stacks), tuple(s.tech_stacks), s.iv_stack, s.v_pile,
            s.cat_pile, s.unused, offered,
            tuple(d for d in s.stack if d.hides))


def reveals(before: PragaState, action: Any, after: PragaState) -> bool:
    """Whether the move showed any seat something it could not see before: a tile drawn
    to refill a row or to replace one taken (P-ROW-2/5), technologies drawn (P-TECH-2),
    bridge tiles drawn or offered (P-BRIDGE-2/3), the Cathedral tiles offered (P-GRID-7),
    Parler's card or token draws and the dummy's moves that refill a row (P-SOLO, P.3),
    or the choice among privately drawn tiles (the others learn which was kept). It is
    the undo barrier of the server and of the terminal client."""
    return _hidden_key(before) != _hidden_key(after)


def _crane(s: PragaState) -> list[Message]:
    """One line per board position, from the start of the red zone (P-CRANE-1)."""
    out = []
    for board in range(C.crane.positions):
        w = K.wheel_at(C.crane, board, s.rotation)
        zone = ("red" if board < C.crane.green_start else "green"
                if board < C.crane.blue_start else "blue" if board < C.crane.beyond
                else "beyond")
        cost = K.zone_cost(C.crane, board)
        vp = K.zone_vp(C.crane, board)
        where = M("{board} {zone}", board=f"{board:2}", zone=term(zone))
        if cost:
            where = M("{where} (pay {n} gold)", where=where, n=cost)
        if vp:
            where = M("{where} (+{n} VP)", where=where, n=vp)
        if w == 0:
            out.append(M("{where}: the box", where=where))
            continue
        slot = C.crane.slots[w - 1]
        bonus = (M("special tile or {n} VP", n=slot.vp) if slot.kind == 0 else
                 reward_message(slot.gain) if slot.kind == 1 else
                 M("buy an egg for {cost}", cost=_cost_message(egg_price(s, w)))
                 if slot.kind == 2 else term("track step"))
        tile = s.slots[w]
        what: Message = term("empty")
        if tile >= 0:
            what = M("{tile} {actions}", tile=C.action_tiles[tile].id,
                     actions=joined([ACTION_TERMS[a] for a in s.pairs[tile]], "{a}/{b}"))
            if s.five_vp == tile:
                what = M("{what} +5 VP token", what=what)
        out.append(M("{where}: slot {slot} [{bonus}] {what}", where=where, slot=w,
                     bonus=bonus, what=what))
    return out


_COST_KEYS = ("{n} gold", "{n} stone", "{n} silver", "{n} gold window")


def _cost_message(cost: tuple[int, int, int, int]) -> Message | str:
    parts = [M(key, n=n) for n, key in zip(cost, _COST_KEYS, strict=True) if n]
    return joined(parts, "{a} + {b}") if parts else term("free")


def _cell(s: PragaState, seat: int, grid: int) -> Message:
    row, col = divmod((s.hw if grid == HUNGER_WALL else s.cat)[seat], ROW_BITS)
    g = grid_of(s, grid)
    return M("row {row} ({vp} VP) column {column} (x{points})", row=row + 1,
             vp=g.row_values[row], column=col, points=g.column_values[col])


def _seat_line(s: PragaState, seat: int) -> Message | str:
    """Everything public about a seat on one line, its parts joined by `` | ``."""
    parts = [
        M("{seat}: {vp} VP", seat=_side(s, seat), vp=s.vp[seat]),
        M("{gold} gold, {stone} stone", gold=s.gold[seat], stone=s.stone[seat]),
        M("windows {silver} silver + {gold} gold", silver=s.silver[seat], gold=s.goldw[seat]),
        M("{n} eggs, tokens {red} red + {blue} blue", n=s.eggs[seat], red=s.red[seat],
          blue=s.blue[seat]),
        M("mines {mines}, quarries {quarries}", mines=s.mine[seat] - 1,
          quarries=s.quarry[seat] - 1),
        M("technology {tech}, University {univ}", tech=s.tech[seat], univ=s.univ[seat]),
        M("cubes {n}", n=s.cubes[seat]),
        M("Hunger Wall {cell}", cell=_cell(s, seat, HUNGER_WALL)),
        M("Cathedral {cell}", cell=_cell(s, seat, CATHEDRAL)),
        (M("King's Road {n}", n=s.road[seat]) if s.road[seat]
         else term("King's Road not yet")),
        M("turns {n}/16", n=s.played[seat]),
    ]
    if s.techs[seat]:
        # each tile by its id and its effect in words (the catalogue's entry for the
        # effect's rule ID: the ID itself is for the docs, not the player)
        parts.append(M("technologies {list}", list=tuple(
            M("{a} {b}", a=C.technologies[t].id,
              b=term(f"{TECH_EFFECTS[C.technologies[t].effect]} (technology)"))
            for t in s.techs[seat])))
    upg = [M("{action}:{tiles}", action=ACTION_TERMS[a],
             tiles="<".join(C.upgrades[c // 6].id for c in st))
           for a, st in enumerate(s.upg[seat]) if st]
    if upg:
        parts.append(M("upgrades {list}", list=joined(upg, "{a} {b}")))
    walls = [C.walls[c // 6].id for c in s.walls[seat] if c >= 0]
    if walls:
        parts.append(M("{n} walls {tiles}", n=len(walls), tiles=" ".join(walls)))
    tokens = [C.production_tokens[t].id for t in s.ptoken[seat] if t >= 0]
    if tokens:
        parts.append(M("production tokens {tokens}", tokens=" ".join(tokens)))
    if s.seal_rights[seat]:
        parts.append(M("{n} seal right(s)", n=s.seal_rights[seat]))
    if s.v_tile[seat] >= 0:
        parts.append(M("V tile {tile}", tile=C.bridge_tiles[s.v_tile[seat]].id))
    if s.cat_tile[seat] >= 0:
        parts.append(M("Cathedral tile {tile}", tile=C.bridge_tiles[s.cat_tile[seat]].id))
    return joined(parts, "{a} | {b}")


def _this_turn(s: PragaState) -> Message | str:
    """The state of the turn, its parts joined by ``; ``."""
    if s.taken < 0:
        return term("no action tile taken yet")
    parts = [M("took {tile} from slot {slot}", tile=C.action_tiles[s.taken].id,
               slot=s.taken_slot),
             term("action done" if s.action_done else "action to perform")]
    if s.bonus:
        parts.append(term("wheel bonus waiting"))
    if s.special:
        parts.append(term("special-tile bonus waiting"))
    parts.append(term(("extra action available", "extra action bought",
                       "extra action done")[s.xact]))
    if s.refreshed:
        parts.append(term("row refreshed"))
    if s.moves_hw or s.moves_cat:
        parts.append(M("sideways moves: Hunger Wall {hw}, Cathedral {cat}", hw=s.moves_hw,
                       cat=s.moves_cat))
    if s.road_free or s.road_egg:
        parts.append(term("King's Road effects waiting"))
    return joined(parts, "{a}; {b}")


def _market_line(s: PragaState, k: int) -> Message:
    """A market: its tile's rewards, whether it was scored, and its building sites."""
    m = C.markets[k]
    tile = s.market_tile[k]
    rewards = (term("empty market") if tile < 0 else
               M("{a} / {b}", a=reward_message(C.market_tiles[tile].upper),
                 b=reward_message(C.market_tiles[tile].lower)))
    sites = []
    for x in C.market_sites[k]:
        site: Message = (M("{site} {building}", site=C.sites[x].id,
                           building=C.buildings[s.site_tile[x]].id)
                         if s.site_tile[x] >= 0 else M("{site} free", site=C.sites[x].id))
        if s.site_owner[x] >= 0:
            site = M("{a} {b}", a=site, b=_side(s, s.site_owner[x]))
        if s.site_cube[x]:
            site = M("{site} +cube", site=site)
        sites.append(site)
    key = ("{market} {colour}: {rewards} (scored) | {sites}" if s.market_done[k]
           else "{market} {colour}: {rewards} | {sites}")
    return M(key, market=m.id, colour=term(MARKET_COLOURS[m.colour]), rewards=rewards,
             sites=tuple(sites))


def _json(line: Message | str) -> dict[str, Any]:
    return message_json(line)


def player_view(s: PragaState, player: int | None) -> dict[str, Any]:
    """Everything seat ``player`` (None: a spectator) may know, as JSON-ready data: short
    readable lines (each a message, ``{"key", "args"}``, rendered from the catalogues by
    every client), the designed sections every client reads (``options``, ``sides``,
    ``pending``, ``board``: view_sections.py, docs/schemas/praga-view.json), and
    ``state``, the bot-only public state that ``sample_hidden`` re-deals from."""
    public = _public(s, _PUBLIC_SLOTS if s.bots is not None else _PUBLIC_NO_BOTS)
    public["log"] = log_json(s.log, player)  # the entries this seat may read
    counts = {"stacks": [len(x) for x in s.stacks],
              "tech_stacks": [len(x) for x in s.tech_stacks],
              "iv_stack": len(s.iv_stack), "v_pile": len(s.v_pile),
              "cat_pile": len(s.cat_pile), "unused": len(s.unused)}
    top = s.stack[-1] if s.stack else None
    over = s.final is not None
    stack = _stack_for(s, player)
    public["stack"] = [d.to_plain() for d in stack]
    names = [side_name(s, p) for p in range(s.players + len(s.bots or ()))]
    view: dict[str, Any] = {
        "game": "praga",
        "seat": player,
        "players": s.players,
        "to_move": None if top is None else top.seat,
        "decision": None if top is None else top.name,
        "turn_of": side_name(s, s.seat),
        "turn": M("{n} of {m}", n=min(s.turns + 1, 16 * s.players),
                  m=16 * s.players).to_json(),
        "era": "I" if s.era == 1 else "II",
        "platform": _json(term("on the hourglass: the game is over") if over
                          else M("space {n} of {m}", n=s.platform,
                                 m=C.crane.platform_spaces - 1)),
        "this_turn": _json(term("the game is over: final scoring done") if over
                           else _this_turn(s)),
        "over": over,
        "seats": [_json(_seat_line(s, p)) for p in range(s.players)],
        "crane": [_json(line) for line in _crane(s)],
        "rows": {ROW_NAMES[r]: [_json(tile_message(r, t)) for t in s.rows[r]]
                 for r in range(3)},
        "markets": [_json(_market_line(s, k)) for k in range(len(C.markets))],
        "bridge": [_json(M("plank {k}: {rewards}: {tile}", k=k + 1, rewards=joined(
            [reward_message(r) for r in s.planks[k]], "{a} | {b}"),
            tile=C.bridge_tiles[t].id if t >= 0 else term("free")))
            for k, t in enumerate(s.bridge)],
        "seals": [_json(M("{seal} ({effect} {vp}, cost {cost}): {owner}", seal=C.seals[k].id,
                          effect=term(SEAL_EFFECTS[C.seals[k].effect]), vp=C.seals[k].vp,
                          cost=_cost_message(C.seals[k].cost),
                          owner=term("free") if o < 0 else _side(s, o)))
                  for k, o in enumerate(s.seal_owner)],
        "river": [_json(M("{token} {reward}", token=C.production_tokens[t].id,
                          reward=reward_message(C.production_tokens[t].gain)))
                  for t in s.river],
        "face_down": counts,
        "options": {name: getattr(s.opts, name) for name in s.opts.__slots__},
        "sides": names,
        "pending": view_sections.pending(stack[-1] if stack else None),
        "board": view_sections.board(s, names),
        "log": public["log"],  # the whole game: "since your last turn" needs every line
        "state": public | {"hidden_counts": counts},
    }
    if s.bots is not None:
        view["bots"] = [_json(line) for line in _bot_lines(s)]
    if s.final is not None:
        view["final"] = _final(s)
    return view


def player_views(s: PragaState, seats: Iterable[int | None],
                 memo: dict[Any, Any] | None = None) -> dict[int | None, dict[str, Any]]:
    """``player_view`` for each of ``seats``, for a server pushing one state to them all
    (``memo`` is accepted for the server's interface and not used).

    Seats differ only in ``seat``, in what the decision stack shows them of the
    technologies or bridge tiles a seat draws in private (``pending``, ``state.stack``)
    and in log entries addressed to some seats, so the view is built once; the others
    share every other member with it (read-only; equal to separate ``player_view``
    calls)."""
    out: dict[int | None, dict[str, Any]] = {}
    base: dict[str, Any] | None = None
    private = any(d.hides for d in s.stack)
    addressed = any(getattr(m, "to", None) is not None for m in s.log)
    for seat in seats:
        if seat in out:
            continue
        if base is None:
            base = out[seat] = player_view(s, seat)
            continue
        view = dict(base)
        view["seat"] = seat
        if private or addressed:
            view["state"] = dict(base["state"])
        if private:
            stack = _stack_for(s, seat)
            view["pending"] = view_sections.pending(stack[-1] if stack else None)
            view["state"]["stack"] = [d.to_plain() for d in stack]
        if addressed:  # log entries addressed to some seats only
            view["state"]["log"] = log_json(s.log, seat)
            view["log"] = view["state"]["log"]
        out[seat] = view
    return out


def _final(s: PragaState) -> dict[str, Any]:
    """Final scores: ``vp`` and ``breakdown`` (per seat, in ``categories`` order), the
    same by name (``by_category``, ``seats``) and the ranking by colour (P-SCORE-1..9)."""
    assert s.final is not None
    vp, parts = s.final
    ranking = scoring.tie_break_order(list(vp))
    return {
        "vp": list(vp),
        "breakdown": [list(p) for p in parts],
        "categories": list(CATEGORIES),
        "by_category": [dict(zip(CATEGORIES, p, strict=True)) for p in parts],
        "seats": [{"seat": p, "name": side_name(s, p), "total": vp[p],
                   **dict(zip(CATEGORIES, parts[p], strict=True))}
                  for p in range(s.players)],
        "ranking": [[side_name(s, p) for p in group] for group in ranking],
        "winners": [side_name(s, p) for p in ranking[0]],
        **_solo_final(s),
    }


def _solo_final(s: PragaState) -> dict[str, Any]:
    """Solo games: the score against the 140-VP benchmark (P-SOLO-4, P.1)."""
    if s.opts.solo_opponent == "none":
        return {}
    result = outcome(s)
    assert result is not None
    keep = ("solo_opponent", "benchmark", "results", "result", "titles")
    return {k: v for k, v in result.details.items() if k in keep}


def sample_hidden(view: dict[str, Any], rng: Rng) -> PragaState:
    """A full state consistent with ``view``: the public fields plus the hidden stacks
    re-dealt from the bot's own generator and a fresh PRNG state."""
    data = dict(view["state"])
    counts = data.pop("hidden_counts")
    data["rng"] = rng.next_u64()
    stack = [decision_from_plain(d) for d in data["stack"]]
    # technologies not seen anywhere
    seen_tech = {t for techs in data["techs"] for t in techs}
    for d in stack:
        if isinstance(d, D.TechDraw):
            seen_tech |= {t for t in d.drawn if t >= 0}
    tech_pool = [[i for i, t in enumerate(C.technologies)
                  if t.level == level and i not in seen_tech] for level in (1, 2, 3, 4)]
    for pool in tech_pool:
        rng.shuffle(pool)
    for k, d in enumerate(stack):
        if isinstance(d, D.TechDraw) and d.drawn and d.drawn[0] < 0:
            stack[k] = D.TechDraw(d.seat, tuple(tech_pool[d.level].pop() for _ in d.drawn),
                                  d.level)
    data["tech_stacks"] = [pool[:n] for pool, n in zip(tech_pool, counts["tech_stacks"],
                                                       strict=True)]
    # bridge tiles
    on_bridge = {t for t in data["bridge"] if t >= 0}
    owned_v = {t for t in (*data["v_tile"], *data["cat_tile"]) if t >= 0}
    iv_seen = set(on_bridge)
    v_seen = set(owned_v) | on_bridge
    shown_v: list[int] = []  # the V pile, seen by the seat choosing from it
    for d in stack:
        if isinstance(d, D.BridgeTile) and d.pile == 0:
            iv_seen.update(t for t in d.tiles if t >= 0)
        elif isinstance(d, D.BridgeTile) and d.tiles and d.tiles[0] >= 0:
            shown_v = list(d.tiles)
    v_seen |= set(shown_v)
    iv_pool = [i for i, t in enumerate(C.bridge_tiles) if not t.is_v and i not in iv_seen]
    v_pool = [i for i, t in enumerate(C.bridge_tiles) if t.is_v and i not in v_seen]
    rng.shuffle(iv_pool)
    rng.shuffle(v_pool)
    for k, d in enumerate(stack):
        if (isinstance(d, D.BridgeTile) and d.tiles and d.tiles[0] < 0
                and d.pile == 0):
            stack[k] = D.BridgeTile(d.seat, tuple(iv_pool.pop() for _ in d.tiles), 0)
    data["iv_stack"] = iv_pool[:counts["iv_stack"]]
    if shown_v:
        v_pile = shown_v
    else:
        v_pile = v_pool[:counts["v_pile"]]
        v_pool = v_pool[counts["v_pile"]:]
    for k, d in enumerate(stack):
        if isinstance(d, D.BridgeTile) and d.pile == 1:
            stack[k] = D.BridgeTile(d.seat, tuple(sorted(v_pile)), 1)
    data["v_pile"] = sorted(v_pile)
    data["cat_pile"] = sorted(v_pool[:counts["cat_pile"]])
    # hex tiles
    seen: set[tuple[int, int]] = set()
    for r, tiles in enumerate(data["rows"]):
        seen |= {(r, t) for t in tiles if t >= 0}
    seen |= {(0, t) for t in data["site_tile"] if t >= 0}
    for seat_walls in data["walls"]:
        seen |= {(1, c // 6) for c in seat_walls if c >= 0}
    for seat_upg in data["upg"]:
        seen |= {(2, c // 6) for st in seat_upg for c in st}
    for d in stack:  # tiles taken and not yet placed (Parler's building in hand too)
        seen.update(d.held_tiles())
    stacks = []
    k = 0
    for era in (1, 2):
        for r in range(3):
            for special in (False, True):
                pool = [i for i, (e, sp) in enumerate(_TILE_KINDS[r]) if e == era
                        and sp == special and (r, i) not in seen]
                rng.shuffle(pool)
                stacks.append(pool[:counts["stacks"][k]])
                k += 1
    data["stacks"] = stacks
    on_board = {t for t in data["market_tile"] if t >= 0}
    data["unused"] = [i for i in range(len(C.market_tiles)) if i not in on_board]
    data["stack"] = [d.to_plain() for d in stack]
    return PragaState.from_dict(data)
