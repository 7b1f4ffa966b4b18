"""The round scheduler: start of round, phases 1-10, end of round (RULES-NOTES, Rounds).

One round of :func:`play_round`:

1. **Start**: the round's script effects; module hooks (weather, wind); every fire and every
   active hero rolls Panache action dice (no ten again).
2. **Phases 1-10**: whoever has an unspent die showing this phase or earlier may act; the order
   is the highest sum of unspent dice, then the higher Panache, then a draw from the scene's
   roller. A fire spends its die on what its policy picks; a hero on what the controller picks,
   or holds the die for a later phase. Fires started during the round act from the next round.
3. **End**, always in this order (docs/rules.md, "End of round"):
   a. heroes in a burning area who took no fire damage this round take it now;
   b. burning clothes burn (clinging exposure: an extra Dramatic Wound per 10);
   c. smoke grows, spreads, vents, lingers or clears;
   d. heroes in smoke: rounds in thick smoke count up, the confusion check, confusion ends outside;
   e. bad air: holding breath, then suffocation checks;
   f. every fire's fuel check (its own damage roll as wounds, checked with its Resolve);
   g. module end-of-round hooks;
   h. flashover check;
   i. the script's end-of-round triggers.
"""

from __future__ import annotations

from functools import partial
from itertools import chain
from operator import attrgetter, is_
from typing import TYPE_CHECKING

from fuego.dice.roller import MIN_BATCH, trait_check
from fuego.engine import boxed_phases
from fuego.engine.events import END_PHASE, START_PHASE, Event, EventKind
from fuego.engine.events import record as new_event
from fuego.engine.fire import (
    ACTING,
    Fire,
    FireState,
    Trigger,
    damage_pools,
    fuel_check_pools,
    panaches,
)
from fuego.engine.fire_actions import boxed_in, grow_all
from fuego.engine.fire_actions import perform as fire_perform
from fuego.engine.hero_actions import options
from fuego.engine.hero_actions import perform as hero_perform
from fuego.engine.heroes import Hero
from fuego.engine.injury import add_dramatic, fire_damage, hero_roll
from fuego.engine.policy import GROWS_WHEN_BOXED, POLICIES
from fuego.engine.scene import out_events
from fuego.engine.script import When
from fuego.rules.settings import FlashoverMode
from fuego.rules.tables import (
    CONFUSION_AFTER_ROUNDS,
    SUFFOCATION_TN_PER_ROUND,
    Exposure,
    Temperature,
)

if TYPE_CHECKING:
    from fuego.engine.controllers import Controller
    from fuego.engine.scene import Scene


def _script(scene: Scene, when: When) -> None:
    if scene.script is not None:
        scene.script.check(scene, when)


def start_scene(scene: Scene) -> None:
    """Once before round 1: module set-up and the opening event."""
    scene.emit(EventKind.SCENE_START, None, None, title=scene.title, seed=scene.roller.seed,
               fires=len(scene.fires), heroes=[h.name for h in scene.heroes])
    for m in scene.modules:
        m.scene_start(scene)
    _script(scene, When.SCENE_START)


def _ordered(scene: Scene, actors: list) -> list:
    """Highest sum of unspent dice, then Panache, then a draw (RULES-NOTES).

    Ties are gathered in the order given and shuffled by the scene's roller, highest first."""
    if len(actors) < 2:
        return list(actors)
    tied: dict[tuple[int, int], list] = {}
    for actor in actors:
        key = (sum(actor.dice), actor.panache)
        group = tied.get(key)
        if group is None:
            tied[key] = [actor]
        else:
            group.append(actor)
    out: list = []
    shuffle = scene.roller.shuffle
    for key in sorted(tied, reverse=True):
        group = tied[key]
        if len(group) > 1:
            shuffle(group)
        out += group
    return out


