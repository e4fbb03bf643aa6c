"""The plain-data state of a Reichbusters mission (pydantic, JSON round-trip)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from engine.core.deck import Deck
from engine.reich.content import load_content


class WeaponState(BaseModel):
    vril: bool = False
    jammed: bool = False


class HeroState(BaseModel):
    key: str
    seat: str
    area: str | None
    hand: list[str] = Field(default_factory=list)
    deck: Deck = Field(default_factory=Deck)
    removed: list[str] = Field(default_factory=list)
    in_play: list[str] = Field(default_factory=list)  # game-round cards lying by the dashboard
    tokens: int = 2
    used_move: bool = False
    used_attack: bool = False
    wounds: list[str] = Field(default_factory=list)  # permanent Wound cards
    loot: list[str] = Field(default_factory=list)
    carried: list[str] = Field(default_factory=list)  # mission tokens (keys, code, documents)
    weapons: dict[str, WeaponState] = Field(default_factory=dict)
    down: bool = False
    exited: bool = False
    grants: list[str] = Field(default_factory=list)  # pending effects of an Action section
    grant_card: str | None = None
    grant_noise: int = 0
    last_target: str | None = None
    buffs: list[str] = Field(default_factory=list)  # game-round effects
    brutal: bool = False
    skill_used: bool = False
    pinned_area: str | None = None
    delayed: int = 0  # Wound cards to draw at the start of the next Heroes' Turn
    token_debt: int = 0  # Basic Action tokens lost while spent: not retrieved next Upkeep
    orders: dict[str, str] = Field(
        default_factory=lambda: {
            "support": "if-it-succeeds",
            "defend": "cards",
            "elusive": "on",
            "react": "fire",
            "decoy": "off",
        }
    )

    @property
    def name(self) -> str:
        """The Hero as players read it ("Sarge"); the key stays in commands."""
        return load_content().heroes[self.key].name


class EnemyState(BaseModel):
    id: str
    type: str
    area: str
    wounds: int = 0
    behavior: int = 0  # index into the Vrilmeister Behaviour list
    active: bool = True
    number: int = 0  # its number among the Enemies of its type, in the order they appeared

    @property
    def name(self) -> str:
        """The Enemy as the table says it: its type's name and its number within that type
        ("Soldier 3": the third Soldier to appear); a one-of-a-kind Enemy by its name alone
        ("General Wolff"). The key (`soldier20`) stays in commands."""
        profile = load_content().enemies[self.type]
        if profile.count == 1:
            return profile.name
        number = self.number or self.id.removeprefix(self.type)  # saves from before numbering
        return f"{profile.name} {number}".strip()


class EnemyToken(BaseModel):
    id: str
    area: str
    level: int
    letters: str


class GroundItem(BaseModel):
    id: str
    area: str
    card: str | None = None  # a Loot card id
    kind: str | None = None  # a mission token kind (keys, code, documents, objective...)
    face_up: bool = True
    done: bool = False  # an objective token already used


class Die(BaseModel):
    color: str  # black, green, red, card
    face: str  # blank, 1, 2, 3, star, overload
    spent: str | None = None


class PendingTest(BaseModel):
    """An Attack Test waiting for its Hero's choices (build the pool, then spend results)."""

    hero: str
    targets: list[str]
    weapon: str
    ranged: bool
    stage: str = "build"  # build | rolled
    threshold: int = 0
    black: int = 0
    red: int = 0
    dice: list[Die] = Field(default_factory=list)
    bonus: int = 0
    keywords: list[str] = Field(default_factory=list)
    cards: list[str] = Field(default_factory=list)
    spends: list[str] = Field(default_factory=list)
    rerolled: bool = False
    noise: int = 0
    explosion: bool = False
    grant: str | None = None  # the card effect that allowed this Attack (Repeatable)
    burst: str | None = None  # the other Enemy a Burst Special Result will also Wound
    supported: list[str] = Field(default_factory=list)  # Heroes who were offered Support


class TakeRequest(BaseModel):
    """A Hero asked to take from (or give to) another player's Hero, who must accept."""

    taker: str  # the Hero making the Give/Take Action (spends the token)
    owner: str  # the other Hero, whose player answers
    item: str  # a Loot card id or a mission token kind
    give: bool = False  # True: `taker` hands `item` to `owner`
    drop: str | None = None  # a Take by a Hero with three Loot cards: the card left in the Area


class ReactionAsk(BaseModel):
    """A Reaction a Hero could play now; its player answers fire or hold (`react:ask`)."""

    hero: str
    card: str


class EnemyProgress(BaseModel):
    """Where a paused Enemies' Turn stands: the type being activated and its stage."""

    order: list[str]
    index: int = 0
    stage: str = "move"  # move | react | attack
    targets: dict[str, str | None] = Field(default_factory=dict)
    asked: list[str] = Field(default_factory=list)  # Heroes asked (and holding) at this step


class ReichState(BaseModel):
    game: str = "reichbusters"
    scenario: str
    options: dict[str, str] = Field(default_factory=dict)
    seats: list[str]
    round: int = 1
    phase: str = "heroes"  # heroes | enemies | upkeep | ended
    heroes: dict[str, HeroState]
    hero_order: list[str]
    enemies: list[EnemyState] = Field(default_factory=list)
    enemy_tokens: list[EnemyToken] = Field(default_factory=list)
    token_reserve: dict[str, list[str]] = Field(default_factory=dict)
    ground: list[GroundItem] = Field(default_factory=list)
    accessories: dict[str, str] = Field(default_factory=dict)  # area -> face-down card id
    accessories_up: dict[str, str] = Field(default_factory=dict)  # area -> revealed card id
    loot_deck: Deck = Field(default_factory=Deck)
    wound_deck: Deck = Field(default_factory=Deck)
    reinforcement_deck: Deck = Field(default_factory=Deck)
    tracker: int = 1
    discretion: int = 1
    endgame: int = 1
    alarm: bool = False
    open_doors: list[str] = Field(default_factory=list)
    unlocked: list[str] = Field(default_factory=list)
    smoke: list[str] = Field(default_factory=list)
    suppress: list[str] = Field(default_factory=list)
    ended_seats: list[str] = Field(default_factory=list)
    awareness_used: list[str] = Field(default_factory=list)
    awareness_seen: list[str] = Field(default_factory=list)
    reacted: list[str] = Field(default_factory=list)  # Heroes who fired a Reaction this turn
    spotted: list[str] = Field(default_factory=list)  # Enemies that showed up or acted just now
    pending: PendingTest | None = None
    request: TakeRequest | None = None
    reaction: ReactionAsk | None = None
    enemy_progress: EnemyProgress | None = None
    pickup_left: list[str] = Field(default_factory=list)  # Heroes yet to answer the Upkeep Pick Up
    kills: dict[str, int] = Field(default_factory=dict)
    sabotaged: int = 0
    next_id: int = 1
    appeared: dict[str, int] = Field(default_factory=dict)  # Enemies of each type so far
    outcome: str | None = None
    achieved: list[str] = Field(default_factory=list)
