"""Match-3 that learns what a board is worth: a linear value of board features, TD(0), greedy at 1 ply.

A settled board's value is the points the turns to come can expect, discounted by the course's DISCOUNT
a turn (so it weighs the next turn or two: a board full of ready lines is worth more than a dead one).
It is a weighted sum of features every board has (FEATURES): how many swaps make a line, the best and
the mean turn score greedy-cascade sees among them (cascades of the known gems), how many score 50 or
more, and the pairs of equal neighbours that may become lines. Training plays games on many boards at
once (arcade.games.match3_batch) with greedy-cascade's swap (a random one with probability epsilon) and
moves each board's value toward the turn's points plus the discounted value of the board after it (a
normalised step). Playing, it tries every legal swap on SAMPLES futures of new gems (the same gems for
every swap) and takes the swap whose points plus discounted value of the board after is largest: one ply
deeper than greedy-cascade, which counts the turn alone. Kept in the data folder (td_value_match3.npz),
shipped too.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.base import Decision, TrainingDiverged, best_action, register, LEARNT
from agents.search_tree import edge, node
from arcade.games import match3_batch as mb
from arcade.games.match3 import GAME, Match3State, legal_mask
from arcade.foundation.setting_fields import ranged
from arcade.foundation.storage import ASSETS, load_npz, save_npz, set_aside

FORMAT_VERSION = 1
FILENAME = "td_value_match3.npz"
FEATURES = ("bias", "legal swaps / 10", "best greedy turn / 100", "mean greedy turn / 100",
            "swaps of 50+ points / 5", "equal neighbours / 20")
SAMPLES = 8  # futures of new gems each swap is tried on, when it plays
BOARDS = 64  # games a training plays at once
CURVE_POINTS = 20
CURVE_GAMES = 8  # games a checkpoint plays at 1 ply (seeds from CURVE_SEED, never a training's)
CURVE_SEED = 30_000_001


@dataclass(frozen=True)
class Match3TDParams:
    """settings.toml's [match3.td-value]."""

    learning_rate: float = ranged(0.0001, 1.0, 0.05, trains_only=True)  # share of a value's error a step
    epsilon: float = ranged(0.0, 1.0, 0.1, trains_only=True)  # a random legal swap instead, in training
    discount: float = ranged(0.0, 0.99, 0.5, course=0.5)  # a turn's weight against the one before
    games: int = ranged(1, 10_000_000, 2_000, trains_only=True)  # games of one training run


