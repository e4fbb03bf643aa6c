"""Loading and validating Reichbusters content: tiles, heroes, cards, enemies, missions."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import Field

from engine.core.content import ContentFile, ContentModel, load_file
from engine.core.errors import ContentError

ROOT = Path(__file__).parent / "content"

ACTION_EFFECTS = {"move", "melee", "ranged", "attack", "draw", "smoke", "suppress", "grenade"}
ACTION_EFFECTS |= {"open", "heal", "token", "react_ranged", "react_spotted"}
ATTACK_KEYWORDS = {"lethal", "ap", "accurate", "precise", "reroll", "distinct", "teamwork"}
ATTACK_KEYWORDS |= {"repeat"}
ENEMY_KEYWORDS = {"bodyguard", "armless", "meatshield", "relentless", "brutal", "armored"}
ENEMY_KEYWORDS |= {"knocked_back", "cautious", "area_attack", "ruthless", "ablative_shield"}
ENEMY_KEYWORDS |= {"augen_handler", "turn_up_the_heat", "reinforce", "domination", "berserk"}
SUBTITLES = {"alien", "experiment", "offizier", "techno", "vrilmeister"}
LIMBS = ("Head", "Right Arm", "Left Arm", "Legs")
MISSION_NEEDS = {"armor_piercing"}
WEAPON_KEYWORDS = {"precise", "ap", "accurate", "lethal", "burst", "shoddy", "double_impact"}
WEAPON_KEYWORDS |= {"quick_attack"}
SKILLS = {"none", "cover_me", "crowd_control", "dual_wielding", "elusive", "focused", "genius"}
SKILLS |= {"guardian", "heavy_infantry", "mech_implants", "rage", "vengeance", "steel_skin"}
SKILLS |= {"resourceful"}
MODIFIERS = {"dice", "succ", "special", "reroll", "defdice", "defsucc"}


class Tile(ContentModel):
    key: str
    name: str
    grid: list[str]
    rooms: list[str]

    def label(self, letter: str) -> str:
        """The Area label players type: the tile number and the Area letter (`3B`)."""
        return self.key if self.key.isalpha() else f"{self.key}{letter}"


class CardTemplate(ContentModel):
    id: str
    name: str
    effects: list[str]
    noise: int
    explosion: bool
    duration: str
    modifier: str | None
    text: str

    @property
    def feat(self) -> bool:
        return self.modifier is None


class WeaponStats(ContentModel):
    black: int
    red: int = 0
    keywords: list[str] = Field(default_factory=list)


class Weapon(ContentModel):
    id: str
    name: str
    range: int
    black: int
    noise: int = 0
    keywords: list[str] = Field(default_factory=list)
    vril: WeaponStats


class HeroDef(ContentModel):
    key: str
    name: str
    team: str
    skill: str
    weapons: list[Weapon]
    deck: list[str]
    feats: list[str]


class Behavior(ContentModel):
    number: int
    life: int
    defense: int
    melee: tuple[int, int] | None
    ranged: tuple[int, int, int] | None
    move: int
    keywords: list[str]


class Limb(ContentModel):
    """One limb of a Berserk Enemy: its own Attack profile, lost after `lost_at` Wounds."""

    name: str
    melee: tuple[int, int] | None = None
    ranged: tuple[int, int, int] | None = None
    lost_at: int


class EnemyDef(ContentModel):
    key: str
    name: str
    main: str
    melee: tuple[int, int] | None
    ranged: tuple[int, int, int] | None
    defense: int
    life: int
    move: int
    loot: bool = False
    awareness: bool = False
    subtitles: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    count: int
    behaviors: list[Behavior] = Field(default_factory=list)
    limbs: list[Limb] = Field(default_factory=list)


class LootDef(ContentModel):
    id: str
    name: str
    basic: bool
    copies: int
    when: str
    effect: str
    duration: str
    noise: int | str
    text: str


class WoundDef(ContentModel):
    id: str
    name: str
    threshold: int
    immediate: str
    permanent: str
    copies: int


class ReinforcementDef(ContentModel):
    id: str
    A: str
    B: str
    C: str

    def letters(self, barracks: str) -> str:
        return str(getattr(self, barracks))


class AccessoryDef(ContentModel):
    id: str
    back: str
    name: str
    effect: str
    consumable: bool
    text: str


class Placement(ContentModel):
    tile: str
    col: int
    row: int


class DoorDef(ContentModel):
    between: tuple[str, str]
    lock: str | None = None  # "key" or "code"


class TokenPlace(ContentModel):
    area: str
    level: int


class MissionToken(ContentModel):
    area: str
    kind: str  # objective, documents, keys, code, prisoner


class SetupEnemy(ContentModel):
    """An Enemy standing in the mission from the start (not drawn from a token)."""

    enemy: str
    area: str


class CardLine(ContentModel):
    letter: str | None
    enemy: str


class Tracker(ContentModel):
    length: int
    discretion: int
    endgame: int


class Condition(ContentModel):
    kind: str  # sabotage | kill | collect | exit
    count: int = 1
    enemy: str | None = None
    token: str | None = None


class MissionDef(ContentModel):
    key: str
    number: int
    title: str
    summary: str
    tiles: list[Placement]
    open: list[tuple[str, str]] = Field(default_factory=list)
    doors: list[DoorDef] = Field(default_factory=list)
    start: str
    exits: list[str] = Field(default_factory=list)
    barracks: dict[str, str] = Field(default_factory=dict)
    card: list[CardLine]
    tokens: list[TokenPlace] = Field(default_factory=list)
    setup_enemies: list[SetupEnemy] = Field(default_factory=list)
    mission_tokens: list[MissionToken] = Field(default_factory=list)
    loot_face_up: list[str] = Field(default_factory=list)  # Areas with a face-up Loot card
    extra_loot: list[str] = Field(default_factory=list)
    accessories: dict[str, str] = Field(default_factory=dict)  # area -> card back
    tracker: Tracker
    objectives: dict[str, list[Condition]]
    unavailable: list[str] = Field(default_factory=list)
    rules: list[str] = Field(default_factory=list)
    needs: list[str] = Field(default_factory=list)  # kinds of Hero the mission needs
    placed_loot: dict[str, str] = Field(default_factory=dict)  # area -> a set Loot card


class Content(ContentModel):
    tiles: dict[str, Tile]
    cards: dict[str, CardTemplate]
    heroes: dict[str, HeroDef]
    enemies: dict[str, EnemyDef]
    loot: dict[str, LootDef]
    wounds: dict[str, WoundDef]
    reinforcements: list[ReinforcementDef]
    accessories: dict[str, AccessoryDef]
    enemy_tokens: dict[int, list[str]]
    missions: dict[str, MissionDef]


class HeroesFile(ContentFile):
    heroes: list[HeroDef]


class EnemiesFile(ContentFile):
    enemies: list[EnemyDef]


class LootFile(ContentFile):
    loot: list[LootDef]


class WoundsFile(ContentFile):
    wounds: list[WoundDef]


class ReinforcementsFile(ContentFile):
    cards: list[ReinforcementDef]


class AccessoriesFile(ContentFile):
    accessories: list[AccessoryDef]


class TokensFile(ContentFile):
    tokens: dict[int, list[str]]  # Level -> the spawn letters on the backs of its tokens


def parse_tile(text: str, source: str) -> Tile:
    """Read the tile text format: `tile`, `name`, then `grid` rows and `rooms` lines."""
    key = name = ""
    grid: list[str] = []
    rooms: list[str] = []
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("tile "):
            key = line[5:].strip()
        elif line.startswith("name "):
            name = line[5:].strip()
        elif line in ("grid", "rooms"):
            section = line
        elif section == "grid":
            grid.append(line)
        elif section == "rooms":
            rooms.append(line)
        else:
            raise ContentError(f"{source}: unexpected line {line!r}")
    if not key or not grid or not rooms:
        raise ContentError(f"{source}: a tile needs `tile`, `grid` and `rooms`")
    if len({len(row) for row in grid}) != 1:
        raise ContentError(f"{source}: grid rows differ in length")
    letters = {ch for row in grid for ch in row}
    in_rooms = [ch for room in rooms for ch in room]
    if sorted(in_rooms) != sorted(letters):
        raise ContentError(f"{source}: rooms must list every Area letter exactly once")
    for letter in letters:
        cells = {(c, r) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == letter}
        start = next(iter(cells))
        seen = {start}
        stack = [start]
        while stack:
            c, r = stack.pop()
            for nxt in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
                if nxt in cells and nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        if seen != cells:
            raise ContentError(f"{source}: Area {letter} is not in one piece")
    return Tile(key=key, name=name or key, grid=grid, rooms=rooms)


def parse_cards(text: str) -> dict[str, CardTemplate]:
    cards: dict[str, CardTemplate] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 7:
            raise ContentError(f"cards.txt line {number}: expected 7 fields")
        cid, name, effects, noise, duration, modifier, blurb = parts
        effect_list = [e for e in effects.split(",") if e]
        for effect in effect_list:
            head, *rest = effect.split(":")
            if head not in ACTION_EFFECTS:
                raise ContentError(f"cards.txt line {number}: unknown effect {head!r}")
            if head in ("melee", "ranged", "attack"):
                if not rest or not rest[0].startswith("+"):
                    raise ContentError(f"cards.txt line {number}: {head} needs +N dice")
                bad = set(rest[1:]) - ATTACK_KEYWORDS
                if bad:
                    raise ContentError(f"cards.txt line {number}: unknown keyword {bad}")
        if modifier != "-" and modifier.split(":")[0] not in MODIFIERS:
            raise ContentError(f"cards.txt line {number}: unknown modifier {modifier!r}")
        if duration not in ("immediate", "round", "consumable"):
            raise ContentError(f"cards.txt line {number}: unknown duration {duration!r}")
        cards[cid] = CardTemplate(
            id=cid,
            name=name,
            effects=effect_list,
            noise=0 if noise == "X" else int(noise),
            explosion=noise == "X",
            duration=duration,
            modifier=None if modifier == "-" else modifier,
            text=blurb,
        )
    return cards


def _validate(content: Content) -> None:
    for hero in content.heroes.values():
        for cid in [*hero.deck, *hero.feats]:
            if cid not in content.cards:
                raise ContentError(f"hero {hero.key}: unknown card {cid}")
        if len(hero.deck) != 10 or len(hero.feats) != 2:
            raise ContentError(f"hero {hero.key}: needs 10 Action cards and 2 Feats")
        if any(not content.cards[c].feat for c in hero.feats):
            raise ContentError(f"hero {hero.key}: a Feat must have no Modifier section")
        if len(hero.weapons) != 2:
            raise ContentError(f"hero {hero.key}: needs two weapons")
        if hero.skill not in SKILLS:
            raise ContentError(f"hero {hero.key}: skill {hero.skill} is not implemented")
        for weapon in hero.weapons:
            unknown = set(weapon.keywords + weapon.vril.keywords) - WEAPON_KEYWORDS
            if unknown:
                raise ContentError(f"hero {hero.key}: weapon keywords {unknown} not implemented")
    for enemy in content.enemies.values():
        words = set(enemy.keywords).union(*[b.keywords for b in enemy.behaviors])
        if words - ENEMY_KEYWORDS:
            raise ContentError(f"enemy {enemy.key}: keywords {words - ENEMY_KEYWORDS} unknown")
        if set(enemy.subtitles) - SUBTITLES:
            bad = set(enemy.subtitles) - SUBTITLES
            raise ContentError(f"enemy {enemy.key}: subtitles {bad} unknown")
        _validate_limbs(enemy, "berserk" in words)
    for mission in content.missions.values():
        for place in mission.tiles:
            if place.tile not in content.tiles:
                raise ContentError(f"mission {mission.key}: unknown tile {place.tile}")
        for line in mission.card:
            if line.enemy not in content.enemies:
                raise ContentError(f"mission {mission.key}: unknown enemy {line.enemy}")
        for cid in [*mission.extra_loot, *mission.placed_loot.values()]:
            if cid not in content.loot:
                raise ContentError(f"mission {mission.key}: unknown loot {cid}")
        if set(mission.needs) - MISSION_NEEDS:
            raise ContentError(f"mission {mission.key}: needs {set(mission.needs)} unknown")
        t = mission.tracker
        if not 1 < t.discretion <= t.length or not 1 <= t.endgame < t.length:
            raise ContentError(f"mission {mission.key}: tracker positions out of range")


def _validate_limbs(enemy: EnemyDef, berserk: bool) -> None:
    """Berserk needs limbs (and limbs need Berserk); each limb is named once, with an Attack."""
    if berserk != bool(enemy.limbs):
        raise ContentError(f"enemy {enemy.key}: Berserk and limbs go together")
    if enemy.limbs and enemy.behaviors:
        raise ContentError(f"enemy {enemy.key}: a Berserk Enemy cannot have Behaviour cards")
    names = [limb.name for limb in enemy.limbs]
    if len(set(names)) != len(names) or set(names) - set(LIMBS):
        raise ContentError(f"enemy {enemy.key}: limbs must be distinct, from {', '.join(LIMBS)}")
    for limb in enemy.limbs:
        if limb.melee is None and limb.ranged is None:
            raise ContentError(f"enemy {enemy.key}: limb {limb.name} has no Attack")
        if not 1 <= limb.lost_at <= enemy.life:
            raise ContentError(f"enemy {enemy.key}: limb {limb.name} lost_at outside 1..Life")


@cache
def load_content() -> Content:
    """Read and validate every content file once."""
    tiles = {}
    for path in sorted((ROOT / "tiles").glob("*.txt")):
        tile = parse_tile(path.read_text(encoding="utf-8"), path.name)
        tiles[tile.key] = tile
    cards = parse_cards((ROOT / "cards.txt").read_text(encoding="utf-8"))
    heroes = {h.key: h for h in load_file(ROOT / "heroes.json", HeroesFile).heroes}
    enemies = {e.key: e for e in load_file(ROOT / "enemies.json", EnemiesFile).enemies}
    loot = {c.id: c for c in load_file(ROOT / "loot.json", LootFile).loot}
    wounds = {w.id: w for w in load_file(ROOT / "wounds.json", WoundsFile).wounds}
    reinf = load_file(ROOT / "reinforcements.json", ReinforcementsFile).cards
    acc = {a.id: a for a in load_file(ROOT / "accessories.json", AccessoriesFile).accessories}
    enemy_tokens = load_file(ROOT / "tokens.json", TokensFile).tokens
    missions = {}
    for path in sorted((ROOT / "missions").glob("*.json")):
        mission = load_file(path, MissionDef)
        missions[mission.key] = mission
    content = Content(
        tiles=tiles,
        cards=cards,
        heroes=heroes,
        enemies=enemies,
        loot=loot,
        wounds=wounds,
        reinforcements=reinf,
        accessories=acc,
        enemy_tokens=enemy_tokens,
        missions=missions,
    )
    _validate(content)
    return content
