"""The optional compiled build: Cython compiles the engine's hot modules from their own source.

The project's metadata lives in pyproject.toml; this file only declares the extensions. Each is
optional: without Cython or a C compiler, `pip install` still succeeds and fuego runs as pure
Python. The build records a hash of each compiled source in fuego/_compiled_hashes.json, so that
fuego/_compiled.py can load the .py instead of an extension its source has moved on from.
"""

import hashlib
import json
import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: the hot modules (under fuego/), compiled in Cython's pure-Python mode: ~1.35x on a forecast.
#: Also compiling scenario/script/{cues,triggers,checks}, tables and forecast measured no gain.
#: fuego/_compiled.py keeps the same list (tests/test_compiled.py checks they agree).
COMPILED = (
    "fire_actions", "smoke_walks", "policy", "rounds", "smoke", "building", "fire", "scene",
    "dice", "batch", "events", "places", "controllers", "injury", "heroes", "hero_actions",
    "boxed_phases",
)

#: annotation_typing off: annotations stay hints, so compiled code behaves as the source does
#: (an `x: float` would otherwise turn an int into a C double)
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}

#: -O2 without debug info: under half the compile time of Python's default -g -O3, and as fast
#: (within 1-3 %, below noise) as -O3
UNIX_FLAGS = ["-O2", "-g0"]

HASHES_FILE = "_compiled_hashes.json"  # fuego/_compiled.HASHES_FILE


def source_hash(path):
    """sha256 of a file's bytes (fuego/_compiled.source_hash reads it the same way)."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class BuildCompiled(build_ext):
    """Cythonize, compile in parallel, and record which sources the extensions were built from."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:  # `pip install` passes no -j
            self.parallel = os.cpu_count() or 1

    def run(self):
        # hashed before Cython reads them: a source edited during the build then fails its
        # check at import and runs pure, rather than passing with the old code compiled
        self._hashes = {ext.name: source_hash(ext.name.replace(".", "/") + ".py")
                        for ext in self.extensions}
        self._built = []
        try:
            from Cython import __version__ as cython_version
            from Cython.Build import cythonize
        except ImportError:
            print("fuego: Cython is not installed; fuego runs as pure Python")
            self.extensions, cython_version = [], None
        else:
            # one module at a time, so that a module Cython refuses stays pure on its own; always
            # afresh (~2 s), so the hash recorded is of the source the C was made from; the C goes
            # to build/cython, out of the source tree
            kept = []
            for ext in self.extensions:
                try:
                    ext.sources = cythonize(ext, compiler_directives=DIRECTIVES, force=True,
                                            quiet=True, build_dir=os.path.join("build", "cython")
                                            )[0].sources
                except Exception as exc:  # noqa: BLE001 - any Cython failure leaves it pure
                    print(f"fuego: Cython could not translate {ext.name}: {exc}")
                else:
                    kept.append(ext)
            self.extensions = kept
        super().run()
        self._record(cython_version)

    def build_extensions(self):
        if self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                ext.extra_compile_args = UNIX_FLAGS + list(ext.extra_compile_args or [])
        super().build_extensions()

    def build_extension(self, ext):
        super().build_extension(ext)  # raises when it fails; optional=True then skips it
        self._built.append(ext.name)

    def _record(self, cython_version):
        hashes = {name: self._hashes[name] for name in sorted(self._built)}
        if len(hashes) < len(self._hashes):
            missed = sorted(set(self._hashes) - set(hashes))
            print(f"fuego: not compiled, running as pure Python: {', '.join(missed)}")
        text = json.dumps({"cython": cython_version, "modules": hashes}, indent=1) + "\n"
        targets = [os.path.join(self.build_lib, "fuego")]
        if self.inplace:  # an editable install loads the extensions from the source tree
            targets.append(self.get_finalized_command("build_py").get_package_dir("fuego"))
        for folder in targets:
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, HASHES_FILE), "w", encoding="utf-8") as f:
                f.write(text)


setup(ext_modules=[Extension(f"fuego.{name}", [f"fuego/{name}.py"], optional=True)
                  for name in COMPILED],
      cmdclass={"build_ext": BuildCompiled})
