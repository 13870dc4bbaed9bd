"""A learned value and policy per game and player count, played with numpy only.

A model is a small multilayer perceptron over the research environments' observation
(``meeplehall.rl.encoders``: the vector a seat's view shows, seats written relative to
the observing seat). From the observation of the seat to move it gives

- **policy**: one logit per action of the encoder's catalogue (masked to the legal ones
  and normalised by ``policy``);
- **value**: for each seat, observer first and then the next seats in turn order, the
  chance that it wins (a sigmoid; the target is the final rank, ``1`` for the winner,
  ``0`` for the last, linear in between).

The weights ship as package data, ``ai/models/<game>-<players>p.npz``, beside their model
card ``<game>-<players>p.json`` (``tools/train.py`` writes both). Each file carries the
identity of what it was made for (``identity``): the game, its ``rules_version``, the
player count and a digest of the encoder's observation layout and action catalogue. The
loader refuses weights made for another identity with a message saying what differs, and
the bots that use a model then play with the game's hand-written evaluation instead.

Training needs PyTorch (the optional extra ``[train]``); nothing here imports it.
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

# The network's matrices are small (a batch of a few leaves): one BLAS thread is fastest,
# and threads that spin on a busy machine cost many times the product itself. Set before
# numpy is first imported; an explicit setting is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

MODELS = Path(__file__).with_name("models")
"""Where the shipped weights and their model cards are."""
FORMAT = 1
"""The version of the weights' file layout."""


class ModelRefused(ValueError):
    """Weights that this program cannot use (another rules version, another encoder)."""


def model_name(game: str, players: int) -> str:
    """The file stem of a model: ``<game>-<players>p``."""
    return f"{game}-{players}p"


def encoder_digest(game: str, players: int) -> str:
    """A digest of the encoder's observation layout and action catalogue (weights are
    tied to both)."""
    from meeplehall.rl.encoders import make_encoder

    encoder = make_encoder(game, players)
    text = json.dumps({"blocks": [[b.name, b.size] for b in encoder.blocks],
                       "actions": [str(a) for a in encoder.actions]})
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def identity(game: str, players: int) -> dict[str, Any]:
    """What a model must have been made for to be used with this program: the game, its
    rules version (the engine's ``rules_version``), the player count, the encoder."""
    from meeplehall.games import GAMES

    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; games are: {', '.join(GAMES)}")
    return {"format": FORMAT, "game": game, "rules_version": GAMES[game].rules_version,
            "players": players, "encoder": encoder_digest(game, players)}


def refusal(made_for: dict[str, Any], wanted: dict[str, Any]) -> str | None:
    """Why weights made for ``made_for`` cannot serve ``wanted`` (None: they can)."""
    names = {"format": "file format", "game": "game", "rules_version": "rules version",
             "players": "player count", "encoder": "observation encoder"}
    diffs = [f"{names.get(k, k)} {made_for.get(k)!r} (this program: {v!r})"
             for k, v in wanted.items() if made_for.get(k) != v]
    if not diffs:
        return None
    return (f"the {wanted['game']} {wanted['players']}-player model was made for another "
            f"version: " + "; ".join(diffs) + ". Retrain it with `meeplehall train "
            f"{wanted['game']} --players {wanted['players']}`; until then the bots use the "
            f"hand-written evaluation")


@dataclass
class LearnedModel:
    """The weights of one model: hidden layers (``layers``: weight, bias pairs, ReLU
    after each), the policy head and the value head."""

    layers: list[tuple[Any, Any]]
    policy_head: tuple[Any, Any]
    value_head: tuple[Any, Any]
    meta: dict[str, Any]

    def forward(self, obs: Any) -> tuple[Any, Any]:
        """Policy logits ``[B, actions]`` and value chances ``[B, players]`` (observer
        first) for a float32 batch of observations ``[B, size]``."""
        import numpy as np

        h = obs
        for w, b in self.layers:
            h = h @ w
            h += b
            np.maximum(h, 0.0, out=h)
        logits = h @ self.policy_head[0] + self.policy_head[1]
        v = h @ self.value_head[0] + self.value_head[1]
        np.clip(v, -30.0, 30.0, out=v)
        return logits, 1.0 / (1.0 + np.exp(-v))

    def policy(self, logits_row: Any, indices: list[int]) -> list[float]:
        """The softmax of one row of logits over the catalogue ``indices`` (the legal
        actions, in their order)."""
        import numpy as np

        z = logits_row[indices]
        z = np.exp(z - z.max())
        result: list[float] = (z / z.sum()).tolist()
        return result

    def to_arrays(self) -> dict[str, Any]:
        """The weights as the named arrays of the ``.npz`` file."""
        import numpy as np

        arrays: dict[str, Any] = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        arrays["wp"], arrays["bp"] = self.policy_head
        arrays["wv"], arrays["bv"] = self.value_head
        arrays["meta"] = np.frombuffer(json.dumps(self.meta).encode(), dtype=np.uint8)
        return arrays

    def save(self, path: Path) -> None:
        import numpy as np

        with open(path, "wb") as f:
            np.savez_compressed(f, **self.to_arrays())


def read_model(path: Path, wanted: dict[str, Any] | None = None) -> LearnedModel:
    """The model in ``path`` (an ``.npz`` written by ``LearnedModel.save``).

    Raises:
        ModelRefused: the file is not a model, or it was made for another identity than
            ``wanted``.
    """
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
        meta = json.loads(bytes(arrays.pop("meta")).decode())
    except (OSError, ValueError, KeyError) as exc:
        raise ModelRefused(f"{path.name} is not a model file: {exc}") from exc
    if wanted is not None and (why := refusal(meta.get("identity", {}), wanted)):
        raise ModelRefused(why)
    layers = []
    i = 0
    while f"w{i}" in arrays:
        layers.append((arrays[f"w{i}"].astype(np.float32), arrays[f"b{i}"].astype(np.float32)))
        i += 1
    try:
        return LearnedModel(layers, (arrays["wp"].astype(np.float32),
                                     arrays["bp"].astype(np.float32)),
                            (arrays["wv"].astype(np.float32), arrays["bv"].astype(np.float32)),
                            meta)
    except KeyError as exc:
        raise ModelRefused(f"{path.name} lacks the array {exc}") from exc


@cache
def load_model(game: str, players: int, directory: Path = MODELS) -> LearnedModel | None:
    """The shipped model of ``game`` at ``players`` seats, or None where there is none,
    or (with a warning saying why) where it was made for another rules version or
    encoder, or numpy is missing."""
    path = directory / f"{model_name(game, players)}.npz"
    if not path.exists():
        return None
    try:
        import numpy  # noqa: F401
    except ImportError:
        warnings.warn("numpy is not installed: the learned bots use the hand-written "
                      "evaluation", stacklevel=2)
        return None
    try:
        model = read_model(path, identity(game, players))
    except ModelRefused as exc:
        warnings.warn(str(exc), stacklevel=2)
        return None
    return model


def model_card(game: str, players: int, directory: Path = MODELS) -> dict[str, Any] | None:
    """The model card of a shipped model (None where there is none)."""
    path = directory / f"{model_name(game, players)}.json"
    if not path.exists():
        return None
    card: dict[str, Any] = json.loads(path.read_text())
    return card
