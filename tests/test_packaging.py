"""fuego is a pure-Python package: its wheel is ``py3-none-any`` and nothing in it compiles."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_build_needs_no_compiler():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    requires = " ".join(project["build-system"]["requires"]).lower()
    assert "cython" not in requires
    assert not (ROOT / "setup.py").exists()
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    compiled = [f for f in tracked.stdout.split()
                if f.endswith((".pyx", ".pxd", ".c", ".cpp", ".so", ".pyd"))]
    assert compiled == []


@pytest.mark.slow
def test_the_wheel_is_pure_python(tmp_path):
    # with build isolation, as `pip install` builds it: pip fetches the setuptools it asks for
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps",
                          "-q", "-w", str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = tmp_path.glob("fuego-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "fuego/engine/fire.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c"))]
