"""The learned value and policy: the loader (identity checked, fallback), inference, the
learned search (deterministic, from the seat's view only) and training's determinism."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tests.ai.test_expert import _advance

from meeplehall.ai import make_bot
from meeplehall.ai.learned import (
    MODELS,
    LearnedModel,
    ModelRefused,
    identity,
    load_model,
    model_name,
    read_model,
    refusal,
)
from meeplehall.ai.learned_search import LearnedConfig, LearnedSearchBot
from meeplehall.core.rng import Rng
from meeplehall.games import GAMES
from meeplehall.rl.encoders import make_encoder


def tiny_model(game: str, players: int, seed: int = 0, **changes: Any) -> LearnedModel:
    """A model of random weights for ``game`` (its identity changed by ``changes``)."""
    encoder = make_encoder(game, players)
    rng = np.random.default_rng(seed)

    def m(a: int, b: int) -> tuple[Any, Any]:
        return ((rng.standard_normal((a, b)) * 0.1).astype(np.float32),
                (rng.standard_normal(b) * 0.1).astype(np.float32))

    return LearnedModel([m(encoder.size, 16)], m(16, encoder.num_actions), m(16, players),
                        {"identity": {**identity(game, players), **changes}})


def test_identity_names_the_engines_rules_version_and_encoder() -> None:
    ident = identity("praga", 2)
    assert ident["rules_version"] == GAMES["praga"].rules_version
    assert ident["players"] == 2 and len(ident["encoder"]) == 16
    assert identity("praga", 3)["encoder"] != ident["encoder"]
    with pytest.raises(ValueError, match="unknown game"):
        identity("chess", 2)


def test_weights_of_another_rules_version_are_refused_with_a_clear_message(
        tmp_path: Path) -> None:
    stale = GAMES["red-cathedral"].rules_version - 1
    path = tmp_path / f"{model_name('red-cathedral', 2)}.npz"
    tiny_model("red-cathedral", 2, rules_version=stale).save(path)
    with pytest.raises(ModelRefused, match=f"rules version {stale}") as err:
        read_model(path, identity("red-cathedral", 2))
    assert "meeplehall train red-cathedral --players 2" in str(err.value)
    assert "hand-written evaluation" in str(err.value)
    with pytest.warns(UserWarning, match="rules version"):
        assert load_model("red-cathedral", 2, tmp_path) is None


def test_the_learned_search_falls_back_to_the_hand_written_evaluation(
        tmp_path: Path) -> None:
    """Refused weights: the bot still plays, its leaves rated by the hand-written
    evaluation, and it chooses as ``learned-hand`` does."""
    game = GAMES["red-cathedral"]
    path = tmp_path / f"{model_name('red-cathedral', 2)}.npz"
    tiny_model("red-cathedral", 2, encoder="0" * 16).save(path)
    state = _advance(game, 2, seed=3, moves=20)
    seat = game.current_player(state)
    view, legal = game.player_view(state, seat), game.legal_actions(state)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bot = LearnedSearchBot(4, LearnedConfig(iterations=40), models=tmp_path)
        choice = bot.choose(game, view, legal)
    assert bot.last_value == "hand" and bot.last_iterations == 40
    hand = LearnedSearchBot(4, LearnedConfig(iterations=40, use_model=False))
    assert hand.choose(game, view, legal) == choice and hand.last_value == "hand"
    assert load_model("red-cathedral", 3, tmp_path) is None  # none for 3 players


def test_a_model_of_the_same_identity_is_loaded_and_rates_leaves(tmp_path: Path) -> None:
    game = GAMES["praga"]
    path = tmp_path / f"{model_name('praga', 2)}.npz"
    tiny_model("praga", 2).save(path)
    model = load_model("praga", 2, tmp_path)
    assert model is not None
    encoder = make_encoder("praga", 2)
    logits, chances = model.forward(np.zeros((3, encoder.size), np.float32))
    assert logits.shape == (3, encoder.num_actions) and chances.shape == (3, 2)
    assert ((chances > 0) & (chances < 1)).all()
    probs = model.policy(logits[0], [0, 5, 7])
    assert len(probs) == 3 and abs(sum(probs) - 1) < 1e-6
    state = _advance(game, 2, seed=2, moves=30)
    seat = game.current_player(state)
    bot = LearnedSearchBot(1, LearnedConfig(iterations=50, batch=4), models=tmp_path)
    action = bot.choose(game, game.player_view(state, seat), game.legal_actions(state))
    assert action in game.legal_actions(state)
    assert bot.last_value == "learned" and bot.last_iterations == 50


def test_refusal_says_nothing_for_a_matching_identity() -> None:
    ident = identity("praga", 2)
    assert refusal(dict(ident), ident) is None
    assert "player count" in (refusal({**ident, "players": 3}, ident) or "")


@pytest.mark.parametrize(("name", "players"), [("praga", 2), ("red-cathedral", 2),
                                               ("red-cathedral", 3), ("praga", 1)])
def test_the_learned_search_decides_from_the_seats_view_only(name: str, players: int) -> None:
    """Same seed, same view: the same choice where the game's generator and hidden
    components differ (model or fallback), and the real state is not changed."""
    game = GAMES[name]
    state = _advance(game, players, seed=5, moves=25)
    other = state.clone()
    other.rng = Rng(4242)
    if name == "praga":
        other.tech_stacks = [tuple(reversed(s)) for s in other.tech_stacks]
    else:
        other.unused = ((), (), ())
    seat = game.current_player(state)
    assert game.player_view(state, seat) == game.player_view(other, seat)
    snapshot = state.clone()
    model = tiny_model(name, players)
    for use_model in (True, False):
        def choose(s: Any, use_model: bool = use_model) -> Any:
            bot = LearnedSearchBot(3, LearnedConfig(iterations=60, use_model=use_model),
                                   model=model)
            return bot.choose(game, game.player_view(s, seat), game.legal_actions(s))

        assert choose(state) == choose(other)
    assert state == snapshot


def test_learned_kinds_are_made_and_checked() -> None:
    bot = make_bot("learned@20", 1)
    assert isinstance(bot, LearnedSearchBot) and bot.config.iterations == 20
    assert make_bot("learned-hand", 1).config.use_model is False
    assert make_bot("learned", 1, think=0.5).config.think == 0.5
    with pytest.raises(ValueError, match="whole number"):
        make_bot("learned@x")


SHIPPED = sorted(MODELS.glob("*.npz"))


def test_shipped_models_agree_with_their_cards() -> None:
    """Every shipped weights file has its card, made for the same identity as this
    program's, and it rated held-out positions better than a constant guess and than
    the hand-written evaluation's logistic on the same positions (a model that does not
    is not shipped: the search is better off with the hand-written value)."""
    assert SHIPPED, "no model is shipped"
    for path in SHIPPED:
        card = json.loads(path.with_suffix(".json").read_text())
        model = read_model(path)
        assert model.meta["identity"] == card["identity"]
        ident = card["identity"]
        assert ident == identity(ident["game"], ident["players"])
        assert card["command"].startswith("meeplehall train ")
        assert "--out" not in card["command"] and "--data" not in card["command"]
        held = card["held_out"]
        for key in ("policy_cross_entropy", "value_bce", "calibration"):
            assert key in held
        assert held["value_brier"] < held["value_brier_constant"]
        assert held["value_brier"] < held["value_brier_hand"] < 1
        assert path.stat().st_size < 4 << 20


def test_shipped_models_load_with_numpy_only() -> None:
    """The bots' import of a shipped model needs numpy, not PyTorch."""
    code = ("import sys; from meeplehall.ai.learned import load_model; "
            f"names = {[p.stem for p in SHIPPED]!r}; "
            "models = [load_model(n.rsplit('-', 1)[0], int(n.rsplit('-', 1)[1][:-1])) "
            "for n in names]; "
            "assert all(m is not None for m in models), models; "
            "assert 'torch' not in sys.modules; print(len(models))")
    src = Path(__file__).parents[2] / "src"
    done = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(src)}, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(len(SHIPPED))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_the_shipped_models_play_deterministically_given_a_seed(path: Path) -> None:
    """``learned@N`` with the shipped model: the leaves rated by it, and the same seed,
    view and legal actions give the same move."""
    name = path.stem.rsplit("-", 1)[0]
    game = GAMES[name]
    state = _advance(game, 2, seed=11, moves=30)
    seat = game.current_player(state)
    view, legal = game.player_view(state, seat), game.legal_actions(state)
    choices = []
    for _ in range(2):
        bot = make_bot("learned@64", 9)
        assert isinstance(bot, LearnedSearchBot)
        choices.append(bot.choose(game, view, legal))
        assert bot.last_value == "learned" and bot.last_iterations == 64
    assert choices[0] == choices[1] and choices[0] in legal


@pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                    reason="training needs PyTorch (the [train] extra)")
def test_training_is_deterministic_given_its_seed(tmp_path: Path) -> None:
    from tools import train

    outs = []
    for run in ("a", "b"):
        out = tmp_path / run
        assert train.main(["red-cathedral", "--players", "2", "--seed", "7", "--games", "3",
                           "--envs", "3", "--epochs", "2", "--hidden", "8",
                           "--out", str(out)]) == 0
        outs.append(out / f"{model_name('red-cathedral', 2)}")
    a, b = (read_model(o.with_suffix(".npz")) for o in outs)
    for (wa, ba), (wb, bb) in zip(a.layers, b.layers, strict=True):
        assert np.array_equal(wa, wb) and np.array_equal(ba, bb)
    assert np.array_equal(a.value_head[0], b.value_head[0])
    cards = [json.loads(o.with_suffix(".json").read_text()) for o in outs]
    assert cards[0]["held_out"] == cards[1]["held_out"]
    assert cards[0]["identity"] == identity("red-cathedral", 2)
    # early stopping: the epoch kept is the one with the lowest loss on the check games
    check = cards[0]["check_loss_by_epoch"]
    assert len(check) == 2 and cards[0]["positions"]["check"] > 0
    assert cards[0]["epoch_kept"] == check.index(min(check)) + 1


