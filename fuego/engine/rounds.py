"""The round scheduler: start of round, phases 1-10, end of round (RULES-NOTES, Rounds).

One round of :func:`play_round`:

1. **Start**: the round's script effects; module hooks (weather, wind); every fire and every
   active hero rolls Panache action dice (no ten again).
2. **Phases 1-10**: whoever has an unspent die showing this phase or earlier may act; the order
   is the highest sum of unspent dice, then the higher Panache, then a draw from the scene's
   roller. A fire spends its die on what its policy picks; a hero on what the controller picks,
   or holds the die for a later phase. Fires started during the round act from the next round.
3. **End**, always in this order (docs/rules.md, "End of round"):
   a. heroes in a burning area whom that fire has not hurt this round take its damage now;
   b. the fire on a hero burns, clothes or oil (clinging exposure: an extra Dramatic Wound per 10);
   c. smoke grows, spreads, vents, lingers or clears;
   d. heroes in smoke: rounds in thick smoke count up, the confusion check, confusion ends outside;
   e. bad air: holding breath, then suffocation checks;
   f. every fire's fuel check (its own damage roll as wounds, checked with its Resolve);
   g. module end-of-round hooks;
   h. flashover check;
   i. the script's end-of-round triggers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fuego.dice.roller import trait_check
from fuego.engine.events import END_PHASE, LOG_FORMAT, START_PHASE, EventKind
from fuego.engine.events import shape as event_shape
from fuego.engine.fire import ACTING, Fire, FireState, Trigger
from fuego.engine.fire_actions import ActionKind, FireAction, candidates, candidates_all, perform_all
from fuego.engine.hero_actions import options
from fuego.engine.hero_actions import perform as hero_perform
from fuego.engine.heroes import Hero
from fuego.engine.injury import (
    DamageCause,
    add_dramatic,
    burn,
    contact_with,
    dramatic_wounds,
    hero_roll,
)
from fuego.engine.policy import POLICIES, Policy
from fuego.engine.script import When
from fuego.rules.charts import (
    CONFUSION_AFTER_ROUNDS,
    CONFUSION_TN_PER_ROUND,
    SUFFOCATION_TN_PER_ROUND,
    Contact,
    Exposure,
)
from fuego.rules.settings import FlashoverMode, RoundBurn, SuffocationFire

if TYPE_CHECKING:
    from fuego.engine.controllers import Controller
    from fuego.engine.scene import Scene


def _script(scene: Scene, when: When) -> None:
    if scene.script is not None:
        scene.script.check(scene, when)


def also_burning_data(scene: Scene) -> dict[str, list[list[str]]]:
    """The ``also_burning`` of the round's and the scene's events: what the modules keep
    burning outside the fires (a burning wreck), as [area, what]; nothing when there is none,
    so a scene without any logs as before."""
    also = scene.also_burning()
    return {"also_burning": [[scene.area_name(b.area), b.what] for b in also]} if also else {}


def npcs_data(scene: Scene) -> dict[str, list[str]]:
    """The ``npcs`` of the opening event: which characters the GM plays, so that what reads
    the log tells them from the players' heroes; nothing when there is none."""
    npcs = [h.name for h in scene.heroes if h.npc]
    return {"npcs": npcs} if npcs else {}


def start_scene(scene: Scene) -> None:
    """Once before round 1: module set-up and the opening event."""
    scene.emit(EventKind.SCENE_START, None, None, title=scene.title, seed=scene.roller.seed,
               fires=len(scene.fires), heroes=[h.name for h in scene.heroes], format=LOG_FORMAT,
               starts={h.name: scene.area_name(h.area) for h in scene.heroes},
               **also_burning_data(scene), **npcs_data(scene))
    for m in scene.modules:
        m.scene_start(scene)
    _script(scene, When.SCENE_START)


