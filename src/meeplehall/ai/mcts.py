"""Monte Carlo tree search over the core protocol (determinized, open-loop UCT).

The search plays from the seat's view only (STYLE.md sections 4-5):

- **Determinization.** Full states are rebuilt from the view with
  ``game.sample_hidden(view, rng)`` and the bot's own generator: a pool of
  ``MCTSConfig.pool`` samples per decision (hidden stacks, unused components re-dealt),
  and for every iteration a clone of one of them whose PRNG state (``state.rng``: future
  dice, draws, automaton turns) is re-seeded from the bot's generator. ``state.rng`` of
  the real game is never read, so two states that differ only in hidden information give
  the same decision for the same bot seed.
- **One tree per decision, keyed by action sequences** (single-observer information-set
  MCTS, "open loop"): chance lives inside ``apply_unchecked``, so the state under a node
  differs between iterations; the actions legal at a node may too, and UCT uses each
  child's *availability* count (how often it could have been chosen) instead of the
  parent's visits (Cowling, Powley and Whitehouse 2012).
- **Multi-player.** Every node keeps a value per seat in [0, 1]; the player to move at a
  node picks the child best for itself (max^n). Solo games against an automaton (Ivan in
  The Red Cathedral) have one seat: the automaton is played by the engine inside
  ``apply_unchecked``, so the search needs no bot for it.
- **Evaluation** (``LeafValue``). After ``rollout_depth`` random moves (0 by default:
  the heuristic is better than random play) the position is rated with the game's
  heuristic (``meeplehall.ai.heuristics.<game>.evaluate``). Every seat gets its own
  value in [0, 1], a logistic of the change since the root of its margin over the best
  other side (the automaton counts as a side where the heuristic module's
  ``sides(state)`` says so; alone, the margin is the evaluation itself) divided by the
  module's ``SCALE``. Measuring from the root keeps values spread around 0.5 whatever
  the score, so that UCT tells moves apart: with an absolute margin (the first version)
  root children's means differed by a few hundredths against an exploration constant
  of 0.6, and visits were spread almost evenly. Finished games score
  0.7 x result (win 1, last 0, ranks between) plus 0.3 x the same logistic of the final
  margin.
- **Move ordering and progressive widening.** Where more than ``widen_min`` actions are
  legal, a node orders them by the heuristic (one-step lookahead, computed once on its
  second visit, the root's on its first) and only the best
  ``max(widen_min, widen_c * visits ** widen_alpha)`` are searched; new children are
  expanded best-first, so a search of k iterations rates the root's k best actions.
- **Budget.** ``iterations`` (deterministic), times the heuristic module's ``BUDGET``
  share (Praga's evaluation projects final scoring and costs about four times a Red
  Cathedral one), and optionally ``seconds`` (a wall-clock cap: then the decision
  depends on the machine's speed). A ladder level uses the module's own count where it
  sets one (``LEVEL_ITERATIONS``: Praga's levels were spaced by measured strength), or
  the count or settings its ``search_settings`` gives the level for this kind of
  position (``levels``: The Red Cathedral with players). A decision with one legal
  action spends nothing.
- **Rollout check** (``check_candidates``/``check_turns``/``check_samples``). At the
  first decision of the seat's turn a few candidate actions (the most visited root
  actions) are each played on by the planner bot for a few turns, on the same sampled
  futures, and the one whose position is then rated best is played: the search rates
  an action where the seat's turn ends and cannot see what it brings a few turns later.
  With ``planner_search`` no tree is searched: the planner makes the decisions and
  its best actions are the candidates (mcts-hard in The Red Cathedral's solo game).
  With ``check_rival`` the position is rated by the seat's margin: its evaluation
  less that weight times the best other side's (Ivan's in the solo game). With
  ``check_kinds`` the first decision of each listed kind within the turn is checked
  too (e.g. the first delivery of a Build in The Red Cathedral; no level sets it).
  With ``check_rating`` the game's heuristic module rates the position with a function
  of its own (The Red Cathedral's solo game: the log-odds of winning, fitted to the
  outcomes of planner games against Ivan).
- **Tree reuse.** After a decision the bot keeps the tree; at its next decision it looks
  for the new position among the descendants of the chosen action (applying the
  actions stored in the tree to a sample of the previous view and comparing the seat's
  view). Where chance intervened the views differ and the search starts afresh.
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any

from meeplehall.ai.base import bot_rng
from meeplehall.ai.greedy import step_value
from meeplehall.core.protocol import Game
from meeplehall.core.rng import Rng

Evaluator = Callable[[Any, int], float]


@dataclass(frozen=True)
class MCTSConfig:
    """Search settings; the ladder's levels differ only in ``iterations``."""

    iterations: int = 1000
    seconds: float | None = None
    exploration: float = 0.25
    rollout_depth: int = 0
    turn_rollout: int = 0
    rollout_turns: int = 1
    fixed_chance: bool = False
    max_depth: int = 0
    widen_min: int = 6
    widen_c: float = 2.0
    widen_alpha: float = 0.5
    pool: int = 16
    crn: bool = False
    reuse: bool = True
    reuse_probe: int = 24
    scale: float | None = None
    # a rollout check at the first decision of the seat's turn (``MCTSBot._check``):
    # the ``check_candidates`` best actions are each played on by the planner bot until
    # the state's ``turns`` counter has advanced by ``check_turns``, on ``check_samples``
    # futures shared by all of them; 0 turns it off. The candidates are the search's
    # most visited actions, or with ``planner_search`` (no tree) the planner's best,
    # the planner then making the turn's other decisions too.
    check_candidates: int = 0
    check_turns: int = 0
    check_samples: int = 1
    planner_search: bool = False
    # the check rates an unfinished position by the seat's evaluation less
    # ``check_rival`` x the best other side's (the automaton is a side in solo games)
    check_rival: float = 0.0
    # decision kinds (the first entry of the decision on top of the ``stack`` of the
    # view's state, in games whose views show one) whose first decision within a turn
    # is checked too, besides the turn's first decision (e.g. The Red Cathedral's
    # ``DELIVER``, the first delivery of a Build; measured, not set by any level)
    check_kinds: tuple[int, ...] = ()
    # the name of a function of the game's heuristic module, ``f(state, seat)``, that
    # rates the check's unfinished positions instead (a finished game is still rated by
    # its result); it takes the place of ``check_rival`` (The Red Cathedral's
    # ``check_rating``: the log-odds of winning the solo game, fitted to planner games)
    check_rating: str = ""