def play_round(scene: Scene, controller: Controller) -> None:
    """Play one round of the scene; everything that happens is appended to ``scene.log``."""
    scene.round += 1
    scene.phase = START_PHASE
    scene.building.check_barriers()
    scene.emit(EventKind.ROUND_START, None, None, fires=len(scene.fires),
               heroes=sum(1 for h in scene.heroes if h.in_play))
    _script(scene, When.START)
    for m in scene.modules:
        m.round_start(scene)
    controller.round_start(scene)
    roller = scene.roller
    fires = [scene.fires[i] for i in sorted(scene.fires)]
    acting = [f for f in fires if f.state in ACTING]  # (Fire.can_spread)
    if len(acting) < len(fires):
        for fire in fires:
            fire.dice = []
    rolled = roller.action_dice_of(panaches(acting))
    for fire, dice in zip(acting, rolled):
        fire.dice = dice
    hero_dice = {}
    for hero in scene.heroes:
        hero.fire_damaged = False
        hero.dice = roller.action_dice(hero.panache) if hero.in_play else []
        if hero.dice:
            ask = getattr(controller, "action_dice", None)  # (Controller's; duck-typed ones)
            own = ask(scene, hero, hero.dice) if ask is not None else None  # a player's roll
            if own is not None:
                hero.dice = own
            hero_dice[hero.name] = list(hero.dice)
    scene.emit(EventKind.ACTION_DICE, None, None, heroes=hero_dice,
               fire_actions=sum(map(len, rolled)))
    if boxed_phases.applies(scene, acting, bool(hero_dice)):
        boxed_phases.play(scene, acting, rolled)  # the same phases, as columns of numbers
    else:
        buckets: list[list] = [[] for _ in range(11)]
        for actor in chain(acting, scene.heroes):  # fires first, then heroes, as they rolled
            if actor.dice:
                buckets[actor.dice[0]].append(actor)
        _phases(scene, controller, buckets)
    end_round(scene)


def _phases(scene: Scene, controller: Controller, buckets: list[list]) -> None:
    """Phases 1-10: each actor with a die showing this phase or earlier acts, in order."""
    policy = POLICIES[scene.settings.temperament]
    # Fires that can only grow act as one batch (their rolls drawn together, in the same
    # order): only where no module may change what a fire can do, and where there are enough
    # fires for batches to be long (a small scene would only pay for the look-up).
    quick = policy in GROWS_WHEN_BOXED and not scene.modules
    batch = quick and len(scene.fires) >= MIN_BATCH
    fires = scene.fires
    # Fires only start through Scene.start_fire (a new id) and go out through Scene.put_out
    # (one fewer): while both stand, every fire queued this round still burns where it did.
    as_queued = (scene.next_fire_id, len(fires))
    for phase in range(1, 11):
        scene.phase = phase
        pending = buckets[phase]
        while pending:
            again: list = []
            run: list[Fire] = []
            known, boxed = boxed_in(scene) if batch else (frozenset(), None)
            ordered = _ordered(scene, pending)
            # The common case in a big fire: one run, all growing. (A queued actor has a die
            # left; without modules a fire still in the active set can act; a hero in a boxed
            # area is not the fire there.)
            if batch and _all_boxed(ordered, known, fires,
                                    as_queued == (scene.next_fire_id, len(fires))
                                    and known.isdisjoint([h.area for h in scene.heroes])):
                for fire in ordered:  # each spends its die and waits for its next
                    dice = fire.dice
                    del dice[0]
                    if dice:
                        nxt = dice[0]
                        (again if nxt <= phase else buckets[nxt]).append(fire)
                grow_all(scene, ordered)
                ordered = []
            for actor in ordered:
                if type(actor) is Fire:
                    here = actor.area
                    if ((here in known or (boxed is not None and boxed(actor)))
                            and _may_act(scene, actor)):
                        actor.dice.pop(0)
                        run.append(actor)
                        continue
                    if run:
                        _grow_run(scene, run, phase, again, buckets)
                        run = []
                    _fire_acts(scene, actor, policy, phase, again, buckets,
                               boxed_in(scene)[1] if quick else None)
                else:
                    if run:
                        _grow_run(scene, run, phase, again, buckets)
                        run = []
                    _hero_acts(scene, actor, controller, phase, again, buckets)
                if batch:  # what it did may have changed what others can do
                    known, boxed = boxed_in(scene)
            if run:
                _grow_run(scene, run, phase, again, buckets)
            pending = again
            _script(scene, When.PHASE)


def _all_boxed(actors: list, known: set[int], fires: dict[int, Fire], settled: bool) -> bool:
    """Is every actor a fire still burning in its area, and that area known to be boxed in?
    (A hero in a boxed area is not the fire there.) Asked of a big fire's whole phase.
    ``settled``: no fire started or went out since the actors were queued and no hero stands
    in a boxed area, so an actor in a boxed area is the fire there (no need to look)."""
    if settled:
        return known.issuperset(map(_AREA, actors))
    here = list(map(_AREA, actors))
    return known.issuperset(here) and all(map(is_, map(fires.get, here), actors))


