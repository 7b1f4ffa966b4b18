"""Which engine modules run compiled, and the guard that keeps a stale compiled build out.

``setup.py`` compiles the engine's hot modules with Cython from their own ``.py`` source when a
C compiler is there, and records a hash of each source it compiled in ``_compiled_hashes.json``.
The extension module sits next to its ``.py`` and Python would import it first, so a developer
who edits ``fuego/rounds.py`` in an editable install would silently keep running the old code.
:class:`StaleGuard`, put in front of ``sys.meta_path`` by ``fuego/__init__.py``, loads the
``.py`` instead when the extension is missing, when the source no longer matches the hash
recorded when it was built, or when ``FUEGO_PURE=1`` is set.

Importing this module costs next to nothing (``fuego --help`` pays for it): it imports no more
than ``os`` and ``sys``, and reads and hashes only when a compiled module is imported.
"""

from __future__ import annotations

import os
import sys

#: the modules setup.py compiles (its COMPILED; tests/test_compiled.py keeps the two in step)
MODULES = frozenset(f"fuego.{name}" for name in (
    "fire_actions", "smoke_walks", "policy", "rounds", "smoke", "building", "fire", "scene",
    "dice", "batch", "events", "places", "controllers", "injury", "heroes", "hero_actions",
    "boxed_phases",
))

#: written by setup.py's build next to this file: {"modules": {module name: sha256 of its .py}}
HASHES_FILE = "_compiled_hashes.json"

_HERE = os.path.dirname(os.path.abspath(__file__))

# module name -> (the file it loads or would load, why it is pure or None); decided once a
# process, so status() tells what was really imported
_decided: dict[str, tuple[str | None, str | None]] = {}
_hashes: dict[str, str] | None = None


def forced_pure() -> bool:
    """FUEGO_PURE=1 (any value but empty or 0) runs every module from its source."""
    return os.environ.get("FUEGO_PURE", "") not in ("", "0")


def recorded_hashes() -> dict[str, str]:
    """The source hashes the build recorded (empty when nothing was built)."""
    global _hashes
    if _hashes is None:
        import json

        try:
            with open(os.path.join(_HERE, HASHES_FILE), encoding="utf-8") as f:
                _hashes = dict(json.load(f).get("modules", {}))
        except (OSError, ValueError, AttributeError):
            _hashes = {}
    return _hashes


def source_hash(path: str) -> str:
    """sha256 of a file's bytes: what setup.py records for each source it compiles."""
    import hashlib

    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def choose(name: str, dirs, hashes: dict[str, str]) -> tuple[str | None, str | None]:
    """(file to load, None) for a current extension, (the .py, why) otherwise.

    (None, why) when there is no source to fall back on: then the normal import decides.
    """
    import _imp

    leaf = name.rpartition(".")[2]
    for d in dirs:
        source = os.path.join(d, leaf + ".py")
        if os.path.isfile(source):
            break
    else:
        return None, "no source"
    if forced_pure():
        return source, "FUEGO_PURE=1"
    ext = next((p for p in (os.path.join(d, leaf + s) for s in _imp.extension_suffixes())
                if os.path.isfile(p)), None)
    if ext is None:
        return source, "not built"
    want = hashes.get(name)
    if want is None:
        return source, "no recorded hash"
    if want != source_hash(source):
        return source, "source changed since the build"
    return ext, None


def _decide(name: str, dirs=None) -> tuple[str | None, str | None]:
    if name not in _decided:
        if dirs is None:
            dirs = [os.path.join(_HERE, *name.split(".")[1:-1])]
        _decided[name] = choose(name, dirs, recorded_hashes())
    return _decided[name]


class StaleGuard:
    """A meta path finder for the compiled modules only; every other import passes straight by."""

    fuego_stale_guard = True  # how install() recognises one already in place

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if fullname not in MODULES:
            return None
        where, why = _decide(fullname, path)
        if where is None:
            return None
        from importlib.machinery import ExtensionFileLoader, SourceFileLoader
        from importlib.util import spec_from_file_location

        loader = (SourceFileLoader if why else ExtensionFileLoader)(fullname, where)
        return spec_from_file_location(fullname, where, loader=loader)


def install() -> None:
    """Put the guard first on sys.meta_path, once."""
    if not any(getattr(f, "fuego_stale_guard", False) for f in sys.meta_path):
        sys.meta_path.insert(0, StaleGuard)


def status() -> dict[str, str]:
    """Module name -> "compiled" or "pure (why)", for every module the build compiles."""
    out = {}
    for name in sorted(MODULES):
        why = _decide(name)[1]
        out[name] = "compiled" if why is None else f"pure ({why})"
    return out


def summary() -> str:
    """One line: "compiled (16 of 16 modules)", "pure Python (not built)", or in between."""
    st = status()
    pure = {name: s for name, s in st.items() if s != "compiled"}
    if not pure:
        return f"compiled ({len(st)} of {len(st)} modules)"
    whys = sorted({s[len("pure ("):-1] for s in pure.values()})
    if len(pure) == len(st):
        return f"pure Python ({'; '.join(whys)})"
    return (f"partly compiled ({len(st) - len(pure)} of {len(st)} modules; pure: "
            f"{', '.join(n.rpartition('.')[2] for n in sorted(pure))}: {'; '.join(whys)})")
