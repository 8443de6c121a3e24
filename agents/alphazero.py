"""alphazero: a network that proposes moves (its policy) and judges positions (its value), a tree search
steered by both, the two improving each other by self-play (Silver et al. 2017), for the games whose engine
compiles a whole tree and gives a network's `features` (tic-tac-toe, dots and boxes on every board).

A move: `simulations` simulations of PUCT on the compiled tree (agents/engines/puct_kernels.py: the network's
forward pass compiled into the walk, its value at every new leaf, no playouts), within the time budget; the
move played is the most visited. Its values are each move's mean value for the side to move; its tree shows,
for each child, the prior the network gave it, its visits, its mean and the network's own value of it, so a
student sees where the search overrules the network.

One network a board (alphazero_GAME[_RxC].npz): a trained one in the data folder plays, else the one shipped
in the package, else an untrained one (priors even, values near 0: a plain search that knows only the
rules' ends). Training (`t`, `python main.py train GAME --agent alphazero`) is agents/alphazero_training.py.
The window plays a network with numpy and the compiled kernels alone; only training needs JAX.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.base import Deadline, Decision, LEARNT, budget_clock, declare_warm_up, register, time_budget
from agents.engines import uct_tree
from agents.engines.puct_tree import UNVISITED
from agents.game_search import fast_playouts
from agents.search_tree import edge, node
from agents import alphazero_net
from arcade.foundation.setting_fields import one_of, own_time_budget, ranged
from arcade.games.dots import DotsRules
from arcade.games.tictactoe import TicTacToeRules
from arcade.foundation.storage import ASSETS, ReadOnce

_FILES = ReadOnce(keep=4)  # networks read from files, shared by the agents of a process (never written)
# (registered below for tic-tac-toe and dots, whose engines give `features`: agents/engines/*/tree_positions.py;
# its warm-ups name their rules: tic-tac-toe's, dots' on 2x2)
EVERY_MOVE = 1 << 40  # (a playout length no game reaches: the engine's whole compiled tree)


@dataclass(frozen=True)
class AlphaZeroParams:
    """settings.toml's [tictactoe.alphazero]: the search that plays, and the self-play training (`t`, `train`)."""

    simulations: int = ranged(1, 1_000_000, 50)  # a move (fewer if its time runs out first)
    exploration: float = ranged(0.0, 10.0, 1.5)  # PUCT's c: Q + c P sqrt(N) / (1 + n), values in [-1, 1]
    # an unvisited move's Q: "zero" (AlphaZero's, OpenSpiel's) or "siblings" (the mean of the visited moves')
    unvisited: str = one_of(tuple(UNVISITED), "zero")
    time_budget_ms: int = own_time_budget()
    games: int = ranged(1, 10_000_000, 5000, trains_only=True)  # self-play games of one training run
    self_play_simulations: int = ranged(2, 100_000, 100, trains_only=True)  # a self-play move
    noise_alpha: float = ranged(0.01, 10.0, 1.0, trains_only=True)  # Dirichlet noise on the root's priors...
    noise_share: float = ranged(0.0, 1.0, 0.25, trains_only=True)  # ... mixed in by this share (self-play only)
    sampled_moves: int = ranged(0, 1000, 9, trains_only=True)  # self-play: the first moves drawn by visits
    random_moves: int = ranged(0, 1000, 0, trains_only=True)  # self-play: up to this many random moves first
    hidden: int = ranged(4, 1024, 64, trains_only=True)  # units of each hidden layer (a network trained afresh)
    learning_rate: float = ranged(1e-6, 1.0, 2e-3, trains_only=True)  # Adam's (optax.adamw)
    weight_decay: float = ranged(0.0, 1.0, 1e-4, trains_only=True)
    batch_size: int = ranged(8, 8192, 128, trains_only=True)  # positions a learner step
    steps_per_game: float = ranged(0.01, 1000.0, 2.0, trains_only=True)  # learner steps a self-play game
    replay_positions: int = ranged(100, 10_000_000, 20_000, trains_only=True)  # the newest positions learnt from
    rating_seconds: int = ranged(1, 86_400, 10, trains_only=True)  # the curve's games against references, this often
    rating_games: int = ranged(0, 10_000, 20, trains_only=True)  # ... this many against each (half a side; 0: none)


