"""The core protocol as the clients' interface (core/protocol.py): every member of
``Game`` exists on every registered game, ``GameBase`` gives the defaults a game need not
write, and ``Game`` is generic in its state and action types for the type checker."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from meeplehall.cli.main import player_range
from meeplehall.cli.render import action_label, side_name
from meeplehall.core.protocol import Game, GameBase, IllegalActionError, Option, Outcome
from meeplehall.games import GAMES

ROOT = Path(__file__).resolve().parents[2]

MEMBERS = sorted({name for name in vars(Game) if not name.startswith("_")}
                 | {"name", "title", "rules_version", "options", "shared_views"})


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_every_member_of_the_protocol(name: str) -> None:
    game = GAMES[name]
    for member in MEMBERS:
        assert hasattr(game, member), f"{name} lacks Game.{member}"
    assert game.title and game.title != game.name
    assert 1 <= game.min_players <= game.max_players
    assert isinstance(game.shared_views, bool)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_player_views_equal_player_view_per_seat(name: str) -> None:
    game = GAMES[name]
    state = game.initial_state({"players": 2}, 5)
    for _ in range(25):
        game.apply_unchecked(state, game.legal_actions(state)[0])
    seats: list[int | None] = [1, None, 0, 1]
    views = game.player_views(state, seats, {})
    assert list(views) == [1, None, 0]
    for seat in (0, 1, None):
        assert views[seat] == game.player_view(state, seat)


@dataclass
class CountState:
    """A toy game: two seats add 1 or 2 to a total until it reaches 5."""

    total: int = 0
    turn: int = 0
    log: list[str] = field(default_factory=list)

    def clone(self) -> CountState:
        return CountState(self.total, self.turn, list(self.log))


class Count(GameBase[CountState, int]):
    name = "count"
    options = (Option("players", "int", 2, "seats", minimum=2, maximum=3),)

    def initial_state(self, params: Any, seed: int) -> CountState:
        return CountState()

    def current_player(self, state: CountState) -> int | None:
        return None if state.total >= 5 else state.turn % 2

    def legal_actions(self, state: CountState) -> tuple[int, ...]:
        return (1, 2)

    def apply_unchecked(self, state: CountState, action: int) -> None:
        state.total += action
        state.turn += 1

    def parse_action(self, text: str) -> int:
        return int(text)

    def num_players(self, state: CountState) -> int:
        return 2

    def player_view(self, state: CountState, player: int | None) -> dict[str, Any]:
        return {"total": state.total, "seat": player}

    def outcome(self, state: CountState) -> Outcome | None:
        return None


def test_defaults_of_game_base() -> None:
    game = Count()
    state = game.initial_state({}, 0)
    assert game.action_label(state, 2) == "2"
    assert action_label(game, state, 2) == "2"  # the terminal shows no duplicate text
    assert game.side_name(state, 1) == "seat 1" == side_name(game, state, 1)
    assert game.rules_text(state) == ""
    assert (game.min_players, game.max_players) == (2, 3) == player_range(game)
    assert not game.shared_views
    assert game.player_views(state, [0, None, 0]) == {
        0: {"total": 0, "seat": 0}, None: {"total": 0, "seat": None}}
    after = game.apply(state, "2")
    assert (state.total, after.total) == (0, 2)
    with pytest.raises(IllegalActionError, match=r"3 is not legal now\. .*Legal actions: 1, 2"):
        game.apply(after, 3)


def test_player_bounds_without_a_players_option() -> None:
    class Bare(Count):
        options = ()

    assert (Bare().min_players, Bare().max_players) == (1, 4)


def test_games_override_what_is_their_own() -> None:
    for game in GAMES.values():
        for member in ("action_label", "side_name", "rules_text", "explain_illegal"):
            assert getattr(type(game), member) is not getattr(GameBase, member), member


def test_clients_look_nothing_up_on_the_game_by_name() -> None:
    """The protocol members are called directly; no client probes a game for them."""
    probe = re.compile(r"(?:getattr|hasattr)\(\s*[\w.]*game[\w.]*\s*,\s*[\"'](\w+)[\"']")
    sources = [p for d in ("server", "cli", "web", "rl", "ai")
               for p in (ROOT / "src" / "meeplehall" / d).rglob("*.py")]
    assert sources
    assert probe.search('label = getattr(self.game, "action_label", None)')
    found = [(path.name, m.group(1)) for path in sources
             for m in probe.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


MYPY_PROBE = textwrap.dedent('''
    from typing import assert_type

    from meeplehall.core.protocol import Game
    from meeplehall.games import GAMES
    from meeplehall.games.praga import GAME as PRAGA
    from meeplehall.games.praga.actions import PragaAction
    from meeplehall.games.praga.state import PragaState
    from meeplehall.games.red_cathedral import GAME as RC
    from meeplehall.games.red_cathedral.actions import RCAction
    from meeplehall.games.red_cathedral.state import RCState

    rc: Game[RCState, RCAction] = RC
    praga: Game[PragaState, PragaAction] = PRAGA
    state = rc.initial_state({}, 1)
    assert_type(state, RCState)
    assert_type(rc.legal_actions(state), tuple[RCAction, ...])
    assert_type(praga.parse_action("end"), PragaAction)
    assert_type(rc.apply(state, "end-turn"), RCState)
    anything: Game = GAMES["praga"]
    wrong: Game[RCState, RCAction] = PRAGA  # the one error expected
''')


def test_mypy_sees_states_and_actions_through_game(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(MYPY_PROBE, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
         "--follow-imports=silent", str(probe)],
        cwd=ROOT, capture_output=True, text=True, check=False,
        env={"MYPYPATH": str(ROOT / "src"), "PATH": ""})
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1, result.stdout + result.stderr
    assert "probe.py:21: error: Incompatible types in assignment" in errors[0]
    assert '"Praga"' in errors[0]
