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


def _with_illegal(mask: np.ndarray, game: int, rng: np.random.Generator) -> np.ndarray:
    """Random legal actions, except game ``game``'s: the first index its mask rules out."""
    acts = _random_legal(mask, rng)
    acts[game] = int(np.flatnonzero(mask[game] == 0)[0])
    return acts


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


def _replay(num_envs: int, steps: int, workers: int = 1) -> list[np.ndarray]:
    """The observation batches of a run from seed 11, random legal actions from seed 3."""
    env = vector_env("praga", num_envs, workers=workers)
    try:
        obs, _ = env.reset(seed=11)
        rng = np.random.default_rng(3)
        out = [obs["observation"]]
        for _ in range(steps):
            obs, *_ = env.step(_random_legal(obs["action_mask"], rng))
            out.append(obs["observation"])
        return out
    finally:
        env.close()


@pytest.mark.parametrize(("num_envs", "steps", "workers"), [(2, 200, 1), (3, 300, 2)])
def test_a_seed_replays_the_whole_run(num_envs: int, steps: int, workers: int) -> None:
    first, second = _replay(num_envs, steps, workers), _replay(num_envs, steps, workers)
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))


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
    rows = obs["observation"].copy()
    with pytest.raises(ValueError, match="is not legal now"):
        strict.step(np.array([legal0, illegal1]))
    # raised before any game moved: game 0 still offers the same decision
    assert strict.tables[0].is_legal(legal0)
    assert np.array_equal(strict.tables[0].observation(int(strict._seat[0])), rows[0])
    obs, *_ = strict.step(np.array([legal0, int(np.flatnonzero(obs["action_mask"][1])[0])]))
    assert not np.array_equal(obs["observation"][0], rows[0])
    with pytest.raises(ValueError, match="step needs 2 actions"):
        strict.step(np.array([legal0]))


def test_worker_processes_play_the_same_games_until_new_seeds_are_drawn() -> None:
    """``workers=2``: the same rows, rewards and seats as one process from the same seeds
    (until a game ends and its share draws a new seed), a run replays from its seed and
    worker count, errors come back as ValueError, and close() stops the workers."""
    one = vector_env("red-cathedral", 4)
    two = vector_env("red-cathedral", 4, workers=2)
    try:
        assert two.tables == [] and len(two._shards) == 2
        obs1, info1 = one.reset(seed=3)
        obs2, info2 = two.reset(seed=3)
        rng1, rng2 = np.random.default_rng(0), np.random.default_rng(0)
        for _ in range(120):
            assert np.array_equal(obs1["observation"], obs2["observation"])
            assert np.array_equal(obs1["action_mask"], obs2["action_mask"])
            assert info1["seat"].tolist() == info2["seat"].tolist()
            obs1, r1, t1, _, info1 = one.step(_random_legal(obs1["action_mask"], rng1))
            obs2, r2, t2, _, info2 = two.step(_random_legal(obs2["action_mask"], rng2))
            assert r1.tolist() == r2.tolist() and t1.tolist() == t2.tolist()
            if t1.any():
                break
        # an illegal action: the reward and info of the single process, the game reset
        acts = _with_illegal(obs2["action_mask"], 3, rng2)
        seat3 = int(info2["seat"][3])
        obs2, rewards, terminated, _, info = two.step(acts)
        assert terminated[3] and info["illegal"].tolist()[3] and rewards[3] == -1.0
        assert info["rewards"][3][seat3] == -1.0 and info["_final_obs"][3]
        assert info["final_obs"][3]["observation"].shape == (one.encoder.size,)
        with pytest.raises(ValueError, match="step needs 4 actions"):
            two.step(acts[:2])
    finally:
        two.close()
        one.close()
    assert not two._shards
    strict = vector_env("praga", 2, workers=2, illegal_action="raise")
    try:
        obs, _ = strict.reset(seed=1)
        bad = _with_illegal(obs["action_mask"], 1, np.random.default_rng(0))
        with pytest.raises(ValueError, match="is not legal now"):
            strict.step(bad)
        obs, _ = strict.reset(seed=2)  # the workers go on after an error
        strict.step(_random_legal(obs["action_mask"], np.random.default_rng(1)))
        # the caller steps the first share itself, one worker process the other
        procs = [shard.proc for shard in strict._shards]
        assert procs[0] is None and procs[1] is not None and procs[1].is_alive()
    finally:
        strict.close()
    assert not procs[1].is_alive()
    with pytest.raises(ValueError, match="workers must be"):
        vector_env("praga", 2, workers=3)



