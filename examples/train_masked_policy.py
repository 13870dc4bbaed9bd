"""Train a masked-action policy against the random bot, on the CPU, with numpy only.

A linear softmax policy over the fixed action catalogue (logits = obs @ W + b, illegal
actions masked out) learns by REINFORCE in ``meeplehall.rl.single_agent_env``: you play
seat 0, the random bot the other seat. The environment pays the final score margin; for
credit assignment the script shapes it with the score margin read from the seat's view
(potential-based shaping: the shaped rewards of a game still add up to the final one) and
discounts it over the seat's own decisions. Advantages are normalised per batch of games.
The script prints the win rate against the random bot before and after training, over the
same evaluation seeds.

    pip install "meeplehall[rl]"
    python examples/train_masked_policy.py --game praga --minutes 5 --eval-games 100

Everything is seeded; the time budget decides how many training games fit.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from meeplehall.rl import single_agent_env


class LinearPolicy:
    """Masked softmax over ``obs @ W + b``, trained with Adam on REINFORCE gradients."""

    def __init__(self, obs_size: int, num_actions: int, lr: float, seed: int) -> None:
        self.W = np.zeros((obs_size, num_actions), dtype=np.float32)
        self.b = np.zeros(num_actions, dtype=np.float32)
        self.lr = lr
        self.rng = np.random.default_rng(seed)
        self._m = [np.zeros_like(self.W), np.zeros_like(self.b)]
        self._v = [np.zeros_like(self.W), np.zeros_like(self.b)]
        self._t = 0

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = obs @ self.W + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p: np.ndarray = np.exp(logits)
        out: np.ndarray = p / p.sum()
        return out

    def act(self, obs: np.ndarray, mask: np.ndarray) -> tuple[int, np.ndarray]:
        p = self.probs(obs, mask)
        return int(self.rng.choice(len(p), p=p)), p

    def update(self, steps: list[tuple[np.ndarray, np.ndarray, int]],
               advantages: np.ndarray) -> None:
        """One Adam step on -mean(advantage * log pi(a | obs)) over ``steps``."""
        obs = np.stack([o for o, _, _ in steps])
        grad_logits = -np.stack([p for _, p, _ in steps])
        grad_logits[np.arange(len(steps)), [a for _, _, a in steps]] += 1.0
        grad_logits *= advantages[:, None] / len(steps)
        grads = [-(obs.T @ grad_logits), -grad_logits.sum(axis=0)]
        self._t += 1
        for i, (param, g) in enumerate(zip((self.W, self.b), grads, strict=True)):
            self._m[i] = 0.9 * self._m[i] + 0.1 * g
            self._v[i] = 0.999 * self._v[i] + 0.001 * g * g
            m_hat = self._m[i] / (1 - 0.9 ** self._t)
            v_hat = self._v[i] / (1 - 0.999 ** self._t)
            param -= self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def margin_in_view(view: dict[str, Any], seat: int) -> float:
    """Own score minus the best other score, from the seat's view (Praga: VP; The Red
    Cathedral: Recognition)."""
    state = view["state"]
    scores = state["vp"] if "vp" in state else state["score"]
    others = [x for i, x in enumerate(scores) if i != seat]
    return float(scores[seat] - max(others)) if others else float(scores[seat])


def play(env: Any, policy: LinearPolicy, seed: int
         ) -> tuple[bool, float, list[tuple[np.ndarray, np.ndarray, int]], list[float]]:
    """One game; returns (won, final reward, [(obs, probs, action)], potentials), the
    potential being the scaled score margin before each decision."""
    obs, info = env.reset(seed=seed)
    episode: list[tuple[np.ndarray, np.ndarray, int]] = []
    potentials: list[float] = []
    done, reward = False, 0.0
    while not done:
        potentials.append(margin_in_view(info["view"], env.seat) / MARGIN_SCALE)
        action, p = policy.act(obs["observation"], obs["action_mask"])
        episode.append((obs["observation"], p, action))
        obs, reward, done, _, info = env.step(action)
    return env.seat in info["outcome"]["winners"], float(reward), episode, potentials


def shaped_returns(potentials: list[float], final: float, gamma: float) -> np.ndarray:
    """Discounted returns of the shaped rewards ``phi(next) - phi(now)``, the last step
    ending at the final reward (so the undiscounted sum is ``final - phi(first)``)."""
    nxt = [*potentials[1:], final]
    out = np.zeros(len(potentials), dtype=np.float32)
    ahead = 0.0
    for t in range(len(potentials) - 1, -1, -1):
        ahead = (nxt[t] - potentials[t]) + gamma * ahead
        out[t] = ahead
    return out


def win_rate(env: Any, policy: LinearPolicy, games: int, first_seed: int) -> float:
    return sum(play(env, policy, first_seed + i)[0] for i in range(games)) / games


MARGIN_SCALE = 20.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="praga", choices=("praga", "red-cathedral"))
    parser.add_argument("--minutes", type=float, default=5.0, help="training time budget")
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--gamma", type=float, default=0.9, help="discount per decision")
    parser.add_argument("--batch", type=int, default=4, help="games per update")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = single_agent_env(args.game, players=2, opponent="random", reward="margin",
                           margin_scale=MARGIN_SCALE, views=True)
    policy = LinearPolicy(env.encoder.size, env.encoder.num_actions, args.lr, args.seed)
    print(f"{args.game}, 2 players, you = seat 0 vs the random bot; "
          f"{env.encoder.size} observation floats, {env.encoder.num_actions} actions")
    eval_seed = 1_000_000  # evaluation games never overlap training games
    t0 = time.perf_counter()
    before = win_rate(env, policy, args.eval_games, eval_seed)
    print(f"win rate before training: {before:.2f} over {args.eval_games} games "
          f"({time.perf_counter() - t0:.0f} s)")

    games = 0
    start = time.perf_counter()
    recent: list[bool] = []
    batch: list[tuple[np.ndarray, np.ndarray, int]] = []
    returns: list[np.ndarray] = []
    while time.perf_counter() - start < args.minutes * 60:
        won, reward, episode, potentials = play(env, policy, args.seed * 100_000 + games)
        batch += episode
        returns.append(shaped_returns(potentials, reward, args.gamma))
        games += 1
        recent = [*recent[-49:], won]
        if games % args.batch == 0:
            g = np.concatenate(returns)
            policy.update(batch, (g - g.mean()) / (g.std() + 1e-8))
            batch, returns = [], []
        if games % 50 == 0:
            print(f"  {games} training games, {time.perf_counter() - start:.0f} s, "
                  f"win rate of the last 50: {sum(recent) / len(recent):.2f}")
    print(f"trained on {games} games in {time.perf_counter() - start:.0f} s")
    after = win_rate(env, policy, args.eval_games, eval_seed)
    print(f"win rate after training:  {after:.2f} over {args.eval_games} games "
          f"(before: {before:.2f})")


if __name__ == "__main__":
    main()
