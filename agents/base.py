"""The Agent protocol, its named capabilities, and the registry that discovers agents in this package.

An agent module registers a factory (a class taking `(rules, settings)`) with
`@register(name, games, summary)`; `discover()` imports every module of the
package once, so dropping a new module in makes its agents appear in Tab, in
`python main.py agents` and in the CLI.

What an agent can do beyond `act` is a capability, a small protocol below.
Screens, the CLI and the headless player ask `spec.can(Explains)` (before the
agent is built) or `isinstance(agent, Explains)` (after); none of them names an
agent. A new agent that implements `explain` and `value_legend` lights up every
screen's value view with no screen edit. No pygame here, ever.
"""
from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol, runtime_checkable


class Agent(Protocol):
    """What every agent does: decide.

    name: shown in the HUD and the CLI (set by the registry if the class has none).
    act(state, rng) -> action: a legal action for the side to move in `state`, a
        non-terminal state of the agent's game. `rng` is a numpy Generator; all of
        the agent's randomness comes from it. May take time: screens run it in a
        worker thread or the agent process, never on the frame loop.
    """

    name: str

    def act(self, state, rng) -> Any: ...


@runtime_checkable
class Explains(Protocol):
    """The agent can say what it believes: a value for every legal action."""

    def explain(self, state) -> dict:
        """{action: value} for the side to move in `state`; larger is better for that side."""

    def value_legend(self, mover: str) -> str:
        """One or two plain sentences saying what the numbers are, for `mover` (e.g. "X")."""


@runtime_checkable
class LearnsWhilePlaying(Protocol):
    """The agent updates itself from the moves it plays (e.g. online Q-learning)."""

    def observe(self, state) -> None:
        """The state its last action led to (after any chance); learn from that step."""

    def set_learning(self, on: bool) -> None:
        """Learning (and exploring) on or off; off plays greedily from what it knows."""

    def is_learning(self) -> bool: ...


@runtime_checkable
class Trains(Protocol):
    """The agent learns offline and keeps what it learnt in a file.

    Screens train it with `t` (progress bar and learning curve drawn by shared code), the CLI with
    `python main.py train`; neither names the agent.
    """

    @classmethod
    def default_episodes(cls, settings, game: str) -> int:
        """How many episodes (games) a training on `game` runs when none is asked for: its settings table's. A
        class method, so a screen can say it before building the agent."""

    def train(self, episodes: int, rng, progress=None, from_scratch: bool = False, stop=None,
              checkpoint=None, watch=None, jobs: int = 1) -> None:
        """Train for `episodes`; progress(done) is called as it goes; a set `stop` event ends early.

        checkpoint(done, figures=None), where given, at a few dozen points with the agent playable as it
        is then: the host draws a learning curve from them (and the CLI saves there now and then). A
        trainer that measures itself passes `figures` ({series name: number}, e.g. {"mean score": 1830.0,
        "share reaching 2048": 0.12}); with None the host measures the agent by playing games
        (arcade.training). watch(state), where given, now and then with a state of a training game, for a
        screen to show it playing. jobs: processes it may learn on (one that cannot parallelise ignores it).
        TrainingDiverged when its values run away (the agent then plays as before the call)."""

    def load(self, path: Path) -> bool:
        """Play (and go on training) from the table in `path`; False if missing or unreadable (said)."""

    def save(self, path: Path | None = None) -> bool:
        """Write the learnt table atomically to `path` (default_path() if None); False with a notice if not."""

    def default_path(self) -> Path:
        """Where the table is saved and loaded from (the data folder)."""

    # Optional: resumed_at(episodes) -> int, the games done of a stopped run of `episodes` whose checkpoint is the
    # table it loaded and train() continues (0: it starts afresh). The CLI then resumes a `--fresh` run rather
    # than refuse to overwrite it; the window's curve continues that run's curve.


@runtime_checkable
class TrainsOnCluster(Protocol):
    """The agent's training can play its games on a cluster (`python main.py train ... --ray`): the host gives it
    the cluster, an object with map(fn, items) -> [fn(item) ...] in order (fn a module's function, run where the
    cluster's workers are) and cpus(); its next trainings play their games there."""

    def play_on(self, cluster) -> None: ...


@runtime_checkable
class ShipsTable(Protocol):
    """The agent comes with a learnt table in the package, and a table it trains plays instead of it (a
    student sees what their training learnt) until asked back. Class methods: a screen asks before any
    agent is built, and warns before a training replaces the shipped table."""

    @classmethod
    def replaced_by_training(cls, rules, settings) -> str | None:
        """What a new training's table would play instead of, as a phrase ("the shipped network, trained
        1,695,001 games"), while the shipped table plays; None while a trained one plays already."""

    @classmethod
    def back_to_shipped(cls, rules, settings) -> str | None:
        """Play the shipped table again (the trained one stays on disk): the line to show; None where the
        shipped table plays already."""


