"""Exact dots and boxes: retrograde minimax over every line state, both players optimal.

M(s) is the best final box margin the player to move can force from s, over
the boxes still open: drawing line a that completes g boxes is worth g + M(s|a)
(the same player moves again) or, with g = 0, -M(s|a) (the other player moves).
States are solved layer by layer, from the full board back to the empty one,
each layer as numpy batches. 2x2 and 2x3 solve in memory in moments; 3x3 (2**24
states) ships built (assets/dots_solver_3x3.npz, made by tools/build_dots_table.py);
without it, it is solved once and cached in the data folder.
"""
from __future__ import annotations

import threading
from pathlib import Path

import numpy as np

from agents.base import best_action, register, STRONGEST
from agents.engines.progress import report_progress
from agents.search_tree import edge, node
from arcade.games.dots import Board, box_counts, line_gains
from arcade.foundation.storage import ASSETS, load_npz, save_npz, set_aside

FORMAT_VERSION = 1
CHUNK = 1 << 19  # states per batch: bounds memory on 3x3
MAX_LINES = 24  # 3x3 boxes: 2**24 states, 16 MB
_LOCK = threading.Lock()
_SOLVED: dict[tuple[int, int], np.ndarray] = {}
SHIPPED = ASSETS / "dots_solver_3x3.npz"


def retrograde(rows: int, cols: int, progress=None) -> np.ndarray:
    """M for every line state (int8), indexed by the state. progress(layers done) after each layer;
    report_progress (the screen's bar, the CLI's stderr) follows the states done, chunk by chunk."""
    board = Board(rows, cols)
    n_lines = board.n_lines
    counts = box_counts(rows, cols)
    codes = np.arange(1 << n_lines, dtype=np.int32)
    layers = np.bitwise_count(codes)
    margin = np.zeros(1 << n_lines, dtype=np.int8)
    bits = (1 << np.arange(n_lines, dtype=np.int32))[None, :]
    done, task = 0, f"perfect-play table of {rows}x{cols}: {1 << n_lines:,} line states"
    for k in range(n_lines - 1, -1, -1):
        layer = np.flatnonzero(layers == k).astype(np.int32)
        for start in range(0, layer.size, CHUNK):
            report_progress(task, done + start, 1 << n_lines, f"layer {n_lines - k} of {n_lines}")
            s = layer[start:start + CHUNK, None]
            nxt = s | bits
            free = nxt != s
            g = counts[nxt] - counts[s]
            value = np.where(g > 0, g + margin[nxt], -margin[nxt])
            margin[s[:, 0]] = np.where(free, value, -127).max(axis=1)
        done += layer.size
        if progress:
            progress(n_lines - k)
    report_progress(task, 1 << n_lines, 1 << n_lines)
    return margin


def margins(rows: int, cols: int, data_dir: Path | None = None) -> np.ndarray:
    """Solved margins, from memory, the disk cache (3x3), or a fresh solve."""
    key = (rows, cols)
    with _LOCK:
        if key in _SOLVED:
            return _SOLVED[key]
        cache = Path(data_dir) / f"dots_solver_{rows}x{cols}.npz" if data_dir and rows * cols > 6 else None
        arrays = load_npz(cache, FORMAT_VERSION, required=("margin",), then="solving it again") if cache else None
        expected = 1 << Board(rows, cols).n_lines
        if arrays is None and (rows, cols) == (3, 3) and SHIPPED.exists():  # the table that ships: read only
            shipped = load_npz(SHIPPED, FORMAT_VERSION, required=("margin",), then="solving it again")
            if shipped is not None and shipped["margin"].shape == (expected,):
                margin = shipped["margin"]
                margin.flags.writeable = False
                _SOLVED[key] = margin
                return margin
        if arrays is not None and arrays["margin"].shape == (expected,):
            margin = arrays["margin"]
        else:
            if arrays is not None:  # a readable file of the wrong size: kept aside, never overwritten unseen
                set_aside(cache, f"{arrays['margin'].size} margins, expected {expected} for {rows}x{cols}",
                          "solving it again")
            margin = retrograde(rows, cols)
            if cache:
                save_npz(cache, FORMAT_VERSION, margin=margin)
        margin.flags.writeable = False
        _SOLVED[key] = margin
        return margin


