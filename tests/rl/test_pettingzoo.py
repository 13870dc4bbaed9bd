"""The PettingZoo AEC environment passes PettingZoo's own API and seed tests."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from meeplehall.rl import env, parallel_env  # noqa: E402


def _quiet_api_test(e: object, cycles: int) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns that Dict observations are not Box/Discrete: they are the
        # documented way to carry an action mask.
        warnings.simplefilter("ignore", UserWarning)
        api_test(e, num_cycles=cycles)


@pytest.mark.parametrize(("game", "players", "cycles"), [
    ("praga", 2, 300),  # a whole game (about 240 decisions)
    ("red-cathedral", 2, 150),
    ("praga", 3, 60),
    ("red-cathedral", 3, 40),
    ("praga", 4, 40),
    ("red-cathedral", 4, 40),
    ("red-cathedral", 1, 200),  # solo against Ivan, to the end
    ("praga", 1, 200),  # solo against the rulebook's dummy, to the end
])
def test_api_test(game: str, players: int, cycles: int) -> None:
    _quiet_api_test(env(game, players=players), cycles)


def test_api_test_with_parler_bots() -> None:
    e = env("praga", players=2, solo_opponent="parler", parler_bots=2)
    _quiet_api_test(e, 300)


@pytest.mark.parametrize(("game", "players", "cycles"), [
    ("praga", 1, 40), ("praga", 2, 60), ("praga", 3, 25), ("praga", 4, 25),
    ("red-cathedral", 1, 40), ("red-cathedral", 2, 60), ("red-cathedral", 3, 25),
    ("red-cathedral", 4, 25)])
def test_seed_test(game: str, players: int, cycles: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        seed_test(lambda: env(game, players=players), num_cycles=cycles)


def _play(e: object, seed: int) -> tuple[list[int], dict[str, float]]:
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            assert "outcome" in info and "view" in info
            e.step(None)
            continue
        assert info["view"]["seat"] == e.possible_agents.index(agent)
        assert info["legal"], "the agent to act has legal actions"
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == len(info["legal"])
        action = int(legal[rng.integers(len(legal))])
        actions.append(action)
        e.step(action)
    return actions, totals


def test_full_game_pays_rank_rewards_at_the_end_only() -> None:
    e = env("praga", players=3, views=True)
    actions, totals = _play(e, seed=11)
    assert sorted(totals.values()) in ([-1.0, 0.0, 1.0], [-1.0, 0.5, 0.5],
                                       [-0.5, -0.5, 1.0], [0.0, 0.0, 0.0])
    assert sum(totals.values()) == pytest.approx(0.0)
    again, _ = _play(env("praga", players=3, views=True), seed=11)
    assert again == actions  # same seed, same game


def test_margin_reward_is_score_difference_scaled() -> None:
    e = env("praga", players=2, reward="margin", margin_scale=10, views=True)
    _, totals = _play(e, seed=2)
    scores = e.unwrapped.table.outcome().scores
    assert totals["player_0"] == pytest.approx((scores[0] - scores[1]) / 10)
    assert totals["player_1"] == pytest.approx((scores[1] - scores[0]) / 10)


def test_masks_are_zero_for_agents_not_to_act() -> None:
    e = env("red-cathedral", players=3)
    e.reset(seed=1)
    acting = e.agent_selection
    for agent in e.agents:
        mask = e.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == acting)


def test_bad_input_is_named() -> None:
    with pytest.raises(ValueError, match="unknown game 'go'"):
        env("go")
    with pytest.raises(ValueError, match="unknown reward 'score'"):
        env("praga", reward="score")
    with pytest.raises(ValueError, match="unknown option 'colour'"):
        env("praga", colour="red")
    with pytest.raises(ValueError, match="illegal_action must be"):
        env("praga", illegal_action="ignore")
    e = env("praga", players=2, illegal_action="raise")
    e.reset(seed=0)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="is not legal now"):
        e.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        e.step(10_000)
    with pytest.raises(ValueError, match="None is only for finished agents"):
        e.step(None)


@pytest.mark.parametrize("bad", ["masked", 10_000, -1, None, "north"])
def test_an_illegal_action_is_refused_and_ends_the_game_by_default(bad: object) -> None:
    # As in PettingZoo's classic games: -1 to the agent that made it, 0 to the others.
    e = env("red-cathedral", players=3)
    e.reset(seed=4)
    offender = e.agent_selection
    if bad == "masked":
        bad = int(np.flatnonzero(e.observe(offender)["action_mask"] == 0)[0])
    state_before = e.unwrapped.table.state.clone()
    e.step(bad)
    assert e.unwrapped.table.state == state_before  # the move was refused
    assert all(e.terminations.values())
    assert e.rewards == {a: (-1.0 if a == offender else 0.0) for a in e.possible_agents}
    finished = []
    for agent in e.agent_iter():
        _obs, reward, term, _trunc, info = e.last()
        assert term and info["illegal"] and info["illegal_agent"] == offender
        assert reward == (-1.0 if agent == offender else 0.0)
        finished.append(agent)
        e.step(None)
    assert sorted(finished) == sorted(e.possible_agents) and not e.agents


@pytest.mark.parametrize("game", ["praga", "red-cathedral"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_parallel_api_test(game: str, players: int) -> None:
    from pettingzoo.test import parallel_api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # Dict observations, as above
        parallel_api_test(parallel_env(game, players=players), num_cycles=300)


def test_parallel_env_plays_a_whole_game_like_the_aec_env() -> None:
    # The agent to decide acts, the others wait: the same game as the AEC environment
    # given the same actions.
    par = parallel_env("red-cathedral", players=2)
    obs, infos = par.reset(seed=6)
    aec = env("red-cathedral", players=2)
    aec.reset(seed=6)
    rng = np.random.default_rng(1)
    totals = dict.fromkeys(par.possible_agents, 0.0)
    while par.agents:
        acting = [a for a in par.agents if infos[a]["to_move"]]
        assert acting == [aec.agent_selection]
        legal = np.flatnonzero(obs[acting[0]]["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        for a in par.agents:
            assert np.array_equal(obs[a]["observation"], aec.observe(a)["observation"])
        obs, rewards, _terms, _truncs, infos = par.step({acting[0]: action})
        aec.step(action)
        for a, r in rewards.items():
            totals[a] += r
    assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])
    assert par.table.outcome() is not None


def _trace(e: object, seed: int, decisions: int) -> list[tuple[bytes, bytes, float]]:
    """Every observation, mask and reward of ``decisions`` random decisions."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out: list[tuple[bytes, bytes, float]] = []
    for n, _agent in enumerate(e.agent_iter()):
        obs, reward, term, trunc, _info = e.last()
        out.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward))
        if n == decisions:
            break
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.integers(len(legal))]))
    return out


@pytest.mark.parametrize("game", ["red-cathedral", "praga"])
def test_the_engine_log_is_kept_only_where_something_shows_it(game: str) -> None:
    """The game log is text for people: without ``views`` the environment's engine state
    keeps none (observations never read it; a log per game costs the garbage collector),
    ``views=True`` or ``log=True`` keeps it, and the same seed plays the same game with
    the same observations, masks and rewards either way."""
    plain, shown, kept = env(game, 2), env(game, 2, views=True), env(game, 2, log=True)
    traces = [_trace(e, 7, 400) for e in (plain, shown, kept)]
    assert traces[0] == traces[1] == traces[2]
    assert len(plain.unwrapped.table.state.log) == 0
    assert len(shown.unwrapped.table.state.log) > 20
    assert len(kept.unwrapped.table.state.log) == len(shown.unwrapped.table.state.log)
    shown.reset(seed=7)
    assert shown.last()[4]["view"]  # the views (with their log) are still there
