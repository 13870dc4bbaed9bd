"""Actions of The Red Cathedral: small frozen values with a context-free text form.

``str(action)`` and ``parse_action(text)`` round-trip. Cathedral cards are named by
their *slot* on the Construction Site (0-based, tower by tower from the left, bottom to
top); market spaces by 0..7 clockwise; dice and Workshop spaces by colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from meeplehall.core.protocol import IllegalActionError
from meeplehall.games.red_cathedral.components import COLOURS, MATERIALS, WS_POSITIONS

JEWEL_SETS: tuple[tuple[int, ...], ...] = ((), (4,), (5,), (4, 4), (5, 5), (4, 5))


def _mats(items: tuple[int, ...]) -> str:
    return "+".join(MATERIALS[m] for m in items) if items else "none"


@dataclass(frozen=True, slots=True)
class Claim:
    """Claim the card in ``slot`` with a Banner from the Inventory or from outside it
    (advanced side: from a white Workshop position). RC-CLAIM-1."""

    slot: int
    from_inventory: bool

    def __str__(self) -> str:
        return f"claim {self.slot} {'inventory' if self.from_inventory else 'outside'}"


@dataclass(frozen=True, slots=True)
class PlaceTile:
    """Put the claimed card's Workshop tile on a space, face up (paying) or down."""

    space: int  # 0-4: yellow, red, blue, green, white
    face_up: bool

    def __str__(self) -> str:
        return f"place-tile {COLOURS[self.space]} {'up' if self.face_up else 'down'}"


@dataclass(frozen=True, slots=True)
class MoveDie:
    """Move a die clockwise by its pips plus ``extra`` paid steps (RC-MARKET-1..3)."""

    die: int
    extra: int

    def __str__(self) -> str:
        return f"move-die {COLOURS[self.die]} +{self.extra}"


@dataclass(frozen=True, slots=True)
class Reroll:
    """Free action: lose 1 Prestige to reroll the dice on a market space (RC-FREE-2)."""

    space: int

    def __str__(self) -> str:
        return f"reroll {self.space}"


@dataclass(frozen=True, slots=True)
class Obtain:
    """Take ``amount`` of the destination's resource (RC-GAIN-1)."""

    amount: int

    def __str__(self) -> str:
        return f"obtain {self.amount}"


@dataclass(frozen=True, slots=True)
class UseInfluence:
    """Use action 0 or 1 of the Influence card in the destination's quadrant (RC-INF)."""

    index: int

    def __str__(self) -> str:
        return f"use-influence {self.index}"


@dataclass(frozen=True, slots=True)
class Activate:
    """Gain the benefit of the face-up Workshop tile at a position (RC-WSACT, MR-4)."""

    position: int  # 0-5, see WS_POSITIONS

    def __str__(self) -> str:
        return f"activate {WS_POSITIONS[self.position]}"


@dataclass(frozen=True, slots=True)
class Sell:
    material: int

    def __str__(self) -> str:
        return f"sell {MATERIALS[self.material]}"


@dataclass(frozen=True, slots=True)
class Buy:
    material: int

    def __str__(self) -> str:
        return f"buy {MATERIALS[self.material]}"


@dataclass(frozen=True, slots=True)
class Exchange:
    """Merchants: give identical Materials for others (MR-1, MR-3)."""

    give: tuple[int, ...]
    take: tuple[int, ...]

    def __str__(self) -> str:
        return f"exchange {_mats(self.give)} {_mats(self.take)}"


@dataclass(frozen=True, slots=True)
class Upgrade:
    """Merchants: 1 Ruble plus 1 Material for a Material of another type (MR-2)."""

    give: int
    take: int

    def __str__(self) -> str:
        return f"upgrade {MATERIALS[self.give]} {MATERIALS[self.take]}"