@pytest.mark.parametrize("name", ["red-cathedral", "praga"])
def test_self_play_targets_are_the_encoded_seats_own(name: str) -> None:
    """Each kept position is the mover's observation (as its view encodes it), the
    bot's move, and the final ranks seen from that seat: the value target's first entry
    is the result of the seat whose observation it is (a wrong seat or sign here would
    teach the value the opposite of the game). Checked against the same games replayed
    without the vector environment."""
    from tools.train import hand_margin, self_play

    game = GAMES[name]
    seed, games = 4700, 2
    data = self_play(name, 2, seed, games, "greedy", 0.0, games)
    encoder = make_encoder(name, 2)
    from meeplehall.ai.evaluator import resolve

    evaluator = resolve(None, game)
    for number in range(games):
        state = game.initial_state({"players": 2}, seed + number)
        bots = [make_bot("greedy", (seed + number) * 16 + s) for s in range(2)]
        rows: list[tuple[Any, int, int, float]] = []
        while (seat := game.current_player(state)) is not None:
            legal = game.legal_actions(state)
            if len(legal) > 1:
                view = game.player_view(state, seat)
                action = bots[seat].choose(game, view, legal)
                rows.append((encoder.encode(view, seat), encoder.action_index(action), seat,
                             hand_margin(evaluator, state, seat)))
            else:
                action = legal[0]
            game.apply_unchecked(state, action)
        outcome = game.outcome(state)
        assert outcome is not None
        result = [2.0 - outcome.rank_of(s) for s in range(2)]  # 1 the winner, 0 the last
        mine = np.flatnonzero(data["game"] == number)
        assert len(mine) == len(rows) > 10
        for k, (obs, action, seat, margin) in zip(mine, rows, strict=True):
            assert np.array_equal(data["obs"][k], obs)
            assert data["action"][k] == action
            assert data["value"][k].tolist() == [result[seat], result[1 - seat]]
            assert data["margin"][k] == pytest.approx(margin, abs=1e-5)


def test_kept_self_play_data_is_read_only_for_the_games_it_holds(tmp_path: Path) -> None:
    """``--data`` keeps the self-play arrays with the arguments that made them; other
    arguments play the games again. The card's command leaves out where files go."""
    from tools.train import read_data, recorded, write_data

    path = tmp_path / "data.npz"
    data = {"obs": np.ones((3, 4), np.float32), "action": np.arange(3), "decisions": 9}
    made_by = {"game": "praga", "seed": 1, "games": 3}
    write_data(path, data, made_by)
    back = read_data(path, made_by)
    assert back is not None and back["decisions"] == 9
    assert np.array_equal(back["obs"], data["obs"])
    assert read_data(path, {**made_by, "seed": 2}) is None
    assert read_data(tmp_path / "none.npz", made_by) is None
    assert recorded(["praga", "--out", "x", "--seed", "3", "--data=y", "--data", "z"]) == \
        ["praga", "--seed", "3"]
