"""The command line: open the window, or play / bench / decide / train headless.

Every mistake a user can make (unknown game, agent, option or state) is one
line on stderr and exit status 2, never a traceback.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from agents import ShowsTree, UnknownAgent, agents_for, find
from agents.base import ANY_GAME
from arcade.games import GAMES, UnknownGame, VariantError, format_variant, game_ids, game_info
from arcade.games.declare import checked_parameters, describe_parameters, split_variant
from arcade.cli_common import Terminated, UserError, _agent, _raise_terminated, _rules, _spec
from arcade.invocation import command, installed, prog, ray_install
from arcade.games.base import FitsState
from arcade.numbers import numbers_for
from arcade.progress import Progress, ms_text
from arcade.foundation.setting_fields import describe_fields
from arcade.settings import DEFAULT_SETTINGS, SettingsError, load_settings
from arcade.foundation.storage import folder_write_problem, json_default



MAX_SEED = 2**63 - 1
MAX_GAMES = 1_000_000
MAX_EPISODES = 100_000_000


# options of earlier rounds that the variant or the state now says, and how
GONE = {"--board": "name the variant instead: GAME(rows=R,cols=C)",
        "--spawn-four-probability": "name the variant instead: GAME(spawn_four_probability=P)",
        "--score": "write score=N after the board in --state",
        "--turns-left": "write turns=N after the board in --state"}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse prints usage + message by default)
        gone = next((o for o in GONE if message.startswith("unrecognized arguments") and o in message.split()), None)
        if gone:
            raise UserError(f"{gone} is gone: {GONE[gone]} (see: python {self.prog} --help)")
        if "expected one argument" in message:
            message += " (a value that starts with '-' goes after '=', e.g. --state=-1|...)"
        raise UserError(f"{message} (see: python {self.prog} --help)")


def _int_in(name: str, lo: int, hi: int):
    """An argparse type: a whole number from lo to hi, else one line naming the option and the range."""

    def parse(text: str) -> int:
        try:
            if not text.strip().isascii():  # int() reads other scripts' digits too ("٣" is 3): not here
                raise ValueError(text)
            value = int(text.strip(), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number, got {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{name} must be {lo:,} to {hi:,}, got {value:,}")
        return value

    return parse


def _ray_option(parser) -> None:
    """--ray [ADDRESS], as bench and arena take it."""
    parser.add_argument("--ray", metavar="ADDRESS", nargs="?", const="auto",
                        help="play the games as Ray tasks: 'auto' (the default) joins a running cluster or starts "
                             "one here; or a cluster's address (needs Ray: " + ray_install() + ")")


def _name(option: str):
    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{option} is empty; give a name ({command()} agents lists them)")
        return text.strip()

    return parse


def _game_help() -> str:
    example = next((g for g in GAMES if g.parameters), None)
    shown = ""
    if example is not None:
        table = example.settings()
        shown = ", e.g. " + format_variant(example.id, {p: getattr(table, p) for p in example.parameters})
    return (f"one of {', '.join(game_ids())}; a variant names its rules parameters, "
            f"id(name=value,...){shown} ({command()} agents lists them)")


GAME_HELP = _game_help()


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=prog(), description="Arcade: five games, classic AI agents. With no command, opens the window.")
    p.add_argument("--settings", default=str(DEFAULT_SETTINGS), help="settings file (default: settings.toml)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    play = sub.add_parser("play", help="open one game directly")
    play.add_argument("game", help=GAME_HELP)
    play.add_argument("--agent", type=_name("--agent"), help="agent in control from the start")
    play.add_argument("--seed", type=_int_in("--seed", 0, MAX_SEED), help="seed of the first game")

    sub.add_parser("agents", help="list the agents registered for each game")

    bench = sub.add_parser("bench", help="play N games headless and print figures",
                           description="Games run on every core by default (--jobs), or on a Ray cluster (--ray); "
                                       "each finished game is appended to a log that --resume continues.")
    bench.add_argument("game", nargs="?", help=GAME_HELP + " (not needed with --resume)")
    bench.add_argument("--agent", type=_name("--agent"), help="the agent measured")
    bench.add_argument("--opponent", type=_name("--opponent"), help="the other side in two-player games (default: random)")
    bench.add_argument("--games", type=_int_in("--games", 1, MAX_GAMES), default=20)
    bench.add_argument("--seed", type=_int_in("--seed", 0, MAX_SEED - MAX_GAMES), default=0)
    bench.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    bench.add_argument("--jobs", type=_int_in("--jobs", 1, 4096),
                       help="games played at once on local processes (default: all cores; 1 plays in this process)")
    _ray_option(bench)
    bench.add_argument("--budget-clock", choices=("wall", "cpu", "none"),
                       help="count the agents' time a move in wall-clock time or in the CPU time of their own "
                            "thread (a loaded machine then plays as deep as an idle one), or not at all (each "
                            "stops on its counted work: the same games on any machine); default: [agents] "
                            "budget_clock")
    bench.add_argument("--kept", action="store_true", help="with the agents' parameters changed on screen "
                       "(Shift+i, kept in the data folder); without it, settings.toml's alone")
    bench.add_argument("--log", help="append each finished game to this file (default: data/runs/...jsonl)")
    bench.add_argument("--resume", metavar="LOG", help="continue the stopped run of that log (its games, agents "
                       "and seed); the games it holds are not played again")

    decide = sub.add_parser("decide", help="what an agent would do in a given state")
    decide.add_argument("game", help=GAME_HELP)
    decide.add_argument("--agent", type=_name("--agent"), required=True)
    decide.add_argument("--state", required=True, help="the state in the game's text format (--state=-... if it "
                        "starts with '-')")
    decide.add_argument("--json", action="store_true")
    decide.add_argument("--kept", action="store_true", help="with the agents' parameters changed on screen "
                        "(Shift+i, kept in the data folder)")
    decide.add_argument("--tree", action="store_true", help="the search tree behind the values too (agents that "
                        f"search: {command()} agents lists them); with --json as {{\"tree\": NODE}}")
    decide.add_argument("--depth", type=_int_in("--depth", 1, 100), help="with --tree: cut the tree this many "
                        "moves and outcomes below the root (default: as the agent shows it)")

    arena = sub.add_parser("arena", help="agents against each other (or one with two settings): ratings or scores; "
                           "every agent decides by counted work, no clock")
    arena.add_argument("game", help=GAME_HELP)
    arena.add_argument("--agents", required=True, help="entrants, comma-separated: a name, or name:param=value "
                       "(e.g. solver,alpha-beta,mcts:exploration=1)")
    arena.add_argument("--games", type=_int_in("--games", 1, MAX_GAMES), default=20,
                       help="games a pair plays (two players, sides alternated) or each entrant plays (one player)")
    arena.add_argument("--seed", type=_int_in("--seed", 0, MAX_SEED - MAX_GAMES), default=0)
    arena.add_argument("--jobs", type=_int_in("--jobs", 1, 4096), help="games at once (default: all cores)")
    _ray_option(arena)
    arena.add_argument("--kept", action="store_true", help="with the parameters changed on screen (Shift+i)")
    arena.add_argument("--log-dir", help="where each pairing's log is kept (default: data/runs/arena); the same "
                       "command again continues a stopped arena")
    arena.add_argument("--json", action="store_true", help="print the table as one JSON object")

    replay = sub.add_parser("replay", help="play a logged or kept game again from its start and moves")
    replay.add_argument("log", help="a run's log (bench, arena or a benchmark's .jsonl); with --kept, a game's id")
    replay.add_argument("--kept", action="store_true", help="a game finished in the window, kept in the data folder "
                        "(--index 0 the newest)")
    replay.add_argument("--index", type=_int_in("--index", 0, MAX_GAMES), default=0, help="the game's index in "
                        "the run, or among the kept games newest first (default 0)")
    replay.add_argument("--to", type=_int_in("--to", 0, 10**9), help="stop after this many moves (default: all)")
    replay.add_argument("--json", action="store_true")

    train = sub.add_parser("train", help="train a learning agent and save it")
    train.add_argument("game", help=GAME_HELP)
    train.add_argument("--agent", type=_name("--agent"), required=True)
    train.add_argument("--episodes", "--games", dest="episodes", type=_int_in("--episodes", 1, MAX_EPISODES),
                       help="episodes (games) to train (default: the agent's settings)")
    train.add_argument("--out", help="where to save (default: the data folder); an existing file there is "
                                     "trained on, and a stopped run of the same length resumes from it")
    train.add_argument("--seed", type=_int_in("--seed", 0, MAX_SEED), default=0)
    train.add_argument("--fresh", action="store_true", help="start from the initial values, not the saved table")
    train.add_argument("--jobs", type=_int_in("--jobs", 1, 4096),
                       help="processes a trainer that can learn on several cores uses (default: all cores)")
    train.add_argument("--checkpoint-seconds", type=_int_in("--checkpoint-seconds", 1, 86400), default=120,
                       help="save what it has learnt this often (a killed run resumes from there)")
    _ray_option(train)
    train.add_argument("--curve", metavar="CSV", help="append the learning curve's points (games, series, value) "
                                                      "to this file as they come (trainers that measure themselves)")
    return p


def _variant(args, settings):
    """The settings with the rules parameters of the game's variant (`nim(heap=21)`, the one way a
    variant is named) in place; args.game becomes the bare id and args.variant the parameters given.
    UserError: one line naming the problem."""
    args.variant = {}
    if getattr(args, "game", None) is None:
        return settings
    try:
        game_id, params = split_variant(args.game)
        info = game_info(game_id)
        params = checked_parameters(info, params)
    except (UnknownGame, VariantError) as exc:
        raise UserError(str(exc)) from None
    args.game, args.variant = game_id, params
    return settings.with_table(info.attr, **params) if params else settings


def cmd_agents(args, settings) -> int:
    for game in GAMES:
        print(f"{game.id}  ({game.title})")
        if game.parameters:
            print(f"  rules parameters: {'; '.join(describe_parameters(game))}")
        for spec in agents_for(game.id):
            print(f"  {spec.name:<18} {spec.shown}: {spec.summary} [{spec.group}]")
            if spec.params is not None:
                table = f"agents.{spec.name}] or [{game.table}" if ANY_GAME in spec.games else game.table
                print(f"  {'':<18} [{table}.{spec.name}]: {'; '.join(describe_fields(spec.params))}")
    return 0


def cmd_play(args, settings) -> int:
    _rules(args.game, settings)  # validates the game before a window opens
    if args.agent:
        try:
            find(args.game, args.agent)
        except UnknownAgent as exc:
            raise UserError(str(exc)) from None
    # the command line's variant wins over the one the screen kept from its last visit
    return open_window(settings, game=args.game, agent=args.agent, seed=args.seed, given=tuple(args.variant))


def cmd_bench(args, settings) -> int:
    """main.py bench: arcade/cli_bench.py."""
    from arcade.cli_bench import cmd_bench as bench  # (its own module: it imports none of this one)

    return bench(args, settings)


def cmd_arena(args, settings) -> int:
    from pathlib import Path

    from arcade import arena, runner

    rules = _rules(args.game, settings)
    game = rules.game_id
    try:
        entrants = arena.parse_entrants(game, args.agents)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if args.kept:  # each entrant named with what it plays with: "alpha-beta:position_budget=50", as the window
        entrants = [arena.with_kept(settings, game, e) for e in entrants]
        twice = arena.entered_twice(entrants)
        if twice:
            raise UserError(f"--kept: {twice} is then entered twice (the kept parameters make two entrants the "
                            "same)")
    # no clock: every entrant stops on its counted work, so a seed gives the same table on any machine and
    # with any number of jobs (alpha-beta counts 20,000 positions a move unless its position_budget says)
    settings = settings.with_table("agents", budget_clock="none")
    folder = Path(args.log_dir) if args.log_dir else settings.data_dir / "runs" / "arena"
    problem = folder_write_problem(folder)
    if problem:
        raise UserError(f"--log-dir: {problem}")
    backend = runner.backend_of(args.jobs, args.ray, keep_workers=True)  # (its pairings' agents: Recipes, one pool)
    try:
        backend.connect()  # (a missing Ray or cluster is one line before any game)
    except runner.RunError as exc:
        backend.shutdown()
        raise UserError(str(exc)) from None
    bar: dict = {}

    def progress(label: str, done: int, total: int, records=()) -> None:
        if label not in bar:
            for b in bar.values():
                b.close()
            bar.clear()
            bar[label] = Progress(total, label)
        bar[label].update(done)

    try:
        played = arena.play(game, rules, settings, entrants, args.games, args.seed, backend, folder, progress)
    except (ValueError, runner.RunError) as exc:
        raise UserError(str(exc)) from None
    finally:
        for b in bar.values():
            b.close()
        backend.shutdown()
    complete = len(played) == len(arena.pairings(entrants, rules.players)) and all(p.complete for p in played)
    if rules.players == 2:
        table = arena.two_player_table(entrants, played)
    else:
        table = arena.one_player_table(game, played)
    arena.keep_results(settings.data_dir, game, settings, table, args.games, complete)  # (k shows it beside)
    table.update(game=format_variant(game, args.variant) if args.variant else game, games=args.games,
                 seed=args.seed, complete=complete)
    if args.json:
        print(json.dumps(table, default=json_default))
    else:
        print(f"arena: {table['game']}, {args.games} games "
              + ("a pair, sides alternated" if rules.players == 2 else "each, the same seeds") + f", seed {args.seed}")
        print("\n".join(arena.table_lines(table)))
        if not complete:
            print("stopped: the same command continues from the logs")
    return 0 if complete else 130


def cmd_replay(args, settings) -> int:
    from arcade.cli_replay import cmd_replay as replay  # (its own module: it imports none of this one)

    return replay(args, settings)


def cmd_decide(args, settings) -> int:
    rules = _rules(args.game, settings)
    try:  # the state first: a bad one is said before an agent builds its tables
        state = rules.parse_state(args.state)
    except ValueError as exc:
        raise UserError(f"--state: {exc}") from None
    if isinstance(rules, FitsState):
        if args.variant and rules.for_state(state) != rules:  # the variant asked for must be the state's
            raise UserError(f"--state: that state is not one of {format_variant(args.game, args.variant)}")
        rules = rules.for_state(state)
    if rules.is_terminal(state) or not rules.legal_actions(state):
        raise UserError("--state: the game is over in that state; there is nothing to decide")
    if args.depth is not None and not args.tree:
        raise UserError("--depth cuts the tree: give --tree with it")
    if args.kept:
        from arcade.kept_params import with_kept

        settings = with_kept(settings, rules.game_id)
    if args.tree and not _spec(args.game, args.agent).can(ShowsTree):  # (asked before the agent is built)
        searchers = [s.name for s in agents_for(args.game, ShowsTree)]
        raise UserError(f"agent '{args.agent}' shows no search tree; on {args.game}: {', '.join(searchers) or 'none'}")
    agent = _agent(args.game, args.agent, rules, settings)
    from arcade.seeds import make_rng

    from arcade.agent_call import call, decision_rng

    # one decision: the move, the values it was chosen on and the tree behind them, from one search
    try:
        decision = call(agent, "decide_tree" if args.tree else "decide", state,
                        decision_rng(make_rng(settings.seeds.agent)), rules)
    except ValueError as exc:  # the agent cannot play this state (e.g. a board it does not cover)
        raise UserError(f"{agent.name}: {exc}") from None
    action, values = decision.value.action, decision.value.values
    # the move as the game names it ("move", the keys of "values") and as its action (its index, for programs)
    out = {"game": args.game, "agent": agent.name, "action": action, "move": rules.format_action(action),
           "decision": {**decision.figures, "ms": round(decision.ms, 3)}}
    if values is not None:
        out["values"] = {rules.format_action(a): float(v) for a, v in values.items()}
        out["legend"] = decision.legend
    if args.tree:
        from agents.search_tree import as_json, cut

        out["tree"] = as_json(cut(decision.value.tree, args.depth), rules.format_action)
    if args.json:
        print(json.dumps(out, default=json_default))
    else:
        figures = ", ".join(ms_text(v) if k == "ms" else f"{k} {v}" for k, v in out["decision"].items())
        print(f"{agent.name} plays {out['move']}   ({figures})")
        if values is not None:
            print(f"  {decision.legend}")
        number = numbers_for((out.get("values") or {}).values())  # (the window's format for a move's values)
        for a, v in (out.get("values") or {}).items():
            print(f"  {a:<18} {number(v)}")
        if args.tree:
            from arcade.tree_text import tree_lines

            print("\n".join(tree_lines(out["tree"])))
    return 0


def cmd_train(args, settings) -> int:
    """main.py train: arcade/cli_train.py."""
    from arcade.cli_train import cmd_train as train  # (its own module: it imports none of this one)

    return train(args, settings)


def args_command(argv: list[str] | None) -> str | None:
    """The headless command named in `argv` (None: the window), read without argparse (which may not have
    finished when a signal comes)."""
    words = sys.argv[1:] if argv is None else argv
    return next((w for w in words if w in COMMANDS), None)


def no_display_reason() -> str | None:
    """Why a window cannot open here, or None."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return None
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return "no display found (DISPLAY is not set)"
    return None


