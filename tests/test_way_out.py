"""The automatic heroes' way-out map: kept between decisions, always what a fresh one would be."""

from __future__ import annotations

import heapq
from pathlib import Path

import pytest
from builders import TWO_ROOMS, RoomSpec, barrier_between, grid, lit, scene

from fuego.engine import loop
from fuego.engine.controllers import FIRE_COST_PER_DIE, AutoController, exit_costs
from fuego.engine.events import EventKind
from fuego.engine.hero_actions import HeroActionKind, options
from fuego.engine.heroes import Hero
from fuego.engine.scene import Cause
from fuego.engine.sight import hero_sight
from fuego.rules.charts import Structure
from fuego.world.places import BarrierKind

ROOT = Path(__file__).resolve().parent.parent


def reference_costs(scene, fires):
    """The costs as first written: a Dijkstra reading every barrier afresh, for a walker who
    knows of the fires in the areas ``fires``."""
    b = scene.building
    cost = [float("inf")] * len(b.areas)
    heap = []
    for area in b.areas:
        if b.is_exit(area.index):
            cost[area.index] = 0.0
            heap.append((0.0, area.index))
    heapq.heapify(heap)
    while heap:
        c, k = heapq.heappop(heap)
        if c > cost[k]:
            continue
        for j, barrier in b.neighbours(k):
            step = reference_step(scene, k, barrier, fires)
            if step is not None and c + step < cost[j]:
                cost[j] = c + step
                heapq.heappush(heap, (c + step, j))
    return cost


def reference_step(scene, k, barrier, fires):
    """One move's cost out of area ``k`` across ``barrier``, as first written (None: no way
    through): one a move, one more through a closed door, more out of fire, two more down a
    collapsed floor."""
    if barrier.kind is BarrierKind.FLOOR and not barrier.destroyed:
        return None
    if not barrier.passable and barrier.kind is not BarrierKind.DOOR:
        return None
    step = 1.0 + (0 if barrier.passable else 1.0)
    fire = scene.fires.get(k) if k in fires else None
    if fire is not None:
        step += FIRE_COST_PER_DIE * fire.fd
    if barrier.destroyed and barrier.kind is BarrierKind.FLOOR:
        step += 2.0
    return step


def two_floors():
    rooms: dict[str, RoomSpec] = {**TWO_ROOMS, "u": {"key": "upstairs"}}
    return grid([("ground", 0, ["kkkh", "kkkh", "ssss"]), ("upper", 1, ["uuu.", "uuu."])], rooms,
                edges={("ground:A2", "ground:A3"): (BarrierKind.DOOR, Structure.WOODEN_DOOR)},
                links={"ground:C1": BarrierKind.STAIRS})


def fresh_costs(controller, s, hero):
    s.phase += 1  # a new phase: the controller looks again
    return controller._exit_costs(s, hero)


def test_the_kept_map_follows_doors_walls_floors_and_fires():
    b = two_floors()
    s = scene(b)
    ana = Hero("Ana", b.find("ground:B2"))  # in the kitchen: she sees its fire
    s.heroes.append(ana)
    ctrl = AutoController()
    assert fresh_costs(ctrl, s, ana) == exit_costs(s, ()) == reference_costs(s, ())
    door = b.between(b.find("ground:A2"), b.find("ground:A3"))
    changes = [
        lambda: b.open_barrier(door),
        lambda: s.start_fire(b.find("ground:A2"), 2, Cause.GM),
        lambda: s.set_fire_dice(s.fires[b.find("ground:A2")], 5, "test"),  # grows: same fires
        lambda: b.destroy_barrier(b.between(b.find("ground:C2"), b.find("ground:D2"))),  # wall
        lambda: b.destroy_barrier(b.between(b.find("ground:A1"), b.find("upper:A1"))),  # floor
        lambda: b.close_barrier(door),
        lambda: s.extinguish(s.fires[b.find("ground:A2")], "test", burned_out=False),
        lambda: b.destroy_barrier(door),
    ]
    for change in changes:
        before = fresh_costs(ctrl, s, ana)
        change()
        after = fresh_costs(ctrl, s, ana)
        assert set(ctrl.known(s, ana)) == set(s.fires)
        assert after == exit_costs(s, s.fires) == reference_costs(s, s.fires)
        assert after != before  # each change moves the way out


