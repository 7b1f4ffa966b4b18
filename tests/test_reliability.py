"""Issue 22: every input and every output path (docs/reliability.md).

Each test here names the defect it guards; each failed on the main branch before the fix.
Inputs: non-regular files (a FIFO, /dev/zero, a directory) and files one byte over their limit
for every command that reads one, each a one-line error (the dangerous ones in a subprocess with
a timeout, so a hang fails the test instead of the suite); numbers past every limit in options,
YAML and VTT JSON; markup and mathtext metacharacters and lone surrogates in names and texts;
every prompt of ``fuego play`` with oversized answers. Outputs: a full disk (a small tmpfs when
the test may mount one, and always a write hook that fails halfway), /dev/full, /proc, a
read-only folder, the command's own input, an existing file without ``--force``, a closed or
full standard output. Memory: the largest scenario the limits allow, under a cap.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import stat
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import failing_writes, small_tmpfs

from fuego.cli import cli
from fuego.errors import FuegoError, LimitError

ROOT = Path(__file__).resolve().parent.parent
TAVERN = ROOT / "campaigns" / "tavern.yaml"
SAMPLE_VTT = ROOT / "tests" / "data" / "sample.dd2vtt"
SHOP = (ROOT / "tests" / "test_session.py").read_text().split('SHOP = """\\\n')[1].split('"""')[0]
#: A hang guard for subprocesses, far above the second each takes (docs/reliability.md).
HANG = 60

def fuego(*args: str | Path, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, cwd=None,
          limit_bytes: int | None = None, timeout: float = HANG) -> subprocess.CompletedProcess:
    """``fuego ARGS`` in a fresh process (a hang is a TimeoutExpired, not a stuck suite)."""
    def cap() -> None:
        if limit_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    code = "import sys; from fuego.cli import main; sys.argv[0] = 'fuego'; main()"
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], stdin=stdin,
                          stdout=stdout, stderr=subprocess.PIPE, cwd=cwd, env=env,
                          timeout=timeout, preexec_fn=cap if limit_bytes else None)


def invoke(*args, input: str | None = None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output
    return result


def error_lines(text: str) -> list[str]:
    """The error lines of a command's output (``fuego check`` adds a tally line)."""
    return [line for line in text.splitlines()
            if line.strip() and not line.startswith("fuego check: ")]


# -- non-regular files and files over their limit, for every command -------------------------
def _readers(tmp_path: Path, path: Path) -> dict[str, list[str]]:
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    return {
        "check": ["check", str(path)],
        "show": ["show", str(path)],
        "run": ["run", str(path), "--seed", "1"],
        "map": ["map", str(path), "--out", str(out / "m.svg")],
        "forecast": ["forecast", str(path), "--runs", "1"],
        "play": ["play", str(path), "--seed", "1", "--session", str(out / "s.json")],
        "resume": ["play", "--resume", str(path)],
        "import": ["import", str(path)],
    }


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "directory"])
def test_every_reader_refuses_what_is_not_a_regular_file_at_once(tmp_path, kind):
    # issue 22: every command blocked forever on a FIFO; play --resume /dev/zero grew to 24 GB
    if kind == "fifo":
        path = tmp_path / "pipe.yaml"
        os.mkfifo(path)
        words = "is a FIFO (named pipe), not a file"
    elif kind == "dev-zero":
        path = Path("/dev/zero")
        words = "is a character device, not a file"
    else:
        path = tmp_path / "folder.yaml"
        path.mkdir()
        words = "is a directory"
    for name, args in _readers(tmp_path, path).items():
        r = fuego(*args, limit_bytes=2 * 2**30)  # /dev/zero must not be read into memory
        err = r.stderr.decode()
        # one line names the file and what it is (click's own check of a folder adds its
        # usage lines around it)
        lines = [line for line in error_lines(err + r.stdout.decode()) if str(path) in line]
        assert r.returncode == 2, (name, err)
        assert len(lines) == 1 and words in lines[0], (name, err)


def _over(tmp_path: Path, name: str, limit: int) -> Path:
    path = tmp_path / name
    with open(path, "wb") as fh:
        fh.truncate(limit + 1)  # sparse: nothing is written
    return path


