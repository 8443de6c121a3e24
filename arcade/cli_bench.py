"""The command line's `bench`: a run of games on every core or a Ray cluster, each finished game appended to
its log, a stopped run resumed from it (--resume), and the run's summary as text or JSON.
"""
from __future__ import annotations

import dataclasses
import json
import sys

from arcade.cli_common import UserError, _agent, _rules, _spec
from arcade.invocation import command
from arcade.games import UnknownGame, VariantError, format_variant, game_ids, game_info, parse_variant, variant_label
from arcade.games.base import Summarizes
from arcade.progress import Progress
from arcade.foundation.storage import json_default


def _fmt(x, digits=1):
    return "-" if x is None else f"{x:.{digits}f}"


def _bench_run(args, settings):
    """The run --resume names (checked against the other options given), or a new one from the options."""
    from arcade import runner

    if args.resume is None:
        if args.game is None:
            raise UserError("bench needs a game (one of " + ", ".join(game_ids()) + ") or --resume LOG")
        return None
    if args.log is not None:
        raise UserError("--resume continues that log in place; leave out --log")
    try:
        log = runner.GameLog.open(args.resume)
    except runner.RunError as exc:
        raise UserError(str(exc)) from None
    if log.skipped_line():
        print(log.skipped_line(), file=sys.stderr)
    spec = log.spec
    given = {"game": args.game, "agent": args.agent, "opponent": args.opponent}
    for key, value in given.items():
        if value is not None and value != getattr(spec, key):
            raise UserError(f"--resume: {args.resume} is a run of {spec.describe()}; {key} {value} does not match "
                            f"(leave it out to continue that run)")
    logged = _logged_variant(spec)
    if logged and any(logged.get(k) != v for k, v in args.variant.items()):
        raise UserError(f"--resume: {args.resume} is a run of {spec.describe()}; "
                        f"{format_variant(args.game, args.variant)} does not match (leave it out to continue that run)")
    return log


def _logged_variant(spec) -> dict:
    """The rules parameters a run log names: {} for a log of before variants, or a benchmark's label (a set of
    openings) in its place, whose settings are the file's."""
    try:
        return parse_variant(spec.variant)[1] if spec.variant else {}
    except (UnknownGame, VariantError):
        return {}


def _entrant(game: str, who: str | None, settings, kept: bool):
    """The agent `who` names (None: the game's default) as an arena entrant: its name and the parameters its
    label gives, with those kept on screen where `kept`."""
    from arcade import arena

    if who is None:
        who = _spec(game, None).name
    try:
        entrant = arena.parse_entrant(game, who, "--agent")
    except ValueError as exc:
        raise UserError(str(exc)) from None
    return arena.with_kept(settings, game, entrant) if kept else entrant


def _resumable(log, spec, players: int, path) -> str:
    """How a resumed log stands to the run asked for (runner's stands_to); UserError, in one line, when it is
    another run."""
    relation = log.spec.stands_to(spec, players)
    if relation is not None:
        return relation
    logged = log.spec.budget_clock
    if logged and logged != spec.budget_clock:
        raise UserError(f"--resume: {path} was played with the {logged} clock, not the {spec.budget_clock} one; "
                        "leave out --budget-clock to continue it")
    raise UserError(f"--resume: {path} was played with other settings (the agents' settings or seeds changed "
                    "since); start a new run")


