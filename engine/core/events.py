"""Typed records of what happened in a step.

Events are the single source of narration text, of the highlights the renderer draws and of
the action log. Each kind is a small pydantic model registered by its `kind` tag, so a stored
log parses back into the same classes. Games add their own kinds with `@register_event`.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, model_serializer

_REGISTRY: dict[str, type[Event]] = {}

E = TypeVar("E", bound="Event")


def register_event(cls: type[E]) -> type[E]:
    """Class decorator: make an event kind parseable from stored JSON."""
    kind = cls.model_fields["kind"].default
    if not isinstance(kind, str) or not kind:
        raise TypeError(f"{cls.__name__} needs a default string `kind`")
    if kind in _REGISTRY and _REGISTRY[kind] is not cls:
        raise TypeError(f"event kind {kind!r} registered twice")
    _REGISTRY[kind] = cls
    return cls


class Event(BaseModel):
    """Base of every event; `text` is the narration line shown to players."""

    kind: str = "note"
    text: str = ""
    # Who may see this event: None for everyone, else the seats allowed (hidden information).
    visible_to: list[str] | None = None

    public_fields: ClassVar[tuple[str, ...]] = ()

    def visible_for(self, seat: str | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    @staticmethod
    def parse(data: dict[str, Any]) -> Event:
        cls = _REGISTRY.get(str(data.get("kind", "note")), Event)
        return cls.model_validate(data)


@register_event
class Note(Event):
    kind: str = "note"


@register_event
class PhaseChanged(Event):
    kind: str = "phase"
    round: int = 0
    phase: str = ""
    active: list[str] = Field(default_factory=list)


@register_event
class Moved(Event):
    kind: str = "moved"
    figure: str = ""
    path: list[str] = Field(default_factory=list)


@register_event
class Turned(Event):
    kind: str = "turned"
    figure: str = ""
    facing: str = ""


@register_event
class Rolled(Event):
    """A dice roll shown to the table: what was rolled, for what, and the faces."""

    kind: str = "rolled"
    figure: str = ""
    purpose: str = ""
    faces: list[str] = Field(default_factory=list)


@register_event
class Attacked(Event):
    kind: str = "attacked"
    attacker: str = ""
    target: str = ""
    weapon: str = ""
    faces: list[str] = Field(default_factory=list)
    hits: int = 0
    result: str = ""


@register_event
class Wounded(Event):
    kind: str = "wounded"
    figure: str = ""
    amount: int = 0
    remaining: int | None = None


@register_event
class Killed(Event):
    kind: str = "killed"
    figure: str = ""
    at: str = ""
    name: str = ""  # the figure as people read it, when the game numbers it apart from its key

    @model_serializer(mode="wrap")
    def _without_empty_name(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """No `name` key when a game gives none: stored logs and determinism fingerprints of
        games that name figures by their keys stay as they were."""
        data: dict[str, Any] = handler(self)
        if not self.name:
            data.pop("name", None)
        return data


@register_event
class Spawned(Event):
    kind: str = "spawned"
    figure: str = ""
    at: str = ""


@register_event
class Revealed(Event):
    kind: str = "revealed"
    figure: str = ""
    at: str = ""


@register_event
class CardDrawn(Event):
    kind: str = "card"
    deck: str = ""
    card: str = ""


@register_event
class MissionEnded(Event):
    kind: str = "ended"
    outcome: str = ""


@register_event
class SeatTold(Event):
    """A word for one seat's player alone, sent to them directly by the table (their last
    figure is gone, another seat asks them something). It is not secret, but it is not
    narrated either (no `text`): the public line goes in a Note of its own."""

    kind: str = "seat-told"
    seat: str = ""
    message: str = ""


def parse_events(rows: list[dict[str, Any]]) -> list[Event]:
    return [Event.parse(row) for row in rows]


def dump_events(events: list[Event]) -> list[dict[str, Any]]:
    return [event.model_dump(mode="json") for event in events]
