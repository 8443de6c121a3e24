"""The n-tuple network and its compiled TD(0) training, each checked against a plain one-board-at-a-time
version written here from the definitions (the `ntuple` agent and its files: tests/test_ntuple_agent.py)."""

import numpy as np
import pytest

from agents.engines.twenty48 import kernels as twenty48_kernels
from agents.ntuple import FORMAT_VERSION, decode, encode, file_arrays, read
from agents.ntuple_net import (SYMMETRIES, TUPLE_SETS, Coherence, NTupleNetwork, holds_tile, parse_tuple_set,
                               symmetries)
from agents.ntuple_td import Curve, Report, Restart, Schedule, TDGames, train
from agents.engines.twenty48 import board64
from arcade.games.twenty48 import Rules2048, State2048
from arcade.foundation.storage import save_npz


def random_boards(rng, n, top=12):
    return rng.integers(0, top, (n, 4, 4)).astype(np.uint8)


def plain_features(net, board):
    """The weight indexes by the definition: each tuple's cells read on each of the 8 symmetric boards."""
    images = []
    for base in (board, board.T):
        images += [base, base[:, ::-1], base[::-1, :], base[::-1, ::-1]]
    out = []
    for t, cells in enumerate(net.tuples):
        for image in images:
            out.append(int(net.offsets[t]) + sum(int(image.flat[c]) << (4 * k) for k, c in enumerate(cells)))
    return out


@pytest.mark.parametrize("tuple_set", sorted(TUPLE_SETS))
def test_features_are_the_tuples_read_on_the_eight_symmetries(tuple_set):
    rng = np.random.default_rng(1)
    net = NTupleNetwork(tuple_set)
    boards = random_boards(rng, 40, top=16)
    feats = net.features(board64.pack(boards))
    assert feats.shape == (len(net.tuples) * SYMMETRIES, 40)
    for i, board in enumerate(boards):
        assert feats[:, i].tolist() == plain_features(net, board)
    assert feats.min() >= 0 and feats.max() < net.size


def test_symmetries_are_the_eight_distinct_images_and_values_agree_on_them():
    rng = np.random.default_rng(2)
    board = rng.permutation(16).reshape(4, 4).astype(np.uint8)  # no symmetry of its own
    images = board64.unpack(symmetries(board64.pack(board[None])).ravel())
    expected = {np.rot90(m, k).tobytes() for m in (board, board.T) for k in range(4)}
    assert {m.tobytes() for m in images} == expected and len(expected) == 8
    net = NTupleNetwork("3x4", rng.normal(size=NTupleNetwork.size_of("3x4")).astype(np.float32))
    values = net.value(board64.pack(images))
    assert np.allclose(values, values[0], rtol=1e-6)


def test_value_is_the_sum_of_the_weights_read():
    rng = np.random.default_rng(3)
    net = NTupleNetwork("3x4", rng.normal(size=NTupleNetwork.size_of("3x4")).astype(np.float32))
    boards = random_boards(rng, 20)
    values = net.value(board64.pack(boards))
    for board, v in zip(boards, values, strict=True):
        assert v == pytest.approx(sum(float(net.weights[i]) for i in plain_features(net, board)), rel=1e-9)


def test_a_network_values_no_boards_as_nothing():
    assert NTupleNetwork("3x4").value(np.zeros(0, np.uint64)).shape == (0,)


def _step(net, board, error, rate, coherence=None):
    """One compiled TD step of `board`'s features (agents/engines/twenty48/kernels._learn)."""
    k = twenty48_kernels
    feats = net.features(board64.pack(board[None]))[:, 0].copy()
    none = np.zeros(1, np.float32)
    signed, absolute = (coherence.signed, coherence.absolute) if coherence else (none, none)
    k._learn(feats, error, rate, net.weights, coherence is not None, signed, absolute)