def open_window(settings, game: str | None = None, agent: str | None = None, seed: int | None = None,
                given: tuple[str, ...] = ()) -> int:
    reason = no_display_reason()
    if reason:
        raise UserError(f"{reason}; the window cannot open here. Headless commands work: "
                        f"{command()} bench GAME --agent A, or {command()} decide GAME --agent A --state S")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    # SDL's own SIGINT / SIGTERM handlers (installed as it starts) would replace the arcade's and turn a signal
    # into a quit event that waits for the frame loop: a SIGTERM sent while it starts was then lost
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")
    # A SIGTERM while the window starts is noted, and ends its frame loop once there is one (below): one way
    # out, the window's. Raised as an exception in the middle of starting the agent process, it cut that start
    # short (the half-started process printed a traceback) and once in a while left the arcade running
    noted: list[str] = []
    signal.signal(signal.SIGTERM, lambda _signum, _frame: noted.append("terminated (SIGTERM)"))
    import importlib.util

    if importlib.util.find_spec("pygame") is None:
        raise UserError(f"pygame is not installed for this Python ({sys.executable}): the arcade's packages are "
                        "in its own environment; run `make run`, or .venv/bin/python main.py" if not installed() else
                        "in the environment it was installed in; run `arcade` from there")
    from arcade import kernel_warmup
    from arcade.app import WindowCannotOpen, run_window

    warming = kernel_warmup.start()  # every kernel, beside the window (a first start compiles them)
    try:
        return run_window(settings, game, agent, seed, given, noted)
    except WindowCannotOpen as exc:
        raise UserError(f"the window cannot open ({exc}); headless commands work: {command()} bench ...") from None
    finally:
        kernel_warmup.stop(warming)


