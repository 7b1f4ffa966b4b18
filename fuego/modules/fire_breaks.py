"""fire-breaks: clearing fuel before the fire comes (ASL 36, Prepared Fire Zones).

- Before round 1 the GM (``factors``), or the heroes with time (``crew_hours``: every 4 hours of
  one person's work, one factor; fuego's reading), spends fire-break factors on outdoor areas.
- ASL converts terrain by weight of fuel (002, 36.21-36.22): a heavy area (woods, forest, light
  or heavy woods, jungle) becomes a vineyard-like light one for one factor; a light area (brush,
  vineyard, orchard, grain) becomes open ground for one factor, so woods to open ground costs 2.
  fuego's classes: ``heavy`` -> ``light`` (terrain vineyard, fuel at most 2) -> ``clear``
  (terrain clear, fuel 0: nothing left to burn). Buildings, roads, water and open ground cannot
  be converted.
- Paths go (36.3): a run of fuel (a route: a trail of hay, dry undergrowth, a fuse) is cut where
  it crosses a cleared area. Roads stay (they are not fuel); walls, hedges and water are
  untouched (36.4, 36.5): barriers do not change.
- ``areas: {woodlot: light, ground:C4: clear}`` names what to clear (a room key clears each of
  its areas). :func:`summary` is what ``fuego check`` prints; :func:`cleared_by_area` is what a
  map marks (``fuego map``, ``fuego show``, ``fuego export``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fuego.engine.rule_module import RuleModule
from fuego.errors import FuegoError
from fuego.modules import register
from fuego.modules.common import (
    TERRAINS,
    OptionError,
    Options,
    TerrainOption,
    natural_terrain,
    note,
    outdoors,
    resolve_refs,
)
from fuego.words import plural

if TYPE_CHECKING:
    from fuego.engine.scene import Scene

# -- tables ---------------------------------------------------------------------------------------
#: Fuel classes, heaviest first: one PFZ factor converts one area one step (002, ASL 36.21: woods
#: to vineyard for one factor; 36.22: vineyard, brush, orchard, grain to Open Ground for one).
FUEL_CLASSES = ("heavy", "light", "clear")
COST_PER_STEP = 1
#: What a converted area becomes (002, 36.2: "Vineyard / Open Ground"), and the most fuel
#: (Resolve, 003 fuel table) it keeps: fuego's reading.
CONVERTED_TERRAIN = {"light": "vineyard", "clear": "clear"}
CONVERTED_FUEL_CAP = {"light": 2, "clear": 0}
#: Words a scenario may use for the classes.
CLASS_WORDS = {"light": "light", "vineyard": "light", "clear": "clear", "open-ground": "clear"}
#: fuego's reading: hours of one person's work to clear one factor's worth (a 10-ft square of
#: woods thinned to scrub, or scrub cut to bare ground).
CREW_HOURS_PER_FACTOR = 4


@register
class FireBreaks(TerrainOption, RuleModule):
    name = "fire-breaks"
    source = "002 ASL 36 (Prepared Fire Zone): 36.2-36.22 conversion, 36.3 paths, 36.4-36.5"

    def __init__(self, options: dict[str, Any] | None = None):
        super().__init__(options)
        o = Options(self.name, options)
        self.factors = o.integer("factors", 0, 0, 999)
        self.crew_hours = o.integer("crew_hours", 0, 0, 100_000)
        self.terrain = o.terrain("terrain")
        self.orders: dict[str, str] = {}
        for k, v in o.mapping("areas").items():
            word = v.strip().lower().replace("_", "-") if isinstance(v, str) else v
            if not isinstance(word, str) or word not in CLASS_WORDS:
                raise o.error(f"areas.{k}", f"expected one of light, clear (or vineyard, "
                              f"open-ground), got {v!r}")
            self.orders[k] = CLASS_WORDS[word]
        self.cut_paths = o.boolean("cut_paths", True)
        o.done()
        self.converted: dict[int, str] = {}  # area -> its terrain after clearing
        self.cleared: dict[int, str] = {}  # area -> fuel class it was cleared to
        self.paths_cut: list[str] = []
        self.applied = False

    @property
    def budget(self) -> int:
        return self.factors + self.crew_hours // CREW_HOURS_PER_FACTOR

    # -- the plan -----------------------------------------------------------------------------------
    def plan(self, scene: Scene) -> dict[str, Any]:
        """What the orders would do to this scene: conversions, cost, problems."""
        b = scene.building
        problems: list[str] = []
        rows = []
        targets: dict[int, str] = {}
        for ref, to in self.orders.items():  # each order alone: one bad name spoils no other
            try:
                targets.update(resolve_refs(b, {ref: to}, self.name, "areas"))
            except OptionError as exc:
                problems.append(exc.render())
        spent = 0
        for i in sorted(targets):
            to = targets[i]
            area = b.areas[i]
            before = natural_terrain(scene, i)
            klass = TERRAINS[before].fuel_class
            where = f"rules.modules.{self.name}.areas: {area.name}"
            if not outdoors(b, i):
                problems.append(f"{where} is indoors; only outdoor terrain can be cleared")
                continue
            if klass is None:
                problems.append(f"{where} is {before}, which cannot be converted")
                continue
            steps = FUEL_CLASSES.index(to) - FUEL_CLASSES.index(klass)
            if steps <= 0:
                continue  # already that light: nothing to spend
            if i in scene.fires and not self.applied:
                problems.append(f"{where} holds a starting fire; it cannot be cleared")
                continue
            cost = COST_PER_STEP * steps
            spent += cost
            rows.append({"area": area.name, "from": before, "to": CONVERTED_TERRAIN[to],
                         "class": to, "cost": cost,
                         "fuel": [area.fuel, min(area.fuel, CONVERTED_FUEL_CAP[to])]})
        if spent > self.budget:
            problems.append(f"rules.modules.{self.name}: the clearing costs "
                            f"{plural(spent, 'factor')}, more than the {self.budget} available")
        cut = []
        if self.cut_paths:
            chosen = {b.find(str(r["area"])) for r in rows}
            cut = [r.name for r in b.routes if chosen & set(r.areas)]
        return {"factors": self.budget, "granted": self.factors,
                "from_crew_hours": self.crew_hours // CREW_HOURS_PER_FACTOR, "spent": spent,
                "left": self.budget - spent, "areas": rows, "paths_cut": cut,
                "problems": problems}

    def scene_start(self, scene: Scene) -> None:
        if self.applied:
            return
        self.terrain_by_area(scene.building)
        p = self.plan(scene)
        if p["problems"]:
            raise FuegoError(p["problems"][0])
        b = scene.building
        for row in p["areas"]:
            i = b.find(row["area"])
            assert i is not None  # (the plan names the scene's own areas)
            self.converted[i] = row["to"]
            self.cleared[i] = row["class"]
            b.set_fuel(i, row["fuel"][1])
        if self.cut_paths and self.cleared:
            self.paths_cut = b.cut_routes(set(self.cleared))
        self.applied = True
        if p["factors"] or p["spent"]:
            note(scene, self.name, f"fire breaks: {p['spent']} of {plural(p['factors'], 'factor')} spent, "
                 f"{plural(len(p['areas']), 'area')} cleared"
                 + (f", {plural(len(self.paths_cut), 'path')} cut" if self.paths_cut else ""),
                 spent=p["spent"], factors=p["factors"],
                 areas={r["area"]: r["class"] for r in p["areas"]}, paths_cut=self.paths_cut)

    # -- saves ----------------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {"converted": sorted([i, t] for i, t in self.converted.items()),
                "cleared": sorted([i, c] for i, c in self.cleared.items()),
                "paths_cut": list(self.paths_cut), "applied": self.applied}

    def load_state(self, state: dict[str, Any]) -> None:
        self.converted = {i: t for i, t in state["converted"]}
        self.cleared = {i: c for i, c in state["cleared"]}
        self.paths_cut = list(state["paths_cut"])
        self.applied = state["applied"]


def summary(scene: Scene) -> dict[str, Any] | None:
    """The fire-break spend of a built scene, for ``fuego check`` (None when the module is off):
    ``factors`` available (``granted`` + ``from_crew_hours``), ``spent``, ``left``, ``areas``
    (area, from, to, class, cost, fuel [before, after]), ``paths_cut`` and ``problems``."""
    m = scene.module(FireBreaks)
    if m is None:
        return None
    return m.plan(scene)


def summary_text(plan: dict[str, Any]) -> str:
    """A :func:`summary` in one line: the factors spent of those given, on which areas (each
    from its terrain to what it becomes), the paths cut, any problems."""
    text = (f"fire breaks: {plan['spent']} of {plural(plan['factors'], 'factor')} spent on "
            + plural(len(plan["areas"]), "area"))
    if plan["areas"]:
        text += " (" + ", ".join(f"{r['area']} {r['from']} -> {r['to']}"
                                 for r in plan["areas"]) + ")"
    if plan["paths_cut"]:
        text += f"; paths cut: {', '.join(plan['paths_cut'])}"
    if plan["problems"]:
        text += f"; {plural(len(plan['problems']), 'problem')}: " + "; ".join(plan["problems"])
    return text


def summary_line(scene: Scene) -> str | None:
    """:func:`summary_text` of the scene's fire breaks (None when the module is off)."""
    s = summary(scene)
    return None if s is None else summary_text(s)


def cleared_by_area(scene: Scene) -> dict[int, str]:
    """The areas a map marks as a fire break: area index -> ``light`` or ``clear`` (before
    round 1 the plan; after, what was done). Empty when the module is off."""
    m = scene.module(FireBreaks)
    if m is None:
        return {}
    if m.applied:
        return dict(sorted(m.cleared.items()))
    b = scene.building
    return {i: r["class"] for r in m.plan(scene)["areas"]
            if (i := b.find(str(r["area"]))) is not None}


def cleared_areas(scene: Scene) -> dict[str, str]:
    """:func:`cleared_by_area` by area name: area name -> ``light`` or ``clear``."""
    return {scene.area_name(i): c for i, c in cleared_by_area(scene).items()}
