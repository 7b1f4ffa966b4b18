"""weather: Environmental Conditions (ASL B25.5) and Alpha Strike's fire conditions.

- The Environmental Conditions (EC) come from a dr (one d6) on the EC chart plus the month's drm,
  rolled once before round 1, or the GM sets them (``ec:``). Their DRM is added to every 2d6
  fire roll of the other modules (kindling, ASL spreading, Blaze creation, Alpha Strike jumps).
- Alpha Strike's condition modifiers (rain, snowfall, temperature, the state of the ground) are
  added to a fire-starting *target*; fuego folds both into one DRM in ASL's sign (positive helps
  the fire): ``drm = EC DRM - condition modifiers``.
- 7th Sea rolls: each DRM point is one raise, ``tn_per_drm`` (5) off the TN of a fire's leap,
  burn-through or grow roll in an outdoor area (a dry +1 makes a TN 15 leap a TN 10 one).
- Indoors the weather does nothing unless ``indoors: true``, which lets the EC DRM (dry or damp
  timber) but never rain or snow reach fires inside.
- On ground marked * by Alpha Strike (deep snow, ice, mud, swamp, tundra) an outdoor fire not set
  by an incendiary goes out by itself after 1d6 rounds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fuego.engine.events import EventKind
from fuego.engine.rule_module import RuleModule
from fuego.modules import register
from fuego.modules.common import Options, note, outdoors
from fuego.words import plural

if TYPE_CHECKING:
    from fuego.engine.fire import Fire
    from fuego.engine.fire_actions import ActionKind
    from fuego.engine.scene import Scene

# -- tables ---------------------------------------------------------------------------------------
#: EC chart (000, ASL 25.5): final dr -> Environmental Conditions and their DRM, in order; a final
#: dr of 0 or less is Snow, 6 or more Very Dry.
EC_CHART: list[tuple[int, str, int]] = [
    (0, "snow", -3),
    (1, "mud", -3),
    (2, "wet", -2),
    (3, "moist", -1),
    (4, "moderate", 0),
    (5, "dry", 1),
    (6, "very-dry", 2),
]
EC_DRM = {name: drm for _, name, drm in EC_CHART}
#: The month's drm on the EC dr (000, ASL 25.5). May and October are not listed: drm 0.
MONTH_DRM = {1: -3, 2: -3, 3: -2, 4: -1, 5: 0, 6: 1, 7: 2, 8: 2, 9: 1, 10: 0, 11: -1, 12: -2}
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")

#: Alpha Strike "Condition Target Modifier" (001, Fire tables): added to the 2d6 target to start
#: a fire. ``None`` is NA (cannot be set on fire normally). Every row of the text is kept;
#: fuego's options use the rain, snowfall, temperature and ground rows (Théah has no vacuum).
ALPHA_CONDITIONS: dict[str, dict[Any, int | None]] = {
    "terrain": {"deep-snow": 3, "geyser": 3, "ice": 4, "mud": 5, "planted-fields": -2,
                "swamp": 5, "tundra": 0},
    "atmosphere": {"vacuum": None, "trace": 5, "thin": 3, "thick": -2, "very-thick": -4},
    "temperature": {"cold": 1, "hot": -2},
    "wind-force": {2: 1, 3: 2, 4: 4, "tornado": None},
    "rain": {"light-to-heavy": 1, "torrential": 2},
    "snowfall-and-hail": {"light-to-heavy-snow": 1, "sleet": 1, "blizzard": 2},
    "special": {"indirect-fire": 1, "heat": -2},
    "fire-spreading": {"from-downwind": 1, "across-water-paved-per-2": 3},
}
#: Conditions marked * (001): fires there burn out by themselves after 1d6 turns unless set by
#: Inferno munitions (fuego: incendiaries).
SELF_EXTINGUISHING = frozenset({"deep-snow", "ice", "mud", "swamp", "tundra"})

#: fuego's option words -> the rows above (the text's "light to heavy" covers three words).
RAIN = {"none": 0, "light": 1, "moderate": 1, "heavy": 1, "torrential": 2}
SNOWFALL = {"none": 0, "light": 1, "moderate": 1, "heavy": 1, "sleet": 1, "blizzard": 2}
TEMPERATURE = {"normal": 0, "cold": 1, "hot": -2}
GROUND: dict[str, int] = {"none": 0, **{k: v for k in sorted(SELF_EXTINGUISHING)
                                         if (v := ALPHA_CONDITIONS["terrain"][k]) is not None}}

#: fuego's reading: one 2d6 DRM point is worth one raise (5) on a 7th Sea TN.
TN_PER_DRM = 5
#: A module never lowers a TN below the mundane 5 (a roll still happens).
MIN_TN = 5


def ec_for(final_dr: int) -> tuple[str, int]:
    """The EC chart row for a final dr (0 or less: Snow; 6 or more: Very Dry)."""
    for top, name, drm in EC_CHART:
        if final_dr <= top:
            return name, drm
    return EC_CHART[-1][1], EC_CHART[-1][2]


def month_number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 1 <= value <= 12 else None
    if isinstance(value, str):
        v = value.strip().lower()[:3]
        if v in MONTHS:
            return MONTHS.index(v) + 1
    return None


def _said(word: str) -> str:
    """An option word as the GM reads it: ``very-dry`` -> ``very dry``."""
    return word.replace("-", " ")


#: The ``ec`` option's word for Environmental Conditions rolled at the scene's start.
RANDOM_EC = "random"

@register
class Weather(RuleModule):
    name = "weather"
    end_order = 15
    source = "000 ASL 25.5 (Environmental Conditions); 001 Alpha Strike fire tables (conditions)"

    def __init__(self, options: dict[str, Any] | None = None):
        super().__init__(options)
        o = Options(self.name, options)
        raw_month = o.get("month")
        self.month = None
        if raw_month is not None:
            self.month = month_number(raw_month)
            if self.month is None:
                raise o.error("month", f"expected a month (jan ... dec or 1-12), got {raw_month!r}")
        self.ec_option = o.choice("ec", (RANDOM_EC, *EC_DRM), RANDOM_EC)
        self.rain = o.choice("rain", RAIN, "none")
        self.snowfall = o.choice("snowfall", SNOWFALL, "none")
        self.temperature = o.choice("temperature", TEMPERATURE, "normal")
        self.ground = o.choice("ground", GROUND, "none")
        self.indoors = o.boolean("indoors", False)
        self.tn_per_drm = o.integer("tn_per_drm", TN_PER_DRM, 0, 20)
        o.done()
        self.ec = "moderate" if self.ec_option == RANDOM_EC else self.ec_option
        self.ec_roll: list[int] | None = None
        self.burn_out: dict[int, int] = {}  # area -> rounds left on self-extinguishing ground

    # -- the numbers ------------------------------------------------------------------------------
    @property
    def ec_drm(self) -> int:
        return EC_DRM[self.ec]

    @property
    def conditions(self) -> int:
        """Alpha Strike's condition modifiers in force outdoors (target sign)."""
        return (RAIN[self.rain] + SNOWFALL[self.snowfall] + TEMPERATURE[self.temperature]
                + GROUND[self.ground])

    def drm(self, scene: Scene, i: int) -> int:
        """The DRM on a 2d6 fire roll for area ``i`` (ASL sign: positive helps the fire)."""
        if outdoors(scene.building, i):
            return self.ec_drm - self.conditions
        return self.ec_drm if self.indoors else 0

    def describe(self) -> str:
        """``very dry (EC DRM +2); rain: heavy; ground: deep snow``: the option words read as
        words, each condition by its name."""
        parts = [f"{_said(self.ec)} (EC DRM {self.ec_drm:+d})"]
        for label, value, default in (("rain", self.rain, "none"),
                                      ("snowfall", self.snowfall, "none"),
                                      ("temperature", self.temperature, "normal"),
                                      ("ground", self.ground, "none")):
            if value != default:
                parts.append(f"{label}: {_said(value)}")
        return "; ".join(parts)

    # -- hooks ------------------------------------------------------------------------------------
    def scene_start(self, scene: Scene) -> None:
        data: dict[str, Any] = {}
        if self.ec_option == RANDOM_EC:
            dr = scene.roller.d6()
            mdrm = MONTH_DRM[self.month] if self.month else 0
            self.ec, _ = ec_for(dr + mdrm)
            self.ec_roll = [dr, mdrm]
            data = {"dr": dr, "month_drm": mdrm}
        note(scene, self.name, f"Weather: {self.describe()}"
             + (f" (EC dr {data['dr']}{data['month_drm']:+d})" if data else ""),
             kind=EventKind.WEATHER, ec=self.ec, ec_drm=self.ec_drm, conditions=self.conditions,
             **data)

    def spread_tn(self, scene: Scene, fire: Fire, target: int, tn: int,
                  how: ActionKind) -> int | None:
        d = self.drm(scene, target)
        if not d:
            return tn
        return max(min(tn, MIN_TN), tn - self.tn_per_drm * d)

    def end_of_round(self, scene: Scene) -> None:
        """Fires on sodden or frozen ground go out by themselves after 1d6 rounds (001 *)."""
        if self.ground not in SELF_EXTINGUISHING:
            self.burn_out.clear()
            return
        b = scene.building
        for i in sorted(scene.fires):
            if i in self.burn_out or not outdoors(b, i):
                continue
            if any(m.is_incendiary(scene.fires[i]) for m in scene.modules):
                continue  # (the ignition module's: it builds on this one, so a hook asks it)
            self.burn_out[i] = scene.roller.d6()
            note(scene, self.name, f"on {_said(self.ground)} the fire will die by itself in "
                 + plural(self.burn_out[i], "round"), i, rounds=self.burn_out[i], ground=self.ground)
        for i in sorted(self.burn_out):
            fire = scene.fires.get(i)
            if fire is None:
                del self.burn_out[i]
                continue
            self.burn_out[i] -= 1
            if self.burn_out[i] <= 0:
                del self.burn_out[i]
                scene.extinguish(fire, f"died out on the {_said(self.ground)}", burned_out=False)

    # -- the script's weather effect ---------------------------------------------------------------
    CHANGEABLE = ("ec", "rain", "snowfall", "temperature", "ground")

    @classmethod
    def check_weather(cls, values: dict[str, Any]) -> list[str]:
        """Problems with a script's weather change (``key: message``), for load-time checks."""
        values = dict(values)
        if "snow" in values and "snowfall" in values:
            return ["snow: snow and snowfall are one condition: give one of them"]
        if "snow" in values:
            values["snowfall"] = values.pop("snow")
        problems = [f"{k}: the weather module changes only {', '.join(cls.CHANGEABLE)}"
                    for k in sorted(values) if k not in cls.CHANGEABLE]
        if "ec" in values and values["ec"] == RANDOM_EC:
            problems.append("ec: give the conditions (a script does not roll them)")
        rest = {k: v for k, v in values.items() if k in cls.CHANGEABLE}
        return problems + cls.check_options(rest)

    def set_weather(self, scene: Scene, why: str = "", **values: Any) -> None:
        """Change the weather in play (``ec``, ``rain``, ``snowfall``/``snow``, ``temperature``,
        ``ground``); anything else raises :class:`fuego.errors.FuegoError`
        (:meth:`check_weather` finds it before play)."""
        problems = self.check_weather(values)
        if problems:
            from fuego.errors import FuegoError

            raise FuegoError(f"weather change: {problems[0]}",
                             tip="ec, rain, snowfall, temperature or ground")
        if "snow" in values and "snowfall" not in values:
            values["snowfall"] = values.pop("snow")
        merged = {"ec": self.ec, "rain": self.rain, "snowfall": self.snowfall,
                  "temperature": self.temperature, "ground": self.ground}
        merged.update(values)
        other = Weather(merged)
        self.ec, self.rain, self.snowfall = other.ec, other.rain, other.snowfall
        self.temperature, self.ground = other.temperature, other.ground
        note(scene, self.name, f"Weather: {self.describe()}", kind=EventKind.WEATHER, ec=self.ec,
             ec_drm=self.ec_drm, conditions=self.conditions, why=why)

    # -- saves ------------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {"ec": self.ec, "rain": self.rain, "snowfall": self.snowfall,
                "temperature": self.temperature, "ground": self.ground,
                "burn_out": sorted([i, n] for i, n in self.burn_out.items())}

    def load_state(self, state: dict[str, Any]) -> None:
        self.ec, self.rain, self.snowfall = state["ec"], state["rain"], state["snowfall"]
        self.temperature, self.ground = state["temperature"], state["ground"]
        self.burn_out = {i: n for i, n in state["burn_out"]}


def weather_drm(scene: Scene, i: int) -> int:
    """The weather module's DRM for a 2d6 fire roll in area ``i`` (0 when it is off)."""
    w = scene.module(Weather)
    return w.drm(scene, i) if w is not None else 0
