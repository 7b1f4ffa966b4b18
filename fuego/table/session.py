"""Saved sessions of ``fuego play``: every GM answer, replayed to the same scene.

A session is *event sourced*: the save file holds the scenario's full text, the seed and the
ordered list of everything the GM answered (hero actions, rolled totals or "auto", overrides,
round boundaries). The engine is deterministic, so rebuilding the scene from the embedded text
with the seed and replaying the answers gives the same state and the same random stream, event
for event. Resuming, undoing and recovering from a crash are all the same operation: replay a
prefix of the answers.

The file (JSON, ``docs/gm-guide.md``)::

    {"format": "fuego-session", "version": 4, "fuego": "0.1.0",
     "scenario": {"path": "campaigns/tavern.yaml", "sha256": "...", "text": "..."},
     "seed": 7, "options": {},
     "inputs": [
       {"q": "round", "round": 1, "a": "next"},
       {"q": "action", "round": 1, "phase": 3, "hero": "Isabela", "a": "move ground:C4"},
       {"q": "roll", "round": 1, "phase": 3, "hero": "Isabela", "purpose": "avoid fire (leaping)",
        "a": 17},
       {"q": "action", "round": 1, "phase": 7, "hero": "Isabela", "gm": "fire ground:E2 3"},
       {"q": "round", "round": 2, "a": "next"},
       {"q": "round", "round": 3, "a": "next", "by": "go"},
       ...],
     "checks": {"1": "<digest of the state at the end of round 1>", ...},
     "position": {"round": 2, "phase": 4, "events": 57, "inputs": 12},
     "state": {... Scene.snapshot() when it was saved, for people and tests ...}}

``position`` and ``state`` are the scene when it was last saved (informational).
``q`` is the question being answered (``round``: the boundary before a round; ``action``: a
hero's action die; ``roll``: a hero's roll), ``a`` the answer and ``gm`` an override typed at
that prompt (the question is asked again after it); ``by`` marks a round boundary the table
answered itself (``go``: rounds played without stopping; ``play-out``: no hero left, the fire
plays out), which undo by the answer passes over. ``checks`` holds a digest of the state and
the random stream at the end of each round, so a replay that no longer gives the same state (a
different fuego) is noticed. Loading ignores ``position`` and ``state``.

Saving is atomic: a temporary file in the same folder, fsync, then ``os.replace``; the previous
good save is kept as ``SAVE.bak``. Nothing here prints or prompts: :class:`Player` asks a
:class:`Live` object (the table, in ``fuego.cli.gm_prompts``) whenever the recorded answers run out.

Overrides (their words, their check and carrying them out) live in
:mod:`fuego.table.overrides`; replaying a session (:class:`Player`, :class:`Question`,
:class:`Live`) in :mod:`fuego.table.replay`.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import os
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fuego.errors import SaveError
from fuego.table.replay import (
    SAVED_QUESTIONS,
    Answer,
    GivenBy,
    QuestionKind,
)

if TYPE_CHECKING:
    from fuego.engine.plans import HeroPlans
    from fuego.engine.scene import Scene

__all__ = ["FORMAT", "VERSION", "Session", "new", "load", "loads", "save", "backup_path", "is_session",
           "SLOW_SAVE_ENV"]

FORMAT = "fuego-session"
#: 2: the dice draw differently (docs/events.md, log format 2): a version 1 session's answers
#: would replay into another story, so it is refused.
#: 3: a round boundary the table answered itself says so (``by``: go, play-out), so undo steps
#: back one answer of the GM's.
#: 4: the dice are drawn in batches per pool shape (docs/events.md, log format 4): an older
#: session's answers would replay into another story, so it is refused.
#: 5: smoke vents wherever its region's air reaches open air, however far (docs/events.md, log
#: format 5): an older session's smoke, and so its story, may differ, so it is refused.
VERSION = 5
#: The oldest version read (older ones are refused: their stories may differ).
OLDEST = 5
#: Seconds to sleep between writing the temporary file and renaming it (tests kill mid-save).
SLOW_SAVE_ENV = "FUEGO_TEST_SLOW_SAVE"
#: The largest session file fuego reads (a long evening is well under a megabyte).
MAX_SESSION_BYTES = 64 * 1024 * 1024



# -- the file -------------------------------------------------------------------------------------
def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Texts:
    """The scenario's words for the table: read-aloud description, the GM's briefing, and the
    descriptions of rooms (by key) and heroes (by name)."""

    title: str = ""
    description: str = ""
    briefing: str = ""
    rooms: dict[str, str] = field(default_factory=dict)
    heroes: dict[str, str] = field(default_factory=dict)


@dataclass
class Session:
    """A scenario, a seed and the GM's answers so far."""

    scenario_text: str
    scenario_path: str
    seed: int
    inputs: list[dict[str, Any]] = field(default_factory=list)
    checks: dict[str, str] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    #: where it was read from or last written to (messages only)
    path: str | None = None
    #: (absolute path, text without position and state) of the last save: a save with no new
    #: answer leaves the backup alone
    _written: tuple[str, str] | None = field(default=None, repr=False, compare=False)
    _written_text: str | None = field(default=None, repr=False, compare=False)
    #: room key -> the plan character the GM drew it with (known once built; for maps)
    symbols: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    #: the scenario's texts (known once built; for the table)
    texts: Texts = field(default_factory=Texts, repr=False, compare=False)
    #: the heroes' plans the scenario gives (known once built): the table's suggested choice
    plans: HeroPlans | None = field(default=None, repr=False, compare=False)

    @property
    def scenario_sha256(self) -> str:
        return _sha256(self.scenario_text)

    def build(self) -> Scene:
        """A fresh scene from the embedded scenario text and the seed."""
        from fuego.scenario.model import loads

        where = self.scenario_path or "<scenario>"
        if self.path:
            where += f" (the copy saved in {self.path})"
        parsed = loads(self.scenario_text, source=where)
        self.symbols = dict(getattr(parsed, "symbols", {}) or {})
        self.plans = parsed.plans
        spec = parsed.spec
        self.texts = Texts(
            title=spec.title, description=spec.description, briefing=spec.briefing,
            rooms={key: room.description for key, room in spec.rooms.items()
                   if room.description},
            heroes={h.name: h.description for h in spec.heroes if h.description})
        return parsed.build(self.seed)

    # -- answers ---------------------------------------------------------------------------
    def truncate(self, keep: int) -> None:
        """Keep the first ``keep`` answers, and the checks of the rounds they still decide."""
        del self.inputs[keep:]
        done = {e["round"] - 1 for e in self.inputs
                if e.get("q") == QuestionKind.ROUND and "a" in e}
        last = max(done, default=0)
        self.checks = {r: d for r, d in self.checks.items() if int(r) <= last}

    # -- text ------------------------------------------------------------------------------
    def dumps(self, *, position: dict | None = None, state: dict | None = None) -> str:
        """The session as JSON text: one answer per line, so a save reads (and diffs) well."""
        from fuego import __version__

        def one(value: Any, sort: bool = True) -> str:
            return json.dumps(value, ensure_ascii=False, sort_keys=sort, separators=(",", ":"))

        head = {
            "format": FORMAT,
            "version": VERSION,
            "fuego": __version__,
            "scenario": {"path": self.scenario_path, "sha256": self.scenario_sha256,
                         "text": self.scenario_text},
            "seed": self.seed,
            "options": self.options,
        }
        lines = ["{"]
        for key, value in head.items():
            lines.append(f"  {json.dumps(key)}: {one(value)},")
        if self.inputs:
            lines.append('  "inputs": [')
            # an answer's keys in the order it was made: q, round, phase, hero, purpose, a/gm
            lines.append(",\n".join("    " + one(e, sort=False) for e in self.inputs))
            lines.append("  ],")
        else:
            lines.append('  "inputs": [],')
        lines.append(f'  "checks": {one(self.checks)},')
        lines.append(f'  "position": {one(position or {})},')
        lines.append(f'  "state": {one(state)}')
        lines.append("}")
        return "\n".join(lines) + "\n"


