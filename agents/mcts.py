"""mcts: Monte Carlo tree search (UCT) for every game of the catalogue, written once on the Rules contract.

Each simulation walks down the tree by UCT (mean + c * sqrt(ln N / n)), adds one new node, plays
uniformly random moves to the end (or `rollout_moves` moves) and backs the result up. Results are
per seat in [-1, 1] as in OpenSpiel's MCTSBot: two players +1 / 0 / -1 (each node keeps the
results of the player who moved into it, the usual sign convention); one player, the final score
scaled by its bounds where the game declares them (its GameInfo's utility: blackjack's reward), else by the
smallest and largest scores this search has seen (2048, match-3), so [agents.mcts] exploration is on
OpenSpiel's scale (its uct_c = 2) for every game.

In two-player games without chance it is also a solver, as OpenSpiel's MCTSBot with solve=True: a
finished game's result is exact, a node whose mover has a child proven to win, or whose children are
all proven, is proven too; proven results replace the estimates in selection and backup, and a proven
root ends the search early.

Chance is sampled: in a game with chance the tree is open-loop (a node is a sequence of actions; each
simulation replays them with fresh chance from the Generator, and only the actions legal in the
sampled state are followed). In a game without chance each node keeps its state. A game with a
fast engine (agents/engines) plays its random playouts, not a copy of this. A two-player game without
chance whose playouts are cheaper than this walk in Python may have its engine declare the whole search
compiled (its `compiled_tree`): agents/engines/tree_kernels.py runs this algorithm, one simulation
at a time, and tests/test_uct_tree.py holds it to this tree and to the exact solver.

What values a leaf is an Evaluator (OpenSpiel's seam): RandomRollouts by default; one that the compiled
tree can run too is a CompiledEvaluator (its leaf argument for the kernels).
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from agents.engines import uct_tree
from agents.base import ANY_GAME, Deadline, Decision, budget_clock, register, time_budget, ANY_GAME_SEARCH
from agents.search_tree import edge, node
from agents.game_search import (decision_rng, fast_playouts, plain_playout_returns, playout_returns,
                                terminal_returns, walk_moves)
from arcade.games.base import has_chance
from arcade.foundation.setting_fields import own_time_budget, ranged


@dataclass(frozen=True)
class MCTSParams:
    """settings.toml's [agents.mcts] (every game) and [GAME.mcts] (one game's own)."""

    simulations: int = ranged(1, 1_000_000, 1000)  # a move (fewer if its time runs out first)
    # a move where the game's whole tree is compiled (agents/engines/tree_kernels.py), whose
    # simulations cost about a microsecond, not tens: the same search goes that much further in the same time
    compiled_simulations: int = ranged(1, 1_000_000_000, 20_000)
    # the compiled tree's walks between backups: 1, plain UCT (its playouts do not batch, so a virtual loss
    # only costs: docs/benchmarks.md has the measurement, "why compiled_batch is 1")
    compiled_batch: int = ranged(1, 256, 1)
    exploration: float = ranged(0.0, 10.0, 2.0)  # UCT's c on results in [-1, 1] (OpenSpiel's default)
    batch: int = ranged(1, 256, 8)  # simulations whose playouts run as one batch (1: one at a time)
    rollout_moves: int = ranged(1, 1_000_000, 10_000)  # a random playout stops after this many moves
    time_budget_ms: int = own_time_budget()


@runtime_checkable
class Evaluator(Protocol):
    """What gives MCTS's new leaves their results: evaluate(states, rng) -> each state's results per seat, in
    the game's own terms (two players: in [-1, 1]; one player: a score, which the search rescales)."""

    def evaluate(self, states: list, rng: np.random.Generator) -> list[tuple[float, ...]]: ...


@runtime_checkable
class CompiledEvaluator(Evaluator, Protocol):
    """An Evaluator the compiled tree runs too: compiled_leaf(state) -> the kernels' leaf argument for the
    board of `state` (agents/engines/tree_kernels.py: KIND, ARGS, SHARE, MINIMAX)."""

    def compiled_leaf(self, state) -> tuple: ...


