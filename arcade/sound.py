"""Short sound effects, made with numpy when the arcade starts (no sound files), and the mute switch.

Effects: "merge" and "best" (2048), "clear" and "cascade" (match-3), "box" (dots),
"card" (blackjack), "win", "lose", "draw" (any game that has them). `m` mutes them
on every screen; [audio] volume in settings.toml sets their loudness (0 silences).
Without an audio device the arcade is silent and says so once; it never fails.
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager

import numpy as np
import pygame

RATE = 22050


def _tone(freqs, ms: float, shape: str = "sine", sweep_to: float | None = None) -> np.ndarray:
    """A mono float signal: the frequencies one after another, each `ms` long, with a soft attack and decay."""
    parts = []
    for f in freqs:
        n = int(RATE * ms / 1000)
        t = np.arange(n) / RATE
        freq = np.linspace(f, sweep_to, n) if sweep_to else np.full(n, float(f))
        phase = 2 * np.pi * np.cumsum(freq) / RATE
        wave = np.sin(phase) if shape == "sine" else np.sign(np.sin(phase)) * 0.5
        envelope = np.minimum(1.0, t / 0.005) * np.exp(-t * 6000 / max(ms, 1) / 1000 * 4)
        parts.append(wave * envelope)
    return np.concatenate(parts)


def _noise(ms: float, rng: np.random.Generator) -> np.ndarray:
    n = int(RATE * ms / 1000)
    return rng.uniform(-1, 1, n) * np.exp(-np.arange(n) / n * 5)


def effects() -> dict[str, np.ndarray]:
    """Every effect as a mono float signal in [-1, 1] at RATE (a fixed seed: the same sounds every run)."""
    rng = np.random.default_rng(7)
    return {
        "merge": _tone([660], 70), "best": _tone([523, 659, 784, 1047], 90),
        "clear": _tone([880], 60), "cascade": _tone([660], 160, sweep_to=1320),
        "box": _tone([520, 780], 70), "card": 0.6 * _noise(45, rng),
        "win": _tone([523, 659, 784], 120), "lose": _tone([392, 330, 262], 140), "draw": _tone([440, 440], 110),
    }


@contextmanager
def _library_lines_hidden():
    """While the mixer opens, the C libraries' own lines on stderr (ALSA prints 8 about a missing sound card)
    go nowhere: the arcade says what matters in one line of its own."""
    try:
        saved = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:  # no stderr to hide: nothing to do
        yield
        return
    sys.stderr.flush()
    os.dup2(null, 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


class Sounds:
    """The effects, ready to play; silent (and said once) where no audio device can be opened."""

    def __init__(self, volume: float):
        self.volume, self.muted, self._sounds = volume, False, {}
        if volume <= 0:
            return
        try:
            if not pygame.mixer.get_init():
                with _library_lines_hidden():
                    pygame.mixer.init(frequency=RATE, size=-16, channels=1)
            freq, _, channels = pygame.mixer.get_init()
        except pygame.error as exc:  # one line on stderr; on screen, `m` says so (no red notice for silence)
            print(f"arcade: no sound: the audio device cannot be opened ({exc}); the arcade plays on silently",
                  file=sys.stderr)
            return
        for name, signal in effects().items():
            if freq != RATE:  # resample to the device's rate
                signal = np.interp(np.arange(int(len(signal) * freq / RATE)) * RATE / freq, np.arange(len(signal)), signal)
            pcm = (np.clip(signal * volume, -1, 1) * 32767).astype(np.int16)
            if channels > 1:
                pcm = np.repeat(pcm[:, None], channels, axis=1)
            self._sounds[name] = pygame.sndarray.make_sound(np.ascontiguousarray(pcm))

    @property
    def available(self) -> bool:
        return bool(self._sounds)

    def play(self, name: str) -> None:
        if not self.muted and name in self._sounds:
            self._sounds[name].play()

    def toggle_mute(self) -> bool:
        self.muted = not self.muted
        return self.muted