LEVELS: dict[str, MCTSConfig] = {
    "mcts-easy": MCTSConfig(iterations=100),
    "mcts-medium": MCTSConfig(iterations=400),
    "mcts-hard": MCTSConfig(iterations=1200),
}


def heuristics_for(game: Game) -> ModuleType:
    return importlib.import_module(f"meeplehall.ai.heuristics.{game.name.replace('-', '_')}")


def _sigmoid(x: float) -> float:
    if x < -40:
        return 0.0
    if x > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))



class LeafValue:
    """Values in [0, 1] per seat of a position reached by the search, each from that
    seat's side of the table (so every seat's node statistics rate its own prospects,
    whoever acts at the node; many decisions in a row belong to one seat in both games).

    - Unfinished: a logistic of the *change* since the root of the seat's margin (its
      heuristic evaluation minus the best other side's; the automaton is a side in solo
      games, and with no other side the margin is the evaluation itself), divided by
      ``scale``. Measuring from the root keeps the values spread around 0.5 however far
      ahead or behind the game stands, so that UCT can tell moves apart.
    - Finished: 0.7 x the result (win 1, last 0, ranks between; alone: 1 for a win)
      plus 0.3 x the same logistic of the final margin's change.
    """

    def __init__(self, game: Game, module: ModuleType, root: Any, seats: int,
                 scale: float, baseline: list[float] | None = None) -> None:
        self.game = game
        self.evaluate: Evaluator = module.evaluate
        # optional: every side's evaluation at once (sharing work between sides)
        self.evaluate_all: Callable[[Any], list[float]] | None = getattr(
            module, "evaluate_all", None)
        self.final_bonus = float(getattr(module, "FINAL_BONUS", 0.0))
        sides_of = getattr(module, "sides", None)
        self.sides: int = sides_of(root) if sides_of is not None else seats
        self.seats = seats
        self.scale = scale
        # the margins values are measured from: the root's, or those of the search whose
        # tree is being reused, so that old and new statistics in it agree
        self.root = baseline if baseline is not None else self.margins(root)
        # where the module can score the root as if the game ended there, a finished
        # game's margin is measured from that instead of from the heuristic's margin
        final_margins = getattr(module, "final_margins", None)
        self.final_root: list[float] | None = (
            final_margins(root)[:seats] if final_margins is not None else None)

    def margins(self, state: Any) -> list[float]:
        if self.evaluate_all is not None:
            evals = self.evaluate_all(state)
        else:
            evaluate = self.evaluate
            evals = [evaluate(state, s) for s in range(self.sides)]
        out = []
        for s in range(self.seats):
            others = [evals[o] for o in range(self.sides) if o != s]
            out.append(evals[s] - max(others) if others else evals[s])
        return out

    def leaf_margins(self, state: Any) -> list[float]:
        """The margins a leaf's value is measured by: ``margins`` for an unfinished
        position, for a finished one each seat's final margin (its evaluation less
        ``FINAL_BONUS``), as ``__call__`` measures finished leaves."""
        if self.game.current_player(state) is None and self.game.outcome(state) is not None:
            return [self.evaluate(state, s) - self.final_bonus for s in range(self.seats)]
        return self.margins(state)

    def __call__(self, state: Any) -> list[float]:
        seats, scale, root = self.seats, self.scale, self.root
        out = self.game.outcome(state) if self.game.current_player(state) is None else None
        if out is None:
            now = self.margins(state)
            return [_sigmoid((now[s] - root[s]) / scale) for s in range(seats)]
        vals = []
        for s in range(seats):
            if seats == 1:
                result = 1.0 if s in out.winners else 0.0
            else:
                result = (seats - out.rank_of(s)) / (seats - 1)
            base = self.final_root[s] if self.final_root is not None else root[s]
            margin = self.evaluate(state, s) - self.final_bonus - base
            vals.append(0.7 * result + 0.3 * _sigmoid(margin / scale))
        return vals