def _ordered(scene: Scene, actors: list) -> list:
    """Highest sum of unspent dice, then Panache, then a draw (RULES-NOTES).

    Ties are gathered in the order given and shuffled by the scene's roller, highest first."""
    if len(actors) < 2:
        return list(actors)
    tied: dict[tuple[int, int], list] = {}
    group_of = tied.get
    for actor in actors:
        key = (sum(actor.dice), actor.panache)
        group = group_of(key)
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
    scene.emit(EventKind.ROUND_START, None, None, fires=len(scene.fires),
               heroes=sum(1 for h in scene.heroes if h.in_play), **also_burning_data(scene))
    _script(scene, When.START)
    for m in scene.modules:
        m.round_start(scene)
    controller.round_start(scene)
    action_dice = scene.roller.action_dice
    buckets: list[list] = [[] for _ in range(11)]  # the actors by their first die's phase
    acting = _fires_action_dice(scene, buckets)
    hero_dice = {}
    for hero in scene.heroes:
        hero.fire_damaged = False
        hero.burned_by.clear()
        hero.dice = action_dice(hero.panache) if hero.in_play else []
        if hero.dice:
            ask = getattr(controller, "action_dice", None)  # (Controller's; duck-typed ones)
            own = ask(scene, hero, hero.dice) if ask is not None else None  # a player's roll
            if own is not None:
                hero.dice = own
            hero_dice[hero.name] = list(hero.dice)
    scene.emit(EventKind.ACTION_DICE, None, None, heroes=hero_dice,
               fire_actions=sum(len(f.dice) for f in acting))
    for hero in scene.heroes:  # (after the fires: the order the phases gather them in)
        if hero.dice:
            buckets[hero.dice[0]].append(hero)
    _phases(scene, controller, buckets)
    end_round(scene)


def _fires_action_dice(scene: Scene, buckets: list[list]) -> list[Fire]:
    """Every fire that can act rolls its action dice, in area order (before the heroes: the
    order they roll in), and goes to the bucket of its first die's phase; the fires that
    cannot act have none. Returns the acting fires."""
    fires = scene.fires
    acting = []
    for i in sorted(fires):
        fire = fires[i]
        if fire.state in ACTING:  # (Fire.can_spread)
            acting.append(fire)
        else:
            fire.dice = []
    for fire, dice in zip(acting, scene.roller.action_dice_all([f.panache for f in acting])):
        fire.dice = dice
        if dice:
            buckets[dice[0]].append(fire)
    return acting


def _phases(scene: Scene, controller: Controller, buckets: list[list]) -> None:
    """Phases 1-10: each actor with a die showing this phase or earlier acts, in order.

    A phase is played as passes: everyone due acts once, in the phase order; whoever still has
    a die due acts again in the next pass. Within a pass, the fires between two heroes act as
    one run (:func:`_fire_pass`)."""
    policy = POLICIES[scene.settings.temperament]
    for phase in range(1, 11):
        scene.phase = phase
        pending = buckets[phase]
        while pending:
            again: list = []
            run: list[Fire] = []
            for actor in _ordered(scene, pending):
                if type(actor) is Fire:
                    run.append(actor)
                    continue
                if run:
                    _fire_pass(scene, run, policy, phase, again, buckets)
                    run = []
                _hero_acts(scene, actor, controller, phase, again, buckets)
            if run:
                _fire_pass(scene, run, policy, phase, again, buckets)
            pending = again
            _script(scene, When.PHASE)


def _requeue(actor, phase: int, again: list, buckets: list[list]) -> None:
    if actor.dice:
        nxt = actor.dice[0]
        (again if nxt <= phase else buckets[nxt]).append(actor)