def test_a_symmetric_board_s_repeated_weights_close_what_repeated_steps_would():
    net = NTupleNetwork("4x6")
    board = np.zeros((4, 4), np.uint8)
    board[1:3, 1:3] = 5  # the same under all 8 symmetries: each tuple reads one weight 8 times
    x = board64.pack(board[None])
    feats = net.features(x)[:, 0]
    assert len(set(feats.tolist())) == 4
    _step(net, board, 100.0, 0.25)
    # each of the 4 weights moved by (1 - 0.75**8) / 32 of the error and is read 8 times: 1 - 0.75**8 of it
    assert net.value(x)[0] == pytest.approx(100.0 * (1 - 0.75 ** 8), rel=1e-5)


def test_a_learning_step_moves_each_weight_read_by_the_rate_over_f_of_the_error():
    rng = np.random.default_rng(4)
    net = NTupleNetwork("4x6")
    board = rng.permutation(16).reshape(4, 4).astype(np.uint8)
    x = board64.pack(board[None])
    assert len(set(net.features(x)[:, 0].tolist())) == net.n_features  # every weight read once
    _step(net, board, 100.0, 0.25)
    assert net.value(x)[0] == pytest.approx(25.0, rel=1e-5)  # its value closed a quarter of the error
    _step(net, board, 75.0, 0.25)
    assert net.value(x)[0] == pytest.approx(25.0 + 0.25 * 75.0, rel=1e-5)


def plain_td(rules, net, rate, rng, steps, coherent=False):
    """One game at a time on the rules objects: TD(0) on afterstates with the compiled learner's rule (each
    weight read c times moves by (1 - (1 - rate)**c) / F of the error, in float32 as the network keeps it)
    and the same draws (two uniforms a tile), until `steps` moves are made. Returns the finished games' scores and the moves made.
    `coherent`: each weight's rate times |E| / A, its errors' sum over the sum of their sizes so far."""
    signed, sizes = {}, {}
    f32 = np.float32

    def value(board):
        return sum(float(net.weights[i]) for i in plain_features(net, board))

    def learn(board, error):
        feats = plain_features(net, board)
        for i in dict.fromkeys(feats):  # (each weight once, in the order first read)
            c = feats.count(i)
            r = rate
            if coherent:
                e, a = signed.get(i, f32(0)), sizes.get(i, f32(0))
                r = rate * (float(abs(e) / a) if a > 0 else 1.0)
                signed[i], sizes[i] = f32(float(e) + c * error), f32(float(a) + c * abs(error))
            net.weights[i] = f32(float(net.weights[i]) + (1 - (1 - r) ** c) / len(feats) * error)

    state, prev, scores, moves = rules.new_state(rng), None, [], []
    while len(moves) < steps:
        options = []
        for a in rules.legal_actions(state):
            after = rules.after_move(state, a)
            options.append((after.score - state.score + value(after.board), a, after))
        if options:
            best, a, after = max(options, key=lambda o: o[0])  # the first of equal values, as argmax
            target = best
        else:
            target = 0.0
        if prev is not None:
            learn(prev, target - value(prev))
        if not options:
            scores.append(state.score)
            state, prev = rules.new_state(rng), None
            continue
        moves.append(a)
        prev = after.board
        state = State2048(rules.spawn(after.board, rng), after.score)
    return scores, moves


def test_the_compiled_td_is_the_plain_one_game_td():
    rules = Rules2048(spawn_four_probability=0.1)
    plain_net, compiled_net = NTupleNetwork("3x4"), NTupleNetwork("3x4")
    scores, moves = plain_td(rules, plain_net, 0.3, np.random.default_rng(7), 400)
    td = TDGames(compiled_net, 0.1, 0.3, np.random.default_rng(7))
    got, _, lengths, fresh = td.step(400)
    assert fresh.all()  # no restarts asked for
    assert got.tolist() == scores and len(scores) >= 1
    assert td.moves == len(moves) == lengths.sum() + td.length
    assert np.allclose(compiled_net.weights, plain_net.weights, rtol=1e-5, atol=1e-4)
    assert plain_net.nonzero() > 100


