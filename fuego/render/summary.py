"""The end of a run: :func:`summarize` describes a finished (or stopped) scene in a few lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fuego.engine.events import EventKind
from fuego.engine.heroes import Status
from fuego.render.phrases import ENDING_WORDS, listing, place, plural

if TYPE_CHECKING:
    from fuego.engine.loop import Outcome
    from fuego.engine.scene import Scene


# -- the end of a run -----------------------------------------------------------------------------
def summarize(scene: Scene, outcome: Outcome | None = None) -> list[str]:  # noqa: C901
    """A few lines on how the scene went: rounds and why it ended, what burned, flashovers,
    every hero's fate.

    ``outcome`` is how the scene ended (:func:`fuego.engine.loop.run`'s); None: it was stopped
    before its end. Computed from the scene's state, its event log and the outcome only (so it
    is deterministic too).
    """
    b = scene.building
    log = scene.log
    K = EventKind
    lines: list[str] = []
    seed = scene.roller.seed
    title = scene.title or b.title or "the scene"
    lines.append(f"Summary: {title}" + (f" (seed {seed})" if seed is not None else ""))

    # rounds and how it ended
    last_out = None
    smoke_cleared = None
    for e in log:
        if e.kind is K.FIRE_OUT:
            last_out = e.round
        elif e.kind is K.FIRE_STARTED:
            last_out = None
        elif e.kind is K.SMOKE_CLEARED:
            smoke_cleared = e.round
    rounds = f"Rounds played: {scene.round}"
    if outcome is not None:
        rounds += f" (ended: {ENDING_WORDS[outcome.why]})"
    if scene.fires:
        fd = sum(f.fd for f in scene.fires.values())
        stop = " at the stop" if outcome is None else ""
        rounds += (f"; still burning{stop}: {plural(len(scene.fires), 'fire')} "
                   f"({plural(fd, 'Fire Die', 'Fire Dice')})")
    else:
        if last_out is not None:
            rounds += f"; the last fire went out in round {last_out}"
        elif not any(e.kind is K.FIRE_STARTED for e in log):
            rounds += "; nothing ever burned"
        if scene.smoke is not None and scene.smoke.density:
            rounds += "; smoke still hangs in the air"
        elif smoke_cleared is not None:
            rounds += f"; the smoke cleared in round {smoke_cleared}"
    lines.append(rounds)

    # what burned
    lit: dict[str, int] = {}
    for e in log:
        if e.kind is K.FIRE_STARTED and e.area is not None:
            lit.setdefault(e.area, e.round)
    burnable = sum(1 for a in b.areas if a.fuel > 0 or a.burned_out)
    burned_out = sum(1 for a in b.areas if a.burned_out)
    lines.append(f"Areas burned: {len(lit)} of {burnable} that could burn "
                 f"({burned_out} burned out, {len(scene.fires)} still burning)")
    flash_round = {e.data.get("room"): e.round for e in log if e.kind is K.FLASHOVER}
    rooms_hit: dict[str, int] = {}
    first_lit: dict[str, int] = {}
    for name, rnd in lit.items():
        i = b.find(name)
        if i is not None:
            key = b.areas[i].room
            rooms_hit[key] = rooms_hit.get(key, 0) + 1
            first_lit[key] = min(first_lit.get(key, rnd), rnd)
    lines.append("Rooms burned: " + ("none" if not rooms_hit else
                                     f"{len(rooms_hit)} of {len(b.rooms)}, first to last"))
    for key in sorted(rooms_hit, key=lambda k: (first_lit[k], k)):
        room = b.rooms[key]
        total = sum(1 for i in b.room_areas(key) if b.areas[i].fuel > 0 or b.areas[i].burned_out)
        start = first_lit[key]
        part = (f"  {room.name or key}: {rooms_hit[key]} of {plural(total, 'area')}, alight "
                + (f"from round {start}" if start else "from the start"))
        if key in flash_round:
            part += f", flashover in round {flash_round[key]}"
        lines.append(part)

    # heroes
    escaped_at = {e.actor: (e.round, e.area) for e in log if e.kind is K.HERO_ESCAPED}
    fell = {e.actor: e.round for e in log if e.kind in (K.HERO_KNOCKED_OUT, K.HERO_DIED)}
    if scene.heroes:
        lines.append("Heroes:")
    for hero in scene.heroes:
        status = hero.status
        if status is Status.ESCAPED and hero.name in escaped_at:
            rnd, area = escaped_at[hero.name]
            fate = f"got out in round {rnd} at {place(area, b)}"
        elif status in (Status.KNOCKED_OUT, Status.DEAD):
            word = "knocked out" if status is Status.KNOCKED_OUT else "died"
            died = fell.get(hero.name)
            fate = f"{word}{f' in round {died}' if died else ''} in {place(b.areas[hero.area].name, b)}"
        else:
            fate = f"still inside at {place(b.areas[hero.area].name, b)}"
        wounds = []
        if hero.dramatic:
            wounds.append(plural(hero.dramatic, "Dramatic Wound"))
        if hero.flesh:
            wounds.append(plural(hero.flesh, "Flesh Wound"))
        if hero.crippled and status is not Status.DEAD:
            wounds.append("crippled")
        if hero.clothes_fd and hero.present:
            wounds.append("burning oil still on them" if hero.oiled else "clothes still burning")
        lines.append(f"  {hero.name}: {fate}; " + (", ".join(wounds) if wounds else "unhurt"))
    out = [h.name for h in scene.heroes if h.status is Status.ESCAPED]
    if scene.heroes:
        lines.append("Got out: " + (listing(out) if out else "nobody"))
    return lines
