"""Options and ``initial_state(params, seed)`` (RC-SETUP-1..12, RC-SOLO-1..6)."""

from __future__ import annotations

from meeplehall.core.messages import M, term
from meeplehall.core.protocol import Option, Params, validate_params
from meeplehall.core.rng import Rng
from meeplehall.games.red_cathedral.components import (
    BUILDING_KIND_BASE,
    IVAN_CARDS,
    RP,
    load,
)
from meeplehall.games.red_cathedral.decisions import turn
from meeplehall.games.red_cathedral.state import BANNER, EMPTY, Options, RCState

OPTIONS: tuple[Option, ...] = (
    Option("players", "int", 2, "number of seats; 1 is solo against Ivan Yakovlevich",
           minimum=1, maximum=4, rule="RC-SETUP-12"),
    Option("advanced_workshops", "bool", False,
           "use the advanced (compass) side of the Workshop boards for everyone",
           rule="RC-ADV-1"),
    Option("free_actions_between_steps", "bool", True,
           "free actions may be used between the steps of the main action; false: only "
           "before or after it", rule="RC-AMB-19"),
    Option("sell_prestige_window", "choice", "any",
           "'any': Prestige may be sold at any moments of the turn (the seed); "
           "'single': all sales of a turn at one moment (the reference, after dized)",
           choices=("any", "single"), rule="RC-AMB-3"),
    Option("prestige_loss", "choice", "previous-space",
           "losing Prestige from between two Prestige spaces: 'previous-space' moves back "
           "to the one behind (literal); 'full-point' also loses a whole Prestige",
           choices=("previous-space", "full-point"), rule="RC-AMB-4"),
    Option("negative_recognition", "bool", False,
           "Recognition losses may take the marker below 0 (as a debt) instead of "
           "stopping at 0", rule="RC-AMB-5"),
    Option("end_bonus_unit", "choice", "pp",
           "unit of the +3 bonus for completing the 6th card", choices=("pp", "rp"),
           rule="RC-AMB-1"),
    Option("later_sixth_bonus", "bool", False,
           "players completing a 6th card during the last turns also get the bonus",
           rule="RC-AMB-11"),
    Option("ruble_limit", "int", 0,
           "Rubles in the bank and in players' hands together; 0 is unlimited",
           minimum=0, maximum=1000, rule="RC-AMB-2"),
    Option("allow_pass", "bool", False,
           "a player may pass instead of taking a main action", rule="RC-AMB-12"),
    Option("dice_start", "choice", "recognition-tile",
           "where the first die is dropped at setup", choices=("recognition-tile", "opposite"),
           rule="RC-AMB-14"),
    Option("allow_full_circle", "bool", True,
           "a die may be moved 8 or more paid steps back onto its own space",
           rule="RC-AMB-17"),
    Option("exchange_needs_room", "bool", False,
           "exchanges need Inventory room for the outputs before the inputs leave",
           rule="RC-AMB-20"),
    Option("swap_moves_dice", "bool", False,
           "Teamsters' tile swap also moves the dice with the tiles", rule="RC-AMB-21"),
    Option("merchants_activate", "choice", "any",
           "Merchants' 'activate a Workshop tile': 'any' face-up tile, even one already "
           "activated this turn; 'unused-this-turn'", choices=("any", "unused-this-turn"),
           rule="RC-AMB-22"),
    Option("round_limit", "int", 500,
           "safety stop, not a printed rule: after this many rounds the game goes to final "
           "scoring. The rules allow stalemates (Inventories full of Materials nobody can "
           "use, RC-INV-3); sensible play ends long before. 0: no limit",
           minimum=0, maximum=100000, rule="RC-END-1"),
    Option("first_game_cards", "bool", False,
           "use the recommended first-game Influence cards instead of random ones",
           rule="RC-SETUP-6"),
    Option("ivan_build_scan", "choice", "rows",
           "order in which Ivan's Build fills his cards: 'rows' bottom row first, "
           "'columns' leftmost tower first", choices=("rows", "columns"), rule="RC-AMB-6"),
    Option("ivan_inventory_take", "choice", "single-pile",
           "Ivan's Inventory card takes all 4 Materials from the largest pile "
           "('single-pile', the seed) or each from the currently largest pile "
           "('one-at-a-time', the reference)",
           choices=("single-pile", "one-at-a-time"), rule="RC-AMB-6"),
    Option("ivan_rerolls", "bool", True, "dice are rerolled after Ivan moves one",
           rule="RC-AMB-7"),
    Option("ivan_flip_when_skipped", "bool", True,
           "Ivan's tile turns face down even when his die move was skipped (the "
           "reference); false: it stays face up, so the same card comes again next turn",
           rule="RC-IVAN-4"),
    Option("ivan_rp_multiplied", "bool", True,
           "Ivan's Recognition from the Recognition tile is multiplied by the dice there",
           rule="RC-AMB-7"),
    Option("ivan_ornament_pp", "int", 1, "Prestige Ivan gains per Ornamentation",
           minimum=0, maximum=5, rule="RC-AMB-9"),
    Option("ivan_scores_leftovers", "bool", False,
           "Ivan scores 1 Prestige per 5 Materials left on his cards", rule="RC-AMB-10"),
    Option("ivan_fallback_claim", "choice", "any",
           "when no card above the human's cards and no Base is free, Ivan claims 'any' "
           "card without a Banner (the seed) or only an 'available' one (the reference)",
           choices=("any", "available"), rule="RC-AMB-18"),
    Option("ivan_opening_claim_rp", "bool", True,
           "Ivan's opening claim is his normal Claim action and gains a Recognition "
           "tile's value (the seed); false: he gains nothing (the reference)",
           rule="RC-SOLO-5"),
    Option("ivan_choice", "choice", "human",
           "who picks among equal candidates for Ivan's Banner or Ornamentation: the "
           "'human' seat, or always the 'leftmost' card", choices=("human", "leftmost"),
           rule="RC-AMB-18"),
)


