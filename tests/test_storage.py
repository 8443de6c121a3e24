"""Saved data: atomic writes, versioned tables, corrupt files set aside and never overwritten."""
import numpy as np

from arcade.foundation import notices
from arcade.foundation.storage import BestScores, load_json, load_npz, save_json, save_npz


def test_npz_round_trip(tmp_path):
    path = tmp_path / "t.npz"
    assert save_npz(path, 3, values=np.arange(5.0))
    loaded = load_npz(path, 3, required=("values",))
    assert np.array_equal(loaded["values"], np.arange(5.0))
    assert [p.name for p in tmp_path.iterdir()] == ["t.npz"]  # no temp file left behind


def test_missing_npz_is_none(tmp_path):
    assert load_npz(tmp_path / "none.npz", 1) is None


def test_garbage_npz_is_set_aside_with_one_notice(tmp_path):
    notices.clear()
    path = tmp_path / "t.npz"
    path.write_bytes(b"garbage that is not a zip")
    assert load_npz(path, 1) is None
    assert not path.exists() and (tmp_path / "t.npz.corrupt").read_bytes() == b"garbage that is not a zip"
    assert len(notices.recent()) == 1 and "t.npz" in notices.recent()[0]


def test_a_shipped_file_that_does_not_load_is_left_in_place(tmp_path, monkeypatch):
    import arcade.foundation.storage as storage
    monkeypatch.setattr(storage, "ASSETS", tmp_path.resolve())
    notices.clear()
    path = tmp_path / "shipped.npz"
    path.write_bytes(b"a network of a shape this code does not read")
    assert load_npz(path, 1) is None
    assert path.read_bytes() == b"a network of a shape this code does not read"
    assert not (tmp_path / "shipped.npz.corrupt").exists()
    assert len(notices.recent()) == 1 and "left in place" in notices.recent()[0]


def test_truncated_npz_is_set_aside(tmp_path):
    path = tmp_path / "t.npz"
    save_npz(path, 1, values=np.arange(1000.0))
    path.write_bytes(path.read_bytes()[:100])
    assert load_npz(path, 1) is None
    assert (tmp_path / "t.npz.corrupt").exists()


def test_stale_version_is_set_aside(tmp_path):
    path = tmp_path / "t.npz"
    save_npz(path, 1, values=np.zeros(2))
    assert load_npz(path, 2) is None
    assert (tmp_path / "t.npz.corrupt").exists()


def test_second_corrupt_file_does_not_overwrite_first(tmp_path):
    path = tmp_path / "b.json"
    path.write_text("{bad")
    load_json(path, {})
    path.write_text("[worse")
    load_json(path, {})
    assert (tmp_path / "b.json.corrupt").read_text() == "{bad"
    assert (tmp_path / "b.json.corrupt1").read_text() == "[worse"


def test_failed_write_keeps_previous_file(tmp_path, monkeypatch):
    path = tmp_path / "b.json"
    save_json(path, {"a": 1})

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("arcade.foundation.storage.os.replace", full_disk)
    assert save_json(path, {"a": 2}) is False
    assert load_json(path, {}) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["b.json"]


def test_best_scores_keep_the_maximum_and_merge(tmp_path):
    a = BestScores(tmp_path)
    b = BestScores(tmp_path)
    assert a.offer("2048/4", 100) and not a.offer("2048/4", 50)
    assert BestScores(tmp_path).get("2048/4") == 0  # offers stay in memory until a flush
    assert a.flush()
    assert b.offer("match3", 70) and b.offer("2048/4", 60)  # b did not see a's 100; it must not erase it
    assert b.flush()
    fresh = BestScores(tmp_path)
    assert fresh.get("2048/4") == 100 and fresh.get("match3") == 70
    assert b.get("2048/4") == 100  # and b now knows the better record


def test_best_scores_game_protocol_writes_at_game_over_and_tells_a_new_best(tmp_path):
    scores = BestScores(tmp_path)
    scores.start_game("m")
    assert not scores.after_move("m", 40, game_over=False)
    assert BestScores(tmp_path).get("m") == 0  # nothing written mid-game
    assert scores.after_move("m", 50, game_over=True)
    assert BestScores(tmp_path).get("m") == 50
    scores.start_game("m")
    assert not scores.after_move("m", 50, game_over=True)  # equal is not a new best
    scores.start_game("m")
    scores.after_move("m", 60, game_over=False)
    scores.start_game("m")  # abandoned mid-game: its record is still written
    assert BestScores(tmp_path).get("m") == 60


def test_best_scores_flush_failure_keeps_the_file_and_the_record(tmp_path, monkeypatch):
    a = BestScores(tmp_path)
    a.offer("x", 5)
    a.flush()

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("arcade.foundation.storage.os.replace", full_disk)
    a.offer("x", 9)
    assert a.flush() is False
    assert BestScores(tmp_path).get("x") == 5  # the file still holds the old record
    monkeypatch.undo()
    assert a.flush() and BestScores(tmp_path).get("x") == 9  # kept in memory, written on the next flush


def test_best_scores_with_wrong_json_type(tmp_path):
    (tmp_path / "best_scores.json").write_text("[1, 2]")
    assert BestScores(tmp_path).get("x") == 0
    assert (tmp_path / "best_scores.json.corrupt").exists()


def test_an_entry_per_game_is_kept_read_and_dropped(tmp_path):
    from arcade.foundation.storage import PerGame

    kept = PerGame(tmp_path, "in_progress.json")
    kept.put("dots", None)
    assert not kept.path.exists()  # nothing to drop: nothing written
    kept.put("dots", {"seed": 3})
    kept.put("2048", [1, 2])
    assert kept.get("dots") == {"seed": 3} and kept.get("2048") == [1, 2] and kept.get("match3") is None
    kept.put("dots", None)
    assert kept.get("dots") is None and kept.get("2048") == [1, 2]
    kept.path.write_text("[1, 2]")  # not a table of games: set aside, nothing kept
    assert kept.get("2048") is None


def test_read_once_decodes_a_file_once_until_it_is_written_again(tmp_path):
    from arcade.foundation.storage import ReadOnce, atomic_write_bytes

    decoded = []

    def decode(path):
        decoded.append(path.name)
        return path.read_bytes()

    files = ReadOnce(keep=1)
    a, b = tmp_path / "a", tmp_path / "b"
    assert files.read(a, decode) is None and decoded == []  # no file: nothing decoded, nothing kept
    atomic_write_bytes(a, b"one")
    first = files.read(a, decode)
    assert first == b"one" and files.read(a, decode) is first and decoded == ["a"]
    atomic_write_bytes(a, b"two")  # the same size, maybe within the same clock tick: a new inode all the same
    assert files.read(a, decode) == b"two" and decoded == ["a", "a"]
    atomic_write_bytes(b, b"bee")
    files.read(b, decode)
    files.read(a, decode)  # only the last `keep` are kept: a was dropped for b
    assert decoded == ["a", "a", "b", "a"] and files.values() == [b"two"]