_AREA = attrgetter("area")


def _requeue(actor, phase: int, again: list, buckets: list[list]) -> None:
    if actor.dice:
        nxt = actor.dice[0]
        (again if nxt <= phase else buckets[nxt]).append(actor)


def _may_act(scene: Scene, fire: Fire) -> bool:
    """Still burning there, with a die left, and able to act (not a Flame, not out)."""
    return scene.fires.get(fire.area) is fire and bool(fire.dice) and fire.can_spread


def _grow_run(scene: Scene, run: list[Fire], phase: int, again: list, buckets) -> None:
    """Fires next to each other in the phase order that can only grow: as :func:`_fire_acts`
    would have them act one after another (their dice already spent)."""
    grow_all(scene, run)
    for fire in run:
        if fire.dice:
            nxt = fire.dice[0]
            (again if nxt <= phase else buckets[nxt]).append(fire)


def _fire_acts(scene: Scene, fire: Fire, policy, phase: int, again: list, buckets,
               boxed=None) -> None:
    """One fire spends a die. ``boxed``: a test (``fire_actions.boxed_in``) for a fire whose
    policy would only grow it, asked first: it saves the policy's look at every option."""
    if not _may_act(scene, fire):
        return
    fire.dice.pop(0)
    if boxed is not None and boxed(fire):
        grow_all(scene, [fire])
    else:
        act = policy(scene, fire)
        if act is not None:
            fire_perform(scene, fire, act)
    _requeue(fire, phase, again, buckets)


def _hero_acts(scene: Scene, hero: Hero, controller, phase: int, again: list, buckets) -> None:
    if not hero.in_play or not hero.dice:
        return
    legal = options(scene, hero)
    act = controller.choose(scene, hero, legal)
    if act is None:  # held: the die waits for the next phase
        if phase < 10:
            buckets[phase + 1].append(hero)
        return
    hero.dice.pop(0)
    hero_perform(scene, hero, act)
    _requeue(hero, phase, again, buckets)


# -- end of round ------------------------------------------------------------------------------
def end_round(scene: Scene) -> None:
    scene.phase = END_PHASE
    _exposure(scene)
    _clothes(scene)
    if scene.smoke is not None:
        scene.smoke.update(scene)
        _smoke_on_heroes(scene)
    if scene.settings.suffocation:
        _breath(scene)
    _fuel_checks(scene)
    for m in sorted(scene.modules, key=lambda m: m.end_order):  # stable: ties keep their order
        m.end_of_round(scene)
    check_flashover(scene)
    _script(scene, When.END)
    for hero in scene.heroes:
        hero.dice.clear()
    scene.emit(EventKind.ROUND_END, None, None, fires=len(scene.fires),
               fire_dice=sum(f.fd for f in scene.fires.values()),
               heroes={h.name: [h.status.value, h.flesh, h.dramatic] for h in scene.heroes})


def _exposure(scene: Scene) -> None:
    """a. Standing in fire: its damage once a round if not already burned (003)."""
    for hero in scene.heroes:
        fire = scene.fires.get(hero.area)
        if fire is not None and fire.harmful and hero.present and not hero.fire_damaged:
            fire_damage(scene, hero, fire.fd, fire.temperature, Exposure.FLEETING,
                        "standing in fire", explode=fire.explodes)


def _clothes(scene: Scene) -> None:
    """b. Burning clothes or hair: a fire of their own on the hero (003, Hero on Fire)."""
    for hero in scene.heroes:
        if hero.clothes_fd and hero.present:
            fire_damage(scene, hero, hero.clothes_fd, Temperature.REGULAR, Exposure.CLINGING,
                        "clothes")


