"""Short descriptions (at most 100 characters, Discord's limit for a select option or an
autocomplete label) of every term a player meets: powers, weapons, devices, cards, heroes,
enemies, markers, conditions, standing orders and the answers to the game's questions.

Most entries are generated from the engine's content data; the rest (markers, conditions,
header words, orders) are written in `terms.json`. `describe(game, term)` is what autocomplete
and the picker call; `glossary(game)` also feeds `/rules`, one topic per term.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources

from engine.core.view import View
from engine.core.words import counted

MAX_DESCRIPTION = 100
MAX_DETAIL = 900
_KEY_CHARS = re.compile(r"[^a-z0-9]+")
_COORD = re.compile(r"^[A-Z]{1,2}\d{1,2}$|^\d{1,2}[A-Z]$|^EN$")


@dataclass(frozen=True)
class Term:
    """One glossary entry: `short` for menus (≤ 100 characters), `detail` for `/rules`."""

    key: str
    name: str
    short: str
    detail: str


def key_of(text: str) -> str:
    """The lower-case, hyphenated key of a term (`Clear the Breech` -> `clear-the-breech`)."""
    return _KEY_CHARS.sub("-", text.strip().lower()).strip("-")


def clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    """`text` cut at a word boundary to at most `limit` characters (an ellipsis says so)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def _term(key: str, name: str, short: str, detail: str = "") -> Term:
    return Term(key_of(key), name, clip(short), clip(detail or short, MAX_DETAIL))


@cache
def _written() -> dict[str, dict[str, list[str]]]:
    raw = json.loads(resources.files(__package__).joinpath("terms.json").read_text("utf-8"))
    return {game: entries for game, entries in raw.items() if not game.startswith("_")}


def _written_terms(game_key: str) -> Iterator[Term]:
    for key, (name, text) in _written().get(game_key, {}).items():
        yield _term(key, name, text)


def _galaxy_terms() -> Iterator[Term]:
    from engine.galaxy.content import content

    c = content()
    kinds = {"basic-tactic": "Tactic", "improved-tactic": "Improved tactic", "skill": "Skill"}
    for p in c.powers.values():
        yield _term(p.key, p.name, f"{kinds[p.kind]}: {p.text}")
    for w in c.weapons.values():
        reach = "melee" if w.range == 0 else f"range {w.range}"
        ammo = f", ammo {w.ammo}" if w.ammo else ""
        bolt = f"; bolt: {_BOLTS.get(w.bolt or '', w.bolt)}" if w.bolt else ""
        what = {"healing": "Healing weapon"}.get(w.kind, f"{w.kind.title()} weapon")
        yield _term(w.key, w.name, f"{what}: {w.dice} {w.color.upper()} dice, {reach}{ammo}{bolt}")
    for d in c.devices.values():
        yield _term(d.key, d.name, f"Device ({d.count} uses): {d.text}")
    for key, ability in c.abilities.items():
        yield _term(key, ability.name, f"Ability ({ability.type}): {ability.text}")
    for key, agent in (*c.agents.items(), *c.drones.items()):
        armour = f", armour: {_ARMOUR.get(agent.armor, agent.armor)}" if agent.armor else ""
        named = c.abilities.get(agent.ability)
        yield _term(
            key,
            f"{agent.codename} ({agent.class_})",
            f"{agent.class_} {agent.codename}: {agent.hp} HP, move {agent.move}{armour}; "
            f"ability {named.name if named else agent.ability}",
        )
    for key, name in c.species.items():
        by_rank: dict[str, int] = {}
        for card in c.aliens.values():
            if card.species == key:
                by_rank.setdefault(card.rank, card.hp)
        hp = ", ".join(f"{rank} {hp}" for rank, hp in by_rank.items())
        yield _term(key, name, f"Alien {name}: HP by rank {hp}")
    for card in c.aliens.values():
        attacks = [
            f"{w.name} {w.dice} {w.color.upper()}" + (f" r{w.range}" if w.range else "")
            for w in (card.ranged, card.melee)
            if w is not None
        ]
        yield _term(
            card.id,
            f"{c.species.get(card.species, card.species)} ({card.rank})",
            f"{c.species.get(card.species, card.species)}, {card.rank}: {card.hp} HP; "
            + ", ".join(attacks),
        )
    for ev in c.events.values():
        effects = "; ".join(_event_words(e, c.species) for e in ev.effects) or "nothing happens"
        yield _term(ev.id, ev.name, f"Event card {ev.name}: {effects}")
    for ce in c.close_encounters.values():
        yield _term(ce.id, ce.name, f"Close Encounter card: {ce.name}")
    from engine.galaxy.strikeback.terms import entries  # Operation Strikeback's words

    for key, name, short in entries():
        yield _term(key, name, short)


