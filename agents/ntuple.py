"""The `ntuple` 2048 agent: an afterstate value function learnt by TD(0) on an n-tuple network.

It plays greedily at 1 ply: the move whose reward (the points its merges gain) plus the learnt value of
the board it leaves (before the computer's tile) is largest; explain shows that sum for each move. It
`Trains` (agents/ntuple_td.py) from any screen with `t` and from `python main.py train 2048 --agent
ntuple`, and keeps what it learnt per rules, one file per probability of a 4 (ntuple_2048_p0.1.npz for
the standard rules, ntuple_2048_p0.npz for the course's). It loads, in order: the network its last
training saved (so a student sees what they trained; ntuple_2048_p0.1.plays names it, and `b` on the
screen, agents.base.ShipsTable, plays the shipped one again), the data folder's network for these rules, the shipped
one for these rules, the same two for the other rules (and says so in `i`), else an empty network (every
value 0: it plays for the next merge only).

Files are sparse (most of the 67M weights of the 4x6 set are never visited): the indexes of the weights
training moved, as gaps, and their values in float16 with one power-of-two scale. A network read from a
file is read once per process and shared read-only by every agent made from it; training works on a copy.
"""
from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.engines import compiled
from agents.base import TrainingDiverged, best_action, register, LEARNT
from agents.engines.progress import report_progress
from agents.ntuple_net import Coherence, NTupleNetwork, parse_tuple_set
from agents.ntuple_td import Report, Restart, Schedule, train as td_train
from agents.engines.twenty48 import board64
from arcade.games.twenty48 import GAME, State2048
from arcade.foundation.notices import notice
from arcade.foundation.setting_fields import one_of, ranged
from arcade.foundation.storage import ASSETS, ReadOnce, atomic_write_bytes, load_npz, save_npz, set_aside



@dataclass(frozen=True)
class NTupleParams:
    """settings.toml's [2048.ntuple]: the tuple set, and how a training run learns (only training reads those)."""

    tuples: str = one_of(("4x6", "4x6/16384", "2x4+2x6", "3x4"), "4x6", trains_only=True)  # "/16384": late tables from 16384
    # TD(0): a board's value closes this share of its error a step (the last third of a run: a quarter of it)
    learning_rate: float = ranged(0.001, 0.99, 0.4, trains_only=True)
    games: int = ranged(1, 10_000_000, 100_000, trains_only=True)  # games of one training run
    # restarts: this share of new training games starts from a board on which a game from the start first made
    # the tile restart_tile (0: every game starts empty); they teach the boards past it
    restart_tile: int = one_of((0, 2048, 4096, 8192, 16384), 0, trains_only=True)
    restart_share: float = ranged(0.0, 0.95, 0.5, trains_only=True)
    # "coherent": each weight's rate is the learning rate times its temporal coherence, falling as it settles
    rates: str = one_of(("fixed", "coherent"), "fixed", trains_only=True)


FORMAT_VERSION = 1
FINE_TUNE_SHARE = 1 / 3  # the last third of a run learns at a quarter of the learning rate
FINE_TUNE_FACTOR = 0.25


def filename(p_four: float) -> str:
    """The file of a network trained for rules where a new tile is a 4 with probability p_four."""
    return f"ntuple_2048_p{p_four:g}.npz"


def rules_name(p_four: float) -> str:
    if p_four == 0:
        return "the course's rules (only 2s)"
    if abs(p_four - 0.1) < 1e-12:
        return "the standard rules (a 4 one time in ten)"
    return f"rules with a 4 at probability {p_four:g}"


class Loaded:
    """What a network file holds: the network and its record (rules, games, moves, the run it belongs to)."""

    def __init__(self, net: NTupleNetwork, meta: dict, path: Path):
        self.net, self.meta, self.path = net, meta, path


def _where(path: Path) -> str:
    """A network file's name that holds on every machine of a cluster: assets/ files by their name there."""
    path = Path(path).resolve()
    return f"assets:{path.name}" if path.parent == ASSETS else str(path)


