"""The arcade's games as environments for reinforcement-learning libraries.

Importing this package registers the Gymnasium environments, each from the class that declares its id
(`env_id`; a vector environment names the one it steps many of, `scalar_env`):

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

from arcade.envs import single, vector2048, versus


def _declared(module, attribute: str) -> list[type]:
    """The classes `module` defines that declare `attribute` themselves."""
    return [c for c in vars(module).values()
            if isinstance(c, type) and c.__module__ == module.__name__ and attribute in vars(c)]


ENVIRONMENTS = {env.env_id: env for module in (single, versus) for env in _declared(module, "env_id")}
VECTOR_ENVIRONMENTS = {vector.scalar_env.env_id: vector for vector in _declared(vector2048, "scalar_env")}

for _id, _env in ENVIRONMENTS.items():
    if _id not in registry:
        register(id=_id, entry_point=_env, vector_entry_point=VECTOR_ENVIRONMENTS.get(_id))
