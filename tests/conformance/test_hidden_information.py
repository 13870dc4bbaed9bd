"""Hidden information never leaks, for every game of the registry (docs/server.md).

- No seed, no generator state, nothing derived from them, in any seat's or a spectator's
  view, nor in the prompt, legal actions, action labels or rules text of the seat to
  move, at any step of random games from seeds above 2**53 (every game, every player
  count, the solo modes and the variants).
- ``Game.reveals`` is the undo barrier of the server and of the terminal client: a
  move it lets be taken back teaches no seat anything. Checked by determinisation: for
  each seat and the spectator, states re-dealt at random from what that seat saw
  before the move (``sample_hidden``) must show it, after the same move, exactly what
  the real game shows it (view, prompt and legal actions). If the move showed anything
  hidden, some re-dealt state would show something else.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from meeplehall.core.protocol import Game
from meeplehall.core.rng import SEED_BOUND, Rng
from meeplehall.games import GAMES
from meeplehall.server.live_table import step

# Seeds above 2**53: a client that rounded them would show itself, and their digits are
# long enough never to turn up by chance.
SEEDS = (SEED_BOUND + 7_919, 2**62 + 104_729, 2**63 - 25)


def _players_option(game: Game) -> Any:
    return next(o for o in game.options if o.name == "players")


def _variants(game: Game, players: int, last: bool = False) -> dict[str, Any]:
    """Every option that has one at a value other than its default (the first other
    choice, or the last with ``last``; the other truth value), dropping those the engine
    refuses in this combination."""
    params: dict[str, Any] = {"players": players}
    for option in game.options:
        if option.name == "players":
            continue
        if option.kind == "bool":
            value: Any = not option.default
        elif option.kind == "choice":
            others = [c for c in option.choices if c != option.default]
            value = others[-1 if last else 0]
        else:
            continue
        trial = {**params, option.name: value}
        try:
            game.initial_state(trial, 1)
        except ValueError:
            continue
        params = trial
    return params


def configurations() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every game at every player count with its defaults and with its variants; the
    solo modes (Praga's dummy and one to three Parler bots, Ivan)."""
    for name, game in sorted(GAMES.items()):
        opt = _players_option(game)
        for players in range(opt.minimum, opt.maximum + 1):
            yield name, {"players": players}
            yield name, _variants(game, players)
            yield name, _variants(game, players, last=True)
    yield "praga", {"players": 1, "solo_opponent": "dummy"}
    for bots in (1, 2, 3):
        yield "praga", {"players": 1, "solo_opponent": "parler", "parler_bots": bots}
    yield "praga", {"players": 2, "solo_opponent": "parler", "parler_bots": 1}


CONFIGS = list(dict.fromkeys((n, json.dumps(p, sort_keys=True)) for n, p in configurations()))


def _secrets(state: Any, seed: int) -> list[str]:
    rng = getattr(state, "rng", None)
    found = [str(seed), str(seed % 2**64)]
    if rng is not None:
        found += [str(rng.state), f"{rng.state:x}", f"{rng.state:#x}"]
    return found


def _texts(game: Game, state: Any, logged: dict[int | None, int]) -> Iterator[tuple[str, str]]:
    """Everything any seat or a spectator is shown of ``state``, as text. The log grows
    by appending: the lines each viewer was shown at an earlier step (``logged``) are
    not searched again."""
    for seat in [*range(game.num_players(state)), None]:
        view = dict(game.player_view(state, seat))
        log = view.pop("log", [])
        start = logged.get(seat, 0) if len(log) >= logged.get(seat, 0) else 0
        logged[seat] = len(log)
        yield f"view of {seat}", json.dumps(view)
        yield f"log of {seat}", json.dumps(log[start:])
    if game.current_player(state) is not None:
        legal = game.legal_actions(state)
        yield "prompt", game.describe_decision(state)
        yield "rules", game.rules_text(state)
        yield "actions", " | ".join(f"{a} {game.action_label(state, a)}"
                                    for a in legal)


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=[f"{n} {p}" for n, p in CONFIGS])
def test_no_seed_in_anything_a_seat_sees(name: str, params: str) -> None:
    """No view, prompt, legal action, label or rules text holds the seed or the PRNG
    state, from setup to the last move."""
    game = GAMES[name]
    options = json.loads(params)
    index = CONFIGS.index((name, params))
    seed = SEEDS[index % len(SEEDS)]
    state = game.initial_state(options, seed)
    chooser = Rng.from_seed(index)
    first = _secrets(state, seed)
    logged: dict[int | None, int] = {}
    steps = 0
    while True:
        secrets = first + _secrets(state, seed)
        for where, text in _texts(game, state, logged):
            for secret in secrets:
                assert secret not in text, (
                    f"{name} {options}, seed {seed}, step {steps}: {where} shows {secret}")
        if game.current_player(state) is None:
            break
        legal = game.legal_actions(state)
        state = game.apply(state, legal[chooser.randbelow(len(legal))])
        steps += 1
    assert steps > 10


