"""The lab tells the truth, checked over the whole catalogue (generated from the registries: a new game or
agent is covered by declaring it). For every game, every agent and a few sampled states:

- one decision is one search: the move played, the values shown and the tree's root children come from one
  `agents.decide`, and the move is the one the values choose (their best; a sampled tree search's most visited
  move); an agent without a search of its own (no Decides) gives the same values and move when asked apart;
- every agent with a time budget decides in one search (Decides);
- every parameter the editor offers on the game is honoured: two values of it give two different decisions
  (values, move or figures) somewhere, a time budget as the counted work of a clock that ticks per reading
  (no wall time in a test);
- the default is no change: settings whose agent tables hold each parameter's own default build the agent that
  decides as the one of no table.
"""
from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pytest

from agents import Decides, Describes, Explains, LearnsWhilePlaying, ShowsTree, agents_for, decide
from arcade.games import GAMES, make_rules
from arcade.settings import AgentSettings, DataSettings, SeedSettings, Settings

CASES = [(g.id, s.name) for g in GAMES for s in agents_for(g.id)]
STATES = 2  # sampled states a game
SEED = 5


class TickingClock:
    """A budget clock that moves a fixed step at every reading: a time budget becomes a count of readings, the
    same on any machine however loaded, so a larger budget must give more counted work (no wall time here)."""

    def __init__(self, step: float = 5e-3):
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture(autouse=True)
def ticking(monkeypatch):
    """Every timed search here reads the cpu clock ([agents] budget_clock "cpu"), made to tick per reading."""
    import time

    monkeypatch.setattr(time, "thread_time", TickingClock())


def _settings(tmp_path, clock: str = "cpu") -> Settings:
    # the agents' learnt tables are the shipped ones (a data folder with nothing trained)
    return Settings(data=DataSettings(folder=str(tmp_path / "data")), seeds=SeedSettings(game=3, agent=SEED),
                    agents=AgentSettings(delay_ms=0, time_budget_ms=20, budget_clock=clock), base_dir=str(tmp_path))


def _rules_and_spec(game: str, agent: str, settings):
    spec = next(s for s in agents_for(game) if s.name == agent)
    rules = make_rules(game, settings)
    if spec.cannot_play(rules):
        pytest.skip(f"{agent} cannot play {game}'s default variant: {spec.cannot_play(rules)}")
    return rules, spec


def _states(rules, n: int = STATES) -> list:
    """`n` states of a seeded random game, a few moves apart, none finished."""
    rng = np.random.default_rng(7)
    state, out = rules.new_state(rng), []
    for k in itertools.count():
        if rules.is_terminal(state) or len(out) == n:
            break
        if k % 3 == 0:
            out.append(state)
        actions = list(rules.legal_actions(state))
        state = rules.step(state, actions[int(rng.integers(len(actions)))], rng)
    assert out, "the sampled game ended before any state was taken"
    return out


def _same(a, b) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9) or (math.isnan(a) and math.isnan(b))
    return a == b


def _most_visited(tree: dict):
    kids = [e for e in tree.get("children", []) if "visits" in e["node"]]
    return {e["action"] for e in kids if e["node"]["visits"] == max(k["node"]["visits"] for k in kids)} if kids else set()


def check_one_decision(agent, rules, state, seed: int = SEED) -> None:
    """The checks of one decision (raised as AssertionError naming what drifted)."""
    shows_tree = isinstance(agent, ShowsTree)
    d = decide(agent, state, np.random.default_rng(seed), tree=shows_tree)
    legal = list(rules.legal_actions(state))
    assert d.action in legal, f"the move {d.action!r} is not legal"
    if isinstance(agent, Explains):
        values = d.values
        assert values, "an agent that explains gave no values with its decision"
        assert set(values) <= set(legal) and d.action in values, "the values are not of the legal moves"
        top = max(values.values())
        best = {a for a, v in values.items() if v >= top - 1e-9 * max(1.0, abs(top))}  # (rounding: equal lines)
        chosen_by_visits = shows_tree and d.tree is not None and d.action in _most_visited(d.tree)
        exploring = isinstance(agent, LearnsWhilePlaying) and agent.is_learning()
        assert d.action in best or chosen_by_visits or exploring, \
            f"the move played {rules.format_action(d.action)} is neither the best value shown nor the most tried"
        if shows_tree:
            tree_values = {e["action"]: e["node"]["value"] for e in d.tree["children"]}
            assert set(tree_values) == set(values), "the tree's root has other moves than the values"
            assert all(math.isclose(tree_values[a], v, rel_tol=1e-9, abs_tol=1e-9) for a, v in values.items()), \
                "the tree's root children are not the values shown"
    if not isinstance(agent, Decides):  # asked apart, the same answer: nothing of a second search differs
        if isinstance(agent, Explains):
            assert _same(agent.explain(state), d.values), "explain gives other values than the decision"
        if not (isinstance(agent, LearnsWhilePlaying) and agent.is_learning()):
            assert agent.act(state, np.random.default_rng(seed)) == d.action, "act plays another move"