def greedy_scores(boards: np.ndarray, mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(the legal mask, greedy-cascade's turn score of every legal swap, -1 elsewhere) of settled boards; a
    mask already known (mb.settle returns it) is not worked out again."""
    mask = legal_mask(boards) if mask is None else mask
    return mask, mb.turn_scores(boards, mask)


def features(boards: np.ndarray, mask: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """The FEATURES of each settled board (B x F), from its mask and greedy scores (greedy_scores)."""
    legal = mask.sum(axis=1)
    best = np.maximum(scores.max(axis=1), 0)
    mean = np.where(legal > 0, np.where(mask, scores, 0).sum(axis=1) / np.maximum(legal, 1), 0)
    big = ((scores >= 50) & mask).sum(axis=1)
    pairs = (boards[:, :, 1:] == boards[:, :, :-1]).sum(axis=(1, 2)) + (boards[:, 1:] == boards[:, :-1]).sum(axis=(1, 2))
    return np.stack([np.ones(len(boards)), legal / 10, best / 100, mean / 100, big / 5, pairs / 20], axis=1)


def board_values(weights: np.ndarray, boards: np.ndarray, turns_left, mask: np.ndarray | None = None) -> np.ndarray:
    """The value of each settled board with `turns_left` turns to come (0 where none are); `mask`: their legal
    masks where already known."""
    left = np.asarray(turns_left)
    if len(boards) == 0 or not (left > 0).any():  # (no turn to come: nothing to score)
        return np.zeros(len(boards))
    mask, scores = greedy_scores(boards, mask)
    return np.where(left > 0, features(boards, mask, scores) @ weights, 0.0)


@register("td-value", ("match3",), "a learnt value of the board after the swap (TD(0)), one ply deeper than "
          "greedy-cascade", order=20,
          about="It values a board by what its next turns can expect: a weighted sum of features (swaps that "
                "make lines, the best turn greedy-cascade sees, pairs of equal gems), learnt by TD(0) over "
                "many training games. It tries each swap on a few futures of new gems and takes the one "
                "whose points plus the value of the board after are largest. t trains it.",
          params=Match3TDParams, group=LEARNT, title="TD learning of board values")
class Match3TD:
    """Greedy at 1 ply on points + discounted learnt value; trains by TD(0) on batches of boards."""

    name = "td-value"

    def __init__(self, rules, settings):
        self.rules = rules
        p = settings.agent_params(GAME.id, "td-value")
        self.rate, self.epsilon, self.discount = p.learning_rate, p.epsilon, p.discount
        self.data_dir = Path(settings.data_dir)
        self.weights, self.meta, self.source = self._load()

    # --- the learnt weights -------------------------------------------------------------------------
    def _read(self, path: Path, then: str):
        arrays = load_npz(path, FORMAT_VERSION, required=("weights", "games"), then=then)
        if arrays is None:
            return None
        weights = arrays["weights"]
        if weights.shape != (len(FEATURES),) or not np.isfinite(weights).all():
            set_aside(path, f"weights of shape {weights.shape} (or not numbers), expected {(len(FEATURES),)}", then)
            return None
        return weights.astype(np.float64), {"games": int(arrays["games"])}

    def _load(self):
        for path, label in ((self.data_dir / FILENAME, "trained"), (ASSETS / FILENAME, "shipped")):
            got = self._read(path, "the shipped weights play" if label == "trained" else "playing untrained")
            if got is not None:
                return got[0], got[1], f"{label} ({FILENAME})"
        return np.zeros(len(FEATURES)), {"games": 0}, "untrained"

    def load(self, path: Path) -> bool:
        got = self._read(Path(path), "the weights before it plays")
        if got is None:
            return False
        self.weights, self.meta = got
        self.source = f"loaded ({Path(path).name})"
        return True

    def save(self, path: Path | None = None) -> bool:
        path = Path(path) if path else self.default_path()
        ok = save_npz(path, FORMAT_VERSION, weights=self.weights, games=np.array(self.meta["games"]))
        if ok:
            self.source = f"trained ({path.name})"
        return ok

    def default_path(self) -> Path:
        return self.data_dir / FILENAME

    @classmethod
    def default_episodes(cls, settings, game: str) -> int:
        return settings.agent_params(GAME.id, "td-value").games

    # --- playing ------------------------------------------------------------------------------------
    def swap_values(self, state: Match3State, rng: np.random.Generator, weights=None) -> np.ndarray:
        """Each legal swap's mean over SAMPLES futures of its points plus the discounted value after it."""
        return self.futures(state, rng, weights)[3].mean(axis=1)

    def futures(self, state: Match3State, rng: np.random.Generator, weights=None):
        """The SAMPLES futures of every legal swap: (after: the settled boards, A x SAMPLES x n x n; points and
        board values, A x SAMPLES; worth = points + discount x value), A the legal swaps in order."""
        weights = self.weights if weights is None else weights
        size = state.board.shape[0]
        legal = np.flatnonzero(legal_mask(state.board[None])[0])
        tapes = rng.integers(0, state.colours, size=(SAMPLES, 4 * size * size), dtype=np.int8)
        boards = np.repeat(state.board[None], len(legal) * SAMPLES, axis=0)
        after, points = mb.play(boards, np.repeat(legal, SAMPLES),
                                mb.TapeRefill(tapes, np.tile(np.arange(SAMPLES), len(legal))))
        left = state.turns_left - 1
        mask = mb.settle(after, left, rng) if left > 0 else None
        values = board_values(weights, after, left, mask)
        shape = (len(legal), SAMPLES)
        return (after.reshape(*shape, size, size), points.reshape(shape), values.reshape(shape),
                (points + self.discount * values).reshape(shape))

    def tree(self, state: Match3State, rng=None) -> dict:
        """Its one ply with the futures behind it: a swap a chance node worth explain's value, over the SAMPLES
        refills it was tried on (each p = 1/SAMPLES), each a leaf worth the points plus the discounted learnt
        value of the settled board it left (that board drawn by the tree view)."""
        return self._tree_from(state, _explain_rng(state))

    def _tree_from(self, state: Match3State, rng) -> dict:
        """The tree of the futures `rng` draws (as the values of a decision on that Generator draw them)."""
        after, points, values, worth = self.futures(state, rng)
        moves = []
        for i, swap in enumerate(state.swaps().tolist()):
            outcomes = [edge(node("leaf", worth[i, k], points=float(points[i, k]), learnt=float(values[i, k])),
                             outcome=f"refill {k + 1}", p=1 / SAMPLES,
                             state=Match3State(after[i, k], state.turns_left - 1, state.score + int(points[i, k]),
                                               state.shuffles, state.colours))
                        for k in range(SAMPLES)]
            moves.append(edge(node("chance", float(worth[i].mean()), outcomes), action=tuple(swap)))
        if not moves:
            return node("leaf", 0.0)
        return node("max", max(e["node"]["value"] for e in moves), moves)

    def board_worth(self, boards: np.ndarray, turns_left, mask: np.ndarray | None = None) -> np.ndarray:
        """The learnt worth of settled boards with `turns_left` turns to come (their legal masks where known):
        the discounted points those turns can expect, 0 where none come."""
        return board_values(self.weights, boards, turns_left, mask)

    def explain(self, state: Match3State) -> dict[tuple, float]:
        """{swap: its points plus the discounted value of the board after, over SAMPLES futures} (the futures
        drawn from a Generator seeded by the board, so asking twice gives the same numbers)."""
        rng = _explain_rng(state)
        return self._values(state, rng)

    def _values(self, state, rng) -> dict[tuple, float]:
        worth = self.swap_values(state, rng)
        return {tuple(sw): float(v) for sw, v in zip(state.swaps().tolist(), worth, strict=True)}

    def act(self, state, rng=None) -> tuple:
        return best_action(self._values(state, rng if rng is not None else np.random.default_rng(0)))

    def decide(self, state, rng, tree: bool = False) -> Decision:
        """One draw of futures from `rng`: each swap's value over them, the best played, and (asked for) the
        tree of those same futures."""
        rng = rng if rng is not None else np.random.default_rng(0)
        start = copy.deepcopy(rng) if tree else None
        values = self._values(state, rng)
        return Decision(best_action(values), values, self._tree_from(state, start) if tree else None)

    def value_legend(self, mover: str) -> str:
        return ("The numbers: the points each swap scores plus the learnt value of the board it leaves "
                f"(the next turns, each weighted by {self.discount:g} of the one before), over {SAMPLES} futures.")

    def describe(self) -> list[str]:
        shown = ", ".join(f"{w:+.2f}" for w in self.weights)
        return [f"weights: {self.source}, trained {self.meta['games']:,} games", f"({shown})"]

    # --- training -----------------------------------------------------------------------------------
    def train(self, episodes: int, rng, progress=None, from_scratch: bool = False, stop=None, checkpoint=None,
              watch=None, jobs: int = 1) -> None:
        """TD(0) over `episodes` games, BOARDS at a time, greedy-cascade moving (epsilon: a random swap);
        checkpoint(done, {"mean score at 1 ply": ...}) at CURVE_POINTS points."""
        weights = np.zeros(len(FEATURES)) if from_scratch else np.array(self.weights)
        games = 0 if from_scratch else self.meta["games"]
        marks = sorted({max(1, round(episodes * (i + 1) / CURVE_POINTS)) for i in range(CURVE_POINTS)})
        def point(done: int, measured=weights) -> None:  # (a stop asked while it measures drops the point)
            score = self.mean_score(measured, stop)
            if score is not None:
                checkpoint(done, {"mean score at 1 ply": score})

        initial = weights.copy()  # (its point is measured after the first games: the bar moves within a second)
        done = 0
        while done < episodes and not (stop is not None and stop.is_set()):
            batch = min(BOARDS, episodes - done)
            self._train_games(weights, batch, rng, watch)
            if not np.isfinite(weights).all():
                raise TrainingDiverged(f"the values ran away after {done:,} games; lower [match3.td-value] "
                                       "learning_rate")
            before, done = done, done + batch
            if progress is not None:
                progress(done)
            if checkpoint is not None and before == 0:
                point(0, initial)
            if checkpoint is not None and any(before < m <= done for m in marks):
                point(done)
        self.weights, self.meta = weights, {"games": games + done}
        self.source = "trained (unsaved)"

    def _train_games(self, weights: np.ndarray, n: int, rng, watch) -> None:
        """n games on the batched engine, learning as they go (in place)."""
        rules = self.rules
        starts = [rules.new_state(rng) for _ in range(n)]
        boards = np.stack([s.board for s in starts])
        colours, left = starts[0].colours, starts[0].turns_left
        refill = mb.RngRefill(rng, colours)
        mask, scores = greedy_scores(boards)
        phi = features(boards, mask, scores)
        while left > 0:
            choice = np.argmax(scores, axis=1)
            explore = rng.random(n) < self.epsilon
            choice[explore] = mb.random_legal(mask[explore], rng)
            boards, points = mb.play(boards, choice, refill)
            left -= 1
            if left > 0:
                mask, scores = greedy_scores(boards, mb.settle(boards, left, rng))
                phi_next = features(boards, mask, scores)
                target = points + self.discount * (phi_next @ weights)
            else:
                phi_next, target = phi, points.astype(np.float64)
            error = target - phi @ weights
            weights += self.rate * (error / (phi * phi).sum(axis=1)) @ phi / n
            phi = phi_next
            if watch is not None and left % 10 == 0:
                watch(Match3State(boards[0].copy(), left, 0, 0, colours))

    def mean_score(self, weights: np.ndarray, stop=None) -> float | None:
        """The mean final score of CURVE_GAMES games played at 1 ply with these weights; None once a set
        `stop` event is seen between two turns (a stopping training does not wait for the measure)."""
        rules, total = self.rules, 0
        for g in range(CURVE_GAMES):
            rng = np.random.default_rng(CURVE_SEED + g)
            state = rules.new_state(rng)
            while not rules.is_terminal(state):
                if stop is not None and stop.is_set():
                    return None
                worth = self.swap_values(state, rng, weights)
                state = rules.step(state, tuple(state.swaps()[int(np.argmax(worth))].tolist()), rng)
            total += state.score
        return total / CURVE_GAMES


def _explain_rng(state: Match3State) -> np.random.Generator:
    """The Generator explain (and the tree behind it) draws the futures from: seeded by the board and the turns
    left, so asking twice gives the same numbers."""
    return np.random.default_rng(np.frombuffer(state.board.tobytes(), np.uint8) + np.uint8(state.turns_left))
