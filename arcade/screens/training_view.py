"""The training panel every game screen shares: `t` starts or stops a training of the game's trainer in the
background (arcade.training), and the panel draws its progress bar and its learning curve. The screen
says where (arcade.screens.training_keys: its place) and whether the curve stays after the training ends."""
from __future__ import annotations

import time

import pygame

from agents import Trains
from arcade.training import TrainingJob
from arcade.screens import paint_state
from arcade.ui import palette, panels, text

WATCH_MIN_W = 380  # px a training panel needs to show a training game beside its chart


class TrainingView:
    """The training in progress (job), and the last learning curve (curve points, kept after it ends)."""

    def __init__(self):
        self.job: TrainingJob | None = None
        self.curve: list = []
        self.rules = None  # the rules of the game in training (to draw a training game the trainer shows)
        self.trained: tuple[str, object] | None = None  # (agent, its parameters) of the training in progress
        self.continues = 0  # the games of the stopped run the last training resumed (0: a run of its own)

    @property
    def running(self) -> bool:
        return self.job is not None

    @staticmethod
    def trainee(selected, specs):
        """The agent `t` trains: the selected one if it trains, else the first of the game's that does."""
        if selected.can(Trains):
            return selected
        return next((s for s in specs if s.can(Trains)), None)

    def toggle(self, selected, specs, rules, settings, seed: int, from_scratch: bool, key: str) -> str:
        """Start a training (or ask the running one to stop); the line to show."""
        if self.job is not None:
            self.job.stop()
            return "stopping the training (what it learnt so far is saved)..."
        spec = self.trainee(selected, specs)
        if spec is None:
            return "no agent of this game learns from training"
        episodes = spec.factory.default_episodes(settings, rules.game_id)  # it trains in a process of its own
        self.job = TrainingJob(spec, rules, settings, episodes, seed, from_scratch)
        self.rules = rules
        self.trained = (spec.name, settings.agent_params(rules.game_id, spec.name))
        self.curve, self.continues = [], 0
        start = "from scratch" if from_scratch else "from what it knows"
        return f"training {spec.name} {start}: {episodes:,} games ({key} stops)"

    def poll(self) -> tuple[bool, str] | None:
        """Take in what the training reported; once it has ended, (saved, the line to show), else None."""
        if self.job is None:
            return None
        done = self.job.poll()
        self.curve, self.continues = self.job.curve, self.job.resumed_at
        if not done:
            return None
        job, self.job = self.job, None
        saved, message = job.result
        if saved is None:  # (stopped before it learnt anything: said as it is, no count of games)
            return True, f"{job.name}: {message}"
        if not saved:
            return False, f"training failed: {message}"
        if job.resumed_at:  # (its curve continues the stopped run's: the count says what this one added)
            return True, (f"{job.name} trained {job.done - job.resumed_at:,} more games ({job.done:,} of the "
                          f"resumed run of {job.total:,}); {message}")
        return True, f"{job.name} trained {job.done:,} games; {message}"

    def draw(self, surface, rect: pygame.Rect, keep_curve: bool, key: str, room: pygame.Rect | None = None,
             beside: list[tuple[str, list]] = ()) -> None:
        """The bar and the curve in `rect` while it trains (the curve after too, where keep_curve). A training
        game the trainer shows goes left of the curve, the card growing to the left into `room` for it.
        beside: earlier trainings' (label, curve), drawn with this one's (the last of them labels this one)."""
        if self.job is None and not (self.curve and keep_curve):
            return
        # a training game the trainer shows, where there is room for it beside a readable chart
        watched = self.job is not None and self.job.watched is not None and self.rules is not None and (
            room is not None or rect.w >= WATCH_MIN_W)
        if watched and room is not None:  # taller (up to 3/5 of the room) and wider, so the game reads
            taller = max(rect.h, min(room.h * 3 // 5, rect.bottom - room.y - 8))
            grow = min(taller - 48 - 20, max(0, rect.x - room.x - 16))
            rect = pygame.Rect(rect.x - grow, rect.bottom - taller, rect.w + grow, taller)
        bar_h = 48 if self.job else 0
        if self.job is not None and not keep_curve:
            pygame.draw.rect(surface, palette.PANEL, rect.inflate(12, 12), border_radius=10)
            pygame.draw.rect(surface, palette.BORDER, rect.inflate(12, 12), 1, border_radius=10)
        chart = pygame.Rect(rect.x, rect.y, rect.w, rect.h - bar_h)
        if watched:
            side = min(chart.h - 20, chart.w // 2)
            game = pygame.Rect(chart.x, chart.y + 18, side, side)
            text.draw(surface, "a training game", (game.x, chart.y), 15, palette.MUTED, max_width=side, min_size=12)
            paint_state(surface, game, self.rules.game_id, self.rules, self.job.watched)
            chart = pygame.Rect(game.right + 10, chart.y, chart.right - game.right - 10, chart.h)
        if self.curve and len(beside) > 1:
            panels.draw_runs(surface, chart, beside)
        elif self.curve:
            panels.draw_curve(surface, chart, self.curve)
        elif self.job is not None:
            panels.draw_waiting(surface, chart, "the learning curve appears at the first checkpoint")
        if self.job is not None:
            done, total = self.job.done, self.job.total
            panels.draw_bar(surface, pygame.Rect(rect.x, rect.bottom - 22, rect.w, 22), done / max(1, total),
                            self.caption(key))

    def caption(self, key: str) -> str:
        """The bar's line: the games done, or once stop was asked that it is stopping and for how long."""
        job = self.job
        if job.stopping_since is not None:
            waited = time.monotonic() - job.stopping_since
            return f"stopping {job.name} after {job.done:,} games: saving what it learnt... {waited:.0f} s"
        return f"training {job.name}: {job.done:,} of {job.total:,} ({key} stops)"

    def kill(self) -> None:
        """End a training now, saving nothing (the screen closes)."""
        if self.job is not None:
            self.job.kill()
