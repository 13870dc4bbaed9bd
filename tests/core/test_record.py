"""Game records: save/load, replay and every way a record can be wrong (core/record.py)."""

from __future__ import annotations

import json
import os

import pytest

from meeplehall.core import record as record_module
from meeplehall.core.record import GameRecord, RecordError, lookup_game, replay, save_text
from meeplehall.core.testing import random_playout
from meeplehall.games.red_cathedral import GAME


@pytest.fixture(scope="module")
def played():
    """A complete 2-player game: (final state, record)."""
    return random_playout(GAME, {"players": 2}, 21, 5)


def test_save_and_load_round_trip(tmp_path, played):
    final, rec = played
    rec.meta["note"] = "round trip"
    path = tmp_path / "game.json"
    rec.save(path)
    back = GameRecord.load(path)
    assert back == rec
    assert replay(back) == final
    assert json.loads(path.read_text())["format"] == "meeplehall-record"


def test_replay_prefix(played):
    _, rec = played
    state = replay(rec, GAME, upto=3)
    again = GAME.initial_state(rec.params, rec.seed)
    for _, text in rec.actions[:3]:
        again = GAME.apply(again, text)
    assert state == again


def test_corrupt_json_is_reported(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "meeplehall-record", ')
    with pytest.raises(RecordError, match=r"corrupt record: not valid JSON \(.* line 1"):
        GameRecord.load(path)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.pop("seed"), "field 'seed' is missing"),
    (lambda d: d.update(seed="7"), "field 'seed' must be int"),
    (lambda d: d.update(rules_version=True), "field 'rules_version' must be int"),
    (lambda d: d.update(actions=[[0]]), "action 0 must be [player, text]"),
    (lambda d: d.update(format="chess"), "not a game record"),
    (lambda d: d.update(format_version=99), "format version 99 is not supported"),
    (lambda d: d.update(meta=[]), "field 'meta' must be an object"),
])
def test_malformed_records_are_reported(played, change, message):
    data = played[1].to_dict()
    change(data)
    with pytest.raises(RecordError) as info:
        GameRecord.from_dict(data)
    assert message in str(info.value)
    with pytest.raises(RecordError, match="top level must be a JSON object"):
        GameRecord.from_json("[1, 2]")


def test_missing_file(tmp_path):
    with pytest.raises(RecordError, match="no such file"):
        GameRecord.load(tmp_path / "nothing.json")


def test_wrong_game(played):
    rec = GameRecord("no-such-game", 1, {}, 0)
    with pytest.raises(RecordError, match="unknown game 'no-such-game'; known games: "):
        replay(rec)
    with pytest.raises(RecordError, match="this record is a game of 'no-such-game', not "
                                          "'red-cathedral'"):
        replay(rec, GAME)
    with pytest.raises(RecordError, match="not 'praga'"):
        replay(played[1], expect_game="praga")
    assert lookup_game("red-cathedral") is GAME


def test_wrong_rules_version(played):
    data = played[1].to_dict()
    data["rules_version"] = GAME.rules_version + 1
    with pytest.raises(RecordError, match=f"made with rules version {GAME.rules_version + 1} of "
                                          f"red-cathedral; this program plays version "
                                          f"{GAME.rules_version}"):
        replay(GameRecord.from_dict(data))


def test_bad_parameters(played):
    rec = GameRecord(GAME.name, GAME.rules_version, {"players": 9}, 0)
    with pytest.raises(RecordError, match="bad parameters in record: option 'players'"):
        replay(rec)


def test_illegal_move_in_record(played):
    rec = GameRecord(GAME.name, GAME.rules_version, dict(played[1].params), played[1].seed,
                     list(played[1].actions[:4]))
    rec.actions.append((GAME.current_player(replay(rec)), "build"))
    with pytest.raises(RecordError, match=r"move 5 \('build'\) does not replay: build is not "
                                          "legal now"):
        replay(rec)
    rec.actions[-1] = (None, "teleport 3")
    with pytest.raises(RecordError, match=r"move 5 \('teleport 3'\) does not replay: .*unknown"):
        replay(rec)


def test_move_logged_for_the_wrong_seat(played):
    rec = GameRecord(GAME.name, GAME.rules_version, dict(played[1].params), played[1].seed,
                     [(1, played[1].actions[0][1])])
    with pytest.raises(RecordError, match=r"move 1 .* was logged for seat 1, but seat 0 is to "
                                          "move"):
        replay(rec)


def test_failed_save_leaves_the_old_file_intact(tmp_path, monkeypatch, played):
    path = tmp_path / "game.json"
    path.write_text("old contents\n")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(record_module.os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        played[1].save(path)
    assert path.read_text() == "old contents\n"
    assert os.listdir(tmp_path) == ["game.json"]  # no temporary file left behind


def test_failed_write_leaves_the_old_file_intact(tmp_path, monkeypatch):
    path = tmp_path / "notes.txt"
    path.write_text("old\n")

    def broken_fsync(fd):
        raise OSError("I/O error")

    monkeypatch.setattr(record_module.os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="I/O error"):
        save_text(path, "new\n")
    assert path.read_text() == "old\n" and os.listdir(tmp_path) == ["notes.txt"]
    monkeypatch.undo()
    save_text(path, "new\n")
    assert path.read_text() == "new\n"