class CannotTrain(RuntimeError):
    """A training cannot start here (a library it needs is not installed): its message is the one line saying
    what to install. Raised by `Trains.train` before any work."""


class TrainingDiverged(ArithmeticError):
    """A training stopped because its values ran away (a value not finite or past any score): what it learnt
    since its last good checkpoint is worthless and must not be saved. Raised by `Trains.train`."""


@runtime_checkable
class Describes(Protocol):
    """The agent reports what it is made of: where its table came from, its solve figures."""

    def describe(self) -> list[str]:
        """A few short lines for a side panel (e.g. "value iteration: 412 states, 9 sweeps")."""


@runtime_checkable
class Reports(Protocol):
    """The agent reports the figures of its last act or explain: how much it searched."""

    def figures(self) -> dict:
        """{name: number} of the last decision, e.g. {"depth": 3, "positions": 12000, "rollouts": 25}."""


@runtime_checkable
class ChecksRules(Protocol):
    """The agent can play only some variants of its game (e.g. small boards) and says which."""

    @classmethod
    def cannot_play(cls, rules) -> str | None:
        """None if it can play these rules, else one line saying why not."""


@runtime_checkable
class ShowsTree(Protocol):
    """The agent can show the search behind its values: the tree of a decision (agents/search_tree.py)."""

    def tree(self, state, rng=None) -> dict:
        """The search tree of its decision in `state` (a NODE of agents.search_tree, values for the side to
        move); its root's children's values are what explain(state) gives with the same rng."""


@dataclass(frozen=True)
class Decision:
    """One decision: the action played, the values it was chosen on ({action: value} for the side to move, None
    for an agent that has none) and, when asked for, the tree of that same search (agents/search_tree.py)."""

    action: Any
    values: dict | None = None
    tree: dict | None = None


@runtime_checkable
class Decides(Protocol):
    """The agent's values and its move come from one search it runs once: a timed or sampled search, where an
    explain and an act would be two searches that can disagree. Every agent with a time budget has it."""

    def decide(self, state, rng, tree: bool = False) -> Decision:
        """The move for the side to move in `state`, the values it chose it on and (tree=True) the tree of
        that search, all from one search."""


def decide(agent, state, rng, tree: bool = False) -> Decision:
    """What `agent` plays in `state` and why, from one search: its own decide where it has one (Decides); else
    its act, its explain (a table or a deterministic search: the same answer however often asked) and its tree.
    Every host that shows values beside a move (the value view, the tree view, `decide`) asks this."""
    if isinstance(agent, Decides):
        return agent.decide(state, rng, tree)
    values = agent.explain(state) if isinstance(agent, Explains) else None
    action = agent.act(state, rng)
    shown = agent.tree(state, rng) if tree and isinstance(agent, ShowsTree) else None
    return Decision(action, values, shown)


def resumed_at(agent, episodes: int, from_scratch: bool = False) -> int:
    """The games done of a stopped run of `episodes` that a training of `agent` goes on from (its optional
    resumed_at); 0 where the training starts afresh."""
    return 0 if from_scratch else int(getattr(agent, "resumed_at", lambda _: 0)(episodes))


CAPABILITIES: tuple[type, ...] = (Explains, LearnsWhilePlaying, Trains, TrainsOnCluster, ShipsTable, Describes,
                                  Reports, ChecksRules, ShowsTree, Decides)


# the groups Tab names an agent by, in the order a player meets them
COURSE, STRONGEST, LEARNT, ANY_GAME_SEARCH, BASELINE = (
    "the course's", "among the strongest", "learnt", "a search written for every game", "a baseline")
GROUPS = (COURSE, STRONGEST, LEARNT, ANY_GAME_SEARCH, BASELINE)


