"""Plans a GM picks for the heroes of a forecast: what each hero tries to do in the fire.

- ``flee``: make for the nearest way out (the automatic heroes of ``fuego run``,
  :class:`~fuego.engine.controllers.AutoController`), skirting the fire they know of;
- ``fight``: smother the nearest fire they know of while they can (until one more Dramatic
  Wound would cripple or knock them out), then flee; knowing of no fire to reach they leave;
- ``rescue:NPC``: go to the named NPC, then out together (the NPC flees on its own plan);
  the rescuer knows where the NPC is, seen or not (they came for them: docs/rules.md);
- ``hold``: stay put (putting out their own burning clothes).

:class:`PlanController` plays them, reusing the automatic heroes' way of walking (doors, the
fire in the way that they know of: ``AutoController.known``) towards another goal; a
scenario's ``actions:`` still win where given (:class:`~fuego.engine.controllers.ScriptedController`
falls back to the plan).
:func:`parse_plans` reads the GM's words (``fight``, ``Isabela=rescue:Mother Hettie``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from fuego.engine.controllers import AutoController
from fuego.engine.hero_actions import HeroAction, HeroActionKind, may_smother
from fuego.errors import FuegoError, one_of
from fuego.names import called
from fuego.text import fold_name

if TYPE_CHECKING:
    from fuego.engine.heroes import Hero
    from fuego.engine.scene import Scene

__all__ = ["PlanKind", "Plan", "HeroPlans", "PlanController", "parse_plans", "parse_plan"]


class PlanKind(str, Enum):
    FLEE = "flee"
    FIGHT = "fight"
    RESCUE = "rescue"
    HOLD = "hold"


@dataclass(frozen=True)
class Plan:
    kind: PlanKind
    target: str | None = None  # the NPC to fetch (rescue)

    def __str__(self) -> str:
        return f"{self.kind.value}:{self.target}" if self.target else self.kind.value


FLEE = Plan(PlanKind.FLEE)


@dataclass(frozen=True)
class HeroPlans:
    """The plan of every hero: ``default`` for the player heroes not named, ``flee`` for NPCs
    not named; ``named`` by hero name (folded: ``fuego.text.fold_name``)."""

    default: Plan = FLEE
    named: dict[str, Plan] = field(default_factory=dict)
    #: NPCs the scene's script brings in later (folded names): a rescuer waits for them
    awaited: frozenset[str] = frozenset()

    def for_hero(self, hero: Hero) -> Plan:
        plan = self.named.get(fold_name(hero.name))
        if plan is not None:
            return plan
        return FLEE if hero.npc else self.default

    def describe(self, heroes: list[Hero], arrivals: list[str] | tuple[str, ...] = ()
                 ) -> dict[str, str]:
        """Each hero's plan in words; ``arrivals``: NPCs the script brings in later."""
        out = {h.name: str(self.for_hero(h)) for h in heroes}
        for name in arrivals:  # an NPC: flees unless named
            out[name] = str(self.named.get(fold_name(name), FLEE))
        return out


def _find(name: str, names: list[str], what: str) -> str:
    hits = called(name, names)  # (the table's reading: "Bjorn", "Hettie", "mother hettie")
    if len(hits) == 1:
        return names[hits[0]]
    if hits:
        raise FuegoError(f"{name.strip()!r} names {len(hits)} heroes: "
                         f"{one_of(names[i] for i in hits)}",
                         tip=f"name the one you mean in full, e.g. {names[hits[0]]}")
    raise FuegoError(f"no {what} {name!r} in this scenario",
                     tip="heroes here: " + ", ".join(names))


def _plan(text: str, names: list[str], npcs: list[str]) -> Plan:
    word, _, target = text.strip().partition(":")
    try:
        kind = PlanKind(word.strip().lower())
    except ValueError:
        # (the example is one of this scenario's NPCs: another scenario's name would mislead)
        example = f" (e.g. rescue:{npcs[0]})" if npcs else " (this scenario has no NPC)"
        raise FuegoError(f"not a plan: {text!r}",
                         tip=f"flee, fight, hold or rescue:NPC{example}") from None
    if kind is PlanKind.RESCUE:
        if not target.strip():
            raise FuegoError("rescue needs the NPC to fetch: rescue:NAME",
                             tip="NPCs here: " + (", ".join(npcs) or "none"))
        return Plan(kind, _find(target, names, "hero or NPC"))
    if target:
        raise FuegoError(f"the plan {word!r} takes no name (only rescue:NAME does)")
    return Plan(kind)


def parse_plan(text: str, names: list[str], npcs: list[str]) -> Plan:
    """One plan in the GM's words (``fight``, ``rescue:Hettie``) among the heroes ``names``
    (``npcs`` the NPCs among them, for the tip); FuegoError when it is not one."""
    return _plan(text, names, npcs)