def _fire_pass(scene: Scene, fires: list[Fire], policy: Policy, phase: int, again: list,
               buckets: list[list]) -> None:
    """The fires of a run, in the phase order, each spending a die on what its policy picks if
    it still burns there and can act (not a Flame, not out); its next die goes to the next pass
    or a later phase.

    Every fire decides on the state at the start of the pass (:class:`_Choices`: the run's
    candidates asked for at once); the results are applied in the phase order, and a fire
    whose choice an earlier result touched decides again on the state that result left. So
    each fire decides what it would have deciding after the one before it. The rolls of
    consecutive actions are drawn together (``perform_all``) up to one that may change the
    scene; a policy that draws when it chooses has the rolls before it drawn first. Draws and
    log are those of one fire after another."""
    lit = scene.fires
    run = [f for f in fires if lit.get(f.area) is f and f.dice and f.state in ACTING]
    choose, draws = policy.choose, policy.draws
    choices = _Choices(scene, run, policy.fuel_only)
    acts = choices.acts
    batch: list[Fire] = []
    chosen: list[FireAction] = []
    for k, fire in enumerate(run):
        if not choices.changed_any:  # (as at the start of the pass: it can act, as it chose)
            mine = acts[k]
        elif lit.get(fire.area) is not fire or fire.state not in ACTING:
            continue  # (put out, or moved, by an earlier result)
        else:
            mine = choices.of(k, fire)
        fire.dice.pop(0)
        if draws and batch:
            perform_all(scene, batch, chosen)
            batch, chosen = [], []
        act = choose(scene, fire, mine)
        if act is not None:
            batch.append(fire)
            chosen.append(act)
            if act.kind is not _GROW:  # (it may change the scene: carried out now)
                done = perform_all(scene, batch, chosen)
                batch, chosen = [], []
                if done[-1] or act.tn is None:  # (a route lights the areas on its way even
                    choices.changed(k, act)  # where its end does not take)
        _requeue(fire, phase, again, buckets)
    if batch:
        perform_all(scene, batch, chosen)


_GROW = ActionKind.GROW


class _Choices:
    """What each fire of a run may do (``candidates_all`` on the state at the start of the
    pass), and which of them the results applied since have touched: those decide again.

    A grow or a failed roll touches no one else. A spread, leap or burn-through that took sets
    areas alight: it touches the fires whose own area or candidates (targets, routes) are
    among them. Anything else a choice reads (barriers, reach, fuel given back, burned-out
    areas) changes only with the building's version; and what modules' hooks may change is
    unknown: either touches every later fire (a conservative touch is still exact)."""

    __slots__ = ("scene", "run", "acts", "fuel_only", "version", "stale", "touched", "index",
                 "changed_any")

    def __init__(self, scene: Scene, run: list[Fire], fuel_only: bool) -> None:
        self.scene, self.run, self.fuel_only = scene, run, fuel_only
        self.acts = candidates_all(scene, run, fuel_only=fuel_only)
        self.version = scene.building.version
        self.stale = len(run)  # from this position on, every fire decides again
        self.touched: set[int] = set()  # positions an earlier result touched
        self.index: dict[int, list[int]] | None = None  # area -> positions reading it
        self.changed_any = False  # has any result changed the scene yet?

    def of(self, k: int, fire: Fire) -> list[FireAction]:
        """The candidates of the fire at position ``k``, asked for again where touched."""
        if k < self.stale and k not in self.touched:
            return self.acts[k]
        return candidates(self.scene, fire, fuel_only=self.fuel_only)

    def changed(self, k: int, act: FireAction) -> None:
        """The action of the fire at position ``k`` changed the scene."""
        self.changed_any = True
        if k + 1 >= self.stale:
            return
        scene = self.scene
        if scene.modules or scene.building.version != self.version:
            self.stale = k + 1
            return
        index = self.index
        if index is None:  # (made at the first change: most passes have none)
            index = self.index = {}
            for p in range(k + 1, len(self.run)):
                index.setdefault(self.run[p].area, []).append(p)
                for a in self.acts[p]:
                    for i in a.path or (a.target,):
                        if i is not None:
                            index.setdefault(i, []).append(p)
        lit = act.path or ((act.target,) if act.target is not None else ())
        for i in lit:  # (its target; a route's every area on the way)
            self.touched.update(index.get(i, ()))


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
               heroes={h.name: [h.status.value, h.flesh, h.dramatic] for h in scene.heroes},
               **also_burning_data(scene))


