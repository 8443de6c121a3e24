"""The seats: who plays each seat and the one guard of every game screen (arcade.seats)."""
from types import SimpleNamespace

from arcade.seats import PERSON, Seats


def controller(name, enabled=False):
    return SimpleNamespace(name=name, enabled=enabled)


def test_one_player_game_refuses_only_when_over_or_handed_over():
    agent = controller("expectimax")
    seats = Seats(agent)
    assert seats.refusal(over=False) is None and seats.name(0) == PERSON
    assert seats.refusal(over=True) == "the game is over: r plays again"
    agent.enabled = True
    assert seats.refusal(over=False) == "the agent is playing your side: Enter takes control back"
    assert seats.name(0) == "expectimax" and seats.stand_in_plays(0)
    assert seats.mover_name(True) == "expectimax" and seats.mover_name(False) == PERSON


def test_opponent_controller_plays_the_other_seat_and_the_person_waits():
    agent, opponent = controller("alpha-beta"), controller("greedy", enabled=True)
    seats = Seats(agent, opponent, person=1)
    assert seats.refusal(over=False, mover=0) == "wait: it is greedy's turn"
    assert seats.refusal(over=False, mover=1) is None
    assert seats.name(0) == "greedy" and seats.name(1) == PERSON
    assert not seats.stand_in_plays(0) and not seats.stand_in_plays(1)  # the opponent's own controller moves
    agent.enabled = True
    assert seats.stand_in_plays(1) and seats.controller_of(1) is agent and seats.controller_of(0) is opponent


def test_the_selected_agent_as_opponent_plays_both_sides_once_handed_over():
    agent = controller("minimax")
    seats = Seats(agent, agent)
    assert seats.stand_in_plays(1) and not seats.stand_in_plays(0)
    agent.enabled = True
    assert seats.stand_in_plays(0)
    assert seats.refusal(over=False, mover=0) == "the agent plays both sides: Enter takes your side back"


def test_the_over_line_is_the_games_own():
    seats = Seats(controller("q-learning"), over_line="the round is over: space deals the next one")
    assert seats.refusal(over=True) == "the round is over: space deals the next one"