@pytest.mark.parametrize("command", ["check", "show", "run", "map", "forecast", "play"])
def test_a_scenario_one_byte_over_the_limit_is_one_line(tmp_path, command):
    from fuego.scenario.limits import MAX_FILE_BYTES

    path = _over(tmp_path, "big.yaml", MAX_FILE_BYTES)
    r = invoke(*_readers(tmp_path, path)[command])
    lines = error_lines(r.output)
    assert r.exit_code == 2 and len(lines) == 1, r.output
    assert f"the file is {MAX_FILE_BYTES + 1:,} bytes (1 MiB + 1 byte); a scenario may be at " \
           f"most {MAX_FILE_BYTES:,} bytes (1 MiB)" in lines[0]


def test_a_save_and_a_map_one_byte_over_the_limit_are_one_line(tmp_path):
    from fuego.scenario.vtt_read import MAX_FILE_BYTES as VTT
    from fuego.table.session import MAX_SESSION_BYTES

    r = invoke("play", "--resume", _over(tmp_path, "s.json", MAX_SESSION_BYTES))
    assert r.exit_code == 2 and len(error_lines(r.output)) == 1
    assert f"{MAX_SESSION_BYTES + 1:,} bytes (64 MiB + 1 byte)" in r.output
    # issue 22: a 50 MiB + 1 byte VTT was reported as "the file is 50 MiB"
    r = invoke("import", _over(tmp_path, "m.dd2vtt", VTT))
    assert r.exit_code == 2 and len(error_lines(r.output)) == 1
    assert "the file is 52,428,801 bytes (50 MiB + 1 byte); a VTT map may be at most " \
           "52,428,800 bytes (50 MiB)" in r.output


def test_read_bytes_reads_at_most_the_limit_whatever_the_size_says(tmp_path, monkeypatch):
    from fuego.files import read_bytes, size_text

    # a file whose stat says 0 bytes (/proc, a file still growing) is still cut at limit + 1
    path = tmp_path / "grows.yaml"
    path.write_bytes(b"x" * 5000)
    real = os.fstat

    def lying(fd):
        st = real(fd)
        return os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, st.st_uid,
                               st.st_gid, 0, st.st_atime, st.st_mtime, st.st_ctime))

    monkeypatch.setattr(os, "fstat", lying)
    with pytest.raises(LimitError, match="more than 4,096 bytes"):
        read_bytes(path, limit=4096, what="a scenario")
    assert read_bytes(path, limit=5000, what="a scenario") == b"x" * 5000
    assert size_text(2**20 + 1) == "1,048,577 bytes (1 MiB + 1 byte)"


def test_a_scenario_named_in_a_save_that_became_a_fifo_does_not_hang_the_resume(tmp_path):
    # play --resume reads the scenario's path again (to say it changed): a FIFO there too
    os.chdir(tmp_path)
    (tmp_path / "shop.yaml").write_text(SHOP)
    r = invoke("play", "shop.yaml", "--seed", "3", "--session", "s.json", input="quit\n")
    assert r.exit_code == 0, r.output
    os.unlink("shop.yaml")
    os.mkfifo("shop.yaml")
    r = fuego("play", "--resume", "s.json", stdin=subprocess.DEVNULL, cwd=tmp_path)
    assert r.returncode in (0, 1, 2) and "Traceback" not in r.stderr.decode()


# -- VTT numbers and text -----------------------------------------------------------------------
def _vtt(**extra) -> dict:
    data = {"format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0},
                                          "map_size": {"x": 8, "y": 8}, "pixels_per_grid": 50},
            "line_of_sight": [[{"x": 0, "y": 0}, {"x": 8, "y": 0}, {"x": 8, "y": 8},
                               {"x": 0, "y": 8}, {"x": 0, "y": 0}]],
            "portals": []}
    data.update(extra)
    return data


@pytest.mark.parametrize("number", ["9" * 309, "-" + "9" * 400, "1e999", "-1e999",
                                    "1" + "0" * 5000, "1e308", "0." + "0" * 500 + "1e999"])
