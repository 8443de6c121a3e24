"""The command line's `replay`: a game played again from its start and its moves, a runner log's (from its seed)
or one kept by the window (`--kept`, from the generator's state at its start), its moves and the state it
reaches printed as text or JSON, and whether the whole replay ends as recorded.
"""
from __future__ import annotations

import json

from arcade.cli_common import UserError, _rules
from arcade.games import game_info
from arcade.foundation.storage import json_default


def cmd_replay(args, settings) -> int:
    if args.kept:
        return _replay_kept(args, settings)
    from arcade import runner
    from arcade.cli_bench import _logged_variant
    from arcade.replay import ends_as_logged, replay

    try:
        log = runner.GameLog.open(args.log)
    except runner.RunError as exc:
        raise UserError(str(exc)) from None
    record = next((r for r in log.records if r["index"] == args.index), None)
    if record is None:
        held = sorted(r["index"] for r in log.records)
        raise UserError(f"--index {args.index}: the log holds no such game (it holds {len(held)}: "
                        f"{', '.join(map(str, held[:10]))}{' ...' if len(held) > 10 else ''})")
    variant = _logged_variant(log.spec)
    if variant:
        settings = settings.with_table(game_info(log.spec.game).attr, **variant)
    rules = _rules(log.spec.game, settings)
    try:
        session = replay(rules, record, args.to)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    whole = args.to is None or args.to == len(record["actions"])
    same = ends_as_logged(rules, record, session) if whole else None
    out = {"game": log.spec.describe(), "index": args.index, "seed": record["seed"], "as_logged": same}
    head = f"{out['game']}: game {args.index} (seed {out['seed']})"
    return _print_replay(args, rules, record, session, out, head, "ends as the log says",
                         "NO (the rules or the log changed)")


def _print_replay(args, rules, record: dict, session, out: dict, head: str, ends: str, changed: str) -> int:
    """A replay's moves and the state it reached, as JSON (`out` with them) or as lines under `head`; the exit
    status 1 where the whole replay does not end as recorded."""
    from arcade.replay import as_action

    try:
        state_text = rules.format_state(session.state)
    except ValueError:  # (a finished blackjack round has no text form: its outcome says how it ended)
        state_text = json.dumps(session.outcome(), default=json_default)
    out.update(moves=[rules.format_action(as_action(a)) for a in record["actions"][:session.moves]],
               state=state_text, over=session.over)
    same = out.get("as_logged", out.get("as_kept"))
    if args.json:
        print(json.dumps(out, default=json_default))
    else:
        print(f"{head}, {session.moves} of {len(record['actions'])} moves replayed")
        print("  moves: " + " ".join(out["moves"][:40]) + (" ..." if len(out["moves"]) > 40 else ""))
        print(f"  state: {out['state']}" + ("  (the game is over)" if session.over else ""))
        if same is not None:
            print(f"  {ends}: " + ("yes" if same else changed))
    return 0 if same is not False else 1


def _replay_kept(args, settings) -> int:
    """`replay --kept GAME`: a game finished in the window, rebuilt from its start and moves."""
    from arcade.finished_games import kept, played_by
    from arcade.games import make_rules
    from arcade.session import GameSession

    game_id = _rules(args.log, settings).game_id  # (one line for a game id that is not one)
    games = kept(settings.data_dir, game_id)
    if not 0 <= args.index < len(games):
        raise UserError(f"--index {args.index}: {len(games)} {game_id} games are kept in {settings.data_dir} "
                        "(a game is kept when it ends in the window)")
    record = games[args.index]
    if args.to is not None and args.to > len(record["actions"]):
        raise UserError(f"--to must be a move from 0 to {len(record['actions'])}, got {args.to}")
    try:  # (the variant as the window replays it: a kept game's own words for its board)
        rules = make_rules(game_id, settings, **(record.get("variant") or {}))
        session = GameSession.replayed(rules, record, args.to)
    except (ValueError, TypeError) as exc:
        raise UserError(f"kept game {args.index} does not replay: {exc}") from None
    whole = args.to is None or args.to == len(record["actions"])
    same = (json.loads(json.dumps(session.outcome() if session.over else None, default=json_default))
            == record.get("outcome")) if whole else None
    out = {"game": game_id, "index": args.index, "when": record.get("when"), "player": record.get("player"),
           "as_kept": same}
    head = f"{game_id}: kept game {args.index} ({out['when']}, {played_by(record)})"
    return _print_replay(args, rules, record, session, out, head, "ends as it was kept", "NO (the rules changed since)")
