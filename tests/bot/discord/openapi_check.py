"""A small JSON Schema checker for Discord's OpenAPI description (the keywords it uses for
application commands: type, const, enum, oneOf, anyOf, allOf, $ref, properties, required,
items, lengths, bounds, uniqueItems, additionalProperties, maxProperties)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OPENAPI = Path("/work/shared/reference/discord-openapi.json")
TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def load() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(OPENAPI.read_text())
    return document


def errors(value: Any, schema: dict[str, Any], root: dict[str, Any], at: str = "") -> list[str]:
    """Everything wrong with `value` under `schema` (empty: it conforms)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return errors(value, root["components"]["schemas"][name], root, at)
    found: list[str] = []
    kinds = schema.get("type")
    if kinds is not None:
        names = kinds if isinstance(kinds, list) else [kinds]
        fits = any(
            isinstance(value, TYPES[n])
            and not (n in ("integer", "number") and value is True)
            and not (n in ("integer", "number") and value is False)
            for n in names
        )
        if not fits:
            return [f"{at}: {value!r} is not {names}"]
    if "const" in schema and value != schema["const"]:
        found.append(f"{at}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{at}: {value!r} not in {schema['enum']}")
    for part in schema.get("allOf", []):
        found += errors(value, part, root, at)
    if "anyOf" in schema and all(errors(value, p, root, at) for p in schema["anyOf"]):
        found.append(f"{at}: matches none of anyOf")
    if "oneOf" in schema:
        matching = [p for p in schema["oneOf"] if not errors(value, p, root, at)]
        if len(matching) != 1:
            found.append(f"{at}: {value!r} matches {len(matching)} of oneOf")
    short = isinstance(value, str) and len(value) < schema.get("minLength", 0)
    if short or (isinstance(value, str) and len(value) > schema.get("maxLength", 1e9)):
        found.append(f"{at}: length {len(value)} out of bounds")
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if number and not schema.get("minimum", -1e300) <= value <= schema.get("maximum", 1e300):
        found.append(f"{at}: {value} out of bounds")
    if isinstance(value, list):
        if len(value) > schema.get("maxItems", 1e9) or len(value) < schema.get("minItems", 0):
            found.append(f"{at}: {len(value)} items out of bounds")
        if schema.get("uniqueItems") and len({json.dumps(v) for v in value}) != len(value):
            found.append(f"{at}: items repeat")
        if "items" in schema:
            for index, item in enumerate(value):
                found += errors(item, schema["items"], root, f"{at}[{index}]")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                found.append(f"{at}: {key} is required")
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for key, item in value.items():
            if key in properties:
                found += errors(item, properties[key], root, f"{at}.{key}")
            elif isinstance(extra, dict):
                found += errors(item, extra, root, f"{at}.{key}")
            elif extra is False:
                found.append(f"{at}: unexpected {key}")
        if len(value) > schema.get("maxProperties", 1e9):
            found.append(f"{at}: too many properties")
    return found
