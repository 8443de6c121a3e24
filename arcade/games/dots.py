"""Dots and boxes rules: boards of R x C boxes, lines as bits of one integer, box masks.

The course's 2x2 layout, generalised: bits 0..H-1 are the horizontal lines, top
row first, left to right (line (r, c) is bit r*C + c); then the vertical lines,
column by column (line (r, c) left of box column c is bit H + c*R + r). On 2x2
this gives the course's box masks 325, 1290, 660 and 2600. A player who
completes one or two boxes with a line scores them and moves again; the game
ends when every line is drawn.
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import numpy as np

from arcade.games.base import is_whole_number, no_options
from arcade.foundation.setting_fields import ranged
from arcade.games.declare import GameInfo, GameType, declare


@dataclass(frozen=True)
class DotsSettings:
    rows: int = ranged(1, 5, 2)
    cols: int = ranged(1, 5, 2)


SIZES = ((2, 2), (2, 3), (3, 3), (4, 4), (5, 5))  # the screen's boards (keys 1-5); a state's bit count finds one
MAX_BOXES = 5  # boards up to 5x5 boxes (60 lines), rectangular too


def column_label(c: int) -> str:
    """The label of dot column c (0-based) along the board's top edge: a, b, c..."""
    return "abcdefghijklmnopqrstuvwxyz"[c]


def row_label(r: int) -> str:
    """The label of dot row r (0-based) along the board's left edge: 1, 2, 3..."""
    return str(r + 1)


def line_name(board: "Board", bit: int) -> str:
    """The line `bit` by the dots it joins, "a1-b1" (top or left dot first)."""
    (r1, c1), (r2, c2) = board.line_ends(bit)
    return f"{column_label(c1)}{row_label(r1)}-{column_label(c2)}{row_label(r2)}"


def parse_size(text: str) -> tuple[int, int]:
    """'4x4' -> (4, 4); ValueError naming the problem for anything else."""
    parts = text.strip().lower().split("x")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
        raise ValueError(f"'{text}' is not a board size: give boxes down x boxes across, e.g. 4x4 or 2x3")
    rows, cols = int(parts[0]), int(parts[1])
    if not (1 <= rows <= MAX_BOXES and 1 <= cols <= MAX_BOXES):
        raise ValueError(f"a board of {rows}x{cols} boxes is not offered: 1x1 up to {MAX_BOXES}x{MAX_BOXES}")
    return rows, cols


