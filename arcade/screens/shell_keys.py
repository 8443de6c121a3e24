"""The keys every game screen shares and what they do. A player's: Enter (agent on/off), Tab (next agent),
+/- (delay), v (values), . (one agent move), m (sound), h/? (help), F11, Esc. The lab's, in the help only:
Shift+v (the search tree), i (agent panel), Shift+i (its parameters), k (statistics), Shift+k (the finished
games, replayed), Shift+a (an arena). Also the footer's key line. The game screen hands each key press here
before its own keys (arcade.screens.base)."""
from __future__ import annotations

import pygame

from arcade.control import VALUES_READ_S
from arcade.screens import overlays
from arcade.screens.arena_view import open_arena
from arcade.screens.params_view import ParamsView
from arcade.screens.replay_view import ReplayView
from arcade.screens.tree_view import open_tree
from arcade.ui import text

ENTER_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER)
PLUS_KEYS = (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)
MINUS_KEYS = (pygame.K_MINUS, pygame.K_KP_MINUS)
PLAY_KEYS = [  # (keys, what they do, the word on the help line or "" for the help only): a player's keys
    ("Enter", "hand control to the agent / take it back", "agent"),
    ("Tab", "next agent (Shift+Tab: previous)", "next agent"),
    ("+ / -", "agent move delay longer / shorter", ""),
    ("v", "values: what the selected agent thinks of each move (also on your turn; while they show, the agent "
          f"waits {VALUES_READ_S:g} s a move at least, so they can be read)", "values"),
    (".", "the agent plays exactly one move, then hands control back", ""),
    ("m", "sound effects off / on", ""),
    ("h or ?", "this help: the keys to play, then the lab's", "help, lab"),
    ("F11", "full screen on / off (the window can also be resized)", ""),
    ("Esc", "back to the launcher", "back"),
]
LAB_HEADING = ("", "The lab: how the agents decide and learn")  # a heading in the help, not a key
LAB_KEYS = [  # a student's keys, listed in the help under the heading, none on the player's line
    ("Shift+v", "the search tree behind the values, node by node (agents that search)", ""),
    ("i", "about the agent: its algorithm, parameters and last decision", ""),
    ("Shift+i", "change the agent's parameters here (kept for this game; c: the course's value)", ""),
    ("k", "statistics of this game, kept across runs", ""),
    ("Shift+k", "the games finished here: replay one move by move, play on from any move", ""),
    ("Shift+a", "an arena of this game's agents: ratings (or scores) with intervals, filling in as it plays", ""),
]
HELP_LINE_SIZE = 17  # the footer's key line is never drawn smaller than this: entries go first
ALWAYS_SHOWN = ("Enter", "Tab", "v", "h or ?", "Esc")  # what the shortest help line still says: a player's keys


def help_line_of(keys: list[tuple], max_width: int | None = None) -> str:
    """The bottom help line from key entries (keys, does[, short]): those with a short word, in order. Given
    a width, entries are left out from the end (a player's shared keys stay: the game's own go first) until it
    fits at a readable size."""
    entries = [(k[0], f"{k[0].replace(' / ', '/').replace(' or ', '/')}: {k[2]}") for k in keys if len(k) > 2 and k[2]]
    line = "  ".join(e for _, e in entries)
    if max_width is None:
        return line
    while text.width(line, HELP_LINE_SIZE) > max_width:
        droppable = [i for i, (key, _) in enumerate(entries) if key not in ALWAYS_SHOWN]
        if not droppable:
            break
        entries.pop(droppable[-1])
        line = "  ".join(e for _, e in entries)
    return line


def handle_shell_key(screen, event) -> bool:
    """A shared key pressed on a game screen: do what it does; False if it is not one of them."""
    for matches, act in _ACTIONS:
        if matches(event, screen):
            act(screen, event)
            return True
    return False


def select_playable(screen, step: int) -> None:
    """Tab: the next agent that can play these rules; say why others were skipped."""
    skipped = screen.controller.cycle(step)
    controller = screen.controller
    spec = controller.spec
    note = f"  (skipped: {'; '.join(skipped)})" if skipped else ""
    place = f"{controller.index + 1} of {len(controller.specs)}"
    screen.say(f"agent {place}: {spec.shown}, {spec.group}. {spec.plain()}{note}", 5000 if skipped else 3500)
    screen.controller.warm_up_if_heavy()


def step_once(screen) -> None:
    """`.`: the selected agent plays exactly one move for whoever is to move, then control is back."""
    why = screen.controller.spec.cannot_play(screen.rules)
    if why:
        screen.say(why)
        return
    if screen.controller.enabled:
        screen.controller.set_enabled(False)
    if screen.agent_state() is None:
        screen.say("nothing to play: the game is over" if screen.shown_state() is None else "wait for the other side")
        return
    screen.stepping = True


def _toggle_values(screen, event) -> None:
    on = screen.values.toggle()
    name = screen.controller.name
    # never the legend of an earlier state: it may name the other side
    current = screen.values.current(screen.shown_state()) is not None
    if not on:
        screen.say("values off")
    elif not screen.values.explains:
        screen.say(f"values on, but {name} has none to show")
    else:
        screen.say("values on: " + (screen.values.legend if current and screen.values.legend
                                    else f"{name}'s view of each move, for the side to move"))


def _toggle_sound(screen, event) -> None:
    muted = screen.app.sounds.toggle_mute()
    screen.say("sound off (m turns it on)" if muted else
               "sound on" if screen.app.sounds.available else "sound on, but no audio device plays it")


def _open(overlay):
    return lambda screen, event: screen.app.push(overlay(screen.app, screen))


def _key(*keys, unicode: str = ""):
    return lambda event, screen: event.key in keys or bool(unicode) and event.unicode == unicode


_ACTIONS = (  # (does the key press match, what it does): the first match acts
    (_key(*ENTER_KEYS), lambda screen, event: screen.controller.toggle()),
    (_key(pygame.K_TAB), lambda screen, event: select_playable(screen, -1 if event.mod & pygame.KMOD_SHIFT else 1)),
    (lambda event, screen: event.key == pygame.K_v and bool(event.mod & pygame.KMOD_SHIFT),
     lambda screen, event: open_tree(screen)),
    (_key(pygame.K_v), _toggle_values),
    (_key(pygame.K_PERIOD, unicode="."), lambda screen, event: step_once(screen)),
    (lambda event, screen: event.key == pygame.K_i and bool(event.mod & pygame.KMOD_SHIFT), _open(ParamsView)),
    (_key(pygame.K_i), _open(overlays.AgentPanel)),
    (lambda event, screen: event.key == pygame.K_k and bool(event.mod & pygame.KMOD_SHIFT), _open(ReplayView)),
    (lambda event, screen: event.key == pygame.K_a and bool(event.mod & pygame.KMOD_SHIFT), open_arena),
    (_key(pygame.K_k), _open(overlays.StatisticsView)),
    (lambda event, screen: event.key == pygame.K_m and screen.app.sounds is not None, _toggle_sound),
    (_key(*PLUS_KEYS, unicode="+"), lambda screen, event: screen.controller.change_delay(+1)),
    (_key(*MINUS_KEYS), lambda screen, event: screen.controller.change_delay(-1)),
    (_key(pygame.K_h, unicode="?"), _open(overlays.KeyHelp)),
)
