"""The words Operation Strikeback adds to a Galaxy table, for the glossary and `/rules`:
(key, name, short description) for every alien, NPC, order, device, action, badge and card
the layer can show a player. Our own wording throughout."""

from __future__ import annotations

from collections.abc import Iterator

from engine.galaxy.strikeback import cards, criticals, npc, poses

Entry = tuple[str, str, str]

EFFECT_WORDS = {
    "def": "rolls X fewer Defend dice",
    "atk": "rolls X fewer attack dice",
    "move": "has X fewer Movement points",
    "hp": "has X fewer Health points",
    "paralyze": "is Paralyzed until the Refresh",
    "shields-off": "loses its Energy Shields until the Refresh",
    "no-bolt": "cannot use Bolt effects until the Refresh",
    "damage": "takes X more wounds at once",
}
POWER_WORDS = {
    "flying": "flies over Barrier sides",
    "lock-on": "damage to a marked target causes Critical 1",
    "catcher": "on a Bolt flies back 1 Area carrying the agent it Immobilized",
    "burrowing": "digs under Barrier sides; hit only when a Close Encounter clearly names it",
    "prime-swarm": "two figures on one card",
}


def entries() -> Iterator[Entry]:
    yield from _aliens()
    yield from _npcs()
    yield from _tokens()
    yield from _missions()
    yield from _suits_and_weapons()


def _aliens() -> Iterator[Entry]:
    from engine.galaxy.content import content

    core = {c.species for c in content().aliens.values()}  # the core glossary has those
    for key, name in cards.species().items():
        if key in core:
            continue
        found = [c for c in cards.cards().values() if c.species == key]
        hp = ", ".join(f"{c.rank} {c.hp}" for c in found)
        powers = sorted({p for c in found for p in c.sb_powers})
        words = "; ".join(POWER_WORDS[p] for p in powers)
        yield (
            key,
            name,
            f"Alien {name} (Operation Strikeback): HP {hp}" + (f"; {words}" if words else ""),
        )
    for c in cards.cards().values():
        stacks = "+".join(str(n) for n in c.stacks) or "no"
        yield (
            c.id,
            f"{cards.species()[c.species]} ({c.rank})",
            (f"{cards.species()[c.species]}, {c.rank}: {c.hp} HP, Energy Shield stacks {stacks}"),
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
                f"{card.name}: {order}",
                f"Standing order for {card.id}: {what}",
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
            f"Marked: attackers gain their bonuses; fades {level} Refresh(es)",
        )
        yield (
            f"poison-{level}",
            f"Poison {level}",
            f"Poisoned: 1 wound each Refresh, {level} more time(s)",
        )
    for token in criticals.tokens().values():
        words = EFFECT_WORDS[token.effect].replace("X", str(token.level))
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


def _missions() -> Iterator[Entry]:
    from engine.galaxy.strikeback.mission_rules import all_rules
    from engine.galaxy.strikeback.missions import close_encounters, missions

    yield (
        "harpoon",
        "Harpoon",
        "Device, Action, once: 2 RED dice at an alien within 2 Areas; Immobilizes",
    )
    yield "jet-boots", "Jet Boots", "Device, Action, once: fly up to 3 hexes, over Barrier sides"
    for rules in all_rules():
        yield from rules.terms
    for ce in close_encounters().values():
        yield ce.id, ce.name, f"Close Encounter card {ce.name}: every Flying alien activates"
    for mission in missions().values():
        for ev in mission.special_events:
            yield ev.id, ev.name, f"Special Event of {mission.title}: {ev.name}"


def _suits_and_weapons() -> Iterator[Entry]:
    from engine.galaxy.strikeback import arsenal, suits
    from engine.galaxy.strikeback.status import SuitState

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
        "An Action that spends no activity: as many as you like in your turn",
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
