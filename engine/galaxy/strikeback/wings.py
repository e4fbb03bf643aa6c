"""GD-Wings, the expansion's table (9.8), used on Operation Strikeback missions.

| rank | what it brings | GD results on 3 RED dice |
|---|---|---|
| Gold | Basic Tactic, Improved Tactic and the 1st Skill | starting training |
| Earth | Elite Agent, and both Tactics become Free Actions (9.7.3) | 1 |
| Moon | 2nd selected Skill OR the 1st randomly selected Psionic Power | 2 |
| Galaxy | +1 selected Skill OR +1 randomly selected Psionic Power | 3 |

The core ranks below Gold keep their core enhancements and numbers (Bronze a basic tactic,
Silver a skill, Gold an improved tactic): so an agent "at Gold" holds exactly the table's
three powers, and an agent who drops below Gold after a death climbs back the core way.
Earth takes the place of Palladium (the Elite side), Moon of Platinum; Galaxy is a seventh
rank. Universe belongs to Extinction Protocol and is not built.

Standalone missions start at the rank of their briefing (the mission file's `rank`: gold,
earth or moon); the powers the agents owe on the way there (Gold: a basic tactic, a skill, an
improved tactic; Moon: a skill or a Psionic Power) are picked in the first Strategy phase, one
prompt each with the first option as the default, as in the core game.
"""

from __future__ import annotations

from engine.galaxy.state import GalaxyState
from engine.galaxy.strikeback.missions import missions
from engine.galaxy.strikeback.status import sb_state_or_none
from engine.galaxy.world import RANKS, mission_key, mission_of

NAMES = ("Copper", "Bronze", "Silver", "Gold", "Earth", "Moon", "Galaxy")
GOLD, EARTH, MOON, GALAXY = 3, 4, 5, 6
NEEDED = {EARTH: 1, MOON: 2, GALAXY: 3}  # 9.8, Operation Strikeback column
BY_WORD = {"gold": GOLD, "earth": EARTH, "moon": MOON}  # a mission's briefing `rank`
PSIONIC = "psionic"  # the promotion answer "a random Psionic Power instead of a skill"
CHOICE_KIND = "skill-or-psionic"


def uses_table(state: GalaxyState) -> bool:
    """The expansion's table is in force on an Operation Strikeback mission."""
    if sb_state_or_none(state) is None:
        return False

    return mission_key(state) in missions()


def rank_name(rank: int, expansion: bool) -> str:
    return NAMES[rank] if expansion else RANKS[rank]


def top_rank(state: GalaxyState) -> int:
    return GALAXY if uses_table(state) else len(RANKS) - 1


def needed(state: GalaxyState, rank: int, core: dict[int, int]) -> int:
    """GD results needed to reach `rank`."""
    if uses_table(state) and rank in NEEDED:
        return NEEDED[rank]
    return core[rank]


def standalone_rank(state: GalaxyState) -> int:
    """The briefing's standalone rank (the mission's `rank` field), 0 when it gives none."""
    if not uses_table(state):
        return 0

    word = getattr(mission_of(state), "rank", None)
    return BY_WORD[word] if word else 0


def promotion_kind(state: GalaxyState, rank: int, core: dict[int, str]) -> str:
    """What a rank owes the player: a core tactic/skill, or at Moon and Galaxy a skill or a
    random Psionic Power (his choice)."""
    if uses_table(state) and rank >= MOON:
        return CHOICE_KIND
    return core[rank]


def gain_text(state: GalaxyState, rank: int, core_text: str) -> str:
    if uses_table(state) and rank == EARTH:
        return "Elite Agent, and his Tactics become Free Actions"
    if uses_table(state) and rank >= MOON:
        return "a selected skill or a random Psionic Power"
    return core_text
