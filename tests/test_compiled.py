"""The optional compiled build (setup.py) and its stale-build guard (fuego/_compiled.py).

The guard's choices are checked on a copy of the package with a fake extension module, so they
run with or without a C compiler. The last tests compare a compiled engine with the pure one
and are skipped when nothing is compiled. No timing is asserted here.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import fuego
from fuego import _compiled

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(fuego.__file__).resolve().parent
TAVERN = ROOT / "campaigns" / "tavern.yaml"


def python(*args: str, env: dict | None = None, cwd: Path | None = None, pure: bool = False):
    """Run this interpreter on the fuego these tests import (from the folder that holds it,
    unless told otherwise); FUEGO_PURE only when asked (the caller's own is dropped)."""
    env = {k: v for k, v in (env or os.environ).items() if k != "FUEGO_PURE"}
    if pure:
        env["FUEGO_PURE"] = "1"
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=cwd or PACKAGE.parent, timeout=300)


# -- the module list and the cost of the guard ---------------------------------------------------
def test_setup_py_compiles_the_modules_the_guard_watches():
    setup = ROOT / "setup.py"
    if not setup.exists():
        pytest.skip("no setup.py next to the tests")
    tree = ast.parse(setup.read_text(encoding="utf-8"))
    compiled = next(ast.literal_eval(node.value) for node in tree.body
                    if isinstance(node, ast.Assign)
                    and any(getattr(t, "id", None) == "COMPILED" for t in node.targets))
    assert {f"fuego.{name}" for name in compiled} == _compiled.MODULES
    assert _compiled.HASHES_FILE in setup.read_text(encoding="utf-8")


def test_importing_fuego_imports_nothing_but_the_guard():
    # `fuego --help` pays for the guard: it must read and hash nothing until a compiled module
    # is imported
    out = python("-c", "import sys; before = set(sys.modules); import fuego; "
                       "print(sorted(set(sys.modules) - before)); "
                       "print(sum(getattr(f, 'fuego_stale_guard', False) for f in sys.meta_path))")
    assert out.returncode == 0, out.stderr
    new, guards = out.stdout.split("\n")[:2]
    assert set(ast.literal_eval(new)) - {"__future__"} == {"fuego", "fuego._compiled"}
    assert guards == "1"


# -- the guard's choices, on a copy of the package with a fake extension -------------------------
FAKE = "rounds"  # the module given a fake extension (not a loadable one)


