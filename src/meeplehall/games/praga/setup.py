"""Options and ``initial_state(params, seed)`` (§2: P-SETUP-1..26, §15 variants, the
engine decisions of §16.3 and the readings of §19)."""

from __future__ import annotations

from meeplehall.core.messages import M, term
from meeplehall.core.protocol import Option, Params, validate_params
from meeplehall.core.rng import Rng
from meeplehall.games.praga import crane as K
from meeplehall.games.praga import decisions as D
from meeplehall.games.praga.actions_family import deal_rows
from meeplehall.games.praga.components import TIER_SETS, load
from meeplehall.games.praga.effects import grid_data
from meeplehall.games.praga.parler import setup_parler
from meeplehall.games.praga.state import Options, PragaState
from meeplehall.games.praga.turn import reset_turn

C = load()
ROAD_TILE_SPACES = ("I+II+III", "I", "II", "III", "I+II", "I+III", "II+III")
NUMERALS = ("I", "II", "III")

OPTIONS: tuple[Option, ...] = (
    Option("players", "int", 2,
           "number of seats (people); 1 is a solo game against the engine's opponent",
           minimum=1, maximum=4, rule="P-SETUP-17"),
    Option("action_side", "choice", "A",
           "side of the 6 action tiles: 'A' standard, 'B' less symmetric (never mixed)",
           choices=("A", "B"), rule="P-VAR-1"),
    Option("tile_arrangement", "choice", "random",
           "'random' order of the action tiles on the crane (later games) or the "
           "'first-game' order of the data file", choices=("random", "first-game"),
           rule="P-SETUP-14"),
    Option("road_tiles", "bool", False,
           "cover the free King's Road effects with the 3 King's Road tiles",
           rule="P-VAR-2"),
    Option("road_tile_spaces", "choice", "I+II+III",
           "with road_tiles: which of the 3 King's Road tiles are used (any subset)",
           choices=ROAD_TILE_SPACES, rule="P-VAR-2"),
    Option("hunger_wall_tiers", "choice", "standard", "Hunger Wall level tiles",
           choices=TIER_SETS, rule="P-VAR-3"),
    Option("cathedral_tiers", "choice", "standard", "Cathedral level tiles",
           choices=TIER_SETS, rule="P-VAR-3"),
    Option("bridge_layout", "choice", "fixed",
           "Charles Bridge bonus pieces: the 'fixed' layout of the data (side A) or a "
           "'random' combination of pieces, sides and orientations",
           choices=("fixed", "random"),
           rule="P-SETUP-2"),
    Option("production_tokens", "choice", "all",
           "lay out 'all' 8 production tokens (P-SETUP-5) or only those for the "
           "player count ('by-player-count', solo helper)",
           choices=("all", "by-player-count"), rule="P-SETUP-5"),
    Option("corner_repay", "bool", True,
           "a stacked upgrade's red corner pays against every visible red corner, even "
           "pairs already paid with the covered tile", rule="P-EDGE-5"),
    Option("spent", "choice", "paid",
           "market tie-break 'spent': gold + stone actually 'paid' for the buildings, or "
           "their 'printed' cost plus surcharge", choices=("paid", "printed"),
           rule="P-MKT-9"),
    Option("empty_v_pile", "choice", "allowed",
           "moving onto King's Road space V when the V pile is empty: 'allowed' (egg "
           "paid, no tile) or 'forbidden' ([RU])", choices=("allowed", "forbidden"),
           rule="LANG-10"),
    Option("up_arrow", "choice", "optional",
           "an upward arrow is 'optional' ([PL], [PT], [RU]) or 'automatic' ([DE]) "
           "when its tier cost can be paid", choices=("optional", "automatic"),
           rule="LANG-11"),
    Option("road_mine_and_quarry", "choice", "both",
           "GL-R4's second reward: +1 gold mine 'both' and +1 quarry (literal [RU]) or "
           "'one' of them", choices=("both", "one"), rule="GL-R4"),
    Option("unused_wheel_gain", "choice", "lost",
           "a wheel bonus gain (gold, stone, window, track step) not taken is 'lost' at "
           "the end of the turn (the reference's reading) or 'granted': it must be taken "
           "before the turn ends ([DE] 'verleiht dir einen Bonus', [PT] 'você ainda "
           "recebe o bônus'); the egg purchase stays optional",
           choices=("lost", "granted"), rule="P-CRANE-6"),
    Option("unused_sideways", "choice", "lost",
           "an earned sideways move not made is 'lost' at the end of the turn (the "
           "reference's reading) or 'applied': it must be made before the turn ends, at a "
           "moment the player chooses ([DE] 'bewegst du deinen Würfel 1 Feld seitwärts')",
           choices=("lost", "applied"), rule="P-GRID-4"),
    Option("egg_price", "choice", "rulebook",
           "the egg slots of the crane: paid as the 'rulebook' says (gold, all four "
           "seeds) or as the crane 'art' of the solo helper seems to show (one slot in "
           "stone; crane.toml art_price)", choices=("rulebook", "art"), rule="P-CRANE-7"),
    Option("solo_opponent", "choice", "auto",
           "the side the engine plays: 'auto' (the rulebook's dummy when players=1, "
           "none otherwise), the rulebook's 'dummy' (P-SOLO-2, players=1 only) or the "
           "publishers' Peter 'parler' bots (also beside several people)",
           choices=("auto", "dummy", "parler"), rule="P-SOLO-4"),
    Option("parler_bots", "int", 1, "with solo_opponent='parler': 1-3 Parler bots",
           minimum=1, maximum=3, rule="P-SOLO-4"),
)


