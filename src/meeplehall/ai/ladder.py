"""The bot ladder: what every level does in every game and mode, as data.

``LADDER[game][mode][kind]`` is a ``Level``: the policy it plays and that policy's
settings. ``make_bot`` builds bots from this table only, and the ladder table of
docs/ai.md is ``ladder_table()`` (a test checks that they agree). The modes are
``solo`` (one seat; the rulebook's automaton, Ivan or the dummy, is played by the engine
inside ``apply``) and ``players`` (two seats or more). Each game's heuristic is its
``Evaluator`` (``EVALUATORS``), injected into the bots.

The ``expert`` level thinks by the clock (``DEFAULT_THINK`` seconds per decision, or
``think``); ``expert@N`` is the same search with a budget of ``N`` iterations per decision
(deterministic given its seed) for tests and tournaments.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from meeplehall.ai.bot import Bot
from meeplehall.ai.evaluator import Evaluator, resolve
from meeplehall.ai.expert import DEFAULT_THINK, ExpertBot, ExpertConfig
from meeplehall.ai.greedy import GreedyBot
from meeplehall.ai.heuristics.praga import PragaEvaluator
from meeplehall.ai.heuristics.red_cathedral import RedCathedralEvaluator
from meeplehall.ai.learned_search import LearnedConfig, LearnedSearchBot
from meeplehall.ai.mcts import MCTSBot, MCTSConfig
from meeplehall.ai.planner import CheckedPlannerBot, PlannerBot, RolloutCheck
from meeplehall.ai.random_bot import RandomBot
from meeplehall.core.protocol import Game

Mode = Literal["solo", "players"]
MODES: tuple[Mode, ...] = ("solo", "players")
Policy = Literal["random", "greedy", "planner", "search", "checked planner", "expert"]

KINDS: tuple[str, ...] = ("random", "greedy", "planner", "mcts-easy", "mcts-medium",
                          "mcts-hard", "expert")
"""The ladder's levels, weakest first."""


@dataclass(frozen=True)
class Level:
    """What one level does in one game and mode: its policy, the tree search's settings
    (``search``) or the rollout check of the planner's choices (``check``), and one line
    saying so."""

    policy: Policy
    summary: str
    search: MCTSConfig | None = None
    check: RolloutCheck | None = None
    expert: ExpertConfig | None = None

    def build(self, seed: int, evaluator: Evaluator | None = None) -> Bot:
        """A bot playing this level, deterministic given ``seed`` (the expert where it
        counts iterations)."""
        if self.policy == "expert":
            assert self.expert is not None
            return ExpertBot(seed, self.expert, evaluator)
        if self.policy == "random":
            return RandomBot(seed)
        if self.policy == "greedy":
            return GreedyBot(seed, evaluator)
        if self.policy == "planner":
            return PlannerBot(seed, evaluator)
        if self.policy == "search":
            assert self.search is not None
            return MCTSBot(seed, self.search, evaluator)
        assert self.check is not None
        return CheckedPlannerBot(seed, self.check, evaluator)


def _tree(iterations: int) -> Level:
    """UCT over the full tree (``TREE``), ``iterations`` per decision."""
    return Level("search", f"UCT, full tree, {iterations} iterations",
                 replace(TREE, iterations=iterations))


def _turns(config: MCTSConfig, playouts: int) -> Level:
    """The depth-1 search over turn play-outs (``config``), ``playouts`` per decision."""
    return Level("search", f"turn play-out search, {playouts} play-outs",
                 replace(config, iterations=playouts))


# The same in every game and mode.
RANDOM = Level("random", "a uniformly random legal action")
GREEDY = Level("greedy", "one-ply lookahead: each legal action rated by the game's evaluation")
PLANNER = Level("planner", "each action followed by the rest of its own turn played "
                           "greedily, rated where the turn ends")

EXPERT = Level("expert", f"information-set MCTS over the seat's turn: its decisions "
                         f"in the tree, the planner as prior, leaves rated after the "
                         f"others' greedy answer; {DEFAULT_THINK:g} s per decision",
               expert=ExpertConfig())

# The full tree: UCT over every decision, the tree kept between decisions.
TREE = MCTSConfig()
# Turn play-outs: each root action followed by the rest of the turn played greedily
# (at most ``turn_rollout`` decisions) and rated where the turn ends, every action on the
# same sampled futures, a tree of depth 1 (a deeper tree averages over the many small
# decisions of a turn and rates turns in their middle).
PRAGA_TURNS = MCTSConfig(turn_rollout=40, fixed_chance=True, max_depth=1)
RC_TURNS = MCTSConfig(turn_rollout=24, fixed_chance=True, max_depth=1)

