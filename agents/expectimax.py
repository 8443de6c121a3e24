"""The course's depth-3 expectimax for 2048: player, computer, player, leaf valued by the game score.

Root: max over legal moves. Level 1: the computer, an average over every empty
cell of placing a 2 (or the 2/4 mix when spawn_four_probability > 0). Level 2:
the player again, max over legal moves. Level 3: the leaf, valued by the game
score (the state's score plus what the two moves gained). A player node with no
legal move is a leaf. Ties go to the first of up, down, left, right.

Each level is one batched numpy call over the whole frontier, not a recursion.
"""
from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from agents.base import best_action, register, COURSE
from agents.search_tree import edge, node
from arcade.games.twenty48 import (DOWN, LEFT, RIGHT, UP, line_tables, line_tables_apply, max_gain, move_all,
                                   spawn_children, State2048)


@functools.lru_cache(maxsize=None)
def _placement_deltas(size: int) -> np.ndarray:
    """For each cell, how a tile of exponent 1 there changes the (columns, rows) line codes: cells x 2s."""
    weights = 16 ** np.arange(size)
    deltas = np.zeros((size * size, 2 * size), dtype=np.int64)
    for cell in range(size * size):
        row, col = divmod(cell, size)
        deltas[cell, col] = weights[row]  # column `col` gains the tile at position `row`
        deltas[cell, size + row] = weights[col]
    return deltas


class ListTables(NamedTuple):
    """The line tables as Python lists: for one board, list indexing beats numpy's per-call cost."""

    new_start: list[int]  # code -> the code slid toward index 0
    new_end: list[int]  # code -> the code slid toward the end
    gain_start: list[int]
    gain_end: list[int]
    spread: list[list[int]]  # spread[k][code]: line k's cells placed into the other orientation's codes,
    #                          packed 16 bits apart, so a transpose is one lookup per line
    empty: list[tuple[int, ...]]  # code -> the empty positions of the line


class RootChildren(NamedTuple):
    """The root's legal moves on line codes."""

    dirs: list[int]  # the legal directions
    gains: list[int]  # the score each gains
    codes: np.ndarray  # per direction: the child's (columns, rows) line codes
    parent: np.ndarray  # per empty cell of every child: its direction's index in dirs
    cell: np.ndarray  # and the cell (r * size + c)


@functools.lru_cache(maxsize=None)
def _python_tables(size: int) -> ListTables:
    t = line_tables(size)
    digits = t.rows.astype(np.int64)  # code -> its cells
    spread = [((digits << (4 * k)) << (16 * np.arange(size))).sum(axis=1).tolist() for k in range(size)]
    empty = [tuple(np.flatnonzero(row == 0).tolist()) for row in t.rows]
    return ListTables(t.new[:, 0].tolist(), t.new[:, 1].tolist(), t.gain[:, 0].tolist(), t.gain[:, 1].tolist(),
                      spread, empty)


def _transpose_codes(codes: list[int], spread: list[list[int]]) -> list[int]:
    """Line codes of the other orientation (rows <-> columns) of the same board."""
    packed = 0
    for k, code in enumerate(codes):
        packed |= spread[k][code]
    return [(packed >> (16 * j)) & 0xFFFF for j in range(len(codes))]


def _root_by_codes(board: np.ndarray) -> RootChildren:
    s = board.shape[0]
    new_start, new_end, gain_start, gain_end, spread, empty = _python_tables(s)
    rows = [sum(v << (4 * c) for c, v in enumerate(r)) for r in board.tolist()]
    cols = _transpose_codes(rows, spread)
    dirs, gains, codes, parent, cell = [], [], [], [], []
    plans = ((UP, cols, new_start, gain_start), (DOWN, cols, new_end, gain_end),
             (LEFT, rows, new_start, gain_start), (RIGHT, rows, new_end, gain_end))
    for d, lines, new, gain in plans:
        moved = [new[x] for x in lines]
        if moved == lines:
            continue
        if d in (UP, DOWN):
            after_cols, after_rows = moved, _transpose_codes(moved, spread)
        else:
            after_cols, after_rows = _transpose_codes(moved, spread), moved
        for r, code in enumerate(after_rows):
            for c in empty[code]:
                parent.append(len(dirs))
                cell.append(r * s + c)
        dirs.append(d)
        gains.append(sum(gain[x] for x in lines))
        codes.append(after_cols + after_rows)
    return RootChildren(dirs, gains, np.array(codes, dtype=np.int64), np.array(parent, dtype=np.intp),
                        np.array(cell, dtype=np.intp))


def placement_text(before: np.ndarray, after: np.ndarray) -> str:
    """The computer's tile as text: '2 at row 1, column 3' (rows and columns from 1)."""
    r, c = (int(x) for x in np.argwhere(before != after)[0])
    return f"{2 ** int(after[r, c])} at row {r + 1}, column {c + 1}"


@register("expectimax-3", ("2048",), "the course's depth-3 expectimax: max, chance, max, game score at the leaves",
          order=20, process=True,
          about="A depth-3 game tree: its move (max), the computer's tile on every empty cell (chance, each "
                "equally likely), its best next move (max), and the game score at the leaves. Each move "
                "takes the largest expected score.", group=COURSE, title="Expectimax, 3 plies (the course's)")
