"""The words Operation Strikeback adds to a Galaxy table, for the glossary and `/rules`:
(key, name, short description) for every alien, NPC, order, device, action, badge and card
the layer can show a player. Our own wording throughout."""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.words import counted
from engine.galaxy.content import content, species_name
from engine.galaxy.strikeback import (
    alientech,
    arsenal,
    cards,
    criticals,
    decks,
    devices,
    npc,
    poses,
    powers,
    suits,
    wings,
)
from engine.galaxy.strikeback.mission_rules import all_rules
from engine.galaxy.strikeback.missions import expansion_encounters, missions
from engine.galaxy.strikeback.status import SuitState

Entry = tuple[str, str, str]

POWER_WORDS = {
    "flying": "flies over Barrier sides",
    "lock-on": "damage to a marked target causes Critical 1",
    "catcher": "on a Bolt flies back 1 Area carrying the agent it Immobilized",
    "burrowing": "digs under Barrier sides; hit only when a Close Encounter clearly names it",
    "prime-swarm": "two figures on one card",
    "archenemy": "always hunts the agent holding the Menace token",
}
MATCH_WORDS = {
    "all": "every alien activates",
    "rank": "every {} alien activates",
    "species": "every {} activates",
    "power": "every alien with the {} power activates",
    "wounded": "every wounded alien activates",
    "healthy": "every unwounded alien activates",
    "position": "every {} alien activates",
    "alpha": "the Alpha Agent's aliens activate",
    "count": "activate {} alien(s), the Alpha Agent's first, highest rank first",
}


def entries() -> Iterator[Entry]:
    yield from _aliens()
    yield from _npcs()
    yield from _tokens()
    yield from _masters()
    yield from _cards()
    yield from _missions()
    yield from _suits_and_weapons()
    yield from _powers_and_items()
    yield from _campaign()


def _campaign() -> Iterator[Entry]:
    yield (
        "gd-headquarters",
        "GD Headquarters",
        "Strikeback campaign: researched weapons wait here; each mission takes a few of them",
    )
    yield "done", "Done", "GD Headquarters: this agent takes no more weapons for the mission"
    yield (
        "strikeback-campaign",
        "Strikeback campaign",
        "Six missions; each result names the next one; mission 6 accomplished wins",
    )


def _aliens() -> Iterator[Entry]:
    core = {c.species for c in content().aliens.values()}  # the core glossary has those
    for key, name in cards.species().items():
        if key in core:
            continue
        found = [c for c in cards.cards().values() if c.species == key]
        if any(c.rank == "purple" for c in found):
            hp = ", ".join(f"Stage {'I' * c.stage} {c.hp} HP" for c in found)
            yield key, name, f"Master Alien {name}: {hp}; hunts the Menacing Agent; 2 hexes"
            continue
        hp = ", ".join(f"{c.rank} {c.hp}" for c in found)
        powers = sorted({p for c in found for p in c.sb_powers})
        words = "; ".join(POWER_WORDS[p] for p in powers)
        yield (
            key,
            name,
            f"Alien {name} (Operation Strikeback): HP {hp}" + (f"; {words}" if words else ""),
        )
    for c in [*cards.cards().values(), *cards.mission_cards().values()]:
        stacks = "+".join(str(n) for n in c.stacks) or "no"
        if c.rank == "purple":
            yield (
                c.id,
                f"{species_name(c.species)} (Stage {'I' * c.stage})",
                f"{species_name(c.species)}, Stage {'I' * c.stage}: {c.hp} HP, "
                f"Energy Shield stacks {stacks}",
            )
            continue
        yield (
            c.id,
            f"{species_name(c.species)} ({c.rank})",
            (f"{species_name(c.species)}, {c.rank}: {c.hp} HP, Energy Shield stacks {stacks}"),
        )


def _npcs() -> Iterator[Entry]:
    yield (
        "npc",
        "NPC",
        "An ally the game drives: activate it before your activities or it acts at turn end",
    )
    seen: set[str] = set()
    for card in npc.cards().values():
        if card.name not in seen:
            seen.add(card.name)
            yield (
                card.name.lower(),
                card.name,
                (f"NPC {card.name}: {card.hp} HP, move {card.move}, shield {card.energy} a round"),
            )
        yield card.id, card.name, f"NPC {card.name}: {card.hp} HP, move {card.move}"
        for order in npc.ORDERS:
            what = order.replace("target-", "ties: attack the ").replace("tactic-", "NPC Tactic ")
            yield (
                f"{card.id}-{order}",
                f"{card.name}: {what}",
                f"Standing order for the NPC {card.name}: {what}",
            )
    for tactic in npc.tactics().values():
        yield tactic.key, tactic.name, f"NPC Tactic: {tactic.text}"
    for weapon_key in {w for c in npc.cards().values() for w in (c.ranged, c.melee)}:
        w = npc.npc_weapon(weapon_key)
        yield w.key, w.name, f"NPC weapon: {w.dice} {w.color.upper()} dice, range {w.range}"