def _network_at(where: str) -> NTupleNetwork:
    path = ASSETS / where[len("assets:"):] if where.startswith("assets:") else Path(where)
    loaded = read(path, "the network before it plays")
    if loaded is None:
        raise FileNotFoundError(f"{path}: the network this agent was made with cannot be read here")
    return loaded.net


_READ = ReadOnce(keep=1)  # one network file a process: the last read


def encode(net: NTupleNetwork) -> dict[str, np.ndarray]:
    """Sparse arrays of a network: gaps between the nonzero weights' indexes (uint8, 255 = 'add 255 and
    read on'), their values in float16 times 2**-scale."""
    weights = net.stored()
    idx = np.flatnonzero(weights)
    values = weights[idx]
    top = float(np.abs(values).max()) if idx.size else 1.0
    scale = int(np.floor(np.log2(60000.0 / top))) if top > 0 else 0  # the largest float16 is 65504
    gaps = np.diff(idx, prepend=-1)
    # a gap g is written as g // 255 bytes of 255, then g % 255: most gaps are small
    reps = gaps // 255
    total = int(reps.sum()) + gaps.size
    out = np.full(total, 255, dtype=np.uint8)
    ends = np.cumsum(reps + 1) - 1
    out[ends] = (gaps % 255).astype(np.uint8)
    return {"gaps": out, "values": (values * 2.0 ** scale).astype(np.float16), "scale": np.array(scale)}


def file_arrays(net: NTupleNetwork, meta: dict, p_four: float) -> dict[str, np.ndarray]:
    """What a network file holds: the tuple set, the rules, the training record and the sparse weights."""
    kept = {k: np.array(v) for k, v in meta.items() if k in ("games", "moves", "run_games", "run_done", "rate")}
    return {"tuples": np.array(net.tuple_set), "p_four": np.array(p_four), **kept, **encode(net)}


def decode(arrays: dict, size: int) -> np.ndarray:
    """The weights (float32, `size`) from encode()'s arrays."""
    gaps = np.asarray(arrays["gaps"], dtype=np.uint8)
    # a gap is the sum of its run of bytes (255s, then the last one), so a weight's index is the sum of all
    # the bytes up to its gap's last one, less 1 (one pass: no per-run sums, no int64 copy of the bytes)
    idx = np.cumsum(gaps, dtype=np.int64)[gaps != 255] - 1
    weights = np.zeros(size, dtype=np.float32)
    if idx.size and (idx[-1] >= size or idx.size != arrays["values"].size):
        raise ValueError("the weight indexes do not fit the network")
    weights[idx] = arrays["values"].astype(np.float32) * np.float32(2.0 ** -int(arrays["scale"]))
    return weights


def read(path: Path, then: str) -> Loaded | None:
    """The network in `path` (read once per process and shared read-only), None if missing or unreadable
    (an unreadable file is set aside with a notice saying `then`)."""
    return _READ.read(path, lambda p: _reported(p, then))


def _reported(path: Path, then: str) -> Loaded | None:
    task = "loading the n-tuple network"  # (a second or more: the screen says so rather than "thinking")
    report_progress(task, 0, 2, f"reading {path.name}")
    try:
        return _decoded(path, then, task)
    finally:
        report_progress(task, 2, 2)  # read or set aside, the task is over: no bar left behind


def _decoded(path: Path, then: str, task: str) -> Loaded | None:
    """read()'s work on a file not read before: its arrays, then its weights (half of `task` done)."""
    arrays = load_npz(path, FORMAT_VERSION, required=("gaps", "values", "scale", "tuples", "p_four"), then=then)
    if arrays is None:
        return None
    report_progress(task, 1, 2, "decoding the weights")
    try:
        tuple_set = str(arrays["tuples"])
        net = NTupleNetwork.from_stored(tuple_set, decode(arrays, NTupleNetwork.size_of(tuple_set)))
        weights = net.weights
    except (ValueError, KeyError) as exc:
        set_aside(path, f"not a network of a known shape ({exc})", then)
        return None
    weights.flags.writeable = False
    meta = {k: arrays[k].item() for k in ("p_four", "games", "moves", "run_games", "run_done", "rate")
            if k in arrays}
    meta["tuples"] = tuple_set
    return Loaded(net, meta, path)


