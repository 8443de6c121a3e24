"""2048 rules: boards of size 3-7, slides and merges, spawns, score, undo history.

Boards are numpy arrays of exponents (0 empty, k for the tile 2**k), so a
board is small and merges are +1. `move_batch` moves a whole stack of boards
(N x s x s) in one direction at once, with the score gained per board; the
search agents use it on whole frontiers. For sizes up to 4 it looks rows up in
a precomputed table of every row; larger boards slide with array operations.
"""
from __future__ import annotations

import functools
import dataclasses
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from arcade.games.base import no_options, read_only, state_fields
from arcade.foundation.setting_fields import ranged
from arcade.games.declare import GameInfo, GameType, declare


@dataclass(frozen=True)
class Game2048Settings:
    size: int = ranged(3, 7, 4)
    spawn_four_probability: float = ranged(0.0, 1.0, 0.0, course=0.0)  # the course's computer places 2-tiles only
    animation_ms: int = ranged(0, 1000, 100)  # the screen's: how long a slide takes


DIRECTIONS = ("up", "down", "left", "right")  # also the tie-break order of the agents
UP, DOWN, LEFT, RIGHT = range(4)
MIN_SIZE, MAX_SIZE = 3, 7
_TABLE_MAX_SIZE = 4  # 16**4 rows build in ms; a 5x5 table (1M rows) would stall the first move
_NIBBLE = 15  # table rows hold exponents below this (tiles up to 16384)


# --- sliding -------------------------------------------------------------------
def _compress_left(rows: np.ndarray) -> np.ndarray:
    order = np.argsort(rows == 0, axis=1, kind="stable")
    return np.take_along_axis(rows, order, axis=1)