class Node:
    """Statistics of one action sequence from the root."""

    __slots__ = ("avail", "cands", "children", "order", "src", "totals", "visits", "width")

    def __init__(self, seats: int) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.avail = 0
        self.totals = [0.0] * seats
        self.order: list[Any] | None = None
        # the last candidate list (``ordered``) and the legal actions and width it was
        # cut from: legal actions are interned, so an unchanged tuple compares by identity
        self.src: tuple[Any, ...] | None = None
        self.width = 0
        self.cands: list[Any] = []

    def mean(self, seat: int) -> float:
        return self.totals[seat] / self.visits if self.visits else 0.0


class MCTSBot:
    """A determinized UCT player; deterministic given its seed (with no ``seconds``)."""

    def __init__(self, seed: int = 0, config: MCTSConfig | None = None,
                 kind: str = "mcts") -> None:
        self.kind = kind
        self.config = config or MCTSConfig()
        self.rng = bot_rng(seed)
        self._prev: tuple[dict[str, Any], Any, Node] | None = None
        self._baseline: list[float] | None = None
        self.last_iterations = 0
        self.last_reused = 0
        self._reusing = self.config.reuse
        self._own_budget = False
        self._checked: tuple[Any, set[Any]] = (None, set())  # the turn, kinds checked
        self._planner: Any = None  # the planner bot of ``planner_search``
        self._cfg = self.config

    # --- public -----------------------------------------------------------------------
    def choose(self, game: Game, view: dict[str, Any], legal: tuple[Any, ...]) -> Any:
        if len(legal) == 1:
            root = self._reuse(game, view)
            self._prev = (view, legal[0], root) if root is not None else None
            return legal[0]
        cfg = self._cfg = self._settings(heuristics_for(game), view)
        if cfg.planner_search:
            self._prev = None
            return self._plan(game, view, legal)
        root = self.search(game, view, legal)
        action = self._best(root, legal, view["seat"])
        if self._check_due(view):
            # the most visited actions, the search's choice first
            seat = view["seat"]
            ranked = sorted((a for a in legal if a in root.children),
                            key=lambda a: (a != action, -root.children[a].visits,
                                           -root.children[a].mean(seat)))
            action = self._check(game, view, ranked[:cfg.check_candidates])
        self._prev = (view, action, root) if self._reusing else None
        return action

    def analyse(self, game: Game, view: dict[str, Any],
                legal: tuple[Any, ...]) -> list[tuple[Any, float, float]]:
        """Each legal action with its share of the root's visits and its mean value for
        the seat, most visited first."""
        root = self.search(game, view, legal)
        seat = view["seat"]
        total = sum(c.visits for a, c in root.children.items() if a in legal) or 1
        rows = []
        for action in legal:
            child = root.children.get(action)
            visits = child.visits if child is not None else 0
            value = child.mean(seat) if child is not None else 0.0
            rows.append((action, visits / total, value))
        order = {a: i for i, a in enumerate(legal)}
        rows.sort(key=lambda r: (-r[1], -r[2], order[r[0]]))
        return rows

    # --- search -----------------------------------------------------------------------
    def search(self, game: Game, view: dict[str, Any], legal: tuple[Any, ...]) -> Node:
        module = heuristics_for(game)
        cfg = self._cfg = self._settings(module, view)
        evaluate: Evaluator = module.evaluate
        play_eval: Evaluator = getattr(module, "evaluate_play", evaluate)
        scale = cfg.scale or float(getattr(module, "SCALE", 10.0))
        first = game.sample_hidden(view, self.rng)
        seats = game.num_players(first)
        self._reusing = cfg.reuse
        root = self._reuse(game, view) if cfg.reuse else None
        self.last_reused = root.visits if root is not None else 0
        if root is None:
            root = Node(seats)
        pool = [first]
        fixed = cfg.fixed_chance
        if fixed:
            # each determinization keeps its own future chance (dice, draws, the
            # automaton's turns) for the whole search: the actions of a node are then
            # compared on the same futures (common random numbers) instead of on
            # independent draws whose spread swamped their differences
            while len(pool) < cfg.pool:
                pool.append(game.sample_hidden(view, self.rng))
            for sample in pool:
                if isinstance(getattr(sample, "rng", None), Rng):
                    sample.rng = Rng(self.rng.next_u64())
        value_of = LeafValue(game, module, first, seats, scale,
                             self._baseline if root.visits else None)
        seat: int = view["seat"]  # the player to move at the root
        if cfg.turn_rollout and not root.visits:
            # leaves are rated where the turn ends (after an automaton's turn played
            # inside apply): measure them from where the greedy turn ends, not from the
            # root, or the automaton's gains push every value to 0 (saturated logistic)
            ends = []
            for sample in pool:
                end = sample.clone()
                _finish_turn(game, end, play_eval, cfg.turn_rollout)
                _more_turns(game, end, play_eval, cfg.turn_rollout, seat, cfg.rollout_turns)
                # in the last turn the greedy turn ends the game: its final margin, not
                # the evaluation with FINAL_BONUS (against which every ending of the
                # game looked equally bad, and the search picked among them at random)
                ends.append(value_of.leaf_margins(end))
            value_of.root = [sum(m[s] for m in ends) / len(ends) for s in range(seats)]
        self._baseline = value_of.root
        current_player = game.current_player
        legal_actions = game.legal_actions
        apply = game.apply_unchecked
        c = cfg.exploration
        sqrt, log = math.sqrt, math.log
        deadline = None if cfg.seconds is None else time.perf_counter() + cfg.seconds

        def ordered(node: Node, state: Any, actions: tuple[Any, ...], player: int) -> list[Any]:
            if len(actions) <= cfg.widen_min:
                return list(actions)
            if node.order is None:
                if node.visits < 2 and node is not root:
                    # a leaf visited once is not worth ordering; the root is ordered
                    # from its first visit, so a small budget examines the best moves
                    return list(actions)
                scored = []
                for i, a in enumerate(actions):
                    child = state.clone()
                    apply(child, a)
                    scored.append((-evaluate(child, player), i, a))
                scored.sort(key=lambda t: (t[0], t[1]))
                node.order = [a for _, _, a in scored]
            width = max(cfg.widen_min, math.ceil(cfg.widen_c * node.visits ** cfg.widen_alpha))
            if width == node.width and actions == node.src:
                return node.cands
            here = set(actions)
            known = [a for a in node.order if a in here]
            if len(known) < len(actions):
                seen = set(known)
                known.extend(a for a in actions if a not in seen)
            node.src, node.width, node.cands = actions, width, known[:width]
            return node.cands

        def pick(node: Node, candidates: list[Any] | tuple[Any, ...],
                 player: int) -> tuple[Any, Node]:
            """The UCT choice among ``candidates``: in one pass, every candidate already in
            the tree counts as available, and the first one not in it is expanded (a new
            child, with no visits); otherwise the best UCT score."""
            children = node.children
            best: tuple[Any, Node] | None = None
            best_score = -1.0
            for i, a in enumerate(candidates):
                ch = children.get(a)
                if ch is None:
                    for b in candidates[i + 1:]:
                        other = children.get(b)
                        if other is not None:
                            other.avail += 1
                    child = children[a] = Node(seats)
                    child.avail = 1
                    return a, child
                ch.avail += 1
                score = ch.totals[player] / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                if score > best_score:
                    best_score, best = score, (a, ch)
            assert best is not None
            return best

        crn = cfg.crn and fixed and cfg.max_depth == 1
        iterations = 0
        # the game's share of the level's iterations, unless its overrides set their own
        share = 1.0 if self._own_budget else float(getattr(module, "BUDGET", 1.0))
        budget = max(1, round(cfg.iterations * share))
        if not self._own_budget and self.config is LEVELS.get(self.kind):
            # a ladder level: the game may set its own count, measured so that the
            # levels differ in strength (``LEVEL_ITERATIONS``, docs/ai.md)
            budget = int(getattr(module, "LEVEL_ITERATIONS", {}).get(self.kind, budget))
        while iterations < budget:
            if deadline is not None and iterations % 8 == 0 and time.perf_counter() > deadline:
                break
            if len(pool) < cfg.pool and iterations >= len(pool):
                pool.append(game.sample_hidden(view, self.rng))
            if crn:
                # the k-th visit of every root action plays on the k-th determinization
                # (common random numbers: the actions are compared on the same futures)
                action, node = pick(root, ordered(root, pool[0], legal, seat), seat)
                state = pool[node.visits % len(pool)].clone()
                turn = getattr(state, "turns", None)
                apply(state, action)
                path = [root, node]
                at_root = False
            else:
                state = pool[iterations % len(pool)].clone()
                if not fixed and isinstance(getattr(state, "rng", None), Rng):
                    state.rng = Rng(self.rng.next_u64())
                node = root
                path = [root]
                at_root = True
                turn = getattr(state, "turns", None)
            while not crn:
                player = current_player(state)
                if player is None or (cfg.max_depth and len(path) > cfg.max_depth):
                    break
                if at_root:
                    # the root's legal actions are public to the seat: the same in
                    # every determinization
                    actions = legal
                    at_root = False
                else:
                    actions = legal_actions(state)
                action, child = pick(node, ordered(node, state, actions, player), player)
                turn = getattr(state, "turns", None)
                apply(state, action)
                path.append(child)
                if not child.visits:
                    break  # a new node: the leaf of this iteration
                node = child
            if cfg.turn_rollout:
                _finish_turn(game, state, play_eval, cfg.turn_rollout, turn)
                _more_turns(game, state, play_eval, cfg.turn_rollout, seat, cfg.rollout_turns)
            for _ in range(cfg.rollout_depth):
                if current_player(state) is None:
                    break
                actions = legal_actions(state)
                apply(state, actions[self.rng.randbelow(len(actions))])
            values = value_of(state)
            for n in path:
                n.visits += 1
                totals = n.totals
                for s in range(seats):
                    totals[s] += values[s]
            iterations += 1
        self.last_iterations = iterations
        return root

    def _settings(self, module: ModuleType, view: dict[str, Any]) -> MCTSConfig:
        """The level's settings with the game's overrides for this kind of position
        (``search_settings(view)`` in the heuristic module, e.g. The Red Cathedral's
        solo game); ``budget`` there is a share of the level's iterations, ``levels``
        a count per ladder level, or the level's own settings replacing the position's
        (other configurations keep their own count, times ``budget`` where it is
        given); ``checks`` the rollout-check settings (``check_*``) per ladder level."""
        cfg = self.config
        settings = getattr(module, "search_settings", None)
        overrides = dict(settings(view)) if settings is not None else {}
        share = overrides.pop("budget", None)
        levels = overrides.pop("levels", None) or {}
        checks = overrides.pop("checks", None) or {}
        self._own_budget = share is not None or bool(levels)
        ladder = cfg is LEVELS.get(self.kind)
        level = levels.get(self.kind) if ladder else None
        if isinstance(level, dict):
            # a ladder level with settings of its own for this kind of position: they
            # replace the position's (e.g. the full tree for one level)
            overrides = dict(level)
        elif level is not None:
            # a ladder level with this kind of position's own measured count
            overrides["iterations"] = int(level)
        elif share is not None:
            overrides["iterations"] = max(1, round(cfg.iterations * float(share)))
        if ladder and self.kind in checks:
            # a ladder level's rollout check of its choice (``_check``)
            overrides.update(checks[self.kind])
        if overrides.get("max_depth"):
            overrides["reuse"] = False  # a depth-limited tree holds nothing to reuse
        return replace(cfg, **overrides) if overrides else cfg

    def _check(self, game: Game, view: dict[str, Any], candidates: list[Any]) -> Any:
        """Play each candidate on with the planner bot until the state's ``turns``
        counter has advanced by ``check_turns`` (the automaton's turns are played inside
        ``apply``) and return the one whose position is then rated best by the game's
        ``evaluate_play`` (a finished game by its result); the first candidate wins ties.
        Every candidate is played on the same ``check_samples`` futures, drawn from the
        bot's generator, and the planner on the same generator for each (common random
        numbers). The turn play-outs of the search rate an action where the seat's turn
        ends, so they cannot see what a claim or a stock of Rubles brings a few turns
        later; the planner's own turns can."""
        from meeplehall.ai.greedy import evaluator_for
        from meeplehall.ai.planner import PlannerBot

        cfg = self._cfg
        seat = view["seat"]
        base = game.sample_hidden(view, self.rng)
        stop = base.turns + cfg.check_turns
        futures = [self.rng.next_u64() for _ in range(cfg.check_samples)]
        evaluate = evaluator_for(game)
        if cfg.check_rating:
            evaluate = _rated(game, evaluate, getattr(heuristics_for(game), cfg.check_rating))
        elif cfg.check_rival:
            evaluate = _less_rival(game, evaluate, cfg.check_rival)
        policy = PlannerBot()
        best_value, best = float("-inf"), candidates[0]
        for candidate in candidates:
            total = 0.0
            for future in futures:
                state = base.clone()
                state.rng = Rng(future)
                policy.rng = Rng(future ^ 0x55)  # not the future's own stream
                game.apply_unchecked(state, candidate)
                while (player := game.current_player(state)) is not None and \
                        state.turns < stop:
                    moves = game.legal_actions(state)
                    game.apply_unchecked(state, moves[0] if len(moves) == 1 else policy.choose(
                        game, game.player_view(state, player), moves))
                total += evaluate(state, seat)
            if total > best_value:
                best_value, best = total, candidate
        return best

    def _check_due(self, view: dict[str, Any]) -> bool:
        """Whether the level checks its choice here: a rollout check is set and this is
        the seat's first decision of a turn, or its first decision of a kind in
        ``check_kinds`` within the turn (``_check_point``)."""
        cfg = self._cfg
        return bool(cfg.check_turns) and cfg.check_candidates > 1 and \
            self._check_point(view)

    def _check_point(self, view: dict[str, Any]) -> bool:
        """Whether this is the seat's first decision with a real choice in a turn (a new
        value of the ``turns`` counter in the view's state), or its first decision of a
        kind in ``check_kinds`` within the turn; remembers it."""
        state = view.get("state")
        if not isinstance(state, dict) or state.get("turns") is None:
            return False
        turn = state["turns"]
        stack = state.get("stack") if self._cfg.check_kinds else None
        top = stack[-1] if isinstance(stack, list) and stack else None
        kind = top[0] if isinstance(top, (list, tuple)) and top else None
        checked_turn, kinds = self._checked
        if turn != checked_turn:
            self._checked = (turn, {kind})
            return True
        if kind is None or kind not in self._cfg.check_kinds or kind in kinds:
            return False
        kinds.add(kind)
        return True

    def _plan(self, game: Game, view: dict[str, Any], legal: tuple[Any, ...]) -> Any:
        """``planner_search``: the planner bot's choice (on the bot's own generator),
        except at the first decision of a turn, where its ``check_candidates`` best
        actions are compared by ``_check``."""
        from meeplehall.ai.planner import PlannerBot

        if self._planner is None:
            self._planner = PlannerBot()
            self._planner.rng = self.rng  # the bot's own generator, shared
        ranked = self._planner.rank(game, view, legal)
        if self._check_due(view):
            return self._check(game, view, [a for _, a in ranked[:self._cfg.check_candidates]])
        return self._planner.pick(ranked)

    @staticmethod
    def _best(root: Node, legal: tuple[Any, ...], seat: int) -> Any:
        """The most visited legal child; ties go to the better mean, then legal order."""
        best: Any = legal[0]
        best_key: tuple[int, float] = (-1, -1.0)
        for action in legal:
            child = root.children.get(action)
            if child is None:
                continue
            key = (child.visits, child.mean(seat))
            if key > best_key:
                best_key, best = key, action
        return best

    # --- tree reuse -------------------------------------------------------------------
    def _reuse(self, game: Game, view: dict[str, Any]) -> Node | None:
        """The node of the previous tree whose position matches ``view``, or None."""
        prev = self._prev
        self._prev = None
        if prev is None or not self.config.reuse:
            return None
        prev_view, action, prev_root = prev
        start = prev_root.children.get(action)
        if start is None or prev_view.get("seat") != view.get("seat"):
            return None
        seat = view["seat"]
        state = game.sample_hidden(prev_view, Rng(self.rng.next_u64()))
        game.apply_unchecked(state, action)
        queue: list[tuple[Node, Any]] = [(start, state)]
        probes = 0
        while queue and probes < self.config.reuse_probe:
            node, st = queue.pop(0)
            player = game.current_player(st)
            if player is None:
                continue
            if player == seat:
                probes += 1
                if game.player_view(st, seat) == view:
                    return node
            legal = set(game.legal_actions(st))
            for a, child in sorted(node.children.items(), key=lambda kv: -kv[1].visits):
                if a in legal and child.visits > 0:
                    nxt = st.clone()
                    game.apply_unchecked(nxt, a)
                    queue.append((child, nxt))
        return None


