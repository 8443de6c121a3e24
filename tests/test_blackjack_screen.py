"""The blackjack table headless: keys and buttons take, peek, quit and deal; presets; the agent plays rounds."""
import pygame

from arcade.screens import open_game
from tests.helpers import click, key, ticks, wait_for


def open_table(app):
    screen = open_game(app, "blackjack", seed=2)
    app.push(screen)
    ticks(app)
    return screen


def test_keys_take_peek_quit_and_deal(app):
    screen = open_table(app)
    key(app, pygame.K_p)
    assert screen.round.mdp_state[1] is not None and screen.round.reward == -1
    key(app, pygame.K_p)  # a second peek is refused
    assert screen.round.reward == -1 and screen.toast
    key(app, pygame.K_t)
    assert len(screen.hand) == 1
    if not screen.round.over:
        key(app, pygame.K_q)
    assert screen.round.over and screen.rounds == 1
    key(app, pygame.K_SPACE)
    assert not screen.round.over and screen.hand == [] and screen.round.mdp_state[0] == 0


def test_buttons_do_the_same(app):
    screen = open_table(app)
    buttons = screen._buttons()
    click(app, buttons["Take"].center)
    assert len(screen.hand) == 1
    if not screen.round.over:
        click(app, buttons["Quit"].center)
    assert screen.round.over
    click(app, buttons["next"].center)
    assert not screen.round.over


def test_presets_change_the_deck(app):
    screen = open_table(app)
    for k, threshold in ((pygame.K_2, 40), (pygame.K_3, 21), (pygame.K_4, 20), (pygame.K_1, 10)):
        key(app, k)
        assert screen.rules.mdp.threshold == threshold and screen.rounds == 0


def test_the_agent_plays_rounds_by_itself(app):
    screen = open_table(app)
    key(app, pygame.K_RETURN)
    assert wait_for(app, lambda: screen.rounds >= 3)
    assert screen.total_reward > 0


def test_q_learning_learns_while_it_plays_and_l_toggles(app):
    screen = open_table(app)
    screen.controller.select("q-learning")
    key(app, pygame.K_RETURN)
    wait_for(app, lambda: screen.controller.cached_agent() is not None
             and screen.controller.cached_agent().ql.updates >= 5)
    agent = screen.controller.cached_agent()
    assert agent.ql.updates >= 5 and agent.learning
    key(app, pygame.K_l)
    assert not agent.learning and agent.ql.epsilon == 0


def test_the_policy_strip_shows_while_the_agent_plays(app):
    """Issue 25 #5: each new round moved the controller on and dropped the strip's answer as stale, so it
    never appeared while an agent played; the strip is about the deck, and now it shows."""
    from tests.helpers import wait_for

    screen = open_table(app)
    screen.controller.delay_ms = 0
    key(app, pygame.K_RETURN)
    assert wait_for(app, lambda: screen.rounds >= 6)
    assert wait_for(app, lambda: screen.strip_shown() is not None and screen.rounds >= 8)
    deck, agent, values = screen.strip_shown()
    assert agent == screen.controller.name and len(values) == screen.rules.mdp.threshold + 1
    ticks(app, 2)  # and it draws


def test_an_agent_playing_in_the_agent_process_is_not_called_not_built(app):
    """mcts decides in the agent process: while it played, the side panel said "mcts: not built yet (Enter
    starts it)"."""
    screen = open_table(app)
    screen.controller.select("mcts")
    assert screen.controller.spec.process and screen.controller.cached_agent() is None
    lines = screen._agent_lines(None)
    assert not any("not built" in line for line in lines) and "agent process" in " ".join(lines)
    screen.controller.select("q-learning")  # a thread agent not built yet: still told how to start it
    assert screen._agent_lines(None) == ["q-learning: not built yet (Enter starts it)"]


def test_a_learners_policy_strip_follows_what_it_learns_round_by_round(app):
    """q-learning's strip read "T 0" in every cell all game: it was asked once per deck, before any learning.
    Now it is asked again after each round the learner plays, and shows what it has learnt since."""
    screen = open_table(app)
    screen.controller.select("q-learning")
    screen.controller.delay_ms = 0
    key(app, pygame.K_RETURN)
    assert wait_for(app, lambda: screen.rounds >= 2 and screen.strip_shown() is not None)
    first = screen.strip_shown()[2]
    assert wait_for(app, lambda: screen.rounds >= 12 and screen.strip_shown() is not None
                    and screen.strip_shown()[2] != first)
    values = [v for cell in screen.strip_shown()[2] if cell is not None for v in cell.values.values()]
    assert any(v != 0 for v in values)