COMMANDS = {"agents": cmd_agents, "play": cmd_play, "bench": cmd_bench, "decide": cmd_decide, "train": cmd_train,
            "arena": cmd_arena, "replay": cmd_replay}


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        for key, value in vars(args).items():  # argparse turns an option's value '--' into an empty list
            if isinstance(value, list):
                raise UserError(f"--{key.replace('_', '-')}: '--' is not a value (see: {command()} --help)")
        if args.settings != str(DEFAULT_SETTINGS) and not os.path.exists(args.settings):
            raise UserError(f"--settings {args.settings}: no such file; give an existing settings file or leave "
                            "--settings out for the arcade's own")
        settings = load_settings(args.settings)
        from arcade.foundation.notices import notice

        for w in settings.warnings:
            notice(w)
        if args.command is None:
            return open_window(settings)
        # Ctrl-C stops a headless command, and so does SIGINT sent to one a shell started in the background
        # (which starts it with SIGINT ignored): a run asked to stop must not play on for minutes
        signal.signal(signal.SIGINT, signal.default_int_handler)
        # and `kill` (SIGTERM) stops it as Ctrl-C does: what finished is said, with how to continue
        signal.signal(signal.SIGTERM, _raise_terminated)
        from agents.engines.progress import set_progress_sink
        from arcade.progress import TaskBars

        set_progress_sink(TaskBars())  # long work inside an agent (a table built) shows on stderr
        settings = _variant(args, settings)
        return COMMANDS[args.command](args, settings)
    except (UserError, SettingsError) as exc:
        print(f"{prog()}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        if isinstance(exc, Terminated):
            when = " before the window opened" if args_command(argv) is None else ""
            print(f"{prog()}: terminated (SIGTERM){when}", file=sys.stderr)
            return 143
        print(f"{prog()}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
