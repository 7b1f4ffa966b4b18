"""Foundry VTT's scene document (version 13, data schema 13.341) as pydantic models, for the
export tests: field names, types and value ranges as Foundry's ``defineSchema`` writes them
(``common/documents/{scene,wall,ambient-light,drawing}.mjs``, ``common/data/data.mjs``:
LightData, ShapeData, TextureData; ``common/constants.mjs``: the CONST values). Only the fields
fuego writes are modelled, and no other is allowed (``extra="forbid"``), so a misspelt field
fails here instead of being dropped silently by Foundry.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, model_validator

DocumentId = Annotated[str, Field(pattern=r"^[a-zA-Z0-9]{16}$")]
Color = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$")]
Alpha = Annotated[float, Field(ge=0, le=1)]
Angle = Annotated[float, Field(ge=0, le=360)]
# CONST.WALL_SENSE_TYPES, WALL_MOVEMENT_TYPES, WALL_DIRECTIONS, WALL_DOOR_TYPES, WALL_DOOR_STATES
SenseType = Literal[0, 10, 20, 30, 40]
MovementType = Literal[0, 20]
WallDirection = Literal[0, 1, 2]
DoorType = Literal[0, 1, 2]
DoorState = Literal[0, 1, 2]
# CONST.DRAWING_FILL_TYPES, GRID_TYPES, TEXTURE_DATA_FIT_MODES; ShapeData.TYPES
FillType = Literal[0, 1, 2]
GridType = Literal[0, 1, 2, 3, 4, 5]
FitMode = Literal["fill", "contain", "cover", "width", "height"]
ShapeType = Literal["r", "c", "e", "p"]
GRID_MIN_SIZE = 20


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class WallThreshold(Model):
    light: Annotated[float, Field(gt=0)] | None
    sight: Annotated[float, Field(gt=0)] | None
    sound: Annotated[float, Field(gt=0)] | None
    attenuation: StrictBool


class Wall(Model):
    id: DocumentId = Field(alias="_id")
    c: Annotated[list[StrictInt], Field(min_length=4, max_length=4)]
    light: SenseType
    move: MovementType
    sight: SenseType
    sound: SenseType
    dir: WallDirection
    door: DoorType
    ds: DoorState
    threshold: WallThreshold
    animation: None
    flags: dict[str, Any]


class LightAnimation(Model):
    type: Annotated[str, Field(min_length=1)] | None
    speed: Annotated[StrictInt, Field(ge=0, le=10)]
    intensity: Annotated[StrictInt, Field(ge=1, le=10)]
    reverse: StrictBool


class Darkness(Model):
    min: Alpha
    max: Alpha

    @model_validator(mode="after")
    def ordered(self):
        if self.min > self.max:
            raise ValueError("darkness.max may not be less than darkness.min")
        return self


class LightConfig(Model):
    negative: StrictBool
    priority: Annotated[StrictInt, Field(ge=0)]
    alpha: Alpha
    angle: Angle
    bright: Annotated[float, Field(ge=0)]
    color: Color | None
    coloration: StrictInt
    dim: Annotated[float, Field(ge=0)]
    attenuation: Alpha
    luminosity: Annotated[float, Field(ge=0, le=1)]
    saturation: Annotated[float, Field(ge=-1, le=1)]
    contrast: Annotated[float, Field(ge=-1, le=1)]
    shadows: Annotated[float, Field(ge=0, le=1)]
    animation: LightAnimation
    darkness: Darkness


class AmbientLight(Model):
    id: DocumentId = Field(alias="_id")
    x: StrictInt
    y: StrictInt
    elevation: float
    rotation: Angle
    walls: StrictBool
    vision: StrictBool
    config: LightConfig
    hidden: StrictBool
    flags: dict[str, Any]


class Shape(Model):
    type: ShapeType
    width: Annotated[StrictInt, Field(ge=0)] | None
    height: Annotated[StrictInt, Field(ge=0)] | None
    radius: Annotated[StrictInt, Field(gt=0)] | None
    points: list[float]


class Drawing(Model):
    id: DocumentId = Field(alias="_id")
    shape: Shape
    x: float
    y: float
    elevation: float
    sort: StrictInt
    rotation: Angle
    bezierFactor: Annotated[float, Field(ge=0, le=0.5)]
    fillType: FillType
    fillColor: Color
    fillAlpha: Alpha
    strokeWidth: Annotated[StrictInt, Field(ge=0)]
    strokeColor: Color
    strokeAlpha: Alpha
    texture: str | None
    text: str
    fontFamily: Annotated[str, Field(min_length=1)]
    fontSize: Annotated[StrictInt, Field(ge=8, le=256)]
    textColor: Color
    textAlpha: Alpha
    hidden: StrictBool
    locked: StrictBool
    interface: StrictBool
    flags: dict[str, Any]

    @model_validator(mode="after")
    def visible(self):
        """BaseDrawing.validateJoint: a drawing must show something."""
        s = self.shape
        if s.type in ("r", "e") and ((s.width or 0) <= self.strokeWidth
                                     or (s.height or 0) <= self.strokeWidth):
            raise ValueError("the drawing is empty")
        fill = self.fillType != 0 and self.fillAlpha > 0
        line = self.strokeWidth > 0 and self.strokeAlpha > 0
        text = self.text != "" and self.textAlpha > 0
        if not (fill or line or text):
            raise ValueError("the drawing shows nothing")
        return self


class Texture(Model):
    src: str | None
    anchorX: float
    anchorY: float
    offsetX: StrictInt
    offsetY: StrictInt
    fit: FitMode
    scaleX: float
    scaleY: float
    rotation: Angle
    tint: Color
    alphaThreshold: Alpha

    @model_validator(mode="after")
    def a_path(self):
        """The background is a FilePathField: a path or URL of an image, never base64 data."""
        if self.src is not None:
            if self.src.startswith("data:"):
                raise ValueError("base64 data is not allowed in background.src")
            if not self.src.lower().endswith((".png", ".webp", ".jpg", ".jpeg")):
                raise ValueError("background.src must name an image file")
        return self


class Grid(Model):
    type: GridType
    size: Annotated[StrictInt, Field(ge=GRID_MIN_SIZE)]
    style: Annotated[str, Field(min_length=1)]
    thickness: Annotated[StrictInt, Field(gt=0)]
    color: Color
    alpha: Alpha
    distance: Annotated[float, Field(gt=0)]
    units: str


class Initial(Model):
    x: StrictInt | None
    y: StrictInt | None
    scale: Annotated[float, Field(gt=0)] | None


class FogColors(Model):
    explored: Color | None
    unexplored: Color | None


class Fog(Model):
    exploration: StrictBool
    overlay: str | None
    colors: FogColors


class Scene(Model):
    name: Annotated[str, Field(min_length=1)]
    navigation: StrictBool
    navName: str
    background: Texture
    width: Annotated[StrictInt, Field(gt=0)]
    height: Annotated[StrictInt, Field(gt=0)]
    padding: Annotated[float, Field(ge=0, le=0.5, multiple_of=0.05)]
    initial: Initial
    backgroundColor: Color
    grid: Grid
    tokenVision: StrictBool
    fog: Fog
    walls: list[Wall]
    lights: list[AmbientLight]
    drawings: list[Drawing]
    flags: dict[str, Any]

    @model_validator(mode="after")
    def unique_ids(self) -> Scene:
        ids = [*(w.id for w in self.walls), *(light.id for light in self.lights),
               *(d.id for d in self.drawings)]
        if len(ids) != len(set(ids)):
            raise ValueError("embedded documents share an _id")
        return self