def _smoke_on_heroes(scene: Scene) -> None:
    """d. Thick smoke: after more than two rounds, Wits vs 5 x rounds or confused (003)."""
    from fuego.world.smoke import Density

    for hero in scene.heroes:
        if not hero.in_play:
            continue
        d = scene.smoke.at(hero.area)
        if d is Density.THICK:
            hero.thick_rounds += 1
        else:
            hero.thick_rounds = 0
        if d is Density.NONE and hero.confused:
            hero.confused = False
            scene.emit(EventKind.HERO_UNCONFUSED, hero.name, hero.area)
        if hero.thick_rounds > CONFUSION_AFTER_ROUNDS and not hero.confused:
            tn = 5 * hero.thick_rounds
            total, pool = hero_roll(scene, hero, trait_check(hero.wits), tn, "keep bearings",
                                    action=False)
            if total < tn:
                hero.confused = True
                scene.emit(EventKind.HERO_CONFUSED, hero.name, hero.area, pool=pool.notation,
                           tn=tn, total=total, rounds=hero.thick_rounds)


def needs_air(scene: Scene, hero: Hero) -> bool:
    """Trapped without adequate air (003, Suffocation; fuego's reading): the hero's area burns
    or is filled with smoke, and its room does not vent."""
    b = scene.building
    room = b.areas[hero.area].room
    if b.room_vents(room):
        return False
    if hero.area in scene.fires:
        return True
    return scene.smoke is not None and bool(scene.smoke.at(hero.area)) and scene.smoke.room_filled(room)


def _breath(scene: Scene) -> None:
    """e. Hold breath for Resolve rounds; then Resolve k Resolve vs 5 x rounds past it or take
    a Dramatic Wound (RULES-NOTES default for the drowning rules)."""
    limit_default = scene.settings.breath_rounds
    for hero in scene.heroes:
        if not hero.present:
            continue
        if not needs_air(scene, hero):
            if hero.breath:
                hero.breath = 0
                scene.emit(EventKind.HERO_BREATH, hero.name, hero.area, breath=0, air=True)
            continue
        hero.breath += 1
        limit = hero.resolve if limit_default is None else limit_default
        past = hero.breath - limit
        if past <= 0:
            scene.emit(EventKind.HERO_BREATH, hero.name, hero.area, breath=hero.breath,
                       limit=limit)
            continue
        tn = SUFFOCATION_TN_PER_ROUND * past
        total, pool = hero_roll(scene, hero, trait_check(hero.resolve), tn, "breath",
                                action=False)
        ok = total >= tn
        scene.emit(EventKind.HERO_SUFFOCATING, hero.name, hero.area, pool=pool.notation, tn=tn,
                   total=total, success=ok, breath=hero.breath)
        if not ok:
            add_dramatic(scene, hero, 1, "suffocation")


def _fuel_checks(scene: Scene) -> None:
    """f. Each fire rolls its own damage as wounds and checks them with its Resolve (003)."""
    fires, flame = scene.fires, FireState.FLAME
    # A Flame is not yet eating its fuel (flame-and-blaze module). What a check puts out
    # changes no other fire's pools, so every roll is drawn first, in the same order, and the
    # checks are worked out column by column (a big fire has thousands).
    checking = [fires[i] for i in sorted(fires) if fires[i].state is not flame]
    pools: list = [None] * (2 * len(checking))
    pools[0::2] = damage_pools(checking)
    pools[1::2] = fuel_check_pools(checking)
    totals = scene.roller.totals(pools)
    damage, check = totals[0::2], totals[1::2]
    flesh = [f.flesh + d for f, d in zip(checking, damage)]
    dramatic = [f.dramatic for f in checking]
    for fire, wounds in zip(checking, flesh):
        fire.flesh = wounds
    columns = ([f.area for f in checking], damage, flesh, check, dramatic,
               [f.resolve for f in checking])
    done = 0  # checks recorded so far
    spent: list[int] = []  # the checks after which the fire burned out (their events follow)
    logged = scene.keep is None or EventKind.FIRE_FUEL_CHECK in scene.keep

    def record(upto: int) -> None:
        scene.record_all(partial(_fuel_events, scene.names(), scene.round, scene.phase,
                                 columns, done, upto, spent, logged),
                         (upto - done if logged else 0) + 2 * len(spent), _FUEL_KINDS)

    for k in [k for k, (c, w) in enumerate(zip(check, flesh)) if c < w]:
        fire = checking[k]
        fire.flesh = 0
        fire.dramatic += 1 + (flesh[k] - check[k]) // 20
        dramatic[k] = fire.dramatic
        if fire.dramatic >= fire.knocked_out_at:
            # out, its area burned out; its events go with the checks' (the same order)
            scene.put_out(fire, burned_out=True)
            spent.append(k)
        elif (fire.crippled_at is not None and fire.dramatic >= fire.crippled_at
              and fire.may(Trigger.GUTTER)):
            record(k + 1)
            done, spent = k + 1, []
            scene.lifecycle(fire, Trigger.GUTTER, "crippled: fuel running low")
    record(len(checking))


