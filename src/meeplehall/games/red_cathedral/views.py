"""Player views (built by whitelist) and ``sample_hidden`` for AI determinisation.

The Red Cathedral has no private hands: every seat sees the same table. Hidden are the
PRNG state (future dice, Ivan's reshuffles) and the components that left the game
unseen (unused Cathedral cards, Workshop tiles, Influence cards). Clients read the named
sections (market, influence, cathedral, supply, sides, ivan, turn, pending;
docs/schemas/red-cathedral-view.json); ``state`` is the bot-only public part of the
state, from which a bot rebuilds a full state with ``sample_hidden``.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import is_
from typing import TYPE_CHECKING, Any

from meeplehall.core.messages import M, Message, log_json, logs_json, term
from meeplehall.core.plain import to_plain
from meeplehall.core.rng import Rng
from meeplehall.games.red_cathedral import view_sections
from meeplehall.games.red_cathedral.components import (
    CARD_KINDS,
    COLOURS,
    IVAN_CARDS,
    MATERIALS,
    ORNAMENTS,
    RESOURCES,
    WS_POSITIONS,
    load,
)
from meeplehall.games.red_cathedral.scoring import track
from meeplehall.games.red_cathedral.state import Options, RCState

if TYPE_CHECKING:
    from meeplehall.games.red_cathedral.decisions import Decision

C = load()

# Whitelist: the state fields any seat may know. A new field stays hidden until added.
PUBLIC_FIELDS: tuple[str, ...] = (
    "opts", "players", "sides", "solo", "plan", "card_of", "slot_tower", "slot_level",
    "towers", "influence", "ivan_order",
    "tiles", "die_pos", "die_val", "supply", "owner", "delivered", "done", "orn", "ws_tile",
    "rubles", "inv", "inv_banners", "out_banners", "ws", "orn_avail", "orn_placed",
    "completed", "score", "stack", "side", "main_done", "sell_state", "reroll_used",
    "moved_die", "dest", "mk_used", "act_used", "end_trigger", "bonus_given", "turns",
    "final", "iv_tiles", "iv_up", "iv_banners", "iv_orn", "iv_inv", "iv_build", "iv_next",
)  # the log is public too: it travels once, as view["log"]


def side_name(s: RCState, side: int) -> str:
    return "Ivan" if s.solo and side == 1 else C.colours[side]


def tile_message(tile: int) -> Message:
    """A Workshop tile's benefit, as a message."""
    wt = C.tiles[tile]
    if wt.die >= 0:
        return M("what lies beside the {colour} die", colour=term(COLOURS[wt.die]))
    return M("{n} {resource}", n=wt.amount, resource=term(RESOURCES[wt.resource]))


def tile_text(tile: int) -> str:
    wt = C.tiles[tile]
    if wt.die >= 0:
        return f"what lies beside the {COLOURS[wt.die]} die"
    return f"{wt.amount} {RESOURCES[wt.resource]}"


# -- player_view --------------------------------------------------------------------------
# Built field by field from tables worked out once per process (the components never
# change): this runs for every seat and spectator after every move on the server. The
# output is exactly that of the generic version (``state_to_plain`` of PUBLIC_FIELDS plus
# the readable parts), which tests/games/red_cathedral/test_views.py keeps as a frozen
# reference and compares with, key order and types included. Each ``player_view`` call
# returns fresh containers, shared with no other view and not with these tables (a bot may
# change its copy); ``player_views`` shares them between the seats of one state. There is
# one way of building a view: with the server's memo, or with a fresh, empty one (then
# every part is new; the keys cost ``player_view`` about 40 us, 60 -> 100 us a call).

_NAMES = tuple(C.colours)
_NAMES_SOLO = tuple("Ivan" if i == 1 else n for i, n in enumerate(C.colours))
# per Resource tile: (id, resource name, amount)
_RESOURCE_TILES = tuple((rt.id, RESOURCES[rt.resource], rt.amount) for rt in C.resource_tiles)
# per Cathedral card: (id, kind name, cost items, rp, rubles, ornament type)
_CARDS = tuple(
    (cd.id, CARD_KINDS[cd.kind], tuple((MATERIALS[m], n) for m, n in enumerate(cd.cost) if n),
     cd.rp, cd.rubles, ORNAMENTS[cd.kind])
    for cd in C.cards)
