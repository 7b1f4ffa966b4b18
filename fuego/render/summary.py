"""The end of a run: :func:`summarize` describes a finished (or stopped) scene in a few lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fuego.engine.events import EventKind
from fuego.engine.heroes import Hero, Status
from fuego.render.phrases import ENDING_WORDS, listing, place
from fuego.words import plural

if TYPE_CHECKING:
    from fuego.engine.loop import Outcome
    from fuego.engine.scene import Scene


# -- the end of a run -----------------------------------------------------------------------------
def summarize(scene: Scene, outcome: Outcome | None = None) -> list[str]:
    """A few lines on how the scene went: rounds and why it ended, what burned, flashovers,
    every hero's fate.

    ``outcome`` is how the scene ended (:func:`fuego.engine.loop.run`'s); None: it was stopped
    before its end. Computed from the scene's state, its event log and the outcome only (so it
    is deterministic too).
    """
    b = scene.building
    seed = scene.roller.seed
    title = scene.title or b.title or "the scene"
    lines = [f"Summary: {title}" + (f" (seed {seed})" if seed is not None else ""),
             _rounds_line(scene, outcome)]
    lines += _burned_lines(scene)
    lines += _hero_lines(scene)
    return lines


def _rounds_line(scene: Scene, outcome: Outcome | None) -> str:
    """Rounds played and why the scene ended; what still burns, or (nothing burning) when the
    last fire went out and whether smoke still hangs."""
    rounds = f"Rounds played: {scene.round}"
    if outcome is not None:
        rounds += f" (ended: {ENDING_WORDS[outcome.why]})"
    if scene.fires:
        fd = sum(f.fd for f in scene.fires.values())
        stop = " at the stop" if outcome is None else ""
        return rounds + (f"; still burning{stop}: {plural(len(scene.fires), 'fire')} "
                         f"({plural(fd, 'Fire Die', 'Fire Dice')})")
    return rounds + _after_the_fire(scene)


def _after_the_fire(scene: Scene) -> str:
    """With nothing burning: the round the last fire went out (or that nothing ever burned),
    and the smoke still there or the round it cleared."""
    K = EventKind
    last_out = None
    smoke_cleared = None
    for e in scene.log:
        if e.kind is K.FIRE_OUT:
            last_out = e.round
        elif e.kind is K.FIRE_STARTED:
            last_out = None
        elif e.kind is K.SMOKE_CLEARED:
            smoke_cleared = e.round
    words = ""
    if last_out is not None:
        words += f"; the last fire went out in round {last_out}"
    elif not any(e.kind is K.FIRE_STARTED for e in scene.log):
        words += "; nothing ever burned"
    if scene.smoke is not None and scene.smoke.density:
        words += "; smoke still hangs in the air"
    elif smoke_cleared is not None:
        words += f"; the smoke cleared in round {smoke_cleared}"
    return words


def _burned_lines(scene: Scene) -> list[str]:
    """How many areas burned of those that could, and each room hit, first to last: how much
    of it, from when, and its flashover."""
    b, log = scene.building, scene.log
    lit: dict[str, int] = {}
    for e in log:
        if e.kind is EventKind.FIRE_STARTED and e.area is not None:
            lit.setdefault(e.area, e.round)
    # could burn: has fuel, or had it; an area lit all the same (oil on stone) evidently could
    could = [a.fuel > 0 or a.burned_out or a.name in lit for a in b.areas]
    burnable = sum(could)
    burned_out = sum(1 for a in b.areas if a.burned_out)
    # the areas lit that neither burned out nor burn now were put out (smothered, the GM's
    # blast, the rain): said, so that the three add up to the areas burned
    burning = {b.areas[i].name for i in scene.fires}
    put_out = sum(1 for name in lit if name not in burning
                  and not ((i := b.find(name)) is not None and b.areas[i].burned_out))
    # a part that is none is left out ("0 burned out, 0 still burning" read as a table's blanks)
    parts = [f"{n} {what}" for n, what in ((burned_out, "burned out"), (put_out, "put out"),
                                           (len(scene.fires), "still burning")) if n]
    lines = [f"Areas burned: {len(lit) or 'none'} of {burnable} that could burn"
             + (f" ({', '.join(parts)})" if parts else "")]
    flash_round = {e.data.get("room"): e.round for e in log if e.kind is EventKind.FLASHOVER}
    rooms_hit: dict[str, int] = {}
    first_lit: dict[str, int] = {}
    for name, rnd in lit.items():
        i = b.find(name)
        if i is not None:
            key = b.areas[i].room
            rooms_hit[key] = rooms_hit.get(key, 0) + 1
            first_lit[key] = min(first_lit.get(key, rnd), rnd)
    # a room with nothing to burn (a street, a stone stair) is not one that could have burned
    rooms_could = sum(1 for key in b.rooms if any(could[i] for i in b.room_areas(key)))
    lines.append(f"Rooms burned: {len(rooms_hit) or 'none'} of {rooms_could} that could burn"
                 + (", first to last" if rooms_hit else ""))
    for key in sorted(rooms_hit, key=lambda k: (first_lit[k], k)):
        room = b.rooms[key]
        total = sum(1 for i in b.room_areas(key) if could[i])
        start = first_lit[key]
        part = (f"  {room.name or key}: {rooms_hit[key]} of {plural(total, 'area')}, alight "
                + (f"from round {start}" if start else "from the start"))
        if key in flash_round:
            part += f", flashover in round {flash_round[key]}"
        lines.append(part)
    return lines


def _hero_lines(scene: Scene) -> list[str]:
    """Each hero's fate and wounds, then who got out (nothing if the scene has no heroes)."""
    if not scene.heroes:
        return []
    log = scene.log
    escaped_at = {e.actor: (e.round, e.area) for e in log if e.kind is EventKind.HERO_ESCAPED}
    fell = {e.actor: e.round for e in log
            if e.kind in (EventKind.HERO_KNOCKED_OUT, EventKind.HERO_DIED)}
    lines = ["Heroes:"]
    for hero in scene.heroes:
        wounds = _wounds(hero)
        npc = " (NPC)" if hero.npc else ""  # (the GM's character, not a player's hero)
        lines.append(f"  {hero.name}{npc}: {_fate(scene, hero, escaped_at, fell)}; "
                     + (", ".join(wounds) if wounds else "unhurt"))
    out = [h.name for h in scene.heroes if h.status is Status.ESCAPED]
    lines.append("Got out: " + (listing(out) if out else "nobody"))
    return lines