def _knowledge(game: Game, state: Any, seat: int | None) -> tuple[Any, ...]:
    """What ``seat`` (None: a spectator) is shown of ``state``: its view and, when it is
    to move, the prompt and the legal actions with their labels (the server sends them
    to that seat only)."""
    view = game.player_view(state, seat)
    if seat is None or game.current_player(state) != seat:
        return (view,)
    label = game.action_label
    return (view, game.describe_decision(state),
            [(str(a), label(state, a)) for a in game.legal_actions(state)])


def check_undoable_moves_teach_nothing(game: Game, params: dict[str, Any], seed: int,
                                       chooser_seed: int, samples: int = 2,
                                       max_steps: int = 5_000) -> tuple[int, int]:
    """Play a random game; at each move the server would let be undone (``step``'s
    reveal flag is False), check by re-dealing that no seat learned anything. Returns
    (moves, moves that could be undone)."""
    state = game.initial_state(params, seed)
    rng = Rng.from_seed(chooser_seed)
    moves = undoable = 0
    seats = [*range(game.num_players(state)), None]
    while game.current_player(state) is not None and moves < max_steps:
        legal = game.legal_actions(state)
        action = legal[rng.randbelow(len(legal))]
        after, text, reveal = step(game, state, game.current_player(state), str(action))
        moves += 1
        if not reveal:
            undoable += 1
            for seat in seats:
                seen = _knowledge(game, after, seat)
                view = game.player_view(state, seat)
                for _ in range(samples):
                    dealt = game.sample_hidden(view, Rng(rng.next_u64()))
                    assert game.player_view(dealt, seat) == view, "a re-deal changed the view"
                    where = f"{game.name} {params} seed {seed}, move {moves} ({text}), seat {seat}"
                    try:
                        dealt_after = game.apply(dealt, action)
                    except ValueError as exc:
                        raise AssertionError(f"{where}: not legal in a re-deal ({exc}), so "
                                             "it showed something, yet could be undone") from None
                    assert _knowledge(game, dealt_after, seat) == seen, (
                        f"{where}: the move showed something hidden, yet could be undone")
        state = after
    return moves, undoable


KNOWLEDGE_CONFIGS = (
    ("praga", {"players": 2}, 21), ("praga", {"players": 3}, 22),
    ("praga", {"players": 4, "road_tiles": True, "bridge_layout": "random"}, 23),
    ("praga", {"players": 1, "solo_opponent": "dummy"}, 24),
    ("praga", {"players": 1, "solo_opponent": "parler", "parler_bots": 2}, 25),
    ("red-cathedral", {"players": 1}, 31), ("red-cathedral", {"players": 2}, 32),
    ("red-cathedral", {"players": 3, "advanced_workshops": True}, 33),
)


@pytest.mark.parametrize(("name", "params", "seed"), KNOWLEDGE_CONFIGS,
                         ids=[f"{n} {json.dumps(p)}" for n, p, _ in KNOWLEDGE_CONFIGS])
def test_a_move_that_can_be_undone_teaches_no_seat_anything(
        name: str, params: dict[str, Any], seed: int) -> None:
    moves, undoable = check_undoable_moves_teach_nothing(GAMES[name], params, seed,
                                                         seed * 7, max_steps=400)
    assert undoable > moves // 4, (moves, undoable)  # most moves reveal nothing
    assert undoable < moves  # and some do
