"""The game protocol every engine implements, plus options, outcomes and errors.

The surface follows OpenSpiel's State API: a game is a set of pure functions over a
state object that the caller owns. ``apply`` is checked and pure; ``apply_unchecked``
mutates a state in place for search.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, runtime_checkable

PlayerId = int
Params = Mapping[str, Any]
Action = Hashable
View = dict[str, Any]


class IllegalActionError(ValueError):
    """An action that is not legal in the given state; the message says why."""


@runtime_checkable
class State(Protocol):
    """What every game state offers to game-agnostic code."""

    def clone(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class Option:
    """One named option of ``initial_state(params, seed)``.

    ``kind`` is ``"int"``, ``"bool"`` or ``"choice"``. ``rule`` names the rule id the
    option belongs to (for ambiguities: the RC-AMB-/P-AMB- id), for documentation.
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    rule: str = ""

    def check(self, value: Any) -> Any:
        """Return the value, normalised, or raise ``ValueError`` naming this option."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no"):
                return value.lower() in ("true", "yes")
            raise ValueError(f"option {self.name!r} must be true or false, got {value!r}")
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise ValueError(f"option {self.name!r} must be an integer, got {value!r}")
            try:
                number = int(value)
            except ValueError:
                raise ValueError(
                    f"option {self.name!r} must be an integer, got {value!r}"
                ) from None
            if self.minimum is not None and number < self.minimum:
                raise ValueError(f"option {self.name!r} must be >= {self.minimum}, got {number}")
            if self.maximum is not None and number > self.maximum:
                raise ValueError(f"option {self.name!r} must be <= {self.maximum}, got {number}")
            return number
        if value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise ValueError(f"option {self.name!r} must be one of {allowed}; got {value!r}")
        return value


def validate_params(options: Sequence[Option], params: Params) -> dict[str, Any]:
    """Check ``params`` against ``options`` and fill in defaults.

    >>> opts = (Option("players", "int", 2, "seats", minimum=1, maximum=4),)
    >>> validate_params(opts, {"players": 3})
    {'players': 3}
    >>> validate_params(opts, {"colour": "red"})
    Traceback (most recent call last):
    ...
    ValueError: unknown option 'colour'; known options: players
    """
    if not isinstance(params, Mapping):
        raise ValueError(f"params must be a mapping of option names to values, got {params!r}")
    known = {o.name: o for o in options}
    for key in params:
        if key not in known:
            raise ValueError(f"unknown option {key!r}; known options: {', '.join(known)}")
    return {name: (opt.check(params[name]) if name in params else opt.default)
            for name, opt in known.items()}


def rank_groups(keys: Sequence[tuple[Any, ...]]) -> tuple[tuple[int, ...], ...]:
    """Group seats by descending sort key; equal keys share a group.

    >>> rank_groups([(5, 1), (7, 0), (5, 1)])
    ((1,), (0, 2))
    """
    order = sorted(range(len(keys)), key=lambda s: keys[s], reverse=True)
    groups: list[list[int]] = []
    for seat in order:
        if groups and keys[groups[-1][0]] == keys[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return tuple(tuple(sorted(g)) for g in groups)


@dataclass(frozen=True)
class Outcome:
    """The end of a game.

    Attributes:
        scores: final score of each seat.
        ranking: groups of seats, best first; tied seats (after tie-breaks) share a group.
        winners: seats that won. Empty when an automaton beat the only human seat.
        breakdown: for each seat, points per scoring category (sums to the score).
        details: anything else (an automaton's score, per-tower results, ...).
    """

    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]
    breakdown: tuple[Mapping[str, int], ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)

    def rank_of(self, seat: PlayerId) -> int:
        """1-based rank of a seat; tied seats share the best rank of their group."""
        place = 1
        for group in self.ranking:
            if seat in group:
                return place
            place += len(group)
        raise ValueError(f"seat {seat} is not in this outcome")

    def to_dict(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranking": [list(g) for g in self.ranking],
            "winners": list(self.winners),
            "breakdown": [dict(b) for b in self.breakdown],
            "details": dict(self.details),
        }


if TYPE_CHECKING:  # defaults (PEP 696): a bare ``Game`` is ``Game[Any, Any]``
    from typing_extensions import TypeVar

    S = TypeVar("S", bound=State, default=Any)
    A = TypeVar("A", bound=Hashable, default=Any)
else:
    from typing import TypeVar

    S = TypeVar("S", bound=State)
    A = TypeVar("A", bound=Hashable)

Views = dict[PlayerId | None, View]


class Game(Protocol[S, A]):
    """The surface every game offers (STYLE.md section 2), generic in its state type
    ``S`` and action type ``A``: ``GAME: Game[RCState, RCAction]`` lets a type checker
    follow states and actions through game-agnostic code. Clients call every member
    directly; :class:`GameBase` gives the defaults a game need not write."""

    name: str
    title: str
    rules_version: int
    options: tuple[Option, ...]
    # Whether ``player_views`` builds the views of several seats for less than one
    # ``player_view`` each (they share members); a server then asks for all seats at once.
    shared_views: bool

    @property
    def min_players(self) -> int:
        """The smallest player count the game accepts."""
        ...

    @property
    def max_players(self) -> int:
        """The largest player count the game accepts."""
        ...

    def initial_state(self, params: Params, seed: int) -> S: ...
    def current_player(self, state: S) -> PlayerId | None: ...
    def legal_actions(self, state: S) -> tuple[A, ...]: ...
    def is_legal(self, state: S, action: A) -> bool: ...
    def apply(self, state: S, action: A | str) -> S: ...
    def apply_unchecked(self, state: S, action: A) -> None: ...
    def explain_illegal(self, state: S, action: A, legal: tuple[A, ...]) -> str: ...
    def outcome(self, state: S) -> Outcome | None: ...
    def player_view(self, state: S, player: PlayerId | None) -> View: ...
    def player_views(self, state: S, seats: Iterable[PlayerId | None],
                     memo: dict[Any, Any] | None = None) -> Views: ...
    def parse_action(self, text: str) -> A: ...
    def num_players(self, state: S) -> int: ...
    def to_json(self, state: S) -> dict[str, Any]: ...
    def from_json(self, data: Mapping[str, Any]) -> S: ...
    def describe_decision(self, state: S) -> str: ...
    def rules_text(self, state: S) -> str: ...
    def action_label(self, state: S, action: A) -> str: ...
    def decision_message(self, state: S) -> Any: ...
    def action_message(self, state: S, action: A) -> Any: ...
    def side_name(self, state: S, side: int) -> str: ...
    def sample_hidden(self, view: View, rng: Any) -> S: ...
    def reveals(self, before: S, action: A, after: S) -> bool: ...


class GameBase(Generic[S, A]):
    """Shared plumbing: the checked ``apply`` in terms of ``legal_actions`` and
    ``apply_unchecked``, so legality lives in one generator only (STYLE.md section 10),
    and the defaults of the optional members of :class:`Game`."""

    name: str = ""
    title: str = ""
    rules_version: int = 0
    options: tuple[Option, ...] = ()
    shared_views: bool = False

    @property
    def min_players(self) -> int:
        """The ``players`` option's minimum (1 without one); games may set a class value."""
        option = self._players_option()
        return option.minimum if option is not None and option.minimum is not None else 1

    @property
    def max_players(self) -> int:
        """The ``players`` option's maximum (4 without one); games may set a class value."""
        option = self._players_option()
        return option.maximum if option is not None and option.maximum is not None else 4

    def _players_option(self) -> Option | None:
        return next((o for o in self.options if o.name == "players"), None)

    def initial_state(self, params: Params, seed: int) -> S:  # pragma: no cover - abstract
        raise NotImplementedError

    def legal_actions(self, state: S) -> tuple[A, ...]:  # pragma: no cover - abstract
        raise NotImplementedError

    def apply_unchecked(self, state: S, action: A) -> None:  # pragma: no cover
        raise NotImplementedError

    def describe_decision(self, state: S) -> str:  # pragma: no cover - overridden
        return ""

    def rules_text(self, state: S) -> str:
        """The rule text of the decision asked now; games override it (default: none)."""
        return ""

    def action_label(self, state: S, action: A) -> str:
        """A sentence for people (UI buttons, logs, hints); default: the text form."""
        return str(action)

    def side_name(self, state: S, side: int) -> str:
        """The name of a side (a seat, or an automaton after the seats); default ``seat N``."""
        return f"seat {side}"

    def decision_message(self, state: S) -> Any:
        """The current decision's prompt as a :class:`~meeplehall.core.messages.Message`
        (games override it; by default the English prompt as a key of its own)."""
        from meeplehall.core.messages import term

        return term(self.describe_decision(state))

    def action_message(self, state: S, action: A) -> Any:
        """The label of ``action`` as a :class:`~meeplehall.core.messages.Message`
        (games override it; by default the English label or the action's text)."""
        from meeplehall.core.messages import term

        return term(self.action_label(state, action))

    def current_player(self, state: S) -> PlayerId | None:  # pragma: no cover
        raise NotImplementedError

    def num_players(self, state: S) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def player_view(self, state: S, player: PlayerId | None) -> View:  # pragma: no cover
        raise NotImplementedError

    def player_views(self, state: S, seats: Iterable[PlayerId | None],
                     memo: dict[Any, Any] | None = None) -> Views:
        """The views of several seats (None: a spectator), each equal to its
        ``player_view``, for a server pushing one state to them all. ``memo`` is a dict the
        caller keeps for one table from call to call (empty at first); a game may keep in
        it the parts of the last views whose inputs did not change, so that they are the
        very objects of the last call (diffs then skip them by identity). Default: one
        ``player_view`` per seat, no memo."""
        return {seat: self.player_view(state, seat) for seat in dict.fromkeys(seats)}

    def parse_action(self, text: str) -> A:  # pragma: no cover
        raise NotImplementedError

    def reveals(self, before: S, action: A, after: S) -> bool:  # pragma: no cover
        """Whether the move ``before -> action -> after`` showed any seat (or a spectator)
        something it could not see before: a drawn or refilled tile, a die, a card. Such a
        move is an undo barrier: the server and the terminal client take back no move
        across it, since taking it back would not make anyone forget what they saw. Games
        answer it from their hidden components; a game that cannot tell says True."""
        raise NotImplementedError

    def is_legal(self, state: S, action: A) -> bool:
        return action in self.legal_actions(state)

    def apply(self, state: S, action: A | str) -> S:
        """Return the state after ``action``; the input state is never changed.

        Raises:
            IllegalActionError: the action is not legal now; the message says why.
        """
        checked: A = self.parse_action(action) if isinstance(action, str) else action
        if self.current_player(state) is None:
            raise IllegalActionError(f"{checked} is not legal: the game is over")
        legal = self.legal_actions(state)
        if checked not in legal:
            raise IllegalActionError(self.explain_illegal(state, checked, legal))
        new_state: S = state.clone()
        self.apply_unchecked(new_state, checked)
        return new_state

    def explain_illegal(self, state: S, action: A, legal: tuple[A, ...]) -> str:
        """Say why ``action`` is not in ``legal``; games may override for detail."""
        shown = ", ".join(str(a) for a in legal[:12])
        more = f" and {len(legal) - 12} more" if len(legal) > 12 else ""
        return (
            f"{action} is not legal now. Current decision: {self.describe_decision(state)}. "
            f"Legal actions: {shown}{more}"
        )


ActionChooser = Callable[[Any, tuple[Any, ...]], Any]