def _rated(game: Game, evaluate: Evaluator, rating: Evaluator) -> Evaluator:
    """``rating`` for an unfinished position, ``evaluate`` for a finished one (its
    result: the planner's evaluation puts any won game above any unfinished position)."""

    def value(state: Any, seat: int) -> float:
        if game.current_player(state) is None:
            return evaluate(state, seat)
        return rating(state, seat)

    return value


def _less_rival(game: Game, evaluate: Evaluator, weight: float) -> Evaluator:
    """``evaluate`` less ``weight`` x the best other side's heuristic evaluation (the
    automaton counts as a side where the heuristic's ``sides(state)`` says so), for an
    unfinished position; a finished one is rated by ``evaluate`` alone (its result)."""
    module = heuristics_for(game)
    rate: Evaluator = module.evaluate
    sides_of = getattr(module, "sides", None)

    def margin(state: Any, seat: int) -> float:
        own = evaluate(state, seat)
        sides = sides_of(state) if sides_of is not None else game.num_players(state)
        others = [rate(state, o) for o in range(sides) if o != seat]
        return own - weight * max(others) if others else own

    return _rated(game, evaluate, margin)


def _finish_turn(game: Game, state: Any, evaluate: Evaluator, horizon: int,
                 turn: Any = None) -> None:
    """Play the rest of the current player's turn greedily (one ply at a time, at most
    ``horizon`` decisions), changing ``state``: the leaf is then rated where the turn
    ends, as the planner bot rates its actions, instead of halfway through a turn whose
    pending steps the heuristic can only estimate. ``turn`` is the turn the leaf's last
    action was taken in: where that action ended it, the next turn is not played (or
    leaves reached by ending the turn would be rated a whole turn later than others)."""
    player = game.current_player(state)
    if player is None:
        return
    if turn is None:
        turn = getattr(state, "turns", None)
    elif getattr(state, "turns", None) != turn:
        return  # the leaf's own action ended the turn: nothing is left to finish
    legal_actions = game.legal_actions
    apply = game.apply_unchecked
    for _ in range(horizon):
        if game.current_player(state) != player or getattr(state, "turns", None) != turn:
            return
        legal = legal_actions(state)
        if len(legal) == 1:
            apply(state, legal[0])
            continue
        best_value, best_action = float("-inf"), legal[0]
        for action in legal:
            child = state.clone()
            apply(child, action)
            value = step_value(game, state, child, player, evaluate, action)
            if value > best_value:
                best_value, best_action = value, action
        apply(state, best_action)


