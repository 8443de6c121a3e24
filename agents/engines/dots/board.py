"""A dots board for searches: drawn sides per box kept as lines are drawn and undone, and the
chain analysis the strong agents use (captures that are safe to take, double-dealing, and the
components of a loony endgame).

Works on any board of arcade.games.dots (line bits as the course's layout). Python ints and
lists on purpose: a search touches one line at a time, where numpy's per-call cost dominates. The compiled
kernels take the board as two arrays (board_arrays).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from arcade.games.dots import Board


@dataclass(frozen=True)
class Geometry:
    """Which boxes each line borders and which lines bound each box."""

    rows: int
    cols: int
    n_lines: int
    n_boxes: int
    line_boxes: tuple[tuple[int, ...], ...]  # per line: the one or two boxes it is a side of
    box_lines: tuple[tuple[int, ...], ...]  # per box: its four lines
    centre_first: tuple[int, ...]  # lines from the middle of the board outward (a move-ordering tie-break)
    centre_rank: tuple[int, ...]  # per line: its place in centre_first


@functools.lru_cache(maxsize=None)
def geometry(rows: int, cols: int) -> Geometry:
    board = Board(rows, cols)
    masks = board.box_masks()
    box_lines = tuple(tuple(b for b in range(board.n_lines) if (m >> b) & 1) for m in masks)
    line_boxes = tuple(tuple(i for i, m in enumerate(masks) if (m >> bit) & 1) for bit in range(board.n_lines))

    def distance(bit):
        (r0, c0), (r1, c1) = board.line_ends(bit)
        return abs((r0 + r1) / 2 - rows / 2) + abs((c0 + c1) / 2 - cols / 2)

    order = tuple(sorted(range(board.n_lines), key=lambda b: (distance(b), b)))
    rank = tuple(order.index(b) for b in range(board.n_lines))
    return Geometry(rows, cols, board.n_lines, board.n_boxes, line_boxes, box_lines, order, rank)


@functools.lru_cache(maxsize=None)
def board_arrays(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """The compiled kernels' view of a board (read-only): box_lines (boxes, 4), each box's lines, and line_boxes
    (lines, 2), each line's boxes (-1: none)."""
    geo = geometry(rows, cols)
    line_boxes = np.full((geo.n_lines, 2), -1, np.int64)
    for line, boxes in enumerate(geo.line_boxes):
        line_boxes[line, :len(boxes)] = boxes
    box_lines = np.array(geo.box_lines, np.int64)
    box_lines.flags.writeable = line_boxes.flags.writeable = False
    return box_lines, line_boxes


