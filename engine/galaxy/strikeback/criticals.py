"""Critical hits (8.2): two token piles (Critical 1 and 2, 10 tokens each), compatibility,
duration and the no-duplicate / greater-replaces rule for the same effect.

An attack with a Critical effect that deals at least one wound draws one token (at most one
per attack) after its other effects. A token that does not fit the target (agent-only or
alien/drone/NPC-only) is discarded and the next one drawn. Instant tokens act and go to the
discard pile; temporary ones leave at the next Refresh phase; permanent ones are Body
Conditions until healed, the figure's death or the end of the mission.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from engine.core.content import ContentFile, ContentModel, load_file
from engine.core.dice import Dice, shuffle
from engine.core.words import counted
from engine.galaxy.strikeback.status import CriticalPile, FigureStatus

CONTENT = Path(__file__).parent / "content" / "criticals.json"

# What a token does to the figure it lands on, after "the figure" or "he"/"it".
FIXED_WORDS = {
    "paralyze": "is Paralyzed until the Refresh",
    "shields-off": "loses its Energy Shields until the Refresh",
    "no-bolt": "cannot use Bolt effects until the Refresh",
}


def effect_words(effect: str, level: int) -> str:
    """A token's effect in words, its level counted: "rolls 1 fewer Defend die"."""
    counts = {
        "def": f"rolls {counted(level, 'fewer Defend die', 'fewer Defend dice')}",
        "atk": f"rolls {counted(level, 'fewer attack die', 'fewer attack dice')}",
        "move": f"has {counted(level, 'fewer Movement point')}",
        "hp": f"has {counted(level, 'fewer Health point')}",
        "damage": f"takes {counted(level, 'more wound')} at once",
    }
    return counts.get(effect) or FIXED_WORDS.get(effect, effect.replace("-", " "))


class CriticalToken(ContentModel):
    key: str
    effect: str  # def, atk, move, hp, paralyze, shields-off, no-bolt, damage
    level: int
    duration: str  # instant, temporary, permanent
    fits: str  # agent, other (aliens, drones, NPCs), any


class CriticalsFile(ContentFile):
    piles: dict[str, list[CriticalToken]]  # "1" and "2": the Critical 1 and 2 piles


@lru_cache(maxsize=1)
def tokens() -> dict[str, CriticalToken]:
    out: dict[str, CriticalToken] = {}
    for pile in load_file(CONTENT, CriticalsFile).piles.values():
        for token in pile:
            out[token.key] = token
    return out


def new_pile(level: int, dice: Dice) -> CriticalPile:
    keys = [k for k, t in tokens().items() if t.level == level]
    return CriticalPile(level=level, draw=shuffle(dice, keys))


def fits(token: CriticalToken, kind: str) -> bool:
    """`kind` is 'agent' for agents, 'other' for aliens, drones and NPCs (8.2.1, 10.4.1);
    'master' is a Master Alien: an alien immune to Paralyze (11.3)."""
    if kind == "master":
        return token.fits in ("any", "other") and token.effect != "paralyze"
    return token.fits in ("any", kind)


def draw(pile: CriticalPile, kind: str, dice: Dice) -> CriticalToken | None:
    """The first compatible token; incompatible ones go to the discard pile. An empty pile
    is rebuilt by shuffling its discards; None when no token at all fits."""
    for _ in range(2 * len(tokens()) + 1):
        if not pile.draw:
            if not pile.discard:
                return None
            pile.draw, pile.discard = shuffle(dice, pile.discard), []
        token = tokens()[pile.draw.pop(0)]
        if fits(token, kind):
            return token
        pile.discard.append(token.key)
    return None


def place(status: FigureStatus, token: CriticalToken, piles: dict[str, CriticalPile]) -> str:
    """Put a drawn token on the figure and say what happened: 'kept', 'replaced <key>' (the
    lesser token goes to its own pile's discards), 'discarded' (same or lesser effect already
    held) or 'instant'. `piles` holds the Critical 1 and 2 piles by level."""
    pile = piles[str(token.level)]
    if token.duration == "instant":
        pile.discard.append(token.key)
        return "instant"
    for held in list(status.criticals):
        old = tokens()[held]
        if old.effect != token.effect:
            continue
        if token.level > old.level:
            status.criticals.remove(held)
            piles[str(old.level)].discard.append(held)
            status.criticals.append(token.key)
            return f"replaced {held}"
        pile.discard.append(token.key)
        return "discarded"
    status.criticals.append(token.key)
    return "kept"


def penalty(status: FigureStatus, effect: str) -> int:
    """The X of the held token with this effect (def, atk, move, hp), 0 without one."""
    return max(
        (tokens()[k].level for k in status.criticals if tokens()[k].effect == effect), default=0
    )


def refresh(status: FigureStatus, piles: dict[str, CriticalPile]) -> list[str]:
    """Refresh phase: temporary tokens leave (back to their pile's discards)."""
    gone = [k for k in status.criticals if tokens()[k].duration == "temporary"]
    for key in gone:
        status.criticals.remove(key)
        piles[str(tokens()[key].level)].discard.append(key)
    return gone


def release(status: FigureStatus, piles: dict[str, CriticalPile]) -> list[str]:
    """The figure died: every token it held goes to its pile's discards (8.2, 11.1)."""
    gone, status.criticals = list(status.criticals), []
    for key in gone:
        piles[str(tokens()[key].level)].discard.append(key)
    return gone


def heal(status: FigureStatus, key: str, piles: dict[str, CriticalPile]) -> None:
    """A permanent token healed as a Body Condition goes to its discard pile."""
    if key not in status.criticals or tokens()[key].duration != "permanent":
        raise ValueError(f"{key} is not a permanent Critical on this figure")
    status.criticals.remove(key)
    piles[str(tokens()[key].level)].discard.append(key)
