"""Fits a trained 2048 n-tuple network file into a size on disk by dropping its smallest weights.

    python tools/fit_network.py IN.npz OUT.npz [--max-mb 30]

A long training run visits more weights than a file shipped in assets/ may hold (32 MB). The weights
closest to 0 change the fewest values, so they go first: the smallest share of the learnt weights (in
steps of 2.5%) whose dropping makes the file fit. Prints what was dropped and the largest value change
it can make. The file keeps its record (rules, games, moves); OUT is written whole or not at all.
"""
from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.ntuple import FORMAT_VERSION, file_arrays, read  # noqa: E402
from agents.ntuple_net import NTupleNetwork  # noqa: E402
from arcade.foundation.storage import save_npz  # noqa: E402

STEP = 0.025


def compressed_size(arrays: dict[str, np.ndarray]) -> int:
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return len(buf.getvalue())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("source", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--max-mb", type=float, default=30.0, help="the largest file allowed, in MB (10**6 bytes)")
    ap.add_argument("--replace", action="store_true", help="replace `out` if it exists (the shipped network in "
                                                           "assets/ is replaced only so)")
    args = ap.parse_args()
    if args.out.exists() and not args.replace:
        print(f"{args.out} exists; give another file, or --replace to replace it", file=sys.stderr)
        return 2
    loaded = read(args.source, "nothing written")
    if loaded is None:
        print(f"{args.source}: not a network file this arcade can read; give a file `main.py train` wrote",
              file=sys.stderr)
        return 2
    weights = loaded.net.stored()  # as the file keeps them (a staged network's late tables as differences)
    learnt = np.flatnonzero(weights)
    order = learnt[np.argsort(np.abs(weights[learnt]), kind="stable")]  # smallest first
    limit = int(args.max_mb * 1e6)
    share = 0.0
    while share < 1.0:
        dropped = order[:int(share * order.size)]
        trimmed = weights.copy()
        trimmed[dropped] = 0.0
        net = NTupleNetwork.from_stored(loaded.net.tuple_set, trimmed)
        arrays = file_arrays(net, loaded.meta, loaded.meta["p_four"])
        size = compressed_size(arrays)
        print(f"  dropping {share:.1%} of {order.size:,} learnt weights: {size / 1e6:.1f} MB", flush=True)
        if size <= limit:
            largest = float(np.abs(weights[dropped]).max()) if dropped.size else 0.0
            if not save_npz(args.out, FORMAT_VERSION, **arrays):
                return 1
            print(f"{args.out}: {size / 1e6:.1f} MB; {dropped.size:,} weights dropped, each under "
                  f"{largest:.1f} in size (a value reads {net.n_features} weights), {order.size - dropped.size:,} kept")
            return 0
        share += STEP
    print(f"no share of the weights fits {args.max_mb} MB", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
