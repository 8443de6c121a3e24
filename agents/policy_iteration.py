"""The course's policy iteration for dots and boxes, against a uniformly random opponent.

Value and policy arrays over every line state (4096 on 2x2, 131072 on 2x3):
policy evaluation to convergence (vectorised Jacobi sweeps over all states at
once), then greedy improvement, until the policy is stable. V(s) is the
expected number of boxes the agent still collects from s with the agent to
move.

We model the opponent properly, where the course's notes do not: they average
over one opponent move and ignore the opponent's extra turns and boxes. Here,
when the agent's line completes no box, the random opponent moves; if its line
completes a box it moves again, so a second array W(s) holds the agent's
expected boxes from s with the opponent to move:
    Q(s, a) = g + V(s|a)            if the agent's line a completes g > 0 boxes
            = W(s|a)                 otherwise
    W(s)    = mean over free b of   W(s|b) if b completes a box, else V(s|b)
Every move adds a line, so the state graph is acyclic and each evaluation
converges exactly within L + 1 sweeps.
"""
from __future__ import annotations

import functools
import time
from pathlib import Path
from dataclasses import dataclass

import numpy as np

from agents.base import register, COURSE
from agents.search_tree import edge, node
from arcade.foundation.setting_fields import ranged
from arcade.games.dots import Board, transition_tables
from arcade.foundation.storage import load_npz, save_npz

MAX_LINES = 17  # 2x3; 3x3 (2**24 states x 24 lines) does not fit these tables


@dataclass(frozen=True)
class Solution:
    """Policy iteration's result, indexed by line state (an int of L bits)."""

    V: np.ndarray  # agent to move
    W: np.ndarray  # random opponent to move
    policy: np.ndarray  # best line per state (-1 on the full board)
    iterations: int  # improvement steps until stable
    sweeps: int  # evaluation sweeps in all
    seconds: float


def evaluate(policy: np.ndarray, nxt, gains, free, V=None, W=None, tol: float = 1e-9, max_sweeps: int = 1000):
    """Policy evaluation to convergence: returns (V, W, sweeps)."""
    n, n_lines = nxt.shape
    V = np.zeros(n) if V is None else V.copy()
    W = np.zeros(n) if W is None else W.copy()
    rows = np.arange(n)
    a = np.maximum(policy, 0)
    s_next, reward = nxt[rows, a], gains[rows, a].astype(np.float64)
    reward[policy < 0] = 0
    scored = gains > 0
    n_free = free.sum(axis=1)
    done = n_free == 0
    safe_free = np.maximum(n_free, 1)
    for sweep in range(1, max_sweeps + 1):
        V_new = reward + np.where(reward > 0, V[s_next], W[s_next])
        W_new = np.where(free, np.where(scored, W[nxt], V[nxt]), 0.0).sum(axis=1) / safe_free
        V_new[done] = W_new[done] = 0.0
        delta = max(np.abs(V_new - V).max(), np.abs(W_new - W).max())
        V, W = V_new, W_new
        if delta <= tol:
            return V, W, sweep
    return V, W, max_sweeps


def q_values(V, W, nxt, gains, free) -> np.ndarray:
    """Q of every (state, line) for the agent to move: boxes gained now plus V (it moves again) or W
    (the opponent moves) of the next state; -inf for drawn lines. Arrays as transition_tables gives."""
    q = gains + np.where(gains > 0, V[nxt], W[nxt])
    return np.where(free, q, -np.inf)


def improve(policy, V, W, nxt, gains, free) -> np.ndarray:
    """Greedy policy; a state keeps its action when that action is already among the best."""
    q = q_values(V, W, nxt, gains, free)
    best = q.max(axis=1)
    current = q[np.arange(len(policy)), np.maximum(policy, 0)]
    keep = (policy >= 0) & (current >= best - 1e-12)
    new = np.where(keep, policy, np.argmax(q, axis=1))
    return np.where(free.any(axis=1), new, -1)


@functools.lru_cache(maxsize=4)
def solve(rows: int = 2, cols: int = 2, tol: float = 1e-9) -> Solution:
    """Policy iteration on a rows x cols board (2x2 or 2x3) against a uniformly random opponent, from
    the policy 'the first free line', until the policy is stable; evaluation sweeps stop at `tol`.
    ValueError for larger boards (their tables do not fit)."""
    if Board(rows, cols).n_lines > MAX_LINES:  # before the tables: they would not fit
        raise ValueError(f"policy iteration covers 2x2 and 2x3 boards, not {rows}x{cols}")
    nxt, gains, free = transition_tables(rows, cols)
    t0 = time.perf_counter()
    policy = np.where(free.any(axis=1), np.argmax(free, axis=1), -1)  # the first free line
    V = W = None
    iterations = sweeps = 0
    while True:
        V, W, used = evaluate(policy, nxt, gains, free, V, W, tol)
        sweeps += used
        iterations += 1
        new = improve(policy, V, W, nxt, gains, free)
        if np.array_equal(new, policy):
            break
        policy = new
    for arr in (V, W, policy):
        arr.flags.writeable = False
    return Solution(V, W, policy, iterations, sweeps, time.perf_counter() - t0)


CACHE_FORMAT = 1