@pytest.mark.parametrize("where", ["map_size", "origin", "point", "ppg", "rotation"])
def test_vtt_numbers_of_any_size_are_reported_as_too_large(number, where):
    # issue 22: 309+ digits raised OverflowError; 1e999 was "expected a number, got a number"
    from fuego.scenario.vtt_read import parse

    text = json.dumps(_vtt(portals=[{"bounds": [{"x": 2, "y": 2}, {"x": 2, "y": 4}],
                                     "rotation": 0}]))
    target = {"map_size": '"map_size": {"x": 8', "origin": '"map_origin": {"x": 0',
              "point": '"line_of_sight": [[{"x": 0', "ppg": '"pixels_per_grid": 50',
              "rotation": '"rotation": 0'}[where]
    head, _, _ = target.rpartition(" ")
    assert target in text
    text = text.replace(target, f"{head} {number}", 1)
    if where == "rotation":
        # issue 25: a broken portal is skipped and said, the rest of the map read
        got = parse(text, "m.uvtt")
        message = "m.uvtt: " + next(line for line in got.ignored if "skipped" in line)
    else:
        with pytest.raises(FuegoError) as info:
            parse(text, "m.uvtt")
        message = info.value.render()
    assert message.startswith("m.uvtt: ") and "\n" not in message
    assert "too large" in message or "off the" in message or "not a grid size" in message, \
        message
    assert "got a number" not in message


@pytest.mark.parametrize("field", ["format", "file name"])
def test_vtt_text_never_escapes_its_yaml_comment(tmp_path, field):
    # issue 22: the format (or a file name with a newline) injected a real weather: section
    import yaml

    evil = "0.3\nweather: {wind: gale, direction: n}\n#"
    data = _vtt(format=evil if field == "format" else 0.3,
                portals=[{"bounds": [{"x": 2, "y": 0}, {"x": 4, "y": 0}],
                          "name": "door\nrules: {max_rounds: 1}\ud800"}])
    name = "m.uvtt" if field == "format" else "a\nweather: {wind: gale}\n.uvtt"
    path = tmp_path / name
    path.write_text(json.dumps(data))
    out = tmp_path / "o.yaml"
    r = invoke("import", path, "--out", out)
    assert r.exit_code == 0, r.output
    scenario = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert "weather" not in scenario and scenario["rules"] == {"max_rounds": 40}
    assert invoke("check", out).exit_code == 0


def test_twenty_thousand_long_walls_import_without_per_square_work(tmp_path):
    # issue 22: 1,000 long walls took 31 s and the 20,000 allowed about 10 minutes, every wall
    # sampled 20 times per 10-ft area it crossed; now in numpy over the grid (the guard is a
    # hang guard in a subprocess, not a timing assert: docs/reliability.md has the times)
    walls = [[{"x": 0, "y": 1 + (i % 397)}, {"x": 400, "y": 1 + (i % 397) + (i % 7) / 4}]
             for i in range(20_000)]  # full-width, nearly horizontal: snapped along
    data = _vtt(line_of_sight=walls)
    data["resolution"]["map_size"] = {"x": 400, "y": 400}
    path = tmp_path / "walls.uvtt"
    path.write_text(json.dumps(data))
    r = fuego("import", path, "--out", tmp_path / "w.yaml", timeout=120)
    assert r.returncode in (0, 2), r.stderr.decode()
    assert "Traceback" not in r.stderr.decode()


# -- outputs ----------------------------------------------------------------------------------
MINI = (ROOT / "tests" / "scenarios" / "good" / "minimal.yaml")


@pytest.mark.parametrize("command", ["map", "forecast", "run", "import"])
def test_an_existing_output_is_kept_unless_forced_and_never_an_input(tmp_path, command):
    # issue 22: map, forecast and run --log overwrote files unasked; run FILE --log FILE
    # replaced the scenario with the event log
    # the scenario's own name could pass for an output's (a map's .svg)
    src = tmp_path / ("s.svg" if command in ("map", "forecast") else "s.yaml")
    src.write_text(MINI.read_text())
    source = SAMPLE_VTT if command == "import" else src
    old = tmp_path / ("x.yaml" if command == "import" else
                      "x.jsonl" if command == "run" else "x.svg")
    old.write_text("keep me")
    flag = {"map": "--out", "forecast": "--out", "run": "--log", "import": "--out"}[command]
    extra = {"map": [], "forecast": ["--runs", "2"], "run": ["--seed", "1", "-q"],
             "import": []}[command]
    r = invoke(command, source, flag, old, *extra)
    assert r.exit_code == 2 and "exists already" in r.output and "--force" in r.output
    assert old.read_text() == "keep me"
    if command != "import":
        text = src.read_text()
        r = invoke(command, src, flag, src, "--force", *extra)
        assert r.exit_code == 2 and "is an input of this command" in r.output, r.output
        assert src.read_text() == text
        link = tmp_path / ("same" + src.suffix)
        os.link(src, link)  # the same file under another name
        r = invoke(command, src, flag, link, "--force", *extra)
        assert r.exit_code == 2 and "is an input of this command" in r.output
    r = invoke(command, source, flag, old, "--force", *extra)
    assert r.exit_code == 0, r.output
    assert old.read_text() != "keep me"
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


