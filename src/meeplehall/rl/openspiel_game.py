"""OpenSpiel games: ``meeplehall_red_cathedral`` and ``meeplehall_praga``.

``register()`` registers both as OpenSpiel *Python games* (``pyspiel.register_game``), so
``pyspiel.load_game("meeplehall_praga", {"players": 3})`` works and OpenSpiel's own
algorithms (MCTS, random rollouts, policy evaluation...) run on them.

* Dynamics: sequential; chance: **sampled stochastic** (dice, shuffles and draws come
  from the engine's seeded PRNG inside the state, exactly as in every meeplehall game,
  so there are no explicit chance nodes; the k-th ``new_initial_state()`` of a game
  object uses seed ``seed + k``); information: imperfect.
* Actions are catalogue indices (``docs/rl.md``); ``action_to_string`` gives the engine's
  text form.
* Returns: terminal only, ``reward="rank"`` (default) or ``"margin"`` (see
  :mod:`meeplehall.rl.rewards`).
* Tensors: ``observation_tensor`` and ``information_state_tensor`` are both the encoder's
  observation vector of the seat's player view (not a perfect-recall history);
  ``information_state_string`` is the seat's view as JSON (it includes the public log),
  ``observation_string`` the same without the log.
* Parameters: ``players``, ``seed``, ``reward``, ``options`` (further game options as
  ``"name=value,name=value"`` text) and ``chance``: ``"sampled"`` (the default, above) or
  ``"explicit"``: the game then opens with one chance node, nature choosing the deal
  (one of ``deals`` equally likely seeds, ``seed + outcome``), after which every move
  is determined by the actions. With explicit chance a state is its action history, so
  OpenSpiel's own serialisation (``serialize_game_and_state``, ``random_sim_test`` with
  ``serialize=True``, checkpoints) works; a sampled stochastic Python game cannot be
  serialised by OpenSpiel, which asks such a game for a generator state that Python
  games cannot give.

A cloned state shares its future dice with the original (sampled stochastic), so search
that clones the true state knows them: use it as OpenSpiel uses its other sampled
stochastic games, for testing and baselines. ``resample_from_infostate(player,
sampler)`` gives a state that seat cannot tell from the true one (its view, the hidden
components re-dealt and a fresh PRNG: the game's ``sample_hidden``), so OpenSpiel's
information-set MCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) searches
without seeing what the seat cannot.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from meeplehall.core.rng import Rng
from meeplehall.rl.rewards import DEFAULT_MARGIN_SCALE
from meeplehall.rl.table import Table, game_named

SHORT_NAMES: dict[str, str] = {
    "red-cathedral": "meeplehall_red_cathedral",
    "praga": "meeplehall_praga",
}
# Upper bounds on decisions per game, for GameInfo (random 4-player games take about
# 2,400 decisions in The Red Cathedral and 500 in Praga).
MAX_GAME_LENGTH: dict[str, int] = {"red-cathedral": 20000, "praga": 5000}
_MAX_SCORE = 300.0
CHANCE_MODES = ("sampled", "explicit")
DEFAULT_DEALS = 1 << 16  # outcomes of the explicit deal: seeds seed .. seed + deals - 1


def parse_options(text: str) -> dict[str, str]:
    """Game options from ``"name=value,name=value"`` (values are checked by the game).

    >>> parse_options("road_tiles=true, action_side=B")
    {'road_tiles': 'true', 'action_side': 'B'}

    Raises:
        ValueError: an item without ``=``.
    """
    out: dict[str, str] = {}
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        if "=" not in item:
            raise ValueError(f"game option {item!r} must be written name=value")
        name, value = item.split("=", 1)
        out[name.strip()] = value.strip()
    return out


def _game_type(name: str, chance: str = "sampled") -> Any:
    players = next(o for o in game_named(name).options if o.name == "players")
    mode = (pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance == "explicit"
            else pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC)
    return pyspiel.GameType(
        short_name=SHORT_NAMES[name],
        long_name=f"meeplehall {game_named(name).title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=mode,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players.maximum or 4,
        min_num_players=players.minimum or 2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": int(players.default), "seed": 0,
                                 "reward": "rank", "options": "", "chance": "sampled",
                                 "deals": DEFAULT_DEALS},
    )


class MeeplehallGame(pyspiel.Game):  # type: ignore[misc]
    """One meeplehall game as an OpenSpiel game (parameters: see the module docstring)."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 2))
        reward = str(params.get("reward", "rank"))
        options: dict[str, Any] = parse_options(str(params.get("options", "")))
        self.table = Table(self.game_name, players, reward, **options)
        self.seed = int(params.get("seed", 0))
        self.chance = str(params.get("chance", "sampled"))
        if self.chance not in CHANCE_MODES:
            raise ValueError(f"chance must be one of {', '.join(CHANCE_MODES)}; "
                             f"got {self.chance!r}")
        self.deals = int(params.get("deals", DEFAULT_DEALS))
        if self.deals < 1:
            raise ValueError(f"deals must be at least 1; got {self.deals}")
        self._made = 0
        bound = 1.0 if reward == "rank" else _MAX_SCORE / DEFAULT_MARGIN_SCALE
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.encoder.num_actions,
            max_chance_outcomes=self.deals if self.chance == "explicit" else 0,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH[self.game_name])
        super().__init__(_game_type(self.game_name, self.chance), info, params)

    def new_initial_state(self) -> MeeplehallState:
        table = self.table.clone()
        if self.chance == "explicit":
            table.reset(self.seed)  # replaced when nature deals
            return MeeplehallState(self, table, dealt=False)
        table.reset(self.seed + self._made)
        self._made += 1
        return MeeplehallState(self, table)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> _Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.table, perfect_recall)


