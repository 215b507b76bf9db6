#!/usr/bin/env python3
"""Cost model of the value-layers engine on a real table of subtract-a-square values.

Usage: scripts/value-layers-cost.py TABLE.npy   (e.g. from `nimsieve grundy squares -n 2^24 -f npy`)

Counts the (512-position block, value layer) pairs that still have a candidate (a position
whose value is at least the layer's), which is what the engine pays one window read per step
for, and estimates two refinements from the same table: skipping 64-position words without
candidates, and probing candidates one by one with early exit. Costs are in units of one
window read; WORD and PROBE are the assumed costs of an 8-byte read and of one bit probe.
"""
import sys

try:
    import numpy as np
except ImportError:
    sys.exit("value-layers-cost.py: error: NumPy is missing; install it (python3 -m pip install numpy, in a "
             "virtual environment if the system's Python refuses) and run it again")

WORD, PROBE = 0.25, 0.5

g = np.load(sys.argv[1]).astype(np.int64)
n = len(g) // 512 * 512
g = g[:n]
blocks = n // 512
layers = int(g.max()) + 1
steps = np.floor(np.sqrt(np.arange(blocks) * 512 + 511))
word_max = g.reshape(-1, 64).max(axis=1).reshape(blocks, 8)
block_max = word_max.max(axis=1)
per_block = np.stack([(g.reshape(blocks, 512) == v).sum(axis=1) for v in range(layers)], axis=1)
at_least = np.cumsum(per_block[:, ::-1], axis=1)[:, ::-1]
members = np.bincount(g, minlength=layers)

window = ((block_max + 1) * steps).sum()
word = 0.0
probe = 0.0
for v in range(layers):
    active = block_max >= v
    words = (word_max >= v).sum(axis=1)
    word += (np.minimum(1.0, words * WORD) * steps * active).sum()
    # A member reads every step; another candidate reads until it meets the layer.
    wait = np.minimum(steps, n / max(members[v], 1))
    cost = (per_block[:, v] * steps + (at_least[:, v] - per_block[:, v]) * wait) * PROBE
    probe += np.minimum(steps * active, cost).sum()

print(f"N = {n}, largest value {layers - 1}, mean value {g.mean():.1f}")
print(f"(block, layer) pairs with a candidate: {int((block_max + 1).sum())} of {blocks * layers}")
print(f"window reads: {window:.3e} (positions x layers they need: {(g + 1).sum() / 512:.3e} blocks)")
print(f"skipping empty words saves {100 * (1 - word / window):.2f} %")
print(f"probing candidates where cheaper saves {100 * (1 - probe / window):.2f} %")