def _fate(scene: Scene, hero: Hero, escaped_at: dict, fell: dict) -> str:
    """Where a hero got out and when, when they fell (knocked out or dead) and where, or where
    they still are."""
    b = scene.building
    if hero.status is Status.ESCAPED and hero.name in escaped_at:
        rnd, area = escaped_at[hero.name]
        return f"got out in round {rnd} at {place(area, b)}"
    if hero.status in (Status.KNOCKED_OUT, Status.DEAD):
        word = "knocked out" if hero.status is Status.KNOCKED_OUT else "died"
        died = fell.get(hero.name)
        return f"{word}{f' in round {died}' if died else ''} in {place(b.areas[hero.area].name, b)}"
    # as the forecast counts them: inside the building, or standing out in the open
    where = "out in the open" if b.room_of(hero.area).outdoors else "still inside"
    return f"{where} at {place(b.areas[hero.area].name, b)}"


def _wounds(hero: Hero) -> list[str]:
    """A hero's wounds, crippling (unless dead) and what still burns on them."""
    wounds = []
    if hero.dramatic:
        wounds.append(plural(hero.dramatic, "Dramatic Wound"))
    if hero.flesh:
        wounds.append(plural(hero.flesh, "Flesh Wound"))
    if hero.crippled and hero.status is not Status.DEAD:
        wounds.append("crippled")
    if hero.clothes_fd and hero.present:
        wounds.append("burning oil still on them" if hero.oiled else "clothes still burning")
    return wounds
