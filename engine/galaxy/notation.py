"""The small notations the Galaxy content data is written in: effect strings on cards
(`move+2`, `heal-other+1`, `unjam`) and counter thresholds (`N` or `N+M/agent`). They sit
below the content loader, which checks its data against them, and the rules that read them."""

from __future__ import annotations

# Effect kinds an Action can trigger (with a number after "+" where shown).
ACTIVE_EFFECTS = (
    "move+",  # more Movement points this turn
    "heal-self+",  # remove own Wounds
    "heal-other+",  # remove Wounds from an adjacent agent
    "heal+",  # remove Wounds from yourself or an adjacent agent
    "dice-any+",  # more Hit dice on the next attack this turn
    "dice-ranged+",
    "dice-melee+",
    "ammo+",  # Ammo back on the first weapon short of it
    "reload-all+",  # Ammo back on every weapon
    "energy+",  # Energy Shield points until the next Refresh phase
    "unjam",  # clear every jammed weapon
    "disengage",  # leave melee without the Evade roll
)
# Kinds that need no Action: "passive" (always on), "grenadier" (passive: grenade re-rolls and
# up to 3 grenades when gained), "drone" and grenades are handled by their own modules.
OTHER_EFFECTS = ("passive", "grenadier", "drone", "grenade")
EFFECT_KINDS = ACTIVE_EFFECTS + OTHER_EFFECTS
TARGETED = ("heal-other+", "heal+")


def is_known(effect: str) -> bool:
    return effect.startswith(EFFECT_KINDS)


def parse_count(text: str) -> tuple[int, float]:
    """`N` or `N+M/agent` (M may be a decimal such as 1.5) -> (N, M); ValueError when
    malformed."""
    base, plus, per = text.partition("+")
    if not plus:
        return int(base), 0.0
    if not per.endswith("/agent"):
        raise ValueError(text)
    return int(base), float(per[: -len("/agent")])