def make_options(params: Params) -> Options:
    """Validated options; impossible combinations raise ``ValueError`` naming them.
    (Callers often pass every option, defaults included, so only a value other than
    the default can be refused.)"""
    values = validate_params(OPTIONS, params)
    players = values["players"]
    opponent = values["solo_opponent"]
    if opponent == "dummy" and players > 1:
        raise ValueError("solo_opponent 'dummy' is the solo rule (P-SOLO-2): it needs "
                         f"players=1, got players={players}")
    if values["parler_bots"] != 1 and opponent != "parler":
        raise ValueError("parler_bots needs solo_opponent='parler'")
    if opponent == "parler" and players + values["parler_bots"] > 4:
        raise ValueError(f"players={players} plus parler_bots={values['parler_bots']} "
                         "is more than the 4 seats of the game")
    if values["road_tile_spaces"] != "I+II+III" and not values["road_tiles"]:
        raise ValueError("road_tile_spaces needs road_tiles=true (P-VAR-2)")
    if opponent == "parler":
        values["production_tokens"] = "by-player-count"  # Parler setup step 2 (P.2)
    else:
        values["parler_bots"] = 0
        values["solo_opponent"] = "dummy" if players == 1 else "none"
    return Options(**values)


def _shuffled(rng: Rng, items: list[int]) -> tuple[int, ...]:
    rng.shuffle(items)
    return tuple(items)


