"""English small words every layer's sentences share: a count with its noun, a name with its
article. One helper each, so a module's note and the players' story make a plural the same way.
"""

from __future__ import annotations


def plural(n: int, one: str, many: str | None = None) -> str:
    """``1 round``, ``3 rounds``; ``many`` where adding an s is wrong (``2 wreckage``)."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def count(n: int, one: str, many: str | None = None) -> str:
    """Like :func:`plural` but ``no area`` for zero: ``no area burned out``, not ``0 areas``."""
    return f"no {one}" if not n else plural(n, one, many)


def the(name: str) -> str:
    """``Kitchen`` -> ``the Kitchen``; a name that brings its own article or is a possessive
    (``The Bar``, ``Anselm's Barn``) is said as it is."""
    first = name.split(" ", 1)[0] if name else ""
    if not name or first.lower() in ("the", "a", "an") or first.endswith(("'s", "s'")):
        return name
    return f"the {name}"


def scene_ended(rounds: int) -> str:
    """How long a scene ran, for the line that ends it: ``The scene ends after 3 rounds``, or
    ``before round 1`` where the GM ended it before any round was played."""
    if not rounds:
        return "The scene ends before round 1"
    return f"The scene ends after {plural(rounds, 'round')}"
