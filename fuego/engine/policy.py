"""The fire's mind: which action a fire takes with each action die.

Fires are not clever (their Wits are 1-3), so policies are short rules of thumb. A scenario
picks one with ``rules.temperament``; new ones register in :data:`POLICIES`, each a
:class:`Policy`: its choice from a fire's candidates (``fire_actions.candidates_all``, which a
pass asks for a whole run of fires at once), the candidates it reads, and whether choosing
draws from the scene's roller.

- ``hungry`` (default): reach unlit fuel first (routes need no roll), then the easiest roll that
  reaches fuel it has a fair chance at; grow when boxed in; break barriers that hold fuel behind
  them; bring down beams when nothing else is left.
- ``patient``: grow to half its strength before reaching out, then act as ``hungry``.
- ``wild``: any action that reaches fuel, chosen at random (by the scene's roller).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from fuego.engine.fire_actions import ActionKind, FireAction, candidates

if TYPE_CHECKING:
    from fuego.engine.fire import Fire
    from fuego.engine.scene import Scene

#: A temperament's choice: (scene, fire, the fire's candidates now) -> the action, or None.
Choose = Callable[["Scene", "Fire", "list[FireAction]"], "FireAction | None"]


class Policy(NamedTuple):
    """A fire temperament, as the round's passes use it (``rounds._fire_pass``)."""

    choose: Choose
    #: the candidates it chooses from leave out breaking barriers with no fuel behind
    fuel_only: bool = True
    #: choosing draws from the scene's roller: the pass rolls the actions chosen before it
    #: first, so the stream is drawn in the order of one fire after another
    draws: bool = False

#: A roll is worth trying when its TN is at most this multiple of the pool's mean.
FAIR_CHANCE = 1.0


#: The means of every pool a fire rolls to reach out (spreading and destruction, Fire Dice 1-10,
#: with and without ten again), as fuego.dice.odds.mean gives them at its EXPLODE_DEPTH 7: the policy
#: never waits for icepool (about 0.8 s per process, paid again by each forecast worker).
#: tests/test_bench_smoke.py checks the table against fuego.dice.odds; other pools (or another
#: depth) are computed as before.
_FIRE_MEANS_DEPTH = 7
_FIRE_MEANS: dict[tuple[int, int, int, bool], float] = {
    (2, 1, 0, False): 7.15,
    (2, 1, 0, True): 8.333333211111112,
    (3, 2, 0, False): 13.475000000000001,
    (3, 2, 0, True): 15.305305121971971,
    (4, 2, 0, False): 14.9666,
    (4, 2, 0, True): 17.399438798558954,
    (5, 3, 0, False): 21.45825,
    (5, 3, 0, True): 24.512604721484813,
    (6, 3, 0, False): 22.87857,
    (6, 3, 0, True): 26.541821588500017,
    (6, 4, 0, False): 27.66412,
    (6, 4, 0, True): 31.330661717302952,
    (8, 4, 0, False): 30.8222266,
    (8, 4, 0, True): 35.71008582033648,
    (8, 5, 0, False): 35.76666005,
    (8, 5, 0, True): 40.65550003517833,
    (9, 6, 0, False): 41.924985135,
    (9, 6, 0, True): 47.42497894873515,
    (10, 5, 0, False): 38.780303525,
    (10, 5, 0, True): 44.891096260797,
    (11, 7, 0, False): 51.18842369,
    (11, 7, 0, True): 57.2995341754501,
    (12, 8, 0, False): 55.0,
    (12, 8, 0, True): 61.1111105,
    (14, 9, 0, False): 85.0,
    (14, 9, 0, True): 91.1111105,
    (15, 10, 0, False): 105.0,
    (15, 10, 0, True): 111.1111105,
}


def _mean(pool) -> float:
    """Mean of a roll-and-keep pool, from the exact odds (cached per pool in fuego.dice.odds)."""
    known = _MEAN_OF.get(id(pool))  # fires share their pools: most are looked up by identity
    if known is not None:
        return known[1]
    from fuego.dice.odds import EXPLODE_DEPTH, mean

    value = None
    if EXPLODE_DEPTH == _FIRE_MEANS_DEPTH:
        value = _FIRE_MEANS.get((pool.rolled, pool.kept, pool.bonus, pool.explode))
    if value is None:
        value = mean(pool)
    if len(_MEAN_OF) < 1024:
        _MEAN_OF[id(pool)] = pool, value  # (the pool kept alive, so its id stays its own)
    return value


