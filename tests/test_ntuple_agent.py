"""The 2048 `ntuple` agent: what it explains, the network files it reads, keeps and shares (set aside when
damaged, never replaced by one of fewer games), its settings and the shipped network. The network and its
TD(0) training are tests/test_ntuple.py's."""
import dataclasses
from pathlib import Path

import numpy as np
import pytest

from agents.ntuple import NTupleAgent, NTupleParams, read
from agents.ntuple_net import TUPLE_SETS, Coherence, NTupleNetwork, parse_tuple_set
from agents.ntuple_td import Schedule, TDGames
from agents.engines.twenty48 import board64
from arcade.games.twenty48 import Rules2048


@pytest.fixture
def no_shipped(tmp_path, monkeypatch):
    """No shipped network: the data folder's small networks are the ones that play (a shipped one of more
    games would, see test_a_short_training_never_replaces_a_network_of_more_games_and_never_hides_it)."""
    import agents.ntuple as ntuple

    empty = tmp_path / "no_assets"
    empty.mkdir()
    monkeypatch.setattr(ntuple, "ASSETS", empty)


def small(settings, **changes):
    params = dict(tuples="3x4", games=400)
    params.update(changes)
    return settings.with_table("game2048", spawn_four_probability=0.1).with_agent("ntuple", game="2048", **params)


def test_agent_explains_reward_plus_value_and_says_what_it_learnt_for(settings, no_shipped):
    settings = small(settings)
    rules = Rules2048(spawn_four_probability=0.1)
    agent = NTupleAgent(rules, settings)
    agent.train(400, np.random.default_rng(1))
    assert agent.save()
    again = NTupleAgent(rules, settings)
    assert "trained" in again.source and again.meta["games"] == 400
    lines = " ".join(again.describe())
    assert "400 games" in lines and "standard rules" in lines
    state = rules.new_state(np.random.default_rng(2))
    for _ in range(30):
        state = rules.step(state, again.act(state), np.random.default_rng(3))
    values = again.explain(state)
    for a, v in values.items():
        after = rules.after_move(state, a)
        assert v == pytest.approx(after.score - state.score + again.net.value(board64.pack(after.board[None]))[0])
    course = NTupleAgent(Rules2048(spawn_four_probability=0.0), settings)  # no network of its own: the other's
    assert "this game: the course's rules" in " ".join(course.describe())
    assert NTupleAgent.cannot_play(Rules2048(size=3))


def test_training_a_staged_set_over_its_base_network_keeps_what_it_knew(settings, no_shipped):
    """[2048.ntuple] tuples "3x4/16384" over a saved "3x4" network: late tables copied from it (a file holds
    their differences from the first tables: nonzero only where either learnt since), the record carried on,
    `i` says so."""
    rules = Rules2048(spawn_four_probability=0.1)
    agent = NTupleAgent(rules, small(settings))
    agent.train(200, np.random.default_rng(4))
    assert agent.save()
    staged = NTupleAgent(rules, small(settings, tuples="3x4/16384"))
    assert staged.net.tuple_set == "3x4" and staged.meta["games"] == 200
    known = np.array(staged.net.weights)
    staged.train(50, np.random.default_rng(5))
    assert staged.net.tuple_set == "3x4/16384" and staged.meta["games"] == 250
    first, late = np.split(staged.net.stored(), 2)
    assert (late == known - first).all()  # no game of a 3x4 network reaches 16384: the late tables as copied
    assert 0 < np.count_nonzero(late) == np.count_nonzero(first != known)
    assert "late tables: a board with a 16384 or more reads its own copy" in " ".join(staged.describe())


def test_the_rates_setting_trains_with_temporal_coherence_and_a_run_ends_at_a_quarter_rate(settings, monkeypatch):
    import agents.ntuple as ntuple_module

    asked = []
    monkeypatch.setattr(ntuple_module, "td_train", lambda *a, **kw: asked.append((a[3], kw["coherence"])) or
                        {"games": a[1], "moves": 0, "seconds": 0.0})
    rules = Rules2048(spawn_four_probability=0.1)
    NTupleAgent(rules, small(settings, rates="coherent")).train(90, np.random.default_rng(4))
    NTupleAgent(rules, small(settings)).train(90, np.random.default_rng(4))
    # one call a run: its last third at a quarter of the rate, the games in play going on
    assert [schedule for schedule, _ in asked] == [Schedule(0.4, 60, 0.1)] * 2
    assert isinstance(asked[0][1], Coherence) and asked[1][1] is None