# per Influence card: (id, ((rule, mark, effect, text in words), ...))
_INFLUENCE = tuple(
    (ic.id, tuple((a.rule, "repeat" if a.repeat else "once", a.effect, a.text) for a in ic.actions))
    for ic in C.influence)
# per Workshop tile: (id, benefit text)
_TILES = tuple((wt.id, tile_text(i)) for i, wt in enumerate(C.tiles))
_DIE_OF_TILE = tuple(COLOURS[wt.die] for wt in C.tiles)
_LOCKED = tuple(ORNAMENTS[o] if o >= 0 else None for o in C.advanced_ornaments)
_NEXT_ORNAMENT = tuple(ORNAMENTS[k] for k in (0, 1, 1, 2))
_CAPACITY = C.free_spaces + C.banners_in_inventory
_MATERIAL_NAMES = MATERIALS
_OPTIONS: dict[int, tuple[Options, dict[str, Any]]] = {}  # id(opts) -> (opts, to_params())


def _params(opts: Options) -> dict[str, Any]:
    """``opts.to_params()``, a fresh dict, worked out once per options object."""
    hit = _OPTIONS.get(id(opts))
    if hit is None or hit[0] is not opts:
        if len(_OPTIONS) >= 4096:
            _OPTIONS.clear()
        hit = _OPTIONS[id(opts)] = (opts, opts.to_params())
    return dict(hit[1])


_COUNTS: dict[tuple[int, ...], tuple[tuple[str, int], ...]] = {}


def _counts(counts: tuple[int, ...]) -> dict[str, int]:
    """The non-zero counts of a tuple of Materials, by material name (a fresh dict)."""
    try:
        items = _COUNTS.get(counts)
    except TypeError:  # a list (a state built by hand): the same counts as a tuple
        counts = tuple(counts)
        items = _COUNTS.get(counts)
    if items is None:
        if len(_COUNTS) >= 65536:
            _COUNTS.clear()
        items = _COUNTS[counts] = tuple(
            (_MATERIAL_NAMES[m], n) for m, n in enumerate(counts) if n)
    return dict(items)


def _plain_stack(stack: list[Decision]) -> list[Any]:
    """The stack's JSON form, as ``RCState.to_dict`` writes it."""
    return [d.to_plain() for d in stack]


def _public(s: RCState, opts: dict[str, Any], k: dict[str, Any]) -> dict[str, Any]:
    """``state_to_plain(s, PUBLIC_FIELDS)``, field by field (tuples become lists), with
    the list fields, the stack and ``final`` made plain already in ``k`` (see
    ``_public_kept``)."""
    return {
        "opts": opts, "players": s.players, "sides": s.sides, "solo": s.solo,
        "plan": s.plan, "card_of": k["card_of"], "slot_tower": k["slot_tower"],
        "slot_level": k["slot_level"], "towers": k["towers"],
        "influence": k["influence"], "ivan_order": k["ivan_order"],
        "tiles": k["tiles"], "die_pos": k["die_pos"], "die_val": k["die_val"],
        "supply": k["supply"], "owner": k["owner"], "delivered": k["delivered"],
        "done": k["done"], "orn": k["orn"], "ws_tile": k["ws_tile"],
        "rubles": k["rubles"], "inv": k["inv"], "inv_banners": k["inv_banners"],
        "out_banners": k["out_banners"], "ws": k["ws"], "orn_avail": k["orn_avail"],
        "orn_placed": k["orn_placed"], "completed": k["completed"],
        "score": k["score"], "stack": k["stack"], "side": s.side,
        "main_done": s.main_done, "sell_state": s.sell_state,
        "reroll_used": s.reroll_used, "moved_die": s.moved_die, "dest": s.dest,
        "mk_used": s.mk_used, "act_used": s.act_used, "end_trigger": s.end_trigger,
        "bonus_given": s.bonus_given, "turns": s.turns, "final": k["final"],
        "iv_tiles": k["iv_tiles"], "iv_up": k["iv_up"], "iv_banners": s.iv_banners,
        "iv_orn": s.iv_orn, "iv_inv": k["iv_inv"], "iv_build": k["iv_build"],
        "iv_next": s.iv_next,
    }