def test_the_strip_at_your_hand_is_the_agents_own_decision_there(app):
    """Issue 73 item 5: the strip said "Take, value 34.93" at 35 while the agent quit at 35 (it read the round's
    starting deck). Each cell is now a decision on the deck as it is, your hand's cell the round's own state:
    while the agent plays, the cell of its hand is the move it plays."""
    screen = open_table(app)
    screen.set_preset("large")
    screen.controller.select("value-iteration")
    if not screen.values.on:
        key(app, pygame.K_v)
    screen.controller.delay_ms = 3000  # (its decision is known a while before it is played)
    key(app, pygame.K_RETURN)
    checked = 0
    for _ in range(6):
        assert wait_for(app, lambda: screen.controller.decision_for(screen.round) is not None or screen.round.over)
        decided = screen.controller.decision_for(screen.round)
        if decided is None:
            screen.new_round()
            continue
        ticks(app, 2)
        shown = screen.strip_shown()
        cell = shown[2][screen.round.mdp_state.total]
        assert cell is not None and cell.action == decided.value.action
        checked += 1
        before = screen.round
        screen.controller.delay_ms = 0
        assert wait_for(app, lambda before=before: screen.round is not before)
        screen.controller.delay_ms = 3000
    assert checked >= 3


def test_tab_skips_an_agent_whose_table_is_for_another_deck(app):
    """gym-q's table is for the small deck: on the large deck Tab used to select it and show a red
    "ValueError: its table was trained on another deck"; now it is skipped, and a deck change moves off it."""
    screen = open_table(app)
    screen.controller.select("gym-q")
    said = []
    screen.say = lambda message, ms=0: said.append(message)
    key(app, pygame.K_2)  # the large deck
    assert screen.rules.preset == "large" and screen.controller.name != "gym-q"
    assert any("gym-q: its tables were trained on other decks" in s for s in said)
    seen = set()
    for _ in range(len(screen.controller.specs) + 1):
        key(app, pygame.K_TAB)
        seen.add(screen.controller.name)
    assert "gym-q" not in seen and len(seen) >= 3


def test_the_agents_first_move_does_not_wait_behind_the_policy_strip(settings):
    """Issue 41: with the large deck mcts's strip (54 hand totals, a search each) was one task in the agent
    process, and the first move queued behind it for 17-21 s. The strip now asks one total at a time, yours
    first, none while a move is being worked out: the move waits for one search at most (its budget is 1 s),
    and the strip fills in as the answers come."""
    from arcade.app import App

    app = App(settings.with_agent("mcts", game="blackjack", simulations=250), size=(1024, 720))  # (a quicker
    # search, the same queueing: the strip's searches and the move's share one agent process)
    try:
        _first_move_beside_the_strip(app)
    finally:
        app.close()


def _first_move_beside_the_strip(app):
    import time

    screen = open_table(app)
    screen.set_preset("large")
    screen.controller.select("mcts")
    if not screen.values.on:
        key(app, pygame.K_v)

    def known():
        strip = screen.strip
        return set() if strip is None or isinstance(strip[2], str) else {t for t, v in enumerate(strip[2]) if v}

    assert wait_for(app, lambda: len(known()) >= 2, 120)
    assert known() <= {0, 1, 2, 3}  # yours first (0 at the start), then its neighbours
    start = time.perf_counter()
    key(app, pygame.K_RETURN)
    assert wait_for(app, lambda: screen.session.history or screen.round.over, 120)
    took = time.perf_counter() - start
    assert took < 5, took  # (the whole strip first: 54 searches, 7 s and more)
    assert wait_for(app, lambda: len(known()) >= 6, 120)  # and the strip goes on filling


def test_a_taken_card_flies_from_the_pile_and_turns_face_up(app):
    """Take: the card travels from the draw pile to its place in the hand over DEAL_MS, face down for the
    first half and face up after; then it is simply in the hand."""
    from arcade.screens.blackjack import painter
    from arcade.screens.blackjack.screen import DEAL_MS
    from arcade.ui import hud

    screen = open_table(app)
    key(app, pygame.K_t)
    assert screen.card_move is not None and screen.card_move[0] == "Take" and screen.busy()
    table = screen._table()
    pile, goal = painter.pile_rect(table), painter.hand_slots(table, screen.rules, len(screen.hand))[-1]
    screen.card_move = ("Take", DEAL_MS / 2)  # half way in time: 3/4 of the way (eased), turning face up
    surface = pygame.Surface(app.surface.get_size())
    screen.draw_game(surface, hud.board_rect(surface))
    x = round(pile.x + (goal.x - pile.x) * 0.75) + pile.w // 2  # the moving card's middle column
    y = round(pile.y + (goal.y - pile.y) * 0.75) + pile.h - 6
    assert tuple(surface.get_at((x, y)))[:3] == painter.CARD  # a card's face, in the open felt
    assert tuple(surface.get_at((goal.centerx, goal.bottom - 6)))[:3] != painter.CARD  # its place still empty
    screen.update(DEAL_MS)
    assert screen.card_move is None
    screen.draw_game(surface, hud.board_rect(surface))
    assert tuple(surface.get_at((goal.centerx, goal.bottom - 6)))[:3] == painter.CARD  # now in the hand


