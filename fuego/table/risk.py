"""The odds of a hero's choice, before it is picked: its pool, TN and chance, and what a failed
roll costs (the expected Flesh Wounds and the chance of a Dramatic Wound), all exact (icepool,
through :mod:`fuego.dice.odds`).

The pool is the one :func:`fuego.engine.hero_actions.action_roll` names, after smoke and
confusion (:func:`fuego.engine.injury.hero_pool`), so the odds shown are those of the roll the
engine makes. Nothing here rolls or changes the scene.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fuego.dice import odds
from fuego.errors import FuegoError
from fuego.rules.formulas import raise_bonus

if TYPE_CHECKING:
    from fuego.dice.roller import Pool
    from fuego.engine.hero_actions import HeroAction
    from fuego.engine.heroes import Hero
    from fuego.engine.scene import Scene


@dataclass(frozen=True)
class Odds:
    """A choice's roll: ``pool`` against ``tn`` (or against the roll of ``against``) with
    ``chance`` to succeed; ``flesh`` and ``dramatic`` are what it risks (None: no damage)."""

    purpose: str
    pool: Pool
    chance: float
    tn: int | None = None
    against: Pool | None = None
    raises: int = 0
    flesh: float | None = None
    dramatic: float | None = None

    def words(self) -> str:
        """``3k3 vs TN 15: 64%; on a failure ~4.2 FW, 12% a Dramatic Wound``."""
        if self.tn is not None:
            what = f"{self.pool} vs TN {self.tn}"
        else:
            what = f"{self.pool} vs its Stealth {self.against}"
            if self.raises:
                what += f" +{raise_bonus(self.raises)}"
        text = f"{what}: {percent(self.chance)}"
        if self.flesh is not None and self.dramatic is not None:
            text += (f"; risks {flesh_wounds(self.flesh)} FW, {percent(self.dramatic)} a "
                     f"Dramatic Wound")
        return text


def flesh_wounds(expected: float) -> str:
    """Expected Flesh Wounds as a GM reads them: ``~4.2``; ``0`` only when none can come,
    ``<0.1`` for a trace (never ``~0.0`` beside a chance of a Dramatic Wound)."""
    if expected <= 0.0:
        return "0"
    if expected < 0.05:
        return "<0.1"
    return f"~{expected:.1f}"


def percent(p: float) -> str:
    """A chance as a GM reads it: ``100%`` only when certain, ``0%`` only when impossible."""
    if p >= 1.0:
        return "100%"
    if p <= 0.0:
        return "0%"
    value = 100 * p
    if value >= 99.5:
        return ">99%"
    if value < 0.5:
        return "<1%" if value >= 0.05 else "<0.1%"
    return f"{value:.0f}%"


def choice_odds(scene: Scene, hero: Hero, act: HeroAction) -> Odds | None:
    """The odds of ``act`` for ``hero`` now (None: it rolls nothing)."""
    from fuego.engine.hero_actions import action_roll
    from fuego.engine.injury import hero_pool

    spec = action_roll(scene, hero, act)
    if spec is None:
        return None
    pool = hero_pool(scene, hero, spec.pool, spec.sense, at=spec.at)
    try:
        p = (odds.chance(pool, spec.tn) if spec.tn is not None
             else versus(pool, spec.opposed, spec.tn_over))
    except FuegoError:
        return None
    flesh = dramatic = None
    if spec.damage is not None:
        flesh, dramatic = damage_risk(scene, hero, spec.damage, 1.0 - p)
    return Odds(spec.purpose, pool, p, tn=spec.tn, against=spec.against, raises=spec.raises,
                flesh=flesh, dramatic=dramatic)


def versus(pool: Pool, against: Pool, tn_over: Callable[[int], int]) -> float:
    """Chance that ``pool``'s total meets the number ``tn_over`` makes of ``against``'s total
    (the roll's own rule: :meth:`fuego.engine.injury.ActionRoll.tn_over`)."""
    return math.fsum(q * odds.chance(pool, tn_over(t))
                     for t, q in odds.distribution(against).items())


def damage_risk(scene: Scene, hero: Hero, damage: Pool, p_hit: float) -> tuple[float, float]:
    """Expected Flesh Wounds and chance of at least one Dramatic Wound from a fire's damage roll
    taken with probability ``p_hit``: the damage, then a wound check (Brawn k Brawn) against
    all the hero's Flesh Wounds."""
    from fuego.engine.injury import hero_pool

    check = hero_pool(scene, hero, hero.wound_check_pool(), action=False)
    fail = math.fsum(q * (1.0 - odds.chance(check, hero.flesh + d))
                     for d, q in odds.distribution(damage).items())
    return p_hit * odds.mean(damage), p_hit * fail


def roll_chance(pool: Pool, tn: int | None) -> float | None:
    """The chance a roll meets ``tn`` (None when there is no TN or no odds for it)."""
    if tn is None:
        return None
    try:
        return odds.chance(pool, tn)
    except FuegoError:
        return None


def certain(pool: Pool, tn: int | None) -> bool:
    """A roll that cannot fail: its lowest total meets the TN (exact, no float)."""
    if tn is None:
        return False
    try:
        return min(odds.distribution(pool)) >= tn
    except FuegoError:
        return False