@dataclass(frozen=True)
class DotsAlphaZeroParams(AlphaZeroParams):
    """settings.toml's [dots.alphazero]: as tic-tac-toe's, with dots' own values (one network a board size)."""

    simulations: int = ranged(1, 1_000_000, 200)
    # (chosen on 3x3's test positions, docs/alphazero.md; the shipped networks' self-play ran at AlphaZero's
    # 1.5 and 0: docs/training/alphazero_dots.toml)
    exploration: float = ranged(0.0, 10.0, 0.75)
    unvisited: str = one_of(tuple(UNVISITED), "siblings")
    games: int = ranged(1, 10_000_000, 20_000, trains_only=True)
    noise_alpha: float = ranged(0.01, 10.0, 0.5, trains_only=True)  # (about 10 / the moves of a position)
    sampled_moves: int = ranged(0, 1000, 6, trains_only=True)
    random_moves: int = ranged(0, 1000, 12, trains_only=True)  # (wider starts, unrecorded)
    hidden: int = ranged(4, 1024, 128, trains_only=True)
    steps_per_game: float = ranged(0.01, 1000.0, 4.0, trains_only=True)
    replay_positions: int = ranged(100, 10_000_000, 50_000, trains_only=True)
    rating_seconds: int = ranged(1, 86_400, 120, trains_only=True)


def board_key(rules, state) -> tuple:
    """The compiled tree a state plays on (its engine's key: a board size, or one tree for every position)."""
    return fast_playouts(rules).tree_board(state, EVERY_MOVE)


def file_name(game: str, key: tuple) -> str:
    """alphazero_dots_3x3.npz for a board of 3x3; alphazero_tictactoe.npz where one tree serves every position."""
    sized = all(isinstance(k, int) for k in key)
    return f"alphazero_{game}" + ("_" + "x".join(str(k) for k in key) if sized else "") + ".npz"


ABOUT = ("A network gives each move a prior (how promising it looks) and the position a value. The search "
         "follows promising moves and values each new position by the network, no random playouts; the move "
         "searched most is played. It learns by playing itself: t trains it.")
SUMMARY = "AlphaZero: PUCT tree search steered by a network's priors and values, learnt by self-play"


