"""Who decides what heroes do: the engine asks a controller; it never prints or prompts itself.

- :class:`AutoController` makes for the nearest way out, opening doors and skirting fire; it puts
  out burning clothes first. Confused heroes stumble at random (003: the GM decides where they
  come out; fuego decides at random unless the GM does). Used by ``fuego run`` and forecasts.
- :class:`ScriptedController` plays the actions a scenario lists per hero and round, and falls
  back to the automatic one where the script is silent.
- The interactive controller of ``fuego play`` lives in the CLI.
"""

from __future__ import annotations

import heapq
from enum import Enum
from typing import TYPE_CHECKING

from fuego.engine.hero_actions import HeroAction, HeroActionKind, parse_action
from fuego.engine.heroes import Hero
from fuego.world.building import Barrier, BarrierKind, Building

if TYPE_CHECKING:
    from fuego.dice.roller import Pool
    from fuego.engine.fire import Fire
    from fuego.engine.scene import Scene

#: Extra cost the automatic heroes give to stepping into a burning area (per Fire Die).
FIRE_COST_PER_DIE = 2


class Controller:
    """Decides hero actions and may supply the total of a roll the player made."""

    def round_start(self, scene: Scene) -> None:
        pass

    def action_dice(self, scene: Scene, hero: Hero, rolled: list[int]) -> list[int] | None:
        """The hero's action dice as its player rolled them (sorted), or None to keep fuego's
        ``rolled`` (drawn first either way, so the random stream does not depend on it)."""
        return None

    def choose(self, scene: Scene, hero: Hero, legal: list[HeroAction]) -> HeroAction | None:
        """An action from ``legal``, or None to hold the die for a later phase."""
        return legal[-1]

    def roll(self, hero: Hero, pool: Pool, tn: int | None, purpose: str) -> int | None:
        return None


def _step(barrier: Barrier) -> float | None:
    """Moves a walker spends crossing ``barrier``: one, one more to open a closed door, two
    more dropping through a hole; None where it cannot be walked through (walls, closed
    windows, floors)."""
    if barrier.kind is BarrierKind.FLOOR and not barrier.destroyed:
        return None
    if not barrier.passable and barrier.kind is not BarrierKind.DOOR:
        return None
    step = 1.0 + (0 if barrier.passable else 1.0)
    if barrier.destroyed and barrier.kind is BarrierKind.FLOOR:
        step += 2.0  # dropping through a hole
    return step


def _steps_at(b: Building, i: int) -> list[tuple[int, float]]:
    out = []
    for j, barrier in b.neighbours(i):
        step = _step(barrier)
        if step is not None:
            out.append((j, step))
    return out


def _cheapest(steps: list[list[tuple[int, float]]], exits: list[int],
              fires: dict[int, Fire]) -> list[float]:
    """Dijkstra from the exits outward; entering a burning area costs its Fire Dice more."""
    cost = [float("inf")] * len(steps)
    heap = []
    for i in exits:
        cost[i] = 0.0
        heap.append((0.0, i))
    heapq.heapify(heap)
    pop, push, fire_at = heapq.heappop, heapq.heappush, fires.get
    while heap:
        c, k = pop(heap)
        if c > cost[k]:
            continue
        fire = fire_at(k)  # stepping from a neighbour into k
        if fire is not None:
            c += FIRE_COST_PER_DIE * fire.fd  # whole numbers: the sums are exact in any order
        for j, step in steps[k]:
            if c + step < cost[j]:
                cost[j] = c + step
                push(heap, (c + step, j))
    return cost


def exit_costs(scene: Scene) -> list[float]:
    """Cost from each area to the nearest exit: one per move, one more per closed door,
    and more through fire; walls and closed windows cannot be walked through."""
    b = scene.building
    steps = [_steps_at(b, i) for i in range(len(b.areas))]
    return _cheapest(steps, [i for i in range(len(b.areas)) if b.is_exit(i)], scene.fires)


def costs_to(scene: Scene, targets: list[int]) -> list[float]:
    """Cost from each area to the nearest of ``targets``, counted as :func:`exit_costs` counts
    the way out (used by the forecast's plans: a fire to fight, an NPC to fetch)."""
    b = scene.building
    steps = [_steps_at(b, i) for i in range(len(b.areas))]
    return _cheapest(steps, targets, scene.fires)


class _WalkMap:
    """Where a walker can step from each area of one building, kept per barrier state: a
    changed barrier patches its two areas (``Building.changes_since``)."""

    __slots__ = ("building", "steps", "exits", "epoch")

    def __init__(self, b: Building) -> None:
        self.building = b
        self.steps = [_steps_at(b, i) for i in range(len(b.areas))]
        self.exits = [i for i in range(len(b.areas)) if b.is_exit(i)]
        self.epoch = b.epoch

    def current(self) -> list[list[tuple[int, float]]]:
        b = self.building
        if self.epoch != b.epoch:
            changed = b.changes_since(self.epoch)
            if changed is None:
                self.steps = [_steps_at(b, i) for i in range(len(b.areas))]
            else:
                for i in {i for barrier in changed for i in (barrier.a, barrier.b)}:
                    self.steps[i] = _steps_at(b, i)
            self.epoch = b.epoch
        return self.steps


