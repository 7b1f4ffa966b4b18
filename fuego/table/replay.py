"""Replaying a session: the :class:`Player` drives the scene from the saved answers, then
asks the table (a :class:`Live`) for new ones and records them; the :class:`Question` it asks,
undo (:class:`Rewind`, :func:`undo_point`) and the round's state digest. A hero's action is
recorded in its one text form (``HeroAction.text``) and read back by ``read_action``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol, cast

from fuego.engine.hero_actions import HeroActionKind
from fuego.engine.injury import Avoid
from fuego.errors import FuegoError, RuleError, SaveError
from fuego.table.commands import Command
from fuego.table.entry import is_whole, read_action_dice, read_roll
from fuego.table.overrides import (
    GM_WORD,
    MAX_NOTE,
    Override,
    apply_override,
    is_override,
    typed_override,
)


class Answer(str, Enum):
    """The saved answers that are words (an answer's ``a``; the others are a hero's action in
    its text form, a total or dice)."""

    #: a round boundary: play the round
    NEXT = "next"
    #: a round boundary once no hero is left to act: let the fire play out
    PLAY_OUT = "play-out"
    #: a roll or the action dice: fuego rolls them
    AUTO = "auto"
    #: an action: the hero holds the die for a later phase
    HOLD = "hold"


#: What the GM may type for each answer word (Enter, too, where a question has a default).
ANSWER_WORDS = {"next": Answer.NEXT, "n": Answer.NEXT, "play-out": Answer.PLAY_OUT,
                "auto": Answer.AUTO, "roll": Answer.AUTO, "r": Answer.AUTO,
                "hold": Answer.HOLD, "h": Answer.HOLD}


def answer_word(text: str) -> Answer | None:
    """The answer word ``text`` is (any case, spaces around), or None."""
    return ANSWER_WORDS.get(text.strip().lower())


class GivenBy(str, Enum):
    """Why the table answered a round boundary itself, recorded as the answer's ``by``. Undo by
    the answer passes over them to the last answer the GM gave."""

    #: the GM asked for rounds without stopping
    GO = "go"
    #: no hero left: the fire plays out
    PLAY_OUT = "play-out"


class ActionDice(str, Enum):
    """Who rolls the heroes' action dice: the session option :data:`ACTION_DICE_OPTION`."""

    FUEGO = "fuego"
    PLAYERS = "players"


#: The session option saying who rolls the heroes' action dice (:class:`ActionDice`).
ACTION_DICE_OPTION = "action_dice"

#: The longest answer the table reads: a note of the most characters, with its word.
MAX_ANSWER = MAX_NOTE + 50

if TYPE_CHECKING:
    from fuego.dice.roller import Pool
    from fuego.engine.controllers import AutoController, Controller
    from fuego.engine.hero_actions import HeroAction
    from fuego.engine.heroes import Hero
    from fuego.engine.loop import Outcome
    from fuego.engine.scene import Scene
    from fuego.table.session import Session


def spend_drama(scene: Scene, hero: Hero, n: int) -> None:
    """``hero`` spends ``n`` Drama Dice on the roll being made: one rolled and kept die each
    (RULES-NOTES, Drama Dice). Logged, so the log tells why the pool grew."""
    from fuego.engine.events import EventKind

    hero.drama -= n
    scene.emit(EventKind.HERO_ACTION, hero.name, hero.area, action="drama", dice=n,
               left=hero.drama)


# -- playing a session -----------------------------------------------------------------------------
class Rewind(Exception):
    """Go back: keep the first ``keep`` answers and replay them (undo, or a failed override)."""

    def __init__(self, keep: int, message: str | None = None):
        super().__init__(message or f"rewind to {keep} answers")
        self.keep = keep
        self.message = message


class Quit(Exception):
    """The GM stops (quit, end of input): everything answered is already saved."""


class Interrupted(Quit):
    """The GM pressed Ctrl-C at a prompt: saved like a quit, then play exits with 130."""


class QuestionKind(str, Enum):
    """What a :class:`Question` asks; its value is the saved answer's ``q``."""

    #: the boundary before round ``round``
    ROUND = "round"
    #: ``hero``'s action dice at the round's start, when the players roll them
    DICE = "dice"
    #: ``hero``'s action die: ``choices`` numbered from 1, ``default`` the automatic hero's pick
    ACTION = "action"
    #: ``hero`` rolls ``pool`` against ``tn`` for ``purpose``
    ROLL = "roll"
    #: the scene is over (undo, map, status): never saved
    END = "end"


