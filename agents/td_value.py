"""The course's TD value-function agent for tic-tac-toe, trained by epsilon-greedy self-play.

Each side has a table V over all 3**9 state hashes, initialised as the course
does: 1 where that side has won, 0 for a lost end, 0.5 otherwise; a drawn end
gets `draw_value` (the course's 0 by choice; the shipped default is 0.5, see
settings.toml for why).
Self-play: both sides pick the move whose successor they value most (a random
move with probability epsilon), and every state of the episode is recorded by
both. After the episode each side walks its history backwards:
V(s) <- V(s) + alpha (V(s') - V(s)); terminal values never change.

An episode is cheap: successors come from precomputed lists over the hashes,
no board objects. Playing (not training) is greedy. Tables are saved as a
versioned .npz (atomic); the data folder's copy wins over the shipped one in
assets/.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.search_tree import one_ply
from agents.base import best_action, register, COURSE
from arcade.games.tictactoe import GAME, N_STATES, X, O, reachable_states, tables
from arcade.foundation.setting_fields import ranged
from arcade.foundation.storage import ASSETS, load_npz, save_npz, set_aside

FORMAT_VERSION = 1
CHECKPOINTS = 40  # points of a training run where the learning curve is measured
FILENAME = "tictactoe_td.npz"
SHIPPED = ASSETS / FILENAME
RUN_KEYS = ("run_games", "run_done")  # a saved table's record of the run that wrote it (resumable checkpoints)


def initial_values(draw_value: float = 0.0) -> np.ndarray:
    """V for X (row 0) and O (row 1): 1 won, 0 lost, `draw_value` drawn, 0.5 otherwise.

    The course's init is draw_value = 0 (V is the probability of winning)."""
    t = tables()
    values = np.full((2, N_STATES), 0.5)
    for seat, mark in ((0, X), (1, O)):
        values[seat, t.terminal] = 0.0
        values[seat, t.terminal & (t.winner == 0)] = draw_value
        values[seat, t.terminal & (t.winner == mark)] = 1.0
    return values


def td_backup(values: list[float], history: list[int], alpha: float) -> None:
    """The course's update, backwards through one side's episode history (in place)."""
    target = values[history[-1]]
    for s in reversed(history[:-1]):
        v = values[s] + alpha * (target - values[s])
        values[s] = v
        target = v


class _Successors:
    """Python lists of (cell, next state) per state: faster than numpy for one state at a time."""

    def __init__(self):
        t = tables()
        self.moves: list[list[tuple[int, int]]] = [[] for _ in range(N_STATES)]
        for s in reachable_states():
            row = t.successor[s]
            self.moves[s] = [(int(k), int(row[k])) for k in np.flatnonzero(row >= 0)]
        self.terminal = t.terminal.tolist()


def self_play(values: np.ndarray, episodes: int, alpha: float, epsilon: float, rng: np.random.Generator,
              progress=None, every: int = 1000, callback=None, stop=None) -> np.ndarray:
    """Train both tables by epsilon-greedy self-play; returns the new tables (the input is not changed).

    progress(done) is called every `every` episodes; so is callback(done, tables) when given. A set
    `stop` event (threading.Event) ends the training early, after the current batch.
    """
    succ = _Successors()
    moves, terminal = succ.moves, succ.terminal
    tables_ = [values[0].tolist(), values[1].tolist()]
    done = 0
    while done < episodes and not (stop is not None and stop.is_set()):
        batch = min(every, episodes - done)
        coins = rng.random((batch, 2, 9))  # explore?, which move: drawn once per batch
        for e in range(batch):
            s, mover, history = 0, 0, []
            for ply in range(9):
                options = moves[s]
                if coins[e, 0, ply] < epsilon:
                    s = options[int(coins[e, 1, ply] * len(options))][1]
                else:
                    v = tables_[mover]
                    best, s_best = -1.0, -1
                    for _, nxt in options:  # the first of equal values, as the course's loop does
                        if v[nxt] > best:
                            best, s_best = v[nxt], nxt
                    s = s_best
                history.append(s)
                if terminal[s]:
                    break
                mover ^= 1
            td_backup(tables_[0], history, alpha)
            td_backup(tables_[1], history, alpha)
        done += batch
        if progress:
            progress(done)
        if callback:
            callback(done, np.array(tables_))
    return np.array(tables_)


@dataclass(frozen=True)
class TDValueParams:
    """settings.toml's [tictactoe.td-value]: how self-play trains (the agent plays greedily from its table)."""

    alpha: float = ranged(0.0, 1.0, 0.05, trains_only=True)  # TD step size
    epsilon: float = ranged(0.0, 1.0, 0.1, trains_only=True)  # exploration during self-play
    episodes: int = ranged(1, 100_000_000, 1_000_000, trains_only=True)  # self-play games of one training run
    # The course values a drawn end at 0 (V = probability of winning). Then O, who can at best draw
    # against perfect play, cannot tell a draw from a loss and keeps losing to minimax; 0.5 fixes it.
    draw_value: float = ranged(0.0, 1.0, 0.5, course=0.0, trains_only=True)


@register("td-value", ("tictactoe",), "the course's TD value table V(s), learned by epsilon-greedy self-play",
          order=10, about="A table V(s) per side: the estimated chance to win from each board. Trained by "
                          "playing itself (exploring with probability epsilon) and moving each state's value "
                          "toward the next one's: V(s) <- V(s) + alpha (V(s') - V(s)). It plays the move to "
                          "the board it values most.", params=TDValueParams,
                      group=COURSE,
                      title="TD learning (the course's)")