def test_steps_of_any_length_play_the_same_games():
    whole, parts = NTupleNetwork("3x4"), NTupleNetwork("3x4")
    one = TDGames(whole, 0.1, 0.3, np.random.default_rng(8))
    scores = one.step(900)[0].tolist()
    td, many = TDGames(parts, 0.1, 0.3, np.random.default_rng(8)), []
    for n in (1, 7, 300, 92, 500):
        many += td.step(n)[0].tolist()
    assert td.moves == one.moves == 900 and many == scores and td.board == one.board
    assert np.array_equal(whole.weights, parts.weights)


def test_the_compiled_coherent_td_is_the_plain_coherent_td():
    rules = Rules2048(spawn_four_probability=0.1)
    plain_net, compiled_net = NTupleNetwork("3x4"), NTupleNetwork("3x4")
    scores, moves = plain_td(rules, plain_net, 0.9, np.random.default_rng(17), 400, coherent=True)
    coherence = Coherence(compiled_net.size)
    td = TDGames(compiled_net, 0.1, 0.9, np.random.default_rng(17), coherence=coherence)
    assert td.step(400)[0].tolist() == scores and len(scores) >= 1 and td.moves == len(moves)
    assert np.allclose(compiled_net.weights, plain_net.weights, rtol=1e-4, atol=1e-3)
    # it differs from fixed rates: some weights met errors that disagreed and slowed down
    assert (np.abs(coherence.signed) < coherence.absolute * 0.99).sum() > 50
    fixed_net = NTupleNetwork("3x4")
    plain_td(rules, fixed_net, 0.9, np.random.default_rng(17), 400)
    assert not np.allclose(fixed_net.weights, plain_net.weights, rtol=1e-2, atol=1e-1)


def test_coherence_is_1_while_errors_agree_and_falls_as_they_cancel():
    rng = np.random.default_rng(5)
    net = NTupleNetwork("4x6")
    coherence = Coherence(net.size)
    board = rng.permutation(16).reshape(4, 4).astype(np.uint8)
    x = board64.pack(board[None])
    expected = 0.0
    # (error, the coherence |E| / A before it): none met yet, then +5 agrees with itself, then -2 cancels
    # some of it, then +1 meets |5 - 2| / (5 + 2), then +0.5 meets |4| / 8
    for error, c in ((5.0, 1.0), (-2.0, 1.0), (1.0, 3 / 7), (0.5, 4 / 8)):
        _step(net, board, error, 1.0, coherence)
        expected += c * error
        assert net.value(x)[0] == pytest.approx(expected, rel=1e-5)
    read = net.features(x)[:, 0]
    assert coherence.signed[read] == pytest.approx(np.full(read.size, 4.5))
    assert coherence.absolute[read] == pytest.approx(np.full(read.size, 8.5))
    assert np.count_nonzero(coherence.absolute) == read.size  # weights not read are left alone


def test_greedy_is_the_plain_argmax_of_reward_plus_value():
    k = twenty48_kernels
    moves, gains = board64.move_tables()
    rng = np.random.default_rng(8)
    net = NTupleNetwork("3x4", rng.normal(0, 50, NTupleNetwork.size_of("3x4")).astype(np.float32))
    weights, runs, stage, late = net.kernel_spec()
    feats, after, points = np.empty((4, net.n_features), np.int64), np.empty(4, np.uint64), np.empty(4, np.int64)
    rules = Rules2048()
    for board in random_boards(rng, 60, top=8):
        state = State2048(board, 0)
        legal = rules.legal_actions(state)
        value, best = k._greedy(board64.pack(board), moves, gains, weights, runs, stage, late, feats, after, points)
        assert (best >= 0) == bool(legal)
        if legal:
            vals = {a: s.score + net.value(board64.pack(s.board[None]))[0]
                    for a, s in ((a, rules.after_move(state, a)) for a in legal)}
            assert best == max(vals, key=vals.get) and value == pytest.approx(vals[best])


