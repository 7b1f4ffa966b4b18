"""Writing a scenario back out as YAML (``Scenario.to_yaml``).

The file written is the checked spec with every default left out, plans as literal blocks and
legend entries that only name a room written short (``k: kitchen``). Loading it again gives
the same building, heroes and fires (tests/test_scenario.py checks the round trip).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fuego.scenario.spec import FORMAT_VERSION

if TYPE_CHECKING:
    from fuego.scenario.model import Scenario


def _compact_legend(legend: dict[str, Any]) -> dict[str, Any]:
    return {ch: (entry["room"] if isinstance(entry, dict) and list(entry) == ["room"] else entry)
            for ch, entry in legend.items()}


def data_of(scenario: Scenario) -> dict[str, Any]:
    """The scenario as plain data, in the order of the format's sections."""
    data = scenario.spec.model_dump(mode="python", exclude_defaults=True)
    data.pop("format", None)
    if "legend" in data:
        data["legend"] = _compact_legend(data["legend"])
    for level in data.get("levels", []):
        if "legend" in level:
            level["legend"] = _compact_legend(level["legend"])
    return {"format": FORMAT_VERSION, **data}


def dump(scenario: Scenario) -> str:
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    def text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
        style = "|" if "\n" in value else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, text)
    body = yaml.dump(data_of(scenario), Dumper=Dumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=100)
    return f"# fuego scenario, written by fuego from {scenario.source}\n{body}"