def initial_state(params: Params, seed: int) -> PragaState:
    """Set up a game for 2-4 players (§2), or a solo game: as for 2 players against the
    rulebook's dummy (P-SOLO-1), as for people + bots against Parler (P.2)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    opts = make_options(params)
    rng = Rng.from_seed(seed)
    n = opts.players
    table = opts.table  # the player count the board is set up for
    s = PragaState.__new__(PragaState)
    s.opts = opts
    s.players = n
    s.rng = rng
    s.log = []
    # P-SETUP-7: market tiles at random on the markets of their colour in use
    tiles_by_colour: dict[int, list[int]] = {}
    for i, t in enumerate(C.market_tiles):
        tiles_by_colour.setdefault(t.colour, []).append(i)
    for pool in tiles_by_colour.values():
        rng.shuffle(pool)
    market_tile = []
    for m in C.markets:
        if m.min_players <= table:
            market_tile.append(tiles_by_colour[m.colour].pop())
        else:
            market_tile.append(-1)
    s.market_tile = tuple(market_tile)
    s.unused = tuple(sorted(t for pool in tiles_by_colour.values() for t in pool))
    # P-SETUP-2: bridge pieces in any combination of pieces and sides, and in any
    # orientation (ruling agreed with the author and publisher, Yucata rules page):
    # "random" draws the order, the side and which end comes first of every piece.
    pieces = list(range(len(C.bridge_pieces)))
    sides = [0] * len(pieces)
    ends = [0] * len(pieces)
    if opts.bridge_layout == "random":
        rng.shuffle(pieces)
        sides = [rng.randbelow(2) for _ in pieces]
        ends = [rng.randbelow(2) for _ in pieces]
    planks = []
    for p, side, end in zip(pieces, sides, ends, strict=True):
        fields = C.bridge_pieces[p].side_a if side == 0 else C.bridge_pieces[p].side_b
        planks.append((fields[1], fields[0]) if end else fields)
    s.planks = tuple(planks)
    spaces = opts.road_tile_spaces.split("+")  # P-VAR-2: any subset of the 3 tiles
    s.road_effect = tuple(
        next((t.effect for t in C.road_tiles if t.covers == k + 1), -1)
        if opts.road_tiles and k < 3 and NUMERALS[k] in spaces else -1 for k in range(5))
    # P-SETUP-14, P-VAR-1: action tiles
    s.pairs = tuple(t.side_a if opts.action_side == "A" else t.side_b
                    for t in C.action_tiles)
    order = list(range(len(C.action_tiles)))
    if opts.tile_arrangement == "random":
        rng.shuffle(order)
    s.rotation = K.setup_rotation(C.crane, table)  # P-SETUP-13
    s.slots = K.setup_slots(C.crane, s.rotation, tuple(order))
    s.five_vp = -1  # P-SETUP-10
    s.platform = C.crane.platform_start[table]  # P-SETUP-15/16
    s.era = 1
    s.star_armed = False
    s.turns = 0
    # P-SETUP-3/4: bridge tiles; P-SETUP-8: technologies; P-SETUP-11: hex stacks
    iv = [i for i, t in enumerate(C.bridge_tiles) if not t.is_v]
    v = list(_shuffled(rng, [i for i, t in enumerate(C.bridge_tiles) if t.is_v]))
    s.iv_stack = _shuffled(rng, iv)
    s.v_pile = tuple(sorted(v[:3]))
    s.cat_pile = tuple(sorted(v[3:]))
    s.tech_stacks = [_shuffled(rng, [i for i, t in enumerate(C.technologies)
                                     if t.level == level]) for level in (1, 2, 3, 4)]
    kinds = (tuple((t.era, t.special) for t in C.buildings),
             tuple((t.era, t.special) for t in C.walls),
             tuple((t.era, t.special) for t in C.upgrades))
    stacks = []
    for era in (1, 2):
        for family in kinds:
            for special in (False, True):
                stacks.append(_shuffled(rng, [i for i, (e, sp) in enumerate(family)
                                              if e == era and sp == special]))
    s.stacks = stacks
    s.rows = [(), (), ()]
    deal_rows(s)
    # P-SETUP-5: production tokens
    s.river = tuple(i for i, t in enumerate(C.production_tokens)
                    if opts.production_tokens == "all" or t.min_players <= table)
    s.seal_owner = [-1] * len(C.seals)
    s.bridge = [-1] * len(C.bridge_pieces)
    sites = len(C.sites)
    s.site_tile = [-1] * sites
    s.site_owner = [-1] * sites
    s.site_cube = [False] * sites
    s.site_spent = [0] * sites
    s.site_orient = [0] * sites
    # P-SETUP-12: pre-built normal era I buildings (no owner, no cube)
    for k, site in enumerate(C.sites):
        if site.prebuilt == table:
            stack = s.stacks[0]
            s.site_tile[k] = stack[0]
            s.stacks[0] = stack[1:]
    s.market_done = [False] * len(C.markets)
    # P-SETUP-17..25: players
    hw = grid_data(0, opts.hunger_wall_tiers)
    cat = grid_data(1, opts.cathedral_tiers)
    s.vp = [0] * n  # P-SETUP-23
    s.gold = [C.start_gold] * n  # P-SETUP-20
    s.stone = [C.start_stone] * n
    s.eggs = [0] * n  # P-SETUP-25
    s.silver = [0] * n
    s.goldw = [0] * n
    s.red = [0] * n
    s.blue = [0] * n
    s.mine = [C.gold_track.start] * n  # P-SETUP-18
    s.quarry = [C.quarry_track.start] * n
    s.tech = [0] * n
    s.univ = [0] * n
    s.wealth = [0] * n  # P-SETUP-19
    s.cubes = [C.supply_cubes] * n  # P-SETUP-24
    s.hw = [hw.start] * n  # P-SETUP-21: bottom-right / bottom-left
    s.cat = [cat.start] * n
    s.cat_tile = [-1] * n
    s.v_tile = [-1] * n
    s.road = [0] * n  # P-SETUP-22
    s.ptoken = [(-1, -1)] * n
    s.seal_rights = [0] * n
    s.techs = [()] * n
    s.tech_ready = [0] * n
    s.tech_used = [0] * n
    s.upg = [((),) * 6] * n
    s.walls = [(-1,) * len(C.wall_positions)] * n
    s.edge_paid = [0] * n
    s.corner_paid = [0] * n
    s.once = [0] * n
    s.played = [0] * n
    s.seat = 0  # P-SETUP-26: seat 0 starts
    reset_turn(s)
    s.stack = [D.hub(0)]
    s.final = None
    s.bots = None
    if opts.solo_opponent == "none":
        s.log.append(M("setup: {n} players", n=n))  # never the seed: it would reveal stacks
    else:
        rival = (term("the dummy") if opts.solo_opponent == "dummy" else
                 M("{n} Parler bot", n=opts.parler_bots))
        s.log.append(M("setup: {n} player against {rival} (as for {table} players)", n=n,
                       rival=rival, table=table))
        setup_bots(s)
    return s


def setup_bots(s: PragaState) -> None:
    """The sides the engine plays, after the normal setup for ``opts.table`` sides."""
    if s.opts.solo_opponent == "dummy":
        s.bots = ((0, 0, 0, 0, 0, 0, -1, -1, 0, 0),)  # P-SOLO-3: nothing but turns
        return
    setup_parler(s)
