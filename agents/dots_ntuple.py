"""Dots and boxes that learns by self-play: an n-tuple network over the lines, TD(0), greedy at 1 ply.

The network (the 2048 learner's idea on lines): every window of 2x3 and 3x2 boxes on the board is a tuple
of its 17 lines; windows that a symmetry of the board maps onto one another are one tuple, and each tuple
is read through all of the board's symmetries (8 on a square, 4 on a rectangle) into its own table of
2^17 weights, so what is learnt in one corner is known in every corner. One more weight for each count of
lines drawn. A board of FULL_LINES lines or fewer (up to 3x3) is one tuple instead, a table of every line
set (3x3: 2^24 weights), read once at the least of its images (a weight per class of symmetric positions;
only those are ever touched, which keeps the file small): such a network can hold the exact values. The
value of a line set is the box margin the player to move can expect over the boxes still open
(agents/engines/dots/kernels.py has the arithmetic).

Training is TD(0) self-play in a compiled loop: both sides play the move of largest worth (a random one
with probability epsilon, and the first moves of a game at random for wider starts; in a `sparring` share of
the games one seat plays the greedy agent's moves) and every position's value moves toward its greedy worth. The learning curve says what a student wants to see: on boards the
exact solver knows (up to 3x3), the share of moves the solver calls optimal on positions from greedy vs
random games (held out: made from seeds training never sees); on larger boards the share of games won
against greedy and against alpha-beta at 1,000 positions a move. A network per board size is kept in the data folder (ntuple_dots_RxC.npz); a 3x3 and a 4x4
network ship with the arcade.
"""
from __future__ import annotations

import copy
import functools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.engines import compiled
from agents.base import TrainingDiverged, best_action, declare_warm_up, register, LEARNT
from agents.dots_solver import MAX_LINES, margins, move_values as solved_values
from arcade.games.dots import GAME, DotsRules, DotsState, board_of, line_symmetries
from arcade.foundation.notices import notice
from arcade.foundation.setting_fields import ranged
from arcade.foundation.storage import ASSETS, ReadOnce, load_npz, save_npz, set_aside

FORMAT_VERSION = 1
WINDOW = (2, 3)  # boxes of a line tuple's window (and its turn, 3x2)
FULL_LINES = 24  # a board of this many lines or fewer is one line tuple: a table of every line set (3x3: 16.8M)
BOX_WINDOW = 3  # boxes of a box tuple's square window (its boxes' drawn sides, base 5)
CHUNK_MOVES = 40_000  # self-play moves between two looks at the stop flag and the progress bar
CURVE_POINTS = 25  # checkpoints a training run measures itself at
TEST_POSITIONS = 500  # positions the curve's optimal share is measured on
TEST_SEED = 10_000_019  # their games' seeds start here, far from any a training draws
CURVE_GAMES = 40  # games against greedy a checkpoint plays on boards the solver does not know
CURVE_SEARCH_GAMES = 20  # ... and against alpha-beta at CURVE_POSITIONS positions a move (the same on any machine)
CURVE_POSITIONS = 1000


# Networks read from files, shared by every agent of the process that plays from them (3x3's is 150 MB in
# memory; ntuple, alpha-beta-ntuple and mcts-ntuple each read it): never written, training works on a copy
_FILES = ReadOnce(keep=2)


def kernels():
    """agents/engines/dots/kernels.py (the network and its self-play; imported at first use: numba loads
    with it)."""
    from agents.engines.dots import kernels as dots_kernels

    return dots_kernels


