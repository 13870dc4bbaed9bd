"""Player views (built by whitelist) and ``sample_hidden`` for AI determinisation.

The Red Cathedral has no private hands: every seat sees the same table. Hidden are the
PRNG state (future dice, Ivan's reshuffles) and the components that left the game
unseen (unused Cathedral cards, Workshop tiles, Influence cards). A view carries the
public part of the state, so a bot can rebuild a full state with ``sample_hidden``.
"""

from __future__ import annotations

from typing import Any

from meeplehall.core.plain import state_to_plain
from meeplehall.core.rng import Rng
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
from meeplehall.games.red_cathedral.state import DECISION_NAMES, RCState

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


def _mats(counts: tuple[int, ...]) -> dict[str, int]:
    return {MATERIALS[m]: n for m, n in enumerate(counts) if n}


def side_name(s: RCState, side: int) -> str:
    return "Ivan" if s.solo and side == 1 else C.colours[side]


def _workshop(s: RCState, side: int) -> list[dict[str, Any]]:
    out = []
    for pos, value in enumerate(s.ws[side]):
        entry: dict[str, Any] = {"position": WS_POSITIONS[pos]}
        if value == -2:
            entry["banner"] = True
        elif value >= 0:
            tile = C.tiles[value >> 1]
            entry["tile"] = tile.id
            entry["face_up"] = bool(value & 1)
            entry["benefit"] = tile_text(value >> 1)
        if s.opts.advanced_workshops and C.advanced_ornaments[pos] >= 0 and value == -1:
            entry["locked_ornament"] = ORNAMENTS[C.advanced_ornaments[pos]]
        out.append(entry)
    return out


def tile_text(tile: int) -> str:
    wt = C.tiles[tile]
    if wt.die >= 0:
        return f"what lies beside the {COLOURS[wt.die]} die"
    return f"{wt.amount} {RESOURCES[wt.resource]}"


def player_view(s: RCState, player: int | None) -> dict[str, Any]:
    """Everything seat ``player`` (None: a spectator) may know, as JSON-ready data."""
    t = track()
    public = state_to_plain(s, PUBLIC_FIELDS)
    top = s.stack[-1] if s.stack else None
    view: dict[str, Any] = {
        "game": "red-cathedral",
        "seat": player,
        "players": s.players,
        "solo": s.solo,
        "options": s.opts.to_params(),
        "plan": s.plan,
        "to_move": None if top is None else top[1],
        "decision": None if top is None else DECISION_NAMES[top[0]],
        "turn_of": side_name(s, s.side),
        "end_triggered_by": None if s.end_trigger < 0 else side_name(s, s.end_trigger),
        "market": [
            {"space": sp, "quadrant": sp // 2,
             "tile": {"id": C.resource_tiles[s.tiles[sp]].id,
                      "resource": RESOURCES[C.resource_tiles[s.tiles[sp]].resource],
                      "amount": C.resource_tiles[s.tiles[sp]].amount},
             "dice": [{"colour": COLOURS[d], "value": s.die_val[d]}
                      for d in range(5) if s.die_pos[d] == sp]}
            for sp in range(8)],
        "influence": [
            {"quadrant": q, "card": C.influence[c].id,
             "actions": [{"rule": a.rule, "mark": "repeat" if a.repeat else "once",
                          "effect": a.effect} for a in C.influence[c].actions]}
            for q, c in enumerate(s.influence)],
        "cathedral": [
            [{"slot": slot, "card": C.cards[s.card_of[slot]].id,
              "kind": CARD_KINDS[C.cards[s.card_of[slot]].kind],
              "cost": _mats(C.cards[s.card_of[slot]].cost),
              "rp": C.cards[s.card_of[slot]].rp, "rubles": C.cards[s.card_of[slot]].rubles,
              "owner": None if s.owner[slot] < 0 else side_name(s, s.owner[slot]),
              "delivered": _mats(s.delivered[slot]), "completed": s.done[slot],
              "ornament": None if s.orn[slot] < 0 else {
                  "type": ORNAMENTS[C.cards[s.card_of[slot]].kind],
                  "owner": side_name(s, s.orn[slot])},
              "workshop_tile": None if s.ws_tile[slot] < 0 else {
                  "id": C.tiles[s.ws_tile[slot]].id, "benefit": tile_text(s.ws_tile[slot])}}
             for slot in tower]
            for tower in s.towers],
        "supply": _mats(tuple(s.supply)),
        "sides": [
            {"side": side, "name": side_name(s, side),
             "recognition": s.score[side], "prestige": t.pp(s.score[side]),
             "lap": max(0, s.score[side]) // t.lap,
             "completed": s.completed[side], "ornaments_placed": s.orn_placed[side]}
            | ({} if s.solo and side == 1 else {
                "rubles": s.rubles[side], "inventory": _mats(s.inv[side]),
                "capacity": C.free_spaces + C.banners_in_inventory - s.inv_banners[side],
                "banners_in_inventory": s.inv_banners[side],
                "banners_outside": s.out_banners[side],
                "workshop": _workshop(s, side),
                "ornaments_available": dict(zip(ORNAMENTS, s.orn_avail[side], strict=True))})
            for side in range(s.sides)],
        "log": list(s.log),
        "state": public,
    }
    if s.solo:
        view["ivan"] = {
            "row": [{"card": IVAN_CARDS[c], "die": COLOURS[C.tiles[s.iv_tiles[i]].die],
                     "face_up": s.iv_up[i]} for i, c in enumerate(s.ivan_order)],
            "banners": s.iv_banners,
            "next_ornament": ORNAMENTS[(0, 1, 1, 2)[s.iv_orn]] if s.iv_orn < 4 else None,
            "inventory_card": _mats(s.iv_inv), "build_card": _mats(s.iv_build)}
    if s.final is not None:
        view["final"] = {"prestige": list(s.final[0]),
                         "breakdown": [list(p) for p in s.final[1]]}
    return view


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