def _tokens() -> Iterator[Entry]:
    for level in (1, 2):
        yield (
            f"mark-{level}",
            f"Mark {level}",
            f"Marked: attackers gain their bonuses; fades {counted(level, 'Refresh')}",
        )
        yield (
            f"poison-{level}",
            f"Poison {level}",
            f"Poisoned: 1 wound each Refresh, {counted(level, 'more time')}",
        )
    for token in criticals.tokens().values():
        words = criticals.effect_words(token.effect, token.level)
        yield (
            f"critical-{token.effect}-{token.level}",
            f"Critical {token.level}",
            (f"Critical ({token.duration}): the figure {words}"),
        )
    for pose in poses.POSES:
        t = poses.TOKENS[pose]
        move = "cannot move" if t.step_cost is None else f"{t.step_cost} MP a hex"
        text = (
            f"Fighting Pose {pose}: {move}; ranged +{t.ranged_attack} attack, "
            f"+{t.ranged_defence} defend dice; melee -{t.melee_penalty} defend dice"
        )
        yield pose, pose.title(), text
        yield f"pose-{pose}", f"Pose: {pose}", text
    yield (
        "barrier",
        "Barrier",
        "A crack or crater edge: only Flying or Burrowing figures cross; sight passes",
    )


def _masters() -> Iterator[Entry]:
    yield (
        "master",
        "Master Alien",
        "A purple Master Alien: two-stage card, big base, immune to Paralyze",
    )
    yield (
        "menace",
        "Menace token",
        "The Master Alien's Menacing Agent and his level (1 or 2); Archenemy hunts him",
    )
    for level in (1, 2):
        yield (
            f"menace-{level}",
            f"Menace {level}",
            f"Holds the Menace token at Level {level}: the Master Alien's Menacing Agent",
        )
    yield (
        "menace-up",
        "Raise the Menace",
        "Action of the Menacing Agent: flip the Menace token to Level 2",
    )
    yield (
        "menace-down",
        "Lower the Menace",
        "Action: flip the Menace token from Level 2 back to Level 1",
    )
    yield (
        "menace-take",
        "Take the Menace",
        "Action: take the Menace token while it is at Level 1 and become the Menacing Agent",
    )
    yield (
        "fights-on",
        "Fights on",
        "A Master Alien at 0 Health points still fighting until the round ends",
    )
    yield "body", "Base", "Another hex of a big alien's base: it counts as the alien"


def _cards() -> Iterator[Entry]:
    for ce in expansion_encounters().values():
        kind, value = next(iter(ce.match.items()))
        words = MATCH_WORDS[kind].format(str(value).replace("-", " "))
        if kind == "count" and value == "agents":
            words = "activate 1 alien per agent, the Alpha Agent's first, highest rank first"
        yield ce.id, ce.name, f"Close Encounter #{ce.number} {ce.name}: {words}"
    for ev in decks.events().values():
        yield ev.id, ev.name, f"Event card {ev.name} (Operation Strikeback)"


def _missions() -> Iterator[Entry]:
    for rules in all_rules():
        yield from rules.terms
    for mission in missions().values():
        for ev in mission.special_events:
            yield ev.id, ev.name, f"Special Event of {mission.title}: {ev.name}"