_FUEL_KINDS = frozenset({EventKind.FIRE_FUEL_CHECK, EventKind.FIRE_OUT,
                         EventKind.AREA_BURNED_OUT})


def _fuel_events(names: tuple[list[str], list[str]], rnd: int, phase: int,
                 columns: tuple[list, ...], start: int, stop: int, spent: list[int],
                 checks: bool = True) -> list[Event]:
    """The events of :func:`_fuel_checks`' rolls ``start`` to ``stop``, from its columns, each
    check that burned a fire out followed by its going out (``spent``); ``checks=False``: the
    goings out alone (a scene that does not keep the checks)."""
    fire_names, area_names = names
    if not checks:
        return [e for k in spent
                for e in out_events(names, rnd, phase, columns[0][k], "fuel spent", True)]
    kind = EventKind.FIRE_FUEL_CHECK
    out = [new_event(kind, rnd, phase, fire_names[here], area_names[here],
                     {"damage": damage, "flesh": flesh, "total": check,
                      "success": check >= flesh, "dramatic": dramatic, "resolve": resolve})
           for here, damage, flesh, check, dramatic, resolve
           in zip(*(column[start:stop] for column in columns))]
    for k in reversed(spent):  # from the last, so the earlier places stand
        here = columns[0][k]
        out[k - start + 1:k - start + 1] = out_events(names, rnd, phase, here, "fuel spent", True)
    return out


def check_flashover(scene: Scene) -> None:
    """h. Flashover (fuego's reading, a scenario setting): an enclosed room whose burnable areas
    all burn (``all-burning``), or whose Fire Dice reach ``flashover_dice_per_area`` per area
    (``dice``), flashes over: every fire in it turns hot."""
    mode = scene.settings.flashover
    if mode is FlashoverMode.OFF or not scene.fires:
        return
    b = scene.building
    rooms = sorted({b.areas[i].room for i in scene.fires} - scene.flashed)
    for key in rooms:
        if b.rooms[key].outdoors:
            continue
        fires = scene.room_fires(key)
        if mode is FlashoverMode.ALL_BURNING:
            burnable = [i for i in b.room_areas(key) if b.areas[i].burnable]
            hit = bool(burnable) and all(i in scene.fires for i in burnable)
        else:
            need = scene.settings.flashover_dice_per_area * len(b.room_areas(key))
            hit = sum(f.fd for f in fires) >= need
        if not hit:
            continue
        scene.flashed.add(key)
        scene.emit(EventKind.FLASHOVER, None, None, room=key, fires=len(fires))
        for fire in fires:
            fire.temperature = Temperature.HOT
            if fire.may(Trigger.FLASHOVER):
                scene.lifecycle(fire, Trigger.FLASHOVER, f"flashover in {key}")


def finished(scene: Scene) -> bool:
    """The scene is over when nothing burns and the smoke has cleared, or the GM ended it.

    A script with a cue still due at a later round (a lamp that falls at round 2) keeps it open."""
    if scene.ended:
        return True
    smoke_left = scene.smoke is not None and bool(scene.smoke.density)
    if scene.fires or smoke_left or any(m.alight(scene) for m in scene.modules):
        return False
    return not (scene.script is not None and scene.script.pending(scene))


def run_scene(scene: Scene, controller: Controller, rounds: int | None = None) -> None:
    """Play from the start until the scene is over or ``rounds`` (default: the settings' limit)."""
    limit = rounds if rounds is not None else scene.settings.max_rounds
    if scene.round == 0:
        start_scene(scene)
    while scene.round < limit and not finished(scene):
        play_round(scene, controller)
    end_scene(scene)


def end_scene(scene: Scene) -> None:
    scene.phase = END_PHASE
    b = scene.building
    scene.emit(EventKind.SCENE_END, None, None, rounds=scene.round,
               burning=len(scene.fires), burned_out=sum(1 for a in b.areas if a.burned_out),
               heroes={h.name: h.status.value for h in scene.heroes})
