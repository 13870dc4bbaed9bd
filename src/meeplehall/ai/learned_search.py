"""The learned search: information-set MCTS whose time goes into many cheap iterations.

Kinds ``learned`` (``LEARNED_THINK`` seconds per decision, or ``think``), ``learned@N``
(``N`` iterations per decision, deterministic given the seed) and ``learned-hand`` /
``learned-hand@N`` (the same search with the hand-written evaluation: what ``learned``
falls back to where no model may be used).

- **Information sets.** As the expert's (``ai/expert.py``): iterations play on states
  rebuilt from the seat's view (``game.sample_hidden(view, rng)``, the bot's generator),
  ``pool`` of them per decision, each iteration on a clone of one with its own future
  (``state.rng`` re-seeded from the bot's generator). One open-loop tree, keyed by the
  action sequences from the root, serves them all; the real state is never read.
- **The tree holds every side's decisions** (max^n: each node keeps a value per seat and
  the side to move picks by its own), the forced ones (one legal action) applied without
  a node. A node is expanded when an iteration first reaches it.
- **Leaves rated by the learned value** (``ai/learned.py``): the observation of the side
  to move at the leaf (``rl/encoders``, written from the sampled state, so only what the
  view allows and sampled guesses) gives every seat's chance of winning and the policy
  over the legal actions, which orders the new node's actions (PUCT priors, constant
  ``c_puct``). No play-out. Finished games count by their rank.
- **Batched evaluation.** An iteration's descent marks its path as visited (a virtual
  loss) so that the next descents look elsewhere; ``batch`` leaves are then rated by one
  pass of the network.
- **Fallback.** Without a model for the game and player count (none shipped, made for
  another rules version, or numpy missing) leaves are rated by ``LeafValue`` of
  ``ai/mcts.py`` (the game's hand-written evaluation: a logistic of the change of each
  seat's margin since the root) and priors are uniform.
- **Budget.** ``iterations`` per decision or ``think`` seconds by a clock (injectable),
  read before every descent. The move played is the root's most visited child (ties:
  the higher prior, then the legal order).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meeplehall.ai.bot import bot_rng
from meeplehall.ai.evaluator import Evaluator, resolve
from meeplehall.ai.learned import MODELS, LearnedModel, load_model
from meeplehall.ai.mcts import LeafValue
from meeplehall.core.protocol import Game
from meeplehall.core.rng import Rng

LEARNED_THINK = 0.25  # seconds per decision of the clock-driven ``learned`` kind
PENDING: dict[Any, float] = {}
"""The priors of a node whose leaf waits in the batch being collected."""


@dataclass(frozen=True)
class LearnedConfig:
    """Settings of the learned search."""

    iterations: int = 0  # per decision; 0: think by the clock
    think: float = LEARNED_THINK  # seconds per decision where ``iterations`` is 0
    c_puct: float = 1.5  # PUCT's exploration constant
    batch: int = 8  # leaves rated by one pass of the network
    pool: int = 8  # hidden-information samples per decision
    use_model: bool = True  # False: the hand-written evaluation (the fallback)

    def __post_init__(self) -> None:
        if self.iterations < 0:
            raise ValueError(f"iterations must be at least 0, got {self.iterations}")
        if not self.iterations and not self.think > 0:
            raise ValueError(f"the think time must be positive, got {self.think}")
        if self.batch < 1 or self.pool < 1:
            raise ValueError("batch and pool must be at least 1")


class PNode:
    """Statistics of one action sequence from the root: visits (virtual losses
    included while a batch is rated), each seat's total value, the priors of its
    actions (None until it is expanded)."""

    __slots__ = ("children", "priors", "totals", "visits")

    def __init__(self, seats: int) -> None:
        self.children: dict[Any, PNode] = {}
        self.visits = 0
        self.totals = [0.0] * seats
        self.priors: dict[Any, float] | None = None


def _result(game: Game, state: Any, seats: int) -> list[float]:
    """A finished game's value per seat: 1 for a win, 0 for the last, ranks between."""
    out = game.outcome(state)
    assert out is not None
    if seats == 1:
        return [1.0 if 0 in out.winners else 0.0]
    return [(seats - out.rank_of(s)) / (seats - 1) for s in range(seats)]