def _workshop_fast(board: Any, advanced: bool) -> list[dict[str, Any]]:
    out = []
    for pos, value in enumerate(board):
        if value >= 0:
            tile_id, benefit = _TILES[value >> 1]
            entry: dict[str, Any] = {"position": WS_POSITIONS[pos], "tile": tile_id,
                                     "face_up": bool(value & 1), "benefit": benefit}
        elif value == -2:
            entry = {"position": WS_POSITIONS[pos], "banner": True}
        else:
            entry = {"position": WS_POSITIONS[pos]}
            if advanced and value == -1 and _LOCKED[pos] is not None:
                entry["locked_ornament"] = _LOCKED[pos]
        out.append(entry)
    return out


Memo = dict[Any, tuple[Any, Any]]


def _keep(memo: Memo, name: Any, key: Any, build: Any, *args: Any) -> Any:
    """``build(*args)``, or the object built for ``name`` last time if its ``key`` (the
    inputs it was built from) is equal: then the new view holds the very same object."""
    hit = memo.get(name)
    if hit is not None and (hit[0] is key or hit[0] == key):
        return hit[1]
    value = build(*args)
    memo[name] = (key, value)
    return value


def _keep_list(memo: Memo, name: Any, items: list[Any]) -> list[Any]:
    """``items``, or the list kept for ``name`` last time if it holds the same objects."""
    hit = memo.get(name)
    if hit is not None:
        kept = hit[1]
        if len(kept) == len(items) and all(map(is_, kept, items)):
            return kept  # type: ignore[no-any-return]
    memo[name] = (None, items)
    return items


def _market(tiles: Any, die_pos: Any, die_val: Any) -> list[dict[str, Any]]:
    dice: list[list[dict[str, Any]]] = [[], [], [], [], [], [], [], []]
    for d in range(5):
        sp = die_pos[d]
        if 0 <= sp < 8:
            dice[sp].append({"colour": COLOURS[d], "value": die_val[d]})
    market = []
    for sp in range(8):
        tile_id, resource, amount = _RESOURCE_TILES[tiles[sp]]
        market.append({"space": sp, "quadrant": sp // 2,
                       "tile": {"id": tile_id, "resource": resource, "amount": amount},
                       "dice": dice[sp]})
    return market


def _market_kept(memo: Memo, tiles: Any, die_pos: Any, die_val: Any
                 ) -> list[dict[str, Any]]:
    """``_market``, each space kept from the last build where its tile and dice are the
    same (a move changes one or two spaces: the diff then skips the others by identity)."""
    spaces = []
    for sp, space in enumerate(_market(tiles, die_pos, die_val)):
        spaces.append(_keep(memo, ("market", sp), space, _same_space, space))
    return _keep_list(memo, "market-spaces", spaces)


def _same_space(space: dict[str, Any]) -> dict[str, Any]:
    return space


def _slot(names: tuple[str, ...], slot: int, card: int, o: int, delivered: Any, done: Any,
          w: int, tile: int) -> dict[str, Any]:
    card_id, kind, cost, rp, rubles, ornament = _CARDS[card]
    return {
        "slot": slot, "card": card_id, "kind": kind, "cost": dict(cost),
        "rp": rp, "rubles": rubles, "owner": None if o < 0 else names[o],
        "delivered": _counts(delivered), "completed": done,
        "ornament": None if w < 0 else {"type": ornament, "owner": names[w]},
        "workshop_tile": None if tile < 0 else {
            "id": _TILES[tile][0], "benefit": _TILES[tile][1]}}


def _side(s: RCState, side: int, names: tuple[str, ...], advanced: bool) -> dict[str, Any]:
    t = track()
    score = s.score[side]
    entry: dict[str, Any] = {
        "side": side, "name": names[side], "recognition": score, "prestige": t.pp(score),
        "lap": max(0, score) // t.lap, "completed": s.completed[side],
        "ornaments_placed": s.orn_placed[side]}
    if not (s.solo and side == 1):
        banners = s.inv_banners[side]
        entry["rubles"] = s.rubles[side]
        entry["inventory"] = _counts(s.inv[side])
        entry["capacity"] = _CAPACITY - banners
        entry["banners_in_inventory"] = banners
        entry["banners_outside"] = s.out_banners[side]
        entry["workshop"] = _workshop_fast(s.ws[side], advanced)
        entry["ornaments_available"] = dict(zip(ORNAMENTS, s.orn_avail[side], strict=True))
    return entry