def _exposure(scene: Scene) -> None:
    """a. Standing in fire: its damage at the end of the round, unless *it* already hurt the
    hero this round (003: "if they haven't taken damage from it"; ``rules.round_burn: any``,
    the older reading, lets any fire damage spare them)."""
    per_fire = scene.settings.round_burn is RoundBurn.PER_FIRE
    for hero in scene.heroes:
        fire = scene.fires.get(hero.area)
        if fire is None or not hero.present or not scene.harms(fire):
            continue
        if fire.id in hero.burned_by if per_fire else hero.fire_damaged:
            continue
        burn(scene, hero, fire.fd, contact_with(scene, fire.area, moving=False),
             DamageCause.STANDING.value, temperature=fire.temperature, source=fire.id,
             explode=fire.explodes)


def _clothes(scene: Scene) -> None:
    """b. The fire on a hero, clothes or hair or burning oil, burns them (003: "at the end of a
    round they are on fire in"), with clinging wounds; oil is a chemical fire, hot."""
    for hero in scene.heroes:
        if hero.clothes_fd and hero.present:
            if hero.oiled:
                burn(scene, hero, hero.clothes_fd, Contact.OIL, DamageCause.BURNING_OIL.value)
            else:
                burn(scene, hero, hero.clothes_fd, Contact.CLOTHES, DamageCause.CLOTHES.value)


def _smoke_on_heroes(scene: Scene) -> None:
    """d. Thick smoke: after more than two rounds, Wits vs 5 x rounds or confused (003)."""
    from fuego.rules.charts import Density

    smoke = scene.smoke
    assert smoke is not None  # (called only where the scene has smoke)
    for hero in scene.heroes:
        if not hero.in_play:
            continue
        d = smoke.at(hero.area)
        if d is Density.THICK:
            hero.thick_rounds += 1
        else:
            hero.thick_rounds = 0
        if d is Density.NONE and hero.confused:
            hero.confused = False
            scene.emit(EventKind.HERO_UNCONFUSED, hero.name, hero.area)
        if hero.thick_rounds > CONFUSION_AFTER_ROUNDS and not hero.confused:
            tn = CONFUSION_TN_PER_ROUND * hero.thick_rounds
            total, pool = hero_roll(scene, hero, trait_check(hero.wits), tn, "keep bearings",
                                    action=False)
            scene.emit(EventKind.CONFUSION_CHECK, hero.name, hero.area, pool=pool.notation,
                       tn=tn, total=total, success=total >= tn, rounds=hero.thick_rounds)
            if total < tn:
                hero.confused = True
                scene.emit(EventKind.HERO_CONFUSED, hero.name, hero.area, pool=pool.notation,
                           tn=tn, total=total, rounds=hero.thick_rounds)


def needs_air(scene: Scene, hero: Hero) -> bool:
    """Trapped without adequate air (003, Suffocation: "trapped in a room that is on fire or
    filled with smoke"): the hero's room burns (any of its areas; ``rules.suffocation_fire:
    area``, the older reading, asks for the hero's own) or is filled with smoke, and it does
    not vent."""
    b = scene.building
    room = b.areas[hero.area].room
    if b.room_vents(room):
        return False
    fires = scene.fires
    if scene.settings.suffocation_fire is SuffocationFire.AREA:
        if hero.area in fires:
            return True
    elif any(i in fires for i in b.room_areas(room)):
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
            add_dramatic(scene, hero, 1, "suffocation", deadly=False)


def _fuel_checks(scene: Scene) -> None:
    """f. Each fire in area order makes its fuel check (a Flame is not yet eating its fuel:
    flame-and-blaze module)."""
    fires = scene.fires
    fuel_checks(scene, [f for i in sorted(fires) if (f := fires[i]).state is not FireState.FLAME])


#: The keys of a fuel check's event, in the order they are logged.
_FUEL_CHECK_KEYS = ("damage", "damage_pool", "flesh", "pool", "total", "success", "dramatic",
                    "resolve")