@dataclass(frozen=True)
class DotsNTupleParams:
    """settings.toml's [dots.ntuple]: how a training run learns (the agent plays greedily from its network)."""

    learning_rate: float = ranged(0.0001, 1.0, 0.1, trains_only=True)  # TD(0): share of a value's error a step
    # ... on a board that is one table (up to 3x3): each class of positions its own weight, so a step can close
    # the whole error (3x3: 98% optimal after 2M games where 0.1 plateaus at 90%; on 4x4's windows 1.0 runs away)
    table_learning_rate: float = ranged(0.0001, 1.0, 1.0, trains_only=True)
    epsilon: float = ranged(0.0, 1.0, 0.2, trains_only=True)  # a random move instead, in self-play
    openings: int = ranged(0, 60, 4, trains_only=True)  # random first moves of each self-play game
    # share of games where one seat plays the greedy agent's moves (a sparring partner: its positions are learnt
    # too; 4x4 against greedy 93.6% -> 95.2% of 10,000 games after 6M such games; all games sparring: worse)
    sparring: float = ranged(0.0, 1.0, 0.5, trains_only=True)
    games: int = ranged(1, 100_000_000, 300_000, trains_only=True)  # games of one training run


@dataclass(frozen=True)
class Layout:
    """What the compiled loops read of one board's network (agents/engines/dots/kernels.py)."""

    rows: int
    cols: int
    tuples: np.ndarray  # (T, K) lines of each tuple (-1 past its end)
    reads: np.ndarray  # (T*S, K) the tuples' lines under each symmetry
    offsets: np.ndarray  # (T*S,) where each read's table starts
    boxes: np.ndarray  # (C, J) boxes of each box tuple
    counts: np.ndarray  # (C*S, J) the box tuples' boxes under each symmetry
    count_offsets: np.ndarray  # (C*S,) where each of those reads' tables starts
    box_masks: np.ndarray  # (B,) each box's lines
    layer_at: int  # where the per-count weights start
    size: int  # weights in all
    box_lines: np.ndarray
    line_boxes: np.ndarray

    @property
    def n_lines(self) -> int:
        return board_of(self.rows, self.cols).n_lines

    @property
    def one_table(self) -> bool:
        """Whether the lines are one tuple of the whole board, read once at a position's least image."""
        return bool((self.offsets < 0).any())


def _classes(candidates, images) -> list[tuple[int, ...]]:
    """The first of each class of `candidates` (tuples of lines or boxes) under the symmetries; images(t)
    gives the set of a candidate's images."""
    kept, seen = [], set()
    for t in candidates:
        mine = images(t)
        if not mine & seen:
            kept.append(t)
        seen |= mine
    return kept


