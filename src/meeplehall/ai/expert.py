"""The expert search: information-set MCTS over the seat's turn, thinking by the clock.

A turn in both games is many small decisions; the expert plans them together and rates
them where the turn's consequences show, after the other sides have answered.

- **Information sets.** Iterations play on determinizations: states rebuilt from the
  seat's view (``game.sample_hidden(view, rng)``, the bot's own generator), each with
  its own future (its generator, for dice, draws and the automatons' turns, re-seeded
  from the bot's generator), up to ``pool`` of them per decision. The k-th visit of a
  root action plays the k-th of them, so the root's actions are compared on the same
  hidden cards and futures (common random numbers) and each further visit brings a new
  one. One tree serves them all, keyed by the seat's action sequences from the root
  (open loop); the real game's hidden state and generator are never read.
- **Whole-turn macro-steps.** The tree holds the seat's own decisions of the current
  turn only. A new leaf's turn is finished by the greedy policy, then the other sides'
  turns are played by the greedy policy (an automaton plays inside ``apply``) until the
  seat's own turn begins again ``lookahead`` times, where the position is rated: every
  leaf is rated at the same kind of turn boundary, after the answer to its turn.
- **Priors and progressive widening.** The root's actions are ordered by the planner
  (each action followed by the rest of the turn played greedily), a deeper node's by
  the greedy policy's one-step rating (its first child is the step the play-out took);
  a node searches its best
  ``max(widen_min, widen_c x visits ** widen_alpha)`` actions, new ones best first.
  UCT picks among them (exploration constant ``exploration``, availability counts: the
  actions legal at a node differ between determinizations).
- **Values.** ``LeafValue`` of ``ai/mcts.py`` with the game's ``Evaluator``: a logistic
  of the change of the seat's margin over the best other side since the start of its
  turn (finished games by their result). The move played is the root's most visited
  child; within a turn the chosen child's subtree becomes the next decision's root.
- **Budget.** ``iterations`` per decision (deterministic given the seed) or ``think``
  seconds per decision by a clock (injectable, for tests), read before every iteration
  and every step of a play-out (an iteration cut short does not count); with a clock the
  choice depends on the machine's speed. The planner's ordering is part of the budget:
  where the clock runs out before any iteration, the planner's choice (as far as it
  got) is played.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from meeplehall.ai.bot import bot_rng
from meeplehall.ai.evaluator import Evaluator, resolve
from meeplehall.ai.greedy import Rating, step_value
from meeplehall.ai.mcts import LeafValue, Node, uct_pick, widened
from meeplehall.ai.planner import PlannerBot
from meeplehall.core.protocol import Game
from meeplehall.core.rng import Rng

DEFAULT_THINK = 1.5  # seconds per decision of the expert level


@dataclass(frozen=True)
class ExpertConfig:
    """Settings of the expert search (the level's are in ``ai/ladder.py``)."""

    iterations: int = 0  # per decision; 0: think by the clock
    think: float = DEFAULT_THINK  # seconds per decision where ``iterations`` is 0
    exploration: float = 0.25  # UCT's exploration constant
    widen_min: int = 4  # progressive widening: at least this many actions per node ...
    widen_c: float = 1.5  # ... or widen_c x visits ** widen_alpha
    widen_alpha: float = 0.5
    lookahead: int = 1  # the seat's turns begun again before a leaf is rated
    turn_horizon: int = 40  # decisions at most to finish one turn greedily
    pool: int = 32  # determinizations (each with its own future) per decision

    def __post_init__(self) -> None:
        if self.iterations < 0:
            raise ValueError(f"iterations must be at least 0, got {self.iterations}")
        if not self.iterations and not self.think > 0:
            raise ValueError(f"the think time must be positive, got {self.think}")


def _greedy_step(game: Game, state: Any, player: int, evaluate: Rating) -> None:
    """Apply the greedy policy's action for ``player`` to ``state``."""
    legal = game.legal_actions(state)
    if len(legal) == 1:
        game.apply_unchecked(state, legal[0])
        return
    best_value, best_action = float("-inf"), legal[0]
    for action in legal:
        child = state.clone()
        game.apply_unchecked(child, action)
        value = step_value(game, state, child, player, evaluate, action)
        if value > best_value:
            best_value, best_action = value, action
    game.apply_unchecked(state, best_action)


def play_on(game: Game, state: Any, seat: int, evaluate: Rating, lookahead: int,
            horizon: int, stop: Callable[[], bool] | None = None) -> bool:
    """Play ``state`` on greedily (every side), changing it, until ``seat``'s own turn
    has begun ``lookahead`` times, the game ends, or a turn's ``horizon`` decisions have
    run out; False where ``stop()`` (asked before every decision) cut it short."""
    begun = 0
    turn = getattr(state, "turns", None)
    steps = 0
    while (player := game.current_player(state)) is not None:
        now = getattr(state, "turns", None)
        if now != turn:
            turn, steps = now, 0
            if player == seat:
                begun += 1
                if begun >= lookahead:
                    return True
        if steps >= horizon:
            return True
        if stop is not None and stop():
            return False
        _greedy_step(game, state, player, evaluate)
        steps += 1
    return True


class ExpertBot:
    """The expert level's player (see the module docstring); deterministic given its
    seed where it counts iterations. ``clock`` (seconds, monotonic) is injectable."""

    kind = "expert"

    def __init__(self, seed: int = 0, config: ExpertConfig | None = None,
                 evaluator: Evaluator | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.config = config or ExpertConfig()
        self.evaluator = evaluator
        self.rng = bot_rng(seed)
        self.clock = clock
        self.last_iterations = 0
        # the turn of the previous decision, the chosen child and the value baseline
        self._prev: tuple[Any, Any, Node, list[float]] | None = None
        self._keep: tuple[Any, list[float]] = (None, [])

    # --- public -----------------------------------------------------------------------
    def choose(self, game: Game, view: dict[str, Any], legal: tuple[Any, ...]) -> Any:
        if len(legal) == 1:
            return legal[0]
        root, ranked = self.search(game, view, legal)
        return self._best(root, legal, ranked)

    def analyse(self, game: Game, view: dict[str, Any],
                legal: tuple[Any, ...]) -> list[tuple[Any, float, float]]:
        """Each legal action with its share of the root's visits and its mean value for
        the seat, most visited first (the share of the first row says how sure the
        search is)."""
        root, ranked = self.search(game, view, legal)
        total = sum(c.visits for c in root.children.values()) or 1
        prior = {a: i for i, a in enumerate(ranked)}
        rows = []
        for action in legal:
            child = root.children.get(action)
            visits = child.visits if child is not None else 0
            rows.append((action, visits / total, child.mean(0) if child is not None else 0.0))
        rows.sort(key=lambda r: (-r[1], -r[2], prior.get(r[0], len(prior))))
        self._prev = None
        return rows

    # --- search -----------------------------------------------------------------------
    def search(self, game: Game, view: dict[str, Any],
               legal: tuple[Any, ...]) -> tuple[Node, list[Any]]:
        """The root of the searched tree (one value per node: the seat's) and the
        planner's order of ``legal``."""
        cfg = self.config
        start = self.clock()
        deadline = None if cfg.iterations else start + cfg.think
        evaluator = resolve(self.evaluator, game)
        play_eval = evaluator.evaluate_play
        seat: int = view["seat"]
        first = game.sample_hidden(view, self.rng)
        seats = game.num_players(first)
        turn = getattr(first, "turns", None)
        root, baseline = self._reuse(turn)
        value_of = LeafValue(game, evaluator, first, seats, baseline)
        if baseline is None:
            baseline = value_of.root
        # the planner's order of the root's actions (its prior); where the clock runs out
        # first, the actions not rated yet follow in their legal order
        ranked = self._prior(game, view, legal, seat, deadline)
        root.order = ranked
        root.src, root.width, root.cands = None, 0, []
        def future(sample: Any) -> Any:
            """``sample`` with its own future chance, drawn from the bot's generator."""
            if isinstance(getattr(sample, "rng", None), Rng):
                sample.rng = Rng(self.rng.next_u64())
            return sample

        pool = [future(first.clone())]
        legal_actions = game.legal_actions
        apply = game.apply_unchecked
        current_player = game.current_player
        c = cfg.exploration

        def ordered(node: Node, state: Any, actions: tuple[Any, ...]) -> list[Any]:
            if len(actions) <= cfg.widen_min:
                return list(actions)

            # ordered by the greedy policy's own rating from the first visit on, so that
            # a node's first child is the step its play-out took
            def rate(a: Any) -> float:
                child = state.clone()
                apply(child, a)
                return step_value(game, state, child, seat, play_eval, a)

            return widened(node, actions, node.visits, cfg.widen_min, cfg.widen_c,
                           cfg.widen_alpha, rate)

        def pick(node: Node, candidates: list[Any]) -> tuple[Any, Node]:
            return uct_pick(node, candidates, 0, c, 1)

        clock = self.clock

        def stop() -> bool:
            return deadline is not None and clock() >= deadline

        iterations = 0
        while True:
            if cfg.iterations and iterations >= cfg.iterations:
                break
            if stop():
                break
            # the root's action first (its legal actions are public), then the future it
            # is played on: a child's k-th visit plays future k, so that the root's
            # actions are compared on the same futures (common random numbers)
            action, child = pick(root, ordered(root, first, legal))
            index = child.visits % cfg.pool
            while len(pool) <= index:
                pool.append(future(game.sample_hidden(view, self.rng)))
            state = pool[index].clone()
            node, path = root, [root]
            actions: tuple[Any, ...] = legal
            while True:
                if node is not root:
                    action, child = pick(node, ordered(node, state, actions))
                apply(state, action)
                path.append(child)
                if not child.visits:
                    break  # a new leaf
                # forced steps of the turn are not tree edges
                while (current_player(state) == seat and getattr(state, "turns", None) == turn
                       and len(actions := legal_actions(state)) == 1):
                    apply(state, actions[0])
                if current_player(state) != seat or getattr(state, "turns", None) != turn:
                    break  # the turn is over: the tree ends here
                node = child
            if not play_on(game, state, seat, play_eval, cfg.lookahead, cfg.turn_horizon,
                           stop):
                break  # the clock ran out in the play-out: the iteration does not count
            value = value_of(state)[seat]
            for n in path:
                n.visits += 1
                n.totals[0] += value
            iterations += 1
        self.last_iterations = iterations
        self._keep = (turn, baseline)
        return root, ranked

    def _prior(self, game: Game, view: dict[str, Any], legal: tuple[Any, ...], seat: int,
               deadline: float | None) -> list[Any]:
        """``legal`` in the planner's order (``PlannerBot.rank`` on the bot's generator),
        as far as the clock allows."""
        planner = PlannerBot(evaluator=self.evaluator, horizon=self.config.turn_horizon)
        rate = resolve(self.evaluator, game).evaluate_play
        state = game.sample_hidden(view, self.rng)
        start = getattr(state, "turns", None)
        scored: list[tuple[float, Any]] = []
        for action in legal:
            if deadline is not None and self.clock() >= deadline:
                break
            child = state.clone()
            game.apply_unchecked(child, action)
            scored.append((planner._complete(game, child, seat, start, rate), action))
        scored.sort(key=lambda pair: -pair[0])
        done = {a for _, a in scored}
        return [a for _, a in scored] + [a for a in legal if a not in done]

    def _best(self, root: Node, legal: tuple[Any, ...], ranked: list[Any]) -> Any:
        """The most visited child (ties: the better mean, then the planner's order);
        the planner's choice where nothing was searched. Keeps the chosen subtree."""
        best: Any = ranked[0]
        best_key: tuple[int, float] = (0, -1.0)
        for action in ranked:
            child = root.children.get(action)
            if child is None or action not in legal:
                continue
            key = (child.visits, child.mean(0))
            if key > best_key:
                best_key, best = key, action
        turn, baseline = self._keep
        child = root.children.get(best)
        self._prev = (turn, best, child, baseline) if child is not None else None
        return best

    def _reuse(self, turn: Any) -> tuple[Node, list[float] | None]:
        """The subtree of the previous decision's choice where this decision belongs to
        the same turn of the seat (with the baseline its values were measured from), or
        a new root."""
        prev, self._prev = self._prev, None
        if prev is not None and turn is not None and prev[0] == turn:
            return prev[2], prev[3]
        return Node(1), None