def test_training_learns_to_score_more_than_playing_for_the_next_merge():
    """A small network from nothing: its last games score far above its first (greedy on rewards)."""
    net = NTupleNetwork("3x4")
    points = []
    train(net, 3000, 0.1, 0.4, np.random.default_rng(9), report=Report(point=lambda d, p, m: points.append(p)))
    first, last = points[0]["mean score"], np.mean([p["mean score"] for p in points[-5:]])
    assert last > 2 * first, (first, last)


def test_two_threads_share_one_network_and_both_learn():
    net = NTupleNetwork("3x4")
    done = []
    figures = train(net, 600, 0.1, 0.4, np.random.default_rng(10), jobs=2,
                    report=Report(progress=done.append))
    assert figures["games"] == 600 and done[-1] == 600
    assert net.nonzero() > 1000 and np.isfinite(net.weights).all()


def test_two_threads_share_one_network_and_its_coherence():
    net = NTupleNetwork("3x4")
    coherence = Coherence(net.size)
    coherence.signed[7], coherence.absolute[7] = 3.0, 5.0  # sums from before carry on
    figures = train(net, 600, 0.1, 0.9, np.random.default_rng(10), jobs=2, coherence=coherence)
    assert figures["games"] == 600
    assert net.nonzero() > 1000 and np.isfinite(net.weights).all()
    # every weight learnt has met errors, and their sizes add up to at least the size of their sum (but for
    # the rare update two processes make at once, one of which is lost: Hogwild)
    learnt = net.weights != 0
    assert (coherence.absolute[learnt] > 0).all()
    assert (np.abs(coherence.signed) <= coherence.absolute * 1.001).mean() > 0.999
    if net.weights[7] == 0:
        assert (coherence.signed[7], coherence.absolute[7]) == (3.0, 5.0)


def test_a_schedule_changes_the_rate_once_its_games_have_ended_and_the_games_in_play_go_on(monkeypatch):
    steps = []
    step = TDGames.step

    def spy(td, moves=500):  # short steps: the rate is read between them
        steps.append((td.rate, td.length))
        return step(td, moves)

    monkeypatch.setattr(TDGames, "step", spy)
    ended = []
    train(NTupleNetwork("3x4"), 120, 0.1, Schedule(0.5, 70, 0.125), np.random.default_rng(3),
          report=Report(progress=ended.append), done_before=10)
    rates = [r for r, _ in steps]
    switch = rates.index(0.125)
    assert set(rates[:switch]) == {0.5} and set(rates[switch:]) == {0.125}
    assert steps[switch][1] > 0  # the game in play went on (a restart would have emptied its board)
    assert ended[-1] == 130  # counted on from the games done before


def test_shared_workers_read_the_schedule_s_rate():
    """At rate 0 nothing is learnt: a schedule at 0 from its start leaves the network empty on two
    processes, one at 0 only from a game past the run's end learns."""
    still = NTupleNetwork("3x4")
    train(still, 200, 0.1, Schedule(0.5, 0, 0.0), np.random.default_rng(5), jobs=2)
    assert still.nonzero() == 0
    learnt = NTupleNetwork("3x4")
    train(learnt, 200, 0.1, Schedule(0.5, 10_000, 0.0), np.random.default_rng(5), jobs=2)
    assert learnt.nonzero() > 1000


