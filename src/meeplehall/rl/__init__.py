"""Research interfaces (the ``meeplehall[rl]`` extra): PettingZoo, Gymnasium, OpenSpiel.

* ``env(game, players=2, reward="rank", **options)``: a PettingZoo AEC environment.
* ``parallel_env(game, players=2, reward="rank", **options)``: the same game through
  PettingZoo's parallel API (the agent to decide acts, the others wait).
* ``single_agent_env(game, players=2, opponent="random", seat=0, **options)``: a
  Gymnasium environment where bots of the ladder play the other seats.
* ``vector_env(game, num_envs, players=2, **options)``: a Gymnasium vector environment
  of ``num_envs`` self-play games stepped in one call (batched observations and masks,
  auto-reset).
* ``meeplehall.rl.openspiel_game.register()``: registers ``meeplehall_praga`` and
  ``meeplehall_red_cathedral`` as OpenSpiel Python games.
* ``meeplehall.rl.encoders.make_encoder(game, players)``: the action catalogue and the
  observation layout (documented in ``docs/rl.md``).

Imports of numpy, PettingZoo and Gymnasium happen when these are called, so importing
``meeplehall.rl`` alone needs none of them.
"""

from __future__ import annotations

from typing import Any


def env(game: str, players: int = 2, reward: str = "rank", **options: Any) -> Any:
    """A PettingZoo AEC environment of ``game`` (``"praga"`` or ``"red-cathedral"``).

    Raises:
        ValueError: unknown game, reward or option.
    """
    from meeplehall.rl.pettingzoo_env import MeeplehallEnv

    return MeeplehallEnv(game, players, reward, **options)


def parallel_env(game: str, players: int = 2, reward: str = "rank", **options: Any) -> Any:
    """A PettingZoo parallel environment of ``game``; only the agent to decide acts.

    Raises:
        ValueError: unknown game, reward or option.
    """
    from meeplehall.rl.pettingzoo_env import MeeplehallParallelEnv

    return MeeplehallParallelEnv(game, players, reward, **options)


def single_agent_env(game: str, players: int = 2, opponent: str = "random", seat: int = 0,
                     reward: str = "rank", **options: Any) -> Any:
    """A Gymnasium environment: you play ``seat``, bots of kind ``opponent`` the others.

    Raises:
        ValueError: unknown game, bot, reward or option, or a seat out of range.
    """
    from meeplehall.rl.gym_env import SingleAgentEnv

    return SingleAgentEnv(game, players, opponent, seat, reward, **options)


def vector_env(game: str, num_envs: int, players: int = 2, reward: str = "rank",
               **options: Any) -> Any:
    """A Gymnasium vector environment: ``num_envs`` games of ``game``, every seat played
    by the caller (:mod:`meeplehall.rl.vector`); ``workers=K`` steps them in K processes
    (the caller and K - 1 workers; call ``close()`` when done), ``copy=False`` hands out
    read-only views of the batch arrays, ``illegal_action="raise"`` raises on an illegal
    action, ``log=True`` keeps the games' logs (discarded by default).

    Raises:
        ValueError: unknown game, reward or option, ``num_envs`` below 1, or
            ``workers`` outside 1..num_envs.
    """
    from meeplehall.rl.vector import MeeplehallVectorEnv

    return MeeplehallVectorEnv(game, num_envs, players, reward, **options)


__all__ = ["env", "parallel_env", "single_agent_env", "vector_env"]
