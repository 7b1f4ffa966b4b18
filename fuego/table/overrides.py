"""GM overrides at the table: which words are an override (rather than a hero's action), the
check of one against the scene (its canonical text, recorded in the session), and carrying it
out through ``fuego.table.gm``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fuego.errors import RuleError

if TYPE_CHECKING:
    from fuego.engine.heroes import Hero
    from fuego.engine.scene import Scene

#: The first words of GM overrides (``fuego.table.gm``); ``open``/``close``/``move`` are overrides
#: only with two arguments (with one they are a hero's action).
OVERRIDE_WORDS = ("fire", "fd", "open", "close", "break", "move", "end")


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
    from fuego.table import gm
    from fuego.world.building import OPENABLE

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
            from fuego.rules.tables import Temperature

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
    """Carry out a GM override (``fuego.table.gm``) from its text; ``end`` raises
    :class:`SceneOver` after ending the scene."""
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