LADDER: dict[str, dict[Mode, dict[str, Level]]] = {
    "praga": {
        # Strength rises up to about 50 iterations and falls beyond; each level is
        # measurably stronger than the one below.
        "players": {
            "mcts-easy": _tree(2),
            "mcts-medium": _tree(4),
            "mcts-hard": _tree(50),
        },
        "solo": {
            "mcts-easy": _turns(PRAGA_TURNS, 25),
            "mcts-medium": _turns(PRAGA_TURNS, 100),
            "mcts-hard": _turns(PRAGA_TURNS, 300),
        },
    },
    "red-cathedral": {
        # The turn search gains little beyond a handful of play-outs (its horizon is the
        # seat's turn); one play-out is weaker than greedy, so mcts-easy keeps the tree.
        "players": {
            "mcts-easy": _tree(4),
            "mcts-medium": _turns(RC_TURNS, 2),
            "mcts-hard": _turns(RC_TURNS, 16),
        },
        "solo": {
            "mcts-easy": _turns(RC_TURNS, 50),
            "mcts-medium": _turns(RC_TURNS, 200),
            # no tree: the planner's choices, each turn's first one checked by playing
            # its 6 best actions on for 8 turns (4 rounds with Ivan) on 2 shared futures
            # and comparing the fitted odds of winning (``check_rating``)
            "mcts-hard": Level(
                "checked planner",
                "the planner's choices, each turn's first one checked: its 6 best actions "
                "played on by the planner for 8 turns on 2 futures, rated by the odds of "
                "winning",
                check=RolloutCheck(candidates=6, turns=8, samples=2)),
        },
    },
}
# every game and mode: the common levels, then its searches, weakest first
for _modes in LADDER.values():
    for _mode, _searches in _modes.items():
        _modes[_mode] = {"random": RANDOM, "greedy": GREEDY, "planner": PLANNER, **_searches,
                         "expert": EXPERT}

EVALUATORS: dict[str, Callable[[str | None], Evaluator]] = {
    "praga": PragaEvaluator,
    "red-cathedral": RedCathedralEvaluator,
}
"""Each game's ``Evaluator``, given a strategy profile's name or None."""

_EVALUATORS: dict[tuple[str, str | None], Evaluator] = {}


def evaluator_for(game: Game | str, profile: str | None = None) -> Evaluator:
    """The game's ``Evaluator`` (with a strategy profile's weights where one is named)."""
    name = game if isinstance(game, str) else game.name
    key = (name, profile)
    if key not in _EVALUATORS:
        if name not in EVALUATORS:
            raise ValueError(f"no evaluator for the game {name!r}")
        _EVALUATORS[key] = EVALUATORS[name](profile)
    return _EVALUATORS[key]


def level(game: str, mode: Mode, kind: str) -> Level:
    """The ``Level`` of ``kind`` in ``game`` and ``mode``."""
    return LADDER[game][mode][kind]


def hardest_search(game: Game, solo: bool) -> MCTSConfig:
    """The tree search settings of the strongest level that searches in the game and
    mode (what ``meeplehall bench`` times)."""
    modes = LADDER[game.name]["solo" if solo else "players"]
    return next(lv.search for lv in reversed(modes.values()) if lv.search is not None)


class LevelBot:
    """A level of the ladder for any game: at its first decision in a game and mode it
    builds the bot that ``LADDER`` gives the level there, and plays with it."""

    def __init__(self, kind: str, seed: int, evaluator: Evaluator | None = None) -> None:
        self.kind = kind
        self.seed = seed
        self.evaluator = evaluator
        self._bots: dict[tuple[str, Mode], Bot] = {}

    def bot(self, game: Game, view: dict[str, Any]) -> Bot:
        """The bot this level plays with in the view's game and mode."""
        mode: Mode = "solo" if resolve(self.evaluator, game).is_solo(view) else "players"
        key = (game.name, mode)
        if key not in self._bots:
            self._bots[key] = level(game.name, mode, self.kind).build(self.seed, self.evaluator)
        return self._bots[key]

    def choose(self, game: Game, view: dict[str, Any], legal: tuple[Any, ...]) -> Any:
        return self.bot(game, view).choose(game, view, legal)

    def analyse(self, game: Game, view: dict[str, Any],
                legal: tuple[Any, ...]) -> list[tuple[Any, float, float]]:
        """The search's analysis (each action's share of the root's visits and mean
        value); for a checked planner, the action it plays first (share 1) and the others
        in the planner's order (share 0), with the planner's values."""
        bot = self.bot(game, view)
        if isinstance(bot, MCTSBot | ExpertBot):
            return bot.analyse(game, view, legal)
        assert isinstance(bot, CheckedPlannerBot)
        ranked = bot.rank(game, view, legal)
        chosen = bot.choose(game, view, legal)
        rows = [(a, 1.0 if a == chosen else 0.0, v) for v, a in ranked]
        rows.sort(key=lambda r: -r[1])
        return rows