def only_4x4(agent: str, size: int) -> str:
    """Why an agent that reads its network on 64-bit boards cannot play a board of this size."""
    return f"{agent} plays 4x4 boards only (its network reads 64-bit boards); this board is {size}x{size}"


_UNREADABLE = (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile)


def _record_games(path: Path) -> int:
    """The games the network in `path` says it learnt from (0 if it says nothing); raises what np.load
    raises for a file that is not a readable .npz (truncated, empty, random bytes)."""
    with np.load(path, allow_pickle=False) as arrays:
        return int(arrays["games"]) if "games" in arrays.files else 0


def games_in(path: Path) -> int:
    """The games the network in `path` learnt from (0 if it is missing, unreadable or says nothing): its
    record only, not its weights (a second to decode), so files can be compared cheaply."""
    try:
        return _record_games(path)
    except _UNREADABLE:
        return 0


def _set_aside_if_unreadable(path: Path, then: str) -> None:
    """A data-folder network whose record cannot even be read is set aside with a notice, as one damaged
    inside is: ranked by games it would count 0 and never be opened, so never reported."""
    if not path.is_file():
        return
    try:
        _record_games(path)
    except _UNREADABLE as exc:
        set_aside(path, f"not a readable network file ({type(exc).__name__})", then)


def _by_games(trained: Path, shipped: Path) -> list[tuple[Path, str]]:
    """The data folder's and the shipped network of one rule set, the one that learnt from more games first
    (a short training from scratch must not hide the shipped network; ties: the data folder's)."""
    pair = [(trained, "trained"), (shipped, "shipped")]
    return pair if games_in(trained) >= games_in(shipped) else pair[::-1]


SHIPPED = "shipped"  # a choice that plays the shipped network (see choose_network)


def chosen_marker(data_dir: Path, p_four: float) -> Path:
    """The data folder's note of which network plays for these rules: a data-folder file's name (the last
    training's), or SHIPPED."""
    return Path(data_dir) / (Path(filename(p_four)).stem + ".plays")


def chosen(data_dir: Path, p_four: float) -> str | None:
    """What the note chooses: a data-folder file's name (while that file is there), SHIPPED, or None."""
    try:
        name = chosen_marker(data_dir, p_four).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if name == SHIPPED:
        return name
    return Path(name).name if name and (Path(data_dir) / Path(name).name).is_file() else None


def choose_network(data_dir: Path, p_four: float, choice: Path | str) -> None:
    """Play the data-folder network `choice` (a path) for these rules from now on, or the shipped one
    (SHIPPED). OSError if the note cannot be written."""
    name = choice if choice == SHIPPED else Path(choice).name
    atomic_write_bytes(chosen_marker(data_dir, p_four), (name + "\n").encode("utf-8"))


def network_order(p_four: float, data_dir: Path) -> list[tuple[Path, str]]:
    """The networks best_network tries, in order, each with the word `i` says of it: the one the data
    folder's note chooses; then of the data folder's and the shipped network for these rules, the one that
    learnt from more games; then the same two for the other rules (standard or the course's). Reads records
    only (cheap)."""
    data, other = Path(data_dir), (0.1 if p_four == 0 else 0.0)
    choice = chosen(data, p_four)
    if choice == SHIPPED:
        return [(ASSETS / filename(p_four), "shipped"), (ASSETS / filename(other), "shipped")]
    first = [(data / choice, "trained: your last training")] if choice else []
    return [*first, *_by_games(data / filename(p_four), ASSETS / filename(p_four)),
            *_by_games(data / filename(other), ASSETS / filename(other))]