def test_restarts_start_games_from_boards_where_fresh_games_first_made_the_tile():
    """Each pooled board is a fresh game's board at the move its 64 first appeared; restarted games start
    from pooled boards and end marked as not fresh; about `share` of the games start so."""
    net = NTupleNetwork("3x4")
    td = TDGames(net, 0.1, 0.1, np.random.default_rng(12), Restart(tile=64, share=0.5))
    ended = {True: 0, False: 0}
    starts = {True: 0, False: 0}  # games started from an empty board, from a pooled one (once the pool has some)
    for _ in range(30_000):
        board, fresh, pooled = td.board, td.fresh, td.pooled
        before_max = int(board64.max_exponent(np.array([board], np.uint64))[0])
        over = td.step(1)[3]  # (a game that ends here is followed by the next one's first move)
        for f in over:
            ended[bool(f)] += 1
        if td.pooled > pooled:  # this move made the first 64 of a fresh game: the board after it is kept
            kept = td.pool[pooled % td.pool.size]
            assert fresh and before_max < 6 and kept == td.board
            assert board64.max_exponent(np.array([kept]))[0] == 6
        if over.size and pooled:  # a new game has started (and made its first move)
            starts[td.fresh] += 1
            if not td.fresh:  # from a pooled board: it holds the 64 already
                assert td.length == 1 and board64.max_exponent(np.array([td.board]))[0] >= 6
    assert td.pooled > 20 and ended[False] > 5 and ended[True] > 5
    assert 0.3 < starts[False] / (starts[False] + starts[True]) < 0.7, starts


def test_at_rate_0_it_only_plays_and_a_share_of_0_only_keeps_the_boards():
    net = NTupleNetwork("3x4", np.random.default_rng(18).normal(0, 30, NTupleNetwork.size_of("3x4")).astype(np.float32))
    before = net.weights.copy()
    td = TDGames(net, 0.1, 0.0, np.random.default_rng(19), Restart(tile=64, share=0.0))
    for _ in range(20):
        assert td.step()[3].all()  # every game from the start
    assert td.pooled > 10 and np.array_equal(net.weights, before)


def test_a_restarting_training_counts_only_games_from_the_start():
    net = NTupleNetwork("3x4")
    points, done = [], []
    figures = train(net, 200, 0.1, 0.4, np.random.default_rng(13), restart=Restart(tile=64, share=0.9),
                    report=Report(progress=done.append, point=lambda d, p, m: points.append((d, m))))
    plain = train(NTupleNetwork("3x4"), 200, 0.1, 0.4, np.random.default_rng(13))
    assert figures["games"] == 200 and done[-1] == 200
    assert figures["moves"] > 2 * plain["moves"]  # most games restart, and their moves are counted
    assert len(points) == 4 and points[-1][0] == 200  # a point a block of 50 games from the start


@pytest.mark.parametrize("tile", [8192, 16384, 32768])
def test_holds_tile_is_the_largest_exponent_read_cell_by_cell(tile):
    rng = np.random.default_rng(14)
    tops = rng.integers(11, 17, (4000, 1, 1))  # each board's tiles below its own top, so each tile is borderline
    boards = board64.pack(rng.integers(0, tops, (4000, 4, 4)).astype(np.uint8))
    expected = board64.max_exponent(boards) >= tile.bit_length() - 1
    assert (holds_tile(boards, tile) == expected).all() and 0.05 < expected.mean() < 0.95


def test_tuple_set_names_say_their_late_stage_and_refuse_others():
    assert parse_tuple_set("4x6") == ("4x6", 0) and parse_tuple_set("4x6/16384") == ("4x6", 16384)
    assert NTupleNetwork.size_of("4x6/16384") == 2 * NTupleNetwork.size_of("4x6")
    for bad in ("4x6/1000", "4x6/", "5x5", "4x6/16384/2"):
        with pytest.raises(ValueError, match="unknown tuple set"):
            NTupleNetwork(bad)


