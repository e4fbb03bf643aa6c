"""Reichbusters' cards and effects as players read them: a card by its name, a Modifier or
an effect in words ("+2 Successes", "a Ranged Attack with 1 extra die"). The keys stay in the
content and in commands."""

from __future__ import annotations

from engine.reich.content import load_content

MODIFIERS = {
    "dice": "+{n} Attack dice",
    "succ": "+{n} Successes",
    "defdice": "+{n} Defense dice",
    "defsucc": "+{n} Defense Successes",
    "rangedsucc": "+{n} Successes on a Ranged Attack",
}
PLAIN = {
    "special": "a Special Result",
    "reroll": "re-roll every blank",
    "move": "a move",
    "open": "open a door",
    "grenade": "a grenade",
    "heal": "heal a Wound",
    "smoke": "a smoke screen",
    "suppress": "Suppressing Fire",
    "token": "a Basic Action token back",
    "unjam": "clear a jam",
}
ATTACKS = {
    "attack": "an Attack",
    "ranged": "a Ranged Attack",
    "melee": "a Melee Attack",
    "react_ranged": "a reaction shot",
    "react_spotted": "a reaction shot when spotted",
}
KEYWORDS = {
    "accurate": "Accurate",
    "ap": "Armor-Piercing",
    "lethal": "Lethal",
    "repeat": "Repeatable",
    "reroll": "re-roll",
    "distinct": "",
    "teamwork": "Teamwork",
}


def card_name(card: str) -> str:
    """An Action card (`brawl-tane2`, `f_overwatch-sarge`) by its name ("Brawl")."""
    template = load_content().cards.get(card.rsplit("-", 1)[0])
    return template.name if template is not None else card


def modifier_words(mod: str | None) -> str:
    """A Modifier in words: `succ:2` -> "+2 Successes"."""
    if not mod:
        return "no Modifier"
    kind, _, arg = mod.partition(":")
    if kind in MODIFIERS:
        return MODIFIERS[kind].format(n=arg)
    return PLAIN.get(kind, mod.replace("_", " ").replace(":", " "))


def effect_words(effect: str) -> str:
    """A card or Loot effect in words: `ranged:+2:accurate` -> "a Ranged Attack with 2 extra
    dice (Accurate)"."""
    kind, *rest = effect.split(":")
    if kind in ATTACKS:
        extra = int(rest[0]) if rest and rest[0].lstrip("+-").isdigit() else 0
        shown = ATTACKS[kind]
        if extra:
            shown += f" with {extra} extra {'die' if extra == 1 else 'dice'}"
        words = [KEYWORDS.get(k, k) for k in rest[1:]]
        words = [w for w in words if w]
        return shown + (f" ({', '.join(words)})" if words else "")
    if kind == "draw":
        return f"draw {rest[0] if rest else 1} cards"
    if kind == "buff":
        found = load_content().loot.get(rest[0] if rest else "")
        return found.name if found is not None else effect.replace("_", " ")
    if kind in MODIFIERS:
        return modifier_words(effect)
    return PLAIN.get(kind, effect.replace("_", " ").replace(":", " "))


def order_words(topic: str, choice: str) -> str:
    """A standing order in words: `support`, `if-it-succeeds` -> "support: if it succeeds"."""
    return f"{topic.replace('_', ' ')}: {choice.replace('-', ' ').replace('_', ' ')}"


def wound_name(wound: str) -> str:
    """A Wound card (`cracked_rib`) by its name."""
    found = load_content().wounds.get(wound)
    return found.name if found is not None else wound.replace("_", " ")