class AlphaZero:
    """PUCT with a network, on the game's compiled tree; trains by self-play (agents/alphazero_training.py).
    Registered once a game below, each with its own table of parameters."""

    name = "alphazero"

    def __init__(self, rules, settings):
        self.rules, self.settings = rules, settings
        self.p = p = settings.agent_params(rules.game_id, self.name)
        self.simulations, self.c = p.simulations, p.exploration
        self.budget, self.clock = time_budget(settings, p), budget_clock(settings)
        self.data_dir = Path(settings.data_dir)
        self._nets: dict[tuple, tuple] = {}  # board key -> (Network, record, where it came from)
        self._trees: dict[tuple, object] = {}  # board key -> PUCTTree (not sent to another process)
        self._game_trees: dict[tuple, object] = {}  # board key -> the engine's CompiledTree (nor these)
        self._figures: dict = {}
        from agents.engines import compiled

        compiled.warm([lambda: self.warm_tree(rules.new_state(np.random.default_rng(0)))])

    @classmethod
    def cannot_play(cls, rules) -> str | None:
        engine = fast_playouts(rules)
        if engine is None or not getattr(engine, "compiled_tree", None):
            return "alphazero searches on a game's compiled tree: this game's engine has none"
        return None

    @classmethod
    def unused_params(cls, rules, values) -> dict[str, str]:
        """The time budget where the simulations end every search in its first slice, before any look at the
        clock (agents/engines/uct_tree.run)."""
        if values.simulations <= uct_tree.FIRST_SLICE:
            return {"time_budget_ms": f"{values.simulations} simulations a move end each search before the clock "
                                      f"is read (it is read from {uct_tree.FIRST_SLICE + 1} on)"}
        return {}

    def __getstate__(self) -> dict:
        """Sent to another process without its trees (made again there)."""
        return {**self.__dict__, "_trees": {}, "_game_trees": {}, "cluster": None}

    # --- networks ------------------------------------------------------------------------------------
    def game_tree(self, key: tuple):
        """The engine's compiled tree of a board (its positions module, moves and board arrays), made once."""
        if key not in self._game_trees:
            self._game_trees[key] = fast_playouts(self.rules).compiled_tree(key)
        return self._game_trees[key]

    def _shape(self, key: tuple) -> tuple[int, int]:
        game_tree = self.game_tree(key)
        return game_tree.feature_count(), game_tree.n_moves

    def network(self, key: tuple) -> tuple:
        """(Network, record, where it came from) of a board: trained in the data folder, else shipped, else
        untrained (fresh weights from a fixed seed)."""
        if key not in self._nets:
            n_features, n_moves = self._shape(key)
            name = file_name(self.rules.game_id, key)
            for path, label in ((self.data_dir / name, "trained"), (ASSETS / name, "shipped")):
                then = "the shipped network plays" if label == "trained" else "playing untrained"
                got = _FILES.read(path, lambda p, then=then: alphazero_net.read(p, n_features, n_moves, then))
                if got is not None:
                    self._nets[key] = (got[0], got[1], f"{label} ({name})")
                    break
            else:
                fresh = alphazero_net.Network.initial(n_features, n_moves, (self.p.hidden, self.p.hidden),
                                                      np.random.default_rng(0))
                self._nets[key] = (fresh, {"games": 0, "steps": 0, "seconds": 0.0}, "untrained")
        return self._nets[key]

    def set_network(self, key: tuple, net, record: dict, source: str) -> None:
        """Play with `net` on that board from now on (a training's)."""
        self._nets[key] = (net, record, source)
        self._trees.pop(key, None)

    def tree_for(self, state):
        """The PUCT tree of `state`'s board, searching with that board's network."""
        from agents.engines.puct_tree import PUCTTree

        key = board_key(self.rules, state)
        net = self.network(key)[0]
        tree = self._trees.get(key)
        if tree is None or tree.net is not net.args():
            tree = self._trees[key] = PUCTTree(self.game_tree(key), net.args(),
                                               UNVISITED[self.p.unvisited])
        return tree

    def warm_tree(self, state) -> None:
        tree = self.tree_for(state)
        tree.reset(state)
        tree.simulate(2, self.c)

    # --- deciding ------------------------------------------------------------------------------------
    def _search(self, state):
        tree = self.tree_for(state)
        tree.reset(state)
        done = uct_tree.run(tree, self.simulations, self.c, Deadline(self.clock, self.budget), None)
        rows = tree.child_rows(0)
        self._figures = {"simulations": done, "most visited": max((r[2] for r in rows), default=0),
                         "tree nodes": tree.used}
        return tree, rows

    @staticmethod
    def _values(rows: list) -> dict:
        return {move: total / visits for _, move, visits, total, _, _ in rows if visits}

    def decide(self, state, rng=None, tree: bool = False) -> Decision:
        """One search: the most visited move, every searched move's mean value for the side to move and, asked
        for, the tree, all of the same simulations."""
        searched, rows = self._search(state)
        return Decision(searched.most_visited(), self._values(rows), self._tree_of(searched) if tree else None)

    def act(self, state, rng=None):
        return self.decide(state, rng).action

    def explain(self, state, rng=None) -> dict:
        return self.decide(state, rng).values

    def tree(self, state, rng=None) -> dict:
        return self.decide(state, rng, tree=True).tree

    TREE_CHILDREN = 8
    TREE_DEPTH = 6

    def _tree_of(self, tree) -> dict:
        """The search's tree (agents/search_tree.py): the root with every move; below, each node's most visited
        children (TREE_CHILDREN), TREE_DEPTH deep. Each child: visits, mean value for the root's mover, the
        network's prior, the network's own value of it (for the root's mover) and its PUCT score."""
        seat = tree.mover(0)
        shown = self._shown(tree, 0, seat, self.TREE_DEPTH, None)
        shown["simulations"] = self._figures.get("simulations", tree.visits(0))
        return shown

    def _shown(self, tree, index: int, seat: int, depth: int, limit: int | None) -> dict:
        rows = [r for r in tree.child_rows(index) if r[2]]
        rows.sort(key=lambda r: (-r[2], -r[4], r[1]))
        mover = tree.mover(index)
        sign = 1.0 if mover == seat else -1.0
        explore = self.c * math.sqrt(max(tree.visits(index), 0))
        edges = []
        for child, move, visits, total, prior, net_value in rows[:limit]:
            value = sign * total / visits
            below = [r for r in tree.child_rows(child) if r[2]]
            if depth > 1 and visits > 1 and below:
                sub = self._shown(tree, child, seat, depth - 1, self.TREE_CHILDREN)
            elif below:
                sub = node("max" if tree.mover(child) == seat else "min", value, more=len(below))
            else:
                sub = node("leaf", value)
            sub["value"] = float(value)
            sub.update(visits=visits, proven=False, prior=float(prior))
            if tree.finished(child):  # (no network there: the game's exact end)
                sub["final value"] = float(sign * net_value)
            elif not math.isnan(net_value):
                sub["network value"] = float(sign * net_value)
            sub["puct"] = float(total / visits + explore * prior / (1.0 + visits))
            edges.append(edge(sub, action=move))
        kind = "leaf" if not edges else ("max" if mover == seat else "min")
        out = node(kind, edges[0]["node"]["value"] if edges else 0.0, edges, visits=tree.visits(index))
        if limit is not None and len(rows) > limit:
            out["more"] = len(rows) - limit
        return out

    def figures(self) -> dict:
        return dict(self._figures)

    def value_legend(self, mover: str) -> str:
        meaning = self.game_tree(self.board()).pos.module.VALUE_MEANING
        return (f"The numbers: alphazero's mean value for {mover} over its simulations through that move ({meaning}; "
                "each new position valued by the network, no random play). The tree (Shift+v) shows each "
                "move's prior and the network's own value beside them.")

    def describe(self) -> list[str]:
        key = board_key(self.rules, self.rules.new_state(np.random.default_rng(0)))
        net, record, source = self.network(key)
        return [f"network: {source}",
                f"{net.n_features} features, 2 x {net.hidden[0]} units, {net.size():,} weights",
                f"trained {record['games']:,} self-play games, {record['steps']:,} learner steps"]

    # --- training (Trains, TrainsOnCluster) -------------------------------------------------------------
    cluster = None  # where its trainings play their self-play games (None: threads here)

    def play_on(self, cluster) -> None:
        """Its next trainings play their self-play games on `cluster` (TrainsOnCluster: a Ray cluster)."""
        self.cluster = cluster

    @classmethod
    def default_episodes(cls, settings, game: str) -> int:
        return settings.agent_params(game, cls.name).games

    def board(self) -> tuple:
        """The key of the board this agent's rules start on (its network's, its file's)."""
        return board_key(self.rules, self.rules.new_state(np.random.default_rng(0)))

    def default_path(self) -> Path:
        return self.data_dir / file_name(self.rules.game_id, self.board())

    def load(self, path: Path) -> bool:
        key = self.board()
        n_features, n_moves = self._shape(key)
        got = _FILES.read(Path(path), lambda p: alphazero_net.read(p, n_features, n_moves, "the network before it plays"))
        if got is None:
            return False
        self.set_network(key, got[0], got[1], f"loaded ({Path(path).name})")
        return True

    def save(self, path: Path | None = None) -> bool:
        path = Path(path) if path else self.default_path()
        net, record, source = self.network(self.board())
        ok = alphazero_net.write(path, net, record)
        if ok and not source.startswith("training"):
            self.set_network(self.board(), net, record, f"trained ({path.name})")
        return ok

    def resumed_at(self, episodes: int) -> int:
        """The games done of a stopped run of `episodes` games whose learner state the network's file holds."""
        record = self.network(self.board())[1]
        run = record.get("learner", {}).get("run")
        if run is None or np.asarray(run).shape != (2,):
            return 0
        total, done = (int(x) for x in np.asarray(run))
        return done if total == episodes and 0 < done < episodes else 0

    def train(self, episodes: int, rng, progress=None, from_scratch: bool = False, stop=None, checkpoint=None,
              watch=None, jobs: int = 1) -> None:
        """Self-play training for `episodes` games on this board (agents/alphazero_training.train)."""
        from agents import alphazero_training

        alphazero_training.train(self, episodes, rng, progress=progress, from_scratch=from_scratch, stop=stop,
                                 checkpoint=checkpoint, watch=watch, jobs=jobs)