class TDValueAgent:
    """Plays greedily from the TD tables ([tictactoe.td-value]); trains by
    self-play and saves to the data folder; loads the trained table, else the shipped one."""

    name = "td-value"

    def __init__(self, rules, settings):
        self.rules = rules
        p = settings.agent_params(rules.game_id, "td-value")
        self.alpha = p.alpha
        self.epsilon = p.epsilon
        self.draw_value = p.draw_value
        self.data_path = Path(settings.data_dir) / FILENAME
        self.run: dict[str, int] = {}  # the training run its table is a checkpoint of: run_games, run_done
        self.values, self.source = self._load()

    def _load(self):
        for path, label in ((self.data_path, "trained"), (SHIPPED, "shipped")):
            then = "the shipped table plays" if label == "trained" else "playing from the initial values"
            read = self._read(path, then)
            if read is not None:
                self.run = read[1] if label == "trained" else {}
                return read[0], f"{label} ({path.name})"
        return initial_values(self.draw_value), "untrained"

    @staticmethod
    def _read(path: Path, then: str) -> tuple[np.ndarray, dict[str, int]] | None:
        """(the tables, the record of the run that wrote them), or None (a bad file set aside)."""
        arrays = load_npz(path, FORMAT_VERSION, required=("values",), then=then)
        if arrays is None:
            return None
        if arrays["values"].shape == (2, N_STATES) and np.isfinite(arrays["values"]).all():
            run = {k: int(arrays[k]) for k in RUN_KEYS if k in arrays and arrays[k].shape == ()}
            return arrays["values"].astype(np.float64), run
        set_aside(path, f"values of shape {arrays['values'].shape} (or not finite), expected {(2, N_STATES)}", then)
        return None

    def load(self, path: Path) -> bool:
        read = self._read(Path(path), "the table before it plays")
        if read is None:
            return False
        self.values, self.run = read
        self.source = f"loaded ({Path(path).name})"
        return True

    def resumed_at(self, episodes: int) -> int:
        """The games done of a stopped run of `episodes` games whose checkpoint is its table (train goes on from
        there); 0 where it starts afresh."""
        done = self.run.get("run_done", 0)
        return done if self.run.get("run_games") == episodes and 0 < done < episodes else 0

    @classmethod
    def default_episodes(cls, settings, game: str) -> int:
        return settings.agent_params(GAME.id, "td-value").episodes

    def default_path(self) -> Path:
        return self.data_path

    def describe(self) -> list[str]:
        return [f"table: {self.source}", f"alpha {self.alpha:g}, epsilon {self.epsilon:g}"]

    def value_legend(self, mover: str) -> str:
        return (f"The numbers: {self.name}'s value V of the board after {mover} plays there "
                "(its estimate of the chance to win).")

    def explain(self, state: int) -> dict[int, float]:
        """{cell: V of the state after the mover plays there}, from the mover's own table."""
        seat = self.rules.to_move(state)
        succ = tables().successor[state]
        return {int(k): float(self.values[seat, succ[k]]) for k in np.flatnonzero(succ >= 0)}

    def act(self, state: int, rng) -> int:
        return best_action(self.explain(state), rng)

    def tree(self, state: int, rng=None) -> dict:
        """Its one ply as a tree (agents/search_tree.one_ply): each cell a leaf worth V of the position it leads
        to, from the mover's own table (the tree view draws that position)."""
        return one_ply(self.explain(state), learnt="V of the position after the move")

    def train(self, episodes: int, rng: np.random.Generator, progress=None, from_scratch: bool = False,
              stop=None, checkpoint=None, watch=None, jobs: int = 1):
        """Self-play from the current tables (or from the course's initial values); swaps them in at the end.
        A run of N games resumes where a saved unfinished run of N games stopped (its checkpoint was loaded), so
        it plays exactly N in all; any other start is a new run. checkpoint(done) is called at about CHECKPOINTS
        points (done counts the whole run's games), with this agent playing from the tables so far."""
        start = initial_values(self.draw_value) if from_scratch else self.values
        before = 0 if from_scratch else self.resumed_at(episodes)
        self.run = {"run_games": episodes, "run_done": before}
        every = max(1000, episodes // CHECKPOINTS // 1000 * 1000)

        def at_batch(done, tables):
            done += before
            if checkpoint is not None and (done % every == 0 or done == episodes):
                self.values, self.run["run_done"] = tables, done
                checkpoint(done)

        played = [0]  # this call's games so far (a stop event may end the run early)

        def at_progress(done):
            played[0] = done
            if progress is not None:
                progress(before + done)

        self.values = self_play(start, episodes - before, self.alpha, self.epsilon, rng, at_progress, stop=stop,
                                callback=at_batch if checkpoint is not None else None)
        self.run["run_done"] = before + played[0]
        self.source = "trained (unsaved)"

    def save(self, path: Path | None = None) -> bool:
        path = Path(path) if path else self.default_path()
        ok = save_npz(path, FORMAT_VERSION, values=self.values,
                      params=np.array([self.alpha, self.epsilon, self.draw_value]),
                      **{k: np.array(v) for k, v in self.run.items()})
        if ok:
            self.source = f"trained ({path.name})"
        return ok