def test_within_a_phase_the_map_is_not_redone_for_a_fire_growing():
    b = two_floors()
    s = scene(b)
    s.start_fire(b.find("ground:A2"), 2, Cause.GM)
    ana = Hero("Ana", b.find("ground:B2"))
    s.heroes.append(ana)
    ctrl = AutoController()
    before = fresh_costs(ctrl, s, ana)
    s.set_fire_dice(s.fires[b.find("ground:A2")], 6, "test")
    assert ctrl._exit_costs(s, ana) == before != exit_costs(s, s.fires)  # seen next phase
    assert fresh_costs(ctrl, s, ana) == exit_costs(s, s.fires)


def test_a_controller_moved_to_another_scene_starts_its_map_over():
    ctrl = AutoController()
    one, two = scene(two_floors()), scene(two_floors())
    two.building.open_barrier(barrier_between(two.building, "ground:A2", "ground:A3"))
    ana = Hero("Ana", 0)
    assert fresh_costs(ctrl, one, ana) == reference_costs(one, ())
    assert fresh_costs(ctrl, two, ana) == reference_costs(two, ()) != reference_costs(one, ())


class Checked(AutoController):
    """Checks every look at the way out (a hero's area and its neighbours', walked only as far
    as they need) against the reference's whole map."""

    looks = 0

    def costs_for(self, scene, hero, at):
        key = self._seen
        costs = super().costs_for(scene, hero, at)
        if self._seen != key:  # the fires read afresh (within a phase a growing one is not)
            reference = reference_costs(scene, self.known(scene, hero))
            assert costs == [reference[i] for i in at]
            Checked.looks += 1
        return costs


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_tavern_heroes_see_the_way_out_as_a_fresh_map_would(seed):
    from fuego.scenario.model import load

    s = load(str(ROOT / "campaigns" / "tavern.yaml")).build(seed)
    Checked.looks = 0
    loop.run(s, Checked(), rounds=20)
    assert Checked.looks > 10


def test_auto_choice_reads_the_kept_map():
    b = two_floors()
    s = scene(b)
    hero = Hero("Ana", b.find("ground:B1"))
    s.heroes.append(hero)
    ctrl = AutoController()
    act = ctrl.choose(s, hero, options(s, hero))
    assert act is not None
    assert act.target == b.find("ground:A1")  # towards the door (a tie: the lower area)


def reference_best(scene, hero, legal, fires):
    """The step a hero takes as first written: every neighbour costed on the whole fresh map
    (walls and floors too), the cheapest legal move or door-opening into a nearer one; the
    hero knows of the fires in the areas ``fires``."""
    costs = reference_costs(scene, fires)
    here = costs[hero.area]
    best = None
    for j, barrier in scene.building.neighbours(hero.area):
        fire = scene.fires.get(j) if j in fires else None
        through = costs[j] + (FIRE_COST_PER_DIE * fire.fd if fire is not None else 0)
        if costs[j] >= here:
            continue
        for act in legal:
            goes = (act.kind is HeroActionKind.MOVE and act.target == j) or (
                act.kind is HeroActionKind.OPEN and act.barrier == barrier.index)
            if goes and (best is None or (through, j) < best[:2]):
                best = (through, j, act)
    return best[2] if best is not None else None


class Compared(AutoController):
    """Checks every step chosen (only the neighbours a step goes to costed, the walk kept and
    carried over to new tolls) against the reference's, at each fresh look of the fires."""

    steps = 0

    def _best_step(self, scene, hero, legal):
        key = self._seen
        act = super()._best_step(scene, hero, legal)
        if self._seen != key:  # (within a phase a growing fire is seen from the next one)
            assert act == reference_best(scene, hero, legal, self.known(scene, hero))
            Compared.steps += 1
        return act


