"""Shared checks every game must pass (STYLE.md section 9).

Each check takes a game and raises ``AssertionError`` with the seed and the actions
drawn, so a failure can be replayed. Tests call them under hypothesis or with fixed
seeds; ``meeplehall bench`` reuses ``random_playout``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from typing import Any

from meeplehall.core.protocol import Game, Params
from meeplehall.core.record import GameRecord, replay
from meeplehall.core.rng import Rng

Chooser = Callable[[tuple[Any, ...]], Any]


def state_digest(game: Game, state: Any) -> str:
    """A short stable digest of the full state (for golden replays)."""
    text = json.dumps(game.to_json(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def random_playout(game: Game, params: Params, seed: int, chooser_seed: int,
                   max_decisions: int = 20_000, checked: bool = False,
                   ) -> tuple[Any, GameRecord]:
    """Play uniformly random legal actions to the end; return final state and record."""
    state = game.initial_state(params, seed)
    record = GameRecord(game.name, game.rules_version, dict(params), seed)
    rng = Rng.from_seed(chooser_seed)
    for _ in range(max_decisions):
        player = game.current_player(state)
        if player is None:
            return state, record
        actions = game.legal_actions(state)
        assert actions, f"stuck: no legal action in a live game (seed {seed})"
        action = actions[rng.randbelow(len(actions))]
        record.append(player, action)
        if checked:
            state = game.apply(state, action)
        else:
            game.apply_unchecked(state, action)
    raise AssertionError(f"game did not end in {max_decisions} decisions (seed {seed})")


def check_playout_invariants(game: Game, params: Params, seed: int, choose: Chooser,
                             invariants: Iterable[Callable[[Any], None]] = (),
                             max_decisions: int = 20_000) -> Any:
    """Play with ``choose``, checking the protocol at every step; return the final state.

    Checks: a live game always has legal actions; every action's text parses back to it;
    ``apply`` never changes its input; ``clone`` equals the original; game-specific
    ``invariants`` hold after every step; the game ends.
    """
    invariants = tuple(invariants)
    state = game.initial_state(params, seed)
    for inv in invariants:
        inv(state)
    for step in range(max_decisions):
        if game.current_player(state) is None:
            assert game.outcome(state) is not None, "game over but no outcome"
            return state
        assert game.outcome(state) is None, "outcome before the game is over"
        actions = game.legal_actions(state)
        assert actions, f"stuck at step {step}: no legal action (seed {seed})"
        assert len(set(actions)) == len(actions), f"duplicate legal actions at step {step}"
        action = choose(actions)
        assert game.parse_action(str(action)) == action, f"text of {action!r} does not parse back"
        snapshot = state.clone()
        assert snapshot == state, "clone() differs from the original"
        next_state = game.apply(state, action)
        assert state == snapshot, f"apply({action}) changed its input"
        state = next_state
        for inv in invariants:
            inv(state)
    raise AssertionError(f"game did not end in {max_decisions} decisions (seed {seed})")


def check_clone_independent(game: Game, state: Any, rng: Rng) -> None:
    """Playing on a clone leaves the original untouched."""
    before = game.to_json(state)
    copy = state.clone()
    for _ in range(30):
        if game.current_player(copy) is None:
            break
        actions = game.legal_actions(copy)
        game.apply_unchecked(copy, actions[rng.randbelow(len(actions))])
    assert game.to_json(state) == before, "playing on a clone changed the original"


def check_replay(game: Game, record: GameRecord, final_state: Any) -> None:
    """The record, through JSON, replays to the identical state."""
    loaded = GameRecord.from_json(record.to_json())
    again = replay(loaded, game)
    assert again == final_state, "replay did not reproduce the final state"
    assert state_digest(game, again) == state_digest(game, final_state)


def check_json_roundtrip(game: Game, state: Any) -> None:
    """State -> JSON text -> state gives an equal state."""
    text = json.dumps(game.to_json(state))
    back = game.from_json(json.loads(text))
    assert back == state, "JSON round trip changed the state"


def check_views(game: Game, state: Any, secret_values: Iterable[Any] = ()) -> None:
    """Every seat's view and the spectator view are JSON-serialisable and carry no RNG
    state (nor any of ``secret_values``)."""
    players = game.num_players(state)
    rng_state = str(state.rng.state)
    for seat in [None, *range(players)]:
        view = game.player_view(state, seat)
        text = json.dumps(view)
        assert '"rng"' not in text, f"view of seat {seat} has an rng field"
        assert rng_state not in text, f"view of seat {seat} leaks the PRNG state"
        for secret in secret_values:
            assert str(secret) not in text, f"view of seat {seat} leaks {secret!r}"


def check_view_resampling(game: Game, state: Any, rng: Rng) -> None:
    """Re-sampling the hidden parts of a view (``game.sample_hidden`` with another
    generator) gives a state whose view, for the same seat, is the same view: what a seat
    sees does not depend on what it cannot see."""
    for seat in [None, *range(game.num_players(state))]:
        view = game.player_view(state, seat)
        resampled = game.sample_hidden(view, Rng(rng.next_u64()))
        assert game.player_view(resampled, seat) == view, (
            f"the view of seat {seat} changed when its hidden parts were re-sampled")


def perft(game: Game, state: Any, depth: int) -> int:
    """Count decision sequences of length ``depth`` (chance is fixed by the state's rng)."""
    if depth == 0 or game.current_player(state) is None:
        return 1
    total = 0
    for action in game.legal_actions(state):
        child = state.clone()
        game.apply_unchecked(child, action)
        total += perft(game, child, depth - 1)
    return total


# --- golden replays and perft files (STYLE.md section 9) --------------------------------
def golden_game(game: Game, params: Params, seed: int, chooser_seed: int) -> dict[str, Any]:
    """A complete random game: its record plus what a replay must reproduce."""
    final, record = random_playout(game, params, seed, chooser_seed)
    outcome = game.outcome(final)
    assert outcome is not None
    return {
        "record": record.to_dict(),
        "chooser_seed": chooser_seed,
        "decisions": len(record.actions),
        "scores": list(outcome.scores),
        "ranking": [list(g) for g in outcome.ranking],
        "breakdown": [dict(b) for b in outcome.breakdown],
        "digest": state_digest(game, final),
    }


def load_golden(path: Any) -> tuple[GameRecord, dict[str, Any]]:
    """A golden file: the record and the expected results."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    return GameRecord.from_dict(data["record"]), data


def perft_line(game: Game, seed: int, players: int, depth: int) -> str:
    count = perft(game, game.initial_state({"players": players}, seed), depth)
    return f"seed {seed} players {players} perft {depth} {count}"


def parse_perft(text: str) -> list[tuple[int, int, int, int]]:
    """``seed S players P perft D N`` lines as (seed, players, depth, count).

    >>> parse_perft("# comment\\nseed 7 players 3 perft 2 41")
    [(7, 3, 2, 41)]
    """
    rows = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        words = line.split()
        assert words[0::2][:3] == ["seed", "players", "perft"], line
        rows.append((int(words[1]), int(words[3]), int(words[5]), int(words[6])))
    return rows


def check_golden(game: Game, record: GameRecord, data: dict[str, Any]) -> None:
    """A golden record replays (checked) to its stored scores, ranking and digest."""
    assert record.game == game.name and record.rules_version == game.rules_version
    final = replay(record, game)
    outcome = game.outcome(final)
    assert outcome is not None, "the record no longer ends the game"
    assert list(outcome.scores) == data["scores"]
    assert [list(g) for g in outcome.ranking] == data["ranking"]
    assert state_digest(game, final) == data["digest"]
    check_replay(game, record, final)


def _differences(base: Any, other: Any, path: str = "") -> list[str]:
    """``path: value`` for each place where ``other`` differs from ``base``."""
    if isinstance(base, dict) and isinstance(other, dict) and base.keys() == other.keys():
        return [line for key in base
                for line in _differences(base[key], other[key], f"{path}.{key}" if path else key)]
    if (isinstance(base, list) and isinstance(other, list) and len(base) == len(other)):
        return [line for i, (a, b) in enumerate(zip(base, other, strict=True))
                for line in _differences(a, b, f"{path}[{i}]")]
    return [] if base == other else [f"{path}: {json.dumps(other)}"]


def views_text(game: Any, state: Any, summarise: Callable[[dict[str, Any]], list[str]],
               ) -> list[str]:
    """Every seat's view and the spectator's: the spectator's summarised, a digest of
    each whole view, and where each seat's view differs from the spectator's (its own
    number aside), so that anything one seat is shown changes the text."""
    spectator = game.player_view(state, None)
    out = ["  view of the spectator:", *summarise(spectator)]
    digests = [f"spectator {_digest(spectator)}"]
    seats = []
    for seat in range(game.num_players(state)):
        view = game.player_view(state, seat)
        digests.append(f"seat {seat} {_digest(view)}")
        extra = _differences({**spectator, "seat": seat}, view)
        seats.append(f"  view of seat {seat}: " + (
            "the spectator's" if not extra else "the spectator's, but"))
        seats += [f"    {line}" for line in extra]
    return [*out, *seats, "  digests: " + ", ".join(digests)]


def _digest(view: dict[str, Any]) -> str:
    text = json.dumps(view, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def playthrough_text(game: Any, params: Params, seed: int, chooser_seed: int, decisions: int,
                     summarise: Callable[[dict[str, Any]], list[str]], title: str,
                     regen_command: str) -> str:
    """A readable playthrough: each step's decision, legal actions, choice, new log lines
    and every seat's view and the spectator's (``views_text``; ``summarise`` turns a view
    into indented lines)."""
    state = game.initial_state(params, seed)
    rng = Rng.from_seed(chooser_seed)
    out = [f"# {title}: params {json.dumps(params)}, seed {seed}, "
           f"chooser seed {chooser_seed}.",
           f"# Regenerate with: {regen_command}", ""]
    out += ["setup:", *(f"    {line}" for line in state.log)]
    out += views_text(game, state, summarise)
    seen = len(state.log)
    for step in range(1, decisions + 1):
        if game.current_player(state) is None:
            break
        actions = game.legal_actions(state)
        action = actions[rng.randbelow(len(actions))]
        out.append("")
        out.append(f"step {step}: {game.describe_decision(state)}")
        out.append(f"  legal ({len(actions)}): " + ", ".join(str(a) for a in actions))
        out.append(f"  chosen: {action} ({game.action_label(state, action)})")
        state = game.apply(state, action)
        out += [f"  log: {line}" for line in state.log[seen:]]
        seen = len(state.log)
        out += views_text(game, state, summarise)
    return "\n".join(out) + "\n"