class LearnedSearchBot:
    """See the module docstring; deterministic given its seed where it counts
    iterations. ``model``: a ``LearnedModel``, or None to load the one shipped in
    ``models`` (the package's by default; the hand-written evaluation where there is none
    that may be used, or ``use_model`` is off)."""

    kind = "learned"

    def __init__(self, seed: int = 0, config: LearnedConfig | None = None,
                 evaluator: Evaluator | None = None, model: LearnedModel | None = None,
                 clock: Callable[[], float] = time.perf_counter,
                 models: Path = MODELS) -> None:
        self.config = config or LearnedConfig()
        self.models = models
        self.evaluator = evaluator
        self.model = model
        self.rng = bot_rng(seed)
        self.clock = clock
        self.last_iterations = 0
        self.last_value = ""  # "learned" or "hand": what rated the last search's leaves

    def _model(self, game: Game, seats: int) -> LearnedModel | None:
        if not self.config.use_model:
            return None
        if self.model is not None:
            return self.model
        return load_model(game.name, seats, self.models)

    # --- public -----------------------------------------------------------------------
    def choose(self, game: Game, view: dict[str, Any], legal: tuple[Any, ...]) -> Any:
        if len(legal) == 1:
            return legal[0]
        root = self.search(game, view, legal)
        return self._best(root, legal)

    def analyse(self, game: Game, view: dict[str, Any],
                legal: tuple[Any, ...]) -> list[tuple[Any, float, float]]:
        """Each legal action with its share of the root's visits and its mean value for
        the seat, most visited first."""
        seat = view["seat"]
        root = self.search(game, view, legal)
        total = sum(c.visits for c in root.children.values()) or 1
        priors = root.priors or {}
        rows = []
        for action in legal:
            child = root.children.get(action)
            visits = child.visits if child is not None else 0
            mean = child.totals[seat] / visits if child is not None and visits else 0.0
            rows.append((action, visits / total, mean))
        rows.sort(key=lambda r: (-r[1], -r[2], -priors.get(r[0], 0.0)))
        return rows

    def _best(self, root: PNode, legal: tuple[Any, ...]) -> Any:
        priors = root.priors or {}
        best, key = legal[0], (-1, -1.0)
        for action in legal:
            child = root.children.get(action)
            k = (child.visits if child is not None else 0, priors.get(action, 0.0))
            if k > key:
                best, key = action, k
        return best

    # --- search -----------------------------------------------------------------------
    def search(self, game: Game, view: dict[str, Any], legal: tuple[Any, ...]) -> PNode:
        """The root of the searched tree."""
        cfg = self.config
        clock = self.clock
        deadline = None if cfg.iterations else clock() + cfg.think
        first = game.sample_hidden(view, self.rng)
        seats = game.num_players(first)
        model = self._model(game, seats)
        self.last_value = "learned" if model is not None else "hand"
        hand = None if model is not None else LeafValue(game, resolve(self.evaluator, game),
                                                        first, seats)
        if model is not None:
            import numpy as np

            from meeplehall.rl.encoders import make_encoder
            from meeplehall.rl.encoders.base import Observer

            encoder = make_encoder(game.name, seats)
            observer = Observer(encoder, seats)
            legal_of = encoder.legal
            buffer = np.zeros((cfg.batch, encoder.size), np.float32)
        pool = [first]
        current_player = game.current_player
        legal_actions = game.legal_actions
        apply = game.apply_unchecked
        c = cfg.c_puct
        root = PNode(seats)
        iterations = 0
        pending: list[tuple[list[PNode], PNode, int, tuple[Any, ...]]] = []

        def select(node: PNode, actions: tuple[Any, ...], mover: int) -> Any:
            priors = node.priors or {}
            uniform = 1.0 / len(actions)
            root_n = math.sqrt(node.visits + 1)
            fpu = node.totals[mover] / node.visits if node.visits else 0.5
            children = node.children
            best, best_score = actions[0], -1.0
            for a in actions:
                p = priors.get(a, uniform)
                child = children.get(a)
                if child is None or not child.visits:
                    score = fpu + c * p * root_n
                else:
                    n = child.visits
                    score = child.totals[mover] / n + c * p * root_n / (1 + n)
                if score > best_score:
                    best, best_score = a, score
            return best

        def back(path: list[PNode], values: list[float]) -> None:
            for n in path:  # the visits were counted on the way down (virtual loss)
                totals = n.totals
                for s in range(seats):
                    totals[s] += values[s]

        while True:
            if cfg.iterations and iterations + len(pending) >= cfg.iterations:
                break
            if deadline is not None and clock() >= deadline:
                break
            k = iterations + len(pending)
            index = k % cfg.pool
            if index >= len(pool):
                pool.append(game.sample_hidden(view, self.rng))
            state = pool[index].clone()
            if isinstance(getattr(state, "rng", None), Rng):
                state.rng = Rng(self.rng.next_u64())
            node, path = root, [root]
            root.visits += 1
            leaf: tuple[int, tuple[Any, ...]] | None = None
            while True:
                mover = current_player(state)
                if mover is None:
                    break
                actions = legal_actions(state)
                if len(actions) == 1:
                    apply(state, actions[0])
                    continue
                if node.priors is None or node.priors is PENDING:
                    leaf = (mover, actions)
                    break
                action = select(node, actions, mover)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = PNode(seats)
                apply(state, action)
                child.visits += 1
                path.append(child)
                node = child
            if leaf is None:  # a finished game
                back(path, _result(game, state, seats))
                iterations += 1
            elif model is None:
                assert hand is not None
                node.priors = {}
                back(path, hand(state))
                iterations += 1
            else:
                assert model is not None
                mover, actions = leaf
                if node.priors is None:
                    node.priors = PENDING  # rated with this batch
                    buffer[len(pending)] = observer.encode(state, mover)
                    pending.append((path, node, mover, actions))
                    if len(pending) < cfg.batch and len(path) > 1:
                        continue
                else:  # a leaf of this batch reached again: undo this descent's visits
                    for n in path:
                        n.visits -= 1
                iterations += self._rate(model, buffer, pending, legal_of, seats, back)
        if pending and model is not None:
            iterations += self._rate(model, buffer, pending, legal_of, seats, back)
        self.last_iterations = iterations
        return root

    @staticmethod
    def _rate(model: LearnedModel, buffer: Any, pending: list[Any], legal_of: Any,
              seats: int, back: Callable[[list[PNode], list[float]], None]) -> int:
        """Rate the pending leaves with one pass of the network; how many there were."""
        count = len(pending)
        logits, chances = model.forward(buffer[:count])
        chances = chances.tolist()
        for i, (path, node, mover, actions) in enumerate(pending):
            indices = legal_of(actions)[0]
            node.priors = dict(zip(actions, model.policy(logits[i], indices), strict=True))
            rel = chances[i]
            back(path, [rel[(s - mover) % seats] for s in range(seats)])
        pending.clear()
        return count