def _side_key(s: RCState, side: int) -> tuple[int | tuple[int, ...], ...]:
    """What ``_side`` reads of the state (for ``_keep``)."""
    if s.solo and side == 1:
        return (s.score[side], s.completed[side], s.orn_placed[side])
    return (s.score[side], s.completed[side], s.orn_placed[side], s.inv_banners[side],
            s.rubles[side], s.inv[side], s.out_banners[side], s.ws[side],
            s.orn_avail[side])


def _influence(influence: Any) -> list[dict[str, Any]]:
    return [{"quadrant": q, "card": _INFLUENCE[c][0],
             "actions": [{"rule": rule, "mark": mark, "effect": effect, "text": text}
                         for rule, mark, effect, text in _INFLUENCE[c][1]]}
            for q, c in enumerate(influence)]


def _ivan(s: RCState) -> dict[str, Any]:
    return {
        "row": [{"card": IVAN_CARDS[c], "die": _DIE_OF_TILE[s.iv_tiles[i]],
                 "face_up": s.iv_up[i]} for i, c in enumerate(s.ivan_order)],
        "banners": s.iv_banners,
        "next_ornament": _NEXT_ORNAMENT[s.iv_orn] if s.iv_orn < 4 else None,
        "inventory_card": _counts(s.iv_inv), "build_card": _counts(s.iv_build),
        **view_sections.ivan_progress(s)}


def _list(value: Any) -> list[Any]:
    return list(value)


def _lists(value: Any) -> list[list[Any]]:
    return [list(t) for t in value]


# _public's list fields, and how each is made plain (for the memoised build).
_PUBLIC_LISTS: tuple[tuple[str, Any], ...] = tuple(
    (name, _lists if name in ("towers", "delivered", "inv", "ws", "orn_avail") else _list)
    for name in ("card_of", "slot_tower", "slot_level", "towers", "influence", "ivan_order",
                 "tiles", "die_pos", "die_val", "supply", "owner", "delivered", "done",
                 "orn", "ws_tile", "rubles", "inv", "inv_banners", "out_banners", "ws",
                 "orn_avail", "orn_placed", "completed", "score", "iv_tiles", "iv_up",
                 "iv_inv", "iv_build"))


def _public_kept(s: RCState, memo: Memo) -> dict[str, Any]:
    """``_public``, each member kept from the last build where its field is unchanged."""
    kept = {}
    for name, plain in _PUBLIC_LISTS:
        value = getattr(s, name)
        kept[name] = _keep(memo, ("state", name), tuple(value), plain, value)
    kept["stack"] = _keep(memo, ("state", "stack"), tuple(s.stack), _plain_stack, s.stack)
    final = s.final
    kept["final"] = None if final is None else _keep(memo, ("state", "final"), final,
                                                     to_plain, final)
    return _public(s, _keep(memo, ("state", "opts"), s.opts, _params, s.opts), kept)


