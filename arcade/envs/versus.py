"""The arcade's two-player games for one learner: tic-tac-toe and dots and boxes against a built-in
opponent (any agent registered for the game, by name). The observations here are shared with the
PettingZoo environments (tictactoe_v0, dots_and_boxes_v0)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from gymnasium import spaces

from arcade.envs.base import ArcadeEnv
from arcade.games.base import is_whole_number
from arcade.games.dots import Board, DotsRules
from arcade.games.tictactoe import EMPTY, TicTacToeRules, decode


def tictactoe_planes(state: int, seat: int) -> np.ndarray:
    """3 x 3 x 2 int8 planes from `seat`'s view: plane 0 its own marks, plane 1 the opponent's."""
    cells = decode(state).reshape(3, 3)
    own, other = (1, 2) if seat == 0 else (2, 1)
    return np.stack([cells == own, cells == other], axis=-1).astype(np.int8)


def dots_observation(state, seat: int) -> np.ndarray:
    """What seat `seat` sees: the drawn lines as 0 / 1, bit 0 first (the arcade's line numbering), then its
    boxes, the other seat's boxes, and 1 if it is its turn (int8, L + 3 values)."""
    n = state.board.n_lines
    lines = (state.lines >> np.arange(n)) & 1
    return np.concatenate([lines, [state.scores[seat], state.scores[1 - seat], int(state.mover == seat)]]).astype(np.int8)


def dots_observation_space(rows: int, cols: int) -> spaces.Box:
    n = Board(rows, cols).n_lines
    return spaces.Box(0, max(1, rows * cols), (n + 3,), dtype=np.int8)


def _opponent(game_id: str, name: str, rules, settings_file):
    """The opponent agent, built from the settings file (default: the arcade's own settings.toml, so its
    data folder is the arcade's, never the working directory)."""
    from agents import find
    from arcade.settings import DEFAULT_SETTINGS, load_settings

    spec = find(game_id, name)  # UnknownAgent (a ValueError) names the choices
    why = spec.cannot_play(rules)
    if why:
        raise ValueError(why)
    if settings_file is not None and not Path(settings_file).is_file():
        raise ValueError(f"settings={str(settings_file)!r}: no such settings file (leave it out for the arcade's own)")
    settings = load_settings(DEFAULT_SETTINGS if settings_file is None else settings_file, strict=True)
    return spec.create(rules, counted_budgets(settings))


def counted_budgets(settings):
    """The settings with every opponent's budget counted in work, not time, so a seed replays the same
    episode on any machine (as the environments promise): budget_clock "none", no clock at all, so each stops
    on its counted work (MCTS's simulations, expectiminimax's depth, alpha-beta's position_budget or its
    counted default): however slow the machine, no move is cut short."""
    return settings.with_table("agents", budget_clock="none")


class _VersusEnv(ArcadeEnv):
    """The learner plays seat `play_as`; the opponent's moves happen inside reset() and step()."""

    def __init__(self, rules, opponent: str, play_as: int, render_mode, illegal_reward, settings=None):
        super().__init__(rules, render_mode, illegal_reward)
        if not is_whole_number(play_as) or play_as not in (0, 1):
            raise ValueError(f"play_as must be 0 (move first) or 1 (second), got {play_as!r}")
        self.seat = play_as
        self.opponent_name = opponent
        self.opponent = _opponent(rules.game_id, opponent, rules, settings)

    def _reply(self) -> None:
        """The opponent moves until it is the learner's turn or the game is over."""
        while not self.rules.is_terminal(self.state) and self.rules.to_move(self.state) != self.seat:
            action = self.opponent.act(self.state, self.np_random)
            if not self.session.play(action, self.opponent_name):
                raise ValueError(f"the opponent {self.opponent_name} chose {action!r}, not a legal move")

    def _start(self) -> None:
        super()._start()
        self._reply()

    def _extra_info(self) -> dict:
        return {"opponent": self.opponent_name}


class TicTacToeEnv(_VersusEnv):
    """
    ## Description

    Tic-tac-toe against a built-in opponent: any agent the arcade has for the game
    (`random`, `minimax` (perfect play), `td-value`). X moves first; three in a row wins.

    ## Action Space

    `Discrete(9)`: cell `3 * row + col` (0 top left, 8 bottom right). Taken cells
    are illegal (`info["action_mask"]`).

    ## Observation Space

    `Box(0, 1, (3, 3, 2), int8)`: plane 0 the learner's marks, plane 1 the opponent's
    (as in PettingZoo's classic tic-tac-toe).

    ## Rewards

    +1 for a win, -1 for a loss, 0 for a draw, when the game ends; 0 before. An
    illegal move: `illegal_reward` (default -1) and the episode ends.

    ## Starting State

    The empty board; as O (`play_as=1`) the opponent's first X is already placed.

    ## Episode End

    Terminated on a line of three or a full board (or after an illegal move).

    ## Arguments

    `gymnasium.make("arcade/TicTacToe-v0", opponent="random", play_as=0, illegal_reward=-1.0,
    render_mode=None, settings=None)`. `settings`: the settings file the opponent is built from
    (its parameters and its data folder; default the arcade's own settings.toml).

    ## Information

    `action_mask`, `opponent`, `illegal_action` (after a step).

    ## Version History

    * v0: Initial version, on the arcade's rules (arcade.games.tictactoe).
    """

    game_id = "tictactoe"
    env_id = "arcade/TicTacToe-v0"

    def __init__(self, opponent: str = "random", play_as: int = 0, illegal_reward: float = -1.0,
                 render_mode: str | None = None, settings: str | None = None):
        super().__init__(TicTacToeRules(), opponent, play_as, render_mode, illegal_reward, settings)
        self.action_space = spaces.Discrete(9)
        self.observation_space = spaces.Box(0, 1, (3, 3, 2), dtype=np.int8)

    def observation_of(self, state) -> np.ndarray:
        return tictactoe_planes(state, self.seat)

    def action_of(self, index: int) -> int:
        return index

    def index_of(self, action) -> int:
        return int(action)

    def _play(self, action) -> float:
        self.session.play(action, "agent", checked=True)
        self._reply()
        if not self.rules.is_terminal(self.state):
            return 0.0
        winner = self.rules.outcome(self.state)["winner"]
        return 0.0 if winner is None else (1.0 if winner == self.seat else -1.0)

    def legal_mask(self, state=None) -> np.ndarray:
        state = self.state if state is None else state
        if self.rules.is_terminal(state):
            return np.zeros(9, dtype=np.int8)
        return (decode(state) == EMPTY).astype(np.int8)


class DotsAndBoxesEnv(_VersusEnv):
    """
    ## Description

    Dots and boxes on `rows` x `cols` boxes against a built-in opponent (`random`,
    `greedy`, `solver` (perfect play up to 3x3), `policy-iteration` (2x2, 2x3)).
    Players draw lines in turn; completing a box scores it and moves again.

    ## Action Space

    `Discrete(L)`, L lines: horizontal lines row by row, then vertical lines column
    by column (the arcade's and the course's numbering). Drawn lines are illegal
    (`info["action_mask"]`).

    ## Observation Space

    `Box(0, rows*cols, (L + 3,), int8)`: 1 for each drawn line (L lines), then the
    learner's boxes, the opponent's boxes, and 1 if it is the learner's turn (it
    always is when it observes: the opponent replies inside `step`).

    ## Rewards

    Boxes the learner completed in the step minus boxes the opponent completed in
    its replies; an episode's rewards sum to the final box margin. An illegal move:
    `illegal_reward` (default -1) and the episode ends.

    ## Starting State

    No line drawn; as the second player (`play_as=1`) the opponent's first line is drawn.

    ## Episode End

    Terminated when every line is drawn (or after an illegal move).

    ## Arguments

    `gymnasium.make("arcade/DotsAndBoxes-v0", rows=2, cols=2, opponent="random", play_as=0,
    illegal_reward=-1.0, render_mode=None, settings=None)`; boards of 1x1 to 5x5 boxes (the solver
    opponent up to 3x3). `settings`: the settings file the opponent is built from (its parameters and
    its data folder, where the solver keeps tables it builds; default the arcade's own settings.toml).

    ## Information

    `action_mask`, `opponent`, `scores` (learner, opponent), `illegal_action` (after a step).

    ## Version History

    * v0: Initial version, on the arcade's rules (arcade.games.dots).
    """

    game_id = "dots"
    env_id = "arcade/DotsAndBoxes-v0"

    def __init__(self, rows: int = 2, cols: int = 2, opponent: str = "random", play_as: int = 0,
                 illegal_reward: float = -1.0, render_mode: str | None = None, settings: str | None = None):
        for name, value in (("rows", rows), ("cols", cols)):
            if not (isinstance(value, (int, np.integer)) and 1 <= value <= 5):
                raise ValueError(f"{name} must be 1 to 5 boxes, got {value!r}")
        super().__init__(DotsRules(rows, cols), opponent, play_as, render_mode, illegal_reward, settings)
        n = self.rules.new_state().board.n_lines
        self.action_space = spaces.Discrete(n)
        self.observation_space = dots_observation_space(rows, cols)

    def observation_of(self, state) -> np.ndarray:
        return dots_observation(state, self.seat)

    def action_of(self, index: int) -> int:
        return index

    def index_of(self, action) -> int:
        return int(action)

    def _margin(self) -> int:
        mine, theirs = self.state.scores[self.seat], self.state.scores[1 - self.seat]
        return mine - theirs

    def _play(self, action) -> float:
        before = self._margin()
        self.session.play(action, "agent", checked=True)
        self._reply()
        return float(self._margin() - before)

    def _extra_info(self) -> dict:
        return {**super()._extra_info(),
                "scores": (self.state.scores[self.seat], self.state.scores[1 - self.seat])}