def _suits_and_weapons() -> Iterator[Entry]:
    yield (
        "power-suit",
        "Power Suit",
        "A piloted armour: walk onto it and spend the Action to get in; "
        "it burns a Battery each Refresh",
    )
    for mark, p in suits.PROFILES.items():
        yield (
            f"mk{mark}",
            p.name,
            suits.describe_suit(SuitState(id="", mark=mark, batteries=0)),
        )
    yield (
        "battery",
        "Energy Batteries",
        "Energy Batteries: a Power Suit pays one each Refresh and leaves play when it cannot",
    )
    yield (
        "suit-shield",
        "Suit shield",
        "The Power Suit's Energy Shield: absorbs Hits before anything else; refills each Refresh",
    )
    yield (
        "seizing",
        "Seizing",
        "Carrying a seized agent: he is put down next to the suit when the Movement ends",
    )
    yield (
        suits.EQUIP,
        "Equip a Power Suit",
        "Action: walk onto an empty Power Suit and get in; the Movement goes on with its bonus",
    )
    yield (
        suits.LEAVE,
        "Leave the Power Suit",
        "Action: step out onto a free adjacent hex; the empty suit stays",
    )
    yield (
        suits.RECALL,
        "Recall Power Suit",
        "Action: a suit at Headquarters teleports onto you (the Alpha Agent must agree)",
    )
    yield (
        suits.SEIZE,
        "Seize",
        "Free Action in a suit: carry an adjacent Immobilized, Paralyzed or Bleeding agent",
    )
    yield (
        suits.DROP,
        "Put down",
        "Free Action: set the agent you carry on a free hex next to you",
    )
    yield suits.AGREE, "Agree", "The Alpha Agent lets an agent Recall a Power Suit"
    yield (
        "free-action",
        "Free Action",
        "An Action that spends no activity, as often as you like; from Earth rank Tactics are free",
    )
    yield (
        arsenal.BLUE_DICE,
        "Added dice BLUE",
        "A RED+BLUE weapon's added Hit dice are rolled BLUE instead of RED",
    )
    yield "explosion", "Explosion", "Hits the target's Area and every Area one border away"
    yield "area-heal", "Area Healing", "Heals every other agent in the target's Area too"
    for w in [*arsenal.weapons().values(), *arsenal.suit_weapons().values()]:
        if w.fixed is not None:
            roll = f"{w.fixed} fixed Hits"
        else:
            roll = f"{w.dice} {w.color.upper()}" + (f" + {w.blue} BLUE" if w.blue else "") + " dice"
        reach = "melee" if w.kind == "melee" else f"range {w.range}"
        extra = ", ".join(
            x
            for x in (
                w.bolt and f"Bolt {w.bolt}",
                "explosion" if "explosion" in w.powers else "",
                "Area Healing" if "area-heal" in w.powers else "",
                "GD acts as Bolt" if "gd-as-bolt" in w.powers else "",
            )
            if x
        )
        yield (
            w.key,
            w.name,
            f"{w.tier.title()} weapon: {roll}, {reach}" + (f"; {extra}" if extra else ""),
        )


def _powers_and_items() -> Iterator[Entry]:
    """9.7-9.9: power types, Alien Knowledge skills, Psionic Powers, devices and their drones,
    the expansion's GD-Wings ranks, Alien Tech tokens."""

    for kind, words in powers.TYPE_WORDS.items():
        yield f"{kind}-power", f"{kind.title()} power", f"A {kind} power or item {words}"
    for skill in powers.skills().values():
        bonus = skill.text.split(", and ", 1)[1].rstrip(".")
        yield skill.key, skill.name, f"Skill, counts as Alien Knowledge; also {bonus}"
    for p in powers.psionics().values():
        usage = {"round": "once a round", "mission": "once a mission"}.get(p.usage)
        head = f"Psionic, {p.type}" + (f", {usage}" if usage else "")
        yield p.key, p.name, f"{head}: {p.text.split(': ', 1)[1]}"
    yield (
        wings.PSIONIC,
        "Psionic Power",
        "A randomly drawn Psionic Power instead of a skill, from the Moon rank on",
    )
    for d in devices.catalogue().values():
        owner = f"{', '.join(d.classes)} only" if d.classes else "any agent"
        keep = ", kept" if d.keep else ""
        yield d.key, d.name, f"Device ({owner}{keep}): {d.text.split(': ', 1)[1]}"
    for key in ("vigil-stinger", "gd-5-mortar"):
        w = devices.drone_weapon(key)
        assert w is not None
        yield w.key, w.name, f"Drone weapon: {w.dice} {w.color.upper()} dice, range {w.range}"
    ranks = {
        "earth": "Elite side, and Tactics become Free Actions (1 GD to reach)",
        "moon": "a second skill or a random Psionic Power (2 GD to reach)",
        "galaxy": "one more skill or Psionic Power (3 GD to reach); the top rank",
    }
    for key, text in ranks.items():
        yield f"{key}-rank", f"{key.title()} rank", f"Operation Strikeback GD-Wings rank: {text}"
    texts = {
        "alien-tech": "the first agent on it gains the team 1 Alien Tech fragment (max 4)",
        "alien-tech-2": "the first agent on it gains the team 2 Alien Tech fragments (max 4)",
        "blue-armory": "step on it: a new Improved Weapon comes at the next Reinforcements",
        "red-armory": "step on it: a new Alien Weapon comes at the next Reinforcements",
    }
    for kind, name in alientech.KINDS.items():
        yield kind, name, f"Token: {texts[kind]}"