@pytest.mark.parametrize(("campaign", "seed"), [("tavern", 1), ("tavern", 4), ("ship", 2),
                                                ("village", 3)])
def test_the_step_chosen_is_the_one_the_whole_fresh_map_gives(campaign, seed):
    """Doors opened, walls burned through and fires grown between the looks: the hero's step,
    costing only the neighbours a step reaches, is the reference's (every neighbour costed)."""
    from fuego.scenario.model import load

    s = load(str(ROOT / "campaigns" / f"{campaign}.yaml")).build(seed)
    Compared.steps = 0
    loop.run(s, Compared(), rounds=20)
    assert Compared.steps > 5
    assert campaign != "tavern" or any(e.kind is EventKind.BARRIER_OPENED for e in s.log)


# -- the way out goes by what the hero knows of the fire -------------------------------------
def kitchen_or_corridor(door_closed: bool = True):
    """The hall (A1-A3) has two ways out: through the kitchen's door (open it, B1, C1, out at
    D1: 4) or down the hall and the corridor (A2, A3, B3, C3, out at D3: 5). A fire burns in
    the kitchen's C1, out of sight from the hall while the door is shut."""
    rooms: dict[str, RoomSpec] = {"h": {"key": "hall"}, "k": {"key": "kitchen", "fuel": 5},
                                  "c": {"key": "corridor"},
                                  "o": {"key": "yard", "outdoors": True, "fuel": 0}}
    b = grid([("ground", 0, ["hkko", "h...", "hcco"])], rooms,
             edges={("ground:A1", "ground:B1"): (BarrierKind.DOOR, Structure.WOODEN_DOOR,
                                                 door_closed),
                    ("ground:C1", "ground:D1"): (BarrierKind.OPEN, None),
                    ("ground:A3", "ground:B3"): (BarrierKind.OPEN, None),
                    ("ground:C3", "ground:D3"): (BarrierKind.OPEN, None)})
    s = scene(b)
    lit(s, b.area("ground:C1").index, 3)
    ana = Hero("Ana", b.area("ground:A1").index)
    s.heroes.append(ana)
    return s, ana


def test_a_hero_who_cannot_see_the_fire_behind_a_shut_door_opens_it():
    s, ana = kitchen_or_corridor()
    ctrl = AutoController()
    assert ctrl.known(s, ana) == frozenset()  # behind the shut door: out of her sight
    act = ctrl.choose(s, ana, options(s, ana))
    assert act is not None
    assert act.kind is HeroActionKind.OPEN  # the short way, into the fire she cannot see
    assert act.barrier == barrier_between(s.building, "ground:A1", "ground:B1").index


def test_a_hero_who_sees_the_fire_takes_the_long_way_round():
    s, ana = kitchen_or_corridor(door_closed=False)
    ctrl = AutoController()
    assert ctrl.known(s, ana) == {s.building.find("ground:C1")}
    act = ctrl.choose(s, ana, options(s, ana))
    assert act is not None
    assert act.kind is HeroActionKind.MOVE and act.target == s.building.find("ground:A2")


def test_a_fire_spotted_behind_the_door_is_avoided_too():
    s, ana = kitchen_or_corridor()
    ana.known_fires.add(s.building.find("ground:C1"))  # her spot roll found it (sight's memory)
    act = AutoController().choose(s, ana, options(s, ana))
    assert act is not None
    assert act.kind is HeroActionKind.MOVE and act.target == s.building.find("ground:A2")


def test_a_fire_seen_stays_in_mind_for_the_round():
    """Door opened, fire seen, she turns down the hall; from A2 the kitchen is out of sight,
    and with the door open both ways cost 4 (the tie would take her back to A1)."""
    s, ana = kitchen_or_corridor()
    b = s.building
    ctrl = AutoController()
    b.open_barrier(barrier_between(b, "ground:A1", "ground:B1"))
    s.phase += 1
    act = ctrl.choose(s, ana, options(s, ana))
    assert act is not None and act.target == b.find("ground:A2")
    ana.area = b.find("ground:A2")
    s.phase += 1
    assert b.find("ground:C1") not in hero_sight(s, ana).fires
    act = ctrl.choose(s, ana, options(s, ana))
    assert act is not None and act.target == b.find("ground:A3")  # she remembers it
    fresh = AutoController().choose(s, ana, options(s, ana))
    assert fresh is not None and fresh.target == b.find("ground:A1")  # (never saw it: back)
    s.round += 1  # a new round: only what she sees now
    assert ctrl.known(s, ana) == frozenset()