def _copy_with_fake_extension(tmp_path: Path, recorded: str | None) -> Path:
    """The package's sources in tmp_path/fuego, with a fake fuego.rounds extension whose
    recorded hash is ``recorded`` ("current", "stale") or none at all."""
    dest = tmp_path / "fuego"
    shutil.copytree(PACKAGE, dest, ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.pyd", _compiled.HASHES_FILE))
    (dest / f"{FAKE}{EXTENSION_SUFFIXES[0]}").write_bytes(b"not an extension module")
    source = dest / f"{FAKE}.py"
    if recorded is not None:
        hashes = {f"fuego.{FAKE}": _compiled.source_hash(str(source))}
        (dest / _compiled.HASHES_FILE).write_text(json.dumps({"modules": hashes}))
    if recorded == "stale":  # edited after the build
        source.write_text(source.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    return tmp_path


PROBE = ("import json, fuego, fuego._compiled as c; st = c.status(); "
         f"import fuego.{FAKE} as m; "
         "print(json.dumps({'package': fuego.__file__, 'file': m.__file__, 'status': st}))")


def _probe(root: Path, pure: bool = False) -> dict:
    env = dict(os.environ, PYTHONPATH=str(root))
    out = python("-c", PROBE, env=env, cwd=root, pure=pure)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout)
    assert Path(got["package"]).parent == root / "fuego"  # the copy, not the installed fuego
    return got


def test_an_edited_source_runs_pure_instead_of_its_stale_extension(tmp_path):
    got = _probe(_copy_with_fake_extension(tmp_path, "stale"))
    assert got["file"].endswith(f"{FAKE}.py")
    assert got["status"][f"fuego.{FAKE}"] == "pure (source changed since the build)"


def test_fuego_pure_runs_the_source_even_when_the_extension_is_current(tmp_path):
    got = _probe(_copy_with_fake_extension(tmp_path, "current"), pure=True)
    assert got["file"].endswith(f"{FAKE}.py")
    assert set(got["status"].values()) == {"pure (FUEGO_PURE=1)"}


def test_a_current_extension_is_what_gets_imported(tmp_path):
    # the fake extension matches its recorded hash, so the guard hands it to the import system,
    # which refuses it: proof the guard chose the extension, not the source
    root = _copy_with_fake_extension(tmp_path, "current")
    probe = (f"import fuego._compiled as c; print(c.status()['fuego.{FAKE}']); "
             f"import fuego.{FAKE}")
    out = python("-c", probe, env=dict(os.environ, PYTHONPATH=str(root)), cwd=root)
    assert out.stdout.strip() == "compiled"
    assert out.returncode != 0 and "ImportError" in out.stderr


def test_an_extension_without_a_recorded_hash_runs_pure(tmp_path):
    got = _probe(_copy_with_fake_extension(tmp_path, None))
    assert got["file"].endswith(f"{FAKE}.py")
    assert got["status"][f"fuego.{FAKE}"] == "pure (no recorded hash)"
    assert got["status"]["fuego.scene"] == "pure (not built)"


# -- a compiled engine plays exactly as the pure one ---------------------------------------------
def _compiled_here() -> list[str]:
    out = python("-c", "import json, fuego._compiled as c; print(json.dumps(c.status()))")
    assert out.returncode == 0, out.stderr
    return [name for name, s in json.loads(out.stdout).items() if s == "compiled"]


needs_compiled = pytest.mark.skipif(
    not _compiled_here(),
    reason="nothing is compiled in this install (no C compiler or Cython at build time, or "
           "every compiled module's source changed since): nothing to compare with pure Python")

FUEGO = ("import sys; from fuego.cli import main; sys.argv[0] = 'fuego'; main()",)


@needs_compiled
def test_the_tavern_log_is_byte_identical_compiled_and_pure(tmp_path):
    logs = {}
    for mode, pure in (("compiled", False), ("pure", True)):
        logs[mode] = tmp_path / f"{mode}.jsonl"
        out = python("-c", *FUEGO, "run", str(TAVERN), "--seed", "7", "--log", str(logs[mode]),
                     pure=pure)
        assert out.returncode == 0, out.stderr[-2000:]
    assert logs["compiled"].read_bytes() == logs["pure"].read_bytes()
    assert logs["compiled"].stat().st_size > 0


@needs_compiled
def test_seeded_scenes_play_alike_compiled_pure_and_half_stale(tmp_path):
    # bench/logcheck.py's scenes with seed 1 (temperaments, Villain fires, smoke off, tavern,
    # ship) and the ablaze fields (batched rolls); then again with one module edited, so that
    # it runs pure among compiled ones
    digests = ("import json, sys, fuego, fuego._compiled as c; sys.path.append(sys.argv[1]); "
               "from bench.logcheck import digests; print(fuego.__file__); print(c.summary()); "
               "print(json.dumps({k: v for only in ('-1', 'field-ablaze') "
               "for k, v in digests(only).items()}))")
    runs = {}
    for mode, pure in (("compiled", False), ("pure", True)):
        out = python("-c", digests, str(ROOT), pure=pure)
        assert out.returncode == 0, out.stderr[-2000:]
        runs[mode] = json.loads(out.stdout.split("\n", 2)[2])
    assert runs["compiled"] == runs["pure"]
    assert len(runs["pure"]) >= 8

    copy = tmp_path / "fuego"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "rounds.py").write_text((copy / "rounds.py").read_text(encoding="utf-8")
                                    + "# edited\n", encoding="utf-8")
    out = python("-c", digests, str(ROOT), env=dict(os.environ, PYTHONPATH=str(tmp_path)),
                 cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    where, summary, result = out.stdout.split("\n", 2)
    assert Path(where).parent == copy
    assert "partly compiled" in summary and "rounds: source changed since the build" in summary
    assert json.loads(result) == runs["pure"]


def test_version_says_how_the_engine_runs():
    # A GM reporting a slow table can tell at once whether the compiled build is in use.
    from click.testing import CliRunner

    from fuego.cli import cli

    out = CliRunner().invoke(cli, ["--version"]).output
    assert out == f"fuego {fuego.__version__}: {_compiled.summary()}\n"
    pure = python("-c", "from fuego.cli import main; main()", "-V", pure=True)
    assert pure.stdout == f"fuego {fuego.__version__}: pure Python (FUEGO_PURE=1)\n"
