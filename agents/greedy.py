"""Greedy baselines: the move with the best immediate result, per game."""
from __future__ import annotations

from agents.base import best_action, register
from agents.search_tree import one_ply
from arcade.games.dots import line_gains
from arcade.games.match3 import POINTS_PER_GEM, apply_swap, find_matches, resolve
from arcade.games.twenty48 import move_all


@register("greedy", ("2048",), "the move with the largest immediate score gain (ties: up, down, left, right)",
          order=60, about="It looks one move ahead and no further: the move that merges the most right now. It "
                          "never considers where the new tile will land.", title="Greedy: best next score")
class Greedy2048:
    """The direction with the largest immediate score (explain: the score after each direction)."""

    name = "greedy"

    def __init__(self, rules, settings):
        self.rules = rules

    def explain(self, state) -> dict[int, float]:
        """{direction: the score right after it}."""
        _, gains, legal = move_all(state.board[None])
        return {d: float(state.score + gains[0, d]) for d in range(4) if legal[0, d]}

    def act(self, state, rng=None) -> int:
        return best_action(self.explain(state))

    def tree(self, state, rng=None) -> dict:
        """Its one ply: each move a leaf worth the score right after it (explain's)."""
        return one_ply(self.explain(state), meaning="the score right after the move")

    def value_legend(self, mover: str) -> str:
        return "The numbers: the score right after each move (what greedy maximises)."


@register("greedy", ("dots",), "complete a box when it can, else avoid giving a box's third side, else random",
          order=60, about="It takes every box it can. Otherwise it draws a line that does not give the opponent "
                          "a box (no box's third side), and only when none is left a random one. It never gives "
                          "boxes away on purpose, so it loses the long-chain endgame.",
                          title="Greedy: take boxes, give none")
class GreedyDots:
    """Takes a box when it can; else a line that gives no box away; else any line (at random)."""

    name = "greedy"

    def __init__(self, rules, settings):
        self.rules = rules

    def explain(self, state) -> dict[int, float]:
        """{line: its own score}: the boxes it completes; else 0 for a safe line, -1 for one that hands
        the opponent a box (a box's third side)."""
        line_boxes = state.board.line_boxes
        out = {}
        for a, g in line_gains(state).items():
            after = state.lines | 1 << a
            out[a] = float(g) if g else (-1.0 if any((after & m).bit_count() == 3 for _, m in line_boxes[a]) else 0.0)
        return out

    def tree(self, state, rng=None) -> dict:
        """Its one ply: each line a leaf worth greedy's own score of it (explain's)."""
        return one_ply(self.explain(state), meaning="boxes it completes; 0 safe; -1 gives a box away")

    def value_legend(self, mover: str) -> str:
        return ("The numbers: greedy's own score: boxes the line completes; 0 a safe line; -1 a line that "
                "hands the opponent a box.")

    def act(self, state, rng):
        """The first line that takes the most boxes; else a random safe line; else a random line."""
        values = self.explain(state)
        free = list(values)
        best = max(values.values())
        if best > 0:
            return next(a for a in free if values[a] == best)
        pool = [a for a in free if values[a] == 0] or free
        return pool[int(rng.integers(len(pool)))]


class _Match3Greedy:
    """Shared by the two match-3 greedy agents: score every legal swap, take the best.

    Ties are broken at random: taking the first in reading order would favour swaps at the top,
    whose clears rarely cascade, and make greedy worse than random."""

    def __init__(self, rules, settings):
        self.rules = rules

    def swap_score(self, state, swap) -> float:
        """The points this agent credits a legal swap with."""
        raise NotImplementedError

    def explain(self, state) -> dict[tuple, float]:
        return {tuple(sw): float(self.swap_score(state, sw)) for sw in state.swaps().tolist()}

    def act(self, state, rng):
        return best_action(self.explain(state), rng)

    def tree(self, state, rng=None) -> dict:
        """Its one ply: each swap a leaf worth the points it credits the swap with (explain's)."""
        return one_ply(self.explain(state), meaning=f"points this turn, as {self.name} counts them")

    def value_legend(self, mover: str) -> str:
        return f"The numbers: the points each swap scores this turn, as {self.name} counts them."


@register("greedy", ("match3",), "the swap whose own lines clear the most gems (no cascades)", order=60,
          about="It scores each legal swap by the gems its own lines clear and takes the best, ties at random. "
                "It ignores the cascades that follow.", title="Greedy: biggest clear")
class GreedyMatch3(_Match3Greedy):
    """The swap whose own lines clear the most gems (explain: those points per swap)."""

    name = "greedy"

    def swap_score(self, state, swap) -> float:
        return POINTS_PER_GEM * int(find_matches(apply_swap(state.board, swap)).sum())


@register("greedy-cascade", ("match3",),
          "the swap with the largest turn score counting the cascades the known gems make", order=30, process=True,
          about="It plays out each legal swap with the gems it can see, cascades included, and takes the one "
                "with the largest turn score. New gems falling in are unknown to it, so it counts none.",
                title="Greedy with cascades")
class GreedyCascade(_Match3Greedy):
    """The swap with the largest turn score, cascades of the known gems included."""

    name = "greedy-cascade"

    def swap_score(self, state, swap) -> float:
        # unknown refills are treated as empty cells, which never match
        return sum(st.points for st in resolve(apply_swap(state.board, swap), state.colours, None))