def test_a_network_file_is_read_once_and_shared_read_only(settings, tmp_path):
    settings = small(settings)
    agent = NTupleAgent(Rules2048(spawn_four_probability=0.1), settings)
    agent.train(100, np.random.default_rng(1))
    path = tmp_path / "n.npz"
    assert agent.save(path)
    first, second = read(path, "x"), read(path, "x")
    assert first is second and not first.net.weights.flags.writeable
    other = NTupleAgent(Rules2048(spawn_four_probability=0.1), settings)
    assert other.load(path)
    other.train(50, np.random.default_rng(2))  # trains on a copy: the shared network is unchanged
    assert np.array_equal(read(path, "x").net.weights, first.net.weights)


def test_reading_a_network_file_reports_its_progress_and_a_cached_one_does_not(settings, tmp_path):
    from agents.engines.progress import set_progress_sink

    settings = small(settings)
    agent = NTupleAgent(Rules2048(spawn_four_probability=0.1), settings)
    agent.net = NTupleNetwork("3x4")  # a small file (the shipped network's would take seconds to write)
    path = tmp_path / "n.npz"
    assert agent.save(path)
    seen = []
    set_progress_sink(lambda task, done, total, detail: seen.append((task, done, total)))
    try:
        read(path, "x")
        reads = list(seen)
        read(path, "x")  # the same file again: from the process's copy, nothing to wait for
    finally:
        set_progress_sink(None)
    assert [(done, total) for _, done, total in reads] == [(0, 2), (1, 2), (2, 2)]
    assert all("n-tuple network" in task for task, _, _ in reads) and seen == reads
    garbage = tmp_path / "g.npz"
    garbage.write_bytes(b"not a network")
    seen.clear()
    set_progress_sink(lambda task, done, total, detail: seen.append((task, done, total)))
    try:
        assert read(garbage, "x") is None
    finally:
        set_progress_sink(None)
    assert seen[-1][1:] == (2, 2)  # a file set aside ends the task too: no bar left on the screen


def test_a_garbage_network_file_is_set_aside_and_an_empty_network_plays(settings, no_shipped):
    settings = small(settings)
    path = settings.data_dir / "ntuple_2048_p0.1.npz"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a network")
    agent = NTupleAgent(Rules2048(spawn_four_probability=0.1), settings)
    assert not agent.source.startswith("trained")  # the next network plays: the shipped one, else none
    assert path.with_name(path.name + ".corrupt").exists()


def test_the_shipped_network_is_for_the_standard_rules_and_plays(settings):
    from agents.ntuple import ASSETS

    shipped = read(ASSETS / "ntuple_2048_p0.1.npz", "x")
    assert shipped is not None and shipped.meta["tuples"] == "4x6" and shipped.meta["p_four"] == pytest.approx(0.1)
    assert shipped.meta["games"] >= 100_000 and shipped.net.nonzero() > 1_000_000
    rules = Rules2048(spawn_four_probability=0.1)
    agent = NTupleAgent(rules, settings.with_table("game2048", spawn_four_probability=0.1))
    assert agent.source.startswith("shipped") and agent.net is shipped.net
    rng = np.random.default_rng(0)
    state = rules.new_state(rng)
    for _ in range(200):  # it plays a sensible opening: no early loss, a few hundred points
        state = rules.step(state, agent.act(state), rng)
    assert not rules.is_terminal(state) and state.score > 1000


def test_settings_name_the_tuple_sets_the_network_knows():
    field = next(f for f in dataclasses.fields(NTupleParams) if f.name == "tuples")
    assert {parse_tuple_set(c)[0] for c in field.metadata["choices"]} == set(TUPLE_SETS)
    for choice in field.metadata["choices"]:
        assert NTupleNetwork.size_of(choice) > 0