def test_every_share_reports_its_endings_and_errors() -> None:
    """``workers=3`` over 3 games: the caller's own share (game 0) and two workers' (games
    1 and 2) each report an illegal action's ending, seat and reward in the same call; an
    error in the caller's share is raised only after the workers answered, and they go on;
    no spinning (``spin=0``) plays the same games."""
    env = vector_env("praga", 3, workers=3, spin=0)
    try:
        obs, info = env.reset(seed=4)
        seats = info["seat"].tolist()
        bad = [int(np.flatnonzero(row == 0)[0]) for row in obs["action_mask"]]
        obs, rewards, terminated, _trunc, info = env.step(np.array(bad))
        assert terminated.tolist() == [True] * 3 and info["illegal"].tolist() == [True] * 3
        assert rewards.tolist() == [-1.0] * 3
        assert [info["rewards"][i][seats[i]] for i in range(3)] == [-1.0] * 3
        assert all(info["final_obs"][i]["observation"].shape == (env.encoder.size,)
                   for i in range(3))
        assert env.observation_space.contains(obs)
        assert obs["action_mask"].any(axis=1).all()  # each game restarted at a decision
    finally:
        env.close()
    strict = vector_env("praga", 3, workers=3, illegal_action="raise")
    one = vector_env("praga", 3)
    try:
        obs, _ = strict.reset(seed=6)
        obs1, _ = one.reset(seed=6)
        bad = _with_illegal(obs["action_mask"], 0, np.random.default_rng(0))
        with pytest.raises(ValueError, match="is not legal now"):
            strict.step(bad)
        obs, _ = strict.reset(seed=6)
        rng, rng1 = np.random.default_rng(2), np.random.default_rng(2)
        for _ in range(40):
            assert np.array_equal(obs["observation"], obs1["observation"])
            obs, *_ = strict.step(_random_legal(obs["action_mask"], rng))
            obs1, *_ = one.step(_random_legal(obs1["action_mask"], rng1))
    finally:
        strict.close()
        one.close()
    for bad_spin in (-1, "1", True, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="spin must be"):
            vector_env("praga", 2, workers=2, spin=bad_spin)


def test_a_call_interrupted_in_the_callers_share_leaves_no_answer_behind(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An interrupt (or any error) while the caller steps its own share comes out of
    ``step``; the worker's answer to that call is dropped, not read as the next one's."""
    import meeplehall.rl.vector as vector

    env = vector_env("praga", 2, workers=2, illegal_action="raise")
    try:
        obs, _ = env.reset(seed=3)
        handle = vector._handle

        def interrupted(*args: object) -> None:
            raise KeyboardInterrupt

        monkeypatch.setattr(vector, "_handle", interrupted)  # the caller's share only
        bad = _with_illegal(obs["action_mask"], 1, np.random.default_rng(0))  # worker errs
        with pytest.raises(KeyboardInterrupt):
            env.step(bad)
        monkeypatch.setattr(vector, "_handle", handle)
        obs, _ = env.reset(seed=3)  # not the worker's error from the interrupted call
        obs, *_ = env.step(_random_legal(obs["action_mask"], np.random.default_rng(1)))

        def broken(*args: object) -> None:
            raise RuntimeError("a bug")

        monkeypatch.setattr(vector, "_handle", broken)
        with pytest.raises(RuntimeError, match="a bug"):
            env.step(bad)  # raised after the worker's answer (its error) was read
        monkeypatch.setattr(vector, "_handle", handle)
        assert env._shards[1].unread == 0
        obs, _ = env.reset(seed=4)
        env.step(_random_legal(obs["action_mask"], np.random.default_rng(2)))
    finally:
        env.close()


def test_games_keep_no_log_unless_asked() -> None:
    """By default the games' engine states discard their log (text nobody reads in
    self-play), clones included; ``log=True`` keeps it; either way the same seeds give
    the same batches."""
    quiet, logged = vector_env("red-cathedral", 2), vector_env("red-cathedral", 2, log=True)
    obs_q, _ = quiet.reset(seed=9)
    obs_l, _ = logged.reset(seed=9)
    rng_q, rng_l = np.random.default_rng(1), np.random.default_rng(1)
    for _ in range(150):
        assert np.array_equal(obs_q["observation"], obs_l["observation"])
        assert np.array_equal(obs_q["action_mask"], obs_l["action_mask"])
        obs_q, *_ = quiet.step(_random_legal(obs_q["action_mask"], rng_q))
        obs_l, *_ = logged.step(_random_legal(obs_l["action_mask"], rng_l))
    assert [len(t.state.log) for t in quiet.tables] == [0, 0]
    with pytest.raises(ValueError, match="log must be True or False"):
        vector_env("red-cathedral", 2, log="no")
    assert all(len(t.state.log) > 20 for t in logged.tables)
    clone = quiet.tables[0].clone()
    clone.play(clone.legal_indices()[0])
    assert len(clone.state.log) == 0


def test_batches_handed_out_without_copies_are_read_only() -> None:
    # copy=False: the observers keep each seat's observation in its batch row and the
    # tables their masks, so the caller reads the batch but cannot write to it.
    env = vector_env("red-cathedral", 2, copy=False)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(30):
        with pytest.raises(ValueError, match="read-only"):
            obs["observation"][0, 0] = 1.0
        with pytest.raises(ValueError, match="read-only"):
            obs["action_mask"][1, 0] = 1
        obs, *_ = env.step(_random_legal(obs["action_mask"], rng))