def iterations_per_second(game: Game, params: dict[str, Any], seconds: float,
                          seed: int = 0, use_model: bool = True) -> tuple[float, str]:
    """Iterations per second of the clock-driven ``learned`` search (its clock shared
    between three mid-game positions of a greedy-versus-greedy game: a third, half and
    two thirds of the way), the time of sampling its hidden information included; and
    what rated its leaves (``learned`` or ``hand``)."""
    from meeplehall.ai.base import make_bot

    state = game.initial_state(params, seed)
    players = game.num_players(state)
    bots = [make_bot("greedy", seed * 16 + s) for s in range(players)]
    positions: list[Any] = []
    while (seat := game.current_player(state)) is not None:
        legal = game.legal_actions(state)
        if len(legal) > 1:
            positions.append(state.clone())
        game.apply_unchecked(state, bots[seat].choose(game, game.player_view(state, seat),
                                                      legal))
    picks = [positions[len(positions) * k // 6] for k in (2, 3, 4)] if positions else \
        [game.initial_state(params, seed)]
    iterations, elapsed, value = 0, 0.0, ""
    for start in picks:
        mover = game.current_player(start)
        assert mover is not None
        bot = LearnedSearchBot(seed, LearnedConfig(think=seconds / len(picks),
                                                   use_model=use_model))
        t0 = time.perf_counter()
        bot.search(game, game.player_view(start, mover), game.legal_actions(start))
        elapsed += time.perf_counter() - t0
        iterations += bot.last_iterations
        value = bot.last_value
    return iterations / elapsed, value
