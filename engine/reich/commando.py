"""Building the commando: the role list a mission offers, and the Heroes that complete it.

The rulebook fields four Heroes, one from each of the four teams. Every role (a Hero) carries
its team as the role's group, so the table lets a campaign seat at most one Hero per team, and
`check` refuses any other choice with the names of the Heroes at fault. A mission may need a
kind of Hero (`needs` in its data: `armor_piercing` when an Armored Enemy must die); the role
list then puts the Hero of each team who best meets the need first and says why in the role's
description, and the Heroes the engine adds for the teams nobody took are chosen the same way.
"""

from __future__ import annotations

from engine.core.game import RoleInfo
from engine.reich.content import HeroDef, MissionDef, load_content

TEAMS = ("alpha", "bravo", "charlie", "delta")
ROLE_ORDER = (
    "sarge", "hans", "claudine", "tane", "brad", "doc", "remmy", "joe",
    "irena", "quentin", "sally", "bjorn", "brick", "prof", "bochka", "redhawk",
)  # fmt: skip
NEEDS = {"armor_piercing": "Armor-Piercing"}


def fit(hero: HeroDef, need: str) -> tuple[int, str]:
    """How well a Hero meets a mission need (0: not at all) and the reason in a few words."""
    if need != "armor_piercing":
        return 0, ""
    for weapon in hero.weapons:
        if "ap" in weapon.keywords:
            return 3, f"{weapon.name} is Armor-Piercing"
    for weapon in hero.weapons:
        if "ap" in weapon.vril.keywords:
            return 2, f"Vril {weapon.name} is Armor-Piercing"
    cards = load_content().cards
    for feat in hero.feats:
        if any(":ap" in effect for effect in cards[feat].effects):
            return 1, f"Feat {cards[feat].name} is Armor-Piercing"
    return 0, ""


def score(key: str, mission: MissionDef) -> int:
    hero = load_content().heroes[key]
    return sum(fit(hero, need)[0] for need in mission.needs)


def role_order(mission: MissionDef) -> list[str]:
    """Available Heroes: with needs, the best Hero of each team first (one per team)."""
    content = load_content()
    keys = [k for k in ROLE_ORDER if k not in mission.unavailable]
    if not mission.needs:
        return keys
    best = []
    for team in TEAMS:
        team_keys = [k for k in keys if content.heroes[k].team == team]
        if team_keys:
            best.append(max(team_keys, key=lambda k: (score(k, mission), -keys.index(k))))
    return best + [k for k in keys if k not in best]


def roles(mission: MissionDef) -> list[RoleInfo]:
    content = load_content()
    out = []
    for key in role_order(mission):
        hero = content.heroes[key]
        text = f"Team {hero.team.title()}; skill {hero.skill.replace('_', ' ')}"
        reasons = [fit(hero, need)[1] for need in mission.needs if fit(hero, need)[0]]
        if reasons:
            text += f"; suits this mission ({'; '.join(reasons)})"
        out.append(
            RoleInfo(
                key=key,
                name=hero.name,
                description=text,
                required=False,
                group=team_name(hero.team),
            )
        )
    return out


def team_name(team: str) -> str:
    return f"Team {team.title()}"


def check(seats: list[str], mission: MissionDef) -> None:
    """Refuse (ValueError, in Hero names) seats that cannot form a commando of one Hero from
    each team: an unknown or unavailable Hero, a Hero named twice, two Heroes of one team."""
    content = load_content()
    if not 1 <= len(seats) <= 4:
        raise ValueError("Reichbusters seats 1 to 4 Heroes, one from each of the four teams.")
    for key in seats:
        if key not in content.heroes or key in mission.unavailable:
            raise ValueError(f"'{key}' is not a Hero available for {mission.title}.")
    by_team: dict[str, list[str]] = {}
    for key in dict.fromkeys(seats):
        by_team.setdefault(content.heroes[key].team, []).append(content.heroes[key].name)
    if len(set(seats)) != len(seats):
        twice = next(content.heroes[k].name for k in seats if seats.count(k) > 1)
        raise ValueError(f"{twice} is named twice: each seat takes a different Hero.")
    for team, names in by_team.items():
        if len(names) > 1:
            free = [team_name(t) for t in TEAMS if t not in by_team]
            instead = f" (free: {', '.join(free)})" if free else ""
            raise ValueError(
                f"{' and '.join(names)} are both in {team_name(team)}: the commando takes one "
                f"Hero from each of the four teams. Keep one of them and choose a Hero of "
                f"another team{instead}."
            )


def commando(seats: list[str], mission: MissionDef) -> list[tuple[str, str]]:
    """(hero, seat) pairs: the seated Heroes, then one Hero per missing team, four in all
    (ValueError naming the Heroes when the seats cannot form such a commando).

    The added Heroes are commanded by the seats in turn; for a mission with needs the added
    Hero of a team is the one that best meets them.
    """
    check(seats, mission)
    content = load_content()
    order = role_order(mission)
    chosen = list(seats)
    for team in TEAMS:
        if any(content.heroes[h].team == team for h in chosen):
            continue
        pick = next((k for k in order if content.heroes[k].team == team), None)
        if pick is None:
            raise ValueError(f"{mission.title} offers no Hero of {team_name(team)}.")
        chosen.append(pick)
    return [(h, seats[i % len(seats)] if h not in seats else h) for i, h in enumerate(chosen)]