class Position:
    """Line bits plus the drawn sides of every box; draw() and undo() keep both in step."""

    __slots__ = ("geo", "lines", "sides")

    def __init__(self, geo: Geometry, lines: int):
        self.geo = geo
        self.lines = lines
        self.sides = [sum((lines >> b) & 1 for b in box) for box in geo.box_lines]

    def draw(self, line: int) -> int:
        """Draw a free line; the boxes it completes."""
        self.lines |= 1 << line
        gained = 0
        sides = self.sides
        for box in self.geo.line_boxes[line]:
            sides[box] += 1
            if sides[box] == 4:
                gained += 1
        return gained

    def play(self, line: int, mover: int, scores: list[int]) -> int:
        """Draw `line` for `mover`: the boxes it completes go to scores[mover]; returns who moves next."""
        g = self.draw(line)
        if g:
            scores[mover] += g
            return mover
        return 1 - mover

    def undo(self, line: int) -> None:
        self.lines &= ~(1 << line)
        for box in self.geo.line_boxes[line]:
            self.sides[box] -= 1

    def free_lines(self) -> list[int]:
        lines = self.lines
        return [b for b in range(self.geo.n_lines) if not (lines >> b) & 1]

    def other_box(self, line: int, box: int) -> int | None:
        boxes = self.geo.line_boxes[line]
        return next((b for b in boxes if b != box), None)

    def free_side(self, box: int, but: int = -1) -> int | None:
        """A free line of `box` other than `but` (None if there is none)."""
        lines = self.lines
        return next((b for b in self.geo.box_lines[box] if b != but and not (lines >> b) & 1), None)

    def walk(self, box: int, line: int) -> tuple[list[int], list[int], bool]:
        """The boxes a player captures one after another from the capturable `box` by drawing its free
        `line` first: (boxes in order, the lines drawn, whether the run ends in another capturable box
        (an opened loop) rather than at the edge or a box that stays open)."""
        boxes, lines_drawn = [box], [line]
        cur, prev = self.other_box(line, box), line
        while cur is not None and self.sides[cur] == 2 and cur not in boxes:
            boxes.append(cur)
            nxt = self.free_side(cur, prev)
            lines_drawn.append(nxt)
            cur, prev = self.other_box(nxt, cur), nxt
        both_open = cur is not None and self.sides[cur] == 3 and cur not in boxes
        if both_open:
            boxes.append(cur)
        return boxes, lines_drawn, both_open

    def capture_choices(self) -> list[int] | None:
        """When a box can be taken, the only moves worth searching, or None to search them all.

        - a line completing two boxes, or a box whose taking gives no other box a third side: take it;
        - a run of 3 or more (5 or more in an opened loop): take one box (the decision comes at its end);
        - a run of exactly 2: take it, or double-deal (draw the far line and hand both over);
        - an opened loop of exactly 4: take one, or draw the middle line and hand over two pairs.
        Other cases (e.g. 3 boxes with both ends open): None, so the search looks at every line.
        """
        sides, geo = self.sides, self.geo
        runs = []
        for box in range(geo.n_boxes):
            if sides[box] != 3:
                continue
            line = self.free_side(box)
            other = self.other_box(line, box)
            if other is None or sides[other] != 2:  # a double box, or taking it opens nothing
                return [line]
            runs.append((box, line))
        if not runs:
            return None
        first = None
        for box, line in runs:
            boxes, drawn, both_open = self.walk(box, line)
            n = len(boxes)
            if (not both_open and n >= 3) or (both_open and n >= 5):
                return [line]
            first = first or (line, drawn, n, both_open)
        line, drawn, n, both_open = first
        if (not both_open and n == 2) or (both_open and n == 4):
            return [line, drawn[1]]  # the far line of a 2-run, the middle line of a 4-loop
        return None

    def safe_run(self) -> int:
        """How many safe lines can still be drawn one after another, taken centre first (a quick
        estimate of the safe moves left; who runs out of them first must open a chain)."""
        lines, sides, geo = self.lines, self.sides, self.geo
        drawn = []
        for line in geo.centre_first:
            if not (lines >> line) & 1 and all(sides[b] < 2 for b in geo.line_boxes[line]):
                self.draw(line)
                drawn.append(line)
        for line in reversed(drawn):
            self.undo(line)
        return len(drawn)

    def loony_components(self) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """If every open box has exactly two sides drawn (no capture, no safe line): the lengths of the
        chains (both ends at the edge) and loops the open boxes form; None otherwise."""
        sides, geo, lines = self.sides, self.geo, self.lines
        open_boxes = [b for b in range(geo.n_boxes) if sides[b] != 4]
        if any(sides[b] != 2 for b in open_boxes):
            return None
        seen: set[int] = set()
        chains, loops = [], []
        for start in open_boxes:
            if start in seen:
                continue
            # walk both ways from `start` through free lines
            component = {start}
            ends_at_edge = 0
            for first in [b for b in geo.box_lines[start] if not (lines >> b) & 1]:
                cur, prev = self.other_box(first, start), first
                while cur is not None and cur not in component:
                    component.add(cur)
                    prev = self.free_side(cur, prev)
                    cur = self.other_box(prev, cur)
                if cur is None:
                    ends_at_edge += 1
            seen |= component
            (chains if ends_at_edge else loops).append(len(component))
        return tuple(sorted(chains)), tuple(sorted(loops))


def quiet_position(rows: int, cols: int, drawn: int, rng) -> int:
    """`drawn` random lines, none giving a box a third side (a mid-game position with no capture pending), as
    line bits; fewer where no safe line is left. For benchmarks and tests."""
    pos = Position(geometry(rows, cols), 0)
    for line in rng.permutation(pos.geo.n_lines):
        if pos.lines.bit_count() == drawn:
            break
        if max(pos.sides[b] for b in pos.geo.line_boxes[int(line)]) < 2:
            pos.draw(int(line))
    return pos.lines


@functools.lru_cache(maxsize=1 << 16)
def loony_value(chains: tuple[int, ...], loops: tuple[int, ...]) -> int:
    """The box margin the player to move gets when they must open one of these long chains (>= 3)
    or loops (>= 4) and both sides play perfectly (Berlekamp's recursion): the opponent either takes
    the whole component and moves next, or takes all but 2 (chain) / 4 (loop) and hands those back."""
    if not chains and not loops:
        return 0
    best = None
    for kind, parts in ((0, chains), (1, loops)):
        for i, n in enumerate(parts):
            if i and parts[i - 1] == n:
                continue  # equal components are the same choice
            rest = parts[:i] + parts[i + 1:]
            after = loony_value(rest, loops) if kind == 0 else loony_value(chains, rest)
            kept = 2 if kind == 0 else 4
            value = min(-n - after, 2 * kept - n + after)
            best = value if best is None else max(best, value)
    return best


def simple_loony(chains: tuple[int, ...], loops: tuple[int, ...]) -> bool:
    """Components whose value loony_value gives exactly: chains of 3 or more, loops of 4 or more."""
    return all(n >= 3 for n in chains) and all(n >= 4 for n in loops)