def _event_words(effect: dict[str, object], species: dict[str, str]) -> str:
    """One effect of an Event card in words."""
    if "signals" in effect:
        toward = {
            "toward-agent": "toward the agents",
            "toward-tp": "toward a Teleport Point",
            "away": "away from the agents",
        }
        return (
            f"Signals move {effect.get('areas', 1)} Area {toward.get(str(effect['signals']), '')}"
        )
    if "teleport" in effect:
        return "a Teleport roll brings Signals in"
    if "weather" in effect:
        return f"the weather turns to {effect['weather']}"
    if "alien" in effect and isinstance(effect["alien"], dict):
        alien = effect["alien"]
        name = species.get(str(alien.get("species")), "alien")
        return f"a {alien.get('rank', '')} {name} teleports in"
    if "act-of-valor" in effect:
        return "every agent's used tactics are ready again"
    return ", ".join(effect)


_ARMOUR = {
    "shield+1": "+1 Shield",
    "shield+1-melee": "+1 Shield in melee",
    "shield+1-ranged": "+1 Shield against shots",
    "bolt-as-shield": "Bolts count as Shields",
    "regenerate": "regenerates",
}
_BOLTS = {
    "hit+1": "one more Hit",
    "def-1": "one fewer Defend die",
    "immobilize": "Immobilized",
    "paralyze": "Paralyzed",
    "heal+1": "heal one more",
}


def _reich_terms() -> Iterator[Term]:
    from engine.reich.content import load_content

    c = load_content()
    for tpl in c.cards.values():
        text = tpl.text if tpl.text.startswith("Feat") else f"Action card: {tpl.text}"
        yield _term(tpl.id, tpl.name, text)
    for hero in c.heroes.values():
        weapons = ", ".join(w.name for w in hero.weapons)
        skill = (
            "no special skill" if hero.skill == "none" else f"skill {hero.skill.replace('_', ' ')}"
        )
        yield _term(
            hero.key,
            hero.name,
            f"Team {hero.team.title()}; {skill}; {weapons}",
        )
        for w in hero.weapons:
            yield _term(w.id, w.name, _reich_weapon(w.name, w.range, w.black, w.noise, w.keywords))
    for enemy in c.enemies.values():
        attacks = []
        if enemy.melee:
            attacks.append(f"melee {enemy.melee[0]}")
        if enemy.ranged:
            attacks.append(f"ranged {enemy.ranged[0]} at range {enemy.ranged[1]}")
        words = ", ".join([*attacks, *(k.replace("_", " ") for k in enemy.keywords)])
        yield _term(
            enemy.key,
            enemy.name,
            f"Enemy: Life {enemy.life}, Defense {enemy.defense}, Move {enemy.move}; {words}",
        )
    for loot in c.loot.values():
        yield _term(loot.id, loot.name, f"Loot: {loot.text}")
    for acc in c.accessories.values():
        yield _term(acc.id, acc.name, f"Area Accessory: {acc.text}")
    for wound in c.wounds.values():
        yield _term(wound.id, wound.name, f"Wound card (threshold {wound.threshold})")


def _reich_weapon(name: str, reach: int, black: int, noise: int, keywords: list[str]) -> str:
    where = "melee" if reach == 0 else f"range {reach}"
    words = ", ".join(k.replace("_", " ") for k in keywords)
    return f"Weapon {name}: {where}, {black} black dice, noise {noise}" + (
        f"; {words}" if words else ""
    )


