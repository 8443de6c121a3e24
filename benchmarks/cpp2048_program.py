"""The C++ reference 2048 program (nneonneo/2048-ai) as the benchmarks use it: a search kept running behind a
line protocol (benchmarks/cpp2048/driver.cpp, built by benchmarks/cpp2048/build.sh in a scratch folder), and a
player of whole games on the arcade's rules (the same seeds and spawns as every other agent of a strength run).

Neither the program nor its binary is part of this repository; benchmark scripts take its path with --cpp.
"""
from __future__ import annotations

import subprocess

import numpy as np

from agents.engines.twenty48 import board64

OWN_RULE = 0  # the depth the driver is asked for to use the program's own rule, max(3, distinct tiles - 2)


class Cpp:
    """The C++ program, started on first use: search(board, depth) -> (positions, CPU seconds, move, depth).

    Positions are its moves_evaled (every move tried at a player node); CPU seconds are the program's own
    process CPU time for the four top-level searches."""

    def __init__(self, program: str):
        self.program = program
        self.proc = None

    def search(self, board: int, depth: int = OWN_RULE) -> tuple[int, float, int, int]:
        if self.proc is None:
            self.proc = subprocess.Popen([self.program], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.proc.stdin.write(f"{board:x} {depth}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline().split()
        if len(line) != 4:
            raise RuntimeError(f"{self.program} did not answer the board {board:x}: is it the driver of "
                               "benchmarks/cpp2048/build.sh?")
        evaled, seconds, move, used = line
        return int(evaled), float(seconds), int(move), int(used)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
            self.proc = None


class CppPlayer:
    """An agent (act / figures) that plays 2048 by the C++ program at its own pace (its depth rule, no clock).

    Copies start their own program (the runner copies an agent for every game). Its figures of a decision:
    positions, depth, and `program_cpu_s`, the program's CPU time (the worker's own process time leaves it
    out)."""

    name = "c++ 2048-ai"

    def __init__(self, program: str):
        self.program = program
        self._cpp = Cpp(program)
        self._last = {}

    def __deepcopy__(self, memo):
        return CppPlayer(self.program)

    def __getstate__(self):
        return {"program": self.program}

    def __setstate__(self, state):
        self.__init__(state["program"])

    def act(self, state, rng):
        board = np.asarray(state.board)
        if board.shape != (4, 4) or board.max() > 15:
            raise ValueError("the C++ program plays 4x4 boards with tiles up to 32768 only")
        evaled, seconds, move, depth = self._cpp.search(int(board64.pack(board)))
        if move < 0:
            raise RuntimeError("the C++ program found no legal move on a board the rules say has one")
        self._last = {"positions": evaled, "depth": depth, "program_cpu_s": seconds}
        return move

    def figures(self) -> dict:
        return dict(self._last)

    def __del__(self):
        try:
            self._cpp.close()
        except Exception:
            pass
