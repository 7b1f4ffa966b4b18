"""Importing this fills :data:`fuego.modules.REGISTRY` with every shipped module.

A scenario switches modules on under ``rules.modules`` (name -> options); docs/modules.md
describes each. :func:`build` makes the module objects from that mapping (the scenario loader
does the same) and :func:`enable` puts them on a scene.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fuego.engine.rule_module import RuleModule
from fuego.errors import FuegoError
from fuego.modules import REGISTRY
from fuego.modules import drifting_smoke as _drifting_smoke  # noqa: F401
from fuego.modules import fire_breaks as _fire_breaks  # noqa: F401
from fuego.modules import firefighting as _firefighting  # noqa: F401
from fuego.modules import flame_and_blaze as _flame_and_blaze  # noqa: F401
from fuego.modules import ignition as _ignition  # noqa: F401
from fuego.modules import structures as _structures  # noqa: F401
from fuego.modules import weather as _weather  # noqa: F401
from fuego.modules import wind as _wind  # noqa: F401
from fuego.modules import wrecks as _wrecks  # noqa: F401

if TYPE_CHECKING:
    from fuego.engine.scene import Scene

#: Every shipped module, in the order docs/modules.md presents them.
NAMES = ("weather", "wind", "flame-and-blaze", "ignition", "firefighting", "structures",
         "drifting-smoke", "fire-breaks", "wrecks")


def build(modules: dict[str, Any] | None) -> list[RuleModule]:
    """Module objects for ``rules.modules`` (name -> options), in the order given; an unknown
    name or a bad option raises :class:`fuego.errors.FuegoError` naming its key path."""
    out = []
    for name, options in (modules or {}).items():
        cls = REGISTRY.get(name)
        if cls is None:
            raise FuegoError(f"unknown module {name!r}; modules: {', '.join(NAMES)}",
                             where=f"rules.modules.{name}")
        out.append(cls(options))
    return out


def enable(scene: Scene, modules: dict[str, Any] | None = None) -> Scene:
    """Put the modules of ``modules`` (default: the scene's ``settings.modules``) on ``scene``."""
    scene.modules = build(scene.settings.modules if modules is None else modules)
    return scene


def check_note(scenario: Any) -> str:
    """What ``fuego check`` adds to a scenario's summary for its modules: the fire-break spend
    (" Fire breaks: 3 of 4 factors spent on 2 areas."), or "". A spend the scenario cannot
    make raises :class:`fuego.errors.ScenarioError` listing every problem."""
    if getattr(scenario, "modules", None):
        _try_scene_start(scenario)
    if "fire-breaks" not in (getattr(scenario, "modules", None) or {}):
        return ""
    return _fire_breaks_note(scenario)


def _try_scene_start(scenario: Any) -> None:
    """Rooms and areas named in the modules' options resolve at the scene's start: try each
    module's start on a throwaway scene (fire breaks' own plan lists its problems later)."""
    from fuego.errors import ScenarioError

    scene, problems = scenario.build(seed=0), []
    for m in scene.modules:
        try:
            if not isinstance(m, _fire_breaks.FireBreaks):
                m.scene_start(scene)
        except FuegoError as exc:
            pin = getattr(scenario, "pin", None)  # the option's file and line
            problems.append(pin(exc) if pin is not None else exc)
    if problems:
        raise ScenarioError(problems)


def _fire_breaks_note(scenario: Any) -> str:
    """The fire breaks' spend (:func:`fuego.modules.fire_breaks.summary_text`), as a sentence."""
    from fuego.errors import ScenarioError
    from fuego.modules.fire_breaks import summary, summary_text

    plan = summary(scenario.build(seed=0))
    if plan is None:
        return ""
    if plan["problems"]:
        raise ScenarioError([FuegoError(p) for p in plan["problems"]])
    text = summary_text(plan)
    return f" {text[0].upper()}{text[1:]}."