def test_the_readme_s_training_settings_files_read_without_a_warning():
    from pathlib import Path

    from arcade.settings import load_settings

    files = sorted((Path(__file__).resolve().parent.parent / "docs" / "training").glob("*.toml"))
    assert len(files) >= 4
    read = {f.stem: load_settings(f, strict=True) for f in files}  # strict: a bad value raises
    assert not [w for s in read.values() for w in s.warnings]  # nor an unknown or moved key
    read = {stem: s.agent_params("2048", "ntuple") for stem, s in read.items()}
    late = read["late_game_coherent"]
    assert late.rates == "coherent" and late.restart_tile == 16384
    assert read["coherent"].learning_rate == 0.99 and read["late_game"].rates == "fixed"


def test_copies_for_each_game_share_the_network_read_from_a_file(settings, tmp_path):
    import copy
    import pickle

    settings = small(settings)
    agent = NTupleAgent(Rules2048(spawn_four_probability=0.1), settings)
    agent.train(100, np.random.default_rng(1))
    untrained_blob = pickle.dumps(agent)  # a network only in memory travels whole
    assert pickle.loads(untrained_blob).net.nonzero() == agent.net.nonzero()
    path = tmp_path / "n.npz"
    agent.save(path)
    assert agent.load(path)
    blob = pickle.dumps(agent)
    assert len(blob) < 10_000  # the file's name, not its weights
    for clone in (pickle.loads(blob), copy.deepcopy(agent)):
        assert clone.net is agent.net
        state = Rules2048(spawn_four_probability=0.1).new_state(np.random.default_rng(4))
        assert clone.explain(state) == agent.explain(state)


def test_a_network_read_from_a_file_plays_but_does_not_learn():
    net = NTupleNetwork("3x4", np.random.default_rng(20).normal(0, 30, NTupleNetwork.size_of("3x4")).astype(np.float32))
    net.weights.flags.writeable = False  # (as read from a file)
    scores = TDGames(net, 0.1, 0.0, np.random.default_rng(21)).step(3000)[0]
    again = TDGames(NTupleNetwork("3x4", np.array(net.weights)), 0.1, 0.0, np.random.default_rng(21)).step(3000)[0]
    assert scores.size and np.array_equal(scores, again)
    with pytest.raises(ValueError, match="read-only"):
        TDGames(net, 0.1, 0.1, np.random.default_rng(21)).step(10)


def _damaged_inside(path: Path) -> Path:
    """`path` with bytes flipped inside the deflated data of its largest member, where zlib itself fails (not
    only the CRC check): the zip's directory and headers stay whole."""
    import io
    import zipfile
    import zlib

    raw = path.read_bytes()
    info = max(zipfile.ZipFile(io.BytesIO(raw)).infolist(), key=lambda i: i.compress_size)
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    for offset in range(start + 200, start + info.compress_size - 16, 37):
        damaged = bytearray(raw)
        damaged[offset:offset + 16] = bytes(b ^ 0xFF for b in damaged[offset:offset + 16])
        try:
            with np.load(io.BytesIO(bytes(damaged))) as data:
                data[info.filename[:-4]]
        except zlib.error:
            path.write_bytes(bytes(damaged))
            return path
        except Exception:  # noqa: BLE001  (a CRC error: try elsewhere)
            continue
    raise AssertionError("no offset made zlib fail")


def test_a_network_damaged_inside_its_compressed_data_is_set_aside_and_the_next_one_plays(settings, capsys):
    settings = small(settings)
    rules = Rules2048(spawn_four_probability=0.1)
    agent = NTupleAgent(rules, settings)
    agent.net = NTupleNetwork("3x4", np.random.default_rng(3).normal(0, 50, NTupleNetwork.size_of("3x4"))
                              .astype(np.float32))
    path = settings.data_dir / "ntuple_2048_p0.1.npz"
    assert agent.save(path)
    _damaged_inside(path)
    again = NTupleAgent(rules, settings)
    assert again.source.startswith("shipped")  # not switched off: the shipped network takes over
    assert path.with_name(path.name + ".corrupt").exists() and not path.exists()
    assert "error" in capsys.readouterr().err  # said, in one line, with zlib's complaint


@pytest.mark.parametrize("content", [b"PK\x03\x04\x14\x00 truncated", bytes(range(256)) * 8, b""],
                         ids=["truncated", "random", "empty"])