class RandomRollouts:
    """The leaf evaluator of OpenSpiel's MCTSBot (its RandomRolloutEvaluator): uniformly random moves to the
    end (at most `max_moves`), each leaf's result per seat, played by the game's declared fast playouts where
    it has them (compiled: made ready here, not in a timed decision), else by the rules
    (agents/game_search.playout_returns). fast=False: always by the rules (the benchmarks' baseline).
    Another evaluator (a learnt value) is passed to MCTS."""

    def __init__(self, rules, max_moves: int, fast: bool = True):
        self.rules, self.max_moves = rules, max_moves
        engine = fast_playouts(rules) if fast else None
        if engine is not None:
            engine.warm()
        self._returns = playout_returns if engine is not None else plain_playout_returns

    def evaluate(self, states: list, rng) -> list[tuple[float, ...]]:
        return self._returns(self.rules, states, rng, self.max_moves)


class Node:
    """A position in the tree. Its children's statistics are also kept in two arrays by slot, so that
    choosing among them is one numpy expression: q (the child's mean result for this node's mover, or its
    proven result) and w (c / sqrt(child visits), 0 once proven); UCT's choice is argmax(q + sqrt(ln N) w).
    (Closed-loop nodes only: see add.)"""

    __slots__ = ("state", "children", "kids", "slot", "untried", "visits", "total", "mover", "proven", "q", "w")

    def __init__(self, state, actions, mover: int):
        self.proven = None  # the exact result per seat, once the solver knows it
        self.state = state  # kept only where the game has no chance
        self.children: dict = {}  # action -> child
        self.kids: list = []  # children by slot
        self.slot = 0  # this node's slot in its parent
        self.untried = list(actions)
        self.visits = 0
        self.total = 0.0  # results of the player who moved into this node
        self.mover = mover  # who moves here
        self.q = self.w = None  # made with the first child (most leaves never get one)

    def add(self, action, child: Node) -> None:
        """A new child. A closed-loop node's arrays hold exactly its moves (UCT's argmax reads them whole); an
        open-loop node (no state kept: chance is sampled on each walk) has none: it meets its moves as chance
        goes, a few, and chooses among them in plain floats."""
        slot = len(self.kids)
        if self.q is None and self.state is not None:
            room = len(self.untried) + 1
            self.q, self.w = np.zeros(room), np.zeros(room)
        child.slot = slot
        self.kids.append(child)
        self.children[action] = child


@register("mcts", ANY_GAME, "Monte Carlo tree search (UCT) with random playouts, written once for every game",
          order=40, process=True,
          about="It plays many imagined games from the position, a few at a time: down the moves that have done "
                "well so far (and some it has tried less), then at random to the end, and counts how they ended. "
                "The move it tried most is its move. One algorithm for every game: it knows only the rules.",
          params=MCTSParams, group=ANY_GAME_SEARCH, title="Monte Carlo tree search")