DOOR_SCENE = """format: 1
title: "The kitchen door"
rooms:
  hall: {name: Hall, fuel: 3}
  kitchen: {name: Kitchen, fuel: 5}
  corridor: {name: Corridor, fuel: 3}
  yard: {name: Yard, outdoors: true, fuel: none, features: [exit]}
legend: {h: hall, k: kitchen, c: corridor, y: yard}
levels:
  - name: ground
    elevation: 0
    plan: |
      hkky
      h###
      hccy
doors:
  - {at: ground:A1-ground:B1, name: kitchen door}
openings:
  - {at: ground:C1-ground:D1}
  - {at: ground:A3-ground:B3}
  - {at: ground:C3-ground:D3}
heroes:
  - {name: Ana, traits: {panache: 3}, start: ground:A1}
fires:
  - {area: ground:C1, fd: 3}
rules:
  smoke: false
"""


def test_fuego_run_tells_of_the_door_opened_on_a_fire_and_the_turn_away(tmp_path):
    """The same choice through ``fuego run``: Ana opens the kitchen door (the short way, the
    fire behind it out of her sight), sees the kitchen burning and goes round by the hall."""
    from click.testing import CliRunner

    from fuego.cli import cli

    path = tmp_path / "door.yaml"
    path.write_text(DOOR_SCENE, encoding="utf-8")
    r = CliRunner().invoke(cli, ["run", str(path), "--seed", "3", "--rounds", "1"])
    assert r.exit_code == 0, r.output
    ana = [line.strip() for line in r.stdout.splitlines() if line.strip().startswith("Phase")
           and ": Ana " in line]
    assert ana[:3] == ["Phase 5: Ana opens the kitchen door (wooden door) by ground:A1 (Hall)",
                       "Phase 5: Ana moves from ground:A1 (Hall) to ground:A2",
                       "Phase 9: Ana moves from ground:A2 (Hall) to ground:A3"]


def test_what_a_hero_saw_in_one_scene_is_not_known_in_another():
    """A controller moved to another scene of the same building (a rewound table, a test)
    forgets the fires seen in the first: the buildings are equal, the scenes are not."""
    one, ana = kitchen_or_corridor()
    ana.known_fires.add(one.building.find("ground:C1"))  # spotted in the first scene
    ctrl = AutoController()
    assert ctrl.known(one, ana) == {one.building.find("ground:C1")}
    two, ana_again = kitchen_or_corridor()
    assert two.building == one.building and two.building is not one.building
    assert ctrl.known(two, ana_again) == frozenset()


@pytest.mark.parametrize("knows", [False, True])
def test_a_boxed_in_hero_smothers_only_a_fire_they_know_of(knows):
    """No way out (a room without exits): the automatic hero smothers the fire in reach if
    they know of it; one they cannot see (thick smoke, say) is not theirs to fight: they wait."""
    b = grid([("ground", 0, ["kk"])], {"k": {"key": "closet", "fuel": 5}})
    s = scene(b)
    lit(s, b.area("ground:B1").index, 2)
    ana = Hero("Ana", b.area("ground:A1").index)
    s.heroes.append(ana)

    class Blind(AutoController):
        def known(self, scene, hero):
            return frozenset(scene.fires) if knows else frozenset()

    legal = options(s, ana)
    assert any(a.kind is HeroActionKind.SMOTHER for a in legal)  # (the table offers it)
    act = Blind().choose(s, ana, legal)
    assert act is not None
    assert (act.kind is HeroActionKind.SMOTHER) is knows
