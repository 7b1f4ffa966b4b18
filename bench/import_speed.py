"""How fast ``fuego import`` reads a map: a 60 x 60 square Dungeondraft-like export (issue 25:
under 2 s on these machines).

    python bench/import_speed.py [--repeats N] [--size SQUARES] [--json]

The map is made here (``tests/vttgen.py``'s pieces): a house of 4 x 4 rooms of 10 x 10
squares with a door in every partition and a window in every outer room's wall, a cave of
about 600 jittered points beside it, a round tower of 72 points, a table in every room; 60 x
60 squares is 30 x 30 fuego areas. Timed two ways, each a median over ``--repeats``:

- ``cli``: ``fuego import MAP --out FILE`` as a subprocess: its CPU time (user + system, the
  interpreter's start and imports included), what a GM waits for on an idle machine, and its
  wall clock beside it (on a machine shared with other work the wall clock counts that work
  too, as in ``bench/run.py``);
- ``convert``: :func:`fuego.scenario.vtt.convert` in this process, as CPU time (reading, rooms,
  the YAML and its check by the loader).

The target is on the ``cli`` CPU time. Exit status 1 when it is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

TARGET_SECONDS = 2.0


def make_map(size: int = 60) -> dict:
    import vttgen

    walls, portals, objects = [], [], []
    n = max(1, (size - 20) // 10)  # rooms a side, 10 squares each, from square 2
    hi = 2 + 10 * n
    walls.append(vttgen.box(2, 2, hi, hi))
    for i in range(1, n):
        x = 2 + 10 * i
        for j in range(n):
            y = 2 + 10 * j
            walls += [[(x, y), (x, y + 4)], [(x, y + 6), (x, y + 10)]]  # a door each room
            walls += [[(y, x), (y + 4, x)], [(y + 6, x), (y + 10, x)]]
            portals += [((x, y + 4), (x, y + 6), True), ((y + 4, x), (y + 6, x), True)]
    for j in range(n):  # a window in the north and west wall of each outer room
        y = 2 + 10 * j
        portals += [((y + 4, 2), (y + 6, 2), False), ((2, y + 4), (2, y + 6), False)]
        for i in range(n):
            objects.append(vttgen.box(2 + 10 * i + 3, y + 3, 2 + 10 * i + 5, y + 4))
    if hi + 4 < size:  # the cave and the tower beside the house
        cave = [(hi + 2, 2), (size - 2, 2), (size - 2, size // 2 - 2), (hi + 2, size // 2 - 2)]
        walls.append(vttgen.jagged(cave, 150 / max(1, 2 * (size - hi - 4 + size // 2 - 4)),
                                   0.3, seed=1))
        r = min((size - hi - 4) / 2, size / 4) - 1
        walls.append(vttgen.circle((hi + size) / 2, size * 3 / 4, r, 72))
    return vttgen.uvtt(size, size, walls, portals, objects=objects)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--size", type=int, default=60, help="squares a side (default 60)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from fuego.scenario.vtt import convert

    data = make_map(args.size)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "house.dd2vtt"
        path.write_text(json.dumps(data))
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        cmd = [sys.executable, "-c", "import sys; from fuego.cli import main; "
               "sys.argv[0] = 'fuego'; main()", "import", str(path), "--out",
               str(Path(d) / "house.yaml"), "--force"]
        cli, cli_cpu, cpu = [], [], []
        _, report = convert(path)  # warm the caches
        for _ in range(args.repeats):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            done = subprocess.run(cmd, capture_output=True, env=env)
            cli.append(time.perf_counter() - t)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cli_cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            if done.returncode != 0:
                raise SystemExit(done.stderr.decode()[-500:])
            t = time.process_time()
            convert(path)
            cpu.append(time.process_time() - t)
    result = {"squares": args.size, "areas": f"{report.cols} x {report.rows}",
              "rooms": report.rooms, "doors": report.doors, "windows": report.windows,
              "wall_points": sum(len(line) for line in data["line_of_sight"]),
              "cli_cpu_seconds": statistics.median(cli_cpu),
              "cli_wall_seconds": statistics.median(cli), "convert_cpu_seconds":
              statistics.median(cpu), "target_seconds": TARGET_SECONDS}
    result["ok"] = result["cli_cpu_seconds"] <= TARGET_SECONDS
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"fuego import of a {args.size} x {args.size} square map ({result['areas']} areas,"
              f" {report.rooms} rooms, {report.doors} doors, {report.windows} windows, "
              f"{result['wall_points']} wall points)")
        print(f"  fuego import (CPU, start included): {result['cli_cpu_seconds']:.2f} s  "
              f"(target <= {TARGET_SECONDS:g} s: {'ok' if result['ok'] else 'MISSED'}); "
              f"wall clock {result['cli_wall_seconds']:.2f} s")
        print(f"  convert (CPU, in process):          {result['convert_cpu_seconds']:.2f} s")
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
