"""A turn post's text kept short (issue #32): a phone shows the picture, not a screen of text.

The post keeps the newest narration lines that fit a budget, each without its long
parenthesised reasoning (an alien's A.I. rule, the dice behind a Hit count); what was left out
is one `/log` away, and the post says how many lines that is. The whole narration stays in the
log, the web view and the digest.
"""

from __future__ import annotations

import re

NARRATION_BUDGET = 150  # characters of narration between the headline and the waiting line
LINE_LIMIT = 160  # a single line longer than this is cut
# A parenthesised aside of some length: the reasoning, not the fact.
ASIDE = re.compile(r" \([^()]{28,}(?:\([^()]*\)[^()]*)*\)")
# "…: 3 Hits, a Bolt and a Jam - 2 Hits": the dice before a total (Galaxy Defenders' words, with
# "red dice …; blue dice …" for a mixed roll), or "hit+jam, hit+hit+bolt" in older stored logs.
SYMBOL = r"(?:a|an|no|\d+) (?:fixed )?(?:Hit|Shield|Bolt|GD|Ammo|Jam|Alien)s?"
MIXED = r"(?:(?:red|blue) dice )?"
FACES = re.compile(
    rf": (?:{MIXED}{SYMBOL}(?:(?:, | and |; ){MIXED}{SYMBOL})*"
    r"|(?:[a-z0-9]+(?:[+:][a-z0-9]+)*(?:, )?)+) - "
)


def tidy(line: str) -> str:
    """One line without its long asides and dice faces, at most `LINE_LIMIT` characters."""
    short = FACES.sub(": ", ASIDE.sub("", line))
    return short if len(short) <= LINE_LIMIT else short[: LINE_LIMIT - 1].rstrip() + "…"


def brief(lines: list[str], budget: int = NARRATION_BUDGET, pinned: str = "") -> list[str]:
    """The newest lines that fit `budget` (always the newest one), with a note of how many
    earlier lines `/log` holds. `pinned`, the step's own headline ("The vote passes: …"), is
    kept in its place whatever the budget."""
    tidied = [tidy(line) for line in lines if line.strip()]
    pin = tidy(pinned) if pinned.strip() else ""
    at = max((i for i, line in enumerate(tidied) if line == pin), default=None) if pin else None
    chosen: set[int] = set() if at is None else {at}
    used = 0 if at is None else len(pin) + 1
    for i in reversed(range(len(tidied))):
        if i == at:
            continue
        if i != len(tidied) - 1 and used + len(tidied[i]) + 1 > budget:
            break
        chosen.add(i)
        used += len(tidied[i]) + 1
    kept = [tidied[i] for i in sorted(chosen)]
    dropped = len(tidied) - len(kept)
    if dropped:
        kept.insert(0, f"… {dropped} earlier line{'s' if dropped > 1 else ''} in /log.")
    return kept