@dataclass(frozen=True)
class Board:
    rows: int  # boxes down
    cols: int  # boxes across

    @functools.cached_property  # (searches ask these millions of times)
    def n_horizontal(self) -> int:
        return (self.rows + 1) * self.cols

    @functools.cached_property
    def n_lines(self) -> int:
        return self.n_horizontal + self.rows * (self.cols + 1)

    @property
    def n_boxes(self) -> int:
        return self.rows * self.cols

    @functools.cached_property
    def full(self) -> int:
        return (1 << self.n_lines) - 1

    def h(self, r: int, c: int) -> int:
        """Bit of the horizontal line above box row r (r = rows: the bottom edge), column c."""
        return r * self.cols + c

    def v(self, r: int, c: int) -> int:
        """Bit of the vertical line in box row r, left of box column c (c = cols: the right edge)."""
        return self.n_horizontal + c * self.rows + r

    def box_masks(self) -> list[int]:
        """Line mask of every box, row by row."""
        return [(1 << self.h(r, c)) | (1 << self.h(r + 1, c)) | (1 << self.v(r, c)) | (1 << self.v(r, c + 1))
                for r in range(self.rows) for c in range(self.cols)]

    def line_ends(self, bit: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """The two dots (row, col) a line joins."""
        if bit < self.n_horizontal:
            r, c = divmod(bit, self.cols)
            return (r, c), (r, c + 1)
        c, r = divmod(bit - self.n_horizontal, self.rows)
        return (r, c), (r + 1, c)

    @functools.cached_property
    def line_boxes(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """For each line: the (box index, box mask) of the one or two boxes it is a side of."""
        masks = self.box_masks()
        return tuple(tuple((i, m) for i, m in enumerate(masks) if (m >> bit) & 1) for bit in range(self.n_lines))


@functools.lru_cache(maxsize=None)
def board_of(rows: int, cols: int) -> Board:
    """The one Board of a size, so its cached line table is built once (searches step millions of times)."""
    return Board(rows, cols)


@functools.lru_cache(maxsize=None)
def line_symmetries(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """The board's symmetries (its reflections and rotations: 4 for a rectangle, 8 for a square) as
    permutations of its lines: perm[bit] is the line that line `bit` becomes. The identity is first."""
    board = board_of(rows, cols)
    by_ends = {frozenset(board.line_ends(b)): b for b in range(board.n_lines)}
    maps = [lambda r, c: (r, c), lambda r, c: (r, cols - c), lambda r, c: (rows - r, c),
            lambda r, c: (rows - r, cols - c)]
    if rows == cols:
        maps += [lambda r, c: (c, r), lambda r, c: (c, rows - r), lambda r, c: (cols - c, r),
                 lambda r, c: (cols - c, rows - r)]
    return tuple(tuple(by_ends[frozenset(f(*end) for end in board.line_ends(b))] for b in range(board.n_lines))
                 for f in maps)


def map_lines(lines: int, perm: tuple[int, ...]) -> int:
    """A set of lines (bit mask) under a symmetry (one of line_symmetries)."""
    out = 0
    for bit, image in enumerate(perm):
        if (lines >> bit) & 1:
            out |= 1 << image
    return out


def board_for_lines(n_lines: int) -> Board:
    for r, c in SIZES:
        if Board(r, c).n_lines == n_lines:
            return Board(r, c)
    known = ", ".join(f"{Board(r, c).n_lines} ({r}x{c})" for r, c in SIZES)
    raise ValueError(f"{n_lines} line bits fit no board; use {known}")


@functools.lru_cache(maxsize=None)
def box_counts(rows: int, cols: int) -> np.ndarray:
    """Completed boxes of every line state (2**L entries; 16 MB for 3x3)."""
    board = Board(rows, cols)
    codes = np.arange(1 << board.n_lines, dtype=np.int32)
    counts = np.zeros(codes.size, dtype=np.int8)
    for m in board.box_masks():
        counts += (codes & m) == m
    counts.flags.writeable = False
    return counts


@dataclass(frozen=True)
class DotsState:
    """A position: the board's size, the drawn lines, each seat's boxes and the seat to move."""

    rows: int = 2
    cols: int = 2
    lines: int = 0
    scores: tuple[int, int] = (0, 0)
    mover: int = 0

    @property
    def board(self) -> Board:
        return board_of(self.rows, self.cols)


def parse_lines(text: str, size: tuple[int, int] | None = None) -> tuple[Board, int]:
    """'000000000000' (bit 0 first) -> (board, lines); ValueError with the reason. Without `size`
    the board is the one of SIZES with that many lines."""
    text = text.strip()
    if not text or set(text) - {"0", "1"}:
        raise ValueError(f"'{text}' is not a string of 0 and 1 (bit 0 first)")
    if size is None:
        board = board_for_lines(len(text))
    else:
        board = Board(*size)
        if board.n_lines != len(text):
            raise ValueError(f"the state has {len(text)} line bits but a {board.rows}x{board.cols} board has "
                             f"{board.n_lines} lines")
    return board, sum(1 << i for i, ch in enumerate(text) if ch == "1")


def completed_by(board: Board, lines: int, bit: int) -> list[int]:
    """Indices of the boxes that drawing the free line `bit` on `lines` completes (zero, one or two)."""
    after = lines | 1 << bit
    return [i for i, m in board.line_boxes[bit] if (after & m) == m]


def owners(states) -> tuple[dict[int, int], dict[int, int]]:
    """Who drew each line and who took each box, read off a game's states in order (the session's history
    and its state): {line: seat}, {box: seat}. A state alone holds the lines, not their owners."""
    line_owner: dict[int, int] = {}
    box_owner: dict[int, int] = {}
    for before, after in itertools.pairwise(states):
        new = after.lines & ~before.lines
        if (before.rows, before.cols) != (after.rows, after.cols) or new.bit_count() != 1:
            continue  # not one move of one game (a new game, a position put on the board)
        bit = new.bit_length() - 1
        line_owner[bit] = before.mover
        for box in completed_by(before.board, before.lines, bit):
            box_owner[box] = before.mover
    return line_owner, box_owner


def gain(board: Board, lines: int, bit: int) -> int:
    """Boxes completed by drawing the free line `bit` on `lines`: the one definition of a line's gain
    (transition_tables and the solver hold the same for all states at once)."""
    return len(completed_by(board, lines, bit))


def line_gains(state: "DotsState") -> dict[int, int]:
    """{free line: boxes drawing it completes} for a position."""
    board = state.board
    return {b: gain(board, state.lines, b) for b in range(board.n_lines) if not (state.lines >> b) & 1}


@dataclass(frozen=True)
class DotsRules:
    """Rules for any board; the state carries its size. `rows` x `cols` is the size of new games."""

    rows: int = 2
    cols: int = 2

    def __post_init__(self):
        if not (is_whole_number(self.rows) and is_whole_number(self.cols)):
            raise ValueError(f"rows and cols must be whole numbers of boxes, got rows={self.rows!r} cols={self.cols!r}")
        if not (1 <= self.rows <= MAX_BOXES and 1 <= self.cols <= MAX_BOXES):
            raise ValueError(f"a board of {self.rows}x{self.cols} boxes is not offered: 1x1 up to "
                             f"{MAX_BOXES}x{MAX_BOXES}")

    def new_state(self, rng=None) -> DotsState:
        return DotsState(self.rows, self.cols)

    def info(self) -> GameInfo:
        """A line an action, each drawn once: as many moves as lines; a win +1 and a loss -1."""
        n = board_of(self.rows, self.cols).n_lines
        return GameInfo(n, n, (-1.0, 1.0))

    def legal_actions(self, state: DotsState) -> list[int]:
        lines = state.lines
        return [b for b in range(state.board.n_lines) if not (lines >> b) & 1]

    def step(self, state: DotsState, action: int, rng=None) -> DotsState:
        if not 0 <= action < state.board.n_lines:
            raise ValueError(f"line {action} is not on the board (lines 0-{state.board.n_lines - 1})")
        if (state.lines >> action) & 1:
            raise ValueError(f"line {line_name(state.board, action)} is already drawn")
        gained = gain(state.board, state.lines, action)
        scores = list(state.scores)
        scores[state.mover] += gained
        mover = state.mover if gained else 1 - state.mover  # completing a box earns another move
        return DotsState(state.rows, state.cols, state.lines | 1 << action, tuple(scores), mover)

    def is_terminal(self, state: DotsState) -> bool:
        return state.lines == state.board.full

    def to_move(self, state: DotsState) -> int:
        return state.mover

    def outcome(self, state: DotsState) -> dict:
        a, b = state.scores
        return {"winner": None if a == b else (0 if a > b else 1), "scores": (a, b)}

    def parse_state(self, text: str, board: tuple[int, int] | None = None, **options) -> DotsState:
        """A state from its line bits: of `board` (rows, cols) if given, else of these rules' board if the bit
        count is its, else of the offered board with that many lines."""
        no_options("dots", options)
        if board is None and len(text.strip()) == Board(self.rows, self.cols).n_lines:
            board = (self.rows, self.cols)
        board, lines = parse_lines(text, board)
        return DotsState(board.rows, board.cols, lines, (0, 0), 0)

    def for_state(self, state: DotsState) -> "DotsRules":
        """The rules of the state's board size (a state parsed from text may be of another size)."""
        return self if (state.rows, state.cols) == (self.rows, self.cols) else DotsRules(state.rows, state.cols)

    def format_state(self, state: DotsState) -> str:
        """The drawn lines as 0 and 1, bit 0 first (scores and the mover are not part of the text)."""
        return "".join("1" if (state.lines >> b) & 1 else "0" for b in range(state.board.n_lines))

    def format_action(self, action: int) -> str:
        """A line as a player names it: the two dots it joins, "a1-b1" (columns a, b, c... left to right, rows
        1, 2, 3... top to bottom, as the board's edges are labelled)."""
        return line_name(Board(self.rows, self.cols), int(action))

    def encode_state(self, state: DotsState) -> dict:
        """A state as JSON-able data, whole: the text form holds the lines only (a game kept and resumed from
        it came back with no boxes and the first player to move, every line in the first player's colour)."""
        return {"rows": state.rows, "cols": state.cols, "lines": state.lines, "scores": list(state.scores),
                "mover": state.mover}

    def decode_state(self, data) -> DotsState:
        """The inverse of encode_state (a text of an earlier version: its lines, as parse_state reads them);
        ValueError / KeyError / TypeError where it does not fit a board these rules offer."""
        if isinstance(data, str):
            return self.parse_state(data)
        rows, cols, lines, mover = (int(data[k]) for k in ("rows", "cols", "lines", "mover"))
        scores = tuple(int(s) for s in data["scores"])
        board = Board(rows, cols)
        if not (1 <= rows <= MAX_BOXES and 1 <= cols <= MAX_BOXES and 0 <= lines <= board.full and mover in (0, 1)
                and len(scores) == 2 and min(scores) >= 0 and sum(scores) <= board.n_boxes):
            raise ValueError("a saved dots position that no board of the game can hold")
        return DotsState(rows, cols, lines, scores, mover)


def make_rules(settings) -> DotsRules:
    """The rules of settings.toml's [dots] table (the board of new games)."""
    return DotsRules(settings.dots.rows, settings.dots.cols)


@functools.lru_cache(maxsize=4)
def transition_tables(rows: int, cols: int):
    """For every line state s and line a: (next state s | a, boxes gained, whether a is free).

    Arrays of 2**L x L; meant for 2x2 (4096 states) and 2x3 (131072), not 3x3.
    """
    board = Board(rows, cols)
    n_lines = board.n_lines
    states = np.arange(1 << n_lines, dtype=np.int32)[:, None]
    bits = (1 << np.arange(n_lines, dtype=np.int32))[None, :]
    free = (states & bits) == 0
    nxt = states | bits
    counts = box_counts(rows, cols)
    gains = np.where(free, counts[nxt] - counts[states], 0).astype(np.int8)
    for arr in (nxt, gains, free):
        arr.flags.writeable = False
    return nxt, gains, free


HOW_TO = ("Take turns drawing a line between two dots. Draw the fourth side of a box to win it and move again; "
          "the most boxes win.")  # the first visit's card
GAME = declare(GameType(id="dots", title="Dots and Boxes",
                        how_to=HOW_TO, blurb="Close boxes, move again; a network learns by self-play.",
               players=2, seat_names=("first", "second"), has_chance=False,
               settings=DotsSettings, parameters=("rows", "cols"), rules_class=DotsRules,
               order=30))