def parse_plans(texts: list[str] | tuple[str, ...], heroes: list[Hero],
                arrivals: list[str] | tuple[str, ...] = (),
                base: HeroPlans | None = None) -> HeroPlans:
    """``["fight"]`` (every player hero), ``["Isabela=hold", "Gaston=rescue:Hettie"]``
    (named heroes; a name is the hero's full name or a word of it no other name has).
    ``arrivals``: the NPCs the script brings in later, who may be rescued (and given plans)
    too. ``base``: the scenario's own plans, which the texts change: a plan for every player
    hero replaces theirs, a named hero's replaces that hero's; the rest are kept."""
    present = [h.name for h in heroes]
    later = [n for n in arrivals if fold_name(n) not in {fold_name(p) for p in present}]
    names = present + later
    npcs = [h.name for h in heroes if h.npc] + later
    default = base.default if base is not None else FLEE
    named: dict[str, Plan] = dict(base.named) if base is not None else {}
    bare = [text for text in texts if "=" not in text]
    for text in bare:  # the last one wins
        default = _plan(text, names, npcs)
    if bare:  # for every player hero: the scenario's plans for them give way (NPCs keep theirs)
        players = {fold_name(h.name) for h in heroes if not h.npc}
        named = {k: v for k, v in named.items() if k not in players}
    for text in texts:
        who, sep, what = text.partition("=")
        if sep:
            named[fold_name(_find(who, names, "hero"))] = _plan(what, names, npcs)
    return HeroPlans(default, named, frozenset(fold_name(n) for n in later))


class PlanController(AutoController):
    """Heroes following their :class:`HeroPlans` (the automatic heroes' walking, other goals)."""

    def __init__(self, plans: HeroPlans) -> None:
        super().__init__()
        self.plans = plans
        self._goal: list[int] | None = None
        self._reached: set[str] = set()

    def costs_for(self, scene: Scene, hero: Hero, at: list[int]) -> list[float]:
        if self._goal is None:
            return super().costs_for(scene, hero, at)
        # the same tolls as the way out (the fire this hero knows of, read once a phase)
        return scene.building.paths.costs_to_at(self._goal, self._read_tolls(scene, hero), at)

    def _toward(self, scene: Scene, hero: Hero, legal: list[HeroAction],
                goal: list[int]) -> HeroAction | None:
        self._goal = goal
        try:
            return super().choose(scene, hero, legal)
        finally:
            self._goal = None

    def choose(self, scene: Scene, hero: Hero, legal: list[HeroAction]) -> HeroAction | None:
        plan = self.plans.for_hero(hero)
        if plan.kind is PlanKind.FLEE:
            return super().choose(scene, hero, legal)
        own = [a for a in legal if a.kind is HeroActionKind.PUT_OUT_CLOTHES and a.other is None]
        if own:
            return own[0]
        if plan.kind is PlanKind.HOLD:
            wait = [a for a in legal if a.kind is HeroActionKind.WAIT]
            return wait[0] if wait else None
        if plan.kind is PlanKind.FIGHT:
            return self._fight(scene, hero, legal)
        return self._rescue(scene, hero, legal, plan.target or "")

    def _spent(self, hero: Hero) -> bool:
        """One more Dramatic Wound would cripple or knock the hero out: time to go."""
        limit = hero.crippled_at
        limit = min(limit, hero.knocked_out_at) if limit is not None else hero.knocked_out_at
        return hero.dramatic >= limit - 1

    def _fight(self, scene: Scene, hero: Hero, legal: list[HeroAction]) -> HeroAction | None:
        # The fires the hero knows of, as their way out reads them (what they see, and saw
        # this round): a fighter does not make for a fire behind a wall they never saw.
        known = self.known(scene, hero)
        if self._spent(hero) or not known:
            return super().choose(scene, hero, legal)
        smother = [a for a in legal if a.kind is HeroActionKind.SMOTHER and a.target in known]
        if smother:  # the fire underfoot first, then the smallest within reach
            return min(smother, key=lambda a: (a.target != hero.area,
                                               scene.fires[a.target or 0].fd, a.target or 0))
        b = scene.building
        # where a known fire can be smothered from without standing in one they know of (a
        # fire no one may smother, a Blaze with flame-and-blaze, is no reason to stay)
        goal = sorted({j for i in known if may_smother(scene, scene.fires[i])
                       for j in (i, *b.open_neighbours(i)) if j not in known})
        if not goal:
            return super().choose(scene, hero, legal)
        return self._toward(scene, hero, legal, goal)

    def _rescue(self, scene: Scene, hero: Hero, legal: list[HeroAction],
                target: str) -> HeroAction | None:
        npc = next((h for h in scene.heroes if h.name == target), None)
        if npc is None and fold_name(target) in self.plans.awaited:
            # not arrived yet: the rescuer stays where it is until the script brings them
            wait = [a for a in legal if a.kind is HeroActionKind.WAIT]
            return wait[0] if wait else None
        if npc is None or not npc.in_play or npc is hero or hero.name in self._reached:
            return super().choose(scene, hero, legal)
        if npc.area == hero.area:
            self._reached.add(hero.name)  # found: now out, together
            return super().choose(scene, hero, legal)
        return self._toward(scene, hero, legal, [npc.area])
