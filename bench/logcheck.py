"""Same seed, same log: digests of the event logs of a set of seeded scenes.

An optimisation must leave every event log byte-identical. ``bench/logs.json`` holds the
digests of the current log format (docs/events.md, "Format versions"); check against it, or
save your own before a change and check after::

    python bench/logcheck.py --check                 # against bench/logs.json
    python bench/logcheck.py --save /tmp/fuego-logs.json
    ... change the engine ...
    python bench/logcheck.py --check /tmp/fuego-logs.json

A change that moves the draws on purpose bumps the log format and saves a new baseline
(``--save`` alone writes bench/logs.json).

The scenes cover the round's paths: the benchmark's field and manor (partly and wholly
ablaze), heroes fleeing, the three temperaments, Villain fires (guttering), flashover by dice,
smoke off and suffocation; and the shipped campaigns (tavern, ship) with their scripts, and
the forecasts of every shipped campaign.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scenes import ablaze, field, kindled, manor  # noqa: E402
from fuego.engine import loop  # noqa: E402
from fuego.engine.controllers import AutoController  # noqa: E402
from fuego.engine.events import LOG_FORMAT  # noqa: E402

if TYPE_CHECKING:
    from fuego.engine.scene import Scene

#: the digests of log format LOG_FORMAT
BASELINE = ROOT / "bench" / "logs.json"


def cases():
    """name -> a function making a fresh scene, and the rounds to play."""
    out: dict[str, tuple[Callable[..., Scene], int]] = {}
    for seed in (1, 2, 3):
        for temperament in ("hungry", "patient", "wild"):
            out[f"manor-{temperament}-{seed}"] = (
                lambda s=seed, t=temperament: kindled(manor(), [130, 200, 450, 871], fd=3,
                                                      seed=s, heroes=4, temperament=t), 40)
        out[f"manor-villain-dice-{seed}"] = (
            lambda s=seed: kindled(manor(), [130, 700], fd=4, seed=s, heroes=3,
                                   fire_kind="villain", flashover="dice"), 40)
        out[f"manor-nosmoke-{seed}"] = (
            lambda s=seed: kindled(manor(), [450], fd=5, seed=s, heroes=2, smoke=False), 30)
        out[f"field-kindled-{seed}"] = (
            lambda s=seed: kindled(field(30, 30), [0, 465, 899], fd=2, seed=s, heroes=2), 40)
    out["manor-ablaze"] = (lambda: ablaze(manor(), fd=3, seed=4), 6)
    for name in ("tavern", "ship"):  # the shipped campaigns, where the loader has landed
        path = ROOT / "campaigns" / f"{name}.yaml"
        try:
            from fuego.scenario.model import load
        except ImportError:
            break
        if path.exists():
            scenario = load(str(path))
            for seed in range(1, 9):
                out[f"{name}-{seed}"] = (lambda sc=scenario, s=seed: sc.build(s), 30)
    out["field-ablaze"] = (lambda: ablaze(field(40, 25), fd=3, seed=5), 8)
    out["field-ablaze-wild"] = (lambda: ablaze(field(20, 20), fd=6, seed=6, temperament="wild"), 8)
    return out


def digests(only: str | None = None) -> dict[str, str]:
    result = {}
    for name, (make, rounds) in cases().items():
        if only and only not in name:
            continue
        scene = make()
        loop.run(scene, AutoController(), rounds=rounds)
        h = hashlib.sha256()
        for event in scene.log:
            h.update(event.to_json().encode())
            h.update(b"\n")
        h.update(json.dumps(scene.snapshot(), sort_keys=True).encode())
        result[name] = f"{len(scene.log)}:{h.hexdigest()[:16]}"
    result.update(forecast_digests(only))
    return result


def _counted(value):
    """A forecast's numbers without its confidence intervals: those are a pure function of the
    same counts (fuego.stats), so the digest pins what the runs drew, not how it is worded."""
    if isinstance(value, dict):
        return {k: _counted(v) for k, v in value.items()
                if not k.endswith("_ci95") and k != "confidence"}
    return value


def forecast_digests(only: str | None = None) -> dict[str, str]:
    """The shipped campaigns' forecasts (which keep only the events their scripts read)."""
    try:
        from fuego.forecast.runner import forecast
        from fuego.scenario.model import load
    except ImportError:
        return {}
    result = {}
    for path in sorted((ROOT / "campaigns").glob("*.yaml")):
        name = f"forecast-{path.stem}"
        if only and only not in name:
            continue
        numbers = _counted(forecast(load(str(path)), 40, 15, 7, 1).to_dict())
        text = json.dumps(numbers, sort_keys=True, default=str).encode()
        result[name] = hashlib.sha256(text).hexdigest()[:16]
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--save", type=Path, nargs="?", const=BASELINE)
    ap.add_argument("--check", type=Path, nargs="?", const=BASELINE)
    ap.add_argument("--only")
    args = ap.parse_args()
    got = digests(args.only)
    got["log-format"] = str(LOG_FORMAT)
    if args.save:
        args.save.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    if args.check:
        want = json.loads(args.check.read_text())
        bad = [k for k in got if want.get(k) != got[k]]
        for k in bad:
            print(f"DIFFERS {k}: {want.get(k)} -> {got[k]}")
        print(f"{len(got) - len(bad)}/{len(got)} logs identical")
        return 1 if bad else 0
    if not args.save:
        print(json.dumps(got, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
