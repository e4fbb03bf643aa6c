"""How an expansion plugs into the core Galaxy Defenders rules.

The core never imports an expansion. At the rule moments an expansion changes, a core module
asks `hooks()` for the loaded expansion and calls the hook named for what it needs; the
package that composes the game (engine/galaxy/__init__.py) installs the expansion with
`install`. With nothing installed the core plays the core missions, and a
game that asks for an expansion rule is refused by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from engine.core.errors import NotSupportedYet

if TYPE_CHECKING:
    from engine.core.dice import Dice
    from engine.core.events import Event
    from engine.core.game import Action
    from engine.core.hexgrid import Hex
    from engine.core.view import TokenView
    from engine.galaxy import combat
    from engine.galaxy.content import (
        AgentProfile,
        AlienCard,
        CloseEncounter,
        EventCard,
        Mission,
        Power,
        Weapon,
    )
    from engine.galaxy.state import AgentState, AlienState, CampaignState, Coord, GalaxyState


class SuitSpot(Protocol):
    """A Power Suit as the core reads it: an empty one stands on a hex like a figure."""

    @property
    def id(self) -> str: ...

    @property
    def hex(self) -> tuple[int, int] | None: ...


class TieBreak(Protocol):
    """An "activate X aliens" card waiting for the Alpha Agent's pick."""

    @property
    def card(self) -> str: ...

    @property
    def chosen(self) -> list[str]: ...

    @property
    def picks(self) -> int: ...


class MenaceToken(Protocol):
    """The token that marks the agent a Master hunts."""

    @property
    def owner(self) -> str: ...

    @property
    def level(self) -> int: ...


class ExpansionPart(Protocol):
    """The expansion's part of a state, as far as core rules read it."""

    @property
    def activating(self) -> TieBreak | None: ...

    @property
    def bodies(self) -> Mapping[str, list[tuple[int, int]]]: ...

    @property
    def headquarters(self) -> Sequence[object]: ...

    @property
    def hidden_tps(self) -> list[str]: ...

    @property
    def menace(self) -> MenaceToken | None: ...

    @property
    def objects(self) -> Mapping[str, object]: ...

    @property
    def suits(self) -> Mapping[str, SuitSpot]: ...


