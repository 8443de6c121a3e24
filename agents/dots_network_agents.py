"""The dots agents that search with the learnt network of agents/dots_ntuple.py: mcts-ntuple (MCTS whose leaves
the network values, the small ones solved exactly) and alpha-beta-ntuple (alpha-beta whose horizon is the
network's value). Each holds a DotsNTuple learner for its networks (read once per process and shared).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agents.engines import compiled
from agents.alphabeta_dots import AlphaBetaDots, AlphaBetaParams
from agents.base import declare_warm_up, register, STRONGEST
from agents.dots_ntuple import DotsNTuple, Network
from agents.game_search import playout_returns, terminal_returns
from agents.mcts import MCTS, MCTSParams
from arcade.games.dots import DotsState, board_of
from arcade.foundation.setting_fields import ranged


def network_leaf(net: Network, exact_lines: int, exact_positions: int, search, playout_share: float = 0.0,
                 minimax: float = 0.0) -> tuple:
    """The compiled tree's leaf argument (agents/engines/tree_kernels.py: kind, args, share, minimax)
    that values leaves by `net` (the dots engine's evaluate), solving those of exact_lines free lines or fewer
    with `search` (an agents/alphabeta_dots.Search; None: none solved), the network's guess mixed with a random
    playout's result by playout_share; with minimax > 0 the leaves are played out and the network's values
    backed up apart, as implicit minimax."""
    if search is None:
        from agents.engines.dots.tree_positions import NO_SOLVER as solver  # (never read: no leaf is solved)
    else:
        solver = (search.arrays, search.table, search.stats, search.scratch, search.sides)
    args = (net.args(), int(exact_lines), int(exact_positions), solver)
    from agents.engines.tree_kernels import EVALUATOR

    return EVALUATOR, args, float(playout_share), float(minimax)


class NetworkLeaves:
    """MCTS's leaf evaluation by the learnt network, in place of random playouts: a leaf's expected final
    margin (the boxes each side has, plus the network's value of the rest for the side to move) squashed to
    a result in [-1, 1] for each seat, tanh(margin / 2), mixed with a random playout's result by playout_share
    ((1 - share) guess + share playout, as AlphaGo mixed its value network and rollouts); a finished game its
    exact result. With exact_lines,
    a leaf with that many free lines or fewer is solved by the compiled alpha-beta (its own table, kept from
    leaf to leaf and move to move) and scores its exact result, a win, draw or loss, unless the solve would
    take more than exact_positions positions (then the network values it). With a minimax weight w > 0 (the
    compiled tree's: `evaluate` here ignores it) the leaves are random playouts again and the network's values
    steer the walk beside their means, backed up as a minimax (implicit minimax backups)."""

    def __init__(self, learner: DotsNTuple, exact_lines: int = 0, exact_positions: int = 0,
                 playout_share: float = 0.0, minimax: float = 0.0):
        self.learner = learner
        self.exact_lines, self.exact_positions = exact_lines, exact_positions
        self.playout_share, self.minimax = playout_share, minimax
        self._solvers: dict[tuple[int, int], object] = {}

    def __getstate__(self):
        """Pickled without its solvers (their tables are tens of MB): a copy makes its own."""
        return dict(self.__dict__, _solvers={})

    def _exact(self, s) -> float | None:
        """The exact margin the mover can force over the open boxes of leaf s, or None (too many free lines, or
        more positions than allowed)."""
        if s.board.n_lines - s.lines.bit_count() > self.exact_lines:
            return None
        key = (s.rows, s.cols)
        if key not in self._solvers:
            from agents.alphabeta_dots import Search

            self._solvers[key] = Search(*key)
        return self._solvers[key].exact_value(s.lines, self.exact_positions)

    def prepare(self, rows: int, cols: int) -> None:
        """The board's solver made (its table allocated, its kernels loaded) now, not in a timed decision."""
        if self.exact_lines:
            self._exact(DotsState(rows, cols, (1 << (board_of(rows, cols).n_lines - 1)) - 1))

    def compiled_leaf(self, state) -> tuple:
        """This evaluation as mcts's compiled tree takes it (network_leaf): the board's network and, with
        exact_lines, its solver (made once per board, kept from move to move)."""
        key = (state.rows, state.cols)
        if self.exact_lines and key not in self._solvers:
            self.prepare(*key)
        return network_leaf(self.learner._net(*key)[0], self.exact_lines, self.exact_positions,
                            self._solvers.get(key), self.playout_share, self.minimax)

    def evaluate(self, states: list, rng) -> list[tuple[float, ...]]:
        """Each state's result per seat (the leaves of one search share its root's board: one network)."""
        rules = self.learner.rules
        out: list = [None] * len(states)
        guessed = []
        for i, s in enumerate(states):
            if rules.is_terminal(s):
                out[i] = terminal_returns(rules, s)
                continue
            v = self._exact(s)
            if v is None:
                guessed.append(i)
                continue
            result = float(np.sign(s.scores[0] - s.scores[1] + (v if s.mover == 0 else -v)))
            out[i] = (result, -result)
        if guessed:
            first = states[guessed[0]]
            net = self.learner._net(first.rows, first.cols)[0]
            worth = net.values(np.array([states[i].lines for i in guessed], np.int64))
            played = [0.0] * len(guessed)
            if self.playout_share > 0:
                played = [r[0] for r in playout_returns(rules, [states[i] for i in guessed], rng, first.board.n_lines)]
            for i, v, z in zip(guessed, worth.tolist(), played, strict=True):
                s = states[i]
                result = float(np.tanh((s.scores[0] - s.scores[1] + (v if s.mover == 0 else -v)) / 2.0))
                result = (1.0 - self.playout_share) * result + self.playout_share * z
                out[i] = (result, -result)
        return out


@dataclass(frozen=True)
class NetworkMCTSParams(MCTSParams):
    """settings.toml's [dots.mcts-ntuple]: mcts's parameters, and when a leaf is solved rather than guessed."""

    exact_lines: int = ranged(0, 60, 16)  # a leaf with this many free lines or fewer is solved exactly (0: never)
    exact_positions: int = ranged(1, 100_000_000, 20_000)  # ... unless that takes more positions than this
    playout_share: float = ranged(0.0, 1.0, 0.0)  # a guessed leaf: this share a random playout's result
    # > 0: leaves played out as mcts's, the network's values backed up as a minimax and weighted this much
    # beside the playouts' mean in the walk (implicit minimax backups, Lanctot et al. 2014); 0: the network
    # values the leaves (39-45% against mcts at equal time: see README's "Dots and match-3 that learn")
    minimax: float = ranged(0.0, 1.0, 0.25)
    # UCT's c: with the minimax values steering, less exploration paid (against mcts, 200 games: c = 1 64.8%,
    # c = 2 56.5%)
    exploration: float = ranged(0.0, 10.0, 1.0)


@register("mcts-ntuple", ("dots",), "Monte Carlo tree search steered by the learnt ntuple network",
          order=25, process=True,
          about="The mcts agent's tree search, each new position played out at random (near the end solved "
                "exactly), with the ntuple agent's learnt value of it backed up as a minimax to help choose "
                "which move to look at next. Compare it with mcts by Tab.",
          params=NetworkMCTSParams, group=STRONGEST, title="Tree search + learnt network")
class NetworkMCTS(MCTS):
    """MCTS with NetworkLeaves, on the compiled tree (the kernels value its leaves: NetworkLeaves.compiled_leaf);
    its own [dots.mcts-ntuple] table (mcts's parameters, the exact endgame's, the network's weight)."""

    name = "mcts-ntuple"

    @classmethod
    def unused_params(cls, rules, values) -> dict[str, str]:
        """mcts's, and where every position of the board is solved exactly (no more lines than exact_lines) the
        network's and the playouts' (where no playout is played, its length)."""
        out = super().unused_params(rules, values)
        lines = board_of(rules.rows, rules.cols).n_lines
        if lines <= values.exact_lines:
            why = f"this board has {lines} lines, within exact_lines {values.exact_lines}: every leaf is solved exactly"
            out.update({"playout_share": why, "rollout_moves": why})
        elif values.playout_share == 0:
            out["rollout_moves"] = "playout_share 0: no leaf is played out at random"
        return out

    def __init__(self, rules, settings):
        p = settings.agent_params(rules.game_id, self.name)
        leaves = NetworkLeaves(DotsNTuple(rules, settings), p.exact_lines, p.exact_positions, p.playout_share,
                               p.minimax)
        super().__init__(rules, settings, evaluator=leaves)
        compiled.warm([lambda: leaves.prepare(rules.rows, rules.cols), lambda: self.warm_tree(rules.new_state())])

    def value_legend(self, mover: str) -> str:
        if self.evaluator.minimax > 0:
            return (f"The numbers: mcts-ntuple's mean result for {mover} over its imagined games through that "
                    "move (+1 a win, 0 a draw, -1 a loss; each new position played out at random, or solved "
                    "exactly once few lines are left; the learnt network's values, backed up as a minimax, "
                    f"weigh {self.evaluator.minimax:.0%} in which move it looks at next).")
        share = self.evaluator.playout_share
        mixed = f" ({1 - share:.0%}) and a random game played out ({share:.0%})" if share > 0 else ""
        return (f"The numbers: mcts-ntuple's mean result for {mover} over its imagined games through that move "
                f"(+1 a win, 0 a draw, -1 a loss; each new position valued by the learnt network{mixed}, or "
                "solved exactly once few lines are left).")


@register("alpha-beta-ntuple", ("dots",), "alpha-beta with the learnt ntuple network valuing its horizon",
          order=22, process=True,
          about="The alpha-beta search (chain analysis, exact endgames, timed deepening), but where it stops "
                "looking a position is worth what the ntuple agent's learnt network expects of it, not the "
                "parity of the safe lines left. Compare it with alpha-beta by Tab at the same time a move.",
          params=AlphaBetaParams, group=STRONGEST, title="Alpha-beta + learnt network")
class NetworkAlphaBeta(AlphaBetaDots):
    """AlphaBetaDots whose horizon is the network's value; its own [dots.alpha-beta-ntuple] table."""

    name = "alpha-beta-ntuple"

    def __init__(self, rules, settings):
        self.learner = DotsNTuple(rules, settings)  # (first: the search made as it starts reads its network)
        super().__init__(rules, settings)

    def network(self, rows: int, cols: int):
        return self.learner._net(rows, cols)[0].args()

    def value_legend(self, mover: str) -> str:
        return (f"The numbers: the box margin {mover} can force after that line, as far as alpha-beta looks "
                f"ahead (beyond: what the learnt network expects from there).")


def _warm_up(first_move: bool) -> list:
    """mcts-ntuple's compiled tree with the network's leaves (solved by the alpha-beta near the end)."""
    from agents.alphabeta_dots import Search
    from agents.engines.dots.tree import DotsTree

    def network_tree() -> None:
        tree = DotsTree(2, 2)
        tree.leaf = network_leaf(Network(2, 2), 16, 1000, Search(2, 2))
        tree.warm(DotsState(2, 2))

    return [network_tree]


declare_warm_up("dots", _warm_up, order=60)
