"""GM overrides at the table: which words are an override (rather than a hero's action), the
check of one against the scene (its canonical text, recorded in the session), and carrying it
out through ``fuego.table.gm``.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING

from fuego.engine.heroes import Status
from fuego.engine.injury import BurnSource
from fuego.engine.loop import SceneOver
from fuego.engine.structure import BarrierAct
from fuego.errors import RuleError
from fuego.modules.firefighting import BLAST_MIN, too_small
from fuego.rules.charts import Rank, Temperature
from fuego.rules.formulas import is_fire_dice
from fuego.table import gm
from fuego.table.gm import Shown, WoundKind
from fuego.text import UNSAFE_LINE, terminal
from fuego.words import plural, the

if TYPE_CHECKING:
    from fuego.engine.scene import Scene

class Override(str, Enum):
    """A GM override, by its first word (``fuego.table.gm``; :data:`OVERRIDE_HELP` says each).
    ``open``/``close``/``move`` are overrides only with two arguments (with one they are a
    hero's action)."""

    FIRE = "fire"
    FD = "fd"
    OPEN = "open"
    CLOSE = "close"
    BREAK = "break"
    MOVE = "move"
    END = "end"
    WOUND = "wound"
    ADD = "add"
    REMOVE = "remove"
    BURN = "burn"
    EXPLODE = "explode"
    BLAST = "blast"
    REVEAL = "reveal"
    HIDE = "hide"
    NOTE = "note"


#: The word that makes the rest an override whatever follows (``gm open front door``).
GM_WORD = "gm"
#: Overrides whose first word may also be a hero's action.
_HERO_WORDS = frozenset({Override.OPEN, Override.CLOSE, Override.MOVE})
#: The overrides that act on a barrier, and what each does to it.
_BARRIER_ACTS = {Override.OPEN: BarrierAct.OPEN, Override.CLOSE: BarrierAct.CLOSE,
                 Override.BREAK: BarrierAct.BREAK}
#: ``add``'s flag for a character the GM plays.
NPC_WORD = "npc"
#: The farthest an explosion reaches, in areas (the script's ``explode`` limit).
MAX_BLAST_RADIUS = 10
#: The longest ``note`` (a line on the players' screen, not a page).
MAX_NOTE = 200
#: ``wound`` kinds as typed -> as recorded.
WOUND_KINDS = {"fw": WoundKind.FLESH, "flesh": WoundKind.FLESH, "dw": WoundKind.DRAMATIC,
               "dramatic": WoundKind.DRAMATIC}
#: At most this many wounds at once (a typo, not a blow, past it).
MAX_WOUNDS = 100


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
    if words[0].lower() == GM_WORD:
        return True
    verb, args = read_verb(words[0]), words[1:]
    if verb is None:
        return False
    if not hero_prompt or verb not in _HERO_WORDS:
        return True
    if verb is Override.MOVE:
        return len(args) >= 2
    if len(args) != 2:
        return False
    if scene is None:
        return True
    return all(scene.building.find(a) is not None for a in args)


def read_verb(word: str) -> Override | None:
    """The override ``word`` names (any case), or None."""
    try:
        return Override(word.lower())
    except ValueError:
        return None


def _int_arg(word: str, what: str) -> int:
    if not (word.isascii() and word.lstrip("-").isdigit()) or len(word) > 6:
        shown = word if len(word) <= 12 else word[:12] + "..."
        raise RuleError(f"{what} must be a whole number, not {shown!r}")
    return int(word)


def _fire_dice_arg(word: str) -> int:
    """A fire's Fire Dice given at the table: a whole number on the 1-10 scale."""
    fd = _int_arg(word, "Fire Dice")
    if not is_fire_dice(fd):
        raise RuleError(f"Fire Dice must be 1-10, not {fd}")
    return fd


OVERRIDE_HELP = (
    "fire AREA FD [hot|regular|cold]   start a fire (or feed the one there)\n"
    "fd AREA N                         set a fire's Fire Dice (0 puts it out)\n"
    "open|close|break AREA AREA|NAME   a door, window, wall or floor: its two areas or its\n"
    "                                  name (any case)\n"
    "move HERO AREA                    put a hero or NPC anywhere (back in, if escaped)\n"
    "wound HERO N [fw|dw]              N Flesh Wounds (a wound check follows); dw: Dramatic\n"
    "                                  Wounds\n"
    "burn HERO FD jet|magic|object|oil  fire strikes a hero (jet, magic, oil: per 10)\n"
    "explode AREA FD [RADIUS]          an explosion: hot fire on all in reach (radius 1)\n"
    f"blast AREA [DICE]                 a blast that blows out fires within 2 areas ({BLAST_MIN}+ dice)\n"
    "add NAME AREA [npc] [henchman|villain]  a new character (Traits 2) steps in\n"
    "remove HERO                       take a character out of the scene\n"
    "reveal [all|LEVEL|ROOM]           show the players' screen the building, a level or a room\n"
    "hide [all|LEVEL|ROOM]             take a reveal back (the heroes' own sight stays)\n"
    "note TEXT                         a line of your own on the players' screen\n"
    "end                               end the scene now"
)


def normalize_override(scene: Scene, text: str) -> str:
    """Check an override against the scene without changing anything; its canonical text.

    Raises :class:`RuleError` with what is wrong (so nothing half-happens)."""
    words = text.split()
    if words and words[0].lower() == GM_WORD:
        words = words[1:]
    if not words:
        raise RuleError("an empty override", tip=OVERRIDE_HELP.splitlines()[0])
    verb = read_verb(words[0])
    if verb is None:
        raise RuleError(f"unknown override {words[0].lower()!r}",
                        tip="fire, fd, open, close, break, move, wound, burn, explode, blast, "
                            "add, remove, reveal, hide, note, end")
    return _CHECKS[verb](scene, verb, words[1:])


# Each override's check: (scene, its verb, the words after it) -> its canonical text.
def _check_end(scene: Scene, verb: Override, args: list[str]) -> str:
    if args:
        raise RuleError("'end' takes nothing after it")
    return verb.value


def _check_fire(scene: Scene, verb: Override, args: list[str]) -> str:
    if len(args) not in (2, 3):
        raise RuleError("fire AREA FD [hot|regular|cold]", tip="e.g. 'fire ground:C4 5'")
    area = scene.building.area(args[0])
    fd = _fire_dice_arg(args[1])
    if not area.burnable:
        raise RuleError(f"nothing burns in {area.name}",
                        tip="pick an area with fuel that has not burned out")
    temp = ""
    if len(args) == 3:
        try:
            temp = " " + Temperature(args[2].lower()).value
        except ValueError:
            raise RuleError(f"unknown temperature {args[2]!r}",
                            tip="hot, regular or cold") from None
    return f"fire {area.name} {fd}{temp}"


def _check_fd(scene: Scene, verb: Override, args: list[str]) -> str:
    if len(args) != 2:
        raise RuleError("fd AREA N", tip="e.g. 'fd ground:C4 3' (0 puts it out)")
    area = scene.building.area(args[0])
    fd = _int_arg(args[1], "Fire Dice")
    if area.index not in scene.fires:
        raise RuleError(f"no fire burns in {area.name}")
    if not (fd == 0 or is_fire_dice(fd)):
        raise RuleError(f"Fire Dice must be 0-10 (0 puts it out), not {fd}")
    return f"fd {area.name} {fd}"


def _check_barrier(scene: Scene, verb: Override, args: list[str]) -> str:
    from fuego.world.places import OPENABLE

    word, act = verb.value, _BARRIER_ACTS[verb]
    if not args:  # (a name may be any number of words: "cellar trap door")
        raise RuleError(f"{word} AREA AREA or {word} NAME",
                        tip=f"e.g. '{word} ground:C4 ground:D4' or '{word} front door'")
    barrier = gm.find_barrier(scene, " ".join(args))
    if act is not BarrierAct.BREAK and barrier.kind not in OPENABLE:
        raise RuleError(f"the {barrier.describe()} at {barrier.name} cannot {word}",
                        tip="only doors and windows open and close; 'break' it instead")
    if act is not BarrierAct.BREAK and barrier.destroyed:
        raise RuleError(f"the {barrier.describe()} at {barrier.name} is broken")
    if act is BarrierAct.BREAK and barrier.passable and not (barrier.kind in OPENABLE
                                                             and not barrier.destroyed):
        raise RuleError(f"nothing to break at {barrier.name} ({barrier.describe()})")
    b = scene.building
    return f"{word} {b.areas[barrier.a].name} {b.areas[barrier.b].name}"


def _check_move(scene: Scene, verb: Override, args: list[str]) -> str:
    if len(args) < 2:
        raise RuleError("move HERO AREA", tip="e.g. 'move Isabela ground:C4'")
    hero = scene.hero(" ".join(args[:-1]))
    area = scene.building.area(args[-1])
    if hero.status is Status.DEAD:
        raise RuleError(f"{hero.name} is dead and cannot be moved")
    return f"move {hero.name} {area.name}"


def _check_wound(scene: Scene, verb: Override, args: list[str]) -> str:
    kind = WoundKind.FLESH
    if args and args[-1].lower() in WOUND_KINDS:
        kind = WOUND_KINDS[args.pop().lower()]
    if len(args) < 2:
        raise RuleError("wound HERO N [fw|dw]", tip="e.g. 'wound Isabela 8' (Flesh Wounds) "
                                                    "or 'wound Isabela 1 dw'")
    hero = scene.hero(" ".join(args[:-1]))
    n = _int_arg(args[-1], "the number of wounds")
    if not 1 <= n <= MAX_WOUNDS:
        raise RuleError(f"wounds must be 1-{MAX_WOUNDS}, not {n}")
    if hero.status is Status.DEAD:
        raise RuleError(f"{hero.name} is dead")
    return f"wound {hero.name} {n} {kind.value}"


def _burn_source(word: str) -> BurnSource | None:
    try:
        return BurnSource(word.lower())
    except ValueError:
        return None


def _check_burn(scene: Scene, verb: Override, args: list[str]) -> str:
    by = _burn_source(args[-1]) if args else None
    if len(args) < 3 or by is None:
        raise RuleError("burn HERO FD jet|magic|object|oil",
                        tip="e.g. 'burn Isabela 4 jet' (a jet of burning gas)")
    fd = _fire_dice_arg(args[-2])
    hero = scene.hero(" ".join(args[:-2]))
    if not hero.present:
        raise RuleError(f"{hero.name} is not in the scene")
    return f"burn {hero.name} {fd} {by.value}"


def _check_explode(scene: Scene, verb: Override, args: list[str]) -> str:
    if len(args) not in (2, 3):
        raise RuleError("explode AREA FD [RADIUS]", tip="e.g. 'explode cellar:C3 8 2'")
    area = scene.building.area(args[0])
    fd = _fire_dice_arg(args[1])
    radius = _int_arg(args[2], "the radius") if len(args) == 3 else 1
    if not 0 <= radius <= MAX_BLAST_RADIUS:
        raise RuleError(f"the radius must be 0-{MAX_BLAST_RADIUS} areas, not {radius}")
    return f"explode {area.name} {fd} {radius}"


def _check_blast(scene: Scene, verb: Override, args: list[str]) -> str:
    if len(args) not in (1, 2):
        raise RuleError("blast AREA [DICE]", tip="e.g. 'blast ground:C4 4'")
    area = scene.building.area(args[0])
    dice = _int_arg(args[1], "the blast's dice") if len(args) == 2 else BLAST_MIN
    if not is_fire_dice(dice):  # (an explosion is rated like a fire: 003)
        raise RuleError(f"the blast's dice must be 1-10, not {dice}")
    small = too_small(dice)  # (refused as fuego check refuses a script's: it would only fizzle)
    if small is not None:
        raise small
    return f"blast {area.name} {dice}"


def _add_flags(args: list[str]) -> tuple[bool, Rank]:
    """``add``'s flags, taken off the end of ``args``: an NPC? and the rank (the last given of
    henchman or villain; a hero else)."""
    npc, ranks = False, []
    while args:
        word = args[-1].lower()
        if word == NPC_WORD:
            npc = True
        else:
            try:
                ranks.append(Rank(word))
            except ValueError:
                break
        args.pop()
    return npc, next((r for r in ranks if r is not Rank.HERO), Rank.HERO)


def _check_add(scene: Scene, verb: Override, args: list[str]) -> str:
    npc, rank = _add_flags(args)
    if len(args) < 2:
        raise RuleError("add NAME AREA [npc] [henchman|villain]",
                        tip="e.g. 'add Watchman Pierre ground:G6 npc henchman'")
    area = scene.building.area(args[-1])
    name = " ".join(args[:-1])
    if len(name) > 60:
        raise RuleError("a character's name is at most 60 characters")
    if UNSAFE_LINE.search(name):  # a save's answer comes from a file too
        raise RuleError(f"a character's name is printable text: {terminal(name)!r} "
                        "holds a control character")
    if any(h.name.lower() == name.lower() for h in scene.heroes):
        raise RuleError(f"there is already a character named {name!r}")
    return f"add {name} {area.name}" + (f" {NPC_WORD}" if npc else "") + \
        (f" {rank.value}" if rank is not Rank.HERO else "")


def _check_remove(scene: Scene, verb: Override, args: list[str]) -> str:
    if not args:
        raise RuleError("remove HERO", tip="e.g. 'remove Mother Hettie'")
    return f"remove {scene.hero(' '.join(args)).name}"


def _check_shown(scene: Scene, verb: Override, args: list[str]) -> str:
    return f"{verb.value} {shown(scene, ' '.join(args))}"


def _check_note(scene: Scene, verb: Override, args: list[str]) -> str:
    note = " ".join(args)
    if not note:
        raise RuleError("note TEXT", tip="e.g. 'note The roof timbers groan overhead'")
    if len(note) > MAX_NOTE:
        raise RuleError(f"a note is at most {MAX_NOTE} characters, not {len(note)}")
    return f"note {note}"


_Check = Callable[["Scene", Override, list[str]], str]
_CHECKS: dict[Override, _Check] = {
    Override.END: _check_end, Override.FIRE: _check_fire, Override.FD: _check_fd,
    Override.OPEN: _check_barrier, Override.CLOSE: _check_barrier,
    Override.BREAK: _check_barrier, Override.MOVE: _check_move, Override.WOUND: _check_wound,
    Override.BURN: _check_burn, Override.EXPLODE: _check_explode, Override.BLAST: _check_blast,
    Override.ADD: _check_add, Override.REMOVE: _check_remove, Override.REVEAL: _check_shown,
    Override.HIDE: _check_shown, Override.NOTE: _check_note,
}


def shown(scene: Scene, what: str) -> str:
    """What ``reveal``/``hide`` names, in its canonical words: ``all``, ``level NAME`` or
    ``room KEY`` (typed as ``all`` or nothing, a level's name, a room's key or name, or with
    ``level``/``room`` before it)."""
    b = scene.building
    low = " ".join(what.split()).lower()
    if not low or _shown_kind(low) is Shown.ALL:
        return Shown.ALL.value
    first, _, rest = low.partition(" ")
    kind = _shown_kind(first) if rest else None
    if kind is None or kind is Shown.ALL:
        kind, rest = None, low
    levels = [lv.name for lv in b.levels if lv.name.lower() == rest]
    rooms = [k for k, r in b.rooms.items() if rest in (k.lower(), (r.name or "").lower())]
    if kind is not Shown.ROOM and levels:
        return f"{Shown.LEVEL.value} {levels[0]}"
    if kind is not Shown.LEVEL and rooms:
        return f"{Shown.ROOM.value} {rooms[0]}"
    raise RuleError(f"no {kind.value if kind else 'level or room'} {what.strip()!r}",
                    tip="all, a level (" + ", ".join(lv.name for lv in b.levels)
                        + ") or a room's key or name (look ROOM names them)")


def _shown_kind(word: str) -> Shown | None:
    try:
        return Shown(word)
    except ValueError:
        return None


def typed_override(scene: Scene, text: str) -> str:
    """An override the GM types at a prompt: :func:`normalize_override`'s canonical text, or a
    RuleError when it is wrong or would change nothing (a door shut that is shut, a fire set to
    the Fire Dice it has, a hero moved to where they stand, a room revealed that is, a hide of
    what was never revealed): refused, not logged or saved.
    Only the prompt refuses what changes nothing; a save that holds one replays it
    (:func:`apply_override`), as the scene it was played in did."""
    canonical = normalize_override(scene, text)
    word, *args = canonical.split()
    idle = _IDLE.get(Override(word))
    why = idle(scene, args) if idle is not None else None
    if why is not None:
        raise RuleError(why)
    return canonical


# Each override that can change nothing: why it would (None: it changes something), read from
# its canonical words after the verb.
def _idle_barrier(shut: bool) -> Callable[[Scene, list[str]], str | None]:
    def idle(scene: Scene, args: list[str]) -> str | None:
        barrier = gm.find_barrier(scene, " ".join(args))
        if barrier.closed is not shut:
            return None
        named = the(barrier.label) if barrier.label else (
            f"the {barrier.kind.value} between {scene.area_name(barrier.a)} and "
            f"{scene.area_name(barrier.b)}")
        return f"{named} is already {'shut' if shut else 'open'}"
    return idle


def _idle_fd(scene: Scene, args: list[str]) -> str | None:
    fire = scene.fires[scene.building.area(args[0]).index]
    return (f"the fire at {args[0]} already has {plural(fire.fd, 'Fire Die', 'Fire Dice')}"
            if fire.fd == int(args[1]) else None)


def _idle_move(scene: Scene, args: list[str]) -> str | None:
    hero = scene.hero(" ".join(args[:-1]))
    there = scene.building.area(args[-1]).index
    return (f"{hero.name} already stands at {args[-1]}"
            if hero.area == there and hero.status is not Status.ESCAPED else None)


def _idle_shown(reveal: bool) -> Callable[[Scene, list[str]], str | None]:
    def idle(scene: Scene, args: list[str]) -> str | None:
        b = scene.building
        areas = gm.shown_areas(b, args[0], " ".join(args[1:]) or None)
        shown = gm.revealed(scene)
        if (areas <= shown) if reveal else not (areas & shown):
            what = _shown_words(scene, Shown(args[0]), " ".join(args[1:]))
            return (f"the players' screen already shows {what}" if reveal else
                    f"you have not revealed {what} (the heroes' own sight is not yours to "
                    "hide)")
        return None
    return idle


def _shown_words(scene: Scene, what: Shown, name: str) -> str:
    """What a reveal or hide names, in the GM's words: the whole building, a level, a room."""
    if what is Shown.ALL:
        return "the whole building"
    if what is Shown.LEVEL:
        return f"the {name} level"
    room = scene.building.rooms[name]
    return the(room.name or name)


_IDLE: dict[Override, Callable[[Scene, list[str]], str | None]] = {
    Override.OPEN: _idle_barrier(False), Override.CLOSE: _idle_barrier(True),
    Override.FD: _idle_fd, Override.MOVE: _idle_move,
    Override.REVEAL: _idle_shown(True), Override.HIDE: _idle_shown(False),
}


def apply_override(scene: Scene, text: str) -> None:
    """Carry out a GM override (``fuego.table.gm``) from its text; ``end`` raises
    :class:`fuego.engine.loop.SceneOver` after ending the scene (the loop stops at once)."""
    word, *args = normalize_override(scene, text).split()
    verb = Override(word)
    _APPLY[verb](scene, verb, args)


# Each override carried out from its canonical words (after its verb).
def _end(scene: Scene, verb: Override, args: list[str]) -> None:
    gm.end_scene(scene)
    raise SceneOver()


def _fire(scene: Scene, verb: Override, args: list[str]) -> None:
    gm.start_fire(scene, args[0], int(args[1]), temperature=args[2] if len(args) > 2 else None)


def _add(scene: Scene, verb: Override, args: list[str]) -> None:
    npc, rank = _add_flags(args)
    gm.add_character(scene, " ".join(args[:-1]), args[-1], npc=npc, rank=rank)


def _shown_part(scene: Scene, verb: Override, args: list[str]) -> None:
    gm.show(scene, verb.value, Shown(args[0]), " ".join(args[1:]) or None)


_Apply = Callable[["Scene", Override, list[str]], None]
_APPLY: dict[Override, _Apply] = {
    Override.END: _end,
    Override.FIRE: _fire,
    Override.FD: lambda scene, verb, args: gm.set_fire_dice(scene, args[0], int(args[1])),
    Override.OPEN: lambda scene, verb, args: gm.barrier(scene, " ".join(args),
                                                        _BARRIER_ACTS[verb]),
    Override.MOVE: lambda scene, verb, args: gm.move_hero(scene, " ".join(args[:-1]), args[-1]),
    Override.WOUND: lambda scene, verb, args: gm.wound(scene, " ".join(args[:-2]),
                                                       int(args[-2]), WoundKind(args[-1])),
    Override.BURN: lambda scene, verb, args: gm.burn(scene, " ".join(args[:-2]), int(args[-2]),
                                                     BurnSource(args[-1])),
    Override.EXPLODE: lambda scene, verb, args: gm.explode(scene, args[0], int(args[1]),
                                                           int(args[2])),
    Override.BLAST: lambda scene, verb, args: gm.blast(scene, args[0], int(args[1])),
    Override.ADD: _add,
    Override.REMOVE: lambda scene, verb, args: gm.remove_character(scene, " ".join(args)),
    Override.REVEAL: _shown_part,
    Override.NOTE: lambda scene, verb, args: gm.note(scene, " ".join(args)),
}
_APPLY[Override.CLOSE] = _APPLY[Override.BREAK] = _APPLY[Override.OPEN]
_APPLY[Override.HIDE] = _APPLY[Override.REVEAL]