class Expectimax3:
    """The course's depth-3 expectimax, exactly: act(state) -> the direction (0-3) of the best expected
    score; explain(state) -> {direction: expected score}. Deterministic (ties: up, down, left, right)."""

    name = "expectimax-3"

    def __init__(self, rules, settings):
        self.rules = rules
        self._figures: dict = {}
        if rules.size <= 4:  # the line tables are built with the agent, not inside its first decision
            line_tables(rules.size)
            _python_tables(rules.size)
            _placement_deltas(rules.size)

    def explain(self, state) -> dict[int, float]:
        """Expected leaf score of each legal root move."""
        board = state.board
        if line_tables_apply(board[None]):
            dirs, gains, codes, parent, cell = _root_by_codes(board)
            if not dirs:
                return {}
            expected = self._expected_best_gain_by_codes(codes, parent, cell, board.shape[0])
        else:
            after, all_gains, legal = move_all(board[None])
            dirs = [int(d) for d in np.flatnonzero(legal[0])]
            if not dirs:
                return {}
            gains = all_gains[0, dirs]
            kids, parent, prob = spawn_children(after[0, dirs], self.rules.spawn_four_probability)
            # Level 2 + leaf: the player's best second move adds its gain (0 if it has none: a leaf).
            expected = np.bincount(parent, weights=prob * max_gain(kids), minlength=len(dirs))
        values = state.score + np.asarray(gains) + expected
        spawns = 2 if 0 < self.rules.spawn_four_probability else 1
        self._figures = {"plies": 3, "positions": len(dirs) + len(parent) * spawns * 5}  # move, tile, 4 replies
        return {d: float(v) for d, v in zip(dirs, values, strict=True)}

    def figures(self) -> dict:
        """Of the last decision: plies searched and positions evaluated (root moves, tile placements,
        and the four replies to each)."""
        return dict(self._figures)

    def _expected_best_gain_by_codes(self, codes, parent, cell, s: int) -> np.ndarray:
        """Level 1 to the leaf without building the children: a placed tile changes one row code and
        one column code of its parent, so the children's line codes are the parent's plus a delta.
        The best second move's gain is the max over all four moves (an illegal move gains 0)."""
        t = line_tables(s)
        n = len(codes)
        empties = np.bincount(parent, minlength=n)
        parent_codes, deltas = codes[parent], _placement_deltas(s)[cell]
        expected = np.zeros(n)
        for exponent, p in ((1, 1.0 - self.rules.spawn_four_probability), (2, self.rules.spawn_four_probability)):
            if p <= 0:
                continue
            gains = t.gain[parent_codes + exponent * deltas]  # K x 2s lines x 2 directions
            best = gains.reshape(-1, 2, s, 2).sum(axis=2).reshape(-1, 4).max(axis=1)
            # sum before dividing, so equal subtrees give bit-equal values and ties break by direction order
            expected += p * np.bincount(parent, weights=best, minlength=n) / empties
        return expected

    def act(self, state, rng=None) -> int:
        return best_action(self.explain(state))  # ties: first of up, down, left, right

    def tree(self, state, rng=None) -> dict:
        """The whole depth-3 tree, node by node, by the rules' own slide and spawn (not the line-code shortcut
        explain takes): max over the moves, chance over every tile on every empty cell, max over the replies,
        the game score at the leaves. Its root's children carry explain's own numbers (the same expectation
        summed in explain's order, so the view and `v` agree to the last digit); agents.search_tree.check
        holds them to the mean of their outcomes."""
        board = state.board
        after, gains, legal = move_all(board[None])
        moves = []
        for d in np.flatnonzero(legal[0]):
            d = int(d)
            score = state.score + int(gains[0, d])
            kids, _, probs = spawn_children(after[0, d][None], self.rules.spawn_four_probability)
            replies_after, replies_gain, replies_legal = move_all(kids)
            outcomes = []
            for k, (kid, p) in enumerate(zip(kids, probs, strict=True)):
                replies = [edge(node("leaf", score + int(replies_gain[k, d2])), action=int(d2))
                           for d2 in np.flatnonzero(replies_legal[k])]
                reply = node("max", max(e["node"]["value"] for e in replies), replies) if replies \
                    else node("leaf", score)  # no move left: the game ends here, at its score
                outcomes.append(edge(reply, outcome=placement_text(after[0, d], kid), p=float(p), state=State2048(kid, score)))
            value = sum(e["p"] * e["node"]["value"] for e in outcomes) if outcomes else float(score)
            moves.append(edge(node("chance", value, outcomes) if outcomes else node("leaf", score), action=d))
        explained = self.explain(state)
        for e in moves:
            e["node"]["value"] = explained[e["action"]]
        root_value = max((e["node"]["value"] for e in moves), default=float(state.score))
        return node("max", root_value, moves) if moves else node("leaf", state.score)

    def value_legend(self, mover: str) -> str:
        return "The numbers: the expected game score three plies ahead (move, random tile, best move)."