@dataclass(frozen=True, slots=True)
class SwapTiles:
    """Teamsters: swap the Resource tiles of two market spaces (TM-4)."""

    a: int
    b: int

    def __str__(self) -> str:
        return f"swap-tiles {self.a} {self.b}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Clergy: discard Materials of different types for a reward (CL-3)."""

    materials: tuple[int, ...]

    def __str__(self) -> str:
        return f"discard {_mats(self.materials)}"


@dataclass(frozen=True, slots=True)
class Deliver:
    """Deliver one Material to your claimed, unfinished card in ``slot`` (RC-BUILD-2)."""

    material: int
    slot: int

    def __str__(self) -> str:
        return f"deliver {MATERIALS[self.material]} {self.slot}"


@dataclass(frozen=True, slots=True)
class Decorate:
    """Start an Ornamentation on the completed card in ``slot`` (RC-ORN-1..5)."""

    slot: int

    def __str__(self) -> str:
        return f"decorate {self.slot}"


@dataclass(frozen=True, slots=True)
class SetJewels:
    """Jewels set into the Ornamentation being made (RC-ORN-4, RC-ORN-6)."""

    jewels: tuple[int, ...]

    def __str__(self) -> str:
        return f"jewels {_mats(self.jewels)}"


@dataclass(frozen=True, slots=True)
class IvanClaim:
    """Solo: the human picks which card Ivan claims (RC-IVACT-CLAIM)."""

    slot: int

    def __str__(self) -> str:
        return f"ivan-claim {self.slot}"


@dataclass(frozen=True, slots=True)
class IvanOrnament:
    """Solo: the human picks which card gets Ivan's Ornamentation (RC-IVAN-ORN)."""

    slot: int

    def __str__(self) -> str:
        return f"ivan-ornament {self.slot}"


@dataclass(frozen=True, slots=True)
class Simple:
    """An action with no arguments; ``name`` is its text."""

    name: str

    def __str__(self) -> str:
        return self.name


BUILD = Simple("build")
END_TURN = Simple("end-turn")
PASS = Simple("pass")
SELL_PRESTIGE = Simple("sell-prestige")
FINISH_MARKET = Simple("finish-market")
PERFORM = Simple("perform")  # influence actions with no choice: gain, pay-for, set bonus
HIRE_TEAMSTERS = Simple("hire-teamsters")  # TM-1 / TM-3
DONE = Simple("done")  # stop using the chosen Influence action
FINISH_DELIVERY = Simple("finish-delivery")
SIMPLE = {a.name: a for a in (BUILD, END_TURN, PASS, SELL_PRESTIGE, FINISH_MARKET, PERFORM,
                              HIRE_TEAMSTERS, DONE, FINISH_DELIVERY)}

RCAction = (Claim | PlaceTile | MoveDie | Reroll | Obtain | UseInfluence | Activate | Sell | Buy
            | Exchange | Upgrade | SwapTiles | Discard | Deliver | Decorate | SetJewels
            | IvanClaim | IvanOrnament | Simple)


# Interned constructors for the hot paths (legal-action generation).
claim = cache(Claim)
place_tile = cache(PlaceTile)
move_die = cache(MoveDie)
reroll = cache(Reroll)
obtain = cache(Obtain)
use_influence = cache(UseInfluence)
activate = cache(Activate)
sell = cache(Sell)
buy = cache(Buy)
exchange = cache(Exchange)
upgrade = cache(Upgrade)
swap_tiles = cache(SwapTiles)
discard = cache(Discard)
deliver = cache(Deliver)
decorate = cache(Decorate)
set_jewels = cache(SetJewels)
ivan_claim = cache(IvanClaim)
ivan_ornament = cache(IvanOrnament)


def _int(word: str, text: str, low: int, high: int) -> int:
    try:
        value = int(word)
    except ValueError:
        raise IllegalActionError(f"{text!r}: {word!r} is not a number") from None
    if not low <= value <= high:
        raise IllegalActionError(f"{text!r}: {value} is out of range {low}..{high}")
    return value


