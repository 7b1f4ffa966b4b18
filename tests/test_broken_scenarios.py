"""A corpus of broken scenario files: each one exits 2 naming the file, the line and the fault.

Each file in tests/scenarios/broken/ starts with ``# expect: <message fragment>`` and either
``# at: <location fragment>`` or a ``# <- fault`` comment on the faulty line; the test checks
that ``fuego check`` prints ``FILE:LINE`` (and the fragment) without a traceback.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from fuego.cli import cli

HERE = os.path.dirname(os.path.abspath(__file__))
BROKEN = os.path.join(HERE, "scenarios", "broken")
FILES = sorted(f for f in os.listdir(BROKEN) if f.endswith(".yaml"))
PWNED = "/tmp/fuego-pwned"


def expectations(path: str) -> tuple[str, str | None]:
    raw = Path(path).read_bytes()
    head = raw.decode("latin-1").splitlines()
    expect = next(line[len("# expect: "):] for line in head if line.startswith("# expect: "))
    at = next((line[len("# at: "):] for line in head[:3] if line.startswith("# at: ")), None)
    if at is None:
        marked = [n for n, line in enumerate(head, 1) if line.rstrip().endswith("# <- fault")]
        assert len(marked) == 1, f"{path}: mark the faulty line with '# <- fault'"
        at = f":{marked[0]}:"
    return expect, at


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_the_corpus_is_big_and_distinct():
    assert len(FILES) >= 25
    numbers = [f.split("-", 1)[0] for f in FILES]
    assert len(set(numbers)) == len(numbers)
    fragments = [expectations(os.path.join(BROKEN, f))[0] for f in FILES]
    assert len(set(fragments)) >= 25


@pytest.mark.parametrize("name", FILES)
def test_broken_file_exits_2_naming_the_fault(name, monkeypatch):
    monkeypatch.chdir(BROKEN)
    if os.path.exists(PWNED):
        os.remove(PWNED)
    expect, at = expectations(name)
    result = run("check", name)
    output = result.output
    assert result.exit_code == 2, output
    assert "Traceback" not in output
    assert expect in output, output
    assert f"{name}{at}" in output, output
    first = output.splitlines()[0]
    assert first.startswith(name)
    assert not os.path.exists(PWNED), "a YAML tag was executed"


def test_every_problem_line_starts_with_the_file_name(monkeypatch):
    monkeypatch.chdir(BROKEN)
    result = run("check", *FILES)
    assert result.exit_code == 2
    lines = [ln for ln in result.output.splitlines() if not ln.startswith("fuego check:")]
    assert len(lines) >= len(FILES)
    assert all(re.match(r"^\d\d-[\w-]+\.yaml[:]", ln) for ln in lines), lines
    assert f"{len(FILES)} of {len(FILES)} files failed" in result.output


def test_good_and_bad_files_together(monkeypatch):
    monkeypatch.chdir(HERE)
    result = run("check", "scenarios/good/minimal.yaml", "scenarios/broken/12-fd-zero.yaml")
    assert result.exit_code == 2
    assert '"Broken example" is fine' in result.output
    assert "scenarios/broken/12-fd-zero.yaml:" in result.output
    assert "1 of 2 files failed" in result.output


def test_missing_file_and_directory(tmp_path):
    result = run("check", str(tmp_path / "nope.yaml"), str(tmp_path))
    assert result.exit_code == 2
    assert "nope.yaml: no such file" in result.output
    assert "is a directory" in result.output
    assert "Traceback" not in result.output


def test_too_big_file(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text("title: x\n" + "# padding\n" * 200_000)
    result = run("check", str(big))
    assert result.exit_code == 2
    assert "a scenario may be at most" in result.output


def test_no_input_prints_a_traceback(tmp_path):
    """A fuzz of small mutations of a good file: exit 0 or 2, never a traceback."""
    import random

    good = Path(HERE, "scenarios", "good", "minimal.yaml").read_text(encoding="utf-8")
    rng = random.Random(1234)
    junk = ["", "-", ":", "{", "]", "&a", "*a", "!!binary", "1e999", "-7", "null", "\t", "~",
            "'", '"', "#", "?", "[x, y]", "{k: v}", "\u00e9", "99999999999999999999999999999999"]
    path = tmp_path / "fuzz.yaml"
    for _ in range(150):
        text = good
        for _ in range(rng.randint(1, 4)):
            pos = rng.randrange(len(text))
            cut = rng.randint(0, 6)
            text = text[:pos] + rng.choice(junk) + text[pos + cut:]
        path.write_text(text, encoding="utf-8")
        result = run("check", str(path))
        assert result.exit_code in (0, 2), (text, result.output)
        assert "Traceback" not in result.output
        assert "this is a bug in fuego" not in result.output, (text, result.output)
