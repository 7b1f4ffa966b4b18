"""The optional rule modules' hooks: :class:`RuleModule`, the base every module subclasses.

The engine calls these hooks at fixed points of the round (fuego.engine.rounds, fire_actions,
hero_actions, fuego.engine.smoke); each does nothing by default, so a module overrides only what
it changes, and a module that overrides nothing plays exactly as no module (tests/test_seams.py).
The modules themselves, and the registry of their scenario names, are ``fuego.modules``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from enum import Enum

    from fuego.engine.fire import Fire
    from fuego.engine.fire_actions import ActionKind
    from fuego.engine.heroes import Hero
    from fuego.engine.injury import ActionRoll
    from fuego.engine.scene import Scene


@dataclass(frozen=True, slots=True)
class Burning:
    """Something a module keeps burning outside ``scene.fires`` (a burning wreck): its area,
    what it is (``wagon``), for the GM how long it burns, and what a step into it costs."""

    area: int
    what: str
    detail: str = ""
    #: the moves a step into its area takes on top of the move (a wreck: 25.141's extra MF);
    #: the automatic heroes' toll (:meth:`RuleModule.move_tolls`) and the GM's choice read it
    extra_moves: int = 0


class RuleModule:
    """Base of every optional module: no-op hooks, options validated by the module."""

    name = "module"
    #: seed file and rules this module follows, for docs and ``fuego check``
    source = ""

    #: the kinds of hero action this module adds (an Enum's members; their values are the
    #: verbs that the actions' text, scripted actions and ``fuego check`` read)
    action_kinds: tuple[Enum, ...] = ()
    #: when its end-of-round hook runs among the modules' (lower first; ties keep the scenario's
    #: order): what puts fires out (10-29) before what spreads them (30-49) before what changes
    #: their state (50-), so the order a scenario lists modules in changes nothing
    end_order: int = 50

    def __init__(self, options: dict[str, Any] | None = None):
        self.options = dict(options or {})

    @classmethod
    def check_options(cls, options: dict[str, Any] | None) -> list[str]:
        """Problems with ``options``, each ``key: message`` below ``rules.modules.<name>``."""
        return [f"{key}: {message}" if key else message
                for key, message in cls.option_problems(options)]

    @classmethod
    def option_problems(cls, options: dict[str, Any] | None) -> list[tuple[str, str]]:
        """Problems with ``options``, each (its dotted key below ``rules.modules.<name>``, or
        "", and the message): what ``fuego check`` pins to the option's own line."""
        from fuego.errors import FuegoError

        try:
            cls(options)
        except FuegoError as exc:
            return [(getattr(exc, "key", "") or "", exc.message)]
        return []

    # -- hooks (the order of a round) --------------------------------------------------------
    def scene_start(self, scene: Scene) -> None:
        """Once, before round 1 (e.g. roll the Environmental Conditions or the wind)."""

    def round_start(self, scene: Scene) -> None:
        """Start of each round, before action dice (e.g. the wind change check)."""

    def starts_as_flame(self, scene: Scene, fire: Fire) -> bool:
        """Is this new fire born a Flame (its lifecycle's ``kindle``)? Any module may say so."""
        return False

    def fire_started(self, scene: Scene, fire: Fire) -> None:
        """A new fire was just born and placed (its state already set by ``kindle``)."""

    def spread_tn(self, scene: Scene, fire: Fire, target: int, tn: int,
                  how: ActionKind) -> int | None:
        """Adjust the TN of a spreading roll (``how``: leap, burn-through, grow); ``None``
        forbids that action this time (e.g. upwind in heavy winds)."""
        return tn

    def hero_actions(self, scene: Scene, hero: Hero) -> list[Any]:
        """Extra actions a hero may take (e.g. firefighting)."""
        return []

    def action_roll(self, scene: Scene, hero: Hero, act: Any) -> ActionRoll | None:
        """The roll one of this module's hero actions makes now (None: it rolls nothing, or
        ``act`` is not one of them): described once, for the odds the table shows and the roll
        :meth:`perform_hero_action` makes."""
        return None

    def perform_hero_action(self, scene: Scene, hero: Hero, act: Any) -> bool:
        """Carry out one of this module's hero actions; False if ``act`` is not one of them."""
        return False

    def smoke_claims(self, scene: Scene, fire: Fire) -> bool:
        """True if this module places ``fire``'s smoke itself (the core smoke skips it)."""
        return False

    def smoke_update(self, scene: Scene, field: Any, new: dict[int, Any]) -> set[int]:
        """End-of-round smoke, after the core has spread the smoke of the fires it places:
        add densities to ``new`` and return the areas whose smoke this module manages (the
        core does not linger or clear those)."""
        return set()

    def end_of_round(self, scene: Scene) -> None:
        """After the core end-of-round steps and before the flashover check."""

    def hero_moved(self, scene: Scene, hero: Hero, frm: int) -> None:
        """A hero just stepped from ``frm`` into ``hero.area`` (e.g. a wreck costs a move)."""

    def burning(self, scene: Scene) -> list[Burning]:
        """What this module keeps burning outside ``scene.fires`` (a burning wreck), by area:
        the round's and the scene's events name it, the screens draw it."""
        return []

    def alight(self, scene: Scene) -> bool:
        """Does something this module keeps burning, outside ``scene.fires``, keep the scene
        going (a burning wreck)?"""
        return bool(self.burning(scene))

    # -- what modules ask of each other where they cannot import each other's class --------------
    def move_tolls(self, scene: Scene) -> dict[int, float]:
        """What stepping into an area costs a walker on top of the move, by area, for the
        automatic heroes' way out: by default the extra moves of what this module keeps
        burning there (:attr:`Burning.extra_moves`: a wreck's), the one place a step's toll is
        written."""
        return {b.area: float(b.extra_moves) for b in self.burning(scene) if b.extra_moves}

    def flame_harms(self, scene: Scene, fire: Fire) -> bool:
        """Does a Flame (``FireState.FLAME``, harmless of its own: ASL 25.1) burn heroes after
        all? (flame-and-blaze's ``flames_burn``, the older reading.)"""
        return False

    def may_smother(self, scene: Scene, fire: Fire) -> bool:
        """May heroes smother this fire? (flame-and-blaze: a Blaze cannot be purposely
        extinguished, ASL 25.7.)"""
        return True

    def is_incendiary(self, fire: Fire) -> bool:
        """Did this module make ``fire`` an incendiary (the weather does not put it out)?"""
        return False

    def wind_changed(self, scene: Scene) -> None:
        """The wind module changed the wind (e.g. the drifting smoke turns with it)."""

    def gust(self, scene: Scene) -> None:
        """The wind module's gusts blew this round."""

    def state(self) -> dict[str, Any]:
        """What this module changes during play, for saves."""
        return {}

    def load_state(self, state: dict[str, Any]) -> None:
        pass