class DeviceCard(Protocol):
    """An expansion device token as the core reads it (its sheet line, advice, classes)."""

    @property
    def name(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def effect(self) -> str: ...

    @property
    def classes(self) -> list[str]: ...


class PsionicCard(Protocol):
    """An expansion Psionic Power as the core reads it (the advisor's effect)."""

    @property
    def effect(self) -> str: ...


class MissionRuleSet(Protocol):
    """The rules of the expansion mission being played, where the core asks them."""

    def search_open(self, state: GalaxyState) -> bool: ...

    def tokens(self, state: GalaxyState, seat: str | None) -> list[tuple[str, str, str]]: ...

    def occupant(self, state: GalaxyState, spot: Coord) -> str | None:
        """What of the mission takes up a hex as a figure would (None: nothing)."""
        ...

    def closed(self, state: GalaxyState, spot: Coord) -> bool:
        """Whether a token of the mission keeps figures off the hex."""
        ...

    def kept_out(self, state: GalaxyState) -> tuple[str, ...]:
        """Inoperative agents the mission keeps out of play: no revival for them."""
        ...


class WornSuit(Protocol):
    """A worn Power Suit: its shields take an attack before the pilot's own."""

    shields: int


class ExpansionHooks(Protocol):
    """What the core asks of an expansion, one member per question it asks."""

    @property
    def ACTIONS(self) -> tuple[str, ...]: ...

    @property
    def AGREE(self) -> str: ...

    @property
    def BLUE_DICE(self) -> str: ...

    @property
    def CUSTOM(self) -> str: ...

    @property
    def EXPANSION(self) -> str: ...

    @property
    def OPTION(self) -> str: ...

    @property
    def PRESETS(self) -> dict[str, dict[str, str]]: ...

    @property
    def PSIONIC(self) -> str: ...

    @property
    def RANK(self) -> dict[str, int]: ...

    @property
    def SHORT(self) -> dict[str, str]: ...

    def activate_now(
        self, state: GalaxyState, agent: AgentState, figure: str, dice: Dice, events: list[Event]
    ) -> None: ...

    def activation_problem(
        self, state: GalaxyState, agent: AgentState, figure: str
    ) -> str | None: ...

    def active(self, state: GalaxyState) -> bool:
        """A Strikeback campaign is being played."""
        ...

    def advice(self, state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
        """The advisor walks onto a token it can reach this Movement and gives its NPCs'
        standing orders."""
        ...

    def after_event(self, state: GalaxyState, dice: Dice, events: list[Event]) -> None:
        """The mission's rule for the end of every Event phase (mission 1: a new fire)."""
        ...

    def agent_died(self, state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
        """An agent dies on his hex (before his figure leaves the map)."""
        ...

    def alien_attack(
        self,
        state: GalaxyState,
        alien: AlienState,
        agent: AgentState,
        kind: str,
        dice: Dice,
        events: list[Event],
        reason: str,
    ) -> None:
        """An alien's attack on an agent or drone under the expansion rules."""
        ...

    def alien_defends(
        self,
        state: GalaxyState,
        alien: AlienState,
        hits: int,
        def_minus: int,
        kind: str,
        dice: Dice,
        events: list[Event],
        cause: str,
        sb_effects: tuple[str, ...] = ...,
    ) -> bool:
        """An alien defends an agent's attack; True when it dies (the caller removes it)."""
        ...

    def alien_dice(self, agent: AgentState, w: Weapon) -> int:
        """Xeno Ballistics / Xeno Blade Lore: one more Hit die with an Alien weapon of that kind."""
        ...

    def alien_killed(self, state: GalaxyState, alien: AlienState, events: list[Event]) -> None:
        """A mission may put a dead alien's card in the Warehouse instead of the discard pile."""
        ...

    def apply_effect(
        self, state: GalaxyState, effect: dict[str, object], dice: Dice, events: list[Event]
    ) -> None: ...

    def apply_preset(self, options: dict[str, str]) -> str: ...

    def area_heal_targets(self, state: GalaxyState, target: AgentState) -> list[AgentState]:
        """8.5: the healed agent and every other agent (not battle drones) in his Area."""
        ...

    def arrived(self, state: GalaxyState, alien: AlienState, events: list[Event]) -> None:
        """A Master enters play: its base is laid out and the Alpha Agent takes the Menace token."""
        ...

    def attack(
        self,
        state: GalaxyState,
        agent: AgentState,
        index: int,
        key: str,
        dice: Dice,
        events: list[Event],
    ) -> None:
        """The agent's normal attack on an object: the Hit roll as usual, no Defend roll."""
        ...

    def attack_roll(
        self,
        state: GalaxyState,
        agent: AgentState,
        w: Weapon,
        count: int,
        dice: Dice,
        *,
        alien_tech: bool,
        extra_blue: bool = ...,
        reroll_alien: bool = ...,
    ) -> combat.HitRoll: ...

    def balanced_teleports(self, state: GalaxyState, balance: str, events: list[Event]) -> int: ...

    def becomes_free(self, state: GalaxyState, agent: AgentState, what: str) -> bool:
        """Whether the Action `/act what:<what>` is a Free Action for this agent now."""
        ...

    def begin_mission(self, state: GalaxyState, mission: Mission, dice: Dice) -> None: ...

    def blocked(self, state: GalaxyState, pair: list[tuple[int, int]]) -> bool:
        """Whether this locked side is held by a BLOCK token (no Bash opens it)."""
        ...

    def blue_choice_open(self, state: GalaxyState, agent: AgentState, w: Weapon) -> bool:
        """9.2: a RED+BLUE weapon with added Hit dice lets the attacker pick their colour."""
        ...

    def body_tokens(self, state: GalaxyState) -> list[tuple[tuple[int, int], str]]:
        """(hex, alien id) for every hex of a multi-hex base other than the figure's own (11.8)."""
        ...

    def bolt_effects(self, w: Weapon, bolt: bool) -> tuple[str, ...]:
        """The expansion Bolt effects this roll triggers (Lethal, Critical N)."""
        ...

    def bolts_blocked(self, state: GalaxyState, figure: str) -> bool:
        """A Critical 'no Bolt effects' token is on this figure."""
        ...

    def build_deck(
        self, stacks: list[list[str]], dice: Dice, set_aside: list[str] | None = ...
    ) -> list[str]:
        """The deck top first: stack 1 shuffled, then stack 2 shuffled, ..."""
        ...

    def catalogue(self) -> Mapping[str, DeviceCard]:
        """The expansion's device tokens by key (16 tokens in all, counting copies)."""
        ...

    def close_encounters(self) -> dict[str, CloseEncounter]:
        """Every Close Encounter card of the expansion (the box's 24: `decks.encounters`)."""
        ...

    def closest(self, state: GalaxyState, alien: AlienState, spot: tuple[int, int]) -> AlienState:
        """The unit's figure closest to `spot` (walking Areas, then hexes, then arrival)."""
        ...

    def combat_refresh(
        self, state: GalaxyState, dice: Dice, events: list[Event]
    ) -> list[AlienState]: ...

    def condition(self, state: GalaxyState, cond: str) -> bool: ...

    def objective_counts(self, state: GalaxyState) -> list[tuple[str, str]]:
        """The expansion mission's own objective counters, as (name, count in words)."""
        ...

    def controller_for(self, state: GalaxyState, card_id: str) -> str | None:
        """A Master's card goes to the Alpha Agent (None: the normal assignment)."""
        ...

    def debrief(
        self, state: GalaxyState, dice: Dice, events: list[Event]
    ) -> tuple[str, int] | None: ...

    def decoys(self, state: GalaxyState, alien: AlienState) -> dict[str, Coord]: ...

    def closing_advice(
        self, state: GalaxyState, agent: AgentState, actions: list[Action]
    ) -> Action | None:
        """The advisor's use of his unused Action before he ends his turn (None: end it)."""
        ...

    def default_armory(self, state: GalaxyState) -> str: ...

    def default_choice(self, state: GalaxyState) -> str:
        """The answer to an open Strikeback prompt when its answer window closes."""
        ...

    def defence_dice(self, state: GalaxyState, agent: AgentState, kind: str) -> int:
        """Extra (or, negative, fewer) Defend dice his pose gives against this attack."""
        ...

    def deliver_armory(self, state: GalaxyState, dice: Dice, events: list[Event]) -> bool: ...

    def device_names(self, state: GalaxyState, agent_id: str) -> list[str]:
        """The expansion devices the agent holds, by name (his sheet lists them with the core's)."""
        ...

    def do(
        self,
        state: GalaxyState,
        agent: AgentState,
        what: str,
        args: dict[str, str],
        dice: Dice,
        events: list[Event],
    ) -> None: ...

    def do_action(
        self, state: GalaxyState, agent: AgentState, what: str, events: list[Event]
    ) -> None: ...

    def do_order(
        self, state: GalaxyState, agent: AgentState, order: str, events: list[Event]
    ) -> None: ...

    def do_pose(
        self, state: GalaxyState, agent: AgentState, new: str, events: list[Event]
    ) -> None: ...

    def drone_profile(self, key: str) -> AgentProfile | None:
        """The profile printed on a device tile (Vigil, GD-5) or the Hologram's."""
        ...

    def drone_weapon(self, key: str) -> Weapon | None: ...

    def drop(self, state: GalaxyState, agent: AgentState, key: str) -> None:
        """A rank lost (death) takes its Psionic Power back to the pool."""
        ...

    def effect_of(self, key: str) -> str: ...

    def end_of_turn(
        self, state: GalaxyState, agent: AgentState, dice: Dice, events: list[Event]
    ) -> None:
        """The controller's turn ends: NPCs not yet activated act now; all are ready again."""
        ...

    def end_turn(self, state: GalaxyState, agent: AgentState, events: list[Event]) -> None: ...

    def entered(
        self, state: GalaxyState, agent: AgentState, h: Hex, dice: Dice, events: list[Event]
    ) -> None:
        """An agent steps onto a hex during his Movement (face-down Waypoints, dropped items)."""
        ...

    def enters_play(self, state: GalaxyState, card_id: str) -> None: ...

    def event_effects(self, state: GalaxyState, event: EventCard) -> list[dict[str, object]]: ...

    def event_phase(self, state: GalaxyState, dice: Dice, events: list[Event]) -> bool:
        """True when the mission ran this Event phase its own way (no card is drawn)."""
        ...

    def events(self) -> dict[str, EventCard]: ...

    def expansion_alien(self, card_id: str) -> AlienCard: ...

    def expansion_badges(self, state: GalaxyState, figure: str) -> list[str]: ...

    def expansion_weapon(self, key: str) -> Weapon:
        """An expansion weapon by key, else an NPC's (`world.weapon` falls back here)."""
        ...

    def explosion_targets(
        self, state: GalaxyState, target: AlienState | AgentState, attacker: AgentState | None
    ) -> list[str]: ...

    def exposed(self, state: GalaxyState, alien: AlienState) -> bool: ...

    def falls(self, state: GalaxyState, alien: AlienState, events: list[Event]) -> bool: ...

    def figures(self, state: GalaxyState, alien: AlienState) -> list[AlienState]:
        """The unit's living figures, this one first."""
        ...

    def finish_choice(self, state: GalaxyState, option: str, events: list[Event]) -> None:
        """The Alpha Agent names one of the tied aliens to activate."""
        ...

    def finish_recall(self, state: GalaxyState, option: str, events: list[Event]) -> None: ...

    def fits(self, state: GalaxyState, alien: AlienState, head: Hex) -> bool:
        """The whole base can stand with its head on `head`."""
        ...

    def fits_card(self, state: GalaxyState, alien: AlienState, match: dict[str, object]) -> bool:
        """The expansion's own matches: `healthy` (no wound) and `position` (engaged / lurking)."""
        ...

    def flies(self, state: GalaxyState, agent: AgentState) -> bool: ...

    def follow(self, state: GalaxyState, actor: AlienState, events: list[Event]) -> None: ...

    def friendly_defends(
        self,
        state: GalaxyState,
        friend: AgentState,
        hits: int,
        def_minus: int,
        kind: str,
        sb_effects: tuple[str, ...],
        dice: Dice,
        events: list[Event],
    ) -> int: ...

    def gain_text(self, state: GalaxyState, rank: int, core_text: str) -> str: ...

    def generic_in_warehouse(self, state: GalaxyState) -> list[str]:
        """2.2: the expansion's Generic devices join the core box's (search, Reinforcements)."""
        ...

    def grant_psionic(
        self, state: GalaxyState, agent: AgentState, rank: int, dice: Dice, events: list[Event]
    ) -> None: ...

    def hand(self, state: GalaxyState, agent: AgentState, key: str) -> None: ...

    def handles(self, state: GalaxyState, what: str) -> bool:
        """Whether `/act what:<what>` is a device or a special action of this mission."""
        ...

    def hunted(
        self, state: GalaxyState, alien: AlienState, agents: list[AgentState], events: list[Event]
    ) -> list[AgentState]:
        """The agents the A.I. may consider: only the Menacing Agent for an Archenemy stage."""
        ...

    def immune(self, alien: AlienState, condition: str) -> bool: ...

    def is_burrower(self, alien: AlienState) -> bool:
        """An alien whose card has the Burrowing power (expansion cards only)."""
        ...

    def is_device(self, what: str) -> bool: ...

    def is_free(self, what: str) -> bool: ...

    def is_order(self, text: str) -> bool:
        """A standing order for an NPC: `<npc>-target-...` or `<npc>-tactic-...`."""
        ...

    def is_psionic(self, what: str) -> bool: ...

    def is_suit_weapon(self, key: str) -> bool: ...

    def may_replace(self, old: str, new: str) -> bool:
        """Whether a carried weapon may give way to a new one during a mission."""
        ...

    def keep_at_headquarters(self, state: GalaxyState, key: str, events: list[Event]) -> None: ...

    def knows_alien_tech(self, agent: AgentState) -> bool: ...

    def left_play(self, state: GalaxyState, events: list[Event]) -> None: ...

    def legal(self, state: GalaxyState, agent: AgentState) -> list[Action]:
        """Every Free Action open to the agent now (none outside the layer or off the map)."""
        ...

    def legal_actions(self, state: GalaxyState, agent: AgentState) -> list[Action]: ...

    def legal_attacks(self, state: GalaxyState, agent: AgentState) -> list[Action]: ...

    def lift(self, state: GalaxyState, alien: AlienState) -> None:
        """The figure leaves the battlefield: its base goes with it."""
        ...

    def lit_marks(self, state: GalaxyState) -> dict[str, str]:
        """Map marks the board shows with a mission token now (mark -> token)."""
        ...

    def next_mission(self, state: GalaxyState) -> None:
        """A new mission: the expansion's part of the state starts afresh (what it keeps
        from one mission to the next stays)."""
        ...

    def mine(self, state: GalaxyState, agent: AgentState) -> list[AgentState]: ...

    def missions(self) -> Mapping[str, Mission]: ...

    def move_bonus(self, state: GalaxyState, agent: AgentState) -> int: ...

    def multi(self, state: GalaxyState, alien: AlienState) -> bool: ...

    def name_of(self, key: str) -> str:
        """A device's name, core or expansion."""
        ...

    def needed(self, state: GalaxyState, rank: int, core: dict[int, int]) -> int:
        """GD results needed to reach `rank`."""
        ...

    def new_campaign(self) -> CampaignState: ...

    def npc_arrive(
        self,
        state: GalaxyState,
        h: Hex,
        dice: Dice,
        events: list[Event],
        why: str,
        controller: str | None = ...,
    ) -> None:
        """An NPC enters play at `h` (a revealed NPC Signal, or an event naming its player)."""
        ...

    def npc_orders(self, state: GalaxyState, agent: AgentState) -> list[str]:
        """Standing orders the controller may change now, for each of his NPCs."""
        ...

    def npc_profile(self, figure: str) -> AgentProfile: ...

    def offer_armory(self, state: GalaxyState, events: list[Event]) -> bool: ...

    def on_death(self, state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
        """9.5.2.3: when the pilot dies, his suit is destroyed."""
        ...

    def options(
        self, state: GalaxyState, agent: AgentState, rank: int, skills: list[str]
    ) -> list[str]: ...

    def orders(self, state: GalaxyState, agent: AgentState) -> list[str]:
        """The pose orders open to him now (`pose-<name>`)."""
        ...

    def panel_lines(self, state: GalaxyState, agent_id: str) -> list[str]:
        """The agent sheet's lines for his Psionic Powers (and a power's Flying this turn)."""
        ...

    def part(self, state: GalaxyState) -> ExpansionPart:
        """The expansion's part of the state (the game plays expansion rules)."""
        ...

    def penalty(self, state: GalaxyState, figure: str, effect: str) -> int:
        """A held Critical's X for def / atk / move / hp (0 in a core game)."""
        ...

    def play_advice(
        self, state: GalaxyState, agent: AgentState, actions: list[Action]
    ) -> Action | None:
        """The mission's own advice (its objectives), before the core advisor's."""
        ...

    def play_do_action(
        self,
        state: GalaxyState,
        agent: AgentState,
        what: str,
        args: dict[str, str],
        dice: Dice,
        events: list[Event],
    ) -> None: ...

    def play_finish_choice(self, state: GalaxyState, option: str, events: list[Event]) -> None: ...

    def play_legal_actions(self, state: GalaxyState, agent: AgentState) -> list[Action]: ...

    def powers_flies(self, state: GalaxyState, agent: AgentState) -> bool:
        """Levitation used this turn: his Movement ignores Barrier sides."""
        ...

    def powers_legal_actions(self, state: GalaxyState, agent: AgentState) -> list[Action]:
        """Every Psionic Power use open to the agent now, with its targets."""
        ...

    def powers_refresh(self, state: GalaxyState, events: list[Event]) -> None: ...

    def progress_lines(self, state: GalaxyState) -> list[str]:
        """The campaign panel for a Strikeback campaign."""
        ...

    def prompt_advice(
        self, state: GalaxyState, kind: str, seat: str, options: list[str]
    ) -> str | None:
        """The advisor's answer to a core prompt (a promotion, the Alpha Agent) where the
        expansion knows better; None: the core advisor's answer."""
        ...

    def promotion_kind(self, state: GalaxyState, rank: int, core: dict[int, str]) -> str: ...

    def psionics(self) -> Mapping[str, PsionicCard]:
        """The ten Psionic Powers (9.7.2)."""
        ...

    def quiet_signals(self, state: GalaxyState) -> bool:
        """This mission's Event phases neither teleport nor move Signals (mission 6)."""
        ...

    def rank_name(self, rank: int, expansion: bool) -> str: ...

    def reached(self, state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
        """An agent (not a drone) steps onto a hex: a token there is taken and discarded."""
        ...

    def reinforcements(self, state: GalaxyState, dice: Dice, events: list[Event]) -> bool: ...

    def require(self, section: str) -> None:
        """Refuse play that needs a section the engine does not implement yet."""
        ...

    def rerolls_alien(self, agent: AgentState, w: Weapon) -> bool:
        """Alien Resonance: Alien faces are rolled once more with an Alien weapon."""
        ...

    def rules(self, state: GalaxyState) -> MissionRuleSet:
        """The rules of the mission being played."""
        ...

    def select(
        self, state: GalaxyState, card_id: str, match: dict[str, object], events: list[Event]
    ) -> bool: ...

    def settle(self, state: GalaxyState, alien: AlienState) -> None:
        """Lay the rest of the base next to the head (after a move or an arrival)."""
        ...

    def skills(self) -> dict[str, Power]:
        """The three Alien Knowledge skills (9.7.1), in the core skill format."""
        ...

    def species(self) -> dict[str, str]: ...

    def stand(self, state: GalaxyState, agent: AgentState, events: list[Event], why: str) -> None:
        """Moved outside his Movement activity: back to Standing."""
        ...

    def standalone_rank(self, state: GalaxyState) -> int:
        """The briefing's standalone rank (the mission's `rank` field), 0 when it gives none."""
        ...

    def start(self, state: GalaxyState, dice: Dice) -> None:
        """5.1 and 5.2 at the campaign's start: GD Headquarters' weapons; Gold for everyone."""
        ...

    def tie_broken(self, state: GalaxyState) -> None:
        """The Alpha Agent's pick for an "activate X aliens" card is made: it waits no more."""
        ...

    def start_turn(self, state: GalaxyState, agent: AgentState) -> None: ...

    def step_cost(self, state: GalaxyState, agent: AgentState) -> int | None:
        """Movement points per hex in his pose (1 without the option)."""
        ...

    def strike_decoy(
        self,
        state: GalaxyState,
        alien: AlienState,
        token: str,
        kind: str,
        dice: Dice,
        events: list[Event],
    ) -> None: ...

    def suit_header(self, state: GalaxyState) -> str:
        """Every suit in play or at Headquarters, with its Batteries."""
        ...

    def suit_lines(self, state: GalaxyState, agent_id: str) -> list[str]: ...

    def suit_tokens(self, state: GalaxyState) -> list[TokenView]:
        """An empty suit on the map: a `power-suit` token labelled with its number."""
        ...

    @property
    def suits_ACTIONS(self) -> tuple[str, ...]: ...

    def suits_advice(
        self, state: GalaxyState, agent: AgentState, actions: list[Action]
    ) -> Action | None: ...

    def suits_do_action(
        self,
        state: GalaxyState,
        agent: AgentState,
        what: str,
        args: dict[str, str],
        dice: Dice,
        events: list[Event],
    ) -> None: ...

    def suits_legal_actions(self, state: GalaxyState, agent: AgentState) -> list[Action]: ...

    def suits_refresh(self, state: GalaxyState, events: list[Event]) -> None: ...

    def suits_settle(self, state: GalaxyState, events: list[Event]) -> None:
        """After each step of an Agent turn: a Seize ends with the carrier's Movement."""
        ...

    def switch_on(self, state: GalaxyState, high_impact: bool) -> None:
        """The game plays expansion rules from now on: its part of the state starts empty."""
        ...

    def swarm_arrive(self, state: GalaxyState, alien: AlienState, events: list[Event]) -> None:
        """A Prime Swarm card entering play brings its second figure next to the first."""
        ...

    def tokens(self, state: GalaxyState) -> list[tuple[str, str]]:
        """(hex label, kind) of the tokens on the map, for the view."""
        ...

    def top_rank(self, state: GalaxyState) -> int: ...

    def turn_over(self, state: GalaxyState, seat: str, events: list[Event]) -> None: ...

    def units(self, state: GalaxyState, aliens: list[AlienState]) -> list[AlienState]:
        """One figure per unit (the earliest in the list stands for its Prime Swarm)."""
        ...

    def use(
        self,
        state: GalaxyState,
        agent: AgentState,
        args: dict[str, str],
        dice: Dice,
        events: list[Event],
    ) -> None:
        """`/act what:<psionic power>`: check, spend the activity of its type, apply, flip."""
        ...

    def uses_table(self, state: GalaxyState) -> bool:
        """The expansion's table is in force on an Operation Strikeback mission."""
        ...

    def warehouse(self, state: GalaxyState) -> list[Weapon]:
        """Expansion weapons that join the core Warehouse's cups (only with the layer on)."""
        ...

    def weapon_pool(self, state: GalaxyState, tier: str = ...) -> list[str]: ...

    def worn(self, state: GalaxyState, agent_id: str) -> WornSuit | None:
        """The suit this agent wears (None in a core game or out of a suit)."""
        ...

    def wounded_by(
        self, state: GalaxyState, alien: AlienState, by: AgentState, events: list[Event]
    ) -> None:
        """An agent's attack wounded this alien: a Master's Menace token moves (11.3.1)."""
        ...


_LOADED: list[ExpansionHooks] = []


def install(expansion: ExpansionHooks) -> None:
    """Load `expansion` (once); the core asks it from then on."""
    if not any(loaded is expansion for loaded in _LOADED):
        _LOADED.append(expansion)


def expanded(state: GalaxyState) -> bool:
    """The game plays expansion rules: its state carries the expansion's own part."""
    return state.expansion is not None


def own(state: GalaxyState) -> ExpansionPart:
    """The expansion's part of the state, where the game plays expansion rules."""
    return hooks().part(state)


def loaded() -> tuple[ExpansionHooks, ...]:
    """Every installed expansion (none: the core game alone)."""
    return tuple(_LOADED)


def hooks() -> ExpansionHooks:
    """The loaded expansion: asked only where a game state carries expansion rules."""
    if not _LOADED:
        raise NotSupportedYet("This game needs an expansion that is not loaded.")
    return _LOADED[0]