def new(scenario_path: str, seed: int, *, text: str | None = None,
        options: dict[str, Any] | None = None) -> Session:
    """A session of the scenario file at ``scenario_path`` (its text read now unless given)."""
    if text is None:
        from fuego.scenario.source import read_file

        text, _ = read_file(scenario_path)
    return Session(text, scenario_path, seed, options=dict(options or {}))


def backup_path(path: str) -> str:
    return path + ".bak"


def _bad(where: str, message: str, tip: str | None = None) -> SaveError:
    return SaveError(message, where=where, tip=tip)


def _check_entry(i: int, e: Any, where: str) -> None:
    """One saved answer: an object for a known question, in a round, with exactly one of an
    answer or a GM override, naming its hero; its answer of the question's form."""
    at = f"inputs[{i}]"
    if not isinstance(e, dict):
        raise _bad(where, f"{at} is not an answer (expected an object, found {type(e).__name__})")
    q = e.get("q")
    names = [k.value for k in SAVED_QUESTIONS]
    if q not in names:
        raise _bad(where, f"{at}: unknown question {q!r} (expected one of {', '.join(names)})")
    kind = QuestionKind(q)
    if not isinstance(e.get("round"), int) or isinstance(e.get("round"), bool):
        raise _bad(where, f"{at}: 'round' must be a whole number")
    has_a, has_gm = "a" in e, "gm" in e
    if has_a == has_gm:
        raise _bad(where, f"{at}: an answer has exactly one of 'a' (the answer) or 'gm' "
                          "(an override)")
    if has_gm and not isinstance(e["gm"], str):
        raise _bad(where, f"{at}: 'gm' must be the override's text")
    if kind is not QuestionKind.ROUND and not isinstance(e.get("hero"), str):
        raise _bad(where, f"{at}: a {q} answer names its hero")
    if has_a:
        for check in ANSWER_CHECKS:
            check(at, kind, e, where)


