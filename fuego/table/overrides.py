"""GM overrides at the table: which words are an override (rather than a hero's action), the
check of one against the scene (its canonical text, recorded in the session), and carrying it
out through ``fuego.table.gm``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fuego.engine.heroes import Status
from fuego.engine.loop import SceneOver
from fuego.errors import RuleError
from fuego.rules.formulas import is_fire_dice
from fuego.text import UNSAFE_LINE, terminal

if TYPE_CHECKING:
    from fuego.engine.heroes import Hero
    from fuego.engine.scene import Scene

#: The first words of GM overrides (``fuego.table.gm``); ``open``/``close``/``move`` are overrides
#: only with two arguments (with one they are a hero's action).
OVERRIDE_WORDS = ("fire", "fd", "open", "close", "break", "move", "end", "wound", "add",
                  "remove", "burn", "explode", "blast", "reveal", "hide", "note")
#: Overrides whose first word is never a hero's action.
_GM_ONLY = ("fire", "fd", "break", "end", "wound", "add", "remove", "burn", "explode", "blast",
            "reveal", "hide", "note")
#: ``burn`` sources as typed (fuego.table.gm.BURN_SOURCES).
BURN_WORDS = ("jet", "magic", "object", "oil")
#: The farthest an explosion reaches, in areas (the script's ``explode`` limit).
MAX_BLAST_RADIUS = 10
#: The longest ``note`` (a line on the players' screen, not a page).
MAX_NOTE = 200
#: ``wound`` kinds as typed -> as recorded.
WOUND_KINDS = {"fw": "flesh", "flesh": "flesh", "dw": "dramatic", "dramatic": "dramatic"}
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
    verb, args = words[0].lower(), words[1:]
    if verb == "gm":
        return True
    if verb not in OVERRIDE_WORDS:
        return False
    if not hero_prompt or verb in _GM_ONLY:
        return True
    if verb == "move":
        return len(args) >= 2
    if len(args) != 2:
        return False
    if scene is None:
        return True
    return all(scene.building.find(a) is not None for a in args)


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
    "open|close|break AREA AREA        a door, window, wall or floor between two areas\n"
    "move HERO AREA                    put a hero or NPC anywhere (back in, if escaped)\n"
    "wound HERO N [fw|dw]              N Flesh Wounds (a wound check follows) or Dramatic\n"
    "burn HERO FD jet|magic|object|oil  fire strikes a hero (jet, magic, oil: per 10)\n"
    "explode AREA FD [RADIUS]          an explosion: hot fire on all in reach (radius 1)\n"
    "blast AREA [DICE]                 a blast that blows out fires within 2 areas (4+ dice)\n"
    "add NAME AREA [npc] [henchman|villain]  a new character (Traits 2) steps in\n"
    "remove HERO                       take a character out of the scene\n"
    "reveal [all|LEVEL|ROOM]           show the players' screen the building, a level or a room\n"
    "hide [all|LEVEL|ROOM]             take a reveal back (the heroes' own sight stays)\n"
    "note TEXT                         a line of your own on the players' screen\n"
    "end                               end the scene now"
)


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


def normalize_override(scene: Scene, text: str) -> str:  # noqa: C901
    """Check an override against the scene without changing anything; its canonical text.

    Raises :class:`RuleError` with what is wrong (so nothing half-happens)."""
    from fuego.table import gm
    from fuego.world.places import OPENABLE

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
        fd = _fire_dice_arg(args[1])
        if not area.burnable:
            raise RuleError(f"nothing burns in {area.name}",
                            tip="pick an area with fuel that has not burned out")
        temp = ""
        if len(args) == 3:
            from fuego.rules.charts import Temperature

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
        if not (fd == 0 or is_fire_dice(fd)):
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
        if hero.status is Status.DEAD:
            raise RuleError(f"{hero.name} is dead and cannot be moved")
        return f"move {hero.name} {area.name}"
    if verb == "wound":
        kind = "flesh"
        if args and args[-1].lower() in WOUND_KINDS:
            kind = WOUND_KINDS[args.pop().lower()]
        if len(args) < 2:
            raise RuleError("wound HERO N [fw|dw]", tip="e.g. 'wound Isabela 8' (Flesh Wounds) "
                                                        "or 'wound Isabela 1 dw'")
        hero = find_hero(scene, " ".join(args[:-1]))
        n = _int_arg(args[-1], "the number of wounds")
        if not 1 <= n <= MAX_WOUNDS:
            raise RuleError(f"wounds must be 1-{MAX_WOUNDS}, not {n}")
        if hero.status is Status.DEAD:
            raise RuleError(f"{hero.name} is dead")
        return f"wound {hero.name} {n} {kind}"
    if verb == "burn":
        if len(args) < 3 or args[-1].lower() not in BURN_WORDS:
            raise RuleError("burn HERO FD jet|magic|object|oil",
                            tip="e.g. 'burn Isabela 4 jet' (a jet of burning gas)")
        by = args.pop().lower()
        fd = _fire_dice_arg(args[-1])
        hero = find_hero(scene, " ".join(args[:-1]))
        if not hero.present:
            raise RuleError(f"{hero.name} is not in the scene")
        return f"burn {hero.name} {fd} {by}"
    if verb == "explode":
        if len(args) not in (2, 3):
            raise RuleError("explode AREA FD [RADIUS]", tip="e.g. 'explode cellar:C3 8 2'")
        area = b.area(args[0])
        fd = _fire_dice_arg(args[1])
        radius = _int_arg(args[2], "the radius") if len(args) == 3 else 1
        if not 0 <= radius <= MAX_BLAST_RADIUS:
            raise RuleError(f"the radius must be 0-{MAX_BLAST_RADIUS} areas, not {radius}")
        return f"explode {area.name} {fd} {radius}"
    if verb == "blast":
        if len(args) not in (1, 2):
            raise RuleError("blast AREA [DICE]", tip="e.g. 'blast ground:C4 4'")
        area = b.area(args[0])
        dice = _int_arg(args[1], "the blast's dice") if len(args) == 2 else 4
        if not 1 <= dice <= 10:
            raise RuleError(f"the blast's dice must be 1-10, not {dice}")
        return f"blast {area.name} {dice}"
    if verb == "add":
        flags = []
        while args and args[-1].lower() in ("npc", "hero", "henchman", "villain"):
            flags.append(args.pop().lower())
        if len(args) < 2:
            raise RuleError("add NAME AREA [npc] [henchman|villain]",
                            tip="e.g. 'add Watchman Pierre ground:G6 npc henchman'")
        area = b.area(args[-1])
        name = " ".join(args[:-1])
        if len(name) > 60:
            raise RuleError("a character's name is at most 60 characters")
        if UNSAFE_LINE.search(name):  # a save's answer comes from a file too
            raise RuleError(f"a character's name is printable text: {terminal(name)!r} "
                            "holds a control character")
        if any(h.name.lower() == name.lower() for h in scene.heroes):
            raise RuleError(f"there is already a character named {name!r}")
        rank = next((f for f in flags if f in ("henchman", "villain")), "hero")
        return f"add {name} {area.name}" + (" npc" if "npc" in flags else "") + \
            (f" {rank}" if rank != "hero" else "")
    if verb == "remove":
        if not args:
            raise RuleError("remove HERO", tip="e.g. 'remove Mother Hettie'")
        return f"remove {find_hero(scene, ' '.join(args)).name}"
    if verb in ("reveal", "hide"):
        return f"{verb} {shown(scene, ' '.join(args))}"
    if verb == "note":
        note = " ".join(args)
        if not note:
            raise RuleError("note TEXT", tip="e.g. 'note The roof timbers groan overhead'")
        if len(note) > MAX_NOTE:
            raise RuleError(f"a note is at most {MAX_NOTE} characters, not {len(note)}")
        return f"note {note}"
    raise RuleError(f"unknown override {verb!r}",
                    tip="fire, fd, open, close, break, move, wound, burn, explode, blast, add, "
                        "remove, reveal, hide, note, end")


def shown(scene: Scene, what: str) -> str:
    """What ``reveal``/``hide`` names, in its canonical words: ``all``, ``level NAME`` or
    ``room KEY`` (typed as ``all`` or nothing, a level's name, a room's key or name, or with
    ``level``/``room`` before it)."""
    b = scene.building
    low = " ".join(what.split()).lower()
    if low in ("", "all"):
        return "all"
    kind, _, rest = low.partition(" ")
    if kind not in ("level", "room") or not rest:
        kind, rest = "", low
    levels = [lv.name for lv in b.levels if lv.name.lower() == rest]
    rooms = [k for k, r in b.rooms.items() if rest in (k.lower(), (r.name or "").lower())]
    if kind != "room" and levels:
        return f"level {levels[0]}"
    if kind != "level" and rooms:
        return f"room {rooms[0]}"
    raise RuleError(f"no {kind or 'level or room'} {what.strip()!r}",
                    tip="all, a level (" + ", ".join(lv.name for lv in b.levels)
                        + ") or a room's key or name (look ROOM names them)")


def apply_override(scene: Scene, text: str) -> None:  # noqa: C901
    """Carry out a GM override (``fuego.table.gm``) from its text; ``end`` raises
    :class:`fuego.engine.loop.SceneOver` after ending the scene (the loop stops at once)."""
    from fuego.table import gm

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
    elif verb == "wound":
        gm.wound(scene, " ".join(args[:-2]), int(args[-2]), args[-1])
    elif verb == "burn":
        gm.burn(scene, " ".join(args[:-2]), int(args[-2]), args[-1])
    elif verb == "explode":
        gm.explode(scene, args[0], int(args[1]), int(args[2]))
    elif verb == "blast":
        gm.blast(scene, args[0], int(args[1]))
    elif verb == "add":
        rank = args.pop() if args[-1] in ("henchman", "villain") else "hero"
        npc = args[-1] == "npc"
        if npc:
            args.pop()
        gm.add_character(scene, " ".join(args[:-1]), args[-1], npc=npc, rank=rank)
    elif verb == "remove":
        gm.remove_character(scene, " ".join(args))
    elif verb in ("reveal", "hide"):
        gm.show(scene, verb, args[0], " ".join(args[1:]) or None)
    elif verb == "note":
        gm.note(scene, " ".join(args))