@pytest.mark.parametrize("target", ["/dev/full", "/proc/version", "/proc/fuego-new", "ro"])
@pytest.mark.parametrize("command", ["map", "run", "import", "forecast"])
def test_an_unwritable_output_is_one_line(tmp_path, command, target):
    # issue 22: run --log /dev/full or /proc/version gave OSError tracebacks
    if target == "ro":
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        if os.access(ro, os.W_OK) and os.geteuid() == 0:  # root writes anyway: a bind is not
            pytest.skip("root ignores folder permissions")
        target = str(ro / "x.svg")
    elif command in ("map", "forecast") and target.startswith("/proc"):
        target += ".svg"
    flag = {"map": "--out", "forecast": "--out", "run": "--log", "import": "--out"}[command]
    extra = {"forecast": ["--runs", "1"], "run": ["--seed", "1", "-q"]}.get(command, [])
    src = SAMPLE_VTT if command == "import" else MINI
    r = invoke(command, src, flag, target, "--force", *extra)
    lines = [line for line in r.output.splitlines() if line.startswith("fuego: error:")]
    assert r.exit_code == 2 and len(lines) == 1 and target in lines[0], r.output


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["svg", "png", "pdf"])
def test_a_map_over_an_old_map_on_a_full_disk_keeps_the_old_map(tmp_path, monkeypatch, fmt):
    # issue 22: a full disk truncated an 81 KB map; PDF gave a zlib.error traceback
    out = tmp_path / f"m.{fmt}"
    assert invoke("map", TAVERN, "--out", out).exit_code == 0
    before = out.read_bytes()
    failing_writes(monkeypatch, after=len(before) // 3)
    r = invoke("map", TAVERN, "--out", out, "--force", "--round", "3", "--seed", "2")
    assert r.exit_code == 2 and "No space left on device" in r.output, r.output
    assert len(error_lines(r.output)) == 1
    assert out.read_bytes() == before
    assert os.listdir(tmp_path) == [out.name]


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KiB tmpfs (needs root and mount; skipped where it cannot be had)."""
    with small_tmpfs(tmp_path / "small", "64k") as mnt:
        yield mnt


@pytest.mark.slow
def test_a_map_written_over_a_map_on_a_full_tmpfs_leaves_the_old_map(small_disk):
    out = small_disk / "m.pdf"
    r = fuego("map", TAVERN, "--out", out, "--level", "0")
    assert r.returncode == 0, r.stderr.decode()
    before = out.read_bytes()
    (small_disk / "filler").write_bytes(b"\0" * (64 * 1024 - len(before) - 12 * 1024))
    r = fuego("map", TAVERN, "--out", out, "--force", "--scale", "2")
    err = r.stderr.decode()
    assert r.returncode == 2 and "No space left on device" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert out.read_bytes() == before
    assert sorted(os.listdir(small_disk)) == ["filler", "m.pdf"]


@pytest.mark.parametrize("args", [["run", str(TAVERN), "--seed", "1"], ["roll", "7k4"],
                                  ["import", str(SAMPLE_VTT)],
                                  ["forecast", str(MINI), "--runs", "2", "--json"]])
def test_a_full_standard_output_is_one_line(args):
    # issue 22: output to a full standard output gave a traceback
    with open("/dev/full", "wb") as full:
        r = fuego(*args, stdout=full)
    err = r.stderr.decode()
    assert r.returncode == 2 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == \
        "fuego: error: cannot write to standard output: No space left on device"


def test_a_closed_pipe_ends_quietly_with_status_0():
    # issue 22: `fuego run ... | head` exited 1 with no message
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    code = "import sys; from fuego.cli import main; sys.argv[0] = 'fuego'; main()"
    proc = subprocess.Popen([sys.executable, "-c", code, "run", str(TAVERN), "--seed", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # what `head -1` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=HANG) == 0 and err == "", err


def test_a_kill_between_backup_and_replace_leaves_no_temp_file_on_later_saves(tmp_path):
    # issue 22: SAVE.bak hard-linked to SAVE made every later save leave a .SAVE.*.tmp
    from fuego.table import session as sessions

    path = str(tmp_path / "s.json")
    s = sessions.new("shop.yaml", 3, text=SHOP)
    sessions.save(s, path)
    os.link(path, sessions.backup_path(path))  # what the kill left behind
    for n in range(3):
        s.inputs.append({"q": "round", "round": n + 1, "a": "next"})
        sessions.save(s, path)
        assert sorted(os.listdir(tmp_path)) == ["s.json", "s.json.bak"]
    assert len(sessions.load(sessions.backup_path(path)).inputs) == 2


def test_on_a_file_system_without_hard_links_the_backup_is_a_whole_copy(tmp_path, monkeypatch):
    """The backup is a second name for the last save; where links fail (a FAT stick, some
    network shares) it is a copy, written by the one writer: whole or not at all, no
    temporary file left, the save itself untouched."""
    from fuego.table import session as sessions

    def no_links(src, dst, *args, **kwargs):
        raise PermissionError(1, "Operation not permitted")

    path = str(tmp_path / "s.json")
    s = sessions.new("shop.yaml", 3, text=SHOP)
    sessions.save(s, path)
    monkeypatch.setattr(os, "link", no_links)
    for n in range(3):
        before = Path(path).read_bytes()
        s.inputs.append({"q": "round", "round": n + 1, "a": "next"})
        sessions.save(s, path)
        assert sorted(os.listdir(tmp_path)) == ["s.json", "s.json.bak"]
        assert Path(sessions.backup_path(path)).read_bytes() == before
    assert len(sessions.load(path).inputs) == 3


def test_output_refuses_what_is_not_a_regular_file(tmp_path):
    from fuego.files import Output

    os.mkfifo(tmp_path / "p")
    for target, words in ((tmp_path / "p", "is a FIFO"), ("/dev/null", "character device"),
                          (tmp_path, "is a directory")):
        with pytest.raises(FuegoError, match=words):
            Output(target, what="map", force=True).check()

@pytest.mark.parametrize("durable", [True, False])
def test_the_one_writer_leaves_the_old_file_whole_and_raises_the_os_error(tmp_path,
                                                                       monkeypatch, durable):
    """fuego.files.replacing, which every written file goes through (a forecast's counts
    too): a disk full half-way leaves the old file and no temporary file, and the OSError is
    the caller's to word (the forecast names its folder)."""
    from fuego.files import replacing

    path = tmp_path / "counts"
    path.write_bytes(b"old")
    failing_writes(monkeypatch, after=2)
    with pytest.raises(OSError) as got, replacing(str(path), mode=0o600, durable=durable) as fh:
        fh.write(b"ne")
        fh.write(b"w!")
    assert got.value.errno == errno.ENOSPC
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["counts"]
    monkeypatch.undo()
    with replacing(str(path), mode=0o600, durable=durable) as fh:
        fh.write(b"new")
    assert path.read_bytes() == b"new" and os.listdir(tmp_path) == ["counts"]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600



# -- names are text ---------------------------------------------------------------------------
NAMES = ["$x$", "$\\frac{a}$", "$", "[/]", "[bold red]x", "\\[b]", "%s %d {0}", "<b>&amp;",
         "a\u200fb", "\u0301", "日本語", "🔥"]


def braces(text: str) -> str:
    """A ``say:`` text shows ``{`` as ``{{`` (its placeholders are in braces)."""
    return text.replace("{", "{{").replace("}", "}}")


def _named(name: str) -> str:
    quoted = json.dumps(name, ensure_ascii=False)
    return (SHOP.replace("title: The Cooper's Shop", f"title: {quoted}")
            .replace("{name: Store,", f"{{name: {quoted},")
            .replace("name: Ana Vaz", f"name: {json.dumps('Ana ' + name, ensure_ascii=False)}")
            + textwrap.dedent(f"""\
            script:
              - name: {quoted}
                when: {{round: 1}}
                do:
                  - say: {json.dumps('says ' + braces(name), ensure_ascii=False)}
            """))


@pytest.mark.parametrize("name", NAMES)
def test_metacharacters_in_names_are_drawn_literally(tmp_path, name):
    # issue 22: '$' in a room, title or hero name crashed map and the forecast plot
    path = tmp_path / "n.yaml"
    path.write_text(_named(name), encoding="utf-8")
    assert invoke("check", path).exit_code == 0
    r = invoke("map", path, "--out", tmp_path / "m.svg", "--round", "1", "--seed", "1")
    assert r.exit_code == 0, r.output
    svg = (tmp_path / "m.svg").read_text(encoding="utf-8")
    from xml.sax.saxutils import escape
    assert escape(name) in svg  # the name itself, as text
    r = invoke("forecast", path, "--runs", "2", "--out", tmp_path / "f.png")
    assert r.exit_code == 0, r.output
    r = invoke("run", path, "--seed", "1", "--rounds", "2")
    assert r.exit_code == 0 and name in r.output


def test_letters_no_installed_font_has_are_said_once_in_fuegos_words(tmp_path):
    from fuego.render.mapdraw import font_families

    if len(font_families()) > 1:
        pytest.skip(f"this machine has fallback fonts ({font_families()[1:]})")
    path = tmp_path / "n.yaml"
    path.write_text(_named("\u65e5\u672c\u8a9e"), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (matplotlib's own warning would be an error here)
        r = invoke("map", path, "--out", tmp_path / "m.png")
    assert r.exit_code == 0, r.output
    assert (f"fuego: {tmp_path / 'm.png'}: 3 letters of the names (\u65e5, \u672c, \u8a9e) "
            "in no installed font, drawn as boxes") in r.output
    assert "Glyph" not in r.output and r.output.count("no installed font") == 1
    r = invoke("map", path, "--out", tmp_path / "m.svg")  # (words kept as text)
    assert r.exit_code == 0 and "no installed font" not in r.output


def test_a_name_is_drawn_from_a_fallback_font_where_one_is_installed(monkeypatch):
    from matplotlib.figure import Figure

    from fuego.render import mapdraw

    mapdraw.font_families.cache_clear()
    monkeypatch.setattr(mapdraw, "FALLBACK_FONTS", ("No Such Font", "Liberation Sans"))
    try:
        have = mapdraw.font_families()

        @mapdraw.literal_text
        def draw():
            return Figure().text(0, 0, "\u65e5")

        text = draw()
    finally:
        mapdraw.font_families.cache_clear()
    from matplotlib import font_manager
    installed = any(f.name == "Liberation Sans" for f in font_manager.fontManager.ttflist)
    assert have == ["DejaVu Sans", *(["Liberation Sans"] if installed else [])]
    assert text.get_fontfamily() == have


@pytest.mark.parametrize("where", ["title", "room", "hero", "cue", "say", "key"])
@pytest.mark.parametrize("half", ["\\uD800", "\\udfff", "\\ud83d"])
def test_lone_surrogates_are_refused_at_check_with_the_reason(tmp_path, where, half):
    # issue 22: "\uD800" in a say: or a cue name passed check, then run, play and every later
    # --resume crashed with UnicodeEncodeError
    text = _named("plain")
    text = {"title": text.replace('title: "plain"', f'title: "x{half}"'),
            "room": text.replace('{name: "plain",', f'{{name: "x{half}",'),
            "hero": text.replace('name: "Ana plain"', f'name: "Ana {half}"'),
            "cue": text.replace('  - name: "plain"', f'  - name: "cue {half}"'),
            "say": text.replace('say: "says plain"', f'say: "says {half}"'),
            "key": text.replace("  lane: {", f'  "lane{half}": {{')}[where]
    assert half in text
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    r = invoke("check", path)
    assert r.exit_code == 2 and "half of a UTF-16 surrogate pair" in r.output, r.output
    for command in (["run", path, "--seed", "1"], ["play", path, "--seed", "1"]):
        r = invoke(*command, input="quit\n")
        assert r.exit_code == 2 and "surrogate" in r.output


# -- numbers and options ----------------------------------------------------------------------
@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "1e999", "+Infinity"])
def test_float_options_refuse_nan_and_infinity(tmp_path, value):
    # issue 22: map --scale nan gave a ValueError traceback (click's FloatRange lets NaN in)
    r = invoke("map", MINI, "--out", tmp_path / "m.svg", "--scale", value)
    assert r.exit_code == 2 and "is not a finite number" in r.output
    assert not (tmp_path / "m.svg").exists()


OPTION_CASES = {
    ("run", str(MINI)): ["--seed", "--rounds"],
    ("map", str(MINI), "--out", "OUT.svg", "--force"): ["--round", "--seed", "--scale", "--dpi",
                                                        "--level"],
    ("forecast", str(MINI)): ["--runs", "--rounds", "--seed", "--jobs", "--by-round", "--dpi"],
    ("show", str(MINI)): ["--seed"],
    ("roll", "7k4"): ["--times", "--seed"],
    ("odds", "7k4"): ["--tn", "--raises"],
    ("import", str(SAMPLE_VTT)): ["--window", "--grid-feet"],
    ("play", str(MINI), "--session", "OUT.json"): ["--seed"],
}


@pytest.mark.parametrize("value", ["9" * 400, "-" + "9" * 400, "9" * 5000, "nan", "inf", "1e999",
                                   "0x1f", "1_0", "\udcff"])
@pytest.mark.slow
def test_every_number_option_takes_any_text_without_a_traceback(tmp_path, value):
    # issue 22: map --level <5000 digits> hit Python's int-string limit
    for base, options in OPTION_CASES.items():
        base = tuple(str(tmp_path / a) if a.startswith("OUT.") else a for a in base)
        for option in options:
            r = invoke(*base, option, value, input="quit\n")
            assert r.exit_code in (0, 2), (base, option, r.output[-500:])


@pytest.mark.parametrize("args", [["odds", "1000d2", "--tn", "1000"],
                                  ["odds", "967d2", "--tn", "1000"],
                                  ["odds", "999d2", "--tn", "0"]])
def test_odds_of_many_plain_dice_do_not_recurse(args):
    # issue 22: odds 1000d2 --tn 1000 gave a RecursionError (from 967d2 up)
    r = invoke(*args)
    assert r.exit_code == 0, r.output


def test_odds_of_many_plain_dice_are_exact():
    from fuego.dice import odds
    from fuego.dice.roller import parse

    dist = odds.distribution(parse("1000d2"))
    assert min(dist) == 1000 and max(dist) == 2000
    assert dist[1000] == pytest.approx(2.0 ** -1000, rel=1e-9, abs=0)
    assert odds.mean(parse("1000d2")) == pytest.approx(1500)
    assert odds.chance(parse("3d2"), 5) == pytest.approx(4 / 8)


@pytest.mark.parametrize("number", ["9" * 400, "1e999", ".inf", "-.inf", ".nan", "1e308",
                                    "0x" + "f" * 300, "1_000_000_000_000_000_000_000_000_000_000"])
@pytest.mark.parametrize("key", ["fuel", "fd", "max_rounds", "elevation", "brawn", "round"])
def test_numbers_past_every_limit_in_yaml_are_one_clear_problem(tmp_path, number, key):
    text = {"fuel": SHOP.replace("{name: Store, fuel: 5}", f"{{name: Store, fuel: {number}}}"),
            "fd": SHOP.replace("fd: 4", f"fd: {number}"),
            "max_rounds": SHOP + f"rules: {{max_rounds: {number}}}\n",
            "elevation": SHOP.replace("elevation: 0", f"elevation: {number}"),
            "brawn": SHOP.replace("brawn: 3", f"brawn: {number}"),
            "round": SHOP + f"script:\n  - when: {{round: {number}}}\n    do: [{{say: hi}}]\n",
            }[key]
    path = tmp_path / "n.yaml"
    path.write_text(text)
    r = invoke("check", path)
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert 1 <= len(error_lines(r.output)) <= 2, r.output


# -- every prompt of fuego play with oversized answers and markup names -----------------------
HUGE = "9" * 5000
JUNK = [HUGE, "-" + HUGE, "go " + HUGE, "move " + HUGE, "map " + HUGE, "fd ground:B1 " + HUGE,
        "fire ground:A1 " + HUGE, "fire ground:A1 1e999", "fd ground:B1 nan",
        "move Bo ground:" + "Z" * 3000 + HUGE, "open ground:C1 " + HUGE, "x" * 200_000,
        "[/]", "[bold]", "$x$", "\x00", "\x1b[31mred", "1e999", "nan", "inf", "\udcff",
        "go \udcff", "move Bo \udcfe"]  # (invalid UTF-8 bytes at a terminal)


@pytest.mark.slow
@pytest.mark.parametrize("rich", [False, True])
def test_every_prompt_of_play_survives_oversized_answers(tmp_path, monkeypatch, rich):
    # issue 22 (the table branch fixes it): 5,000 digits at an action prompt, or go <5000
    # digits>, gave a ValueError traceback
    monkeypatch.chdir(tmp_path)
    if rich:
        import fuego.cli.gm_screen as view
        monkeypatch.setattr(view, "isatty", lambda stream: True)
    (tmp_path / "shop.yaml").write_text(SHOP)
    answers = (JUNK + [""]) * 12 + ["quit"]
    # bytes: a terminal hands over what was typed, invalid UTF-8 included
    typed = ("\n".join(answers) + "\n").encode("utf-8", "surrogateescape")
    result = CliRunner().invoke(cli, ["play", "shop.yaml", "--seed", "3", "--session", "s.json"],
                                input=typed)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 2), result.output[-2000:]
    assert "Traceback" not in result.output
    r = invoke("play", "--resume", "s.json", input="quit\n")
    assert r.exit_code == 0, r.output[-2000:]


