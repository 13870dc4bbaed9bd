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
- **Evaluation** (``LeafValue``). The position is rated with the game's ``Evaluator``
  (``ai/evaluator.py``), injected or taken from the ladder's registry. Every seat gets
  its own value in [0, 1], a logistic of the change since the root of its margin over
  the best other side (the automaton counts as a side where the evaluator's
  ``sides(state)`` says so; alone, the margin is the evaluation itself) divided by the
  evaluator's ``scale``. Measuring from the root keeps values spread around 0.5 whatever
  the score, so that UCT tells moves apart. Finished games score 0.7 x result (win 1,
  last 0, ranks between) plus 0.3 x the same logistic of the final margin.
- **Turn play-outs** (``turn_rollout``, ``fixed_chance``, ``max_depth``). A leaf's turn
  may be finished greedily before it is rated (so that it is rated where the turn ends),
  each determinization may keep its own future chance for the whole search (actions
  compared on the same futures), and the tree may be cut at a depth.
- **Move ordering and progressive widening.** Where more than ``widen_min`` actions are
  legal, a node orders them by the heuristic (one-step lookahead, computed once on its
  second visit, the root's on its first) and only the best
  ``max(widen_min, widen_c * visits ** widen_alpha)`` are searched; new children are
  expanded best-first, so a search of k iterations rates the root's k best actions.
- **Budget.** ``iterations`` per decision (deterministic), and optionally ``seconds`` (a
  wall-clock cap: then the decision depends on the machine's speed). What each level of
  the ladder sets, per game and mode, is in ``ai/ladder.py``. A decision with one legal
  action spends nothing.
- **Tree reuse.** After a decision the bot keeps the tree; at its next decision it looks
  for the new position among the descendants of the chosen action (applying the
  actions stored in the tree to a sample of the previous view and comparing the seat's
  view). Where chance intervened the views differ and the search starts afresh.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from meeplehall.ai.bot import bot_rng
from meeplehall.ai.evaluator import Evaluator, resolve
from meeplehall.ai.greedy import Rating, step_value
from meeplehall.core.protocol import Game
from meeplehall.core.rng import Rng


@dataclass(frozen=True)
class MCTSConfig:
    """Search settings (each level's are in ``ai/ladder.py``)."""

    iterations: int = 1000
    seconds: float | None = None  # a wall-clock cap (then not deterministic)
    exploration: float = 0.25  # UCT's exploration constant
    # finish a leaf's turn greedily, at most this many decisions, before rating it (0: off)
    turn_rollout: int = 0
    # each determinization keeps its own future chance for the whole search
    fixed_chance: bool = False
    max_depth: int = 0  # the tree's depth in decisions (0: unlimited)
    widen_min: int = 6  # progressive widening: at least this many actions per node ...
    widen_c: float = 2.0  # ... or widen_c x visits ** widen_alpha
    widen_alpha: float = 0.5
    pool: int = 16  # determinizations per decision
    reuse: bool = True  # keep the tree for the next decision (off with max_depth)
    reuse_probe: int = 24  # positions compared when looking for the new root


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

    def __init__(self, game: Game, evaluator: Evaluator, root: Any, seats: int,
                 baseline: list[float] | None = None) -> None:
        self.game = game
        self.evaluator = evaluator
        self.evaluate = evaluator.evaluate
        self.final_bonus = evaluator.final_bonus
        self.sides: int = evaluator.sides(root)
        self.seats = seats
        self.scale = evaluator.scale
        # the margins values are measured from: the root's, or those of the search whose
        # tree is being reused, so that old and new statistics in it agree
        self.root = baseline if baseline is not None else self.margins(root)
        # where the game can score the root as if it ended there, a finished game's
        # margin is measured from that instead of from the heuristic's margin
        final = evaluator.final_margins(root)
        self.final_root: list[float] | None = final[:seats] if final is not None else None

    def margins(self, state: Any) -> list[float]:
        evals = self.evaluator.evaluate_all(state)
        out = []
        for s in range(self.seats):
            others = [evals[o] for o in range(self.sides) if o != s]
            out.append(evals[s] - max(others) if others else evals[s])
        return out

    def leaf_margins(self, state: Any) -> list[float]:
        """The margins a leaf's value is measured by: ``margins`` for an unfinished
        position, for a finished one each seat's final margin (its evaluation less
        ``final_bonus``), as ``__call__`` measures finished leaves."""
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


def widened(node: Node, actions: tuple[Any, ...], visits: int, widen_min: int,
            widen_c: float, widen_alpha: float, rate: Callable[[Any], float]) -> list[Any]:
    """Progressive widening: the ``max(widen_min, widen_c x visits ** widen_alpha)`` best
    of ``actions`` by ``rate`` (higher first, ties in legal order), the order worked out
    once per node (``node.order``) and the cut cached while the legal actions and the
    width stay the same. Actions not in the node's order (a new determinization) come
    last, in legal order."""
    if node.order is None:
        scored = [(-rate(a), i, a) for i, a in enumerate(actions)]
        scored.sort(key=lambda t: (t[0], t[1]))
        node.order = [a for _, _, a in scored]
    width = max(widen_min, math.ceil(widen_c * visits ** widen_alpha))
    if width == node.width and actions == node.src:
        return node.cands
    here = set(actions)
    known = [a for a in node.order if a in here]
    if len(known) < len(actions):
        seen = set(known)
        known.extend(a for a in actions if a not in seen)
    node.src, node.width, node.cands = actions, width, known[:width]
    return node.cands


def uct_pick(node: Node, candidates: list[Any] | tuple[Any, ...], seat: int, c: float,
             seats: int) -> tuple[Any, Node]:
    """The UCT choice among ``candidates`` for ``seat``: in one pass, every candidate
    already in the tree counts as available, and the first one not in it is expanded
    (a new child of ``seats`` totals, no visits); a child with no visits yet is taken
    at once; otherwise the best UCT score."""
    children = node.children
    sqrt, log = math.sqrt, math.log
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
        if not ch.visits:
            return a, ch
        score = ch.totals[seat] / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
        if score > best_score:
            best_score, best = score, (a, ch)
    assert best is not None
    return best


class MCTSBot:
    """A determinized UCT player; deterministic given its seed (with no ``seconds``).

    ``evaluator``: the game's heuristic (by default the game's own, from the ladder's
    registry)."""

    kind = "mcts"

    def __init__(self, seed: int = 0, config: MCTSConfig | None = None,
                 evaluator: Evaluator | None = None) -> None:
        self.config = config or MCTSConfig()
        self.evaluator = evaluator
        self.rng = bot_rng(seed)
        self._prev: tuple[dict[str, Any], Any, Node] | None = None
        self._baseline: list[float] | None = None
        self.last_iterations = 0
        self.last_reused = 0
        self._reusing = self.config.reuse

    # --- public -----------------------------------------------------------------------
    def choose(self, game: Game, view: dict[str, Any], legal: tuple[Any, ...]) -> Any:
        if len(legal) == 1:
            root = self._reuse(game, view)
            self._prev = (view, legal[0], root) if root is not None else None
            return legal[0]
        root = self.search(game, view, legal)
        action = self._best(root, legal, view["seat"])
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
        cfg = self.config
        evaluator = resolve(self.evaluator, game)
        evaluate = evaluator.evaluate
        play_eval = evaluator.evaluate_play
        first = game.sample_hidden(view, self.rng)
        seats = game.num_players(first)
        # a depth-limited tree holds nothing to reuse
        self._reusing = cfg.reuse and not cfg.max_depth
        root = self._reuse(game, view) if self._reusing else None
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
        value_of = LeafValue(game, evaluator, first, seats,
                             self._baseline if root.visits else None)
        if cfg.turn_rollout and not root.visits:
            # leaves are rated where the turn ends (after an automaton's turn played
            # inside apply): measure them from where the greedy turn ends, not from the
            # root, or the automaton's gains push every value to 0 (saturated logistic)
            ends = []
            for sample in pool:
                end = sample.clone()
                _finish_turn(game, end, play_eval, cfg.turn_rollout)
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
        deadline = None if cfg.seconds is None else time.perf_counter() + cfg.seconds

        def ordered(node: Node, state: Any, actions: tuple[Any, ...], player: int) -> list[Any]:
            if len(actions) <= cfg.widen_min:
                return list(actions)
            if node.order is None and node.visits < 2 and node is not root:
                # a leaf visited once is not worth ordering; the root is ordered
                # from its first visit, so a small budget examines the best moves
                return list(actions)

            def rate(a: Any) -> float:
                child = state.clone()
                apply(child, a)
                return evaluate(child, player)

            return widened(node, actions, node.visits, cfg.widen_min, cfg.widen_c,
                           cfg.widen_alpha, rate)

        def pick(node: Node, candidates: list[Any] | tuple[Any, ...],
                 player: int) -> tuple[Any, Node]:
            return uct_pick(node, candidates, player, c, seats)

        iterations = 0
        budget = cfg.iterations
        while iterations < budget:
            if deadline is not None and iterations % 8 == 0 and time.perf_counter() > deadline:
                break
            if len(pool) < cfg.pool and iterations >= len(pool):
                pool.append(game.sample_hidden(view, self.rng))
            state = pool[iterations % len(pool)].clone()
            if not fixed and isinstance(getattr(state, "rng", None), Rng):
                state.rng = Rng(self.rng.next_u64())
            node = root
            path = [root]
            at_root = True
            turn = getattr(state, "turns", None)
            while True:
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
            values = value_of(state)
            for n in path:
                n.visits += 1
                totals = n.totals
                for s in range(seats):
                    totals[s] += values[s]
            iterations += 1
        self.last_iterations = iterations
        return root

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


def _finish_turn(game: Game, state: Any, evaluate: Rating, horizon: int,
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


def timed(config: MCTSConfig, seconds: float) -> MCTSConfig:
    """``config`` with a wall-clock budget instead of a fixed iteration count."""
    return replace(config, iterations=10**9, seconds=seconds, reuse=False)


def iterations_per_second(game: Game, params: dict[str, Any], seconds: float,
                          seed: int = 0) -> float:
    """MCTS iterations per second (the search settings of the game's ``mcts-hard``, time
    budget ``seconds``) from positions a third of the way through a greedy-versus-greedy
    game."""
    from meeplehall.ai.base import make_bot
    from meeplehall.ai.ladder import hardest_search

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
    bot = MCTSBot(seed, timed(hardest_search(game, game.num_players(start) == 1), seconds))
    t0 = time.perf_counter()
    bot.search(game, game.player_view(start, seat), game.legal_actions(start))
    return bot.last_iterations / (time.perf_counter() - t0)