def test_a_network_file_that_is_not_an_npz_at_all_is_set_aside_and_said(settings, capsys, content):
    """Not only damage inside the compressed data: a file cut short, random bytes or nothing at all."""
    rules = Rules2048(spawn_four_probability=0.1)
    path = settings.data_dir / "ntuple_2048_p0.1.npz"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    agent = NTupleAgent(rules, small(settings))
    assert agent.source.startswith("shipped")
    aside = path.with_name(path.name + ".corrupt")
    assert not path.exists() and aside.read_bytes() == content  # kept, out of the way
    said = [line for line in capsys.readouterr().err.splitlines() if "ntuple_2048_p0.1.npz" in line]
    assert len(said) == 1 and "not a readable network file" in said[0]  # one line (beside any progress bar)


def test_the_cli_plays_on_past_a_damaged_network(tmp_path, capsys):
    from arcade.cli import main

    out = tmp_path / "net.npz"
    settings_file = tmp_path / "settings.toml"
    settings_file.write_text(f'[data]\nfolder = "{tmp_path / "data"}"\n[2048.ntuple]\ntuples = "3x4"\n')
    assert main(["--settings", str(settings_file), "train", "2048", "--agent", "ntuple", "--games", "50",
                 "--jobs", "1", "--out", str(out)]) == 0
    _damaged_inside(out)
    capsys.readouterr()
    assert main(["--settings", str(settings_file), "train", "2048", "--agent", "ntuple", "--games", "50",
                 "--jobs", "1", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and "net.npz: not a readable table (error" in err
    assert out.exists() and (tmp_path / "net.npz.corrupt").exists()


def test_a_short_training_never_replaces_a_network_of_more_games_and_never_hides_it(settings, tmp_path,
                                                                                    monkeypatch):
    """Issue 42 #10: Shift+t (from scratch) on 2048 saved a few-thousand-game network over the data folder's
    file, which then played instead of the shipped 1.26M-game one. Now a network of fewer games than the one
    there (or the shipped one) is saved beside it, named by its games, and the one of more games plays."""
    import agents.ntuple as ntuple

    shipped = tmp_path / "assets"
    shipped.mkdir()
    monkeypatch.setattr(ntuple, "ASSETS", shipped)
    settings = small(settings)
    rules = Rules2048(spawn_four_probability=0.1)
    big = NTupleAgent(rules, settings)
    big.net, big.meta = NTupleNetwork("3x4"), {"games": 50_000, "moves": 9}
    assert big.save(shipped / ntuple.filename(0.1))  # "the shipped network": 50,000 games
    agent = NTupleAgent(rules, settings)
    assert agent.source.startswith("shipped") and agent.meta["games"] == 50_000
    agent.train(40, np.random.default_rng(0), from_scratch=True)
    assert agent.meta["games"] == 40
    own = agent.default_path()
    assert own.name == "ntuple_2048_p0.1_40games.npz" and own.parent == settings.data_dir
    assert NTupleAgent.replaced_by_training(rules, settings) == "the shipped network (trained 50,000 games)"
    assert agent.save() and own.exists() and not (settings.data_dir / ntuple.filename(0.1)).exists()
    # issue 61 #13: what the student trained plays (the screen said so before), until b plays the shipped one
    trained = NTupleAgent(rules, settings)
    assert trained.meta["games"] == 40 and own.name in trained.source
    assert NTupleAgent.replaced_by_training(rules, settings) is None
    assert "shipped network plays again" in NTupleAgent.back_to_shipped(rules, settings)
    assert NTupleAgent.back_to_shipped(rules, settings) is None and own.exists()
    assert NTupleAgent(rules, settings).meta["games"] == 50_000
    # a weak network already in the data folder (the old behaviour's damage) does not hide the shipped one
    weak = NTupleAgent(rules, settings)
    weak.net, weak.meta = NTupleNetwork("3x4"), {"games": 40, "moves": 9}
    assert weak.save(settings.data_dir / ntuple.filename(0.1))
    again = NTupleAgent(rules, settings)
    assert again.source.startswith("shipped") and again.meta["games"] == 50_000
    # and a network trained on from the better one (more games) goes where it plays
    again.meta["games"] = 50_040
    assert again.default_path() == settings.data_dir / ntuple.filename(0.1)
