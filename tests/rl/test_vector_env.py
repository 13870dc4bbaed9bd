"""The vector environment: N self-play games per call, batched, auto-reset."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.vector import AutoresetMode  # noqa: E402

from meeplehall.games import GAMES  # noqa: E402
from meeplehall.rl import vector_env  # noqa: E402
from meeplehall.rl.encoders import make_encoder  # noqa: E402


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    keys = rng.random(mask.shape)
    keys[mask == 0] = -1.0
    return keys.argmax(axis=1)


@pytest.mark.parametrize(("game", "players"), [("red-cathedral", 2), ("praga", 3)])
def test_batched_rows_are_each_games_seat_to_move_and_games_reset_themselves(
        game: str, players: int) -> None:
    n = 3
    env = vector_env(game, n, players=players)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    enc = make_encoder(game, players)
    g = GAMES[game]
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(1500):
        for i, table in enumerate(env.tables):  # each row: the seat to move of game i
            seat = int(info["seat"][i])
            assert table.to_move() == seat
            ref = enc.encode(g.player_view(table.state, seat), seat)
            assert np.array_equal(obs["observation"][i], ref)
            assert np.array_equal(obs["action_mask"][i], enc.mask(table.legal))
        obs, rewards, terminated, truncated, info = env.step(
            _random_legal(obs["action_mask"], rng))
        assert not truncated.any()
        if terminated.any():
            finished += int(terminated.sum())
            assert info["_final_obs"].tolist() == terminated.tolist()
            for i in np.flatnonzero(terminated):
                assert sorted(info["rewards"][i].tolist()) in (
                    [-1.0, 1.0], [-1.0, 0.0, 1.0], [-1.0, 0.5, 0.5], [-0.5, -0.5, 1.0],
                    [0.0, 0.0], [0.0, 0.0, 0.0])
                assert info["final_obs"][i]["observation"].shape == (enc.size,)
            assert not rewards[~terminated].any()
        if finished >= 2:
            return
    raise AssertionError("no game ended in 1500 steps")


def test_a_seed_replays_the_whole_run() -> None:
    def run() -> list[np.ndarray]:
        env = vector_env("praga", 2)
        obs, _ = env.reset(seed=11)
        rng = np.random.default_rng(3)
        out = [obs["observation"]]
        for _ in range(200):
            obs, *_ = env.step(_random_legal(obs["action_mask"], rng))
            out.append(obs["observation"])
        return out

    assert all(np.array_equal(a, b) for a, b in zip(run(), run(), strict=True))


def test_an_illegal_action_ends_only_its_game() -> None:
    env = vector_env("red-cathedral", 2)
    obs, info = env.reset(seed=1)
    legal0 = int(np.flatnonzero(obs["action_mask"][0])[0])
    illegal1 = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    seat1 = int(info["seat"][1])
    before = env.tables[1].state
    _obs, rewards, terminated, _trunc, info = env.step(np.array([legal0, illegal1]))
    assert terminated.tolist() == [False, True] and info["illegal"].tolist() == [False, True]
    assert rewards[1] == -1.0 and info["rewards"][1][seat1] == -1.0
    assert info["rewards"][1].sum() == -1.0
    assert env.tables[1].state is not before  # a new game
    strict = vector_env("red-cathedral", 2, illegal_action="raise")
    obs, _ = strict.reset(seed=1)
    with pytest.raises(ValueError, match="is not legal now"):
        strict.step(np.array([legal0, illegal1]))
    with pytest.raises(ValueError, match="step needs 2 actions"):
        strict.step(np.array([legal0]))
