"""Actions of Praga Caput Regni: small frozen values with a context-free text form.

Every action is a ``PragaAction(verb, a, b)``: a verb and up to two integer arguments
whose meaning the ``VERBS`` table gives (an action, a grid, a site, a component...).
``str(action)`` names components by their printed ids (``site S07``, ``use-tech T3b``)
and ``parse_action(text)`` reads it back. Wheel slots are numbered 1..11 clockwise from
the box (crane.toml), rows by name, action-board wall positions 0..11, orientations 0..5
(hexgrid.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from meeplehall.core.protocol import IllegalActionError
from meeplehall.games.praga.components import ACTIONS, GRIDS, load
from meeplehall.games.praga.state import ROW_NAMES

C = load()
RESOURCES = ("gold", "stone")
TRACK_NAMES = ("mine", "quarry")
WINDOW_PAIRS = ("gold", "silver")  # second window paid with a gold window (P-XACT-1)

_IDS: dict[str, tuple[str, ...]] = {
    "int": (),
    "action": ACTIONS,
    "grid": GRIDS,
    "row": ROW_NAMES,
    "res": RESOURCES,
    "track": TRACK_NAMES,
    "win": WINDOW_PAIRS,
    "site": tuple(s.id for s in C.sites),
    "seal": tuple(s.id for s in C.seals),
    "tech": tuple(t.id for t in C.technologies),
    "bridge": tuple(t.id for t in C.bridge_tiles),
    "market": tuple(m.id for m in C.markets),
    "token": tuple(t.id for t in C.production_tokens),
}

# verb -> argument kinds; the order here is also the order of the help text.
VERBS: dict[str, tuple[str, ...]] = {
    "take-tile": ("int",),  # P-TURN-2 step 1: wheel slot 1..11
    "perform": ("action",),  # step 2: one action of the taken tile
    "wheel-bonus": (),  # P-CRANE-6
    "buy-extra": ("win",),  # P-XACT-1: 2 gold windows or gold + silver
    "extra": ("action",),  # P-XACT-2
    "refresh": ("row", "res"),  # P-ROW-5
    "remove": ("int", "int"),
    "up": ("grid",),  # P-GRID-5
    "side": ("grid",),  # P-GRID-4
    "claim-seal": ("seal",),  # P-SEAL-3
    "use-tech": ("tech",),  # P-TECH-6
    "road-free": (),  # P-ROAD-2/3
    "road-egg": (),
    "end-turn": (),
    "expand": (),  # P-MINE-2 (A)
    "produce": (),  # P-MINE-2 (B)
    "pick": ("int",),  # row position 0..3 (3 = special)
    "wall-at": ("int",),  # wall position 0..11
    "at-market": ("market",),  # P-BLD-5: the market whose site comes next
    "site": ("site",),
    "orient": ("int",),
    "choose": ("int",),
    "keep-tech": ("tech",),
    "token": ("token",),
    "bridge-tile": ("bridge",),
    "plank": ("int",),
    "arrow-up": (),
    "arrow-stay": (),
    "cathedral-tile": ("bridge",),
    "keep-silver": ("int",),
    "any-action": ("action",),
    "tech-grid": ("grid",),
    "market-tile": ("market",),
    "grow": ("track", "res"),
}


@dataclass(frozen=True, slots=True)
class PragaAction:
    """``verb`` with up to two integer arguments (-1: absent), see ``VERBS``."""

    verb: str
    a: int = -1
    b: int = -1

    def __str__(self) -> str:
        kinds = VERBS[self.verb]
        words = [self.verb]
        for kind, value in zip(kinds, (self.a, self.b), strict=False):
            names = _IDS[kind]
            words.append(names[value] if names else str(value))
        return " ".join(words)


act = cache(PragaAction)

END_TURN = act("end-turn")
WHEEL_BONUS = act("wheel-bonus")
EXPAND = act("expand")
PRODUCE = act("produce")
ROAD_FREE = act("road-free")
ROAD_EGG = act("road-egg")
ARROW_UP = act("arrow-up")
ARROW_STAY = act("arrow-stay")


def parse_action(text: str) -> PragaAction:
    """Parse the text form of an action.

    Raises:
        IllegalActionError: the text is not an action of this game; says what is wrong.

    >>> str(parse_action("site S07"))
    'site S07'
    >>> parse_action("perform mines") == act("perform", 0)
    True
    """
    if not isinstance(text, str):
        raise IllegalActionError(f"an action must be text, got {type(text).__name__}")
    words = text.split()
    if not words:
        raise IllegalActionError("empty action")
    verb, args = words[0], words[1:]
    if verb not in VERBS:
        raise IllegalActionError(f"{text!r}: unknown action {verb!r}; actions are: "
                                 f"{', '.join(VERBS)}")
    kinds = VERBS[verb]
    if len(args) != len(kinds):
        raise IllegalActionError(f"{text!r}: {verb!r} takes {len(kinds)} argument(s)")
    values: list[int] = []
    for kind, word in zip(kinds, args, strict=True):
        names = _IDS[kind]
        if names:
            if word not in names:
                raise IllegalActionError(f"{text!r}: unknown {kind} {word!r}; expected one "
                                         f"of {', '.join(names)}")
            values.append(names.index(word))
        else:
            try:
                number = int(word)
            except ValueError:
                raise IllegalActionError(f"{text!r}: {word!r} is not a number") from None
            if not 0 <= number <= 99:
                raise IllegalActionError(f"{text!r}: {number} is out of range 0..99")
            values.append(number)
    values += [-1] * (2 - len(values))
    return act(verb, values[0], values[1])
