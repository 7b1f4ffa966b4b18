"""What one barrier change costs the building's derived state, as the building grows.

    python bench/barrier_change.py [--changes N]

A field of ``cols x rows`` open areas with one door in its middle; the paths keep a fire's
reach (3 moves) and a smoke cover (6 areas) for every other area, as a big fire's round leaves
them; then the door is shut and opened ``N`` times, each change caught up with at once
(``Paths.open_lists``). CPU time per change, for a 1,000-area and a 10,000-area field: a change
looks only at what is kept near the door (a walk from its two sides), so the two should cost
about the same. docs/performance.md has a run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from fuego.world.building import Building  # noqa: E402
from fuego.world.places import Barrier, BarrierKind, Room  # noqa: E402


def door_field(cols: int, rows: int) -> tuple[Building, Barrier]:
    """The field (bench/scenes.py's) with a door between the middle area and its east one."""
    b = Building(title=f"field {cols}x{rows} with a door")
    b.add_level("ground", 0)
    b.add_room(Room("field", "Field", 0))
    for r in range(rows):
        for c in range(cols):
            b.add_area(c, r, 0, "field", fuel=5, fuel_name="brush")
    middle = (cols // 2, rows // 2)
    for r in range(rows):
        for c in range(cols):
            i = r * cols + c
            if c + 1 < cols:
                b.connect(i, i + 1, BarrierKind.DOOR if (c, r) == middle else BarrierKind.OPEN)
            if r + 1 < rows:
                b.connect(i, i + cols, BarrierKind.OPEN)
    door = b.between(middle[1] * cols + middle[0], middle[1] * cols + middle[0] + 1)
    assert door is not None
    return b, door


def per_change(cols: int, rows: int, changes: int) -> float:
    """CPU microseconds a change."""
    b, door = door_field(cols, rows)
    paths = b.paths
    for i in range(0, cols * rows, 2):
        paths.reach(i, 3)
        paths.nearest(i, 6)
    start = time.process_time()
    for k in range(changes):
        (b.open_barrier if k % 2 else b.close_barrier)(door)
        paths.open_lists()  # (catch up now, as the next ask would)
    return (time.process_time() - start) / changes * 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--changes", type=int, default=200)
    args = ap.parse_args(argv)
    costs = []
    for cols, r in ((40, 25), (100, 100)):
        costs.append(per_change(cols, r, args.changes))
        print(f"{cols * r:>6} areas: {costs[-1]:8.1f} us a barrier change")
    print(f"ratio, 10,000 areas to 1,000: {costs[1] / costs[0]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
