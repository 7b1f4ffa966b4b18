"""Safe saves, beyond tests/test_session.py and tests/test_play.py (docs/reliability.md).

Those test the file format, atomic saves with one backup, a few damaged files, a kill in the
middle of a save and exact resumes. Here: a save cut at many offsets, mutated saves (values of
every kind at every key), oversized, deeply nested and non-UTF-8 saves, hostile scenarios
embedded in a save, a save that fails half-way (a full disk, a failing rename), and a save from
another fuego build whose replay no longer gives the saved state. The outcome is always a
resume or a clear error with exit status 2, and the previous good save is kept.
"""

from __future__ import annotations

import copy
import errno
import hashlib
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz import _paths, deadline, invoke
from test_session import ANSWERS, SHOP

from fuego.cli import cli
from fuego.errors import SaveError
from fuego.table import replay
from fuego.table import session as sessions

SCALE = float(os.environ.get("FUEGO_EXAMPLES_SCALE", "1"))


def examples(n: int) -> settings:
    return settings(max_examples=max(1, int(n * SCALE)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


def feed(answers) -> str:
    return "".join(a + "\n" for a in answers)


@pytest.fixture(scope="module")
def good_save(tmp_path_factory) -> dict[str, str]:
    """The text of s.json after fourteen answers of the shop (in round 2), and its .bak."""
    folder = tmp_path_factory.mktemp("good")
    (folder / "shop.yaml").write_text(SHOP, encoding="utf-8")
    old = os.getcwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(cli, ["play", "shop.yaml", "--seed", "3", "--session",
                                          "s.json", "--plain"], input=feed(ANSWERS[:14]))
        assert result.exit_code == 0, result.output
        return {"save": (folder / "s.json").read_text(encoding="utf-8"),
                "bak": (folder / "s.json.bak").read_text(encoding="utf-8")}
    finally:
        os.chdir(old)


def _resume(folder, text: str | bytes, answers=("", "", "")):
    """Write ``text`` as s.json (the good .bak beside it) and resume it: exit 0 or a clear 2."""
    path = folder / "s.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    old = os.getcwd()
    os.chdir(folder)
    try:
        return invoke("play", "--resume", "s.json", "--plain", input=feed(answers), seconds=60)
    finally:
        os.chdir(old)


def test_a_save_cut_at_any_offset_is_refused_and_the_backup_offered(tmp_path, good_save):
    text = good_save["save"]
    (tmp_path / "s.json.bak").write_text(good_save["bak"], encoding="utf-8")
    path = str(tmp_path / "s.json")
    n = len(text)
    offsets = sorted(set(list(range(0, 40)) + list(range(n - 40, n))
                         + [n * k // 97 for k in range(97)]))
    for cut in offsets:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text[:cut])
        try:
            back = sessions.load(path)
        except SaveError as exc:
            rendered = exc.render()
            assert rendered.startswith(path), rendered
            assert "fuego play --resume" in rendered and ".bak" in rendered, rendered
            continue
        # only a cut in the trailing newline leaves the whole save
        assert text[:cut].strip() == text.strip(), cut
        assert back.inputs == json.loads(text)["inputs"]
    assert (tmp_path / "s.json.bak").read_text(encoding="utf-8") == good_save["bak"]
    # and through the table: exit 2, the message, and the backup untouched
    result = _resume(tmp_path, text[: n // 3])
    assert result.exit_code == 2 and "cut off (truncated)" in result.output
    assert (tmp_path / "s.json.bak").read_text(encoding="utf-8") == good_save["bak"]


NASTY = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(allow_nan=False),
    st.text(max_size=20), st.sampled_from(["next", "auto", "hold", "wait", "move ground:Z9",
                                           "gm fire ground:A1 11", "gm end", "round", "roll",
                                           "action", "fire ground:B1 3", "open a b", ""]),
    st.lists(st.integers(0, 3), max_size=3), st.dictionaries(st.text(max_size=4),
                                                             st.integers(), max_size=2),
)


@st.composite
def mutated_saves(draw, text: str) -> str:
    data = json.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p]
        path = draw(st.sampled_from(paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        how = draw(st.sampled_from(["replace", "replace", "delete"]))
        if how == "delete":
            del parent[path[-1]]
        else:
            parent[path[-1]] = copy.deepcopy(draw(NASTY))
    if draw(st.booleans()) and isinstance(data.get("scenario"), dict) and \
            isinstance(data["scenario"].get("text"), str):  # keep the checksum right
        data["scenario"]["sha256"] = hashlib.sha256(
            data["scenario"]["text"].encode("utf-8", "surrogatepass")).hexdigest()
    return json.dumps(data)


def test_mutated_saves_resume_or_say_why(tmp_path, good_save):
    """Values of every kind at every key of a real save: loads and replays, or a SaveError."""
    from test_session import ScriptLive

    @examples(80)
    @given(text=mutated_saves(good_save["save"]))
    def check(text):
        with deadline(30):
            try:
                session = sessions.loads(text, "m.json")
            except SaveError as exc:
                assert exc.render().startswith("m.json"), exc.render()
                return
            live = ScriptLive([])
            player = replay.Player(session, live)
            live.player = player
            try:
                player.run()
            except replay.Quit:
                pass
            except SaveError as exc:  # a replay that no longer fits says so
                assert "no longer replay" in exc.render() or "m.json" in exc.render()
            except Exception as exc:  # noqa: BLE001 - anything else must be a FuegoError
                from fuego.errors import FuegoError

                assert isinstance(exc, FuegoError), repr(exc)

    check()


def test_mutated_saves_through_the_table(tmp_path, good_save):
    (tmp_path / "s.json.bak").write_text(good_save["bak"], encoding="utf-8")

    @examples(10)
    @given(text=mutated_saves(good_save["save"]))
    def check(text):
        _resume(tmp_path, text)
        assert (tmp_path / "s.json.bak").exists()

    check()


def _touching_scenario(target) -> str:
    return f'title: !!python/object/apply:os.system ["touch {target}"]\n' + SHOP.split("\n", 2)[2]


@pytest.mark.parametrize("make, expect", [
    (lambda t: _touching_scenario(t), "YAML tag !!python/object/apply:os.system is not allowed"),
    (lambda t: "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi")), "aliases repeated too often"),
    (lambda t: SHOP + "#" * (1024 * 1024), "a scenario may be at most"),
    (lambda t: SHOP.replace("fd: 4", "fd: 40"), "fires[0].fd: must be 1-10, got 40"),
    (lambda t: "", "the file is empty"),
])
def test_hostile_scenarios_embedded_in_a_save(tmp_path, good_save, make, expect):
    """The scenario travels inside the save (with a matching sha256): it is checked like a file,
    and nothing in it runs."""
    target = tmp_path / "pwned"
    data = json.loads(good_save["save"])
    text = make(target)
    data["scenario"]["text"] = text
    data["scenario"]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    result = _resume(tmp_path, json.dumps(data))
    assert result.exit_code == 2, result.output
    assert expect in result.output, result.output[-2000:]
    assert not target.exists(), "a YAML tag in a save ran code"


@pytest.mark.parametrize("blob, expect", [
    (b'{"format": "fuego-session", "version": 2, "seed": ' + b"9" * 5000 + b"}",
     "a number too long to read"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"format": "fuego-session", "version": 2, "inputs": ' + b"[" * 100_000, "nested too deeply"),
    (b"\xff\xfe{\x00}\x00", "not UTF-8 text"),
    (b"\x00" * 64, "damaged"),
    (b'{"format": "fuego-session", "version": NaN}', "is not a number"),
    (b'{"format": "fuego-session", "version": 1.0}', "is not a number"),
    (b'{"format": "fuego-session", "version": true}', "is not a number"),
    (b'{"format": "fuego-session", "version": -3}', "older than version 5"),
    (b'{"format": ["fuego-session"]}', "not a fuego session file"),
    (b"   \n\t ", "is empty"),
])
def test_hostile_save_files(tmp_path, blob, expect):
    result = _resume(tmp_path, blob)
    assert result.exit_code == 2
    assert result.output.startswith("fuego: error: s.json: "), result.output[:500]
    assert expect in result.output, result.output[:500]


def test_an_oversized_save_is_refused_without_reading_it(tmp_path):
    path = tmp_path / "s.json"
    with open(path, "wb") as f:
        f.truncate(sessions.MAX_SESSION_BYTES + 1)  # sparse: nothing is written or read
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = invoke("play", "--resume", "s.json", input="\n", seconds=20)
    finally:
        os.chdir(old)
    assert result.exit_code == 2
    assert f"a session may be at most {sessions.MAX_SESSION_BYTES:,}" in result.output


def test_a_folder_as_the_save(tmp_path):
    (tmp_path / "s.json").mkdir()
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = invoke("play", "--resume", "s.json", input="\n")
    finally:
        os.chdir(old)
    assert result.exit_code == 2 and "s.json" in result.output


# -- a save that fails half-way keeps the old one ------------------------------------------------
def _two_saves(tmp_path) -> tuple[str, sessions.Session, str, str]:
    path = str(tmp_path / "s.json")
    s = sessions.new("shop.yaml", 3, text=SHOP)
    sessions.save(s, path)
    s.inputs.append({"q": "round", "round": 1, "a": "next"})
    sessions.save(s, path)
    return path, s, Path(path).read_text(encoding="utf-8"), open(path + ".bak",
                                                              encoding="utf-8").read()


def _leftovers(tmp_path) -> list[str]:
    return sorted(n for n in os.listdir(tmp_path) if n not in ("s.json", "s.json.bak"))


@pytest.mark.parametrize("where", ["write", "fsync", "rename"])
def test_a_failed_save_leaves_the_last_good_one(tmp_path, monkeypatch, where):
    """The disk fills up while the temporary file is written or synced, or the final rename
    fails: a clear SaveError, the last good save and its backup as they were, nothing left
    behind."""
    path, s, before, bak = _two_saves(tmp_path)
    s.inputs.append({"q": "action", "round": 1, "phase": 1, "hero": "Bo", "a": "wait"})
    full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    if where == "write":
        real = os.fdopen

        def fdopen(fd, *a, **kw):
            f = real(fd, *a, **kw)
            f.write = lambda text: (_ for _ in ()).throw(full)
            return f

        monkeypatch.setattr(os, "fdopen", fdopen)
    elif where == "fsync":
        monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(full))
    else:
        real_replace = os.replace

        def replace(src, dst):
            if os.path.abspath(dst) == os.path.abspath(path):
                raise OSError(errno.EIO, os.strerror(errno.EIO))
            return real_replace(src, dst)

        monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(SaveError, match="cannot save the session") as err:
        sessions.save(s, path)
    assert err.value.render().startswith(path)
    monkeypatch.undo()
    assert Path(path).read_text(encoding="utf-8") == before
    assert len(sessions.load(path).inputs) == 1
    assert _leftovers(tmp_path) == []
    if where == "rename":  # the backup was refreshed from the same good save first
        assert Path(path + ".bak").read_text(encoding="utf-8") == before
    else:
        assert Path(path + ".bak").read_text(encoding="utf-8") == bak
    sessions.save(s, path)  # and the next save works
    assert len(sessions.load(path).inputs) == 2


def test_the_table_plays_on_when_a_save_fails(tmp_path, monkeypatch):
    """A full disk during play: the table says NOT SAVED and plays on; the file on disk is the
    last good save, which resumes."""
    (tmp_path / "shop.yaml").write_text(SHOP, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    calls = {"n": 0}
    real = os.fsync

    def fsync(fd):
        calls["n"] += 1
        if calls["n"] > 6:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    result = CliRunner().invoke(cli, ["play", "shop.yaml", "--seed", "3", "--session", "s.json",
                                      "--plain"], input=feed(ANSWERS[:6]))
    monkeypatch.setattr(os, "fsync", real)
    assert result.exit_code in (0, 2), result.output
    assert "NOT SAVED" in result.output or "NOT saved" in result.output, result.output[-1500:]
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]
    again = invoke("play", "--resume", "s.json", "--plain", input=feed(ANSWERS[6:8]))
    assert again.exit_code == 0, again.output


# -- another fuego's save ------------------------------------------------------------------------
def test_a_save_whose_replay_differs_says_so_and_plays_on(tmp_path, good_save):
    """Same format, another build of fuego whose rules gave other rolls: the digests saved per
    round no longer match. fuego says where the replay first differs and plays on."""
    data = json.loads(good_save["save"])
    assert data["checks"], "the save records a digest per round"
    data["checks"] = {k: "0" * 32 for k in data["checks"]}
    data["fuego"] = "0.0.1"
    result = _resume(tmp_path, json.dumps(data))
    assert result.exit_code == 0, result.output
    assert "does not replay to the same state as when it was saved" in result.output


def test_a_save_whose_answers_no_longer_fit_says_exactly_why(tmp_path, good_save):
    data = json.loads(good_save["save"])
    k = next(i for i, e in enumerate(data["inputs"]) if e["q"] == "action")
    data["inputs"][k]["hero"] = "Someone Else"
    result = _resume(tmp_path, json.dumps(data))
    assert result.exit_code == 2
    assert f"the saved answers no longer replay: answer {k + 1} of {len(data['inputs'])}" \
        in result.output, result.output[-1500:]


def test_an_unknown_key_from_a_later_build_is_ignored(tmp_path, good_save):
    """A key this fuego does not know (added by a later build of the same format) does not stop
    a resume."""
    data = json.loads(good_save["save"])
    data["annotations"] = {"gm": "a note"}
    data["inputs"][0]["note"] = "first"
    result = _resume(tmp_path, json.dumps(data))
    assert result.exit_code == 0, result.output