def _round_answer(at: str, kind: QuestionKind, e: dict, where: str) -> None:
    """A round boundary is answered 'next' or play-out."""
    a = e["a"]
    if kind is QuestionKind.ROUND and a not in (Answer.NEXT, Answer.PLAY_OUT):
        raise _bad(where, f"{at}: a round boundary's answer is 'next' or "
                          f"'{Answer.PLAY_OUT.value}', not {a!r}")


def _dice_answer(at: str, kind: QuestionKind, e: dict, where: str) -> None:
    """Action dice are 'auto' or the dice as rolled, each 1-10."""
    a = e["a"]
    if kind is QuestionKind.DICE and a != Answer.AUTO and not (
            isinstance(a, list) and a and all(type(d) is int and 1 <= d <= 10 for d in a)):
        raise _bad(where, f"{at}: action dice are 'auto' or a list of numbers 1-10, not {a!r}")


def _given_by(at: str, kind: QuestionKind, e: dict, where: str) -> None:
    """'by' marks only a round boundary's 'next' that the table played on by itself."""
    if "by" in e and (kind is not QuestionKind.ROUND or e["a"] != Answer.NEXT
                      or e["by"] not in tuple(GivenBy)):
        raise _bad(where, f"{at}: 'by' marks a round the table played on by itself ("
                          f"{' or '.join(g.value for g in GivenBy)}), on a round boundary's "
                          "'next' only")


def _action_answer(at: str, kind: QuestionKind, e: dict, where: str) -> None:
    """An action is its text."""
    if kind is QuestionKind.ACTION and not isinstance(e["a"], str):
        raise _bad(where, f"{at}: an action is text such as 'move ground:C4' or 'hold'")


def _drama_spent(at: str, kind: QuestionKind, e: dict, where: str) -> None:
    """The Drama Dice spent on a roll: 1-10."""
    if "drama" in e and (type(e["drama"]) is not int or not 1 <= e["drama"] <= 10):
        raise _bad(where, f"{at}: 'drama' is the Drama Dice spent on the roll (1-10)")


def _roll_answer(at: str, kind: QuestionKind, e: dict, where: str) -> None:
    """A roll is answered with a total (0 or more) or 'auto'."""
    a = e["a"]
    if kind is QuestionKind.ROLL and a != Answer.AUTO and (
            not isinstance(a, int) or isinstance(a, bool) or a < 0):
        raise _bad(where, f"{at}: a roll's answer is a total (0 or more) or 'auto', not {a!r}")


#: The checks of a saved answer, in the order a damaged save is reported.
ANSWER_CHECKS: tuple[Callable[[str, QuestionKind, dict, str], None], ...] = (
    _round_answer, _dice_answer, _given_by, _action_answer, _drama_spent, _roll_answer)


