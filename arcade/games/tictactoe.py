"""Tic-tac-toe rules on the course's state hash, with every table precomputed.

A state is the course's hash: cell k = 3*row + col holds 0 (empty), 1 (X) or 2 (O)
and the board is the base-3 number sum(cell_k * 3**k). Whose turn it is
follows from the counts (X moves first), so the hash alone is the state. All
3**9 hashes are enumerated once into numpy tables (cells, winner, successor of
each move), so agents and training never build board objects.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from arcade.games.base import no_options
from arcade.games.declare import GameInfo, GameType, declare


N_STATES = 3**9
EMPTY, X, O = 0, 1, 2
SYMBOLS = {EMPTY: ".", X: "X", O: "O"}
LINES = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]])
POWERS = 3 ** np.arange(9)
# a cell's name and the key that plays it (a numeric keypad's layout: 7 8 9 is the top row), cell k = 3*row+col
CELL_NAMES = ("top left", "top middle", "top right", "middle left", "centre", "middle right", "bottom left",
              "bottom middle", "bottom right")
CELL_KEYS = (7, 8, 9, 4, 5, 6, 1, 2, 3)


@dataclass(frozen=True)
class Tables:
    cells: np.ndarray  # N x 9: 0 / 1 / 2
    winner: np.ndarray  # N: 0 none, 1 X, 2 O (3 if both have a line: impossible)
    winning_line: np.ndarray  # N: index into LINES of a winning line, or -1
    to_move: np.ndarray  # N: 1 (X) or 2 (O)
    terminal: np.ndarray  # N: a win or a full board
    valid: np.ndarray  # N: counts fit (X == O or X == O + 1) and at most one winner
    successor: np.ndarray  # N x 9: the state after the mover plays cell k, or -1 if illegal
    pieces: np.ndarray  # N: number of marks


@functools.lru_cache(maxsize=None)
def tables() -> Tables:
    """Every hash's board, winner, turn and successors (the course's enumeration of all 3**9 boards)."""
    codes = np.arange(N_STATES)
    cells = ((codes[:, None] // POWERS) % 3).astype(np.int8)
    marks = cells[:, LINES]  # N x 8 x 3
    x_line = (marks == X).all(axis=2)
    o_line = (marks == O).all(axis=2)
    winner = np.where(x_line.any(1), X, 0) + np.where(o_line.any(1), O, 0)
    winning_line = np.where((x_line | o_line).any(1), np.argmax(x_line | o_line, axis=1), -1)
    nx, no = (cells == X).sum(1), (cells == O).sum(1)
    pieces = nx + no
    to_move = np.where(nx == no, X, O).astype(np.int8)
    # a finished game: the winner is the one who just moved
    valid = ((nx == no) | (nx == no + 1)) & (winner != 3)
    valid &= ~((winner == X) & (nx != no + 1)) & ~((winner == O) & (nx != no))
    terminal = (winner != 0) | (pieces == 9)
    successor = np.where(cells == EMPTY, codes[:, None] + to_move[:, None].astype(np.int64) * POWERS, -1)
    successor[terminal | ~valid] = -1
    for arr in (cells, winner, winning_line, to_move, terminal, valid, successor, pieces):
        arr.flags.writeable = False
    return Tables(cells, winner.astype(np.int8), winning_line, to_move, terminal, valid, successor.astype(np.int32),
                  pieces)


@functools.lru_cache(maxsize=None)
def reachable_states() -> np.ndarray:
    """Every hash reachable from the empty board by legal play (5478 of them), in order of pieces."""
    succ = tables().successor
    seen = np.zeros(N_STATES, bool)
    frontier = np.array([0])
    seen[0] = True
    while frontier.size:
        nxt = succ[frontier].ravel()
        nxt = np.unique(nxt[nxt >= 0])
        nxt = nxt[~seen[nxt]]
        seen[nxt] = True
        frontier = nxt
    out = np.flatnonzero(seen)
    return out[np.argsort(tables().pieces[out], kind="stable")]


def encode(cells) -> int:
    return int(np.dot(np.asarray(cells, dtype=np.int64), POWERS))


def decode(state: int) -> np.ndarray:
    return tables().cells[state]


def seat_of(mark: int) -> int:
    """X is seat 0, O seat 1."""
    return 0 if mark == X else 1


def parse_board(text: str) -> int:
    """'X.O/.X./..O' (rows by '/', X, O and '.') -> a valid hash; ValueError with the reason."""
    rows = text.strip().upper().split("/")
    if len(rows) != 3 or any(len(r) != 3 for r in rows):
        raise ValueError(f"'{text}' is not 3 rows of 3 cells separated by '/' (e.g. X.O/.X./..O)")
    lookup = {".": EMPTY, "X": X, "O": O, "-": EMPTY, "_": EMPTY}
    try:
        cells = [lookup[ch] for row in rows for ch in row]
    except KeyError as exc:
        raise ValueError(f"unknown cell {exc.args[0]!r}: use X, O or .") from None
    state = encode(cells)
    t = tables()
    if not t.valid[state]:
        raise ValueError("that board cannot happen in a game (X moves first; counts or lines are off)")
    return state


def format_board(state: int) -> str:
    cells = decode(state)
    return "/".join("".join(SYMBOLS[int(c)] for c in cells[r * 3:r * 3 + 3]) for r in range(3))


@dataclass(frozen=True)
class TicTacToeRules:
    """Tic-tac-toe: X moves first; three in a row wins, a full board draws. A state is the board's id (cells in
    base 3, see encode / decode), the side to move following from the counts."""

    def new_state(self, rng=None) -> int:
        return 0

    def info(self) -> GameInfo:
        """Nine cells, at most nine moves, a win +1 and a loss -1."""
        return GameInfo(9, 9, (-1.0, 1.0))

    def legal_actions(self, state: int) -> list[int]:
        succ = tables().successor[state]
        return [int(k) for k in np.flatnonzero(succ >= 0)]

    def step(self, state: int, action: int, rng=None) -> int:
        if not 0 <= int(action) < 9:
            raise ValueError(f"cell {action} is not on the board (cells 0-8, top left first)")
        nxt = int(tables().successor[state, action])
        if nxt < 0:
            raise ValueError(f"{self.format_action(action)} is not a legal move in {format_board(state)}")
        return nxt

    def is_terminal(self, state: int) -> bool:
        return bool(tables().terminal[state])

    def to_move(self, state: int) -> int:
        return seat_of(int(tables().to_move[state]))

    def winner(self, state: int) -> int | None:
        """The winning seat, or None (a draw or not over)."""
        w = int(tables().winner[state])
        return None if w == 0 else seat_of(w)

    def outcome(self, state: int) -> dict:
        w = self.winner(state)
        return {"winner": w, "scores": (int(w == 0), int(w == 1)), "board": format_board(state)}

    def parse_state(self, text: str, **options) -> int:
        no_options("tictactoe", options)
        return parse_board(text)

    def format_state(self, state: int) -> str:
        return format_board(state)

    def format_action(self, action: int) -> str:
        """A move as a player names it: its cell and the key that plays it, "top left (7)"."""
        return f"{CELL_NAMES[int(action)]} ({CELL_KEYS[int(action)]})"


def make_rules(settings=None) -> TicTacToeRules:
    """The rules (tic-tac-toe has no rules parameters)."""
    return TicTacToeRules()


HOW_TO = ("You are X and move first; three of your marks in a row, a column or a diagonal wins. Perfect play on"
          " both sides is a draw.")  # the first visit's card
GAME = declare(GameType(id="tictactoe", title="Tic-Tac-Toe",
                        how_to=HOW_TO, blurb="Three in a row; a TD agent learns by self-play.",
               players=2, seat_names=("X", "O"), has_chance=False,
               parameters=(), rules_class=TicTacToeRules,
               order=20))