class MCTS:
    """UCT on the Rules contract; explain gives each move's mean result for the side to move."""

    name = "mcts"

    def __init__(self, rules, settings, evaluator=None, plain: bool = False):
        """evaluator: what gives a leaf its results (default: random playouts of its rollout_moves).
        plain: walk the tree and play the playouts by the rules alone, never the game's fast engine (the
        benchmarks' baseline)."""
        self.rules = rules
        p = settings.agent_params(rules.game_id, self.name)  # (a subclass registered apart reads its own table)
        self.simulations = p.simulations
        self.compiled_simulations, self.compiled_batch = p.compiled_simulations, p.compiled_batch
        self.c = p.exploration
        self.batch = p.batch
        self.rollout_moves = p.rollout_moves
        self.budget = time_budget(settings, p)
        self.clock = budget_clock(settings)
        self.chance = has_chance(rules)  # open-loop tree: nodes keep no state, chance is sampled on each walk
        self._default_leaves, self._plain = evaluator is None, plain
        self.evaluator = evaluator if evaluator is not None else RandomRollouts(rules, self.rollout_moves, not plain)
        # the walk's moves: the game's fast ones where it declares them
        self.step, self.legal = walk_moves(rules, fast=not plain)
        self._figures: dict = {}
        # the whole search compiled, where the game's engine declares it: with random playouts to the end, or an
        # evaluator the kernels can run (a CompiledEvaluator)
        leaves = evaluator is None or isinstance(evaluator, CompiledEvaluator)
        self._compiled = leaves and not plain and self.tree_compiled(rules)
        self._trees: dict = {}  # a compiled tree per board (not sent to another process: made again there)
        info = getattr(rules, "info", None)
        utility = info().utility if info is not None else None
        # one player: the score's declared bounds, its scale for the whole search (None: the scores seen)
        self._bounds = tuple(utility) if rules.players == 1 and utility is not None else None

    @staticmethod
    def tree_compiled(rules) -> bool:
        """Whether the game's engine runs this search's whole tree compiled (two players, no chance)."""
        return bool(getattr(fast_playouts(rules), "compiled_tree", None)) and rules.players == 2 \
            and not has_chance(rules)

    @classmethod
    def unused_params(cls, rules, values) -> dict[str, str]:
        """{parameter: why it does not apply on `rules`}: the compiled tree's where the search runs in Python,
        the Python tree's where the game's compiled tree runs it."""
        if cls.tree_compiled(rules):
            why = "this game's compiled tree runs the search: compiled_simulations and compiled_batch apply"
            return {"simulations": why, "batch": why}
        why = "this game has no compiled tree: the Python search's simulations and batch apply"
        return {"compiled_simulations": why, "compiled_batch": why}

    def __getstate__(self) -> dict:
        """Sent to another process (a runner's worker, a Ray task) without its trees; there its compiled
        kernels are made ready again before its first timed decision (a Ray worker's copy of the project
        compiles them afresh, which took longer than a whole budget)."""
        return {**self.__dict__, "_trees": {}, "_arrived": True}

    def _scale(self, returns, low_high: list) -> tuple[float, ...]:
        """Results in [-1, 1]: two players as they are; one player scaled by the declared bounds, else by the
        scores seen so far."""
        if self.rules.players == 2:
            return returns
        score = returns[0]
        if self._bounds is None:
            low_high[0], low_high[1] = min(low_high[0], score), max(low_high[1], score)
        span = low_high[1] - low_high[0]
        return (0.0 if span == 0 else 2.0 * (score - low_high[0]) / span - 1.0,)

    def search(self, state, rng=None) -> Node:
        """Simulations in batches of its `batch`, in OpenSpiel's three steps: each walk selects down
        by UCT with a virtual loss on the nodes it passes and expands one new node (so the batch's later walks
        spread out); the evaluator gives the batch's leaves their results in one call (random playouts, a
        numpy batch where the game has one); then every result is backed up in order. A batch of 1 is plain
        sequential UCT."""
        rules = self.rules
        rng = decision_rng(rng, rules, state)
        if self.__dict__.pop("_arrived", False):  # (not in a timed decision: before its deadline starts)
            engine = fast_playouts(rules) if self._default_leaves and not self._plain else None
            if engine is not None:
                engine.warm()
            self.warm_tree(state)
        board = self._compiled and fast_playouts(rules).tree_board(state, self.rollout_moves)
        if board:
            return self._compiled_search(state, board, rng)
        root = Node(None if self.chance else state, rules.legal_actions(state), rules.to_move(state))
        deadline = Deadline(self.clock, self.budget)
        finals: list = []  # one player: every final score, rescaled once the range is known
        low_high = list(self._bounds) if self._bounds is not None else [math.inf, -math.inf]
        done = 0
        solve = rules.players == 2 and not self.chance
        while done < self.simulations and root.proven is None:
            size = min(self.batch, self.simulations - done)
            draws = rng.random(size).tolist()  # which untried move each walk expands
            waiting: list = []  # (path, state) of the walks whose leaf needs an evaluation
            for k in range(size):
                path, current, over = self._select_and_expand(root, state, rng, draws[k], solve)
                node = path[-1]
                # a proven node's result is exact: no playout; a finished game's is its result
                if node.proven is not None:
                    self._backup(path, node.proven, node.proven, low_high, finals, solve)
                elif over:
                    returns = terminal_returns(rules, current)
                    self._backup(path, returns, self._scale(returns, low_high), low_high, finals, solve)
                else:
                    waiting.append((path, current))
            if waiting:
                results = self.evaluator.evaluate([s for _, s in waiting], rng)
                for (path, _), returns in zip(waiting, results, strict=True):
                    self._backup(path, returns, self._scale(returns, low_high), low_high, finals, solve)
            done += size
            if deadline.passed():
                break
        most = max((ch.visits for ch in root.children.values()), default=0)
        self._figures = {"simulations": done, "most visited": most}
        self._scores = tuple(low_high)  # one player: the final scores' range, the scale explain reads back
        if rules.players == 1 and finals:
            if self._bounds is None:
                self._rescale(root, finals, low_high)
            scores = [score for _, score in finals]
            self._figures.update({"lowest final score": min(scores), "highest final score": max(scores)})
            if self._bounds is not None:
                self._figures["score bounds"] = f"{self._bounds[0]:g} to {self._bounds[1]:g} (declared)"
        return root

    def warm_tree(self, state) -> None:
        """Where this search runs compiled: its tree for `state`'s board made and its kernels compiled (or
        loaded) for its leaves on a few simulations, now rather than in a timed decision."""
        key = self._compiled and fast_playouts(self.rules).tree_board(state, self.rollout_moves)
        if key:
            self._tree(state, key).warm(state)

    def _tree(self, state, key):
        """The compiled tree of `state`'s board (made once), its leaves valued as this search values them."""
        tree = self._trees.get(key)
        if tree is None:
            tree = self._trees[key] = fast_playouts(self.rules).compiled_tree(key)
        tree.leaf = tree.k.playout_leaf(tree.pos) if self._default_leaves else self.evaluator.compiled_leaf(state)
        return tree

    def _compiled_search(self, state, key, rng) -> Node:
        """The same search by the game's compiled tree (agents/engines/uct_tree.py), in batches of compiled_batch; its
        root's children come back as Nodes, so act and explain read them as they read the Python tree's."""
        tree = self._tree(state, key)
        tree.reset(state)
        done = uct_tree.run(tree, self.compiled_simulations, self.c, Deadline(self.clock, self.budget), rng,
                            self.compiled_batch)
        root = Node(None, (), self.rules.to_move(state))
        root.visits = done

        def per_seat(result: int | None):  # a result for the root's mover as a tuple per seat
            return None if result is None else (float(result), -float(result))[::1 if root.mover == 0 else -1]

        root.proven = per_seat(tree.root_result())
        for action, visits, total, proven in tree.children():
            child = Node(None, (), 0)
            child.visits, child.total, child.proven = visits, total, per_seat(proven)
            root.add(action, child)
        most = max((ch.visits for ch in root.kids), default=0)
        self._figures = {"simulations": done, "most visited": most, "tree nodes": tree.used}
        self._last_tree = tree  # (its arrays hold the nodes below the root: tree() reads them)
        return root

    def _select_and_expand(self, root: Node, state, rng, draw: float, solve: bool):
        """One walk: down by UCT through nodes whose every (sampled-legal) move has a child, a virtual loss on
        each node entered, then one new child. Returns (path, the state at its end, whether the game is over)."""
        rules, chance, c = self.rules, self.chance, self.c
        log, sqrt = math.log, math.sqrt
        node, current, path, over, untried = root, state, [root], False, []
        root.visits += 1
        while node.proven is None:
            if chance:
                legal = self.legal(current)  # ([] once the game is over)
                children = node.children
                untried = [a for a in legal if a not in children]
                if untried or not legal:
                    over = not legal
                    break
                # (a few moves a chance node, never proven: UCT in plain floats beats numpy's per-call cost)
                explore, best = c * sqrt(log(node.visits)), -math.inf
                for a in legal:
                    child = children[a]
                    u = (child.total + explore * sqrt(child.visits)) / child.visits  # q + c sqrt(ln N / n)
                    if u > best:
                        best, i, action = u, child.slot, a
            else:
                untried = node.untried
                if untried or not node.kids:
                    over = not untried  # no move at all: the game is over here
                    break
                i = int((node.w * sqrt(log(node.visits)) + node.q).argmax())
            parent, node = node, node.kids[i]
            node.visits += 1
            node.total -= 1.0
            if node.proven is None and not chance:
                parent.q[i] = node.total / node.visits
                parent.w[i] = c / sqrt(node.visits)
            current = node.state if not chance else self.step(current, action, rng)
            path.append(node)
        if node.proven is None and untried:  # expansion: one new child, entered with the same virtual loss
            j = int(draw * len(untried))
            action = untried[j]
            if not chance:
                untried[j] = untried[-1]
                untried.pop()
            current = self.step(current, action, rng)
            legal = self.legal(current)  # ([] exactly when the game is over)
            over = terminal = not legal
            child = Node(None if chance else current, () if chance else legal, 0 if terminal else rules.to_move(current))
            node.add(action, child)
            child.visits, child.total = 1, -1.0
            if terminal and solve:
                child.proven = terminal_returns(rules, current)
                node.q[child.slot] = child.proven[node.mover]
            elif not chance:
                node.q[child.slot], node.w[child.slot] = -1.0, c
            path.append(child)
        return path, current, over

    def _backup(self, path: list, returns, result, low_high, finals: list, solve: bool) -> None:
        """A node keeps the results of the player who moved into it (its parent's mover); the walk's virtual
        loss (-1 on each node it entered, its visit already counted) is taken back as the result goes in."""
        if self.rules.players == 1:
            finals.append((path, returns[0]))
        closed = not self.chance
        for parent, child in itertools.pairwise(path):
            child.total += result[parent.mover] + 1.0
            if closed and child.proven is None:
                parent.q[child.slot] = child.total / child.visits
        if solve:
            self._prove(path)

    @staticmethod
    def _prove(path: list) -> None:
        """Up the path: a node is proven when its mover has a child proven to win, or every move has a child
        and all are proven (its value: the best of them for the mover). Stops at the first node left open.
        A newly proven node's place in its parent's arrays takes its exact result."""
        for depth in range(len(path) - 1, -1, -1):
            node = path[depth]
            if node.proven is None:
                seat, best, open_child = node.mover, None, bool(node.untried)
                for ch in node.kids:
                    if ch.proven is None:
                        open_child = True
                    elif best is None or ch.proven[seat] > best[seat]:
                        best = ch.proven
                if best is None or (open_child and best[seat] < 1.0):
                    return
                node.proven = best
            if depth:
                parent = path[depth - 1]
                parent.q[node.slot], parent.w[node.slot] = node.proven[parent.mover], 0.0

    @staticmethod
    def _rescale(root: Node, finals: list, low_high: list) -> None:
        """One player: results were scaled by the range seen so far as they came; now the whole range is
        known, the totals are recomputed on it, so every simulation counts on the same scale."""
        low, high = low_high
        span = high - low
        nodes = {}
        for path, _ in finals:
            for n in path[1:]:
                nodes[id(n)] = n
        for n in nodes.values():
            n.total = 0.0
        for path, score in finals:
            value = 0.0 if span == 0 else 2.0 * (score - low) / span - 1.0
            for n in path[1:]:
                n.total += value

    def explain(self, state, rng=None) -> dict:
        """{move: its value for the side to move}. Two players: its proven result where the solver knows it,
        else the mean result of the simulations through it, in [-1, 1] (a win +1, a draw 0, a loss -1). One
        player: on the game's own scale, the mean final score of the simulations through it (the search
        itself compares results scaled to [-1, 1] by the range of the scores it saw)."""
        return self._values(self.search(state, rng))

    def _values(self, root: Node) -> dict:
        seat = root.mover
        values = {a: ch.proven[seat] if ch.proven is not None else ch.total / ch.visits
                  for a, ch in root.children.items() if ch.visits or ch.proven is not None}
        if self.rules.players == 1:
            if not math.isfinite(self._scores[0]):  # no simulation finished: nothing seen to scale by
                return values
            values = {a: self._on_scores(v) for a, v in values.items()}
        return values

    def decide(self, state, rng, tree: bool = False) -> Decision:
        """One search: its most visited move (act's choice), every move's mean result (explain's) and, asked
        for, its tree (tree's), all of the same simulations."""
        root = self.search(state, rng)
        return Decision(self._choice(root), self._values(root), self._tree_of(root) if tree else None)

    def _on_scores(self, v: float) -> float:
        """A one-player result in [-1, 1] back on the game's own scale: the range of final scores it saw."""
        low, high = self._scores
        return low + (v + 1.0) * (high - low) / 2.0

    TREE_CHILDREN = 8  # a node of the shown tree lists its most visited children, this many
    TREE_DEPTH = 6

    def tree(self, state, rng=None) -> dict:
        """The tree of a decision (agents/search_tree.py), from the same search explain runs: each node's
        visits, its mean result for the root's mover (the game's points where it has one player, as explain
        gives them), whether the solver proved it, and the UCT score its parent's last walk saw; at most
        TREE_CHILDREN children a node (the most visited), TREE_DEPTH deep. The compiled tree (dots,
        tic-tac-toe) is read off its arrays the same way."""
        return self._tree_of(self.search(state, rng))

    def _tree_of(self, root: Node) -> dict:
        seat = root.mover
        scale = self._on_scores if self.rules.players == 1 and math.isfinite(self._scores[0]) else None
        shown = self._shown(root, seat, scale, self.TREE_DEPTH, limit=None)  # the root: every move
        if "tree nodes" in self._figures:  # the compiled tree: the nodes below the root, read off its arrays
            tree = self._last_tree
            index = {move: i for i, move, _, _, _ in tree.child_rows(0)}
            for e in shown["children"]:
                if e["action"] in index:
                    below = self._shown_compiled(tree, index[e["action"]], seat, self.TREE_DEPTH - 1)
                    e["node"].update(kind=below["kind"], children=below["children"])
                    if "more" in below:
                        e["node"]["more"] = below["more"]
        shown["simulations"] = self._figures.get("simulations", root.visits)
        return shown

    def _shown_compiled(self, tree, index: int, seat: int, depth: int) -> dict:
        """The compiled tree's node `index` as _shown shows a Python node: its most visited children (at most
        TREE_CHILDREN), each with its visits, mean result (or proof) for `seat` and UCT at the last walk."""
        rows = sorted(tree.child_rows(index), key=lambda r: -r[2])
        mover = tree.mover(index)
        sign = 1.0 if mover == seat else -1.0
        log_n = math.log(max(1, tree.visits(index)))
        edges = []
        for child, move, visits, total, proven in rows[:self.TREE_CHILDREN]:
            value = sign * (proven if proven is not None else total / max(1, visits))
            grandchildren = tree.child_rows(child)
            if depth > 1 and visits > 1 and grandchildren:
                sub = self._shown_compiled(tree, child, seat, depth - 1)
            elif grandchildren:
                sub = node("max" if tree.mover(child) == seat else "min", value, more=len(grandchildren))
            else:
                sub = node("leaf", value)
            sub["value"] = float(value)
            sub.update(visits=visits, proven=proven is not None)
            if visits and proven is None:
                sub["uct"] = float(total / visits + self.c * math.sqrt(log_n / visits))
            edges.append(edge(sub, action=move))
        kind = "leaf" if not edges else ("max" if mover == seat else "min")
        out = node(kind, edges[0]["node"]["value"] if edges else 0.0, edges)
        if len(rows) > self.TREE_CHILDREN:
            out["more"] = len(rows) - self.TREE_CHILDREN
        return out

    def _shown(self, at: Node, seat: int, scale, depth: int, limit: int | None = TREE_CHILDREN) -> dict:
        """One node of the shown tree and, below it, its most visited children (at most `limit`)."""
        children = [(a, ch) for a, ch in at.children.items() if ch.visits or ch.proven is not None]
        children.sort(key=lambda kv: -kv[1].visits)
        sign = 1.0 if self.rules.players == 1 or at.mover == seat else -1.0  # the mover at `at` moved into them
        log_n = math.log(max(at.visits, 1))
        edges = []
        for a, ch in children[:limit]:
            if ch.proven is not None:
                value = ch.proven[seat]
            else:
                value = sign * ch.total / ch.visits
            if scale is not None:
                value = scale(value)
            if depth > 1 and ch.visits > 1:
                sub = self._shown(ch, seat, scale, depth - 1)
            elif ch.children:  # cut here: its kind and how many children it had
                sub = node("max" if self.rules.players == 1 or ch.mover == seat else "min", value,
                           more=len(ch.children))
            else:
                sub = node("leaf", value)
            sub["value"] = float(value)
            sub.update(visits=int(ch.visits), proven=ch.proven is not None)
            if ch.visits and ch.proven is None:
                sub["uct"] = float(ch.total / ch.visits + self.c * math.sqrt(log_n / ch.visits))
            edges.append(edge(sub, action=a))
        kind = "leaf" if not edges else ("max" if self.rules.players == 1 or at.mover == seat else "min")
        best = max(edges, key=lambda e: e["node"]["visits"])["node"]["value"] if edges else 0.0
        out = node(kind, best, edges, visits=int(at.visits))
        if limit is not None and len(children) > limit:
            out["more"] = len(children) - limit
        return out

    def act(self, state, rng=None):
        """A proven win if there is one, else the most visited move (UCT's robust choice), as OpenSpiel's bot
        chooses; ties to the better mean."""
        return self._choice(self.search(state, rng))

    @staticmethod
    def _choice(root: Node):
        seat = root.mover
        return max(root.children.items(), key=lambda kv: (kv[1].proven[seat] if kv[1].proven is not None else 0.0,
                                                          kv[1].visits, kv[1].total / max(1, kv[1].visits)))[0]

    def figures(self) -> dict:
        return dict(self._figures)

    def value_legend(self, mover: str) -> str:
        if self.rules.players == 2:
            return (f"The numbers: mcts's mean result for {mover} over its imagined games through that move "
                    "(+1 a win, 0 a draw, -1 a loss; random play to the end). They are sampled: moves a few "
                    "hundredths apart, as on a symmetric board, are equal within the noise.")
        return ("The numbers: the mean final score (the game's own points) of mcts's imagined games through "
                "that move, with random play after it. They are sampled: moves a few per cent apart are "
                "equal within the noise.")
