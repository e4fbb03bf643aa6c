"""The base of every authored content model, and the one way a content file is read.

Content (units, cards, missions, operations) is typed: every record is a `ContentModel`, which
refuses a key it does not declare. A misspelt key in a JSON file would otherwise be dropped
without a word and the field's default used instead; here it stops the load with a
`ContentError` naming the file and where the key sits (`weapons[3] (plasma-rifle)`).

A whole file is a `ContentFile`: its top-level keys are declared too, and `_note`, the authors'
note on where the numbers come from, is the one key every file may carry. The engine never
reads it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core.errors import ContentError

ROOT = Path(__file__).resolve().parents[2]  # the project root, to name files shortly
SHOWN = 5  # validation problems listed in one error before "and N more"


class ContentModel(BaseModel):
    """A content record: unknown keys are refused (a typo must not pass as a default)."""

    model_config = ConfigDict(extra="forbid")


class ContentFile(ContentModel):
    """A whole content file; `_note` documents its provenance for authors only."""

    note: str = Field(default="", alias="_note")


M = TypeVar("M", bound=BaseModel)


def source_name(path: Path) -> str:
    """The file as a reader finds it in the project (`engine/galaxy/content/weapons.json`)."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def read_json(path: Path) -> Any:
    """A content file's JSON; a missing or malformed file is a `ContentError` naming it."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ContentError(f"{source_name(path)}: cannot read it ({error})") from error


def load_file(path: Path, model: type[M]) -> M:
    """Read one JSON content file and validate it whole as `model`."""
    return validate(read_json(path), model, source_name(path))


def validate(data: Any, model: type[M], source: str) -> M:
    """Validate `data` read from `source`; any problem is a `ContentError` naming the file and
    the key path of each problem (an unknown key by name)."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise ContentError(describe(error, data, source)) from error


def describe(error: ValidationError, data: Any, source: str) -> str:
    """One line per problem: `file: unknown key 'x' in cards[2] (os-03)`."""
    lines = []
    for problem in error.errors()[:SHOWN]:
        loc = tuple(problem["loc"])
        if problem["type"] == "extra_forbidden":
            where = key_path(data, loc[:-1]) or "the top level"
            lines.append(f"{source}: unknown key {loc[-1]!r} in {where}")
        else:
            lines.append(f"{source}: {key_path(data, loc) or 'the file'}: {problem['msg']}")
    more = len(error.errors()) - SHOWN
    if more > 0:
        lines.append(f"{source}: and {more} more problem(s)")
    return "\n".join(lines)


def key_path(data: Any, loc: tuple[int | str, ...]) -> str:
    """`loc` as a reader writes it, `missions[2].objectives[0]`, with a listed record's own
    key or id after its index so the record can be found in the file."""
    text = ""
    node = data
    for step in loc:
        if isinstance(step, int):
            text += f"[{step}]"
            node = node[step] if isinstance(node, list) and 0 <= step < len(node) else None
            name = record_name(node)
            if name:
                text += f" ({name})"
        else:
            text += f".{step}" if text else str(step)
            node = node.get(step) if isinstance(node, dict) else None
    return text


def record_name(node: Any) -> str:
    """A record's own name in its file: its `key` or `id`, when it has one."""
    if isinstance(node, dict):
        for field in ("key", "id"):
            if isinstance(node.get(field), str):
                return str(node[field])
    return ""