EXPERT_BUDGET = "expert@"
"""``expert@N``: the expert level with ``N`` iterations per decision instead of a clock."""


def expert_config(kind: str, think: float | None = None) -> ExpertConfig | None:
    """The expert search's settings for ``kind`` (``expert``, ``expert@N``) with the
    think time ``think`` (None: the default), or None for any other kind; a malformed
    budget or think time raises ``ValueError``."""
    if think is not None and not (isinstance(think, int | float) and think > 0
                                  and math.isfinite(think)):
        raise ValueError(f"the think time must be a positive number of seconds, got {think!r}")
    if kind == "expert":
        config = EXPERT.expert
        assert config is not None
        return replace(config, think=think) if think is not None else config
    if not kind.startswith(EXPERT_BUDGET):
        return None
    count = kind[len(EXPERT_BUDGET):]
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"{kind!r}: the expert's budget is a whole number of iterations "
                         "(at least 1), as in expert@64")
    return ExpertConfig(iterations=int(count))


LEARNED_KINDS: tuple[str, ...] = ("learned", "learned-hand")
"""The learned search (``ai/learned_search.py``) beside the ladder: ``learned`` rates its
leaves by the shipped model, ``learned-hand`` by the hand-written evaluation (what
``learned`` falls back to); ``<kind>@N`` counts ``N`` iterations per decision."""


def learned_config(kind: str, think: float | None = None) -> LearnedConfig | None:
    """The learned search's settings for ``learned``, ``learned-hand`` or their ``@N``
    forms (None for any other kind); a malformed budget raises ``ValueError``."""
    base, at, count = kind.partition("@")
    if base not in LEARNED_KINDS:
        return None
    use_model = base == "learned"
    if not at:
        if think is not None:
            expert_config("expert", think)  # checks the think time
            return LearnedConfig(think=think, use_model=use_model)
        return LearnedConfig(use_model=use_model)
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"{kind!r}: the learned search's budget is a whole number of "
                         f"iterations (at least 1), as in {base}@800")
    return LearnedConfig(iterations=int(count), use_model=use_model)


def check_kind(kind: str) -> str:
    """``kind`` if it names a bot (a level of the ladder, ``expert@N``, or the learned
    search's kinds), else ``ValueError`` saying which exist."""
    if kind in KINDS or expert_config(kind) is not None or learned_config(kind) is not None:
        return kind
    raise ValueError(f"unknown bot {kind!r}; bots are: {', '.join(KINDS)} "
                     f"(and {EXPERT_BUDGET}N: the expert with N iterations per decision; "
                     f"{', '.join(LEARNED_KINDS)} and their @N forms: the learned search)")


def make_bot(kind: str, seed: int = 0, think: float | None = None) -> Bot:
    """A bot of a level of the ladder, deterministic given ``seed``: the levels that are
    the same in every game and mode are built at once, the others at their first
    decision (``LevelBot``). ``think``: the expert's seconds per decision (only the
    clock-driven ``expert`` uses it)."""
    config = expert_config(check_kind(kind), think)
    if config is not None:
        return ExpertBot(seed, config)
    learned = learned_config(kind, think)
    if learned is not None:
        return LearnedSearchBot(seed, learned)
    levels = {modes[mode][kind] for modes in LADDER.values() for mode in MODES}
    if len(levels) == 1:
        return levels.pop().build(seed)
    return LevelBot(kind, seed)


COLUMNS: tuple[tuple[str, Mode, str], ...] = (
    ("red-cathedral", "players", "The Red Cathedral, 2–4 players"),
    ("red-cathedral", "solo", "The Red Cathedral, solo (against Ivan)"),
    ("praga", "players", "Praga, 2–4 players"),
    ("praga", "solo", "Praga, solo (against the dummy)"),
)
"""The columns of the ladder's table in docs/ai.md."""


def ladder_table() -> str:
    """The ladder as the Markdown table of docs/ai.md: a row per level, a column per game
    and mode ("same" where a level does what it does in the first column)."""
    rows = ["| level | " + " | ".join(title for _, _, title in COLUMNS) + " |",
            "|---" * (len(COLUMNS) + 1) + "|"]
    for kind in KINDS:
        cells = [level(game, mode, kind).summary for game, mode, _ in COLUMNS]
        rows.append(f"| `{kind}` | " + " | ".join(
            [cells[0]] + ["same" if c == cells[0] else c for c in cells[1:]]) + " |")
    return "\n".join(rows)