def slide_rows_left(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Slide rows (M x s exponents) to the left with array operations; returns (rows, gains)."""
    rows = _compress_left(rows)
    gains = np.zeros(len(rows), dtype=np.int64)
    for j in range(rows.shape[1] - 1):
        a, b = rows[:, j], rows[:, j + 1]
        merge = (a != 0) & (a == b)  # left to right, and the right one empties: no double merge
        if merge.any():
            rows[merge, j] += 1
            rows[merge, j + 1] = 0
            gains[merge] += np.left_shift(1, rows[merge, j].astype(np.int64))
    return _compress_left(rows), gains


class LineTables(NamedTuple):
    """Every line of `size` cells (exponents below 16) by its base-16 code (cell k is digit k)."""

    weights: np.ndarray  # size: 16**k, so that code = cells @ weights
    rows: np.ndarray  # codes x size (uint8): the cells of each code
    new: np.ndarray  # codes x 2 (int64): the code slid toward index 0, and toward the end
    gain: np.ndarray  # codes x 2 (int32): the score those slides gain
    moved: np.ndarray  # codes x 2 (bool): whether each slide changes the line


@functools.lru_cache(maxsize=None)
def line_tables(size: int) -> LineTables:
    """Every possible line slid toward index 0 and toward the end (16**size codes)."""
    weights = (16 ** np.arange(size)).astype(np.int64)
    codes = np.arange(16**size, dtype=np.int64)
    rows = ((codes[:, None] // weights) % 16).astype(np.uint8)
    left, gain_left = slide_rows_left(rows.copy())
    right, gain_right = slide_rows_left(rows[:, ::-1].copy())
    new = np.stack([left.astype(np.int64) @ weights, right[:, ::-1].astype(np.int64) @ weights], axis=1)
    return LineTables(weights, rows, new,
                      np.stack([gain_left, gain_right], axis=1).astype(np.int32),  # small enough to stay in L2
                      new != codes[:, None])


def line_tables_apply(boards: np.ndarray) -> bool:
    """Whether the per-line lookup tables cover these boards (small sizes, tiles below 2**15)."""
    return boards.shape[-1] <= _TABLE_MAX_SIZE and (boards.size == 0 or boards.max() < _NIBBLE - 1)


def line_codes(boards: np.ndarray) -> np.ndarray:
    """Codes of every column then every row of each board: N x 2 x s (base-16 exponents)."""
    lines = np.concatenate([boards.transpose(0, 2, 1), boards], axis=1).astype(np.int64)
    return (lines @ line_tables(boards.shape[-1]).weights).reshape(len(boards), 2, -1)


def _oriented(boards: np.ndarray, direction: int) -> np.ndarray:
    """A view in which the move is to the left."""
    if direction == LEFT:
        return boards
    if direction == RIGHT:
        return boards[:, :, ::-1]
    if direction == UP:
        return boards.transpose(0, 2, 1)
    return boards.transpose(0, 2, 1)[:, :, ::-1]


def move_batch(boards: np.ndarray, direction: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Move every board of a stack (N x s x s) one way. Returns (boards, gains, changed)."""
    boards = np.asarray(boards, dtype=np.uint8)
    if line_tables_apply(boards):
        moved, gains, changed = move_all(boards)
        return moved[:, direction], gains[:, direction], changed[:, direction]
    n, s, _ = boards.shape
    rows = np.ascontiguousarray(_oriented(boards, direction)).reshape(n * s, s)
    new_rows, gains = slide_rows_left(rows.copy())
    new = np.empty_like(boards)
    _oriented(new, direction)[...] = new_rows.reshape(n, s, s)
    changed = (new != boards).reshape(n, -1).any(axis=1)
    return new, gains.reshape(n, s).sum(axis=1), changed


def _all_by_slides(boards: np.ndarray):
    results = [move_batch(boards, d) for d in range(4)]
    return (np.stack([r[0] for r in results], axis=1), np.stack([r[1] for r in results], axis=1),
            np.stack([r[2] for r in results], axis=1))


def max_gain(boards: np.ndarray) -> np.ndarray:
    """The most score any one move gains on each board (0 when no move is legal).

    A move that changes nothing merges nothing, so it gains 0; every legal gain is >= 0. The max
    over all four moves is therefore the max over the legal ones, or 0 when none is legal.
    """
    boards = np.asarray(boards, dtype=np.uint8)
    if not line_tables_apply(boards):
        return _all_by_slides(boards)[1].max(axis=1)
    t = line_tables(boards.shape[-1])
    return t.gain[line_codes(boards)].sum(axis=2).reshape(len(boards), 4).max(axis=1)


def move_all(boards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All four moves of every board: (N x 4 x s x s boards, N x 4 gains, N x 4 changed)."""
    boards = np.asarray(boards, dtype=np.uint8)
    if not line_tables_apply(boards):
        return _all_by_slides(boards)
    n, s, _ = boards.shape
    t = line_tables(s)
    lines = line_codes(boards)
    decoded = t.rows[t.new[lines]]  # N x 2 (cols, rows) x s (line) x 2 (start, end) x s (cell)
    new = np.empty((n, 4, s, s), dtype=np.uint8)
    new[:, 0:2] = decoded[:, 0].transpose(0, 2, 3, 1)  # a column's cells run down the rows
    new[:, 2:4] = decoded[:, 1].transpose(0, 2, 1, 3)
    gains = t.gain[lines].sum(axis=2).reshape(n, 4)
    changed = t.moved[lines].any(axis=2).reshape(n, 4)
    return new, gains, changed


def spawn_children(boards: np.ndarray, p_four: float):
    """Every computer placement on each board of a stack (N x s x s exponents):
    (children, parent index, probability within parent). Boards without an empty cell have none."""
    n, s, _ = boards.shape
    flat = boards.reshape(n, s * s)
    parent, cell = np.nonzero(flat == 0)
    empties = np.bincount(parent, minlength=n)
    if p_four == 0:  # the course's rules: one child per empty cell
        kids = flat[parent]
        kids[np.arange(len(parent)), cell] = 1
        return kids.reshape(-1, s, s), parent, 1.0 / empties[parent]
    kids, parents, probs = [], [], []
    for exponent, p in ((1, 1.0 - p_four), (2, p_four)):
        if p <= 0:
            continue
        child = flat[parent].copy()
        child[np.arange(len(parent)), cell] = exponent
        kids.append(child)
        parents.append(parent)
        probs.append(p / empties[parent])
    return np.concatenate(kids).reshape(-1, s, s), np.concatenate(parents), np.concatenate(probs)


def slide_paths(board: np.ndarray, direction: int) -> list[tuple[tuple[int, int], tuple[int, int], int, bool]]:
    """Where each tile of one board goes: (from, to, exponent before, merged). For animation only."""
    s = board.shape[0]
    paths = []
    for line in range(s):
        if direction in (LEFT, RIGHT):
            cells = [(line, c) for c in range(s)]
        else:
            cells = [(r, line) for r in range(s)]
        if direction in (RIGHT, DOWN):
            cells.reverse()
        target, last = -1, None  # last: (exponent, mergeable) at target
        for cell in cells:
            v = int(board[cell])
            if v == 0:
                continue
            if last is not None and last[0] == v and last[1]:
                paths.append((cell, cells[target], v, True))
                last = (v + 1, False)
            else:
                target += 1
                paths.append((cell, cells[target], v, False))
                last = (v, True)
    return paths


# --- states and rules ------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class State2048:
    """A position: the board (read-only exponents) and the score so far."""

    board: np.ndarray
    score: int = 0

    def __post_init__(self):
        object.__setattr__(self, "board", read_only(self.board, np.uint8))

    def __eq__(self, other):
        return isinstance(other, State2048) and self.score == other.score and np.array_equal(self.board, other.board)

    def __hash__(self):
        return hash((self.board.tobytes(), self.board.shape, self.score))

    @property
    def size(self) -> int:
        return self.board.shape[0]

    def values(self) -> np.ndarray:
        """The tile values (0 for empty)."""
        return np.where(self.board > 0, np.left_shift(1, self.board.astype(np.int64)), 0)

    def max_tile(self) -> int:
        return int(1 << int(self.board.max())) if self.board.any() else 0


def from_values(rows, score: int = 0) -> State2048:
    """A state from tile values (0 empty); raises ValueError if a value is not a power of two >= 2."""
    values = np.asarray(rows, dtype=np.int64)
    if values.ndim != 2 or values.shape[0] != values.shape[1]:
        raise ValueError(f"the board must be square, got {values.shape[0]} rows of {values.shape[1:] or '?'}")
    if not MIN_SIZE <= values.shape[0] <= MAX_SIZE:
        raise ValueError(f"the board size must be {MIN_SIZE} to {MAX_SIZE}, got {values.shape[0]}")
    bad = values[(values != 0) & ((values < 2) | (values & (values - 1) != 0))]
    if bad.size:
        raise ValueError(f"{int(bad[0])} is not a tile: tiles are powers of two (2, 4, 8, ...) and 0 is empty")
    exps = np.zeros(values.shape, dtype=np.uint8)
    nz = values > 0
    exps[nz] = np.log2(values[nz]).round().astype(np.uint8)
    return State2048(exps, score)


def parse_board(text: str) -> np.ndarray:
    """'2,2,0,0/0,4,0,0/...' -> a 2-D array of values; ValueError with the reason."""
    rows = [r for r in text.strip().split("/")]
    try:
        values = [[int(c) for c in row.split(",")] for row in rows]
    except ValueError:
        raise ValueError(f"'{text}' is not rows of comma-separated numbers separated by '/'") from None
    if len({len(r) for r in values}) != 1 or len(values[0]) != len(values):
        raise ValueError(f"the board must be square: {len(values)} rows of lengths {[len(r) for r in values]}")
    n = len(values)
    largest = max(max(r) for r in values)
    if MIN_SIZE <= n <= MAX_SIZE and largest > max_tile(n):
        raise ValueError(f"tile {largest} is larger than a {n}x{n} game can make (at most {max_tile(n)} = 2**{n * n + 1}); "
                         "the engine holds tiles up to that")
    return np.array(values, dtype=np.int64)


@dataclass(frozen=True)
class ReachesTile:
    """A stop condition for benchmark runs: the board holds `tile` or more."""

    tile: int

    def __call__(self, state) -> bool:
        return state.max_tile() >= self.tile


def max_tile(size: int) -> int:
    """The largest tile a size x size game can reach (every cell a distinct power, 4s spawned): 2**(n*n + 1)."""
    return 1 << (size * size + 1)


@dataclass(frozen=True)
class Rules2048:
    """2048 on a size x size board: a move slides every tile toward one side, equal neighbours merge once and
    score their sum, then the computer places a 2 (a 4 with spawn_four_probability) on an empty cell; the
    game ends when no move changes the board. Boards hold exponents (1 is a 2)."""

    size: int = 4
    spawn_four_probability: float = 0.0

    def for_state(self, state: State2048) -> "Rules2048":
        """The rules of the state's board size (a state parsed from text may be of another size)."""
        size = state.board.shape[0]
        return self if size == self.size else dataclasses.replace(self, size=size)

    def chance_outcomes(self, state: State2048, action: int) -> list[tuple[State2048, float]]:
        """Every state the move may lead to: the slide, then each tile the computer may place, with its
        probability (the probabilities sum to 1)."""
        moved = self.after_move(state, action)
        kids, _, probs = spawn_children(moved.board[None], self.spawn_four_probability)
        return [(State2048(kid, moved.score), float(p)) for kid, p in zip(kids, probs, strict=True)]

    def spawn(self, board: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The board with the computer's tile on it. Two uniform draws a tile, whatever the rules: the
        empty cell (in reading order) and whether it is a 4, so batches of boards can replay the same
        draws (arcade.envs.vector2048)."""
        board = np.array(board, dtype=np.uint8)
        empties = np.flatnonzero(board == 0)
        if empties.size:
            u_cell, u_four = rng.random(2)
            cell = empties[min(int(u_cell * empties.size), empties.size - 1)]
            board.flat[cell] = 2 if u_four < self.spawn_four_probability else 1
        return board

    def new_state(self, rng: np.random.Generator) -> State2048:
        board = np.zeros((self.size, self.size), dtype=np.uint8)
        return State2048(self.spawn(self.spawn(board, rng), rng), 0)

    def info(self) -> GameInfo:
        """Four moves; no bound declared on a game's length or its score."""
        return GameInfo(4, None, None)

    def legal_actions(self, state: State2048) -> list[int]:
        _, _, changed = move_all(state.board[None])
        return [d for d in range(4) if changed[0, d]]

    def after_move(self, state: State2048, direction: int) -> State2048:
        """The state after the player's move, before the computer places a tile."""
        boards, gains, changed = move_batch(state.board[None], direction)
        if not changed[0]:
            raise ValueError(f"moving {DIRECTIONS[direction]} changes nothing: not a legal move")
        return State2048(boards[0], state.score + int(gains[0]))

    def step(self, state: State2048, action: int, rng: np.random.Generator) -> State2048:
        moved = self.after_move(state, action)
        return State2048(self.spawn(moved.board, rng), moved.score)

    def is_terminal(self, state: State2048) -> bool:
        # no move changes the board exactly when no cell is empty and no two neighbours are equal (the
        # screen asks this every frame: reading the board is far cheaper than sliding it four ways)
        b = state.board
        return not ((b == 0).any() or (b[:, 1:] == b[:, :-1]).any() or (b[1:] == b[:-1]).any())

    def to_move(self, state) -> int:
        return 0

    def outcome(self, state: State2048) -> dict:
        return {"score": state.score, "max_tile": state.max_tile()}

    def parse_state(self, text: str, **options) -> State2048:
        """The tiles as format_state writes them, then the score so far if any: "2,4,0,0/.../0,0,0,2 score=120"."""
        no_options("2048", options)
        board, fields = state_fields(text, "2048", {"score": (0, 10**15)})
        return from_values(parse_board(board), fields.get("score", 0))

    def format_state(self, state: State2048) -> str:
        """The tile values as rows of comma-separated numbers separated by '/', then "score=N" if it has one."""
        tiles = "/".join(",".join(str(int(v)) for v in row) for row in state.values())
        return f"{tiles} score={state.score}" if state.score else tiles

    def format_action(self, action: int) -> str:
        return DIRECTIONS[action]

    def encode_state(self, state: State2048) -> dict:
        """The state as JSON-able data (the text form leaves out the score)."""
        return {"board": state.board.tolist(), "score": int(state.score)}

    def decode_state(self, data: dict) -> State2048:
        board = np.array(data["board"], dtype=np.uint8)
        if board.shape != (self.size, self.size) or int(board.max(initial=0)) > 60:
            raise ValueError(f"a saved board of shape {board.shape} does not fit a {self.size}x{self.size} game")
        return State2048(board, int(data["score"]))

    def summarize(self, outcomes: list[dict]) -> dict:
        tiles = [o["max_tile"] for o in outcomes]
        top = max(tiles) if tiles else 0
        reach, t = {}, 64
        while t <= max(top, 2048):
            reach[str(t)] = sum(x >= t for x in tiles) / len(tiles)
            t *= 2
        return {"reached": reach}

    def format_summary(self, summary: dict) -> list[str]:
        parts = [f"{t}: {share:.0%}" for t, share in summary["reached"].items()]
        return ["largest tile reached  " + "  ".join(parts)]


def make_rules(settings) -> Rules2048:
    """The rules of settings.toml's [2048] table."""
    table = settings.game2048
    return Rules2048(size=table.size, spawn_four_probability=table.spawn_four_probability)


HOW_TO = ("Slide all the tiles one way; two equal tiles that meet merge into their sum, and a new tile appears."
          " Make a 2048 tile before the board fills up.")  # the first visit's card
GAME = declare(GameType(id="2048", title="2048",
                        how_to=HOW_TO, blurb="Slide and merge tiles; expectimax looks ahead.",
               players=1, seat_names=("player",), has_chance=True,  # a tile spawns after every move
               settings=Game2048Settings, parameters=("size", "spawn_four_probability"), rules_class=Rules2048,
               attr="game2048",
               milestones=tuple((str(t), "max_tile", t) for t in (2048, 4096, 8192, 16384)), order=10))
