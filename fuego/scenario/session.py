"""Saved sessions of ``fuego play``: every GM answer, replayed to the same scene.

A session is *event sourced*: the save file holds the scenario's full text, the seed and the
ordered list of everything the GM answered (hero actions, rolled totals or "auto", overrides,
round boundaries). The engine is deterministic, so rebuilding the scene from the embedded text
with the seed and replaying the answers gives the same state and the same random stream, event
for event. Resuming, undoing and recovering from a crash are all the same operation: replay a
prefix of the answers.

The file (JSON, ``docs/gm-guide.md``)::

    {"format": "fuego-session", "version": 1, "fuego": "0.1.0",
     "scenario": {"path": "campaigns/tavern.yaml", "sha256": "...", "text": "..."},
     "seed": 7, "options": {},
     "inputs": [
       {"q": "round", "round": 1, "a": "next"},
       {"q": "action", "round": 1, "phase": 3, "hero": "Isabela", "a": "move ground:C4"},
       {"q": "roll", "round": 1, "phase": 3, "hero": "Isabela", "purpose": "avoid fire (leaping)",
        "a": 17},
       {"q": "action", "round": 1, "phase": 7, "hero": "Isabela", "gm": "fire ground:E2 3"},
       ...],
     "checks": {"1": "<digest of the state at the end of round 1>", ...},
     "position": {"round": 2, "phase": 4, "events": 57, "inputs": 12},
     "state": {... Scene.snapshot() when it was saved, for people and tests ...}}

``position`` and ``state`` are the scene when it was last saved (informational).
``q`` is the question being answered (``round``: the boundary before a round; ``action``: a
hero's action die; ``roll``: a hero's roll), ``a`` the answer and ``gm`` an override typed at
that prompt (the question is asked again after it). ``checks`` holds a digest of the state and
the random stream at the end of each round, so a replay that no longer gives the same state (a
different fuego) is noticed. Loading ignores ``position`` and ``state``.

Saving is atomic: a temporary file in the same folder, fsync, then ``os.replace``; the previous
good save is kept as ``SAVE.bak``. Nothing here prints or prompts: :class:`Player` asks a
:class:`Live` object (the table, in ``fuego.cli.table``) whenever the recorded answers run out.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Protocol

from fuego.errors import FuegoError, RuleError, SaveError

if TYPE_CHECKING:
    from fuego.dice import Pool
    from fuego.hero_actions import HeroAction
    from fuego.heroes import Hero
    from fuego.scene import Scene

__all__ = [
    "FORMAT", "VERSION", "Session", "new", "load", "loads", "save", "backup_path",
    "Question", "Live", "Player", "Rewind", "Quit", "apply_override", "is_override",
    "undo_point", "SLOW_SAVE_ENV", "action_words", "resolve_action",
]

FORMAT = "fuego-session"
VERSION = 1
#: Seconds to sleep between writing the temporary file and renaming it (tests kill mid-save).
SLOW_SAVE_ENV = "FUEGO_TEST_SLOW_SAVE"
#: The largest session file fuego reads (a long evening is well under a megabyte).
MAX_SESSION_BYTES = 64 * 1024 * 1024

QUESTIONS = ("round", "action", "roll")
#: The first words of GM overrides (``fuego.gm``); ``open``/``close``/``move`` are overrides
#: only with two arguments (with one they are a hero's action).
OVERRIDE_WORDS = ("fire", "fd", "open", "close", "break", "move", "end")


# -- the file -------------------------------------------------------------------------------------
def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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

    @property
    def scenario_sha256(self) -> str:
        return _sha256(self.scenario_text)

    def build(self) -> Scene:
        """A fresh scene from the embedded scenario text and the seed."""
        from fuego import scenario

        where = self.scenario_path or "<scenario>"
        if self.path:
            where += f" (the copy saved in {self.path})"
        parsed = scenario.loads(self.scenario_text, source=where)
        self.symbols = dict(getattr(parsed, "symbols", {}) or {})
        return parsed.build(self.seed)

    # -- answers ---------------------------------------------------------------------------
    def truncate(self, keep: int) -> None:
        """Keep the first ``keep`` answers, and the checks of the rounds they still decide."""
        del self.inputs[keep:]
        done = {e["round"] - 1 for e in self.inputs if e.get("q") == "round" and "a" in e}
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
        try:
            with open(scenario_path, encoding="utf-8") as f:
                text = f.read()
        except OSError as exc:
            raise SaveError(f"cannot read the scenario: {exc.strerror or exc}",
                            where=scenario_path) from None
        except UnicodeDecodeError:
            raise SaveError("the scenario is not UTF-8 text", where=scenario_path) from None
    return Session(text, scenario_path, seed, options=dict(options or {}))


def backup_path(path: str) -> str:
    return path + ".bak"


def _bad(where: str, message: str, tip: str | None = None) -> SaveError:
    return SaveError(message, where=where, tip=tip)


def _check_entry(i: int, e: Any, where: str) -> None:
    at = f"inputs[{i}]"
    if not isinstance(e, dict):
        raise _bad(where, f"{at} is not an answer (expected an object, found {type(e).__name__})")
    q = e.get("q")
    if q not in QUESTIONS:
        raise _bad(where, f"{at}: unknown question {q!r} (expected one of {', '.join(QUESTIONS)})")
    if not isinstance(e.get("round"), int) or isinstance(e.get("round"), bool):
        raise _bad(where, f"{at}: 'round' must be a whole number")
    has_a, has_gm = "a" in e, "gm" in e
    if has_a == has_gm:
        raise _bad(where, f"{at}: an answer has exactly one of 'a' (the answer) or 'gm' "
                          "(an override)")
    if has_gm and not isinstance(e["gm"], str):
        raise _bad(where, f"{at}: 'gm' must be the override's text")
    if q in ("action", "roll") and not isinstance(e.get("hero"), str):
        raise _bad(where, f"{at}: a {q} answer names its hero")
    if not has_a:
        return
    a = e["a"]
    if q == "round" and a != "next":
        raise _bad(where, f"{at}: a round boundary's answer is 'next', not {a!r}")
    if q == "action" and not isinstance(a, str):
        raise _bad(where, f"{at}: an action is text such as 'move ground:C4' or 'hold'")
    if q == "roll" and a != "auto" and (not isinstance(a, int) or isinstance(a, bool) or a < 0):
        raise _bad(where, f"{at}: a roll's answer is a total (0 or more) or 'auto', not {a!r}")


def loads(text: str, where: str = "<session>") -> Session:
    """Read a session from JSON text, checking everything; a :class:`SaveError` names ``where``
    and says exactly what is wrong."""
    if not text.strip():
        raise _bad(where, "the saved session is empty (the save was cut off)")
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
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise _bad(where, f"the session's version {version!r} is not a number")
    if version > VERSION:
        made = data.get("fuego", "a newer fuego")
        raise _bad(where, f"this session was saved by fuego {made} in session format version "
                          f"{version}; this fuego reads version {VERSION} only",
                   tip="upgrade fuego to resume it")
    if version < VERSION:
        raise _bad(where, f"this session is in session format version {version}, older than "
                          f"version {VERSION} that this fuego reads",
                   tip="resume it with the fuego that saved it, or start the scene again")
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
            isinstance(k, str) and k.isdigit() and isinstance(v, str) for k, v in checks.items()):
        raise _bad(where, "'checks' must map round numbers to digests")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise _bad(where, "'options' must be an object")
    return Session(sc["text"], path, seed, list(inputs), dict(checks), dict(options), where)


def _bak_tip(path: str) -> str | None:
    bak = backup_path(path)
    if not os.path.exists(bak):
        return None
    try:
        s = _load_file(bak)
    except SaveError:
        return None
    rounds = sum(1 for e in s.inputs if e.get("q") == "round" and "a" in e)
    return (f"the previous good save is kept in {bak} ({len(s.inputs)} answers, {rounds} rounds "
            f"begun): resume it with: fuego play --resume {bak}")


def _load_file(path: str) -> Session:
    try:
        size = os.path.getsize(path)
        if size > MAX_SESSION_BYTES:
            raise _bad(path, f"the file is {size:,} bytes; a session may be at most "
                             f"{MAX_SESSION_BYTES:,}")
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise _bad(path, "no saved session here") from None
    except IsADirectoryError:
        raise _bad(path, "is a folder, not a saved session") from None
    except OSError as exc:
        raise _bad(path, f"cannot read the saved session: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _bad(path, "the saved session is damaged (not UTF-8 text at byte "
                         f"{exc.start})") from None
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


def _fsync_dir(directory: str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _mode(path: str) -> int:
    """The permissions for a save: those of the file it replaces, else the umask's default."""
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


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