def test_cards_grow_on_a_wide_table():
    """At 1600x900 the 118 px cards left the felt empty: a wide table's cards are larger (and the deck under them); 1024x720's stay."""
    from arcade.screens.blackjack import painter

    assert painter.card_size(pygame.Rect(0, 0, 742, 590)) == (83, 118)
    assert painter.card_size(pygame.Rect(0, 0, 1318, 780)) == (132, 187)


def test_a_nine_card_hand_at_640x480_shows_every_value(app, monkeypatch):
    """At 640x480 nine overlapping cards hid a 10's second digit under the next card: the cards get narrower
    instead, none covers another, and each shows its whole value."""
    from arcade.games import make_rules
    from arcade.screens.blackjack import painter
    from arcade.settings import Settings
    from arcade.ui import text

    rules = make_rules("blackjack", Settings(), preset="large")
    table = pygame.Rect(16, 80, 358, 340)  # 640x480's table
    slots = painter.hand_slots(table, rules, 9)
    assert all(not a.colliderect(b) for i, a in enumerate(slots) for b in slots[i + 1:])
    assert slots[-1].right < painter.pile_rect(table).x
    widths = []
    monkeypatch.setattr(text, "draw", lambda surface, line, pos, size, *a, **k: widths.append(
        (line, text.font(size, True).size(line)[0])) or pygame.Rect(0, 0, 1, 1))
    painter.draw_card(pygame.Surface((640, 480)), slots[0], 10)
    assert widths and all(w <= slots[0].w for _, w in widths)


def test_the_statistics_count_rounds_as_the_table_does(app, monkeypatch):
    """The table says "rounds"; its statistics said "games"."""
    from arcade.ui import text

    drawn = []
    plain = text.draw
    monkeypatch.setattr(text, "draw", lambda surface, line, *a, **k: drawn.append(line) or plain(surface, line, *a, **k))
    open_table(app)
    key(app, pygame.K_k)
    ticks(app, 2)
    assert any("no round finished yet" in line and "rounds end" in line for line in drawn), drawn[-20:]
    assert not any("game finished" in line for line in drawn)


def test_the_total_changes_when_the_taken_card_lands_not_when_it_leaves_the_pile(app, monkeypatch):
    """Issue 61 #12: the total (and a bust) showed the new card's value as the card started flying."""
    from arcade.screens.blackjack.screen import DEAL_MS
    from arcade.ui import hud, text

    screen = open_table(app)
    before = screen.round.mdp_state.total
    key(app, pygame.K_t)
    after = screen.round.mdp_state.total
    assert after > before and screen.card_move is not None
    lines = []
    real = text.draw
    monkeypatch.setattr(text, "draw", lambda surface, line, *a, **k: lines.append(line) or real(surface, line, *a, **k))
    surface = pygame.Surface(app.surface.get_size())
    screen.card_move = ("Take", DEAL_MS / 2)
    screen.draw_game(surface, hud.board_rect(surface))
    totals = [t for t in lines if t.startswith("total ")]
    assert totals and totals[0].startswith(f"total {before} /") and "BUST" not in totals[0]
    lines.clear()
    screen.update(DEAL_MS)
    screen.draw_game(surface, hud.board_rect(surface))
    assert [t for t in lines if t.startswith("total ")][0].startswith(f"total {after} /")


def test_a_learnt_q_of_quitting_off_its_exact_payoff_shows_the_payoff_beside_it(app, monkeypatch):
    """Issue 61 #11: Q(quit) at total 0 read -45.07 (the course's features share weights across totals),
    though quitting there pays exactly 0: the button says what quitting pays where the learnt Q differs."""
    from arcade.ui import hud, text

    screen = open_table(app)
    lines = []
    real = text.draw
    monkeypatch.setattr(text, "draw", lambda surface, line, *a, **k: lines.append(line) or real(surface, line, *a, **k))
    total = screen.round.mdp_state.total
    monkeypatch.setattr(screen.values, "shown", lambda state: {"Take": 10.0, "Peek": 9.0, "Quit": total - 45.07})
    surface = pygame.Surface(app.surface.get_size())
    screen.draw_game(surface, hud.board_rect(surface))
    assert f"quitting pays {total}" in lines
    lines.clear()
    monkeypatch.setattr(screen.values, "shown", lambda state: {"Take": 10.0, "Peek": 9.0, "Quit": float(total)})
    screen.draw_game(surface, hud.board_rect(surface))
    assert not any(line.startswith("quitting pays") for line in lines)