#: The kinds a saved answer answers (``q``), in the order of a round.
SAVED_QUESTIONS = (QuestionKind.ROUND, QuestionKind.DICE, QuestionKind.ACTION, QuestionKind.ROLL)


@dataclass
class Question:
    """What the table is asked (:class:`QuestionKind`)."""

    kind: QuestionKind
    scene: Scene
    round: int
    phase: int = 0
    hero: Hero | None = None
    choices: list[HeroAction] = field(default_factory=list)
    default: HeroAction | None = None
    pool: Pool | None = None
    tn: int | None = None
    purpose: str = ""
    #: a round boundary at which no hero is left to act: the table offers to end the scene
    offer_end: bool = False
    #: the action dice fuego rolled (a ``dice`` question: the player may give their own)
    rolled: list[int] = field(default_factory=list)
    #: Drama Dice spent on this roll (``pool`` then includes them)
    drama: int = 0

    @property
    def actor(self) -> Hero:
        """The hero a dice, action or roll question is about."""
        assert self.hero is not None, f"a {self.kind.value} question names no hero"
        return self.hero

    @property
    def dice_pool(self) -> Pool:
        """The pool a roll question rolls."""
        assert self.pool is not None, f"a {self.kind.value} question rolls nothing"
        return self.pool

    def key(self) -> dict[str, Any]:
        out: dict[str, Any] = {"q": self.kind.value, "round": self.round}
        if self.kind is not QuestionKind.ROUND:
            out["phase"] = self.phase
            out["hero"] = self.actor.name
        if self.kind is QuestionKind.ROLL:
            out["purpose"] = self.purpose
        return out

    def answered_by(self, entry: dict[str, Any]) -> bool:
        """Does the saved answer ``entry`` answer this question (its :meth:`key`)? A save
        made before the debris roll had its own purpose named it as the fire's."""
        want = self.key()
        got = {k: entry.get(k) for k in want}
        if got == want:
            return True
        purpose = want.get("purpose", "")
        older = purpose.replace(Avoid.DEBRIS.value, Avoid.FIRE.value, 1)
        return older != purpose and got == {**want, "purpose": older}


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

    # A table may also offer ``rolled(q, total, asked)``: told the total of every hero's roll
    # made live (``asked`` False: it could not fail, so nobody was asked), and ``given(q)``:
    # a round boundary it answers itself, without asking (the reason, a GivenBy, or
    # None to ask). Both are optional.


def answer_point(inputs: list[dict]) -> int | None:
    """How many answers to keep to undo the last answer the GM gave (an action, a roll, an
    override, a round boundary), with the round boundaries the table answered itself after it
    (``by``: go, play-out): its question is then asked again. None: nothing to undo."""
    for k in range(len(inputs) - 1, -1, -1):
        if "by" not in inputs[k]:
            return k
    return None


