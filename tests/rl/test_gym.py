"""The Gymnasium single-agent wrapper: bots of the ladder play the other seats."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from meeplehall.rl import single_agent_env  # noqa: E402


@pytest.mark.parametrize("game", ["praga", "red-cathedral"])
def test_gymnasium_check_env_passes_with_the_defaults(game: str) -> None:
    # check_env steps with unmasked random actions: the default refuses them (reward -1,
    # the episode ends) instead of raising.
    e = single_agent_env(game, players=2, opponent="random")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(e, skip_render_check=True)


def test_an_illegal_action_ends_the_episode_or_raises_when_asked() -> None:
    e = single_agent_env("red-cathedral", players=2)
    obs, _ = e.reset(seed=3)
    masked = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for bad in (masked, 10_000, -3, "x"):
        e.reset(seed=3)
        before = e.table.state.clone()
        obs, reward, terminated, truncated, info = e.step(bad)
        assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
        assert e.table.state == before
    strict = single_agent_env("red-cathedral", players=2, illegal_action="raise")
    strict.reset(seed=3)
    with pytest.raises(ValueError, match="is not legal now"):
        strict.step(masked)
    with pytest.raises(ValueError, match="illegal_action must be"):
        single_agent_env("praga", illegal_action="skip")


def _play(e: object, seed: int) -> tuple[float, dict[str, object], int]:
    obs, info = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done, reward, steps = False, 0.0, 0
    while not done:
        assert info["view"]["seat"] == e.seat
        assert info["view"]["to_move"] == e.seat  # the bots have played up to our turn
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == len(info["legal"])
        obs, reward, done, truncated, info = e.step(int(legal[rng.integers(len(legal))]))
        assert not truncated
        steps += 1
    return reward, info, steps


@pytest.mark.parametrize(("game", "players", "seat", "opponent"), [
    ("praga", 2, 1, "greedy"),
    ("red-cathedral", 2, 0, "random"),
    ("red-cathedral", 1, 0, "random"),  # solo: Ivan is the engine's, no bot needed
    ("praga", 1, 0, "random"),  # solo against the dummy (P-SOLO-1..4)
])
def test_game_against_bots_ends_with_the_seat_reward(game: str, players: int, seat: int,
                                                    opponent: str) -> None:
    e = single_agent_env(game, players=players, opponent=opponent, seat=seat, views=True)
    reward, info, steps = _play(e, seed=4)
    outcome = info["outcome"]
    assert steps > 10
    if players == 1:
        assert reward == (1.0 if 0 in outcome["winners"] else -1.0)
    else:
        rank_of = next(i for i, g in enumerate(outcome["ranking"]) if seat in g)
        assert (reward == 1.0) == (rank_of == 0 and len(outcome["ranking"][0]) == 1)
    again, _, _ = _play(single_agent_env(game, players=players, opponent=opponent,
                                         seat=seat, views=True), seed=4)
    assert again == reward


def test_bad_configuration_is_named() -> None:
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        single_agent_env("praga", opponent="genius")
    with pytest.raises(ValueError, match=r"seat must be 0\.\.1"):
        single_agent_env("praga", seat=2)
    with pytest.raises(ValueError, match="needs 2 bot kinds"):
        single_agent_env("praga", players=3, opponent=["random"])
