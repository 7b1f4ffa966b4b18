"""Optional rule modules from the other rule texts (ASL, Alpha Strike), switched on per scenario.

A module is a :class:`fuego.engine.rule_module.RuleModule` subclass (the engine's hooks)
registered in :data:`REGISTRY` under the name a scenario uses in ``rules.modules``. The engine
calls its hooks at fixed points of the round; each hook does nothing by default, so a module
overrides only what it changes. Modules combine: the engine calls every enabled module's hook in
the order the scenario lists them (the end-of-round hook by :attr:`RuleModule.end_order` first),
and the shipped modules are written so that the order does not change what happens
(docs/modules.md).

``import fuego.modules.registry`` fills :data:`REGISTRY` with the shipped modules.
"""

from __future__ import annotations

from fuego.engine.rule_module import RuleModule

__all__ = ["REGISTRY", "register"]


#: name -> module class; filled by fuego.modules.registry (imported lazily by the loader)
REGISTRY: dict[str, type[RuleModule]] = {}


def register(cls: type[RuleModule]) -> type[RuleModule]:
    REGISTRY[cls.name] = cls
    return cls
