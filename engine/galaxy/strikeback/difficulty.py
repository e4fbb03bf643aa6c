"""The storybook's levels of difficulty (storybook 6): each preset sets five optional rules."""

from __future__ import annotations

OPTION = "difficulty"
CUSTOM = "custom"  # no preset: the five options as given

PRESETS: dict[str, dict[str, str]] = {
    "easy": {
        "high-impact": "on",
        "close-fight": "off",
        "fighting-poses": "off",
        "human-view": "off",
        "friendly-fire": "off",
    },
    "normal": {
        "high-impact": "on",
        "close-fight": "on",
        "fighting-poses": "on",
        "human-view": "on",
        "friendly-fire": "off",
    },
    "hard": {
        "high-impact": "on",
        "close-fight": "on",
        "fighting-poses": "on",
        "human-view": "on",
        "friendly-fire": "on",
    },
}


def apply_preset(options: dict[str, str]) -> str:
    """Replace the five options by the chosen preset's (a preset overrides them); returns the
    preset name, `custom` when none was chosen. The option itself is taken out."""
    preset = options.pop(OPTION, CUSTOM)
    if preset != CUSTOM:
        options.update(PRESETS[preset])
    return preset