def _reads(tuples, syms, width: int, start: int, size_of) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(the tuples padded with -1, their reads under each symmetry, each read's table offset, the end)."""
    table = np.full((len(tuples), width), -1, np.int64)
    reads = np.full((len(tuples) * len(syms), width), -1, np.int64)
    offsets = np.zeros(len(tuples) * len(syms), np.int64)
    at = start
    for t, places in enumerate(tuples):
        table[t, :len(places)] = places
        for s, perm in enumerate(syms):
            reads[t * len(syms) + s, :len(places)] = [perm[p] for p in places]
            offsets[t * len(syms) + s] = at
        at += size_of(len(places))
    return table, reads, offsets, at


def _window_lines(rows: int, cols: int, r0: int, c0: int, h: int, w: int) -> tuple[int, ...]:
    board = board_of(rows, cols)
    horizontal = [board.h(r, c) for r in range(r0, r0 + h + 1) for c in range(c0, c0 + w)]
    vertical = [board.v(r, c) for r in range(r0, r0 + h) for c in range(c0, c0 + w + 1)]
    return tuple(horizontal + vertical)


@functools.lru_cache(maxsize=None)
def layout(rows: int, cols: int) -> Layout:
    """The network of a board: its tuples (one per class of windows under the symmetries) and the arrays the
    kernels read."""
    board = board_of(rows, cols)
    syms = line_symmetries(rows, cols)
    masks = board.box_masks()
    box_of_mask = {m: i for i, m in enumerate(masks)}
    box_syms = [[box_of_mask[sum(1 << perm[b] for b in range(board.n_lines) if (m >> b) & 1)] for m in masks]
                for perm in syms]
    shapes = sorted({(min(WINDOW[0], rows), min(WINDOW[1], cols)), (min(WINDOW[1], rows), min(WINDOW[0], cols))})
    if board.n_lines <= FULL_LINES:
        shapes = [(rows, cols)]
    windows = [_window_lines(rows, cols, r0, c0, h, w) for h, w in shapes
               for r0 in range(rows - h + 1) for c0 in range(cols - w + 1)]
    line_tuples = _classes(windows, lambda t: {frozenset(perm[b] for b in t) for perm in syms})
    h, w = min(BOX_WINDOW, rows), min(BOX_WINDOW, cols)
    squares = [tuple(r * cols + c for r in range(r0, r0 + h) for c in range(c0, c0 + w))
               for r0 in range(rows - h + 1) for c0 in range(cols - w + 1)]
    box_tuples = _classes(squares, lambda t: {frozenset(perm[b] for b in t) for perm in box_syms})
    tuples, reads, offsets, at = _reads(line_tuples, syms, max(map(len, line_tuples)), 0, lambda n: 1 << n)
    for t, places in enumerate(line_tuples):
        if len(places) == board.n_lines:  # (the whole board: read once, canonically; agents/engines/dots/kernels.py)
            offsets[t * len(syms) + 1:(t + 1) * len(syms)] = -1
    boxes, counts, count_offsets, at = _reads(box_tuples, box_syms, max(map(len, box_tuples)), at, lambda n: 5 ** n)
    box_lines = np.array([[b for b in range(board.n_lines) if (m >> b) & 1] for m in masks], np.int64)
    line_boxes = np.full((board.n_lines, 2), -1, np.int64)
    for line, found in enumerate(board.line_boxes):
        line_boxes[line, :len(found)] = [i for i, _ in found]
    box_masks = np.array(masks, np.int64)
    arrays = (tuples, reads, offsets, boxes, counts, count_offsets, box_masks, box_lines, line_boxes)
    for a in arrays:
        a.flags.writeable = False
    summary = SAFE_CAP * TWO_CAP * THREE_CAP
    return Layout(rows, cols, tuples, reads, offsets, boxes, counts, count_offsets, box_masks, at,
                  at + board.n_lines + 1 + summary, box_lines, line_boxes)


SAFE_CAP, TWO_CAP, THREE_CAP = 32, 32, 4  # the summary's caps (as agents/engines/dots/kernels.py's)


class Network:
    """The weights of one board's network, with what the kernels need to read them."""

    def __init__(self, rows: int, cols: int, weights: np.ndarray | None = None):
        self.layout = layout(rows, cols)
        self.weights = np.zeros(self.layout.size) if weights is None else weights

    def args(self) -> tuple:
        """The network as the kernels take it."""
        lay = self.layout
        return (lay.reads, lay.offsets, lay.counts, lay.count_offsets, lay.box_masks, self.weights, lay.layer_at,
                lay.box_lines, lay.line_boxes, lay.n_lines)

    def move_values(self, lines: int) -> np.ndarray:
        """What each line is worth to the player to move (-inf for drawn lines)."""
        lay = self.layout
        out = np.empty(lay.n_lines)
        kernels().move_values(np.int64(lines), lay.n_lines, self.args(), lay.box_lines, lay.line_boxes, out)
        return out

    def values(self, positions: np.ndarray) -> np.ndarray:
        """The value of each position (an int64 array of line sets) for its player to move."""
        out = np.empty(positions.size)
        kernels().values(positions.astype(np.int64), self.args(), out)
        return out

    def choices(self, positions: np.ndarray) -> np.ndarray:
        """The greedy line in each position (an int64 array of line sets)."""
        lay = self.layout
        out = np.empty(positions.size, np.int64)
        kernels().choices(positions.astype(np.int64), lay.n_lines, self.args(), lay.box_lines, lay.line_boxes, out)
        return out


def file_name(rows: int, cols: int) -> str:
    return f"ntuple_dots_{rows}x{cols}.npz"


# --- the learning curve's measures --------------------------------------------------------------------
def _greedy_vs_random(rows: int, cols: int, seed: int) -> list[int]:
    """The line sets of one game of greedy against random (greedy first in even seeds), before each move."""
    from agents.greedy import GreedyDots

    rules = DotsRules(rows, cols)
    rng = np.random.default_rng(seed)
    greedy, state, seen = GreedyDots(rules, None), rules.new_state(rng), []
    while not rules.is_terminal(state):
        seen.append(state.lines)
        greedy_moves = (state.mover == 0) == (seed % 2 == 0)
        legal = rules.legal_actions(state)
        line = greedy.act(state, rng) if greedy_moves else legal[int(rng.integers(len(legal)))]
        state = rules.step(state, line, rng)
    return seen


@functools.lru_cache(maxsize=4)
def test_positions(rows: int, cols: int, data_dir: str) -> tuple[np.ndarray, np.ndarray]:
    """TEST_POSITIONS positions from greedy vs random games (seeds from TEST_SEED), and for each the bit mask
    of the lines the exact solver calls optimal. Boards up to 3x3 (the solver's)."""
    found: list[int] = []
    seed = TEST_SEED
    while len(found) < 3 * TEST_POSITIONS:
        found += _greedy_vs_random(rows, cols, seed)
        seed += 1
    picked = np.random.default_rng(TEST_SEED).choice(len(found), TEST_POSITIONS, replace=False)
    positions = np.array([found[i] for i in sorted(picked)], np.int64)
    table = margins(rows, cols, Path(data_dir))
    optimal = np.zeros(positions.size, np.int64)
    for i, lines in enumerate(positions.tolist()):
        values = solved_values(DotsState(rows, cols, lines), table)
        best = max(values.values())
        optimal[i] = sum(1 << a for a, v in values.items() if v == best)
    return positions, optimal


def optimal_share(net: Network, data_dir) -> tuple[float, float]:
    """(share of the test positions where the network's move is optimal, the same share over the positions
    where not every move is)."""
    lay = net.layout
    positions, optimal = test_positions(lay.rows, lay.cols, str(data_dir))
    hit = (optimal >> net.choices(positions)) & 1
    full = (np.int64(1) << lay.n_lines) - 1
    free = ~positions & full
    decisive = optimal != free
    return float(hit.mean()), float(hit[decisive].mean()) if decisive.any() else 1.0


def wins_against(net: Network, games: int, seed: int, settings, opponent: str = "greedy") -> float:
    """Share of `games` against the dots agent `opponent` (built from `settings`) the network wins at 1 ply
    (half of them moving first; a draw counts half)."""
    from agents.base import find

    lay = net.layout
    rules = DotsRules(lay.rows, lay.cols)
    other, points = find(GAME.id, opponent).create(rules, settings), 0.0
    for g in range(games):
        rng = np.random.default_rng(seed + g)
        state, mine = rules.new_state(rng), g % 2
        while not rules.is_terminal(state):
            if state.mover == mine:
                line = int(np.argmax(net.move_values(state.lines)))
            else:
                line = other.act(state, rng)
            state = rules.step(state, line, rng)
        margin = state.scores[mine] - state.scores[1 - mine]
        points += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
    return points / games


@register("ntuple", ("dots",), "n-tuple network over the lines, learnt by TD(0) self-play, greedy at 1 ply",
          order=30,
          about="A value for every position: weights looked up by the lines drawn in windows of 2x3 boxes "
                "at each rotation and reflection (up to 3x3, one weight for every position and its mirror "
                "images). Learnt by playing itself: a position's value moves toward the best its moves seem "
                "worth. It plays the line worth most; t trains it on this board.",
          params=DotsNTupleParams, group=LEARNT, title="Learnt n-tuple network")
class DotsNTuple:
    """Greedy on the learnt network of each board; trains by TD(0) self-play (`t`, `python main.py train`)."""

    name = "ntuple"

    def __init__(self, rules, settings):
        self.rules = rules
        p = settings.agent_params(GAME.id, "ntuple")
        self.epsilon, self.openings, self.sparring = p.epsilon, p.openings, p.sparring
        one_table = layout(rules.rows, rules.cols).one_table
        self.rate_setting = "table_learning_rate" if one_table else "learning_rate"  # ([dots.ntuple]'s)
        self.rate = getattr(p, self.rate_setting)
        self.data_dir = Path(settings.data_dir)
        self.settings = settings  # (the curve's opponents are built from them)
        self._nets: dict[tuple[int, int], tuple[Network, dict, str]] = {}
        self._net(rules.rows, rules.cols)  # loaded (and the kernels compiled) with the agent
        compiled.warm([lambda: self._net(rules.rows, rules.cols)[0].move_values(0)])

    def __deepcopy__(self, memo):
        """A copy for another game (the game runner makes one a game): the networks read from files stay
        shared, as among every agent of the process (never written: training works on a copy; copying 3x3's
        took a third of a second a game); the rest is copied."""
        for net, _ in _FILES.values():
            memo[id(net)] = net
        twin = object.__new__(type(self))
        memo[id(self)] = twin
        twin.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return twin

    # --- networks -----------------------------------------------------------------------------------
    def _read(self, path: Path, rows: int, cols: int, then: str):
        """(the network in `path`, its record), read once per process and shared (_FILES); None if missing
        or unreadable (set aside, with a notice saying `then`)."""
        return _FILES.read(path, lambda p: self._decode(p, rows, cols, then))

    def _decode(self, path: Path, rows: int, cols: int, then: str):
        arrays = load_npz(path, FORMAT_VERSION, required=("weights", "tuples", "games", "moves"), then=then)
        if arrays is None:
            return None
        lay = layout(rows, cols)
        weights = arrays["weights"]
        if weights.shape != (lay.size,) or not np.array_equal(arrays["tuples"], lay.tuples) \
                or not np.array_equal(arrays.get("boxes"), lay.boxes):
            set_aside(path, f"a network of another shape ({weights.shape[0]:,} weights)", then)
            return None
        if not np.isfinite(weights).all():
            set_aside(path, "weights that are not numbers", then)
            return None
        meta = {"games": int(arrays["games"]), "moves": int(arrays["moves"])}
        if "run" in arrays and arrays["run"].shape == (2,):  # (a checkpoint: its run's size and games done)
            meta["run"] = (int(arrays["run"][0]), int(arrays["run"][1]))
        return Network(rows, cols, weights.astype(np.float64)), meta

    def _net(self, rows: int, cols: int) -> tuple[Network, dict, str]:
        key = (rows, cols)
        if key not in self._nets:
            name = file_name(rows, cols)
            for path, label in ((self.data_dir / name, "trained"), (ASSETS / name, "shipped")):
                then = "the shipped network plays" if label == "trained" else "playing untrained"
                got = self._read(path, rows, cols, then)
                if got is not None:
                    self._nets[key] = (got[0], got[1], f"{label} ({name})")
                    break
            else:
                self._nets[key] = (Network(rows, cols), {"games": 0, "moves": 0}, "untrained")
        return self._nets[key]

    # --- playing ------------------------------------------------------------------------------------
    def explain(self, state) -> dict[int, float]:
        worth = self._net(state.rows, state.cols)[0].move_values(state.lines)
        return {a: float(worth[a]) for a in range(worth.size) if np.isfinite(worth[a])}

    def act(self, state, rng=None) -> int:
        return best_action(self.explain(state))

    def tree(self, state, rng=None) -> dict:
        """Its one ply as a tree (agents/search_tree.one_ply): each free line a leaf worth the margin the
        network expects after drawing it (the tree view draws the board it leaves)."""
        from agents.search_tree import one_ply

        return one_ply(self.explain(state), learnt="the margin the network expects after the line")

    def value_legend(self, mover: str) -> str:
        return (f"The numbers: the box margin {mover} can expect over the boxes still open after drawing that "
                "line (boxes it takes now, plus or minus what the network expects next), as learnt by self-play.")

    def describe(self) -> list[str]:
        net, meta, source = self._net(self.rules.rows, self.rules.cols)
        lay = net.layout
        symmetries = lay.reads.shape[0] // lay.tuples.shape[0]
        lines = ("every line set one weight a class of its mirror images, "
                 if lay.one_table else f"{lay.tuples.shape[0]} line tuples and ")
        return [f"network: {source}",
                f"{lines}{lay.boxes.shape[0]} box tuples x {symmetries} symmetries, {lay.size:,} weights",
                f"trained {meta['games']:,} games, {meta['moves']:,} moves"]

    # --- training (Trains) ---------------------------------------------------------------------------
    @classmethod
    def default_episodes(cls, settings, game: str) -> int:
        return settings.agent_params(GAME.id, "ntuple").games

    def default_path(self) -> Path:
        return self.data_dir / file_name(self.rules.rows, self.rules.cols)

    def load(self, path: Path) -> bool:
        rows, cols = self.rules.rows, self.rules.cols
        got = self._read(Path(path), rows, cols, "the network before it plays")
        if got is None:
            return False
        self._nets[(rows, cols)] = (got[0], got[1], f"loaded ({Path(path).name})")
        return True

    def measure(self, net: Network) -> dict[str, float]:
        """The learning curve's figures for a network of this board."""
        if net.layout.n_lines <= MAX_LINES:
            share, decisive = optimal_share(net, self.data_dir)
            return {"optimal moves": share, "optimal where it matters": decisive}
        search = self.settings.with_agent("alpha-beta", game=GAME.id, position_budget=CURVE_POSITIONS)
        return {"wins against greedy": wins_against(net, CURVE_GAMES, TEST_SEED, self.settings),
                "wins against alpha-beta": wins_against(net, CURVE_SEARCH_GAMES, TEST_SEED, search, "alpha-beta")}

    def resumed_at(self, episodes: int) -> int:
        """The games done of a stopped run of `episodes` games whose checkpoint is the network it plays (train
        goes on from there); 0 where it starts afresh."""
        run = self._net(self.rules.rows, self.rules.cols)[1].get("run", (0, 0))
        return int(run[1]) if run[0] == episodes and 0 < run[1] < episodes else 0

    def train(self, episodes: int, rng, progress=None, from_scratch: bool = False, stop=None, checkpoint=None,
              watch=None, jobs: int = 1) -> None:
        """TD(0) self-play for `episodes` games on this board, on `jobs` threads sharing the weights (Hogwild:
        the compiled loop lets go of the interpreter lock, each thread its own games and rng);
        checkpoint(done, figures) at CURVE_POINTS points with the curve's figures, watch(state) with a
        position of a greedy game of the network as it is. A run of N games resumes where a saved unfinished
        run of N games stopped (its checkpoint: the same command goes on)."""
        rows, cols = self.rules.rows, self.rules.cols
        done = 0 if from_scratch else self.resumed_at(episodes)  # (a stopped run of as many goes on from there)
        net, meta, _ = self._net(rows, cols)
        net = Network(rows, cols, None if from_scratch else np.array(net.weights))
        meta = {"games": 0, "moves": 0} if from_scratch else dict(meta)
        lay, k = net.layout, kernels()
        jobs = max(1, int(jobs))
        per_call = max(1, CHUNK_MOVES // lay.n_lines) * jobs
        marks = sorted({max(1, round(episodes * (i + 1) / CURVE_POINTS)) for i in range(CURVE_POINTS)})
        pool = ThreadPoolExecutor(jobs, thread_name_prefix="dots-td") if jobs > 1 else None
        rngs = rng.spawn(jobs) if pool is not None else None  # (each thread its own)

        def play(games: int, r) -> int:
            return int(k.self_play(net.args(), games, self.rate, self.epsilon, lay.n_lines, lay.box_lines,
                                   lay.line_boxes, r, self.openings, self.sparring))

        try:
            meta["run"] = (episodes, done)
            if progress is not None and done:
                progress(done)
            initial = None if done else Network(rows, cols, np.array(net.weights))  # (measured after the first
            #                                                       games: the bar moves within seconds)
            while done < episodes and not (stop is not None and stop.is_set()):
                games = min(per_call, episodes - done, next(m for m in marks if m > done) - done)
                if pool is None:
                    played = [play(games, rng)]
                else:
                    shares = [games // jobs + (j < games % jobs) for j in range(jobs)]
                    played = list(pool.map(play, [n for n in shares if n], rngs))
                done += games
                if min(played) < 0:  # (a thread's TD error ran away: the kernel stopped there)
                    raise TrainingDiverged(f"the network's values ran away after {done:,} games; lower the "
                                           f"learning rate ([dots.ntuple] {self.rate_setting})")
                meta["games"] += games
                meta["moves"] += sum(played)
                meta["run"] = (episodes, done)
                if progress is not None:
                    progress(done)
                if checkpoint is not None and initial is not None:
                    checkpoint(0, self.measure(initial))
                    initial = None
                if done in marks:
                    if checkpoint is not None:
                        self._nets[(rows, cols)] = (net, meta, "training")
                        checkpoint(done, self.measure(net))
                    if watch is not None:
                        watch(self._shown_game(net, rng))
        finally:
            if pool is not None:
                pool.shutdown()
        self._nets[(rows, cols)] = (net, meta, "trained (unsaved)")

    def _shown_game(self, net: Network, rng) -> DotsState:
        """A position part way through a game the network plays against itself, for a screen to show."""
        rules = DotsRules(net.layout.rows, net.layout.cols)
        state = rules.new_state(rng)
        for _ in range(int(rng.integers(net.layout.n_lines // 3, net.layout.n_lines))):
            state = rules.step(state, int(np.argmax(net.move_values(state.lines))), rng)
        return state

    def save(self, path: Path | None = None) -> bool:
        path = Path(path) if path else self.default_path()
        net, meta, source = self._net(self.rules.rows, self.rules.cols)
        if not np.isfinite(net.weights).all():
            notice(f"{path}: not saved: the network holds values that are not numbers; the previous file is unchanged")
            return False
        ok = save_npz(path, FORMAT_VERSION, weights=net.weights.astype(np.float32), tuples=net.layout.tuples,
                      boxes=net.layout.boxes,
                      games=np.array(meta["games"]), moves=np.array(meta["moves"]),
                      run=np.array(meta.get("run", (0, 0))))
        if ok:
            self._nets[(self.rules.rows, self.rules.cols)] = (net, meta, f"trained ({path.name})")
        return ok


def _warm_up(first_move: bool) -> list:
    """The network's kernels (its values, a move's, a batch's choices) first; then the learner's self-play."""
    net = Network(2, 2)
    steps = [lambda: net.move_values(0), lambda: net.choices(np.zeros(1, np.int64)),
             lambda: net.values(np.zeros(1, np.int64))]
    if not first_move:
        lay = net.layout
        steps.append(lambda: kernels().self_play(net.args(), 1, 0.1, 0.1, lay.n_lines, lay.box_lines,
                                                 lay.line_boxes, np.random.default_rng(0), 0, 0.5))
    return steps


declare_warm_up("dots", _warm_up, order=10)
