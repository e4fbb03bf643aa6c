"""Which Operation Strikeback sections the engine implements, and the refusal for the rest.

`SECTIONS` is the single list: a section maps to the module that implements it, or to None
when it is not built yet; each storybook mission adds its own section when it registers.
`require` raises `NotSupportedYet` naming the section, so play that would need a missing
expansion rule stops with a clear message instead of skipping it.
"""

from __future__ import annotations

from engine.core.errors import NotSupportedYet

EXPANSION = "strikeback"

SECTIONS: dict[str, str | None] = {
    "5.1 Barrier Hex Side": "movement",
    "6.1 Refresh phase: Mark and Poison": "marks",
    "6.1 Refresh phase: Power Suit energy": "suits",
    "6.2.1.1 Free Action activity": "free",
    "6.2.1.2 Activate NPCs": "npc",
    "6.3 Event balancers": "events",
    "7.1 Flying": "movement",
    "7.2 Burrowing": "burrowing",
    "7.2.1 Targeting Burrowing aliens": "burrowing",
    "7.3 Seize": "movement",
    "7.3 Seize by agents": "suits",
    "8.1 Lethal": "damage",
    "8.2 Critical": "criticals",
    "8.3 Mark Locking System": "marks",
    "8.4 Explosion": "arsenal",
    "8.5 Area Healing": "arsenal",
    "9.2 Fixed-Hit weapons and RED+BLUE dice": "arsenal",
    "9.2.2 Fighting Poses": "poses",
    "9.3.2 Poisoned": "marks",
    "9.4 Energy Batteries": "suits",
    "9.5 Power Suit": "suits",
    "9.7 Powers & Items (five types)": "powers",
    "9.7.1 Alien Knowledge skills": "powers",
    "9.7.2 Psionic Powers": "powers",
    "9.7.3 Tactics as Free Actions": "free",
    "9.7.4 Devices: Hologram, Vigil, GD-5": "devices",
    "9.8 GD-Wings (expansion table)": "wings",
    "9.9 Alien Tech tokens and Armory": "alientech",
    "Storybook 2.1 Briefing device hand-outs": "handouts",
    "10 NPCs (deck, A.I., activation, Tactics, health)": "npc",
    # Twins in Arms needs NPC cards that are "ally versions" of playable agents; the expansion's
    # four NPCs (Knights, Archons) are none, so the rule has nothing to act on (see the doc)
    "10.1.1.1 Twins in Arms": None,
    "10.5 / 11.10.1 NPC Signals": "npc",
    "10.1.2 NPC assignment": "npcs",
    "11.3 Master Alien (two stages, immunities)": "masters",
    "11.3.1 Menace token": "menace",
    "11.5 Activate X aliens and rank priority": "activation",
    "11.6 Prime Swarm units": "swarm",
    "11.7 Multiple Energy Shield stacks": "damage",
    "11.8 Multi-hex aliens": "bodies",
    "Storybook 2.2 Ordered Event deck": "events",
    "Storybook 5 Strikeback campaign": "campaign",
    "Storybook 5.5.1 High Impact": "damage",
    "Storybook 6 Difficulty presets": "difficulty",
}


def implement(section: str, module: str) -> None:
    """A section implemented by a module that registers itself (each storybook mission)."""
    SECTIONS[section] = module


def supported(section: str) -> bool:
    if section not in SECTIONS:
        raise KeyError(f"unknown Operation Strikeback section {section!r}")
    return SECTIONS[section] is not None


def require(section: str) -> None:
    """Refuse play that needs a section the engine does not implement yet."""
    if not supported(section):
        raise NotSupportedYet(f"Operation Strikeback {section}")


def missing() -> list[str]:
    return [s for s, module in SECTIONS.items() if module is None]