def _backup(path: str, directory: str) -> None:
    """Keep the current save (if it is a good one) as ``SAVE.bak``, atomically."""
    if not os.path.exists(path):
        return
    try:
        _load_file(path)
    except SaveError:
        return  # never let a damaged file push out the good backup
    bak = backup_path(path)
    fd, tmp = tempfile.mkstemp(prefix=_tmp_prefix(path), suffix=".tmp", dir=directory)
    os.close(fd)
    try:
        try:
            os.unlink(tmp)
            os.link(path, tmp)  # a second name for the same bytes: no copy, nothing half-written
        except OSError:
            with open(path, "rb") as src, open(tmp, "wb") as dst:
                dst.write(src.read())
                dst.flush()
                os.fsync(dst.fileno())
        os.replace(tmp, bak)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def save(session: Session, path: str, *, position: dict | None = None,
         state: dict | None = None) -> None:
    """Write the session atomically: temporary file, fsync, keep the old save as ``.bak``,
    rename into place. A reader (or a crash) sees the old save or the new one, never half."""
    key = (os.path.abspath(path), session.dumps())
    text = session.dumps(position=position, state=state)
    same = session._written == key and os.path.exists(path)
    if same and session._written_text == text:
        return
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=_tmp_prefix(path), suffix=".tmp", dir=directory)
    except OSError as exc:
        raise SaveError(f"cannot save the session: {exc.strerror or exc}", where=path) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _mode(path))  # mkstemp makes it private; a save is an ordinary file
        slow = os.environ.get(SLOW_SAVE_ENV)
        if slow:
            time.sleep(float(slow))
        if not same:  # no new answer (only the state moved on): the backup stays one back
            _backup(path, directory)
        os.replace(tmp, path)
        _fsync_dir(directory)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise SaveError(f"cannot save the session: {exc.strerror or exc}", where=path) from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    session.path = path
    session._written, session._written_text = key, text


