"""Defending against the expansion's attacks: Lethal (8.1), multiple Energy Shield stacks
(11.7) and the High Impact option (storybook 5.5.1).

Order, as the texts give it: the selected Energy Shield stack absorbs Hits one for one;
items and powers that cancel Hits come next; then, unless the Hits are Lethal, the defender
rolls BLUE dice (less any -X Def dice, at most five with High Impact) and each Shield cancels
one Hit. Whatever is left is Wounds. Against Lethal no die is rolled and Shield results from
armor, powers or items are useless.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.dice import Dice
from engine.galaxy import dice as gdice
from engine.galaxy.combat import reroll_alien_faces

HIGH_IMPACT_DICE = 5


def choose_stack(stacks: list[int]) -> int | None:
    """11.7: the stack with the most shields left blocks the attack; the left one on a tie.
    None when every stack is empty."""
    best: int | None = None
    for index, left in enumerate(stacks):
        if left > 0 and (best is None or left > stacks[best]):
            best = index
    return best


def defend_dice(remaining: int, def_minus: int, high_impact: bool) -> int:
    """How many BLUE dice the defender rolls for the Hits still standing.

    -X Def dice comes off the Hits first, then High Impact caps the roll at five (the
    storybook's 8 Hits with -2 Def dice roll 5 dice)."""
    count = max(0, remaining - def_minus)
    return min(HIGH_IMPACT_DICE, count) if high_impact else count


@dataclass
class Defence:
    hits: int
    stack: int | None = None  # index of the Energy Shield stack that blocked
    absorbed: int = 0
    cancelled: int = 0  # by items and powers that change the number of Hits
    lethal: bool = False
    faces: list[int] = field(default_factory=list)
    shields: int = 0
    bolt: bool = False
    bolt_effect: str = ""
    regenerate: bool = False
    wounds: int = 0


def armor_shields(armor: str | None, attack: str, bolts: int) -> tuple[int, str]:
    """The core armor Bolt effects that add Shields to a Defend roll (rulebook "Combat"):
    +1 Shield (any, or only against melee / ranged), or each Bolt a Shield."""
    if not bolts or armor is None:
        return 0, ""
    if armor == "shield+1" or armor == f"shield+1-{attack}":
        return 1, "+1 Shield"
    if armor == "bolt-as-shield":
        return bolts, f"each Bolt is a Shield (+{bolts})"
    return 0, ""


def defend(
    dice: Dice,
    hits: int,
    stacks: list[int],
    *,
    lethal: bool = False,
    def_minus: int = 0,
    high_impact: bool = False,
    cancel: int = 0,
    extra_shields: int = 0,
    armor: str | None = None,
    attack: str = "ranged",
    reroll_alien: bool = False,
) -> Defence:
    """Resolve one attack's Hits against a defender; `stacks` is spent in place.

    `cancel`: Hits removed by items and powers (these work against Lethal too).
    `extra_shields`: Shield results a power adds to a Defend roll; `armor` is the core armor
    Bolt effect (neither works against Lethal, which has no Defend roll)."""
    out = Defence(hits=hits, lethal=lethal)
    out.stack = choose_stack(stacks)
    remaining = hits
    if out.stack is not None:
        out.absorbed = min(stacks[out.stack], remaining)
        stacks[out.stack] -= out.absorbed
        remaining -= out.absorbed
    out.cancelled = min(max(0, cancel), remaining)
    remaining -= out.cancelled
    if lethal:
        out.wounds = remaining
        return out
    out.faces = gdice.roll(dice, "blue", defend_dice(remaining, def_minus, high_impact))
    if reroll_alien:
        reroll_alien_faces(dice, out.faces)
    counts = gdice.tally("blue", out.faces)
    out.bolt = counts[gdice.BOLT] > 0
    bonus, out.bolt_effect = armor_shields(armor, attack, counts[gdice.BOLT])
    out.regenerate = out.bolt and armor == "regenerate"
    if out.regenerate:
        out.bolt_effect = "Regenerate"
    out.shields = counts[gdice.SHIELD] + bonus + (extra_shields if remaining else 0)
    out.wounds = max(0, remaining - out.shields)
    return out
