"""Match-3 rules: swaps that make lines, cascades, the course's turn score, reshuffles.

A board is a numpy array of gem colours (0..k-1; -1 marks a cleared cell while
a turn resolves). A swap of two orthogonal neighbours is legal only if it makes
a line of 3+ of one colour. Each clearing step scores 10 points per gem times
its cascade level (1 for the swap's own lines, 2 for the first cascade, ...);
gems above fall and new gems drop in from the game's generator. Match
detection, clearing and gravity are array operations, on single boards and on
stacks of boards (all 2*s*(s-1) swaps of a board are tested at once).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from arcade.games.base import no_options, read_only, state_fields
from arcade.foundation.setting_fields import ranged
from arcade.games.declare import GameInfo, GameType, declare


@dataclass(frozen=True)
class Match3Settings:
    size: int = ranged(4, 16, 9)
    colours: int = ranged(3, 8, 5)
    turns: int = ranged(1, 1000, 50)


EMPTY = -1
POINTS_PER_GEM = 10


def find_matches(boards: np.ndarray) -> np.ndarray:
    """Mask of the gems in lines of 3+ (rows or columns) of each board; works on (s, s) or (N, s, s)."""
    b = boards
    mask = np.zeros(b.shape, dtype=bool)
    h = (b[..., :, :-2] == b[..., :, 1:-1]) & (b[..., :, 1:-1] == b[..., :, 2:]) & (b[..., :, :-2] != EMPTY)
    mask[..., :, :-2] |= h
    mask[..., :, 1:-1] |= h
    mask[..., :, 2:] |= h
    v = (b[..., :-2, :] == b[..., 1:-1, :]) & (b[..., 1:-1, :] == b[..., 2:, :]) & (b[..., :-2, :] != EMPTY)
    mask[..., :-2, :] |= v
    mask[..., 1:-1, :] |= v
    mask[..., 2:, :] |= v
    return mask


def has_line(boards: np.ndarray) -> np.ndarray:
    """Whether each board of a stack (N x s x s, no empty cells) has a line of 3+: cheaper than the mask."""
    eq_h = boards[:, :, :-1] == boards[:, :, 1:]
    eq_v = boards[:, :-1, :] == boards[:, 1:, :]
    return (eq_h[:, :, :-1] & eq_h[:, :, 1:]).any(axis=(1, 2)) | (eq_v[:, :-1, :] & eq_v[:, 1:, :]).any(axis=(1, 2))


@functools.lru_cache(maxsize=None)
def all_swaps(size: int) -> np.ndarray:
    """Every swap of orthogonal neighbours as rows (r1, c1, r2, c2): 2*s*(s-1) of them."""
    out = [(r, c, r, c + 1) for r in range(size) for c in range(size - 1)]
    out += [(r, c, r + 1, c) for r in range(size - 1) for c in range(size)]
    return np.array(out, dtype=np.intp)


@functools.lru_cache(maxsize=None)
def swap_index(size: int) -> dict[tuple[int, int, int, int], int]:
    """The position of each swap (r1, c1, r2, c2) in all_swaps(size)."""
    return {tuple(int(v) for v in swap): k for k, swap in enumerate(all_swaps(size))}


PAD = -2  # outside the board: equal to no colour and not EMPTY


def _horizontal_legal(stack: np.ndarray) -> np.ndarray:
    """B x s x (s - 1): whether swapping cell (r, c) with (r, c + 1) makes a line, on settled boards."""
    n = stack.shape[-1]
    p = np.full((len(stack), n + 6, n + 6), PAD, dtype=stack.dtype)  # np.pad costs more than the tests
    p[:, 3:-3, 3:-3] = stack
    left, right = stack[:, :, :-1], stack[:, :, 1:]  # the two gems of every horizontal swap

    def at(colour, r: int, c: int) -> np.ndarray:  # the gem at offset (r, c) from the swap's left cell is `colour`
        return p[:, 3 + r: 3 + r + n, 3 + c: 3 + c + n - 1] == colour

    def across(colour, c: int) -> np.ndarray:  # a line up-down through column c (0: left cell, 1: right cell)
        up, down = at(colour, -1, c), at(colour, 1, c)
        return (up & at(colour, -2, c)) | (down & at(colour, 2, c)) | (up & down)

    moves_left = (at(right, 0, -1) & at(right, 0, -2)) | across(right, 0)  # the right gem, now in the left cell
    moves_right = (at(left, 0, 2) & at(left, 0, 3)) | across(left, 1)  # the left gem, now in the right cell
    return moves_left | moves_right


def legal_mask(boards: np.ndarray) -> np.ndarray:
    """B x S: the swaps (all_swaps order) that make at least one line on each settled board of a stack,
    by shifted equality tests on a padded stack (the gem moving into a cell lines up with the two beyond
    it, or one on each side, along or across); no swapped copies are built."""
    b = np.asarray(boards)
    horizontal = _horizontal_legal(b).reshape(len(b), -1)
    vertical = _horizontal_legal(b.transpose(0, 2, 1)).transpose(0, 2, 1).reshape(len(b), -1)
    return np.concatenate([horizontal, vertical], axis=1)


def legal_swaps(board: np.ndarray) -> np.ndarray:
    """The swaps (rows of r1, c1, r2, c2) that make at least one line on a settled board."""
    return all_swaps(board.shape[0])[legal_mask(board[None])[0]]


def gravity(board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Let gems fall into cleared cells. Returns (board, source row of each cell; negative = new from above)."""
    s = board.shape[0]
    order = np.argsort(board != EMPTY, axis=0, kind="stable")  # empties first (top), then gems in order
    fallen = board[order, np.arange(s)]
    empties = (board == EMPTY).sum(axis=0)
    rows = np.arange(s)[:, None]
    source = np.where(rows < empties, rows - empties, order)  # new gems start above the top
    return fallen, source