def solve_kept(rows: int, cols: int, tol: float, data_dir) -> Solution:
    """solve(rows, cols, tol), kept in `data_dir` (policy_iteration_RxC.npz) for boards that take seconds to
    solve (2x3), so a new process reads it at once; a file of another tolerance or shape is solved again."""
    key = (rows, cols, tol)
    if key in _SOLVED:
        return _SOLVED[key]
    if data_dir is None or (rows, cols) == (2, 2):  # (2x2 solves in moments)
        return _SOLVED.setdefault(key, solve(rows, cols, tol))
    path = Path(data_dir) / f"policy_iteration_{rows}x{cols}.npz"
    arrays = load_npz(path, CACHE_FORMAT, required=("V", "W", "policy", "tol", "runs"), then="solving it again")
    n = 1 << Board(rows, cols).n_lines
    if arrays is not None and float(arrays["tol"]) == tol and all(arrays[k].shape == (n,) for k in ("V", "W", "policy")):
        for k in ("V", "W", "policy"):
            arrays[k].flags.writeable = False
        iterations, sweeps = (int(x) for x in arrays["runs"])
        sol = Solution(arrays["V"], arrays["W"], arrays["policy"], iterations, sweeps, 0.0)
    else:
        sol = solve(rows, cols, tol)
        save_npz(path, CACHE_FORMAT, V=sol.V, W=sol.W, policy=sol.policy, tol=np.array(tol),
                 runs=np.array([sol.iterations, sol.sweeps]))
    return _SOLVED.setdefault(key, sol)


_SOLVED: dict[tuple, Solution] = {}  # (rows, cols, tol) -> its solution, in this process


def optimal_value(lines: int, rows: int = 2, cols: int = 2) -> float:
    """The course's getOptimalValue: expected boxes still to collect, agent to move."""
    return float(solve(rows, cols).V[lines])


def optimal_action(lines: int, rows: int = 2, cols: int = 2) -> int:
    """The course's getOptimalAction: the line to draw (-1 when none is left)."""
    return int(solve(rows, cols).policy[lines])


@dataclass(frozen=True)
class PolicyIterationParams:
    tolerance: float = ranged(0.0, 1.0, 1e-9)  # policy evaluation stops when no value moves more than this


@register("policy-iteration", ("dots",),
          "the course's policy iteration against a random opponent (2x2 and 2x3), opponent's extra turns modelled",
          order=20, process=True,
          about="Policy iteration over all 2^L line states, against an opponent who draws random lines: "
                "evaluate the current policy (the boxes it expects from each state), improve it greedily, "
                "repeat until it no longer changes. It plays best against random, not against a strong player.",
          params=PolicyIterationParams, group=COURSE,
          title="Policy iteration (the course's)")
class PolicyIterationAgent:
    """Plays the policy iteration solution of its board (2x2, 2x3); explain gives Q per free line."""

    name = "policy-iteration"

    def __init__(self, rules, settings):
        self.rules = rules
        self.tol = settings.agent_params(rules.game_id, "policy-iteration").tolerance
        self.data_dir = settings.data_dir
        self._last: Solution | None = None

    @classmethod
    def cannot_play(cls, rules) -> str | None:
        n_lines = Board(rules.rows, rules.cols).n_lines
        if n_lines > MAX_LINES:
            return (f"policy-iteration plays 2x2 and 2x3 boards only: a {rules.rows}x{rules.cols} board's "
                    f"2^{n_lines} states x {n_lines} lines do not fit its tables")
        return None

    def figures(self) -> dict:
        sol = self._last
        return {} if sol is None else {"iterations": sol.iterations, "sweeps": sol.sweeps}

    def _solution(self, state) -> Solution:
        self._last = solve_kept(state.rows, state.cols, self.tol, self.data_dir)
        return self._last

    def explain(self, state) -> dict[int, float]:
        """{line: Q, the boxes the agent expects to get from here on after drawing it, against random}."""
        sol = self._solution(state)
        nxt, gains, free = transition_tables(state.rows, state.cols)
        q = q_values(sol.V, sol.W, nxt[state.lines][None], gains[state.lines][None], free[state.lines][None])[0]
        return {int(a): float(q[a]) for a in np.flatnonzero(free[state.lines])}

    def tree(self, state, rng=None) -> dict:
        """Q(s, a) of each line over what follows it in the model it was solved in: a line that completes g
        boxes is a leaf worth g + V (it moves again); any other a chance node worth W, the random opponent's
        free lines each with the same probability, each a leaf worth V after it (W where the opponent's line
        completes a box and it moves again). Values are explain's."""
        sol = self._solution(state)
        nxt, gains, free = transition_tables(state.rows, state.cols)
        q = self.explain(state)
        moves = []
        for a, value in q.items():
            after = int(nxt[state.lines, a])
            if gains[state.lines, a] > 0:
                child = node("leaf", value, boxes=int(gains[state.lines, a]),
                             meaning="boxes now + V: it moves again")
            else:
                replies = np.flatnonzero(free[after])
                moved = self.rules.step(state, a, None)
                outcomes = [edge(node("leaf", float(sol.W[nxt[after, b]] if gains[after, b] > 0 else sol.V[nxt[after, b]]),
                                      meaning="W: it replies again" if gains[after, b] > 0 else "V: its turn"),
                                 outcome=f"opponent draws {self.rules.format_action(int(b))}", p=1 / len(replies),
                                 state=self.rules.step(moved, int(b), None))
                            for b in replies]
                child = node("chance", value, outcomes) if outcomes else node("leaf", value)
            moves.append(edge(child, action=a))
        return node("max", max(q.values()), moves) if moves else node("leaf", 0.0)

    def act(self, state, rng=None) -> int:
        action = int(self._solution(state).policy[state.lines])
        if action < 0:
            raise ValueError("every line is drawn")
        return action

    def value_legend(self, mover: str) -> str:
        return (f"The numbers: the boxes {mover} expects to get from here on after drawing that line, "
                "if the opponent plays at random.")