def cmd_bench(args, settings) -> int:
    from arcade import runner
    from arcade.headless import figures_per_decision, summarize

    log = _bench_run(args, settings)
    clock = args.budget_clock or (log.spec.budget_clock if log is not None else None)  # (a resumed run's own)
    if clock:
        settings = settings.with_table("agents", budget_clock=clock)
    if log is not None:  # the run as it was started
        args.game, args.agent, args.opponent = log.spec.game, log.spec.agent, log.spec.opponent
        args.games, args.seed = log.spec.games, log.spec.seed
        variant = _logged_variant(log.spec)
        if variant:
            settings = settings.with_table(game_info(args.game).attr, **variant)
    rules = _rules(args.game, settings)
    if rules.players == 1 and args.opponent:
        raise UserError(f"{args.game} is a one-player game; --opponent does not apply")
    # each player as the run names it: "alpha-beta", or with the parameters it plays with where --kept (the
    # ones changed on screen, Shift+i) or a resumed log says so: "alpha-beta:position_budget=50"
    players = [_entrant(rules.game_id, who, settings, args.kept)
               for who in ([args.agent] + ([args.opponent or "random"] if rules.players == 2 else []))]
    for entrant in players:
        settings = entrant.settings(settings, rules.game_id)
    agent = _agent(args.game, players[0].name, rules, settings)
    opponent = _agent(args.game, players[1].name, rules, settings) if rules.players == 2 else None
    spec = runner.RunSpec.of(args.game, agent.name, opponent.name if opponent else None, args.games, args.seed,
                             settings)
    spec = dataclasses.replace(spec, agent=players[0].label, opponent=players[1].label if opponent else None)
    relation = _resumable(log, spec, rules.players, args.resume) if log is not None else None
    backend = runner.backend_of(args.jobs, args.ray)
    try:
        backend.connect()  # before the log and the games: a missing Ray or cluster is said at once, no log left
        if log is not None and relation != "same":
            log.become(spec)  # a log of the first runner's fingerprint: now under today's
        if log is None:
            log = runner.GameLog.create(args.log or runner.default_log_path(settings.data_dir, spec), spec)
    except runner.RunError as exc:
        backend.shutdown()
        raise UserError(str(exc)) from None
    jobs = log.missing(rules.players)
    done_before = len(log.records)
    print(f"{spec.describe()}: {len(jobs)} to play{f' ({done_before} already in the log)' if done_before else ''}"
          f" on {backend.name}; log {log.path}", file=sys.stderr)
    bar = Progress(args.games, f"{args.game} {spec.agent}")
    bar.update(done_before)
    try:
        result = runner.execute(runner.Players(rules, agent, opponent), jobs, backend, log, progress=bar.update)
    except runner.RunError as exc:
        raise UserError(str(exc)) from None
    finally:
        bar.close()
        backend.shutdown()
    if not result.complete:
        print(f"stopped: {len(result.records)} of {args.games} games finished; continue with "
              f"{command()} bench --resume {log.path}", file=sys.stderr)
    if not result.records:
        return 130
    records = [runner.as_record(r) for r in result.records]
    summary = summarize(records, rules)
    head = {"game": args.game, "variant": spec.variant, "agent": spec.agent,
            "opponent": spec.opponent, "seed": args.seed}
    if args.json:
        per_game = [{"seed": r["seed"], "agent_seat": r["agent_seat"], "score": r["score"], "result": r["result"],
                     "moves": r["moves"], "outcome": r["outcome"],
                     "decision_ms_median": _median(r["decision_ms"]), "figures": r.get("figures", {}),
                     "figures_per_decision": figures_per_decision([runner.as_record(r)])}
                    for r in result.records]
        print(json.dumps({**head, "summary": summary, "per_game": per_game, "complete": result.complete},
                         default=json_default))
    else:
        print(format_summary(head, summary, rules))
    return 0 if result.complete else 130


def _median(xs):
    import numpy as np

    return float(np.median(xs)) if xs else None


def format_summary(head: dict, s: dict, rules) -> str:
    vs = f" vs {head['opponent']}" if head["opponent"] else ""
    lines = [f"{variant_label(head['game'], head.get('variant'))}: {head['agent']}{vs}, {s['games']} games from seed "
             f"{head['seed']}",
             f"  {'':<14}{'mean':>10}{'median':>10}{'min':>10}{'max':>10}"]
    for key in ("score", "margin", "moves"):
        if key not in s:
            continue
        st = s[key]
        lines.append(f"  {key:<14}" + "".join(f"{_fmt(st[k]):>10}" for k in ("mean", "median", "min", "max")))
    d = s["decision_ms"]
    lines.append(f"  decision time  median {_fmt(d['median'], 2)} ms   p95 {_fmt(d['p95'], 2)} ms"
                 f"   ({d['decisions']} decisions)")
    if s.get("figures_per_decision"):
        lines.append("  a decision     " + ", ".join(f"{name} {_fmt(v, 1)}" for name, v in s["figures_per_decision"].items()))
    if "results" in s:
        names = rules.seat_names
        r = s["results"]
        lines.append(f"  results        {r['win']} wins  {r['draw']} draws  {r['loss']} losses")
        for seat in (0, 1):
            side = s["results_by_side"][f"as_seat{seat}"]
            lines.append(f"    as {names[seat]:<11} {side['win']} wins  {side['draw']} draws  {side['loss']} losses")
    if isinstance(rules, Summarizes):
        lines.extend("  " + line for line in rules.format_summary(s))
    return "\n".join(lines)