@dataclass
class Stage:
    """One clearing step of a turn, for scoring and animation."""

    before: np.ndarray  # board before this clear
    cleared: np.ndarray  # mask of the cleared gems
    level: int  # cascade level (1 = the swap's own lines)
    points: int
    after: np.ndarray  # board after gravity and refill
    source: np.ndarray  # where each gem of `after` fell from


def resolve(board: np.ndarray, colours: int, rng: np.random.Generator | None, max_levels: int = 1000) -> list[Stage]:
    """Clear lines, let gems fall and refill until no line is left. With rng None, cleared cells stay
    empty (unknown refills treated as empty, as greedy-cascade needs)."""
    stages = []
    level = 1
    while level <= max_levels:
        if level > 1 and rng is not None and not has_line(board[None])[0]:  # refilled, no empty cell: cheaper test
            break
        cleared = find_matches(board)
        n = int(cleared.sum())
        if n == 0:
            break
        emptied = np.where(cleared, EMPTY, board)
        after, source = gravity(emptied)
        if rng is not None:  # the cells emptied are the n cells at the top that the fall left empty
            after[after == EMPTY] = rng.integers(0, colours, size=n)
        stages.append(Stage(board, cleared, level, POINTS_PER_GEM * n * level, after, source))
        board = after
        level += 1
    return stages


def apply_swap(board: np.ndarray, swap) -> np.ndarray:
    r1, c1, r2, c2 = swap
    out = board.copy()
    out[r1, c1], out[r2, c2] = board[r2, c2], board[r1, c1]
    return out


def random_board(size: int, colours: int, rng: np.random.Generator) -> np.ndarray:
    """A board with no line and at least one legal swap."""
    while True:
        board = rng.integers(0, colours, size=(size, size)).astype(np.int8)
        for _ in range(100):
            lines = find_matches(board)
            if not lines.any():
                break
            board[lines] = rng.integers(0, colours, size=int(lines.sum()))
        if not find_matches(board).any() and len(legal_swaps(board)):
            return board