def loads(text: str, where: str = "<session>") -> Session:
    """Read a session from JSON text, checking everything; a :class:`SaveError` names ``where``
    and says exactly what is wrong."""
    data = _json(text, where)
    _check_version(data, where)
    sc = data.get("scenario")
    if not isinstance(sc, dict) or not isinstance(sc.get("text"), str):
        raise _bad(where, "the session has no scenario text")
    path = sc.get("path", "")
    if not isinstance(path, str):
        raise _bad(where, "scenario.path must be text")
    if sc.get("sha256") != _sha256(sc["text"]):
        raise _bad(where, "the embedded scenario does not match its sha256: the file was edited "
                          "or damaged")
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise _bad(where, f"the seed {seed!r} is not a whole number")
    inputs = data.get("inputs")
    if not isinstance(inputs, list):
        raise _bad(where, "'inputs' must be a list of answers")
    for i, e in enumerate(inputs):
        _check_entry(i, e, where)
    checks = data.get("checks", {})
    if not isinstance(checks, dict) or not all(
            isinstance(k, str) and k.isdecimal() and isinstance(v, str) for k, v in checks.items()):
        raise _bad(where, "'checks' must map round numbers to digests")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise _bad(where, "'options' must be an object")
    return Session(sc["text"], path, seed, list(inputs), dict(checks), dict(options), where)


def is_session(path: str) -> bool:
    """Whether ``path`` is a saved ``fuego play`` session (JSON of :data:`FORMAT`) rather than
    a scenario: sniffed from the first bytes of a regular file (anything else is left to the
    scenario loader, which refuses it without blocking on it)."""
    import stat

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except OSError:
        return False  # the scenario loader says what is wrong with it
    return head.lstrip().startswith(b"{") and json.dumps(FORMAT).encode() in head


#: A line that starts a scenario's section (docs/scenario-format.md): a YAML scenario given
#: where a save was wanted is said to be one, not a damaged save.
SCENARIO_KEY = re.compile(r"^(format|title|rooms|levels|legend)\s*:", re.M)


