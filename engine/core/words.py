"""Counted nouns and lists as a person writes them, for every game's narration.

The engines used to write "1 Wound(s)" or "hit+hit+shield"; these helpers say "1 Wound",
"no Wounds", "a Shield", "2 Hits and a Shield" instead, so each caller gets it right at once.
"""

from __future__ import annotations

from collections.abc import Sequence

VOWEL_SOUND = "aeiouAEIOU"


def many(noun: str) -> str:
    """The plural of a game noun: "Wound" -> "Wounds", "Battery" -> "Batteries"."""
    if noun.endswith("y") and noun[-2:-1] not in VOWEL_SOUND:
        return f"{noun[:-1]}ies"
    if noun.endswith(("s", "x", "sh", "ch")):
        return f"{noun}es"
    return f"{noun}s"


def counted(count: int, noun: str, plural: str = "") -> str:
    """A number and its noun: "no Wounds", "1 Wound", "2 Wounds" (`plural` when irregular)."""
    if count == 1:
        return f"1 {noun}"
    return f"{count or 'no'} {plural or many(noun)}"


def article(word: str) -> str:
    """ "a" or "an" before `word` (by its first letter: good enough for the games' nouns)."""
    return "an" if word[:1] in VOWEL_SOUND else "a"


def some(count: int, noun: str, plural: str = "") -> str:
    """Like `counted`, with "a"/"an" for one: "a Shield", "an Alien", "2 Hits", "no Hits"."""
    if count == 1:
        return f"{article(noun)} {noun}"
    return counted(count, noun, plural)


def listed(items: Sequence[str], last: str = "and") -> str:
    """ "a", "a and b", "a, b and c" (empty: "")."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"
