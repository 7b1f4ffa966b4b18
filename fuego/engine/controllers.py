"""Who decides what heroes do: the engine asks a controller; it never prints or prompts itself.

- :class:`AutoController` makes for the nearest way out, opening doors and skirting the fire the
  hero knows of: what they see (``engine/sight.py``) and what they saw this round; it puts out
  burning clothes first. Confused heroes stumble at random (003: the GM decides where they
  come out; fuego decides at random unless the GM does). Used by ``fuego run`` and forecasts.
- :class:`ScriptedController` plays the actions a scenario lists per hero and round, and falls
  back to the automatic one where the script is silent.
- The interactive controller of ``fuego play`` lives in the CLI.
"""

from __future__ import annotations

from collections.abc import Collection
from enum import Enum
from typing import TYPE_CHECKING

from fuego.engine.events import EventKind
from fuego.engine.hero_actions import HeroAction, HeroActionKind, read_action
from fuego.engine.heroes import Hero
from fuego.engine.sight import fires_seen
from fuego.errors import RuleError
from fuego.text import fold_name
from fuego.world.building import Building
from fuego.world.places import Barrier, BarrierKind

if TYPE_CHECKING:
    from fuego.dice.roller import Pool
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


def walk_tolls(scene: Scene, fires: Collection[int]) -> dict[int, float]:
    """What stepping into each area costs a walker on top of the move: the fire there, for the
    fires in ``fires`` (the areas of those the walker knows of: :meth:`AutoController.known`),
    and what a module adds (a wreck's extra move)."""
    tolls = {i: float(FIRE_COST_PER_DIE * scene.fires[i].fd) for i in fires}
    for i, cost in module_tolls(scene).items():
        tolls[i] = tolls.get(i, 0.0) + cost
    return tolls


def module_tolls(scene: Scene) -> dict[int, float]:
    """What the modules add to a step into an area (``RuleModule.move_tolls``)."""
    extra: dict[int, float] = {}
    for m in scene.modules:
        for i, cost in m.move_tolls(scene).items():
            extra[i] = extra.get(i, 0.0) + cost
    return extra


def exit_costs(scene: Scene, fires: Collection[int]) -> list[float]:
    """Cost from each area to the nearest exit for a walker who knows of the fires in
    ``fires``: one per move, one more per closed door, and more through those fires; walls and
    closed windows cannot be walked through (:meth:`fuego.world.paths.Paths.exit_costs`)."""
    return scene.building.paths.exit_costs(walk_tolls(scene, fires))


