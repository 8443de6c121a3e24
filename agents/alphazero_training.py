"""AlphaZero's training: self-play games on every core, a learner (JAX with optax) fitting the network to the
searches' visit distributions and the games' results, the new network playing the next games.

A round: `jobs` threads play games of the current network against itself (agents/engines/puct_kernels.self_play:
the whole game compiled, the interpreter lock let go), or on a Ray cluster's workers (`train ... --ray`), each
game seeded by (the run's seed, its index), so a run plays the same games however many threads or machines play
them; every position joins a replay buffer of the newest
`replay_positions` with its target policy (the visits) and its target value (the game's final value for its
mover: the engine's final_value, tic-tac-toe's result, dots' box margin over the boxes). Then the learner takes
`steps_per_game` Adam steps a game on random batches of the buffer (each position under a symmetry of the board
drawn for it), minimising

    cross-entropy(visits, softmax over the legal moves)  +  (value - final value)^2      (+ weight decay, adamw)

Resumable: a stopped run's file holds, beside the network, the learner's state (Adam's moments, the buffer, the
counters, the run's seed), and the same command goes on from it; a resumed run equals an uninterrupted one (the
games are seeded by index, the batches by round, JAX on the CPU is deterministic). The learning curve: the
loss at each checkpoint (the policy's cross-entropy plus the value's squared error, the mean since the one
before) and, every `rating_seconds`, the network's games against fixed references (random,
greedy, mcts and the exact solver where the board has one): its shares won, drawn and lost.
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from agents.alphazero_net import NAMES, Network
from agents.engines.puct_tree import UNVISITED
from agents.base import CannotTrain, TrainingDiverged

CURVE_POINTS = 25  # checkpoints of a run
ROUND_GAMES = 8  # games a round at least (then the learner's steps)
REFERENCES = ("random", "greedy", "mcts", "minimax", "solver")  # those the game has and the board allows


def needs_jax() -> str | None:
    """None where the learner can run; else the one line saying how to install it."""
    import importlib.util

    if importlib.util.find_spec("jax") is None or importlib.util.find_spec("optax") is None:
        return ("training alphazero needs JAX and optax: make train-deps (or pip install -r requirements-train.txt; "
                "an installed arcade: pip install \"agents-arcade[train]\"); playing needs neither")
    return None


class SelfPlay:
    """Games of a network against itself on one board (its engine's compiled tree `game_tree`), on threads."""

    def __init__(self, game_tree, start, simulations: int, c: float, alpha: float, share: float, sampled: int,
                 random_moves: int = 0, unvisited: int = 0):
        from agents.engines import puct_kernels

        self.k, self.tree = puct_kernels, game_tree
        self.start = tuple(np.int64(x) for x in game_tree.position(start))
        self.simulations, self.c, self.alpha, self.share, self.sampled = simulations, c, alpha, share, sampled
        self.random_moves, self.unvisited = random_moves, unvisited
        self.n_moves, self.length = game_tree.n_moves, game_tree.max_length
        self.n_features = game_tree.feature_count()

    def _scratch(self, net: tuple) -> tuple:
        cap = 1 + (self.simulations + 1) * self.n_moves
        return (np.zeros((cap, self.k.COLUMNS), np.int64), np.zeros((cap, self.k.STATS)),
                np.zeros(self.length + 2, np.int64), np.zeros(self.n_features), np.zeros(net[1].shape[0]),
                np.zeros(net[3].shape[0]), np.zeros(self.n_moves))

    def game(self, net: tuple, rng: np.random.Generator, moves: list | None = None) -> tuple:
        """One game: its positions (moves, 3), visit distributions (moves, n_moves) and seat 0's final value (the
        engine's final_value; the moves played appended to `moves` where given)."""
        positions = np.zeros((self.length + 1, 3), np.int64)
        policy = np.zeros((self.length + 1, self.n_moves))
        played = np.zeros(self.length + 1, np.int64)
        t = self.tree
        n, result = self.k.self_play(t.pos, net, *self.start, t.full, t.board_a, t.board_b, self.simulations,
                                     self.c, self.unvisited, self.alpha, self.share, self.sampled, self.random_moves,
                                     rng, *self._scratch(net), positions, policy, played)
        if moves is not None:
            moves.extend(played[:n].tolist())
        return positions[:n], policy[:n].astype(np.float32), float(result)

    def games(self, net: tuple, first: int, count: int, seed: int, pool: ThreadPoolExecutor | None,
              cluster=None, remote: tuple = ()) -> list:
        """Games first .. first + count - 1 of the run seeded `seed`, each from its own Generator: on `pool`'s
        threads, or with a cluster (agents.base.TrainsOnCluster) as its tasks, a share of the games each
        (remote: what a task needs to make this SelfPlay again, see play_share)."""
        indices = list(range(first, first + count))
        if cluster is not None:
            shares = [list(part) for part in np.array_split(indices, min(count, cluster.cpus())) if len(part)]
            weights = tuple(np.asarray(a) for a in net)
            return [g for part in cluster.map(play_share, [(remote, weights, part, seed) for part in shares])
                    for g in part]

        def play(index: int):
            return self.game(net, np.random.default_rng([seed, index]))
        return list(pool.map(play, indices)) if pool is not None else [play(i) for i in indices]


def play_share(task: tuple) -> list:
    """A cluster's task: the games `indices` of a run (each from Generator([seed, index]), as SelfPlay.games
    plays them here) with the network's arrays; task = ((rules, board key, SelfPlay's settings), arrays,
    indices, seed)."""
    (rules, key, settings), net, indices, seed = task
    from agents.game_search import fast_playouts

    game_tree = fast_playouts(rules).compiled_tree(key)
    player = SelfPlay(game_tree, rules.new_state(np.random.default_rng(0)), *settings)
    return [player.game(net, np.random.default_rng([seed, int(i)])) for i in indices]


class Buffer:
    """The newest `size` positions of self-play: (a, b, c), the visit distribution, the mover's final value."""

    def __init__(self, size: int, n_moves: int, arrays: dict | None = None):
        self.size = size
        if arrays is not None and arrays["positions"].shape[1:] == (3,) and arrays["policy"].shape[1:] == (n_moves,):
            self.positions, self.policy, self.z = arrays["positions"], arrays["policy"], arrays["z"]
            self.filled, self.at = int(arrays["fill"][0]), int(arrays["fill"][1])
        else:
            self.positions = np.zeros((size, 3), np.int64)
            self.policy = np.zeros((size, n_moves), np.float32)
            self.z = np.zeros(size, np.float32)
            self.filled = self.at = 0

    def add(self, positions: np.ndarray, policy: np.ndarray, result: float) -> None:
        """A game's positions, visit distributions and seat 0's final value (each position's target: its
        mover's)."""
        at = (self.at + np.arange(len(positions))) % self.size
        self.positions[at], self.policy[at] = positions, policy
        self.z[at] = np.where(positions[:, 2] == 0, result, -result)
        self.at = (self.at + len(positions)) % self.size
        self.filled = min(self.filled + len(positions), self.size)

    def arrays(self) -> dict:
        return {"positions": self.positions, "policy": self.policy, "z": self.z,
                "fill": np.array([self.filled, self.at], np.int64)}


class Learner:
    """The network's weights in JAX and optax.adamw's state; step(x, legal, policy, z) one gradient step."""

    def __init__(self, net: Network, learning_rate: float, weight_decay: float, state: list | None = None):
        import jax
        import jax.numpy as jnp
        import optax

        self.jax, self.jnp = jax, jnp
        self.params = {k: jnp.asarray(net.weights[k]) for k in NAMES}
        self.optimizer = optax.adamw(learning_rate, weight_decay=weight_decay)
        self.opt_state = self.optimizer.init(self.params)
        if state is not None:
            leaves, treedef = jax.tree_util.tree_flatten(self.opt_state)
            if len(state) == len(leaves) and all(np.shape(s) == np.shape(x) for s, x in zip(state, leaves, strict=True)):
                self.opt_state = jax.tree_util.tree_unflatten(treedef, [jnp.asarray(s) for s in state])

        def loss_fn(params, x, legal, target, z):
            priors_logits, value = forward(jnp, params, x, legal)
            log_p = jax.nn.log_softmax(priors_logits, axis=1)
            policy_loss = -jnp.mean(jnp.sum(jnp.where(legal > 0, target * log_p, 0.0), axis=1))
            value_loss = jnp.mean((value - z) ** 2)
            return policy_loss + value_loss

        def step(params, opt_state, x, legal, target, z):
            loss, grads = jax.value_and_grad(loss_fn)(params, x, legal, target, z)
            updates, opt_state = self.optimizer.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state, loss

        self._step = jax.jit(step)

    def step(self, x, legal, target, z) -> float:
        """One Adam step on a batch; the loss (cross-entropy plus squared error) before it."""
        self.params, self.opt_state, loss = self._step(self.params, self.opt_state, x, legal, target, z)
        return float(loss)

    def network(self) -> Network:
        return Network({k: np.asarray(v) for k, v in self.params.items()})

    def state(self) -> list[np.ndarray]:
        return [np.asarray(x) for x in self.jax.tree_util.tree_leaves(self.opt_state)]


def forward(xp, params: dict, x, legal):
    """The network (agents/alphazero_net.py) in the array module `xp` (jax.numpy here): the policy's logits,
    -inf off the legal moves, and the value."""
    h1 = xp.maximum(x @ params["w1"] + params["b1"], 0.0)
    h2 = xp.maximum(h1 @ params["w2"].T + params["b2"], 0.0)
    logits = xp.where(legal > 0, h2 @ params["wp"].T + params["bp"], -1e30)
    return logits, xp.tanh(h2 @ params["wv"] + params["bv"][0])


def _seen(positions: np.ndarray, policy: np.ndarray, module, symmetries: np.ndarray, rng) -> tuple:
    """A batch as the learner sees it: each position and its policy under a symmetry of the board drawn for it
    (the engine's `symmetries` and `map_positions`), so what is learnt in one corner is known in every one."""
    which = rng.integers(0, len(symmetries), len(positions))
    positions, seen = positions.copy(), np.zeros_like(policy)
    for k in np.unique(which):
        rows, perm = which == k, symmetries[k]
        positions[rows] = module.map_positions(positions[rows], perm)
        seen[np.ix_(rows, perm)] = policy[rows]
    return positions, seen


def batch_features(game_tree, positions: np.ndarray, n_features: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions (rows of a, b, c) as the network reads them (float32 features) and their legal moves (1.0
    each), by the engine's compiled `features`."""
    from agents.engines import puct_kernels

    x = np.zeros((len(positions), n_features))
    legal = np.zeros((len(positions), game_tree.n_moves))
    puct_kernels.features_batch(game_tree.pos, positions, game_tree.full, game_tree.board_a, game_tree.board_b, x,
                                legal)
    return x.astype(np.float32), legal.astype(np.float32)


def references(agent) -> dict:
    """The fixed references the curve measures the network against: those of REFERENCES the game has and can
    play this board, built with the agent's settings."""
    from agents import agents_for

    rules = agent.rules
    found = {s.name: s for s in agents_for(rules.game_id)}
    return {name: found[name].create(rules, agent.settings) for name in REFERENCES
            if name in found and found[name].cannot_play(rules) is None}


def rate(agent, opponents: dict, seed: int, games: int) -> dict:
    """The agent's shares of `games` games won, drawn and lost against each reference (game g from
    Generator(seed + g), the agent moving first in the even ones)."""
    from agents.game_search import terminal_returns

    rules, out = agent.rules, {}
    for name, opponent in opponents.items():
        counts = {"won": 0, "drawn": 0, "lost": 0}
        for g in range(games):
            rng = np.random.default_rng(seed + g)
            state, mine = rules.new_state(rng), g % 2
            while not rules.is_terminal(state):
                player = agent if rules.to_move(state) == mine else opponent
                state = rules.step(state, player.act(state, rng), rng)
            result = terminal_returns(rules, state)[mine]
            counts["won" if result > 0 else "lost" if result < 0 else "drawn"] += 1
        out.update({f"{label} v {name}": n / games for label, n in counts.items()})
    return out


def train(agent, episodes: int, rng, progress=None, from_scratch: bool = False, stop=None, checkpoint=None,
          watch=None, jobs: int = 1) -> None:
    """Self-play training of `agent` (an agents.alphazero.AlphaZero) for `episodes` games on its board (see the
    module docstring); the agent plays the network as it goes (its record holds the learner's state until the
    run finishes, so a save between is resumable). The Trains protocol's arguments (agents/base.py)."""
    problem = needs_jax()
    if problem:
        raise CannotTrain(problem)
    from agents.game_search import fast_playouts

    p, rules = agent.p, agent.rules
    start = rules.new_state(np.random.default_rng(0))
    key = agent.board()
    game_tree = fast_playouts(rules).compiled_tree(key)
    module = game_tree.pos.module
    n_features = game_tree.feature_count()
    symmetries = module.symmetries(game_tree.board_a, game_tree.board_b)
    done = 0 if from_scratch else agent.resumed_at(episodes)
    net, record, _ = agent.network(key)
    saved = record.get("learner", {}) if done else {}
    if from_scratch or (not done and record["games"] == 0 and net.hidden != (p.hidden, p.hidden)):
        net = Network.initial(n_features, game_tree.n_moves, (p.hidden, p.hidden), rng)
        record = {"games": 0, "steps": 0, "seconds": 0.0}
    record = {k: record[k] for k in ("games", "steps", "seconds")}
    seed = int(saved["seed"][0]) if "seed" in saved else int(rng.integers(2 ** 62))
    learner = Learner(net, p.learning_rate, p.weight_decay,
                      [saved[f"opt_{i}"] for i in range(int(saved["opt"][0]))] if "opt" in saved else None)
    buffer = Buffer(p.replay_positions, game_tree.n_moves,
                    {k: saved[k] for k in ("positions", "policy", "z", "fill")} if "fill" in saved else None)
    settings = (p.self_play_simulations, p.exploration, p.noise_alpha, p.noise_share, p.sampled_moves,
                p.random_moves, UNVISITED[p.unvisited])
    player = SelfPlay(game_tree, start, *settings)
    cluster = getattr(agent, "cluster", None)
    remote = (rules, key, settings)
    opponents = references(agent) if checkpoint is not None and p.rating_games else {}
    marks = sorted({max(1, round(episodes * (i + 1) / CURVE_POINTS)) for i in range(CURVE_POINTS)})
    jobs = max(1, int(jobs))
    pool = ThreadPoolExecutor(jobs, thread_name_prefix="alphazero-self-play") if jobs > 1 and cluster is None \
        else None
    losses: list = []
    last_rating = time.monotonic()  # (the first rating once rating_seconds have passed; one at the end)
    round_games = max(ROUND_GAMES, 2 * jobs)

    def keep(net: Network, finished: bool) -> None:
        """The agent plays `net` now; its record holds the learner's state while the run is unfinished."""
        if finished:
            agent.set_network(key, net, dict(record), "trained (unsaved)")
            return
        adam = learner.state()
        state = {"run": np.array([episodes, done]), "seed": np.array([seed]), "opt": np.array([len(adam)]),
                 **{f"opt_{i}": a for i, a in enumerate(adam)}, **buffer.arrays()}
        agent.set_network(key, net, {**record, "learner": state}, "training")

    try:
        if progress is not None and done:
            progress(done)
        while done < episodes and not (stop is not None and stop.is_set()):
            began = time.process_time()
            count = min(round_games, episodes - done, next(m for m in marks if m > done) - done)
            for positions, policy, result in player.games(net.args(), done, count, seed, pool, cluster, remote):
                buffer.add(positions, policy, result)
            steps = round(p.steps_per_game * (done + count)) - round(p.steps_per_game * done)
            batches = np.random.default_rng([seed, 1 << 40, done])
            for _ in range(steps):
                pick = batches.integers(0, buffer.filled, min(p.batch_size, buffer.filled))
                positions, policy = _seen(buffer.positions[pick], buffer.policy[pick], module, symmetries, batches)
                x, legal = batch_features(game_tree, positions, n_features)
                losses.append(learner.step(x, legal, policy, buffer.z[pick]))
            if losses and not np.isfinite(losses[-1]):
                raise TrainingDiverged(f"the network's loss is not a number after {done + count:,} games; lower "
                                       "the learning rate ([GAME.alphazero] learning_rate)")
            done += count
            record["games"] += count
            record["steps"] += steps
            record["seconds"] += time.process_time() - began
            net = learner.network()
            keep(net, done >= episodes)
            if progress is not None:
                progress(done)
            if done in marks and checkpoint is not None:
                figures = {"loss": float(np.mean(losses))} if losses else {}
                losses = []
                if opponents and (time.monotonic() - last_rating >= p.rating_seconds or done >= episodes):
                    figures.update(rate(agent, opponents, seed % 100_000, p.rating_games))
                    last_rating = time.monotonic()
                checkpoint(done, figures)
            if watch is not None and done in marks:
                watch(_shown_position(rules, player, net, np.random.default_rng([seed, done])))
    finally:
        if pool is not None:
            pool.shutdown()


def _shown_position(rules, player: SelfPlay, net: Network, rng):
    """A position part way through a self-play game of the network as it is, for a screen to show."""
    moves: list = []
    player.game(net.args(), rng, moves)
    state = rules.new_state(rng)
    for move in moves[:int(rng.integers(1, max(2, len(moves))))]:
        state = rules.step(state, move, rng)
    return state
