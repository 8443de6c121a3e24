"""2048 on uint64 boards: packing, moves, spawns, and the compiled kernels' moves agree with the array engine."""
import numpy as np

from agents.engines.twenty48 import kernels as twenty48_kernels
from agents.expectimax_strong import Search, StrongExpectimax
from agents.engines.twenty48 import board64
from arcade.games.twenty48 import LEFT, Rules2048, from_values, move_all


def random_boards(n, seed, top=14):
    rng = np.random.default_rng(seed)
    boards = rng.integers(1, top, size=(n, 4, 4)).astype(np.uint8)
    boards[rng.random(boards.shape) < 0.4] = 0
    return boards


def test_pack_unpack_and_transpose_round_trip():
    boards = random_boards(500, 1, top=16)
    x = board64.pack(boards)
    assert (board64.unpack(x) == boards).all()
    assert (board64.unpack(board64.transpose(x)) == boards.transpose(0, 2, 1)).all()
    assert board64.pack(boards[3]) == x[3]  # one board packs to one number


def test_moves_equal_the_array_engine():
    boards = random_boards(3000, 2)  # exponents below 14: every merge result fits a nibble
    x = board64.pack(boards)
    moved = board64.move_all(x)
    expected, _, changed = move_all(boards)
    for d in range(4):
        assert (board64.unpack(moved[d]) == expected[:, d]).all()
        assert ((moved[d] != x) == changed[:, d]).all()


def test_compiled_moves_equal_the_numpy_moves_and_their_points():
    k = twenty48_kernels
    moves, gains = board64.move_tables()
    boards = random_boards(2000, 6, top=16)  # BIG nibbles included
    x = board64.pack(boards)
    moved = board64.move_all(x)
    points = board64.all_gains(board64.lines(x))
    for i in range(len(x)):
        t = board64.transpose(x[i])
        for d in range(4):
            board, gained = k.move(x[i], t, d, moves, gains)
            assert board == moved[d, i] and gained == points[d, i]


def test_compiled_spawns_place_the_tile_board64_spawn_places_from_the_same_draws():
    k = twenty48_kernels
    boards = board64.pack(random_boards(300, 7))
    boards = boards[board64.empty_mask(boards) != 0]
    for i, x in enumerate(boards):
        u = np.random.default_rng(i).random(2)  # the cell's uniform, then the tile's
        expected = board64.spawn(np.array([x]), u[:1], u[1:], 0.3)[0]
        assert k.spawn_tile(x, np.random.default_rng(i), 0.3) == expected


def test_a_tile_of_32768_or_more_never_merges():
    board = from_values([[32768, 32768, 2, 2], [0] * 4, [0] * 4, [65536, 0, 0, 0]]).board
    assert not board64.fits(board)  # two tiles >= 32768: the array path's case
    one = from_values([[32768, 0, 2, 2], [0] * 4, [0] * 4, [0] * 4]).board
    assert board64.fits(one)
    left = board64.unpack(board64.move_all(board64.pack(one[None]))[2])[0]
    assert left[0].tolist() == [15, 2, 0, 0]  # 2+2 merged, the big tile stayed
    big = np.array([[15, 15, 0, 0]] + [[0] * 4] * 3, np.uint8)  # two BIG nibbles side by side
    assert board64.unpack(board64.move_all(board64.pack(big[None]))[2])[0, 0].tolist() == [15, 15, 0, 0]


def test_empty_cells_and_spawns():
    boards = random_boards(200, 3)
    x = board64.pack(boards)
    assert (np.bitwise_count(board64.empty_mask(x)) == (boards == 0).sum(axis=(1, 2))).all()
    kids, parent, prob = board64.spawn_children(x, 0.1)
    assert np.allclose(np.bincount(parent, weights=prob), 1.0)  # every board's placements sum to 1
    added = board64.unpack(kids).astype(int) - boards[parent].astype(int)
    assert (np.count_nonzero(added.reshape(len(kids), -1), axis=1) == 1).all()  # exactly one new tile
    assert set(np.unique(added)) == {0, 1, 2}  # a 2 or a 4
    only_twos, _, p2 = board64.spawn_children(x, 0.0)
    assert len(only_twos) == (boards == 0).sum()


def test_depth_follows_distinct_tiles_and_time(settings):
    agent = StrongExpectimax(Rules2048(), settings)
    few = from_values([[2, 4, 0, 0], [0] * 4, [0] * 4, [0] * 4]).board
    many = from_values([[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 0], [0] * 4]).board
    assert agent.depth_for(few) == 3  # never below 3
    assert agent.depth_for(many) == min(settings.agent_params("2048", "expectimax").max_depth, 11 - 2)
    paced = {pace: StrongExpectimax(Rules2048(), settings.with_agent("expectimax", game="2048", pace=pace))
             for pace in ("c++", "c++-1")}
    assert paced["c++"].depth_for(few) == 3 and paced["c++-1"].depth_for(few) == 2
    assert paced["c++"].depth_for(many) == 9 and paced["c++-1"].depth_for(many) == 8  # uncapped: 11 - 2
    quick = StrongExpectimax(Rules2048(), settings.with_agent("expectimax", game="2048", time_budget_ms=1))
    quick.act(from_values([[2, 4, 8, 16], [32, 64, 128, 256], [512, 1024, 2048, 0], [0] * 4]))
    assert quick.figures()["depth"] < quick.figures()["target depth"]  # 1 ms: it stops deepening


def test_a_board_with_two_huge_tiles_is_searched_with_them_kept_apart(settings):
    # the 64-bit board holds every tile of 32768 or more as one nibble that never merges: the two stay
    state = from_values([[65536, 32768, 2, 4], [8, 16, 32, 64], [2, 0, 0, 0], [0] * 4])
    agent = StrongExpectimax(Rules2048(), settings)
    assert agent.act(state) in Rules2048().legal_actions(state)
    assert agent.figures()["depth"] >= 1
    assert set(agent.explain(state)) == set(Rules2048().legal_actions(state)) - {LEFT}  # 65536|32768 cannot merge


def test_the_strong_search_plays_only_4x4_and_says_who_plays_other_sizes():
    for size in (3, 5, 6, 7):
        why = StrongExpectimax.cannot_play(Rules2048(size=size))
        assert f"{size}x{size}" in why and "expectimax-3" in why and "expectiminimax" in why
    assert StrongExpectimax.cannot_play(Rules2048(size=4)) is None
    assert Search(0.1, 1e-4).root(np.zeros((4, 4), np.uint8), 2) == {}  # no legal move: no values