@pytest.mark.parametrize("game, agent", CASES)
def test_one_decision_is_one_search(tmp_path, game, agent):
    settings = _settings(tmp_path)
    rules, spec = _rules_and_spec(game, agent, settings)
    built = spec.create(rules, settings)
    for state in _states(rules):
        check_one_decision(built, rules, state)


@pytest.mark.parametrize("game, agent", CASES)
def test_a_timed_agent_decides_in_one_search(game, agent):
    spec = next(s for s in agents_for(game) if s.name == agent)
    timed = spec.params is not None and "time_budget_ms" in {f.name for f in dataclasses.fields(spec.params)}
    assert not timed or spec.can(Decides), f"{agent} has a time budget but no decide: two searches could disagree"


def _values_of(f: dataclasses.Field) -> list:
    """Two values of a parameter to compare: its choices, or the two ends of its range (a wide one cut short,
    so a decision stays quick)."""
    if "choices" in f.metadata:
        return list(f.metadata["choices"])
    lo, hi = f.metadata["min"], f.metadata["max"]
    if isinstance(lo, int) and isinstance(hi, int):
        return [lo, min(hi, lo + (2 if hi - lo <= 20 else 8))]
    return [lo, min(hi, 1.0 if lo < 1.0 else lo * 4)]


def _signature(agent, rules, states) -> list:
    """What a person sees of the agent on these states: its decisions (move, values), their figures, and what
    it says of itself (a solve's sweeps)."""
    out = [agent.describe() if isinstance(agent, Describes) else None]
    for state in states:
        d = decide(agent, state, np.random.default_rng(SEED))
        figures = agent.figures() if hasattr(agent, "figures") else {}
        out.append((repr(d.action), repr(sorted((repr(k), round(v, 9)) for k, v in (d.values or {}).items())),
                    repr(sorted(figures.items()))))
    return out


PARAM_CASES = [(g.id, s.name, f.name) for g in GAMES for s in agents_for(g.id) if s.params is not None
               for f in s.params_here(make_rules(g.id, Settings())) if not f.metadata.get("trains_only")]
PARAM_STATES = 6  # states a game the parameters are tried on (a learner's parameter may show on some only)


@pytest.mark.parametrize("game, agent, name", PARAM_CASES)
def test_every_offered_parameter_is_honoured(tmp_path, game, agent, name):
    timed = name == "time_budget_ms"
    base = _settings(tmp_path)
    rules, spec = _rules_and_spec(game, agent, base)
    f = next(f for f in dataclasses.fields(spec.params) if f.name == name)
    states = _states(rules, PARAM_STATES)
    seen = {}
    for value in _values_of(f) if not timed else [5, 400]:
        settings = base.with_agent(agent, game=game, **{name: value})
        assert getattr(settings.agent_params(game, agent), name) == value
        built = spec.create(rules, settings)
        if isinstance(built, LearnsWhilePlaying):
            built.set_learning(True)  # (its exploring parameters act while it learns)
        seen[value] = _signature(built, rules, states)
    assert len({repr(v) for v in seen.values()}) > 1, \
        f"{agent} on {game}: {name} at {list(seen)} gives the same decisions, values and figures"


@pytest.mark.parametrize("game, agent", [c for c in CASES if next(s for s in agents_for(c[0]) if s.name == c[1]).params])
def test_the_default_is_no_change(tmp_path, game, agent):
    base = _settings(tmp_path)
    rules, spec = _rules_and_spec(game, agent, base)
    defaults = {f.name: f.default for f in dataclasses.fields(spec.params)}
    same = base.with_agent(agent, game=game, **defaults)
    assert same.agent_params(game, agent) == base.agent_params(game, agent)
    states = _states(rules, 1)
    assert _signature(spec.create(rules, same), rules, states) == _signature(spec.create(rules, base), rules, states)


def test_the_check_fails_on_a_planted_drift(tmp_path):
    """The check is not vacuous: an agent whose act plays another move than its values choose, or whose tree
    shows other values, is caught."""
    settings = _settings(tmp_path)
    rules = make_rules("tictactoe", settings)
    spec = next(s for s in agents_for("tictactoe") if s.name == "minimax")
    honest = spec.create(rules, settings)
    state = max(_states(rules, 3), key=lambda s: len(set(honest.explain(s).values())))  # (values that differ)
    assert len(set(honest.explain(state).values())) > 1
    check_one_decision(honest, rules, state)

    class ActDrifts(spec.factory):
        def act(self, state, rng=None):
            values = self.explain(state)
            return min(values, key=values.get) if len(set(values.values())) > 1 else super().act(state, rng)

    class TreeDrifts(spec.factory):
        def tree(self, state, rng=None):
            shown = super().tree(state, rng)
            shown["children"][0]["node"]["value"] += 0.5
            return shown

    for planted in (ActDrifts, TreeDrifts):
        with pytest.raises(AssertionError):
            check_one_decision(planted(rules, settings), rules, state)