class AutoController(Controller):
    """Heroes who want out: clothes first, then the cheapest way to an exit."""

    def __init__(self) -> None:
        self._costs: list[float] | None = None
        self._costs_key: tuple | None = None
        self._map: _WalkMap | None = None
        # what the costs were computed from: the barriers (epoch) and each fire's dice
        self._costs_from: tuple | None = None

    def _exit_costs(self, scene: Scene) -> list[float]:
        # The way out changes with the doors and the fires: recompute when a barrier changed or
        # a fire started or went out, at most once a phase otherwise (a fire growing within the
        # phase is seen from the next one).
        key = (scene.round, scene.phase, scene.building.epoch, scene.next_fire_id,
               len(scene.fires))
        if self._costs_key != key:
            self._costs_key = key
            b = scene.building
            if self._map is None or self._map.building is not b:
                self._map, self._costs_from = _WalkMap(b), None
            state = (b.epoch, {i: fire.fd for i, fire in scene.fires.items()})
            if state != self._costs_from:  # else exit_costs(scene) would give the same again
                self._costs = _cheapest(self._map.current(), self._map.exits, scene.fires)
                self._costs_from = state
        assert self._costs is not None
        return self._costs

    def costs_for(self, scene: Scene, hero: Hero) -> list[float]:
        """Cost from each area to where ``hero`` is heading: the nearest way out (a plan's
        controller heads elsewhere by overriding this)."""
        return self._exit_costs(scene)

    def choose(self, scene: Scene, hero: Hero, legal: list[HeroAction]) -> HeroAction | None:
        by_kind: dict[Enum, list[HeroAction]] = {}  # (a module adds kinds of its own)
        for act in legal:
            by_kind.setdefault(act.kind, []).append(act)
        for act in by_kind.get(HeroActionKind.PUT_OUT_CLOTHES, []):
            if act.other is None:
                return act
        if by_kind.get(HeroActionKind.PUT_OUT_CLOTHES):
            return by_kind[HeroActionKind.PUT_OUT_CLOTHES][0]
        moves = by_kind.get(HeroActionKind.MOVE, [])
        if hero.confused and scene.settings.confused_wander and moves:
            return scene.roller.choice(moves)
        costs = self.costs_for(scene, hero)
        here = costs[hero.area]
        best: tuple[float, int, HeroAction] | None = None
        b = scene.building
        for j, barrier in b.neighbours(hero.area):
            # The way on from j, plus the fire in j itself: costs[j] counts only what lies beyond.
            fire = scene.fires.get(j)
            through = costs[j] + (FIRE_COST_PER_DIE * fire.fd if fire is not None else 0)
            if costs[j] >= here:
                continue
            if barrier.passable and barrier.kind is not BarrierKind.FLOOR:
                act = HeroAction(HeroActionKind.MOVE, target=j)
            elif barrier.kind is BarrierKind.DOOR and not barrier.destroyed and barrier.closed:
                act = HeroAction(HeroActionKind.OPEN, barrier=barrier.index)
            else:
                continue
            if act in legal and (best is None or (through, j) < best[:2]):
                best = (through, j, act)
        if best is not None:
            return best[2]
        if hero.area in scene.fires:  # no way out: at least get out of the flames
            safe = [a for a in moves if a.target not in scene.fires]
            if safe:
                return safe[0]
        smother = by_kind.get(HeroActionKind.SMOTHER)
        if smother:
            return min(smother, key=lambda a: (scene.fires[a.area].fd, a.area))
        return legal[-1]


class ScriptedController(Controller):
    """Actions listed per hero and round (``{"Isabela": {1: ["move ground:C4"], ...}}``)."""

    def __init__(self, script: dict[str, dict[int, list[str]]], fallback: Controller | None = None):
        self.script = {name.lower(): {int(r): list(acts) for r, acts in rounds.items()}
                       for name, rounds in script.items()}
        self.fallback = fallback or AutoController()
        self._queue: dict[str, list[str]] = {}

    def round_start(self, scene: Scene) -> None:
        self._queue = {name: list(rounds.get(scene.round, []))
                       for name, rounds in self.script.items()}
        self.fallback.round_start(scene)

    def choose(self, scene: Scene, hero: Hero, legal: list[HeroAction]) -> HeroAction | None:
        # A hero with actions this round follows them, then waits; others act automatically.
        queue = self._queue.get(hero.name.lower())
        if queue:
            return parse_action(scene, hero, queue.pop(0))
        if self.script.get(hero.name.lower(), {}).get(scene.round):
            return HeroAction(HeroActionKind.WAIT)
        return self.fallback.choose(scene, hero, legal)