class AutoController(Controller):
    """Heroes who want out: clothes first, then the cheapest way to an exit, as far as they
    know where the fire is."""

    def __init__(self) -> None:
        self._building: Building | None = None  # the building the tolls were read in
        self._seen: tuple | None = None  # and the scene's state they were read at
        self._tolls: dict[frozenset[int], dict[int, float]] = {}  # by the fires known
        self._round: tuple[Building, int] | None = None  # the round ``_saw`` is of
        self._saw: dict[str, set[int]] = {}  # the fires each hero has seen this round

    def known(self, scene: Scene, hero: Hero) -> frozenset[int]:
        """The areas of the fires ``hero`` knows of: those they see now (their sight, hidden
        fires they spotted included: :func:`fuego.engine.sight.fires_seen`) and those they saw
        earlier this round, still burning. A fire out of sight is not in the way to them, and
        one seen stays in their mind for the round, so a hero who turned away from it does not
        walk straight back into it."""
        kept = self._round
        if kept is None or kept[0] is not scene.building or kept[1] != scene.round:
            # (by identity: another scene's building may be equal, its fires are not)
            self._round, self._saw = (scene.building, scene.round), {}
        saw = self._saw.setdefault(hero.name, set())
        saw.update(fires_seen(scene, hero))
        return frozenset(i for i in saw if i in scene.fires)

    def _read_tolls(self, scene: Scene, hero: Hero) -> dict[int, float]:
        # The heroes read the fires once a phase, and again when a barrier changed or a fire
        # started or went out (a fire growing within the phase is seen from the next one);
        # heroes who know of the same fires share the tolls, so the building's paths keep
        # one walk for them.
        b = scene.building
        seen = (scene.round, scene.phase, b.version, scene.next_fire_id, len(scene.fires))
        if self._building is not b or self._seen != seen:
            self._building, self._seen, self._tolls = b, seen, {}
        known = self.known(scene, hero)
        tolls = self._tolls.get(known)
        if tolls is None:
            tolls = self._tolls[known] = walk_tolls(scene, known)
        return tolls

    def _exit_costs(self, scene: Scene, hero: Hero) -> list[float]:
        return scene.building.paths.exit_costs(self._read_tolls(scene, hero))

    def costs_for(self, scene: Scene, hero: Hero, at: list[int]) -> list[float]:
        """Cost from each of the areas ``at`` to where ``hero`` is heading: the nearest way
        out (a plan's controller heads elsewhere by overriding this). Only what those areas
        need is walked: a 100,000-area map is not walked whole for each hero's step."""
        return scene.building.paths.exit_costs_at(self._read_tolls(scene, hero), at)

    def choose(self, scene: Scene, hero: Hero, legal: list[HeroAction]) -> HeroAction | None:
        """Burning clothes first (the hero's own, then a companion's); a confused hero wanders;
        else the step that lowers the cost to where the hero heads the most; with none, out of
        the flames, else smother the smallest fire in reach that they know of, else wait."""
        by_kind: dict[Enum, list[HeroAction]] = {}  # (a module adds kinds of its own)
        for act in legal:
            by_kind.setdefault(act.kind, []).append(act)
        clothes = by_kind.get(HeroActionKind.PUT_OUT_CLOTHES)
        if clothes:
            return next((act for act in clothes if act.other is None), clothes[0])
        moves = by_kind.get(HeroActionKind.MOVE, [])
        if hero.confused and scene.settings.confused_wander and moves:
            return scene.roller.choice(moves)
        best = self._best_step(scene, hero, legal)
        if best is not None:
            return best
        if hero.area in scene.fires:  # no way out: at least get out of the flames
            known = self.known(scene, hero)
            safe = [a for a in moves if a.target not in known]
            if safe:
                return safe[0]
        # (only a fire the hero knows of: the GM's table still lists every one in reach)
        known = self.known(scene, hero)
        smother = [a for a in by_kind.get(HeroActionKind.SMOTHER, []) if a.area in known]
        if smother:
            return min(smother, key=lambda a: (scene.fires[a.area].fd, a.area))
        return legal[-1]

    def _best_step(self, scene: Scene, hero: Hero, legal: list[HeroAction]) -> HeroAction | None:
        """The legal move (or the opening of a closed door) into a neighbour nearer where the
        hero heads, cheapest counting its toll (:func:`walk_tolls`: the fire in it if the hero
        knows of it, and a module's extra) (ties: the lower area); None if no neighbour is
        nearer."""
        # Only the neighbours a step goes to are costed: the walk need not reach the room
        # behind a wall or the level below the floor (often the far end of the building).
        ways = [(j, act) for j, barrier in scene.building.neighbours(hero.area)
                if (act := _step(j, barrier)) is not None]
        here, *beyond = self.costs_for(scene, hero, [hero.area, *(j for j, _ in ways)])
        best: tuple[float, int, HeroAction] | None = None
        # (read now, not the phase's kept tolls: a fire smothered earlier in this phase is
        # stepped into at its present size)
        tolls = walk_tolls(scene, self.known(scene, hero))
        for (j, act), on in zip(ways, beyond):
            if on >= here:
                continue
            # The way on from j, plus the toll of j itself: its cost counts only what lies beyond.
            through = on + tolls.get(j, 0.0)
            if act in legal and (best is None or (through, j) < best[:2]):
                best = (through, j, act)
        return best[2] if best is not None else None


def _step(j: int, barrier: Barrier) -> HeroAction | None:
    """The action that goes towards neighbour ``j`` across ``barrier``: a move through an
    opening, the opening of a closed door, or None."""
    if barrier.passable and barrier.kind is not BarrierKind.FLOOR:
        return HeroAction(HeroActionKind.MOVE, target=j)
    if barrier.kind is BarrierKind.DOOR and not barrier.destroyed and barrier.closed:
        return HeroAction(HeroActionKind.OPEN, barrier=barrier.index)
    return None


class ScriptedController(Controller):
    """Actions listed per hero and round (``{"Isabela": {1: ["move ground:C4"], ...}}``)."""

    def __init__(self, script: dict[str, dict[int, list[str]]], fallback: Controller | None = None):
        self.script = {fold_name(name): {int(r): list(acts) for r, acts in rounds.items()}
                       for name, rounds in script.items()}
        self.fallback = fallback or AutoController()
        self._queue: dict[str, list[str]] = {}
        #: the key paths of the actions skipped so far (the rules refused them), in order
        self.skipped: list[str] = []

    def round_start(self, scene: Scene) -> None:
        self._queue = {name: list(rounds.get(scene.round, []))
                       for name, rounds in self.script.items()}
        self.fallback.round_start(scene)

    def choose(self, scene: Scene, hero: Hero, legal: list[HeroAction]) -> HeroAction | None:
        # A hero with actions this round follows them, then waits; others act automatically.
        # One the rules refuse now (a door burned away, a wall where a way was) is skipped,
        # with an event saying why, and the next one is tried: the run goes on.
        queue = self._queue.get(fold_name(hero.name))
        while queue:
            listed = self.script[fold_name(hero.name)][scene.round]
            k = len(listed) - len(queue)
            text = queue.pop(0)
            try:
                return read_action(scene, hero, text, legal)
            except RuleError as exc:  # which of the scenario's actions: (its key path)
                where = f"actions.{hero.name}.{scene.round}[{k}]"
                self.skipped.append(where)
                scene.emit(EventKind.ACTION_SKIPPED, hero.name, hero.area, action=text,
                           where=where, why=exc.message, **({"tip": exc.tip} if exc.tip else {}))
        if self.script.get(fold_name(hero.name), {}).get(scene.round):
            return HeroAction(HeroActionKind.WAIT)
        return self.fallback.choose(scene, hero, legal)