@register("alphazero", ("tictactoe",), SUMMARY, order=24, about=ABOUT, params=AlphaZeroParams, group=LEARNT,
          title="AlphaZero (network + tree search)")
class TicTacToeAlphaZero(AlphaZero):
    """alphazero on tic-tac-toe: [tictactoe.alphazero]."""


@register("alphazero", ("dots",), SUMMARY, order=24, about=ABOUT, params=DotsAlphaZeroParams, group=LEARNT,
          title="AlphaZero (network + tree search)")
class DotsAlphaZero(AlphaZero):
    """alphazero on dots and boxes: [dots.alphazero]."""


def _warm_up(rules):
    """A tiny PUCT search on `rules`' board with untrained weights: the tree's kernels compiled (or loaded);
    beyond the first move, the self-play learner's kernels too (a game and a batch of features)."""
    def steps(first_move: bool) -> list:
        def parts():
            state = rules.new_state(np.random.default_rng(0))
            game_tree = fast_playouts(rules).compiled_tree(board_key(rules, state))
            net = alphazero_net.Network.initial(game_tree.feature_count(), game_tree.n_moves, (4, 4),
                                                np.random.default_rng(0))
            return state, game_tree, net

        def search() -> None:
            from agents.engines.puct_tree import PUCTTree

            state, game_tree, net = parts()
            tree = PUCTTree(game_tree, net.args())
            tree.reset(state)
            tree.simulate(4, 1.0)

        def self_play() -> None:
            from agents.alphazero_training import SelfPlay, batch_features

            state, game_tree, net = parts()
            positions, _, _ = SelfPlay(game_tree, state, 4, 1.0, 1.0, 0.25, 2, 1).game(net.args(),
                                                                                      np.random.default_rng(0))
            batch_features(game_tree, positions, game_tree.feature_count())
        return [search] if first_move else [search, self_play]
    return steps


declare_warm_up("tictactoe", _warm_up(TicTacToeRules()), order=70)
declare_warm_up("dots", _warm_up(DotsRules(2, 2)), order=70)