def make_options(params: Params) -> Options:
    values = validate_params(OPTIONS, params)
    return Options(**values)


def initial_state(params: Params, seed: int) -> RCState:
    """Set up a game (RC-SETUP-1..12; solo RC-SOLO-1..6)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    opts = make_options(params)
    comps = load()
    rng = Rng.from_seed(seed)
    n = opts.players
    solo = n == 1
    sides = 2 if solo else n
    plan_players = 2 if solo else n

    s = RCState.__new__(RCState)
    s.opts = opts
    s.players = n
    s.sides = sides
    s.solo = solo
    s.rng = rng

    # RC-SETUP-5: Resource tiles at random, one per Market space.
    tiles = list(range(8))
    rng.shuffle(tiles)
    s.tiles = tiles

    # RC-SETUP-6: one card from each Influence deck, decks to quadrants at random.
    if opts.first_game_cards:
        chosen = list(comps.first_game)
    else:
        chosen = []
        for deck in range(4):
            cards = [i for i, c in enumerate(comps.influence) if c.deck == deck]
            chosen.append(cards[rng.randbelow(len(cards))])
    rng.shuffle(chosen)
    s.influence = tuple(chosen)

    # RC-SETUP-7: drop the dice from the Recognition tile's space clockwise.
    order = [0, 1, 2, 3, 4]
    rng.shuffle(order)
    start = next(sp for sp in range(8) if comps.resource_tiles[tiles[sp]].resource == RP)
    if opts.dice_start == "opposite":
        start = (start + 4) % 8
    s.die_pos = [0] * 5
    s.die_val = [0] * 5
    for k, die in enumerate(order):
        s.die_pos[die] = (start + k) % 8
        s.die_val[die] = rng.randint(1, 6)

    # RC-SETUP-9: a random Building Plan for the player count.
    plans = [p for p in comps.plans if p.players == plan_players]
    plan = plans[rng.randbelow(len(plans))]
    s.plan = plan.id

    # RC-SETUP-10: Base, k Middles, Dome per tower, from three shuffled decks.
    decks = [[i for i, c in enumerate(comps.cards) if c.kind == k] for k in range(3)]
    for pile in decks:
        rng.shuffle(pile)
    card_of: list[int] = []
    slot_tower: list[int] = []
    slot_level: list[int] = []
    towers: list[tuple[int, ...]] = []
    for t, middles in enumerate(plan.middles):
        kinds = [0] + [1] * middles + [2]
        slots = []
        for level, kind in enumerate(kinds):
            slots.append(len(card_of))
            card_of.append(decks[kind].pop())
            slot_tower.append(t)
            slot_level.append(level)
        towers.append(tuple(slots))
    s.card_of = tuple(card_of)
    s.slot_tower = tuple(slot_tower)
    s.slot_level = tuple(slot_level)
    s.towers = tuple(towers)
    slots_n = len(card_of)

    # RC-SETUP-11: Workshop tiles, without the "3+" ones below 3 players.
    pool = [i for i, t in enumerate(comps.tiles) if plan_players >= 3 or not t.players_3plus]
    rng.shuffle(pool)
    s.ws_tile = pool[:slots_n]
    leftover_tiles = pool[slots_n:]

    s.supply = list(comps.supply)
    s.owner = [-1] * slots_n
    s.delivered = [(0, 0, 0, 0, 0, 0)] * slots_n
    s.done = [False] * slots_n
    s.orn = [-1] * slots_n

    # RC-SETUP-3 / RC-ADV-1 / RC-SETUP-12: boards, Banners, Rubles.
    per_player = comps.ornaments_per_player
    s.rubles = [comps.starting_rubles[i] if i < n else 0 for i in range(sides)]
    s.inv = [(0, 0, 0, 0, 0, 0)] * sides
    s.inv_banners = [comps.banners_in_inventory if i < n else 0 for i in range(sides)]
    s.out_banners = [comps.banners_outside if i < n else 0 for i in range(sides)]
    if opts.advanced_workshops:
        board = (EMPTY, EMPTY, EMPTY, EMPTY, BANNER, BANNER)
        s.orn_avail = [(0, 0, 0)] * sides
    else:
        board = (EMPTY,) * 6
        s.orn_avail = [per_player] * sides
    s.ws = [board] * sides
    s.orn_placed = [0] * sides
    s.completed = [0] * sides
    s.score = [comps.start] * sides

    s.stack = [turn(0)]
    s.side = 0
    s.main_done = False
    s.sell_state = 0
    s.reroll_used = False
    s.moved_die = -1
    s.dest = -1
    s.mk_used = 0
    s.act_used = 0
    s.end_trigger = -1
    s.bonus_given = False
    s.turns = 0
    s.final = None
    # The plan as printed: its letter (A, B or C) among the plans for this many players.
    letter = plan.id.split("-")[-1]
    s.log = [M("Setup: 1 player, Building Plan {plan}, {towers} towers", plan=letter,
               towers=len(towers)) if n == 1 else
             M("Setup: {n} players, Building Plan {plan}, {towers} towers", n=n, plan=letter,
               towers=len(towers))]

    # RC-SOLO-4/5: Ivan's row, his die tiles and his opening claim.
    s.iv_banners = 0
    s.iv_orn = 0
    s.iv_inv = (0, 0, 0, 0, 0, 0)
    s.iv_build = (0, 0, 0, 0, 0, 0)
    s.iv_next = -1
    if solo:
        ivan_order = list(range(len(IVAN_CARDS)))
        rng.shuffle(ivan_order)
        s.ivan_order = tuple(ivan_order)
        # RC-SOLO-4: the five "3+" die tiles (removed from the 2-player pool) go to Ivan.
        die_tiles = [i for i, wt in enumerate(comps.tiles) if wt.die >= 0 and wt.players_3plus]
        rng.shuffle(die_tiles)
        s.iv_tiles = die_tiles
        s.iv_up = [True] * 5
        leftover_tiles = [i for i in leftover_tiles if i not in die_tiles]
        s.iv_banners = comps.banners_per_player - 1
        bases = [t[0] for t in towers]
        best = max(bases, key=lambda slot: (comps.cards[card_of[slot]].rp, -slot))
        tile = comps.tiles[s.ws_tile[best]]
        s.owner[best] = 1
        s.ws_tile[best] = -1
        s.log.append(M("Ivan claims the Base in slot {slot} (most Recognition); its "
                       "Workshop tile goes back to the box", slot=best + 1))
        if opts.ivan_opening_claim_rp and tile.resource == RP:
            s.score[1] += tile.amount
            s.log.append(M("Ivan gains {n} RP from that tile", n=tile.amount))
        s.log.append(M("Ivan's row: {cards}", cards=tuple(term(IVAN_CARDS[c])
                                                          for c in ivan_order)))
    else:
        s.ivan_order = ()
        s.iv_tiles = []
        s.iv_up = []

    if not solo:
        leftover_tiles += [i for i in range(len(comps.tiles)) if i not in pool]
    else:
        leftover_tiles += [i for i in range(len(comps.tiles))
                           if i not in pool and i not in s.iv_tiles]
    unused_cards = sorted(c for deck in decks for c in deck)
    unused_influence = sorted(i for i in range(len(comps.influence)) if i not in chosen)
    s.unused = (tuple(unused_cards), tuple(sorted(leftover_tiles)), tuple(unused_influence))
    assert all(comps.cards[card_of[t[0]]].kind == BUILDING_KIND_BASE for t in towers)
    return s