def _name(word: str, names: tuple[str, ...], text: str, what: str) -> int:
    if word not in names:
        raise IllegalActionError(f"{text!r}: unknown {what} {word!r}; "
                                 f"expected one of {', '.join(names)}")
    return names.index(word)


def _mat_list(word: str, text: str) -> tuple[int, ...]:
    if word == "none":
        return ()
    return tuple(_name(w, MATERIALS, text, "material") for w in word.split("+"))


_ARITY = {"claim": 2, "place-tile": 2, "move-die": 2, "reroll": 1, "obtain": 1,
          "use-influence": 1, "activate": 1, "sell": 1, "buy": 1, "exchange": 2, "upgrade": 2,
          "swap-tiles": 2, "discard": 1, "deliver": 2, "decorate": 1, "jewels": 1,
          "ivan-claim": 1, "ivan-ornament": 1}


def parse_action(text: str) -> Any:
    """Parse the text form of an action.

    Raises:
        IllegalActionError: the text is not an action of this game; says what is wrong.

    >>> str(parse_action("move-die white +2"))
    'move-die white +2'
    """
    if not isinstance(text, str):
        raise IllegalActionError(f"an action must be text, got {type(text).__name__}")
    words = text.split()
    if not words:
        raise IllegalActionError("empty action")
    verb, args = words[0], words[1:]
    if verb in SIMPLE:
        if args:
            raise IllegalActionError(f"{text!r}: {verb!r} takes no arguments")
        return SIMPLE[verb]
    if verb not in _ARITY:
        known = ", ".join(sorted([*SIMPLE, *_ARITY]))
        raise IllegalActionError(f"{text!r}: unknown action {verb!r}; actions are: {known}")
    if len(args) != _ARITY[verb]:
        raise IllegalActionError(f"{text!r}: {verb!r} takes {_ARITY[verb]} argument(s)")
    a = args[0]
    if verb == "claim":
        if args[1] not in ("inventory", "outside"):
            raise IllegalActionError(f"{text!r}: Banner source must be 'inventory' or 'outside'")
        return claim(_int(a, text, 0, 99), args[1] == "inventory")
    if verb == "place-tile":
        if args[1] not in ("up", "down"):
            raise IllegalActionError(f"{text!r}: face must be 'up' or 'down'")
        return place_tile(_name(a, COLOURS, text, "Workshop space"), args[1] == "up")
    if verb == "move-die":
        if not args[1].startswith("+"):
            raise IllegalActionError(f"{text!r}: extra steps are written '+N'")
        return move_die(_name(a, COLOURS, text, "die"), _int(args[1][1:], text, 0, 99))
    if verb == "reroll":
        return reroll(_int(a, text, 0, 7))
    if verb == "obtain":
        return obtain(_int(a, text, 0, 99))
    if verb == "use-influence":
        return use_influence(_int(a, text, 0, 1))
    if verb == "activate":
        return activate(_name(a, WS_POSITIONS, text, "Workshop position"))
    if verb == "sell":
        return sell(_name(a, MATERIALS, text, "material"))
    if verb == "buy":
        return buy(_name(a, MATERIALS, text, "material"))
    if verb == "exchange":
        return exchange(_mat_list(a, text), _mat_list(args[1], text))
    if verb == "upgrade":
        return upgrade(_name(a, MATERIALS, text, "material"),
                       _name(args[1], MATERIALS, text, "material"))
    if verb == "swap-tiles":
        return swap_tiles(_int(a, text, 0, 7), _int(args[1], text, 0, 7))
    if verb == "discard":
        return discard(_mat_list(a, text))
    if verb == "deliver":
        return deliver(_name(a, MATERIALS, text, "material"), _int(args[1], text, 0, 99))
    if verb == "decorate":
        return decorate(_int(a, text, 0, 99))
    if verb == "jewels":
        return set_jewels(_mat_list(a, text))
    if verb == "ivan-claim":
        return ivan_claim(_int(a, text, 0, 99))
    return ivan_ornament(_int(a, text, 0, 99))