def test_late_tables_value_late_boards_and_read_only_them():
    rng = np.random.default_rng(15)
    net = NTupleNetwork("3x4", rng.normal(0, 30, NTupleNetwork.size_of("3x4")).astype(np.float32))
    staged = net.staged(8192)
    boards = board64.pack(random_boards(rng, 500, top=15))
    late = board64.max_exponent(boards) >= 13
    assert 0.1 < late.mean() < 0.9
    assert np.allclose(staged.value(boards), net.value(boards))  # late tables copied: the same values
    staged.weights[staged.stage_size:] = rng.normal(0, 30, staged.stage_size)
    feats = net.features(boards)
    plain = np.where(late, staged.weights.take(feats + net.size).sum(axis=0, dtype=np.float64),
                     net.weights.take(feats).sum(axis=0, dtype=np.float64))
    assert np.allclose(staged.value(boards), plain)
    staged_feats = staged.features(boards)
    assert (staged_feats[:, late] >= staged.stage_size).all() and (staged_feats[:, ~late] < staged.stage_size).all()
    assert (staged_feats[:, ~late] == feats[:, ~late]).all()


def test_a_staged_file_keeps_the_late_tables_as_differences_and_reads_back_the_values(tmp_path):
    rng = np.random.default_rng(17)
    net = NTupleNetwork("3x4", np.zeros(NTupleNetwork.size_of("3x4"), dtype=np.float32))
    taught = rng.choice(net.size, 5000, replace=False)
    net.weights[taught] = rng.normal(0, 30, taught.size)
    staged = net.staged(16384)
    assert np.count_nonzero(staged.stored()) == 5000  # nothing learnt late: a file as small as the first's
    staged.weights[staged.stage_size + taught[:100]] += 7.0
    assert np.count_nonzero(staged.stored()) == 5100
    path = tmp_path / "staged.npz"
    assert save_npz(path, FORMAT_VERSION, **file_arrays(staged, {"games": 1, "moves": 2}, 0.1))
    loaded = read(path, "x")
    assert loaded.net.tuple_set == "3x4/16384" and loaded.meta["tuples"] == "3x4/16384"
    assert np.allclose(loaded.net.weights, staged.weights, rtol=2e-3, atol=0.05)


def test_a_staged_training_leaves_the_first_tables_to_boards_before_the_late_tile():
    """Games started from boards that already hold the late tile teach the late tables only."""
    net = NTupleNetwork("3x4").staged(8192)
    td = TDGames(net, 0.1, 0.1, np.random.default_rng(16))
    start = np.zeros((4, 4), dtype=np.uint8)
    start[0, 0], start[3, 3] = 13, 1
    for _ in range(16):  # one game after another from a board holding 8192
        td.game[:] = 0
        td.game[twenty48_kernels.G_BOARD] = board64.pack(start)
        td.step(30)
    assert np.count_nonzero(net.weights[:net.stage_size]) == 0
    assert np.count_nonzero(net.weights[net.stage_size:]) > 100


def test_curve_blocks_average_their_games():
    curve = Curve(block=3)
    assert curve.add([100, 200], [11, 10]) == []
    points = curve.add([300, 400], [11, 9])
    assert points == [{"mean score": 200.0, "share reaching 2048": pytest.approx(2 / 3)}]


def test_sparse_file_round_trip_keeps_the_moves(tmp_path):
    rng = np.random.default_rng(11)
    net = NTupleNetwork("3x4")
    train(net, 300, 0.1, 0.4, rng)
    weights = decode(encode(net), net.size)
    assert np.count_nonzero(weights) == net.nonzero()
    big = np.abs(net.weights) > 1
    assert np.allclose(weights[big], net.weights[big], rtol=2e-3)
    restored = NTupleNetwork("3x4", weights)
    x = board64.pack(random_boards(rng, 300, top=10))
    codes = board64.lines(x)
    moved, points = board64.move_all(x, codes), board64.all_gains(codes)

    def choices(network):
        values = np.where(moved != x, points + network.value(moved.ravel()).reshape(moved.shape), -np.inf)
        return values.argmax(axis=0)

    assert (choices(net) == choices(restored)).mean() > 0.97