@dataclass(frozen=True)
class AgentSpec:
    """A registered agent: what the registry knows before building it."""

    name: str
    games: tuple[str, ...]
    summary: str  # one line: how it works
    factory: Callable[..., Agent]  # factory(rules, settings) -> Agent
    order: int = 50  # its strength rank: Tab lists lower first, so the first is the game's strongest (2048's e),
    #                  opponents go weakest (highest) first, and learning curves measure against both ends
    process: bool = False  # decides in the agent process (long pure-Python work would stall the frames)
    about: str = ""  # plain sentences for the agent panel
    params: type | None = None  # its parameters: a frozen dataclass of setting fields (see agent_params)
    group: str = BASELINE  # one of GROUPS: what Tab says it is beside its name
    title: str = ""  # what a newcomer reads where the window names it ("Expectimax search (strong)"); the id
    #                  (`name`) is the command line's and the settings'

    @property
    def shown(self) -> str:
        """The name the window shows: its title, its id where it has none."""
        return self.title or self.name

    def create(self, rules, settings) -> Agent:
        """A new agent for these rules. `settings` is required: agents read their parameters only from it."""
        if settings is None:
            raise TypeError(f"agent '{self.name}' needs a Settings object (the one source of its parameters)")
        agent = self.factory(rules, settings)
        if not getattr(agent, "name", None):
            agent.name = self.name
        return agent

    def plain(self) -> str:
        """One plain sentence on what it does: the first of `about` (its summary where it has no about)."""
        first = self.about.split(". ")[0].rstrip(".")
        return f"{first}." if first else self.summary

    def plays(self, game_id: str) -> bool:
        return game_id in self.games or ANY_GAME in self.games

    def cannot_play(self, rules) -> str | None:
        """None if agents of this spec can play `rules`, else why not (one line)."""
        return self.factory.cannot_play(rules) if self.can(ChecksRules) else None

    def params_here(self, rules, values=None) -> tuple:
        """The fields of its parameters (dataclasses.Field) this agent reads on `rules` with parameter values
        `values` (an instance of its params dataclass; its defaults if None): every declared one but those its
        class says do not apply there (an optional class method unused_params(rules, values) -> {name: why},
        e.g. mcts's Python-tree simulations where the game's compiled tree runs)."""
        if self.params is None:
            return ()
        return tuple(f for f in dataclasses.fields(self.params) if f.name not in self.unused_params(rules, values))

    def unused_params(self, rules, values=None) -> dict[str, str]:
        """{parameter: why this agent does not read it on `rules` with `values`} (see params_here)."""
        if self.params is None or not hasattr(self.factory, "unused_params"):
            return {}
        return self.factory.unused_params(rules, values if values is not None else self.params())

    def can(self, capability: type) -> bool:
        """Whether agents of this spec have `capability` (one of CAPABILITIES), without building one."""
        return isinstance(self.factory, type) and issubclass(self.factory, capability)


class UnknownAgent(ValueError):
    pass


@dataclass(frozen=True)
class WarmUp:
    """Tiny kernel calls an agent module declares for its game (agents/warm_kernels.py runs them before
    anything is timed): steps(first_move) -> callables, with first_move only those a first move needs;
    order: where they come in the game's warm-up (lower first; the engine's own steps come at
    agents.warm_kernels.ENGINE_ORDER)."""

    game: str
    steps: Callable[[bool], list]
    order: int = 50


_WARM_UPS: list[WarmUp] = []


def declare_warm_up(game: str, steps: Callable[[bool], list], order: int = 50) -> None:
    """An agent module's warm-up for `game` (the kernel calls it makes, declared beside them)."""
    _WARM_UPS.append(WarmUp(game, steps, order))


def warm_ups(game: str) -> list[WarmUp]:
    """The warm-ups the agent modules declare for `game`, in order."""
    discover()
    return sorted((w for w in _WARM_UPS if w.game == game), key=lambda w: w.order)


ANY_GAME = "*"  # register(name, ANY_GAME, ...): plays every game of the catalogue through the rules protocol


_REGISTRY: list[AgentSpec] = []
_discovered = False


def register(name: str, games: tuple[str, ...] | list[str] | str, summary: str, order: int = 50,
             process: bool = False, about: str = "", params: type | None = None, group: str = BASELINE,
             title: str = ""):
    """Decorator for an agent class taking (rules, settings). `games`: game ids, or ANY_GAME.

    group: one of GROUPS (the course's, among the strongest, learnt, a search for every game, a baseline).
    title: the name a newcomer reads in the window ("Expectimax search (strong)"); `name` stays the id.
    about: two or three plain sentences on the algorithm, for the agent panel (`i`).
    params: the agent's parameters, a frozen dataclass whose fields are settings fields (arcade.foundation.setting_fields:
        ranges, the course's values): read with settings.agent_params(game id, name), set in settings.toml's [GAME.NAME] tables (or
        [agents.NAME] for every game it plays), shown in the agent panel. A timed agent has a time_budget_ms
        field whose 0 means the one [agents] time_budget_ms (see time_budget).

    process=True: the game screens run its decisions (and its values) in the agent process, where
    its one instance lives; for agents that compute for long stretches in Python.
    """

    games = (games,) if isinstance(games, str) else tuple(games)
    if group not in GROUPS:
        raise ValueError(f"agent '{name}': group {group!r} is not one of {GROUPS}")

    def wrap(factory):
        for spec in _REGISTRY:
            if spec.name == name and set(spec.games) & set(games):
                raise ValueError(f"agent '{name}' is registered twice for {sorted(set(spec.games) & set(games))}")
        if process and isinstance(factory, type) and issubclass(factory, (LearnsWhilePlaying, Describes)):
            raise ValueError(f"agent '{name}': a process agent's instance is out of the screen's reach, so it "
                             "cannot learn while playing or describe itself there")
        _REGISTRY.append(AgentSpec(name, games, summary, factory, order, process, about or summary, params, group,
                                   title))
        return factory

    return wrap


