"""The arcade's games as environments for reinforcement-learning libraries.

Importing this package registers the Gymnasium environments:

    arcade/2048-v0               arcade.envs.single.Game2048Env
    arcade/Match3-v0             arcade.envs.single.Match3Env
    arcade/PeekingBlackjack-v0   arcade.envs.single.PeekingBlackjackEnv
    arcade/TicTacToe-v0          arcade.envs.versus.TicTacToeEnv (against a built-in opponent)
    arcade/DotsAndBoxes-v0       arcade.envs.versus.DotsAndBoxesEnv (against a built-in opponent)

2048 also has a native vector environment that steps thousands of boards at once
(arcade.envs.vector2048, `gymnasium.make_vec("arcade/2048-v0", num_envs=N,
vectorization_mode="vector_entry_point")`). The package also
offers PettingZoo AEC environments for the two-player games:
`arcade.envs.tictactoe_v0.env()` and `arcade.envs.dots_and_boxes_v0.env()`.
They use the same rules modules as the window and numpy only; pygame is
imported only by render(). A policy trained here becomes an arcade agent through
agents/tabular_q.py (agents/gym_blackjack_q.py does it). The arcade itself never imports this package.
"""
from __future__ import annotations

from gymnasium.envs.registration import register, registry

ENVIRONMENTS = {
    "arcade/2048-v0": "arcade.envs.single:Game2048Env",
    "arcade/Match3-v0": "arcade.envs.single:Match3Env",
    "arcade/PeekingBlackjack-v0": "arcade.envs.single:PeekingBlackjackEnv",
    "arcade/TicTacToe-v0": "arcade.envs.versus:TicTacToeEnv",
    "arcade/DotsAndBoxes-v0": "arcade.envs.versus:DotsAndBoxesEnv",
}

VECTOR_ENTRY_POINTS = {  # gymnasium.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point")
    "arcade/2048-v0": "arcade.envs.vector2048:Vector2048Env",
}

for _id, _entry in ENVIRONMENTS.items():
    if _id not in registry:
        register(id=_id, entry_point=_entry, vector_entry_point=VECTOR_ENTRY_POINTS.get(_id))