# -- overrides ------------------------------------------------------------------------------------
def is_override(text: str, *, hero_prompt: bool, scene: Scene | None = None) -> bool:
    """Does ``text`` name a GM override rather than a hero's action?

    ``gm ...`` always does, and so do ``fire``, ``fd``, ``break`` and ``end``. At a prompt
    that is not a hero's, ``open``/``close``/``move`` do too. At a hero's prompt (where the
    caller tries the hero's action first) ``move`` does with a name and an area, and
    ``open``/``close`` with two areas (``open ground:C4 ground:D4``); a door's own name there
    is the hero's action (``gm open front door`` makes it the GM's)."""
    words = text.split()
    if not words:
        return False
    verb, args = words[0].lower(), words[1:]
    if verb == "gm":
        return True
    if verb not in OVERRIDE_WORDS:
        return False
    if not hero_prompt or verb in ("fire", "fd", "break", "end"):
        return True
    if verb == "move":
        return len(args) >= 2
    if len(args) != 2:
        return False
    if scene is None:
        return True
    return all(scene.building.find(a) is not None for a in args)


def _int_arg(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise RuleError(f"{what} must be a whole number, not {word!r}") from None


OVERRIDE_HELP = (
    "fire AREA FD [hot|regular|cold]   start a fire (or feed the one there)\n"
    "fd AREA N                         set a fire's Fire Dice (0 puts it out)\n"
    "open|close|break AREA AREA        a door, window, wall or floor between two areas\n"
    "move HERO AREA                    put a hero somewhere\n"
    "end                               end the scene now"
)


class SceneOver(Exception):
    """The GM ended the scene (raised through the round so no one else is asked)."""


def find_hero(scene: Scene, name: str) -> Hero:
    """A hero by full name, or by the start of it (``Isabela`` for ``Isabela Soldano``) when
    that names only one."""
    low = name.lower().strip()
    for hero in scene.heroes:
        if hero.name.lower() == low:
            return hero
    hits = [h for h in scene.heroes if h.name.lower().startswith(low)] if low else []
    if len(hits) == 1:
        return hits[0]
    raise RuleError(f"no character named {name!r}" if not hits else f"{name!r} names "
                    f"{len(hits)} characters", tip="characters here: "
                    + ", ".join(h.name for h in scene.heroes))


def normalize_override(scene: Scene, text: str) -> str:
    """Check an override against the scene without changing anything; its canonical text.

    Raises :class:`RuleError` with what is wrong (so nothing half-happens)."""
    from fuego import gm
    from fuego.building import OPENABLE

    words = text.split()
    if words and words[0].lower() == "gm":
        words = words[1:]
    if not words:
        raise RuleError("an empty override", tip=OVERRIDE_HELP.splitlines()[0])
    verb, args = words[0].lower(), words[1:]
    b = scene.building
    if verb == "end":
        if args:
            raise RuleError("'end' takes nothing after it")
        return "end"
    if verb == "fire":
        if len(args) not in (2, 3):
            raise RuleError("fire AREA FD [hot|regular|cold]", tip="e.g. 'fire ground:C4 5'")
        area = b.area(args[0])
        fd = _int_arg(args[1], "Fire Dice")
        if not 1 <= fd <= 10:
            raise RuleError(f"Fire Dice must be 1-10, not {fd}")
        if not area.burnable:
            raise RuleError(f"nothing burns in {area.name}",
                            tip="pick an area with fuel that has not burned out")
        temp = ""
        if len(args) == 3:
            from fuego.tables import Temperature

            try:
                temp = " " + Temperature(args[2].lower()).value
            except ValueError:
                raise RuleError(f"unknown temperature {args[2]!r}",
                                tip="hot, regular or cold") from None
        return f"fire {area.name} {fd}{temp}"
    if verb == "fd":
        if len(args) != 2:
            raise RuleError("fd AREA N", tip="e.g. 'fd ground:C4 3' (0 puts it out)")
        area = b.area(args[0])
        fd = _int_arg(args[1], "Fire Dice")
        if area.index not in scene.fires:
            raise RuleError(f"no fire burns in {area.name}")
        if not 0 <= fd <= 10:
            raise RuleError(f"Fire Dice must be 0-10 (0 puts it out), not {fd}")
        return f"fd {area.name} {fd}"
    if verb in ("open", "close", "break"):
        if not args or len(args) > 2:
            raise RuleError(f"{verb} AREA AREA", tip=f"e.g. '{verb} ground:C4 ground:D4'")
        barrier = gm.find_barrier(scene, " ".join(args))
        if verb != "break" and barrier.kind not in OPENABLE:
            raise RuleError(f"the {barrier.describe()} at {barrier.name} cannot {verb}",
                            tip="only doors and windows open and close; 'break' it instead")
        if verb != "break" and barrier.destroyed:
            raise RuleError(f"the {barrier.describe()} at {barrier.name} is broken")
        if verb == "break" and barrier.passable and not (barrier.kind in OPENABLE
                                                         and not barrier.destroyed):
            raise RuleError(f"nothing to break at {barrier.name} ({barrier.describe()})")
        return f"{verb} {b.areas[barrier.a].name} {b.areas[barrier.b].name}"
    if verb == "move":
        if len(args) < 2:
            raise RuleError("move HERO AREA", tip="e.g. 'move Isabela ground:C4'")
        hero = find_hero(scene, " ".join(args[:-1]))
        area = b.area(args[-1])
        if not hero.present:
            raise RuleError(f"{hero.name} is {hero.status.value} and cannot be moved")
        return f"move {hero.name} {area.name}"
    raise RuleError(f"unknown override {verb!r}", tip="fire, fd, open, close, break, move, end")


def apply_override(scene: Scene, text: str) -> None:
    """Carry out a GM override (``fuego.gm``) from its text; ``end`` raises
    :class:`SceneOver` after ending the scene."""
    from fuego import gm

    canon = normalize_override(scene, text)
    verb, *args = canon.split()
    if verb == "end":
        gm.end_scene(scene)
        raise SceneOver()
    if verb == "fire":
        gm.start_fire(scene, args[0], int(args[1]), temperature=args[2] if len(args) > 2 else None)
    elif verb == "fd":
        gm.set_fire_dice(scene, args[0], int(args[1]))
    elif verb in ("open", "close", "break"):
        gm.barrier(scene, " ".join(args), verb)
    elif verb == "move":
        gm.move_hero(scene, " ".join(args[:-1]), args[-1])


# -- hero actions in words ------------------------------------------------------------------------
def action_words(scene: Scene, act: HeroAction) -> str:
    """A hero's action as recorded: ``describe``'s words, and for a module's action (a bucket
    chain, a blanket) its area too, so the same one is picked again on replay."""
    from fuego.hero_actions import HeroActionKind, describe

    if not isinstance(act.kind, HeroActionKind) and act.target is not None:
        text = f"{act.kind.value} {scene.area_name(act.target)}"
        return text + (f" {act.other}" if act.other else "")
    return describe(scene, act)


def resolve_action(scene: Scene, hero: Hero, text: str,
                   legal: list[HeroAction] | None = None) -> HeroAction:
    """The legal action ``text`` names: its recorded words exactly, else as ``parse_action``
    reads a GM's words (``move ground:C4``, ``open front door``). RuleError when none."""
    from fuego.hero_actions import options, parse_action

    from fuego.hero_actions import HeroActionKind

    legal = options(scene, hero) if legal is None else legal
    want = " ".join(text.split()).lower()
    for act in legal:
        if action_words(scene, act).lower() == want:
            return act
    verb, _, who = want.partition(" ")
    if verb == HeroActionKind.PUT_OUT_CLOTHES.value and who:  # a companion by first name
        try:
            name = find_hero(scene, who).name.lower()
        except RuleError:
            name = None
        for act in legal:
            if act.kind is HeroActionKind.PUT_OUT_CLOTHES and (act.other or "").lower() == name:
                return act
    return parse_action(scene, hero, text)


# -- playing a session -----------------------------------------------------------------------------
class Rewind(Exception):
    """Go back: keep the first ``keep`` answers and replay them (undo, or a failed override)."""

    def __init__(self, keep: int, message: str | None = None):
        super().__init__(message or f"rewind to {keep} answers")
        self.keep = keep
        self.message = message


class Quit(Exception):
    """The GM stops (quit, end of input): everything answered is already saved."""


@dataclass
class Question:
    """What the table is asked. ``kind``: ``round`` (the boundary before round ``round``),
    ``action`` (``hero``'s action die: ``choices`` numbered from 1, ``default`` the automatic
    hero's pick) or ``roll`` (``hero`` rolls ``pool`` against ``tn`` for ``purpose``)."""

    kind: str
    scene: Scene
    round: int
    phase: int = 0
    hero: Hero | None = None
    choices: list[HeroAction] = field(default_factory=list)
    default: HeroAction | None = None
    pool: Pool | None = None
    tn: int | None = None
    purpose: str = ""

    def key(self) -> dict[str, Any]:
        out: dict[str, Any] = {"q": self.kind, "round": self.round}
        if self.kind != "round":
            out["phase"] = self.phase
            out["hero"] = self.hero.name
        if self.kind == "roll":
            out["purpose"] = self.purpose
        return out


class Live(Protocol):
    """The table: asked only when the recorded answers have run out."""

    def answer(self, q: Question) -> str:
        """What the GM typed ("" for Enter). May raise :class:`Rewind` or :class:`Quit`."""

    def rejected(self, q: Question, error: FuegoError) -> None:
        """An answer that cannot be used: say why (the question is asked again)."""

    def recorded(self, player: Player) -> None:
        """A new answer was recorded (save now)."""

    def finished(self, player: Player) -> None:
        """The scene is over. Return to stop; may raise :class:`Rewind`."""


def undo_point(inputs: list[dict]) -> int | None:
    """How many answers to keep to go back to the start of the last round begun: to the moment
    its "before round N" prompt first showed, so the overrides typed there go too, and
    everything after. None: nothing to undo."""
    if not inputs:
        return None
    for k in range(len(inputs) - 1, -1, -1):
        e = inputs[k]
        if e.get("q") == "round" and "a" in e:
            i = k
            while i > 0 and inputs[i - 1].get("q") == "round" and \
                    inputs[i - 1].get("round") == e.get("round"):
                i -= 1
            return i
    return 0


def state_digest(scene: Scene) -> str:
    """A digest of everything play changes plus the random stream and the log's length."""
    body = json.dumps([scene.snapshot(), repr(scene.roller.getstate()), len(scene.log)],
                      sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(body.encode()).hexdigest()[:32]


class Player:
    """Plays a session: replays its answers, then asks ``live`` for new ones (recording each).

    ``build`` makes the scene (default: the session's scenario and seed). :meth:`run` plays to
    the end of the scene and returns it; :class:`Quit` from ``live`` passes through. A replay
    that no longer fits its answers (an answer for another question, an illegal action) raises
    :class:`SaveError`; a state digest that differs from the saved one is listed in
    ``warnings`` (the scene still plays).
    """

    def __init__(self, session: Session, live: Live, *,
                 build: Callable[[], Scene] | None = None,
                 attach: Callable[[Scene, Player], None] | None = None):
        self.session = session
        self.live = live
        self._build = build or session.build
        self._attach = attach
        self.scene: Scene | None = None
        self.pos = 0
        self.warnings: list[str] = []
        self.rewinds = 0
        #: why the last rewind happened (an undo, a failed override), for the table to say
        self.rewind_message: str | None = None
        self._auto = None
        self._unsaved = False

    # -- state -------------------------------------------------------------------------------
    @property
    def replaying(self) -> bool:
        return self.pos < len(self.session.inputs)

    @property
    def inputs(self) -> list[dict]:
        return self.session.inputs

    def position(self) -> dict[str, Any]:
        s = self.scene
        if s is None:
            return {}
        return {"round": s.round, "phase": s.phase, "events": len(s.log),
                "inputs": len(self.session.inputs), "ended": s.ended}

    def undo_point(self) -> int | None:
        return undo_point(self.session.inputs)

    # -- the loop ----------------------------------------------------------------------------
    def run(self) -> Scene:
        while True:
            try:
                return self._play()
            except Rewind as r:
                self.rewinds += 1
                self.rewind_message = r.message
                self.session.truncate(r.keep)
                self._unsaved = True  # saved once the replay is back at a question

    def _play(self) -> Scene:
        from fuego.controllers import AutoController
        from fuego.rounds import end_scene, finished, play_round, start_scene

        self.scene = scene = self._build()
        self.pos = 0
        self._auto = AutoController()
        scene.ask_roll = self._ask_roll
        if self._attach is not None:
            self._attach(scene, self)
        start_scene(scene)
        try:
            while not finished(scene):
                self._ask(Question("round", scene, scene.round + 1))
                if finished(scene):
                    break
                play_round(scene, self)
                self._check(scene)
        except SceneOver:
            pass
        end_scene(scene)
        if self.replaying:
            left = len(self.session.inputs) - self.pos
            self.warnings.append(f"the scene ended with {left} saved answers not replayed")
            del self.session.inputs[self.pos:]
        self.live.finished(self)
        return scene

    def _check(self, scene: Scene) -> None:
        digest = state_digest(scene)
        key = str(scene.round)
        saved = self.session.checks.get(key)
        if saved is not None and saved != digest:
            if not any("does not replay to the same state" in w for w in self.warnings):
                self.warnings.append(
                    f"round {scene.round} does not replay to the same state as when it was "
                    f"saved (a different fuego?); playing on from the replayed state")
        if saved != digest:
            self.session.checks[key] = digest
            if not self.replaying:
                self.live.recorded(self)

    # -- controller protocol (rounds.play_round calls these) ----------------------------------
    def round_start(self, scene: Scene) -> None:
        pass

    def choose(self, scene: Scene, hero: Hero, legal: list[HeroAction]) -> HeroAction | None:
        q = self._action_question(scene, hero, legal)
        entry = self._ask(q)
        if not hero.in_play or not hero.dice:
            return None  # an override took the hero out of play meanwhile: nothing to do
        if entry["a"] == "hold":
            return None
        try:
            return resolve_action(scene, hero, entry["a"])
        except FuegoError as exc:
            raise self._diverged(f"the saved action {entry['a']!r} is not legal now ({exc})")

    def roll(self, hero: Hero, pool: Pool, tn: int | None, purpose: str) -> int | None:
        return self._ask_roll(hero, pool, tn, purpose)

    def _ask_roll(self, hero: Hero, pool: Pool, tn: int | None, purpose: str) -> int | None:
        scene = self.scene
        q = Question("roll", scene, scene.round, scene.phase, hero, pool=pool, tn=tn,
                     purpose=purpose)
        entry = self._ask(q)
        return None if entry["a"] == "auto" else int(entry["a"])

    def _action_question(self, scene: Scene, hero: Hero, legal=None) -> Question:
        from fuego.hero_actions import options

        legal = options(scene, hero) if legal is None else legal
        state = scene.roller.getstate()  # the default must not move the random stream
        try:
            default = self._auto.choose(scene, hero, list(legal))
        finally:
            scene.roller.setstate(state)
        return Question("action", scene, scene.round, scene.phase, hero, choices=list(legal),
                        default=default)

    # -- asking -------------------------------------------------------------------------------
    def _diverged(self, why: str) -> SaveError:
        where = self.session.path or "the session"
        return SaveError(f"the saved answers no longer replay: answer {self.pos + 1} of "
                         f"{len(self.session.inputs)}: {why}", where=where,
                         tip="resume the .bak, or start the scene again")

    def _ask(self, q: Question) -> dict[str, Any]:
        """The answer to ``q`` (a recorded one, else the table's), carrying out any overrides
        given first."""
        while True:
            if self.replaying:
                entry = self.session.inputs[self.pos]
                want = q.key()
                got = {k: entry.get(k) for k in want}
                if got != want:
                    raise self._diverged(f"it answers {got}, but fuego asks {want}")
                self.pos += 1
                if "gm" in entry:
                    try:
                        apply_override(q.scene, entry["gm"])
                    except FuegoError as exc:
                        raise self._diverged(f"the override {entry['gm']!r} fails ({exc})")
                    q = self._refresh(q)
                    if q is None:
                        return {"a": "hold"}
                    continue
                return entry
            if self._unsaved:
                self._unsaved = False
                self.live.recorded(self)
            text = self.live.answer(q)
            try:
                entry = self._interpret(q, text)
            except FuegoError as exc:
                self.live.rejected(q, exc)
                continue
            if "gm" in entry:
                self._live_override(q, entry)
                q = self._refresh(q)
                if q is None:
                    return {"a": "hold"}  # the hero can no longer act: nothing to ask
                continue
            self._record(entry)
            return entry

    def _record(self, entry: dict[str, Any]) -> None:
        self.session.inputs.append(entry)
        self.pos = len(self.session.inputs)
        self.live.recorded(self)

    def _live_override(self, q: Question, entry: dict[str, Any]) -> None:
        scene = q.scene
        n_log = len(scene.log)
        self._record(entry)  # first: rolls the override asks for are answered after it
        keep = len(self.session.inputs) - 1
        try:
            apply_override(scene, entry["gm"])
        except FuegoError as exc:
            if len(scene.log) == n_log and len(self.session.inputs) == keep + 1:
                del self.session.inputs[keep:]
                self.pos = len(self.session.inputs)
                self.live.recorded(self)
                self.live.rejected(q, exc)
                return
            raise Rewind(keep, f"the override failed half-way and was undone: {exc.render()}")

    def _refresh(self, q: Question) -> Question | None:
        """The question again after an override (the hero's choices may have changed);
        None when the hero it asked about can no longer act."""
        if q.kind != "action":
            return q
        if not (q.hero.in_play and q.hero.dice) or q.scene.ended:
            return None
        return self._action_question(q.scene, q.hero)

    def _interpret(self, q: Question, text: str) -> dict[str, Any]:
        """The GM's words as a recorded answer (or a :class:`FuegoError` saying why not)."""
        text = " ".join(text.split())
        entry = q.key()
        low = text.lower()
        hero_words = q.kind == "action" and text and not low.startswith("gm ") and not (
            low.isdigit() or low in ("hold", "h"))
        if hero_words:  # a hero's action first: 'open shop door' is hers, not the GM's
            try:
                act = resolve_action(q.scene, q.hero, text, q.choices)
            except FuegoError:
                if not is_override(text, hero_prompt=True, scene=q.scene):
                    raise
            else:
                entry["a"] = action_words(q.scene, act)
                return entry
        if text and is_override(text, hero_prompt=q.kind == "action", scene=q.scene):
            entry["gm"] = normalize_override(q.scene, text)
            return entry
        if q.kind == "round":
            if low in ("", "next", "n"):
                entry["a"] = "next"
                return entry
            raise RuleError(f"{text!r} is not a command here",
                            tip="press Enter to play the round, or type help")
        if q.kind == "roll":
            if low in ("", "auto", "roll", "r"):
                entry["a"] = "auto"
                return entry
            try:
                total = int(text)
            except ValueError:
                raise RuleError(f"{text!r} is not a total",
                                tip="type the player's total (a number), or press Enter and "
                                    "fuego rolls") from None
            if total < 0:
                raise RuleError("a total cannot be negative")
            entry["a"] = total
            return entry
        # an action
        if low == "":
            entry["a"] = action_words(q.scene, q.default) if q.default is not None else "wait"
            return entry
        if low in ("hold", "h"):
            entry["a"] = "hold"
            return entry
        if low.isdigit():
            n = int(low)
            if not 1 <= n <= len(q.choices):
                raise RuleError(f"no choice {n}", tip=f"pick 1-{len(q.choices)}")
            entry["a"] = action_words(q.scene, q.choices[n - 1])
            return entry
        act = resolve_action(q.scene, q.hero, text, q.choices)
        entry["a"] = action_words(q.scene, act)
        return entry