@pytest.mark.parametrize("name", ["[/]", "[bold]x", "[link=x]y", "\\[", "$x$"])
def test_markup_in_names_is_printed_literally_at_the_table(tmp_path, monkeypatch, name):
    # issue 22 (the table branch fixes it): '[/]' in a name crashed fuego play on a terminal
    import fuego.cli.gm_screen as view

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(view, "isatty", lambda stream: True)
    (tmp_path / "n.yaml").write_text(_named(name), encoding="utf-8")
    answers = ["", "", "", "", "status", "map", "help", "", "", "quit"]
    result = CliRunner().invoke(cli, ["play", "n.yaml", "--seed", "3", "--session", "s.json"],
                                input="\n".join(answers) + "\n")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, result.output[-2000:]
    assert f"Ana {name}" in result.output


# -- memory on the largest scenario the limits allow --------------------------------------------
def largest_scenario() -> str:
    """20,000 areas (the limit) on one 200 x 100 level, 100 heroes, 1,000 fires, 10,000 rounds."""
    from fuego.world.places import column_letters

    cols, rows = 200, 100
    keys = "abcdefghij"
    lines = ["format: 1", "title: Largest", "rooms:"]
    lines += [f"  {k}: {{name: Room {k}, fuel: 5}}" for k in keys]
    lines.append("  o: {name: Yard, outdoors: true, fuel: none, features: [exit]}")
    lines.append("legend: {" + ", ".join(f"{k}: {k}" for k in keys) + ", o: o}")
    lines += ["levels:", "  - name: ground", "    elevation: 0", "    plan: |"]
    for r in range(rows):
        lines.append("      " + ("o" * cols if r == rows - 1 else
                                 "".join(keys[c // 20] for c in range(cols))))
    lines.append("heroes:")
    lines += [f"  - {{name: Hero {i}, start: ground:{column_letters(2 * i)}{1 + i % 90}, "
              "traits: {brawn: 2, finesse: 2, wits: 2, resolve: 2, panache: 2}}"
              for i in range(100)]
    lines.append("fires:")
    lines += [f"  - {{area: ground:{column_letters(c)}{r + 1}, fd: 3}}"
              for c, r in sorted({((i * 37) % cols, (i * 53) % (rows - 1)) for i in range(1000)})]
    lines += ["rules:", "  max_rounds: 10000"]
    return "\n".join(lines) + "\n"


#: The cap on a command's address space on the largest scenario (docs/reliability.md has the
#: peaks measured: well under half of it).
MEMORY_CAP = 2 * 2**30


@pytest.mark.parametrize("command", [["check"], ["show"], ["run", "--seed", "1", "--rounds", "1",
                                                           "-q"]])
@pytest.mark.slow
def test_the_largest_scenario_stays_under_the_memory_cap(tmp_path, command):
    path = tmp_path / "largest.yaml"
    path.write_text(largest_scenario())
    r = fuego(command[0], path, *command[1:], limit_bytes=MEMORY_CAP, timeout=300)
    assert r.returncode == 0, r.stderr.decode()[-2000:]