def fuel_checks(scene: Scene, fires: list[Fire]) -> None:
    """Each fire, in turn, rolls its own damage as Flesh Wounds and checks them with Resolve k
    Resolve, as a character's wound check (003; RULES-NOTES). A failure gives Dramatic Wounds:
    the lifecycle's ``wound`` puts it out at its kind's limit, or a crippled Villain gutters (the
    machine's conditions decide).

    In one batch: every roll drawn at once in the order the checks make them
    (:meth:`Roller.totals`; a fire going out rolls nothing, so its neighbours' rolls are the
    same), the events logged as rows, and only the fires at a limit dispatched through the
    machine, each right after its own check's event."""
    pools = [p for f in fires for p in (f.damage_pool(), f.fuel_check_pool())]
    rolls = scene.roller.totals(pools)
    fire_names, area_names = scene.names()
    shape = event_shape(EventKind.FIRE_FUEL_CHECK, _FUEL_CHECK_KEYS)
    logged = scene.logs(EventKind.FIRE_FUEL_CHECK)  # (a forecast's log may keep none)
    rnd, phase, fleeting = scene.round, scene.phase, Exposure.FLEETING
    rows: list[tuple] = []
    add = rows.append
    for fire, damage_pool, pool, damage, check in zip(fires, pools[::2], pools[1::2], rolls[::2],
                                                      rolls[1::2]):
        flesh = fire.flesh + damage
        ok = check >= flesh
        if ok:
            fire.flesh = flesh
        else:
            fire.flesh = 0
            fire.dramatic += dramatic_wounds(flesh, check, fleeting)
        if logged:
            area = fire.area
            add((shape, rnd, phase, fire_names[area], area_names[area], damage,
                 damage_pool.notation, flesh, pool.notation, check, ok, fire.dramatic,
                 fire.resolve))
        if not ok and (fire.spent or fire.crippled):  # at a limit: the machine decides which way
            scene.emit_rows(rows)
            rows = []
            add = rows.append
            fire.trigger(Trigger.WOUND, scene)
    scene.emit_rows(rows)


def fuel_check(scene: Scene, fire: Fire) -> None:
    """One fire's fuel check (:func:`fuel_checks`)."""
    fuel_checks(scene, [fire])


def _burning_rooms(scene: Scene) -> dict[str, list[Fire]]:
    """The enclosed rooms not flashed over yet, each with its fires in area order (as the room
    lists its areas): grouped in one pass over the fires, so flashover costs per fire, not per
    area of the rooms (a quarter's street is one room of thousands of areas)."""
    b = scene.building
    areas, rooms, flashed = b.areas, b.rooms, scene.flashed
    by_room: dict[str, list[Fire]] = {}
    for i in sorted(scene.fires):
        key = areas[i].room
        if key not in flashed and not rooms[key].outdoors:
            by_room.setdefault(key, []).append(scene.fires[i])
    return by_room


def check_flashover(scene: Scene) -> None:
    """h. Flashover (fuego's reading, a scenario setting): an enclosed room flashes over and
    every fire in it turns hot when

    - ``all-burning``: its burnable areas all burn, none of those fires started this round (the
      room takes a round to heat), and their Fire Dice add up to ``flashover_min_dice`` (a
      stone closet with a fresh one-die fire is no flashover);
    - ``all-lit``: its burnable areas all burn (the older reading);
    - ``dice``: its Fire Dice reach ``flashover_dice_per_area`` per area."""
    mode = scene.settings.flashover
    if mode is FlashoverMode.OFF or not scene.fires:
        return
    b = scene.building
    by_room = _burning_rooms(scene)
    for key in sorted(by_room):
        fires = by_room[key]
        if mode is FlashoverMode.DICE:
            need = scene.settings.flashover_dice_per_area * len(b.room_areas(key))
            hit = sum(f.fd for f in fires) >= need
        else:
            # all of them burn: as many fires on fuel there as the room has areas that can burn
            burnable, fuel = b.paths.burnable_count(key), b.paths.fuel_flags()
            hit = burnable > 0 and sum(fuel[f.area] for f in fires) == burnable
            if hit and mode is FlashoverMode.ALL_BURNING:
                hit = (all(f.born < scene.round for f in fires)
                       and sum(f.fd for f in fires) >= scene.settings.flashover_min_dice)
        if not hit:
            continue
        scene.flashed.add(key)
        scene.emit(EventKind.FLASHOVER, None, None, room=key, fires=len(fires))
        for fire in fires:
            if fire.may(Trigger.HEAT):
                scene.lifecycle(fire, Trigger.HEAT, f"flashover in {key}")