class MeeplehallState(pyspiel.State):  # type: ignore[misc]
    """A game in progress; wraps a :class:`~meeplehall.rl.table.Table`."""

    def __init__(self, game: MeeplehallGame, table: Table, dealt: bool = True) -> None:
        super().__init__(game)
        self.table = table
        self.dealt = dealt  # False only at the explicit-chance game's opening deal

    def current_player(self) -> int:
        if not self.dealt:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.table.to_move()
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The opening deal's outcomes (explicit chance only): every seed equally likely."""
        if self.dealt:
            return []
        deals = self.get_game().deals
        return [(k, 1.0 / deals) for k in range(deals)]

    def _legal_actions(self, player: int) -> list[int]:
        if not self.dealt or player != self.table.to_move():
            return []
        return self.table.legal_indices()

    def _apply_action(self, action: int) -> None:
        if not self.dealt:
            game = self.get_game()
            if not 0 <= action < game.deals:
                raise ValueError(f"deal {action} is not one of 0..{game.deals - 1}")
            self.table.reset(game.seed + action)
            self.dealt = True
            return
        self.table.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"deal {action}"
        return str(self.table.encoder.action_at(action))

    def is_terminal(self) -> bool:
        return self.table.outcome() is not None

    def returns(self) -> list[float]:
        return self.table.rewards()

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Any = None) -> MeeplehallState:
        """A state that seat ``player_id`` cannot tell from this one: the public state of
        its view with the hidden components re-dealt and a fresh PRNG (the game's own
        ``sample_hidden``, as meeplehall's determinizing bots use), for OpenSpiel's
        information-set MCTS. ``probability_sampler`` (a callable giving a float in
        [0, 1), as ``pyspiel.UniformProbabilitySampler``) draws the deal; without one the
        deal is drawn at random."""
        if not self.dealt:
            return MeeplehallState(self.get_game(), self.table.clone(), dealt=False)
        try:
            u = float(probability_sampler())
        except TypeError:
            u = float(np.random.default_rng().random())
        table = self.table.clone()
        game = table.game
        view = game.player_view(self.table.state, player_id)
        table.state = game.sample_hidden(view, Rng.from_seed(int(u * 2**53)))
        table.observer.forget()
        table.refresh()
        return MeeplehallState(self.get_game(), table)

    def __deepcopy__(self, memo: dict[int, Any]) -> MeeplehallState:
        return MeeplehallState(self.get_game(), self.table.clone(), self.dealt)

    def __str__(self) -> str:
        if not self.dealt:
            return "before the deal"
        outcome = self.table.outcome()
        if outcome is not None:
            return f"game over: scores {list(outcome.scores)}"
        return self.table.game.describe_decision(self.table.state)


class _Observer:
    """PyObserver: the encoder's vector (``tensor``, with one named slice per block) and
    the seat's view as JSON."""

    def __init__(self, table: Table, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(table.encoder.size, np.float32)
        self.dict = {name: self.tensor[a:b] for name, (a, b) in table.encoder.offsets.items()}

    def set_from(self, state: MeeplehallState, player: int) -> None:
        self.tensor[:] = state.table.observation(player)

    def string_from(self, state: MeeplehallState, player: int) -> str:
        view = dict(state.table.view(player))
        if not self.perfect_recall:
            view.pop("log", None)
            view.pop("state", None)  # the bot-only copy of the public state, log included
        return json.dumps(view, sort_keys=True)


def _game_class(name: str) -> type[MeeplehallGame]:
    return type(f"Meeplehall{name.title().replace('-', '')}Game", (MeeplehallGame,),
                {"game_name": name})


def register() -> list[str]:
    """Register both games with OpenSpiel (again is harmless); return their short names."""
    known = set(pyspiel.registered_names())
    for name, short in SHORT_NAMES.items():
        if short not in known:
            pyspiel.register_game(_game_type(name), _game_class(name))
    return list(SHORT_NAMES.values())
