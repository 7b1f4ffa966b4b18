"""Does a bigger building alone make the same work slower? (issue 30's per-fire targets)

    python bench/locality.py [--repeats N]

The same walks over a small and a big field, operation for operation (``Paths.near``: the
breadth-first walk reach, leaps and smoke use; each area reached read as a fire's choice reads
it), CPU time, interleaved, medians:

1. **spread**: from the same 60 interior areas spread evenly over each field (as the sparse
   bench's fires are): 1,000 areas against 100,000;
2. **one area**: from one interior area 60 times over (its data stays in the CPU's caches);
3. **sweep**: from every area of a field, in area order (as a round deals the fires their
   dice): 1,000 areas against 10,000;
4. **phase order**: the same, in a shuffled order (as a round's phases visit the fires of a
   field ablaze: by their dice, ties shuffled).

Where (1) and (4) grow with the building while (2) and (3) do not, the difference is the memory the
building spreads its areas over (the CPU's caches), not work that grows with the areas: no
count of operations differs. docs/performance.md has a run.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.scenes import field  # noqa: E402
from fuego.world.building import Building  # noqa: E402

CLOCK = time.process_time
STEPS = 3  # a leap's reach (settings.max_leap_areas)


def _interior(b: Building, cols: int, how_many: int) -> list[int]:
    """``how_many`` areas spread evenly over a ``cols``-wide field, each at least ``STEPS``
    areas from its edges (so every walk from them reaches the same shape)."""
    n = len(b.areas)
    rows = n // cols
    ok = [i for i in range(n) if STEPS <= i % cols < cols - STEPS
          and STEPS <= i // cols < rows - STEPS]
    return [ok[k * len(ok) // how_many] for k in range(how_many)]


def _walks(b: Building, starts: list[int], steps: int = STEPS) -> float:
    """CPU microseconds per walk: ``steps`` moves from each start, every area reached read."""
    paths, areas = b.paths, b.areas
    t = CLOCK()
    for i in starts:
        for j in paths.near((i,), steps):
            a = areas[j]
            a.burnable, a.room, a.col, a.row  # noqa: B018 (read as the fire's choice reads them)
    return (CLOCK() - t) / len(starts) * 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15)
    args = ap.parse_args(argv)
    small, big, mid = field(40, 25), field(316, 317), field(100, 100)
    for b in (small, big, mid):
        b.paths.open_lists()  # (their derived state made now, as with a scene's building)
    s_spots, b_spots = _interior(small, 40, 60), _interior(big, 316, 60)
    one_s, one_b = [s_spots[30]] * 60, [b_spots[30]] * 60
    every_s, every_m = list(range(len(small.areas))), list(range(len(mid.areas)))
    mixed_s, mixed_m = every_s[:], every_m[:]
    random.Random(1).shuffle(mixed_s)
    random.Random(1).shuffle(mixed_m)
    got: dict[str, list[float]] = {}
    gc.collect()
    gc.disable()
    try:
        for _ in range(args.repeats):
            for name, b, starts, steps in (
                    ("spread, 1,000 areas", small, s_spots, STEPS),
                    ("spread, 100,172 areas", big, b_spots, STEPS),
                    ("one area, 1,000 areas", small, one_s, STEPS),
                    ("one area, 100,172 areas", big, one_b, STEPS),
                    ("sweep, 1,000 areas", small, every_s, 1),
                    ("sweep, 10,000 areas", mid, every_m, 1),
                    ("phase order, 1,000 areas", small, mixed_s, 1),
                    ("phase order, 10,000", mid, mixed_m, 1)):
                got.setdefault(name, []).append(_walks(b, starts, steps))
    finally:
        gc.enable()
    med = {name: statistics.median(xs) for name, xs in got.items()}
    names = list(med)
    for k in range(0, len(names), 2):
        one, other = names[k], names[k + 1]
        print(f"{one:24s} {med[one]:7.2f} us   {other:24s} {med[other]:7.2f} us   "
              f"{med[other] / med[one]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
