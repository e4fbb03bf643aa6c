"""The game state: plain pydantic data that round-trips through JSON."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Side = Literal["marines", "xenos"]
Status = Literal["active", "pool", "dead", "exited", "removed"]


def seat_name(seat: str) -> str:
    """A seat as players read it, as the scenario names it: "Marines", "Marines (2)", "Xeno"."""
    base, _, number = seat.partition("-")
    return f"{base.capitalize()} ({number})" if number else base.capitalize()


class Unit(BaseModel):
    id: str
    kind: str  # marine profile key (lt, fox, zac, ...) or xeno type (drone, warrior, egg, ...)
    side: Side
    name: str
    at: str | None = None
    facing: str | None = None
    hits: int = 0
    status: Status = "active"
    items: list[str] = Field(default_factory=list)
    surge: bool = False
    jammed: bool = False
    heroic: bool = False
    seat: str | None = None
    activated: bool = False  # xenos: already activated this Xeno phase
    fresh: bool = False  # xenos: hatched/grown this turn, may not activate
    placed: int = 0  # order of placement: the highest is the top of a stack
    exited_via: str | None = None


class Order(BaseModel):
    """A standing interrupt order (5.7) a Marine seat leaves for the Xeno phase."""

    unit: str
    aps: int
    range: int
    spin: bool = False
    grenade: bool = False  # throw Plasma Grenades instead of shooting (5.7, 8.5)
    surge: bool = False  # pay with the Marine's Surge marker before the AP pool (5.8)
    refuel: bool = False  # the flamethrower refuels first when its tank is empty (5.5)
    seat: str | None = None
    spent: int = 0  # APs spent by this order in the current Xeno phase


class Placement(BaseModel):
    """A Xeno the human Xeno player still has to place: its type and where it may go."""

    kind: str
    zone: str  # "vent", "room:A", "far"; "overflow": beside a vent, the Marine player's choice


class Corpse(BaseModel):
    at: str
    unit: str


class Mutation(BaseModel):
    """The Xeno player's hidden hand of Mutation cards (10.0)."""

    hand: list[str] = Field(default_factory=list)
    draw_pile: list[str] = Field(default_factory=list)
    played: list[str] = Field(default_factory=list)
    set_aside: list[str] = Field(default_factory=list)  # swapped away unseen (stays hidden)
    discarded: list[str] = Field(default_factory=list)  # discarded face down for a boost (10.0)
    mulligan_done: bool = False
    frenzy: dict[str, int] = Field(default_factory=dict)  # xeno id -> extra MP this phase
    shielded: list[str] = Field(default_factory=list)  # xenos ignoring their next Hit
    ap_drain: int = 0  # APs removed at the next Determine Action Points phase
    extra_spawn: int = 0  # extra Drones at the next Spawn phase


class Reaction(BaseModel):
    """An open reaction window (10.0): the Xeno player may answer a Marine action with a card.

    `moments` are the card timings that fit what just happened (content.TIMINGS); `seat` is
    the Marine seat whose action opened it.
    """

    moments: list[str]
    text: str
    seat: str


# The kinds of Marine action a standing reaction rule names (`reactions.KINDS` in words).
REACTION_KINDS = ("sight", "attack", "move", "other")
STANDING_ASK = ("sight", "attack")  # a new operation's rules under `reactions: standing`


class ReactionRules(BaseModel):
    """The Xeno player's standing reaction rules (10.0), given in advance and changed at any
    time: hidden information, like the hand (only her own view shows them).

    `ask`: the kinds of Marine action after which a window opens and she is asked in private.
    `play`: a held card -> the kind of Marine action after which it is played at once.
    The default (every kind asked) is the older table's "a window after every Marine action",
    so saves made before the rules existed load as they played; a new operation sets its own
    from the `reactions` option (`setup.new_state`).
    """

    ask: list[str] = Field(default_factory=lambda: list(REACTION_KINDS))
    play: dict[str, str] = Field(default_factory=dict)


class ForlornState(BaseModel):
    scenario: str
    map: str
    options: dict[str, str] = Field(default_factory=dict)
    seats: list[str] = Field(default_factory=list)
    xeno_human: bool = False
    turn: int = 1
    turns_total: int = 6
    phase: str = "start"  # mulligan, deploy, start, marine, xeno, eggs, end, over
    ap: int = 0
    ap_roll: list[int] = Field(default_factory=list)
    units: list[Unit] = Field(default_factory=list)
    open_doors: list[str] = Field(default_factory=list)
    sealed_doors: list[str] = Field(default_factory=list)
    flames: list[str] = Field(default_factory=list)
    flame_supply: int = 0
    flame_spent: int = 0
    refuelled: bool = False
    grenades: int = 3
    floor_items: dict[str, list[str]] = Field(default_factory=dict)
    corpses: list[Corpse] = Field(default_factory=list)
    mcgfn_plugged: bool = False
    mcgfn_progress: int = 0
    mcgfn_turn: int = 0
    blocked_vents: list[int] = Field(default_factory=list)
    bot_vent: int | None = None  # Op 04: the vent the Marine player blocks during set-up
    mover: str | None = None
    mp_left: int = 0
    ended: list[str] = Field(default_factory=list)
    # The shared AP pool: what each Marine seat spent from it this turn (pool and interrupts).
    ap_spent: dict[str, int] = Field(default_factory=dict)
    # A Marine seat with no Marine left: the Marine it asked another seat for, or it watches.
    asks: dict[str, str] = Field(default_factory=dict)  # asking seat -> unit id
    watching: list[str] = Field(default_factory=list)
    orders: list[Order] = Field(default_factory=list)
    interrupted_step: int = -1
    step_counter: int = 0
    xeno_active: str | None = None
    xeno_mp: int = 0
    vp: int = 0
    rush: bool = False
    marine_reroll: bool = False
    ap_untouched: bool = False  # no AP spent yet this Marine phase (for the Op 02 re-roll)
    xeno_reroll: bool = False
    mutation: Mutation = Field(default_factory=Mutation)
    placements: list[Placement] = Field(default_factory=list)
    reaction: Reaction | None = None
    # A human Xeno seat's standing reactions (None: none set, read as `ReactionRules()`;
    # operations without her keep the dump they had).
    reaction_rules: ReactionRules | None = None
    spawn_roll: dict[str, int] | None = None  # rolled spawn numbers awaiting the Xeno's choice
    spawn_swapped: bool = False  # Op 02 Veteran: the Blaster swap was used this Spawn phase
    surge_for: str | None = None  # the Marine whose Surge marker pays the action being applied
    # What follows the Xeno placements: "start", "next-turn" or "deploy" (the dropped Eggs, 2.0).
    place_resume: str = "start"
    outcome: str | None = None
    kills: list[str] = Field(default_factory=list)  # kinds of xenos (and eggs) slain

    def unit(self, uid: str) -> Unit | None:
        uid = uid.strip().lower()
        return next((u for u in self.units if u.id == uid), None)

    def active(self, side: Side | None = None) -> list[Unit]:
        return [u for u in self.units if u.status == "active" and (side is None or u.side == side)]

    def at(self, where: str) -> list[Unit]:
        return [u for u in self.units if u.status == "active" and u.at == where]
