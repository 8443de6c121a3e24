"""What the command line's commands share: the one-line error a user's mistake gives, and the rules and agent a
command names (checked before any long work).
"""
from __future__ import annotations

from agents import UnknownAgent, agents_for, find
from arcade.games import UnknownGame, make_rules


class UserError(Exception):
    """A mistake in the command line; the message is one line."""


def _rules(game: str, settings):
    try:
        return make_rules(game, settings)
    except UnknownGame as exc:
        raise UserError(str(exc)) from None


def _spec(game: str, name: str | None):
    """The registry's entry of agent `name` (or the game's first); UserError if there is none."""
    try:
        return find(game, name) if name is not None else agents_for(game)[0]
    except UnknownAgent as exc:
        raise UserError(str(exc)) from None


def _agent(game: str, name: str | None, rules, settings):
    """The agent `name` (or the game's first) built for these rules; UserError if there is none or it
    cannot play these rules (said before any long work)."""
    spec = _spec(game, name)
    why = spec.cannot_play(rules)
    if why:
        raise UserError(why)
    return spec.create(rules, settings)


class Terminated(KeyboardInterrupt):
    """SIGTERM during a command: it ends as Ctrl-C does (a training's work saved), with the exit status of
    SIGTERM."""


def _raise_terminated(signum, frame):
    raise Terminated