def move_values(state, margin: np.ndarray) -> dict[int, int]:
    """The margin the mover can force after each free line."""
    out = {}
    for a, g in line_gains(state).items():
        t = state.lines | 1 << a
        out[a] = g + int(margin[t]) if g > 0 else -int(margin[t])
    return out


def _solved_tree(rules, state, margin: np.ndarray, root_mover: int, taken: int, depth: int) -> dict:
    """The node of `state` for the root's mover, who has taken `taken` boxes more than the other so far."""
    sign = 1 if state.mover == root_mover else -1
    values = move_values(state, margin)
    if not values:
        return node("leaf", taken)
    gains, best = line_gains(state), max(values.values())
    edges, followed = [], False
    for line, v in values.items():
        value = taken + sign * v
        if depth > 1 or (v == best and not followed):
            followed = followed or v == best
            child = _solved_tree(rules, rules.step(state, line, None), margin, root_mover,
                                 taken + sign * gains[line], depth - 1)
        else:
            after = rules.step(state, line, None)
            left = after.board.n_lines - after.lines.bit_count()
            child = node("max" if after.mover == root_mover else "min", value, more=left) if left \
                else node("leaf", value)
        child["value"] = float(value)
        edges.append(edge(child, action=line))
    return node("max" if sign > 0 else "min", taken + sign * best, edges)


@register("solver", ("dots",), "exact minimax by retrograde analysis over all line states (both players optimal)",
          order=10, process=True,
          about="Retrograde analysis: starting from the full board and working back one line at a time, it "
                "computes for every one of the 2^L line states the box margin the player to move can force. "
                "Then every move is perfect play for both sides. On 3x3 that is 16 million states; that table "
                "ships with the arcade.", group=STRONGEST, title="Exact solver (perfect play)")
class DotsSolver:
    """Perfect play on boards up to 3x3 from the retrograde table (built once, cached in the data folder)."""

    name = "solver"

    def __init__(self, rules, settings):
        self.rules = rules
        self.data_dir = settings.data_dir
        margins(rules.rows, rules.cols, self.data_dir)  # built (or loaded) with the agent: ahead of its first move

    @classmethod
    def cannot_play(cls, rules) -> str | None:
        n_lines = Board(rules.rows, rules.cols).n_lines
        if n_lines > MAX_LINES:
            return (f"solver plays boards up to 3x3 boxes: a {rules.rows}x{rules.cols} board's 2^{n_lines} line "
                    "states do not fit a table (alpha-beta plays it)")
        return None

    def value(self, state) -> int:
        """The margin the player to move can force over the remaining boxes."""
        return int(margins(state.rows, state.cols, self.data_dir)[state.lines])

    def explain(self, state) -> dict[int, float]:
        """{line: the box margin the mover can force over the boxes left, after drawing it}."""
        return {a: float(v) for a, v in move_values(state, margins(state.rows, state.cols, self.data_dir)).items()}

    def act(self, state, rng=None) -> int:
        return best_action(self.explain(state))  # ties: the lowest line

    TREE_DEPTH = 2  # every line and every reply this deep; below, the principal variation alone

    def tree(self, state, rng=None) -> dict:
        """The solved tree of `state`: every line and reply (TREE_DEPTH plies, a box completed keeps the
        mover), then both sides' best to the full board; each node's value the box margin the root's mover
        ends with (the boxes taken on the way plus the margin forced from there), so a node is the max or the
        min of its children by who moves there."""
        return _solved_tree(self.rules, state, margins(state.rows, state.cols, self.data_dir), state.mover, 0,
                            self.TREE_DEPTH)

    def value_legend(self, mover: str) -> str:
        return (f"The numbers: the box margin {mover} can force over the boxes still open, after drawing "
                "that line, with both sides playing perfectly.")