def unregister(name: str, game_id: str) -> None:
    """Remove a registration (tests that register an agent of their own clean up with this)."""
    _REGISTRY[:] = [s for s in _REGISTRY if not (s.name == name and s.plays(game_id))]


def discover() -> None:
    """Import every module in the agents package (once) so their registrations run."""
    global _discovered
    if _discovered:
        return
    # the modules beside this one, found by folder (importing the package from here would be a hidden circle)
    for mod in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]), key=lambda m: m.name):
        if mod.name != "base" and not mod.name.startswith("_"):
            importlib.import_module(f"{__package__}.{mod.name}")
    _discovered = True


def all_specs() -> list[AgentSpec]:
    """Every registered agent of every game."""
    discover()
    return list(_REGISTRY)


def agents_for(game_id: str, capability: type | None = None) -> list[AgentSpec]:
    """The agents registered for a game in Tab order; only those with `capability` if given."""
    discover()
    specs = [s for s in _REGISTRY if s.plays(game_id) and (capability is None or s.can(capability))]
    return sorted(specs, key=lambda s: (s.order, s.name))


def choose(specs: list[AgentSpec], name: str, game_id: str) -> AgentSpec:
    """The spec named `name` among `specs`; UnknownAgent (one line listing the choices) if none."""
    for spec in specs:
        if spec.name == name:
            return spec
    known = ", ".join(s.name for s in specs) or "none"
    raise UnknownAgent(f"unknown agent '{name}' for {game_id}; choose one of: {known}")


def find(game_id: str, name: str) -> AgentSpec:
    """The spec of agent `name` for a game; UnknownAgent (one line listing the choices) if none."""
    return choose(agents_for(game_id), name, game_id)


class OutOfTime(Exception):
    """A timed search ran past its deadline: the last complete answer stands."""


class Deadline:
    """The time one decision may spend, on the budget clock (budget_clock): made when the decision starts.

    The one deadline of every timed agent: `passed()` between steps, `check()` deep inside a search (raises
    OutOfTime), `left()` to judge whether another pass fits, `elapsed()` for what was spent."""

    def __init__(self, clock: Callable[[], float], seconds: float):
        self.clock, self.seconds = clock, seconds
        self.start = clock()
        self.at = self.start + seconds

    def elapsed(self) -> float:
        return self.clock() - self.start

    def left(self) -> float:
        return self.at - self.clock()

    def passed(self) -> bool:
        return self.clock() > self.at

    def check(self) -> None:
        if self.clock() > self.at:
            raise OutOfTime


def no_clock() -> float:
    """A clock that never moves: a Deadline on it never passes, so a search stops on its counted work alone."""
    return 0.0


def budget_clock(settings) -> Callable[[], float]:
    """The clock a timed search spends its budget on ([agents] budget_clock): wall-clock seconds, the CPU
    seconds of the searching thread (so a busy machine does not make the search shallower), or none at all
    (no_clock: the search stops on its simulations, positions or depth, the same on any machine)."""
    return {"cpu": time.thread_time, "none": no_clock}.get(settings.agents.budget_clock, time.perf_counter)


def time_budget(settings, params) -> float:
    """Seconds a move of a timed agent with these parameters: its own time_budget_ms, or where that is 0 the
    one [agents] time_budget_ms every timed agent shares."""
    return (getattr(params, "time_budget_ms", 0) or settings.agents.time_budget_ms) / 1000.0


def best_action(values: dict, rng=None):
    """The action with the largest value. Ties go to the first listed (agents list actions in their
    tie-break order), or to a random one of them when a Generator is given."""
    if not values:
        raise ValueError("no legal move in this state")
    best = max(values.values())
    ties = [a for a, v in values.items() if v == best]
    if rng is None or len(ties) == 1:
        return ties[0]
    return ties[int(rng.integers(len(ties)))]