def _forlorn_terms() -> Iterator[Term]:
    from engine.forlorn.content import ITEMS, cards, units

    u = units()
    for key, m in u.marines.items():
        yield _term(
            key,
            m.name,
            f"{m.rank} {m.name}: {m.mp} MP, attack {m.attack}, defence {m.defence}, "
            f"leadership {m.leadership}"
            + (f"; {m.ability}" if m.ability and m.ability != "leadership" else ""),
        )
    for key, x in u.xenos.items():
        ranged = f", ranged {x.ranged}" if x.ranged else ""
        yield _term(
            key,
            x.name,
            f"Xeno {x.name}: {x.mp} MP, attack {x.attack}{ranged}, "
            f"{counted(x.hits, 'hit')} to kill",
        )
    for card in cards().values():
        yield _term(card.id, card.title, f"Mutation card: {card.text}")
    for key, name in ITEMS.items():
        yield _term(key, name, f"Item: {name}")


_GENERATED = {
    "galaxy-defenders": _galaxy_terms,
    "reichbusters": _reich_terms,
    "forlorn-hope": _forlorn_terms,
}


@cache
def glossary(game_key: str) -> dict[str, Term]:
    """Every term of a game by key: the written ones first, then the generated ones (a key
    already taken keeps its first meaning)."""
    out: dict[str, Term] = {}
    generated = _GENERATED.get(game_key)
    sources: list[Iterable[Term]] = [_written_terms(game_key)]
    if generated is not None:
        sources.append(generated())
    for source in sources:
        for term in source:
            out.setdefault(term.key, term)
    return out


def lookup(game_key: str, term: str) -> Term | None:
    """The glossary entry for `term`, also for instances of a term: a hand's card
    (`sprint-sarge1`), a numbered figure (`soldier2`), a spaced or capitalised name."""
    terms = glossary(game_key)
    key = key_of(term)
    if key in terms:
        return terms[key]
    if "-" in key:
        head = key.rsplit("-", 1)[0]
        if head in terms:
            return terms[head]
    bare = key.rstrip("0123456789").rstrip("-")
    if bare and bare in terms:
        return terms[bare]
    # an alien card id names its species first: xeno-beta-green-1 -> xeno-beta
    for size in range(key.count("-"), 0, -1):
        head = "-".join(key.split("-")[:size])
        if head in terms:
            return terms[head]
    return None


def describe(game_key: str, term: str) -> str | None:
    """A description of `term` in at most 100 characters, or None if it is not a term.

    Compound answers are described by their parts: `card:sprint-sarge1`, `burst:soldier2`,
    `swap:m01+m11`, `guard-with-assault-rifle-area`, `face-ne`, `replace-assault-rifle`; a
    written compound such as `support:always` has its own entry.
    """
    exact = glossary(game_key).get(key_of(term))
    if exact is not None:
        return exact.short
    head, sep, rest = term.partition(":")
    if sep:
        first = lookup(game_key, head)
        parts = [lookup(game_key, p) for p in rest.split("+")]
        if first is not None and all(parts):
            names = " + ".join(p.name for p in parts if p is not None)
            return clip(f"{first.name}: {names} — " + "; ".join(p.short for p in parts if p))
        if first is not None:
            return clip(f"{first.short} ({rest})")
        return None
    for prefix in ("guard-with-", "face-", "replace-"):
        if term.startswith(prefix):
            weapon = term[len(prefix) :].removesuffix("-area")
            base = lookup(game_key, prefix.rstrip("-"))
            what = lookup(game_key, weapon)
            if base is not None:
                tail = f" ({what.name})" if what else f" ({weapon.upper()})"
                area = ", paying Ammo for Area Damage" if term.endswith("-area") else ""
                return clip(base.short.rstrip(".") + tail + area)
    found = lookup(game_key, term)
    return found.short if found is not None else None


def is_coordinate(value: str) -> bool:
    """Board squares, hexes and Areas need no description: the board shows them."""
    return bool(_COORD.match(value))


def terms_in_view(view: View) -> set[str]:
    """The terms a player meets on a board: figure kinds, conditions, markers, header words."""
    found: set[str] = set()
    for fig in view.figures:
        if fig.kind:
            found.add(fig.kind)
        found |= {c.split(":")[0] for c in fig.conditions}
    for token in view.tokens:
        found.add(token.kind.removeprefix("item:"))
        if token.kind.startswith("item:"):
            found.add("item")
    found |= set(view.header)
    return {t for t in found if t}