def _more_turns(game: Game, state: Any, evaluate: Evaluator, horizon: int, seat: int,
                turns: int) -> None:
    """After the leaf's turn: ``turns - 1`` more whole turns, every seat's (and the
    automaton's, inside ``apply``), each played greedily by its player, until ``seat``
    has finished that many turns of its own (``rollout_turns``)."""
    for _ in range(turns - 1):
        for _guard in range(16):  # the other seats' turns, then the seat's own
            player = game.current_player(state)
            if player is None:
                return
            _finish_turn(game, state, evaluate, horizon)
            if player == seat:
                break


def make_level(kind: str, seed: int) -> MCTSBot:
    return MCTSBot(seed, LEVELS[kind], kind)


def timed(config: MCTSConfig, seconds: float) -> MCTSConfig:
    """``config`` with a wall-clock budget instead of a fixed iteration count."""
    return replace(config, iterations=10**9, seconds=seconds, reuse=False)


def iterations_per_second(game: Game, params: dict[str, Any], seconds: float,
                          seed: int = 0) -> float:
    """MCTS iterations per second (``mcts-hard`` settings, time budget ``seconds``) from
    positions a third of the way through a greedy-versus-greedy game."""
    from meeplehall.ai.base import make_bot

    state = game.initial_state(params, seed)
    players = game.num_players(state)
    bots = [make_bot("greedy", seed * 16 + s) for s in range(players)]
    positions: list[Any] = []
    while (seat := game.current_player(state)) is not None and len(positions) < 200:
        legal = game.legal_actions(state)
        if len(legal) > 1:
            positions.append(state.clone())
        game.apply_unchecked(state, bots[seat].choose(game, game.player_view(state, seat),
                                                      legal))
    start = positions[len(positions) // 3] if positions else game.initial_state(params, seed)
    seat = game.current_player(start)
    assert seat is not None
    bot = MCTSBot(seed, timed(LEVELS["mcts-hard"], seconds))
    t0 = time.perf_counter()
    bot.search(game, game.player_view(start, seat), game.legal_actions(start))
    return bot.last_iterations / (time.perf_counter() - t0)