def _json(text: str, where: str) -> dict:
    """A save's JSON object, fuego's session format; a save cut off, damaged or of another
    format is a SaveError that says which."""
    if not text.strip():
        raise _bad(where, "the saved session is empty (the save was cut off)")
    if not text.lstrip("\ufeff \t\r\n").startswith("{") and SCENARIO_KEY.search(text):
        raise _bad(where, "this is a scenario, not a saved session",
                   tip=f"start a scene of it with: fuego play {where}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        body = text.rstrip()
        cut = exc.pos >= len(body) - 1 or (body.lstrip().startswith("{")
                                            and not body.endswith("}"))
        what = "is cut off (truncated)" if cut else "is damaged"
        raise _bad(where, f"the saved session {what}: {exc.msg} (line {exc.lineno}, "
                          f"column {exc.colno})") from None
    except RecursionError:
        raise _bad(where, "the saved session is not readable JSON (nested too deeply)") from None
    except ValueError:  # a number longer than Python reads (4300 digits): not a save of ours
        raise _bad(where, "the saved session is damaged: a number too long to read") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise _bad(where, f"not a fuego session file (format {found!r}, expected {FORMAT!r})",
                   tip="fuego play --resume reads the files fuego play saves")
    return data


def _check_version(data: dict, where: str) -> None:
    """The save's session format version is one this fuego reads (OLDEST to VERSION)."""
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise _bad(where, f"the session's version {version!r} is not a number")
    if version > VERSION:
        made = data.get("fuego", "a newer fuego")
        raise _bad(where, f"this session was saved by fuego {made} in session format version "
                          f"{version}; this fuego reads versions {OLDEST} to {VERSION}",
                   tip="upgrade fuego to resume it")
    if version < OLDEST:
        raise _bad(where, f"this session is in session format version {version}, older than "
                          f"version {OLDEST} that this fuego reads",
                   tip="resume it with the fuego that saved it, or start the scene again")


def _bak_tip(path: str) -> str | None:
    bak = backup_path(path)
    if not os.path.exists(bak):
        return None
    try:
        s = _load_file(bak)
    except SaveError:
        return None
    rounds = sum(1 for e in s.inputs if e.get("q") == QuestionKind.ROUND and "a" in e)
    return (f"the previous good save is kept in {bak} ({len(s.inputs)} answers, {rounds} rounds "
            f"begun): resume it with: fuego play --resume {bak}")


def _load_file(path: str) -> Session:
    from fuego.errors import FuegoError
    from fuego.files import decode, read_bytes

    if not os.path.lexists(path):
        raise _bad(path, "no saved session here")
    try:
        text = decode(read_bytes(path, limit=MAX_SESSION_BYTES, what="a session"), path,
                      "a session", lines=False)
    except FuegoError as exc:
        raise SaveError(exc.message, where=exc.where, tip=exc.tip) from None
    session = loads(text, path)
    session.path = path
    return session


def load(path: str) -> Session:
    """Read a saved session; a bad one raises a :class:`SaveError` naming the file and, when
    its backup is good, how to resume that instead."""
    try:
        return _load_file(path)
    except SaveError as exc:
        tip = _bak_tip(path)
        if tip and not exc.tip:
            exc.tip = tip
            exc.args = (exc.render(),)
        elif tip:
            exc.tip = f"{exc.tip}; {tip}"
            exc.args = (exc.render(),)
        raise


def _tmp_prefix(path: str) -> str:
    return "." + os.path.basename(path) + "."


def clean_stale(path: str) -> list[str]:
    """Remove temporary files a save that was killed half-way left behind; return them."""
    directory = os.path.dirname(os.path.abspath(path))
    gone = []
    pattern = os.path.join(glob.escape(directory), glob.escape(_tmp_prefix(path)) + "*.tmp")
    for stale in glob.glob(pattern):
        try:
            os.unlink(stale)
            gone.append(stale)
        except OSError:
            pass
    return gone


def _discard(tmp: str) -> None:
    """Remove a temporary file left by a save that failed (it may already be gone)."""
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def _backup(path: str, directory: str) -> None:
    """Keep the current save (if it is a good one) as ``SAVE.bak``, atomically."""
    if not os.path.exists(path):
        return
    bak = backup_path(path)
    with contextlib.suppress(OSError):
        if os.path.samefile(path, bak):  # a kill after the last backup: it is this save already
            return
    try:
        _load_file(path)
    except SaveError:
        return  # never let a damaged file push out the good backup
    fd, tmp = tempfile.mkstemp(prefix=_tmp_prefix(path), suffix=".tmp", dir=directory)
    os.close(fd)
    try:
        os.unlink(tmp)
        os.link(path, tmp)  # a second name for the same bytes: no copy, nothing half-written
    except OSError:  # (no hard links on this file system: a copy, written as every output is)
        from fuego.files import replacing

        _discard(tmp)
        with open(path, "rb") as src:
            data = src.read()
        with replacing(bak) as dst:
            dst.write(data)
        return
    try:
        os.replace(tmp, bak)
    finally:
        _discard(tmp)  # gone after the rename; left only if rename found bak == tmp already


def save(session: Session, path: str, *, position: dict | None = None,
         state: dict | None = None) -> None:
    """Write the session atomically (:class:`fuego.files.Output`: temporary file, fsync, keep
    the old save as ``.bak``, rename into place). A reader (or a crash) sees the old save or
    the new one, never half."""
    from fuego.errors import FuegoError
    from fuego.files import Output

    key = (os.path.abspath(path), session.dumps())
    text = session.dumps(position=position, state=state)
    same = session._written == key and os.path.exists(path)
    if same and session._written_text == text:
        return
    directory = os.path.dirname(os.path.abspath(path))

    def before_replace() -> None:
        slow = os.environ.get(SLOW_SAVE_ENV)
        if slow:
            time.sleep(float(slow))
        if not same:  # no new answer (only the state moved on): the backup stays one back
            _backup(path, directory)

    # a session replaces its own earlier save: that is what saving after every answer means
    try:
        with Output(path, what="session", force=True).open(before_replace) as fh:
            fh.write(text.encode("utf-8"))
    except FuegoError as exc:
        raise SaveError(f"cannot save the session: {exc.message.split(': ', 1)[-1]}",
                        where=path, tip=exc.tip) from None
    session.path = path
    session._written, session._written_text = key, text
