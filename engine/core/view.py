"""What a seat or a spectator may see, in one shape for every renderer and client.

Board coordinates: on `square` boards `col`/`row` are grid columns and rows; on `hex` boards
they are axial `q`/`r` of pointy-top hexes (see `engine.core.hexgrid`); on `area` boards cells are
grid squares and each carries the id of the Area it belongs to. `coord` is always the short label
players type in slash commands.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class CellView(BaseModel):
    coord: str
    col: int
    row: int
    terrain: str = "floor"
    area: str | None = None
    room: str | None = None
    marks: list[str] = Field(default_factory=list)


class EdgeView(BaseModel):
    """Something on the border between two cells: a wall, a door, a window."""

    a: str
    b: str
    kind: str


class FigureView(BaseModel):
    id: str
    label: str
    name: str
    side: Literal["player", "enemy", "neutral"]
    kind: str = ""
    coord: str
    facing: str | None = None
    health: int | None = None
    max_health: int | None = None
    rank: str | None = None
    seat: str | None = None
    conditions: list[str] = Field(default_factory=list)
    # Optional profile lines for `/sheet` (weapons, movement, defence, abilities).
    profile: list[str] = Field(default_factory=list)


class TokenView(BaseModel):
    coord: str
    kind: str
    label: str = ""


class PanelView(BaseModel):
    """A seat's key numbers for the side panel."""

    seat: str
    title: str
    lines: list[str] = Field(default_factory=list)


class SummaryView(BaseModel):
    """End-of-mission facts for the summary image (set by a game once its mission is over)."""

    # Why it ended, in a sentence ("Time is up and the objectives were not met.").
    result: str = ""
    # Enemies the players' side killed, when the game counts them.
    kills: int | None = None
    # The players' figures lost (dead, down, inoperative), by name.
    losses: list[str] = Field(default_factory=list)
    # Each objective and how far it got.
    objectives: list[str] = Field(default_factory=list)
    # Rounds played, when the View's own round is no longer the mission's (a campaign that has
    # moved on to its next mission).
    rounds: int | None = None


class View(BaseModel):
    game: str
    scenario: str
    title: str
    board: Literal["hex", "square", "area"]
    round: int = 0
    phase: str = ""
    waiting: list[str] = Field(default_factory=list)
    header: dict[str, str] = Field(default_factory=dict)
    cells: list[CellView] = Field(default_factory=list)
    edges: list[EdgeView] = Field(default_factory=list)
    figures: list[FigureView] = Field(default_factory=list)
    tokens: list[TokenView] = Field(default_factory=list)
    panels: list[PanelView] = Field(default_factory=list)
    # Hidden information for the viewing seat only (a hand of cards); empty for spectators.
    private: list[str] = Field(default_factory=list)
    finished: bool = False
    outcome: str | None = None
    # Optional, for the renderer (defaults keep every game working without them):
    # the seat this view was built for (None: a spectator; hidden events are then never drawn),
    viewer: str | None = None
    # the figure whose turn it is (the focus view centres on it),
    active: str | None = None
    # and the coordinates (cells, or Areas on area boards) it can reach this turn;
    reach: list[str] = Field(default_factory=list)
    # once the mission is over, its summary (result, kills, losses, objectives).
    summary: SummaryView | None = None
