"""The fire's mind: which action a fire takes with each action die.

Fires are not clever (their Wits are 1-3), so policies are short rules of thumb. A scenario
picks one with ``rules.temperament``; new ones register in :data:`POLICIES`.

- ``hungry`` (default): reach unlit fuel first (routes need no roll), then the easiest roll that
  reaches fuel it has a fair chance at; grow when boxed in; break barriers that hold fuel behind
  them; bring down beams when nothing else is left.
- ``patient``: grow to half its strength before reaching out, then act as ``hungry``.
- ``wild``: any action that reaches fuel, chosen at random (by the scene's roller).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from fuego.fire_actions import ActionKind, FireAction, candidates

if TYPE_CHECKING:
    from fuego.fire import Fire
    from fuego.scene import Scene

Policy = Callable[["Scene", "Fire"], "FireAction | None"]

#: A roll is worth trying when its TN is at most this multiple of the pool's mean.
FAIR_CHANCE = 1.0


def _mean(pool) -> float:
    """Mean of a roll-and-keep pool, from the exact odds (cached per pool in fuego.odds)."""
    from fuego.odds import mean

    return mean(pool)


def _reaching(acts: list[FireAction]) -> list[FireAction]:
    return [a for a in acts if a.fuel_behind > 0 and a.kind is not ActionKind.GROW]


def hungry(scene: Scene, fire: Fire) -> FireAction | None:
    acts = candidates(scene, fire)
    spreads = [a for a in acts if a.kind is ActionKind.SPREAD]
    if spreads:  # no roll needed: take the run with the most fuel
        return max(spreads, key=lambda a: (a.fuel_behind, len(a.path), -a.path[-1]))
    spread_mean = _mean(fire.spreading_pool())
    destroy_mean = _mean(fire.destruction_pool())
    fair = []
    for a in _reaching(acts):
        mean = destroy_mean if a.kind is ActionKind.DESTROY else spread_mean
        if a.tn <= FAIR_CHANCE * mean:
            # burn-through and leaps start fires now; breaking in comes second
            rank = 1 if a.kind is ActionKind.DESTROY else 0
            fair.append((a.tn, rank, -a.fuel_behind, a.target, a))
    if fair:
        return min(fair, key=lambda t: t[:4])[4]
    grow = [a for a in acts if a.kind is ActionKind.GROW]
    if grow:
        return grow[0]
    reaching = _reaching(acts)
    if reaching:  # at ten dice: try the easiest anyway
        return min(reaching, key=lambda a: (a.tn, a.target))
    beams = [a for a in acts if a.kind is ActionKind.DESTROY and a.beam is not None]
    if beams:
        return beams[0]
    return None


def patient(scene: Scene, fire: Fire) -> FireAction | None:
    if fire.fd < 5:
        for a in candidates(scene, fire):
            if a.kind is ActionKind.GROW:
                return a
    return hungry(scene, fire)


def wild(scene: Scene, fire: Fire) -> FireAction | None:
    acts = candidates(scene, fire)
    options = _reaching(acts) or [a for a in acts if a.kind is ActionKind.SPREAD] or acts
    return scene.roller.choice(options) if options else None


POLICIES: dict[str, Policy] = {"hungry": hungry, "patient": patient, "wild": wild}
