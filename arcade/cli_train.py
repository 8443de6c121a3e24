"""The command line's `train`: a learner trained headless and saved, with checkpoints a killed run resumes from
(SIGTERM and Ctrl-C save first), a learning curve appended to a CSV, and --ray for a trainer that plays its games
on a cluster. Every problem a user can cause is one line before the training starts.
"""
from __future__ import annotations

import signal
import sys
from pathlib import Path

from agents import Trains, agents_for, resumed_at
from arcade.cli_common import Terminated, UserError, _agent, _raise_terminated, _rules, _spec
from arcade.foundation.storage import folder_write_problem, writable_file_problem
from arcade.invocation import prog
from arcade.progress import Progress


def cmd_train(args, settings) -> int:
    rules = _rules(args.game, settings)
    spec = _spec(args.game, args.agent)
    if not spec.can(Trains):  # (asked of the registry: building the agent may compile its kernels first)
        learners = [s.name for s in agents_for(args.game, Trains)]
        raise UserError(f"agent '{spec.name}' does not learn; trainable agents for {args.game}: "
                        f"{', '.join(learners) or 'none yet'}")
    agent = _agent(args.game, args.agent, rules, settings)
    path = Path(args.out) if args.out is not None else agent.default_path()
    _check_writable(("--out", path), ("--curve", args.curve))  # before the training, not after a million episodes
    episodes = args.episodes or type(agent).default_episodes(settings, rules.game_id)
    fresh = _fresh_start(args, agent, path, episodes)
    cluster = _cluster_for(args, agent)
    if not fresh and not args.fresh and (at := resumed_at(agent, episodes)):
        print(f"resuming the stopped run of {episodes:,} games in {path} at game {at:,}", file=sys.stderr)
    import threading
    import time

    import numpy as np

    from agents.base import CannotTrain, TrainingDiverged
    from arcade.foundation import notices
    from arcade.runner import default_jobs

    bar = Progress(episodes, f"train {args.game} {agent.name}")
    last_save = [time.monotonic(), 0]  # when, and at how many games, the last checkpoint was written

    def checkpoint(done, figures=None):  # the file a killed run resumes from: written whole or not at all
        if args.curve is not None and figures:
            try:
                with open(args.curve, "a", encoding="utf-8") as fh:
                    fh.writelines(f"{done},{name},{value}\n" for name, value in figures.items())
            except OSError as exc:
                raise CheckpointFailed(f"training stopped at {done:,} games: --curve {args.curve}: could not write "
                                       f"({exc.strerror or exc}){_kept(path, last_save[1])}; then run the same "
                                       "command to resume") from None
        if time.monotonic() - last_save[0] >= args.checkpoint_seconds:
            with notices.held() as said:
                if not agent.save(path):
                    raise CheckpointFailed(f"training stopped at {done:,} games: {said[-1] if said else 'could not save'}"
                                           f"{_kept(path, last_save[1])}; then run the same command to resume")
            last_save[:] = [time.monotonic(), done]

    # `kill` (SIGTERM) stops a training as Ctrl-C does, saving first: a run started in the background
    # ignores Ctrl-C's signal, and the last checkpoint may be minutes old
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        agent.train(episodes, np.random.default_rng(args.seed), progress=bar.update, from_scratch=fresh,
                    stop=threading.Event(), checkpoint=checkpoint, jobs=args.jobs or default_jobs())
    except CannotTrain as exc:
        bar.close()
        print(f"{prog()}: error: {exc}", file=sys.stderr)
        return 2
    except (CheckpointFailed, TrainingDiverged) as exc:
        bar.close()
        what = str(exc) if isinstance(exc, CheckpointFailed) else \
            f"training stopped: {exc}; nothing of it is saved{_kept(path, last_save[1])}"
        print(f"{prog()}: error: {what}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as exc:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second one must not cut the save short
        bar.close()
        how = "terminated" if isinstance(exc, Terminated) else "interrupted"
        print(f"{how}: saving what it has learnt to {path} (the same command resumes)", file=sys.stderr)
        agent.save(path)
        return 143 if isinstance(exc, Terminated) else 130
    finally:
        signal.signal(signal.SIGTERM, previous)
        if cluster is not None:
            cluster.shutdown()
    bar.close()
    if not agent.save(path):
        return 1
    print(f"saved {path}")
    return 0


def _check_writable(*targets) -> None:
    """UserError naming the option of the first (option, path) that cannot be written (a None path: none)."""
    for option, target in targets:
        if target is not None:
            problem = writable_file_problem(target) or folder_write_problem(target)
            if problem:
                raise UserError(f"{option} {str(target)!r}: {problem}")


def _cluster_for(args, agent):
    """With --ray, the cluster the agent's training plays its games on (joined now: a problem is one line before
    any training); None without."""
    if args.ray is None:
        return None
    from agents.base import TrainsOnCluster
    from arcade import runner

    if not isinstance(agent, TrainsOnCluster):
        raise UserError(f"agent '{agent.name}' trains in this process only: leave out --ray (--jobs sets its cores)")
    cluster = runner.RayCluster(args.ray)
    try:
        cluster.connect()
    except runner.RunError as exc:
        raise UserError(str(exc)) from None
    agent.play_on(cluster)
    print(f"self-play games on {cluster.name}", file=sys.stderr)
    return cluster


def _fresh_start(args, agent, path: Path, episodes: int) -> bool:
    """Whether the training starts from the initial values. With --fresh, an existing file at the save path is
    never overwritten: the checkpoint of a stopped run of as many games resumes (the same command goes on),
    anything else is refused in one line. Without it, an --out file is trained on from."""
    if not path.exists() or not (args.fresh or args.out is not None) or not agent.load(path):
        return args.fresh  # (an unreadable file was set aside by load: nothing there to keep)
    if at := resumed_at(agent, episodes):
        print(f"resuming the stopped run of {episodes:,} games in {path} at game {at:,}", file=sys.stderr)
        return False
    if not args.fresh:
        print(f"training on from {path}", file=sys.stderr)
        return False
    raise UserError(f"--fresh would overwrite {path}, which holds what a training learnt: leave out --fresh to "
                    "train on from it, or give another --out (or move the file away)")


def _kept(path: Path, done: int) -> str:
    """What a stopped training left in its file, for its message."""
    if done:
        return f"; {path} keeps the checkpoint at {done:,} games"
    return f"; {path} is unchanged" if path.exists() else ""


class CheckpointFailed(Exception):
    """A training's checkpoint could not be written (a full disk): the run stops, its message one line."""