def best_network(p_four: float, data_dir: Path, tuple_set: str):
    """(network, its record, where it came from) for rules with this probability of a 4: the first of
    network_order that reads; else an empty network of `tuple_set`."""
    then = "another network plays"
    order = network_order(p_four, data_dir)
    for path, label in order:
        if label != "shipped":
            _set_aside_if_unreadable(path, then)
    for path, label in order:
        loaded = read(path, then) if path.is_file() else None
        if loaded is not None:
            return loaded.net, dict(loaded.meta), f"{label} ({path.name})"
    return NTupleNetwork(tuple_set), {"p_four": p_four, "games": 0, "moves": 0}, "untrained"


def playing_shipped(p_four: float, data_dir: Path) -> Path | None:
    """The shipped network that plays for these rules now (the first of network_order there is, nothing
    decoded), or None where a trained one plays (or none at all)."""
    for path, label in network_order(p_four, data_dir):
        if path.is_file():
            return path if label == "shipped" else None
    return None


@register("ntuple", ("2048",), "n-tuple network, TD(0) on afterstates, greedy at 1 ply", order=15,
          about="A value for every board the player's move leaves: a sum of table weights looked up by the "
                "tiles in a few groups of cells (at the board's 8 rotations and reflections). Learnt by TD(0): "
                "after each move the last afterstate's value moves toward the next reward plus the next "
                "afterstate's value. It plays the largest reward + value, with no search.",
          params=NTupleParams,
          group=LEARNT,
          title="Learnt n-tuple network")