def reshuffle(board: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The same gems in new places, with no line and a legal swap."""
    flat = board.ravel()
    for _ in range(10_000):
        candidate = rng.permutation(flat).reshape(board.shape)
        if not find_matches(candidate).any() and len(legal_swaps(candidate)):
            return candidate
    raise RuntimeError("no arrangement of these gems has a legal swap")


@dataclass(frozen=True, eq=False)
class Match3State:
    board: np.ndarray
    turns_left: int
    score: int = 0
    shuffles: int = 0
    colours: int = 5

    def __post_init__(self):
        object.__setattr__(self, "board", read_only(self.board, np.int8))

    def __eq__(self, other):
        return (isinstance(other, Match3State) and np.array_equal(self.board, other.board)
                and (self.turns_left, self.score, self.shuffles) == (other.turns_left, other.score, other.shuffles))

    def __hash__(self):
        return hash((self.board.tobytes(), self.turns_left, self.score))

    def key(self) -> tuple[bytes, int]:
        """What the course calls the state: (board, turns left)."""
        return self.board.tobytes(), self.turns_left

    def swaps(self) -> np.ndarray:
        """The legal swaps of this board (N x 4: r1, c1, r2, c2), computed once (the state is immutable)."""
        return self._legal_swaps

    @functools.cached_property
    def swap_mask(self) -> np.ndarray:
        """Whether each swap (all_swaps order) is legal on this board, computed once."""
        mask = legal_mask(self.board[None])[0]
        mask.flags.writeable = False
        return mask

    @functools.cached_property
    def _legal_swaps(self) -> np.ndarray:
        return all_swaps(self.board.shape[0])[self.swap_mask]


@dataclass
class TurnResult:
    state: Match3State
    stages: list[Stage] = field(default_factory=list)
    reshuffled: bool = False

    @property
    def points(self) -> int:
        return sum(st.points for st in self.stages)


def parse_board(text: str) -> np.ndarray:
    rows = text.strip().split("/")
    if not all(r.isdigit() for r in rows) or len({len(r) for r in rows}) != 1 or len(rows) != len(rows[0]):
        raise ValueError(f"'{text}' is not square rows of digits separated by '/'")
    if not 4 <= len(rows) <= 16:
        raise ValueError(f"the board must be 4 to 16 cells wide, got {len(rows)}")
    return np.array([[int(ch) for ch in r] for r in rows], dtype=np.int8)


@dataclass(frozen=True)
class Match3Rules:
    """The course's match-3 on a size x size board of `colours` colours, `turns` swaps a game: a swap of two
    neighbours that makes a line of three or more; the lines clear and score, the gems above fall, new ones
    are drawn from the Generator, cascades score again; a board with no swap is reshuffled."""

    size: int = 9
    colours: int = 5
    turns: int = 50

    def new_state(self, rng: np.random.Generator) -> Match3State:
        return Match3State(random_board(self.size, self.colours, rng), self.turns, 0, 0, self.colours)

    def info(self) -> GameInfo:
        """A swap of neighbours an action (2 s (s - 1) of them), a turn each; no bound declared on the score."""
        return GameInfo(2 * self.size * (self.size - 1), self.turns, None)

    def legal_actions(self, state: Match3State) -> list[tuple[int, int, int, int]]:
        if state.turns_left <= 0:
            return []
        return [tuple(swap) for swap in state.swaps().tolist()]

    def play(self, state: Match3State, action, rng: np.random.Generator) -> TurnResult:
        """A whole turn: the swap, every clearing step, and a reshuffle if no swap is left."""
        k = swap_index(state.board.shape[0]).get(tuple(int(v) for v in action))
        if state.turns_left <= 0 or k is None or not state.swap_mask[k]:
            raise ValueError(f"swap {self.format_action(action)} makes no line: not a legal move")
        board = apply_swap(state.board, action)
        stages = resolve(board, state.colours, rng)
        final = stages[-1].after
        shuffles = state.shuffles
        mask = legal_mask(final[None])[0] if state.turns_left > 1 else None
        reshuffled = mask is not None and not mask.any()
        if reshuffled:
            final = reshuffle(final, rng)
            shuffles += 1
            mask = None
        points = sum(st.points for st in stages)
        new = Match3State(final, state.turns_left - 1, state.score + points, shuffles, state.colours)
        if mask is not None:  # the new state's legal swaps, worked out once here (a cached property)
            mask.flags.writeable = False
            object.__setattr__(new, "swap_mask", mask)
        return TurnResult(new, stages, reshuffled)

    def step(self, state: Match3State, action, rng: np.random.Generator) -> Match3State:
        return self.play(state, action, rng).state

    def step_with_details(self, state: Match3State, action, rng: np.random.Generator):
        """step, and the TurnResult it came from (the screen animates its clearing steps)."""
        result = self.play(state, action, rng)
        return result.state, result

    def encode_state(self, state: Match3State) -> dict:
        return {"board": state.board.tolist(), "turns_left": int(state.turns_left), "score": int(state.score),
                "shuffles": int(state.shuffles)}

    def decode_state(self, data: dict) -> Match3State:
        board = np.array(data["board"], dtype=np.int8)
        if board.shape != (self.size, self.size) or board.max() >= self.colours or board.min() < 0:
            raise ValueError("a saved board of another size or colours")
        state = Match3State(board, int(data["turns_left"]), int(data["score"]), int(data["shuffles"]), self.colours)
        if not 0 <= state.turns_left <= self.turns:
            raise ValueError("saved turns out of range")
        if state.turns_left > 0 and not len(state.swaps()):
            raise ValueError("a saved board with no swap left (the game reshuffles such a board)")
        return state

    def is_terminal(self, state: Match3State) -> bool:
        return state.turns_left <= 0

    def to_move(self, state) -> int:
        return 0

    def outcome(self, state: Match3State) -> dict:
        return {"score": state.score, "shuffles": state.shuffles}

    def parse_state(self, text: str, **options) -> Match3State:
        """The board as format_state writes it, then the turns left if not the game's own: "0120/.../2101 turns=3"."""
        no_options("match3", options)
        text, fields = state_fields(text, "match3", {"turns": (0, 1000)})
        board = parse_board(text)
        if int(board.max()) >= self.colours:
            raise ValueError(f"colour {int(board.max())} is not one of this game's {self.colours} colours "
                             f"(digits 0-{self.colours - 1}; [match3] colours sets how many)")
        if find_matches(board).any():
            raise ValueError("the board already has a line of three: give a settled board, as play leaves them")
        state = Match3State(board, fields.get("turns", self.turns), 0, 0, self.colours)
        if not len(state.swaps()):
            raise ValueError("no swap makes a line on this board: there is no move to decide (the game reshuffles it)")
        return state

    def format_state(self, state: Match3State) -> str:
        """The board as rows of colour digits separated by '/', then "turns=N" (the turns left)."""
        return "/".join("".join(str(int(v)) for v in row) for row in state.board) + f" turns={state.turns_left}"

    def format_action(self, action) -> str:
        """A swap as the hint names it: the first gem by its 1-based row and column (top left is row 1, column
        1) and the way it swaps, "row 5 col 4 right" (or "down")."""
        r1, c1, r2, c2 = (int(x) for x in action)
        return f"row {r1 + 1} col {c1 + 1} {'right' if c2 > c1 else 'down' if r2 > r1 else 'left' if c2 < c1 else 'up'}"


def make_rules(settings) -> Match3Rules:
    """The rules of settings.toml's [match3] table."""
    t = settings.match3
    return Match3Rules(t.size, t.colours, t.turns)


HOW_TO = ("Swap two neighbouring gems to make a line of three or more of a colour: they clear, the gems above "
          "fall, and cascades score again. Score as much as you can in the turns you have.")  # the first visit's card
GAME = declare(GameType(id="match3", title="Match-3",
                        how_to=HOW_TO, blurb="Swap gems into lines; Q-learning from rollouts.",
               players=1, seat_names=("player",), has_chance=True,  # the gems that fall in; too many to list
               settings=Match3Settings, parameters=("size", "colours", "turns"), rules_class=Match3Rules,
               order=40))
