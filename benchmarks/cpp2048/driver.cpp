// A line protocol around the C++ reference program (nneonneo/2048-ai), for benchmarks/ only.
//
// Built beside that program's 2048.cpp in a scratch folder (benchmarks/cpp2048/build.sh); neither the program
// nor the binary is part of this repository. Reads "BOARD DEPTH" lines on stdin (BOARD: 16 hex nibbles, cell i
// in nibble i, as agents/engines/twenty48/board64.py packs it; DEPTH 0: the program's own depth rule,
// max(3, distinct tiles - 2)) and answers each with "moves_evaled cpu_seconds best_move depth", the four
// top-level moves searched as its find_best_move does (best_move -1: no legal move).
#include <cstdio>
#include <ctime>
#define main cpp2048_program_main
#include "2048.cpp"
#undef main

static double cpu_now() {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main() {
    init_tables();
    unsigned long long board;
    int depth;
    while (scanf("%llx %d", &board, &depth) == 2) {
        int used = depth > 0 ? depth : std::max(3, count_distinct_tiles(board) - 2);
        unsigned long evaled = 0;
        float best = 0;
        int best_move = -1;
        double t0 = cpu_now();
        for (int move = 0; move < 4; move++) {
            eval_state state;
            state.depth_limit = used;
            float res = _score_toplevel_move(state, board, move);
            evaled += state.moves_evaled;
            if (res > best) {
                best = res;
                best_move = move;
            }
        }
        printf("%lu %.6f %d %d\n", evaled, cpu_now() - t0, best_move, used);
        fflush(stdout);
    }
    return 0;
}