class NTupleAgent:
    """Greedy on reward + V(afterstate) from an n-tuple network ([2048.ntuple]); trains by batched TD(0)."""

    name = "ntuple"

    def __init__(self, rules, settings):
        self.rules = rules
        p = settings.agent_params(rules.game_id, "ntuple")
        self.p_four = float(rules.spawn_four_probability)
        self.tuple_set = p.tuples
        self.rate = p.learning_rate
        self.restart = Restart(p.restart_tile, p.restart_share)
        self.coherent = p.rates == "coherent"
        self.data_path = Path(settings.data_dir) / filename(self.p_four)
        self.net, self.meta, self.source = self._load()
        from agents.engines.twenty48 import kernels  # noqa: F401  (numba loads with them, as the agent is made)
        compiled.warm([lambda: self.net.value(np.zeros(1, np.uint64))])  # compiled now, not in its first move

    @classmethod
    def cannot_play(cls, rules) -> str | None:
        return only_4x4("ntuple", rules.size) if rules.size != 4 else None

    def _load(self):
        return best_network(self.p_four, self.data_path.parent, self.tuple_set)

    def load(self, path: Path) -> bool:
        """Play from the network in `path` (a training resumes from it); False if it is missing or unreadable."""
        loaded = read(Path(path), "the network before it plays")
        if loaded is None:
            return False
        self.net, self.meta, self.source = loaded.net, dict(loaded.meta), f"loaded ({Path(path).name})"
        return True

    def __getstate__(self):
        """Pickled (to another process, or copied for each game a runner plays) with the network as the name
        of the file it was read from, where it was: a copy reads it once there and shares it read-only."""
        state = dict(self.__dict__)
        for loaded in _READ.values():
            if loaded.net is self.net:
                state["net"] = ("file", _where(loaded.path))
        return state

    def __setstate__(self, state):
        if isinstance(state["net"], tuple):
            state["net"] = _network_at(state["net"][1])
        self.__dict__.update(state)

    # --- playing ---------------------------------------------------------------------------------------
    def explain(self, state: State2048) -> dict[int, float]:
        """{direction: points the move gains + V(the board it leaves)} for every legal move."""
        if state.board.shape != (4, 4):
            raise ValueError(only_4x4("ntuple", state.board.shape[0]))
        x = np.array([board64.pack(state.board)], dtype=np.uint64)
        codes = board64.lines(x)
        moved = board64.move_all(x, codes)[:, 0]
        gains = board64.all_gains(codes)[:, 0]
        legal = np.flatnonzero(moved != x[0])
        values = self.net.value(moved[legal]) + gains[legal]
        return {int(d): float(v) for d, v in zip(legal, values, strict=True)}

    def act(self, state, rng=None) -> int:
        return best_action(self.explain(state))

    def tree(self, state, rng=None) -> dict:
        """Its one ply as a tree (agents/search_tree.py): each move a leaf worth explain's value, with the points
        its merges gain, the network's value of the board it leaves, and that value split by tuple (the sum of a
        tuple's weights over the board's eight symmetries; a late board's from the late tables)."""
        from agents.search_tree import edge, node

        values = self.explain(state)
        x = np.array([board64.pack(state.board)], dtype=np.uint64)
        moved = board64.move_all(x)[:, 0]
        gains = board64.all_gains(board64.lines(x))[:, 0]
        moves = []
        for d, v in values.items():
            weights = self.net.weights[self.net.features(moved[d:d + 1])[:, 0]].astype(np.float64)
            split = weights.reshape(len(self.net.tuples), -1).sum(axis=1)
            moves.append(edge(node("leaf", v, points=int(gains[d]), network=float(v - gains[d]),
                                   tuples=[round(float(t), 1) for t in split]), action=d))
        return node("max", max(values.values()), moves) if moves else node("leaf", 0.0)

    def value_legend(self, mover: str) -> str:
        return ("The numbers: the points each move's merges gain plus the network's value of the board it "
                "leaves (the points it expects to score from there on).")

    def describe(self) -> list[str]:
        trained_for = self.meta.get("p_four", self.p_four)
        lines = [f"network: {self.source}",
                 f"tuples {self.net.tuple_set}: {len(self.net.tuples)} x 8 symmetries, "
                 f"{self.net.nonzero():,} of {self.net.size:,} weights learnt",
                 *([f"late tables: a board with a {self.net.late_tile} or more reads its own copy"]
                   if self.net.late_tile else []),
                 f"trained {int(self.meta.get('games', 0)):,} games, {int(self.meta.get('moves', 0)):,} moves"]
        if self.meta.get("games", 0):
            same = abs(float(trained_for) - self.p_four) < 1e-12
            lines.append(f"learnt for {rules_name(float(trained_for))}"
                         + ("" if same else f"; this game: {rules_name(self.p_four)}"))
        return lines

    # --- training --------------------------------------------------------------------------------------
    @classmethod
    def default_episodes(cls, settings, game: str) -> int:
        return settings.agent_params(GAME.id, "ntuple").games

    def default_path(self) -> Path:
        """Where a training saves: the data folder's network for these rules, unless the network there (or
        the shipped one) learnt from more games than this one: then a file of its own beside it, named by
        its games (nothing better is replaced; the better one goes on playing, and `i` says which plays)."""
        mine = int(self.meta.get("games", 0))
        if max(games_in(self.data_path), games_in(ASSETS / self.data_path.name)) <= mine:
            return self.data_path
        return self.data_path.with_name(f"{self.data_path.stem}_{mine}games.npz")

    def resumed_at(self, episodes: int) -> int:
        """The games done of a stopped run of `episodes` games whose checkpoint is the network it plays (train
        goes on from there); 0 where it starts afresh."""
        done = int(self.meta.get("run_done", 0))
        return done if self.meta.get("run_games") == episodes and 0 < done < episodes else 0

    def train(self, episodes: int, rng, progress=None, from_scratch: bool = False, stop=None, checkpoint=None,
              watch=None, jobs: int = 1) -> None:
        """TD(0) for `episodes` games, one after another on each of `jobs` threads (compiled).

        A run of N games resumes where a saved unfinished run of N games stopped (its checkpoint file was
        loaded); any other start is a new run from the current network (or an empty one, from_scratch). The
        learning rate is its learning_rate, a quarter of it for the run's last third.
        checkpoint(done, figures) once a block of games, with the mean score and the share reaching 2048."""
        kept = self.net, dict(self.meta), self.source  # what it plays again if the values run away
        base, late_tile = parse_tuple_set(self.tuple_set)
        if not from_scratch and late_tile and self.net.tuple_set == base:
            self.net = self.net.staged(late_tile)  # late tables copied from what it knows
        elif from_scratch or self.net.tuple_set != self.tuple_set:
            self.net, self.meta = NTupleNetwork(self.tuple_set), {"games": 0, "moves": 0}
        else:
            self.net = NTupleNetwork(self.net.tuple_set, np.array(self.net.weights))  # a copy to learn in
        done = self.resumed_at(episodes)  # (a stopped run of as many games goes on from there)
        before = {k: int(self.meta.get(k, 0)) for k in ("games", "moves")}  # this run's games are added
        self.meta.update(p_four=self.p_four, tuples=self.net.tuple_set, run_games=episodes, run_done=done,
                         rate=self.rate)
        self.source = "training (resumed)" if done else "training"
        coherence = Coherence(self.net.size) if self.coherent else None
        fine_from = int(episodes * (1 - FINE_TUNE_SHARE))
        schedule = Schedule(self.rate, fine_from, self.rate * FINE_TUNE_FACTOR)

        def point(games_done, figures, moves):
            self.meta.update(run_done=games_done, games=before["games"] + games_done - done,
                             moves=before["moves"] + moves)
            if checkpoint is not None:
                checkpoint(games_done, figures)

        report = Report(progress=progress, point=point,
                        watch=(lambda board, score: watch(State2048(board64.unpack(board)[0], score)))
                        if watch is not None else None,
                        stop=(stop.is_set if stop is not None else None))
        try:
            figures = td_train(self.net, episodes - done, self.p_four, schedule, rng, jobs=jobs,
                               report=report, done_before=done, restart=self.restart, coherence=coherence)
        except TrainingDiverged:
            self.net, self.meta, self.source = kept
            raise
        self.meta.update(run_done=done + figures["games"], moves=before["moves"] + figures["moves"],
                         games=before["games"] + figures["games"])
        self.source = "trained (unsaved)"

    def save(self, path: Path | None = None) -> bool:
        path = Path(path) if path else self.default_path()
        if not np.isfinite(self.net.weights).all():  # (the learner stops before this; a last guard for the file)
            notice(f"{path}: not saved: the network holds values that are not numbers; the previous file is unchanged")
            return False
        ok = save_npz(path, FORMAT_VERSION, **file_arrays(self.net, self.meta, self.p_four))
        if ok and self.source == "trained (unsaved)":
            self.source = f"trained ({path.name})"
            if path.parent.resolve() == self.data_path.parent.resolve():
                try:  # what it trained plays from now on (ShipsTable: the screen's b goes back)
                    choose_network(self.data_path.parent, self.p_four, path)
                except OSError as exc:
                    notice(f"the new network is saved, but it does not play: its choice was not written ({exc})")
        return ok

    @classmethod
    def replaced_by_training(cls, rules, settings) -> str | None:
        shipped = playing_shipped(float(rules.spawn_four_probability), settings.data_dir)
        if shipped is None:
            return None
        return f"the shipped network (trained {games_in(shipped):,} games)"

    @classmethod
    def back_to_shipped(cls, rules, settings) -> str | None:
        p_four = float(rules.spawn_four_probability)
        if playing_shipped(p_four, settings.data_dir) is not None:
            return None
        if not any((ASSETS / filename(p)).is_file() for p in (0.0, 0.1)):
            return None
        choose_network(settings.data_dir, p_four, SHIPPED)
        return "the shipped network plays again (what you trained stays in the data folder)"