def undo_point(inputs: list[dict]) -> int | None:
    """How many answers to keep to go back to the start of the last round begun: to the moment
    its "before round N" prompt first showed, so the overrides typed there go too, and
    everything after. None: nothing to undo."""
    if not inputs:
        return None
    for k in range(len(inputs) - 1, -1, -1):
        e = inputs[k]
        if e.get("q") == QuestionKind.ROUND.value and "a" in e:
            i = k
            while i > 0 and inputs[i - 1].get("q") == QuestionKind.ROUND.value and \
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
    the end of the scene and returns it (``outcome``: how it ended); :class:`Quit` from ``live``
    passes through. A replay
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
        self._auto: AutoController | None = None
        self._unsaved = False
        #: how the scene ended (None while it plays)
        self.outcome: Outcome | None = None

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
        out: dict[str, Any] = {"round": s.round, "phase": s.phase, "events": len(s.log),
               "inputs": len(self.session.inputs), "ended": s.ended}
        if self.outcome is not None:
            out["outcome"] = self.outcome.to_dict()
        return out

    def undo_point(self) -> int | None:
        """Where ``undo round`` goes back to (:func:`undo_point`)."""
        return undo_point(self.session.inputs)

    def answer_point(self) -> int | None:
        """Where ``undo`` goes back to: before the last answer given (:func:`answer_point`)."""
        return answer_point(self.session.inputs)

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
        from fuego.engine.controllers import AutoController
        from fuego.engine.loop import NO_ROUND_LIMIT, run
        from fuego.engine.plans import PlanController

        self.scene = scene = self._build()
        self.pos = 0
        self.outcome = None
        plans = self.session.plans  # the suggested choice follows the scenario's plan: (fight..)
        self._auto = PlanController(plans) if plans is not None else AutoController()
        scene.ask_roll = self._ask_roll
        if self._attach is not None:
            self._attach(scene, self)
        # no round limit at the table; the Player is a Controller by its methods
        self.outcome = run(scene, cast("Controller", self), self._check, NO_ROUND_LIMIT,
                           between=self._before_round)
        if self.replaying:
            left = len(self.session.inputs) - self.pos
            self.warnings.append(f"the scene ended with {left} saved answers not replayed")
            del self.session.inputs[self.pos:]
        self.live.finished(self)
        return scene

    def _before_round(self, scene: Scene) -> None:
        """The boundary before the next round: the GM plays it, or types overrides first (which
        may end the scene)."""
        self._ask(Question(QuestionKind.ROUND, scene, scene.round + 1,
                           offer_end=self._offer_end(scene)))

    def _offer_end(self, scene: Scene) -> bool:
        """No hero left to act (all out, down or dead) and the GM has not yet chosen to let the
        fire play out: the round boundary offers to end the scene."""
        if not scene.heroes or any(h.in_play for h in scene.heroes):
            return False
        return not any(e.get("a") == Answer.PLAY_OUT for e in self.session.inputs[:self.pos])

    def _check(self, scene: Scene) -> None:
        """After a round: its state's digest, checked against the saved one (or saved)."""
        if scene.round == 0:
            return
        digest = state_digest(scene)
        key = str(scene.round)
        saved = self.session.checks.get(key)
        if saved is not None and saved != digest and not any(
                "does not replay to the same state" in w for w in self.warnings):
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
        if entry["a"] == Answer.HOLD:
            return None
        try:
            from fuego.engine.hero_actions import read_action

            return read_action(scene, hero, entry["a"])
        except FuegoError as exc:
            raise self._diverged(f"the saved action {entry['a']!r} is not legal now "
                                 f"({exc})") from None

    def action_dice(self, scene: Scene, hero: Hero, rolled: list[int]) -> list[int] | None:
        """The player's own action dice when the session lets players roll them (else None:
        fuego's roll stands). fuego has rolled them first either way, so the random stream is
        the same whoever rolls."""
        if self.session.options.get(ACTION_DICE_OPTION) != ActionDice.PLAYERS:
            return None
        q = Question(QuestionKind.DICE, scene, scene.round, scene.phase, hero, rolled=list(rolled))
        entry = self._ask(q)
        return None if entry["a"] == Answer.AUTO else sorted(int(d) for d in entry["a"])

    def roll(self, hero: Hero, pool: Pool, tn: int | None, purpose: str) -> int | None:
        return self._ask_roll(hero, pool, tn, purpose)

    def _ask_roll(self, hero: Hero, pool: Pool, tn: int | None, purpose: str) -> int | None:
        """The player's total, or fuego's roll of the same pool (the draw the engine would make
        itself), which the table is told; a roll that cannot fail is not asked."""
        from fuego.table.risk import certain

        scene = self.scene
        assert scene is not None, "a roll is asked while a scene plays"
        q = Question(QuestionKind.ROLL, scene, scene.round, scene.phase, hero, pool=pool, tn=tn,
                     purpose=purpose)
        if certain(pool, tn) and not self._saved_for(q):  # (older saves asked these too)
            total = scene.roller.total(pool)
            self._tell(q, total, asked=False)
            return total
        entry = self._ask(q)
        drama = int(entry.get("drama", 0))
        if drama:
            spend_drama(scene, hero, drama)
            pool = pool.with_kept(drama)
            q.pool, q.drama = pool, drama
        total = scene.roller.total(pool) if entry["a"] == Answer.AUTO else int(entry["a"])
        self._tell(q, total, asked=True)
        return total

    def _saved_for(self, q: Question) -> bool:
        """The next saved answer answers ``q`` itself."""
        if not self.replaying:
            return False
        entry = self.session.inputs[self.pos]
        return "a" in entry and q.answered_by(entry)

    def _tell(self, q: Question, total: int, asked: bool) -> None:
        if not self.replaying:
            told = getattr(self.live, "rolled", None)
            if told is not None:
                told(q, total, asked)

    def _action_question(self, scene: Scene, hero: Hero, legal=None) -> Question:
        from fuego.engine.hero_actions import options

        legal = options(scene, hero) if legal is None else legal
        state = scene.roller.getstate()  # the default must not move the random stream
        assert self._auto is not None, "actions are asked while a scene plays"
        try:
            default = self._auto.choose(scene, hero, list(legal))
        finally:
            scene.roller.setstate(state)
        return Question(QuestionKind.ACTION, scene, scene.round, scene.phase, hero, choices=list(legal),
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
            entry = self._saved_answer(q) if self.replaying else self._live_answer(q)
            if entry is None:  # rejected: asked again
                continue
            if "gm" not in entry:
                return entry
            again = self._refresh(q)  # an override was carried out: the question again
            if again is None:
                return {"a": Answer.HOLD.value}  # the hero can no longer act: nothing to ask
            q = again

    def _saved_answer(self, q: Question) -> dict[str, Any]:
        """The next saved answer, which must answer ``q``; an override in it carried out."""
        entry = self.session.inputs[self.pos]
        if not q.answered_by(entry):
            want = q.key()
            got = {k: entry.get(k) for k in want}
            raise self._diverged(f"it answers {got}, but fuego asks {want}")
        self.pos += 1
        if "gm" in entry:
            try:
                apply_override(q.scene, entry["gm"])
            except FuegoError as exc:
                raise self._diverged(f"the override {entry['gm']!r} fails ({exc})") from None
        return entry

    def _live_answer(self, q: Question) -> dict[str, Any] | None:
        """The table's answer to ``q``, recorded (an override in it carried out); None when
        the table's words were rejected."""
        if self._unsaved:
            self._unsaved = False
            self.live.recorded(self)
        given = getattr(self.live, "given", None)
        by = given(q) if given is not None and q.kind is QuestionKind.ROUND else None
        if by is not None:  # the table plays on by itself: recorded as its own answer
            entry = {**q.key(), "a": Answer.NEXT.value, "by": GivenBy(by).value}
            self._record(entry)
            return entry
        text = self.live.answer(q)
        try:
            entry = self._interpret(q, text)
        except FuegoError as exc:
            self.live.rejected(q, exc)
            return None
        if "gm" in entry:
            self._live_override(q, entry)
        else:
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
            raise Rewind(keep, f"the override failed half-way and was undone: "
                               f"{exc.render()}") from None

    def _refresh(self, q: Question) -> Question | None:
        """The question again after an override (the hero's choices may have changed);
        None when the hero it asked about can no longer act."""
        if q.kind is not QuestionKind.ACTION:
            return q
        if not (q.actor.in_play and q.actor.dice) or q.scene.ended:
            return None
        return self._action_question(q.scene, q.actor)

    def _interpret(self, q: Question, text: str) -> dict[str, Any]:
        """The GM's words as a recorded answer (or a :class:`FuegoError` saying why not); a
        hero's action is recorded in its one text form (``HeroAction.text``)."""
        text = " ".join(text.split())
        if len(text) > MAX_ANSWER:  # a paste gone astray: not quoted back whole
            raise RuleError(f"{len(text)} characters is longer than any answer (at most "
                            f"{MAX_ANSWER})", tip="a choice's number, an action's words or a "
                                                  "command: help lists them")
        entry = q.key()
        if q.kind is QuestionKind.ACTION and self._hero_words(q, text):
            try:  # a hero's action first: 'open shop door' is hers, not the GM's
                entry["a"] = _read_action(q, text)
                return entry
            except RuleError:
                if not is_override(text, hero_prompt=True, scene=q.scene):
                    raise
        if text and is_override(text, hero_prompt=q.kind is QuestionKind.ACTION, scene=q.scene):
            entry["gm"] = typed_override(q.scene, text)  # (a save's replay: apply_override)
            return entry
        return _ANSWERS[q.kind](q, text, entry)

    @staticmethod
    def _hero_words(q: Question, text: str) -> bool:
        """Words that may be a hero's action: not empty, not the GM's, a choice's number or
        ``hold``."""
        low = text.lower()
        return bool(text) and not low.startswith(GM_WORD + " ") and not (
            (low.isascii() and low.isdigit()) or answer_word(low) is Answer.HOLD)


#: A roll's ``drama`` before the total or dice: one Drama Die spent on it, each.
DRAMA_WORD = "drama"


# Each question's answer read from the GM's words (no override): (question, text, the entry
# its key begins) -> the entry.
def _round_answer(q: Question, text: str, entry: dict[str, Any]) -> dict[str, Any]:
    low = text.lower()
    word = answer_word(low)
    if not low or word in (Answer.NEXT, Answer.PLAY_OUT):
        entry["a"] = (word or Answer.NEXT).value
        return entry
    raise RuleError(f"{text!r} is not a command here",
                    tip="press Enter to play the round, or type help" + _near(low))


def _dice_answer(q: Question, text: str, entry: dict[str, Any]) -> dict[str, Any]:
    if not text or answer_word(text) is Answer.AUTO:
        entry["a"] = Answer.AUTO.value
        return entry
    entry["a"] = read_action_dice(text, len(q.rolled))
    return entry


def _roll_answer(q: Question, text: str, entry: dict[str, Any]) -> dict[str, Any]:
    words = text.split()
    drama = 0
    while words and words[0].lower() == DRAMA_WORD:
        drama += 1
        words.pop(0)
    if drama:
        left = q.actor.drama
        if drama > left:
            raise RuleError(f"{q.actor.name} has {left} Drama Di{'e' if left == 1 else 'ce'}"
                            f" left, not {drama}",
                            tip=f"one 'drama' for each die spent, at most {left}")
        entry["drama"] = drama
        text = " ".join(words)
    if not text or answer_word(text) is Answer.AUTO:
        entry["a"] = Answer.AUTO.value
        return entry
    try:
        total, dice = read_roll(text, q.dice_pool.with_kept(drama) if drama else q.dice_pool)
    except RuleError as exc:
        raise _with_hint(exc, text.lower()) from None
    entry["a"] = total
    if dice is not None:
        entry["dice"] = text
    return entry


def _action_answer(q: Question, text: str, entry: dict[str, Any]) -> dict[str, Any]:
    low = text.lower()
    if not low:
        entry["a"] = (q.default.text(q.scene) if q.default is not None
                      else HeroActionKind.WAIT.value)
        return entry
    if answer_word(low) is Answer.HOLD:
        entry["a"] = Answer.HOLD.value
        return entry
    if low.isascii() and low.isdigit():  # not isdecimal: int() reads "٣"
        if not is_whole(low):
            raise RuleError(f"no choice {low[:12]}...", tip=f"pick 1-{len(q.choices)}")
        n = int(low)
        if not 1 <= n <= len(q.choices):
            raise RuleError(f"no choice {n}", tip=f"pick 1-{len(q.choices)}")
        entry["a"] = q.choices[n - 1].text(q.scene)
        return entry
    entry["a"] = _read_action(q, text)
    return entry


def _read_action(q: Question, text: str) -> str:
    """A hero's action from its words (against the legal choices), in its one text form; a
    :class:`RuleError` with the nearest command else."""
    from fuego.engine.hero_actions import read_action

    try:
        return read_action(q.scene, q.actor, text, q.choices).text(q.scene)
    except RuleError as exc:
        raise _with_hint(exc, text.lower(), [a.kind.value for a in q.choices]) from None


_ANSWERS: dict[QuestionKind, Callable[[Question, str, dict[str, Any]], dict[str, Any]]] = {
    QuestionKind.ROUND: _round_answer, QuestionKind.DICE: _dice_answer,
    QuestionKind.ROLL: _roll_answer, QuestionKind.ACTION: _action_answer,
}


def _with_hint(exc: RuleError, text: str, more: list[str] | None = None) -> RuleError:
    """``exc`` with the nearest command to a mistyped first word added to its tip."""
    hint = _near(text, more)
    if hint and hint.lstrip("; ") not in (exc.tip or ""):  # said once (the action's own tip)
        exc.tip = f"{exc.tip}{hint}" if exc.tip else hint.lstrip("; ")
        exc.args = (exc.render(),)
    return exc


#: The table's words at every prompt (a mistyped one is answered with the nearest).
TABLE_WORDS = (*(c.value for c in Command), Answer.HOLD.value, HeroActionKind.WAIT.value,
               *(o.value for o in Override), Answer.PLAY_OUT.value)


def _near(text: str, more: list[str] | None = None) -> str:
    """``; did you mean 'status'?`` for a mistyped first word, else ''."""
    import difflib

    word = text.split()[0] if text.split() else ""
    if not word:
        return ""
    hits = difflib.get_close_matches(word, list(dict.fromkeys([*(more or []), *TABLE_WORDS])),
                                     n=1, cutoff=0.7)
    return f"; did you mean {hits[0]!r}?" if hits and hits[0] != word else ""
