"""The OpenSpiel Python games: loading, tensors, and OpenSpiel's MCTS bot playing."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")

from open_spiel.python.algorithms import mcts  # noqa: E402

from meeplehall.rl.encoders import make_encoder  # noqa: E402
from meeplehall.rl.openspiel_game import register  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    register()
    register()  # a second registration is harmless


@pytest.mark.parametrize(("short", "game", "players"), [
    ("meeplehall_praga", "praga", 2), ("meeplehall_red_cathedral", "red-cathedral", 2)])
def test_mcts_bot_plays_a_few_moves(short: str, game: str, players: int) -> None:
    g = pyspiel.load_game(short, {"players": players, "seed": 3})
    enc = make_encoder(game, players)
    assert g.num_distinct_actions() == enc.num_actions
    assert g.observation_tensor_size() == enc.size
    state = g.new_initial_state()
    bot = mcts.MCTSBot(g, uct_c=2.0, max_simulations=2,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(1))
    for _ in range(3):
        player = state.current_player()
        legal = state.legal_actions()
        action = bot.step(state)
        assert action in legal
        assert state.action_to_string(player, action) == str(enc.action_at(action))
        state.apply_action(action)
    assert len(state.history()) == 3
    tensor = np.asarray(state.observation_tensor(0), dtype=np.float32)
    assert tensor.shape == (enc.size,)
    assert np.array_equal(tensor, np.asarray(state.information_state_tensor(0),
                                             dtype=np.float32))
    assert '"log"' in state.information_state_string(0)
    assert '"log"' not in state.observation_string(0)


def test_random_game_to_the_end_with_returns() -> None:
    g = pyspiel.load_game("meeplehall_praga", {"players": 3, "options": "road_tiles=true"})
    state = g.new_initial_state()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        if len(state.history()) % 50 == 0:
            clone = state.clone()
            clone.apply_action(clone.legal_actions()[0])
            assert len(clone.history()) == len(state.history()) + 1  # independent copy
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert sorted(state.returns()) in ([-1.0, 0.0, 1.0], [-1.0, 0.5, 0.5], [-0.5, -0.5, 1.0],
                                       [0.0, 0.0, 0.0])


def test_new_states_use_successive_seeds_and_bad_options_are_named() -> None:
    g = pyspiel.load_game("meeplehall_red_cathedral", {"players": 2, "seed": 5})
    first, second = g.new_initial_state(), g.new_initial_state()
    assert str(first.observation_tensor(0)) != str(second.observation_tensor(0))
    with pytest.raises(ValueError, match="unknown option 'colour'"):
        pyspiel.load_game("meeplehall_praga", {"options": "colour=red"})


@pytest.mark.parametrize("short", ["meeplehall_praga", "meeplehall_red_cathedral"])
def test_resample_from_infostate_keeps_the_seat_information_and_feeds_ismcts(
        short: str) -> None:
    from open_spiel.python.algorithms import ismcts

    g = pyspiel.load_game(short, {"players": 2, "seed": 5})
    state = g.new_initial_state()
    rng = np.random.default_rng(2)
    for _ in range(40):
        state.apply_action(int(rng.choice(state.legal_actions())))
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(3):
        dealt = state.resample_from_infostate(seat, sampler)
        assert dealt.information_state_string(seat) == state.information_state_string(seat)
        assert dealt.legal_actions() == state.legal_actions()
        assert np.array_equal(np.asarray(dealt.observation_tensor(seat)),
                              np.asarray(state.observation_tensor(seat)))
        assert dealt.table.state.rng.state != state.table.state.rng.state  # re-dealt
    bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                           uct_c=2.0, max_simulations=3, random_state=np.random.RandomState(1))
    assert bot.step(state) in state.legal_actions()


def test_praga_with_explicit_chance_passes_openspiels_random_sim_test_with_serialize() -> None:
    g = pyspiel.load_game("meeplehall_praga", {"players": 2, "seed": 9, "chance": "explicit"})
    assert g.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(g, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("short", ["meeplehall_praga", "meeplehall_red_cathedral"])
def test_explicit_chance_deals_then_serialises_to_the_identical_state(short: str) -> None:
    import pickle

    g = pyspiel.load_game(short, {"players": 2, "seed": 4, "chance": "explicit",
                                  "deals": 8})
    state = g.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [k for k, _ in outcomes] == list(range(8))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "deal 3"
    with pytest.raises(ValueError, match=r"deal 8 is not one of 0\.\.7"):
        state.clone().apply_action(8)
    two = g.new_initial_state()
    state.apply_action(3)
    two.apply_action(3)
    assert state.information_state_string(0) == two.information_state_string(0)
    other = g.new_initial_state()
    other.apply_action(5)
    assert other.information_state_string(0) != state.information_state_string(0)
    rng = np.random.default_rng(1)
    for step in range(60):
        if step in (0, 1, 7, 59):
            text = pyspiel.serialize_game_and_state(g, state)
            _, back = pyspiel.deserialize_game_and_state(text)
            assert back.history() == state.history()
            assert str(back) == str(state)
            assert back.information_state_string(1) == state.information_state_string(1)
            assert back.legal_actions() == state.legal_actions()
            copy = pickle.loads(pickle.dumps(state.table))
            assert (copy.game.to_json(copy.state) == state.table.game.to_json(state.table.state))
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_chance_mode_and_deals_are_checked() -> None:
    with pytest.raises(ValueError, match="chance must be one of sampled, explicit"):
        pyspiel.load_game("meeplehall_praga", {"chance": "hidden"})
    with pytest.raises(ValueError, match="deals must be at least 1"):
        pyspiel.load_game("meeplehall_praga", {"chance": "explicit", "deals": 0})