_MEAN_OF: dict[int, tuple] = {}


def _reaching(acts: list[FireAction]) -> list[FireAction]:
    return [a for a in acts if a.fuel_behind > 0 and a.kind is not ActionKind.GROW]


_GROW, _SPREAD, _DESTROY = ActionKind.GROW, ActionKind.SPREAD, ActionKind.DESTROY


def hungry(scene: Scene, fire: Fire, acts: list[FireAction] | None = None) -> FireAction | None:
    """In this order: the route with the most fuel (no roll); the easiest fair roll that
    reaches fuel; grow; at ten dice the easiest roll that reaches fuel; a beam.

    ``acts``: the fire's candidates with ``fuel_only`` (what the rules below can pick), asked
    for here when not given."""
    if acts is None:
        acts = candidates(scene, fire, fuel_only=True)
    # boxed in by fire: grow if it can (what the rules below come to)
    if len(acts) < 2 and (not acts or acts[0].kind is _GROW):
        return acts[0] if acts else None
    spread = None
    for a in acts:  # no roll needed: the run with the most fuel (the first of equals)
        if a.kind is _SPREAD and (spread is None or _richer(a, spread)):
            spread = a
    if spread is not None:
        return spread
    fair, easiest = _rolls(fire, acts)
    grow = acts[0] if acts[0].kind is _GROW else None  # (candidates' order: grow first)
    return fair or grow or easiest or next((a for a in acts if a.beam is not None), None)


def _richer(a: FireAction, b: FireAction) -> bool:
    return (a.fuel_behind, len(a.path), -a.path[-1]) > (b.fuel_behind, len(b.path), -b.path[-1])


def _rolls(fire: Fire, acts: list[FireAction]) -> tuple[FireAction | None, FireAction | None]:
    """Of the rolls that reach fuel: the easiest with a fair chance (burn-through and leaps,
    which start fires now, before breaking in; then more fuel, then the lower area), and the
    easiest of all (then the lower area); the first of equals. One pass: every fire asks it
    with every die."""
    fair = easiest = None
    fair_key: tuple = ()
    easiest_key: tuple = ()
    spread_mean = destroy_mean = 0.0
    for a in acts:
        tn = a.tn
        if a.fuel_behind <= 0 or a.kind is _GROW or tn is None:
            continue
        if easiest is None:  # (the means only matter for actions that reach fuel)
            spread_mean = _mean(fire.spreading_pool())
            destroy_mean = _mean(fire.destruction_pool())
        if easiest is None or (tn, a.target) < easiest_key:
            easiest, easiest_key = a, (tn, a.target)
        rank = 1 if a.kind is _DESTROY else 0
        if tn <= FAIR_CHANCE * (destroy_mean if rank else spread_mean):
            key = (tn, rank, -a.fuel_behind, a.target)
            if fair is None or key < fair_key:
                fair, fair_key = a, key
    return fair, easiest


def patient(scene: Scene, fire: Fire, acts: list[FireAction] | None = None) -> FireAction | None:
    """Grow to half its strength (five dice), then as :func:`hungry` (``acts`` as there)."""
    if acts is None:
        acts = candidates(scene, fire, fuel_only=True)
    if fire.fd < 5:
        for a in acts:
            if a.kind is ActionKind.GROW:
                return a
    return hungry(scene, fire, acts)


def wild(scene: Scene, fire: Fire, acts: list[FireAction] | None = None) -> FireAction | None:
    """Any action that reaches fuel, else a route, else anything, drawn by the scene's roller
    (``acts``: all the fire's candidates, asked for here when not given)."""
    if acts is None:
        acts = candidates(scene, fire)
    options = _reaching(acts) or [a for a in acts if a.kind is ActionKind.SPREAD] or acts
    return scene.roller.choice(options) if options else None


POLICIES: dict[str, Policy] = {
    "hungry": Policy(hungry),
    "patient": Policy(patient),
    "wild": Policy(wild, fuel_only=False, draws=True),
}