def _view(s: RCState, player: int | None, memo: Memo | None = None,
          log: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    names = _NAMES_SOLO if s.solo else _NAMES
    top = s.stack[-1] if s.stack else None
    advanced = s.opts.advanced_workshops
    card_of, owner, delivered, done, orn, ws_tile = (
        s.card_of, s.owner, s.delivered, s.done, s.orn, s.ws_tile)
    if memo is None:  # a fresh view: nothing kept from an earlier one
        memo = {}
    options = _keep(memo, "options", s.opts, _params, s.opts)
    market = _keep(memo, "market", (tuple(s.tiles), tuple(s.die_pos), tuple(s.die_val)),
                   _market_kept, memo, s.tiles, s.die_pos, s.die_val)
    columns = []
    for t, tower in enumerate(s.towers):
        column = []
        for slot in tower:
            args = (names, slot, card_of[slot], owner[slot], delivered[slot],
                    done[slot], orn[slot], ws_tile[slot])
            column.append(_keep(memo, ("slot", slot), args, _slot, *args))
        columns.append(_keep_list(memo, ("tower", t), column))
    cathedral = _keep_list(memo, "cathedral", columns)
    sides = _keep_list(memo, "sides", [
        _keep(memo, ("side", side), (names, advanced, _side_key(s, side)), _side, s,
              side, names, advanced) for side in range(s.sides)])
    influence = _keep(memo, "influence", tuple(s.influence), _influence, s.influence)
    supply = _keep(memo, "supply", tuple(s.supply), _counts, tuple(s.supply))
    public = _public_kept(s, memo)
    ivan = None if not s.solo else _keep(
        memo, "ivan", (tuple(s.iv_tiles), tuple(s.iv_up), tuple(s.ivan_order),
                       s.iv_banners, s.iv_orn, tuple(s.iv_inv), tuple(s.iv_build),
                       s.iv_next),
        _ivan, s)
    view: dict[str, Any] = {
        "game": "red-cathedral",
        "seat": player,
        "players": s.players,
        "solo": s.solo,
        "options": options,
        "plan": s.plan,
        "to_move": None if top is None else top.seat,
        "decision": None if top is None else top.kind,
        "turn_of": names[s.side],
        "end_triggered_by": None if s.end_trigger < 0 else names[s.end_trigger],
        "market": market,
        "influence": influence,
        "cathedral": cathedral,
        "supply": supply,
        "sides": sides,
        "turn": view_sections.turn(s),
        "pending": view_sections.pending(s),
        "log": log_json(s.log, player) if log is None else log,
        "state": public,
    }
    if ivan is not None:
        view["ivan"] = ivan
    if s.final is not None:
        view["final"] = {"prestige": list(s.final[0]),
                         "breakdown": [list(p) for p in s.final[1]]}
    return view


def player_view(s: RCState, player: int | None) -> dict[str, Any]:
    """Everything seat ``player`` (None: a spectator) may know, as JSON-ready data."""
    return _view(s, player)


def player_views(s: RCState, seats: Iterable[int | None],
                 memo: Memo | None = None) -> dict[int | None, dict[str, Any]]:
    """``player_view`` for each of ``seats``, for a server pushing one state to them all.

    Every seat sees the same table, so the view is built once and the views of the other
    seats differ only in ``"seat"`` (and in ``"log"`` when an entry is addressed to some
    seats only): they share every other member (read-only; equal, key
    order included, to separate ``player_view`` calls).

    ``memo``: a dict the caller keeps for one table from call to call (empty at first).
    With it, each part of the view whose inputs did not change since the last call is the
    very object the last call returned, so a diff between the two views skips it at once
    and the server keeps fewer objects alive. Those parts are shared with earlier views:
    read-only, like the views themselves."""
    out: dict[int | None, dict[str, Any]] = {}
    base: dict[str, Any] | None = None
    seats = list(seats)
    # With a memo, each seat's log list extends the last call's (see logs_json).
    logs = None if memo is None else logs_json(s.log, seats, memo)
    for seat in seats:
        if seat in out:
            continue
        if base is None:
            base = out[seat] = _view(s, seat, memo, None if logs is None else logs[seat])
        else:
            view = dict(base)
            view["seat"] = seat
            if logs is not None:
                view["log"] = logs[seat]  # base's own list when the entries are the same
            elif any(m.to is not None for m in s.log):  # entries for some seats only
                view["log"] = log_json(s.log, seat)
            out[seat] = view
    return out


def reveals(before: RCState, action: Any, after: RCState) -> bool:
    """Whether the move showed any seat something it could not see before. The only
    hidden things that ever come to light are drawn from the PRNG: dice rolled
    (RC-MARKET), Ivan's tile reshuffles (RC-IVAN-0). The components left out at setup
    are never shown. It is the undo barrier of the server and of the terminal client."""
    return bool(before.rng.state != after.rng.state)


def sample_hidden(view: dict[str, Any], rng: Rng) -> RCState:
    """A full state consistent with ``view``: the public fields plus a fresh PRNG state
    from the bot's own generator and the unseen components, dealt at random."""
    data = dict(view["state"])
    data["log"] = list(view["log"])
    data["rng"] = rng.next_u64()
    on_table = set(data["card_of"])
    cards = [i for i in range(len(C.cards)) if i not in on_table]
    seen_tiles = {t for t in data["ws_tile"] if t >= 0} | set(data["iv_tiles"])
    for board in data["ws"]:
        seen_tiles |= {v >> 1 for v in board if v >= 0}
    tiles = [i for i in range(len(C.tiles)) if i not in seen_tiles]
    influence = [i for i in range(len(C.influence)) if i not in set(data["influence"])]
    rng.shuffle(tiles)
    data["unused"] = [sorted(cards), sorted(tiles), sorted(influence)]
    return RCState.from_dict(data)
