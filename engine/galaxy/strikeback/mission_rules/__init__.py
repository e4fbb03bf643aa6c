"""Each Operation Strikeback mission's own rules (storybook 7), one module per mission.

A storybook mission adds to the game: Special Event effects only it uses, mission special
actions (`/act what:<verb>`), objective conditions, choices for the Alpha Agent, a rule run
after every Event phase, and the advisor's moves for all of it. `MissionRules` names those
hooks with neutral defaults; a mission module defines one subclass with `key` set to its
mission's key and, when the mission keeps state of its own, a `MissionState` subclass
(`status.py`) named in `state`; it ends with `register(<its rules>())`, and
`rules_for(key)` finds it. `catalogue.py` imports every mission module (one line each), so
adding a mission adds its files and that one line. The generic Special Event effects (placing
aliens, Teleport Points, Close Encounter cards, devices) stay in `play.py`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Note
from engine.core.game import Action
from engine.core.hexgrid import Hex
from engine.galaxy.content import Mission
from engine.galaxy.state import AgentState, AlienState, Coord, GalaxyState, Pending
from engine.galaxy.strikeback import layer
from engine.galaxy.strikeback.status import MissionState, register_mission_state
from engine.galaxy.world import alien_name

# The Special Event effects play.py runs for every mission (a mission adds its own `effects`)
GENERIC_EFFECTS = (
    "hazard-marks",
    "place-alien",
    "place-tp",
    "ce-shuffle",
    "ce-top",
    "teleport-at",
    "npc-to-alpha",
    "device",
    "power-suit",
    "power-suit-hq",
)


class MissionRules:
    """One mission's rules. Every hook is inert by default."""

    key: ClassVar[str] = ""
    section: ClassVar[str] = ""  # the storybook section it implements (`layer.SECTIONS`)
    state: ClassVar[type[MissionState] | None] = None  # the mission's own part of the state
    effects: ClassVar[tuple[str, ...]] = ()  # Special Event effect kinds (`"sb": kind`)
    actions: ClassVar[tuple[str, ...]] = ()  # mission special actions, `/act what:<verb>`
    conditions: ClassVar[tuple[str, ...]] = ()  # prefixes of its objective conditions
    # the words this mission shows players: (term, title, help in our words, <= 100 chars)
    terms: ClassVar[tuple[tuple[str, str, str], ...]] = ()
    # Event phases ignore every effect that teleports or moves Signals (mission 6)
    quiet_signals: ClassVar[bool] = False
    # devices the agents keep when they use them (mission 3: the Jet Boots)
    kept_devices: ClassVar[tuple[str, ...]] = ()

    def begin(self, state: GalaxyState, mission: Mission, dice: Dice) -> None:
        """The mission's setup, after the layer's own."""

    def apply_effect(
        self,
        state: GalaxyState,
        kind: str,
        effect: dict[str, object],
        dice: Dice,
        events: list[Event],
    ) -> None:
        raise RuleError(f"Unknown Special Event effect {kind}.")

    def after_event(self, state: GalaxyState, dice: Dice, events: list[Event]) -> None:
        """The mission's rule for the end of every Event phase."""

    def open_ask(self, state: GalaxyState, ask: str) -> Pending | None:
        """The prompt for a queued choice of this mission (None: nothing to ask, drop it)."""
        return None

    def finish_choice(
        self, state: GalaxyState, pending: Pending, option: str, events: list[Event]
    ) -> bool:
        """Apply the answer to one of this mission's prompts; True when the ask is done."""
        raise RuleError(f"Unknown choice {pending.kind}.")

    def default_choice(self, state: GalaxyState, pending: Pending) -> str:
        """The answer when the answer window closes (the Alpha Agent himself, if offered)."""
        return state.alpha if state.alpha in pending.options else pending.options[0]

    def action_problem(
        self, state: GalaxyState, agent: AgentState, what: str, args: dict[str, str]
    ) -> str | None:
        return "has no such action"

    def do_action(
        self,
        state: GalaxyState,
        agent: AgentState,
        what: str,
        args: dict[str, str],
        dice: Dice,
        events: list[Event],
    ) -> None:
        raise RuleError(f"Unknown mission action {what}.")

    def legal_actions(self, state: GalaxyState, agent: AgentState) -> list[Action]:
        return []

    def offered(
        self,
        state: GalaxyState,
        agent: AgentState,
        candidates: Iterable[tuple[str, dict[str, str], str]],
    ) -> list[Action]:
        """The candidate special actions `(what, args, label)` the agent may take now: exactly
        those `action_problem` accepts, so `legal_actions` and `apply` agree by construction."""
        return [
            Action(verb="act", args={"unit": agent.id, "what": what, **args}, label=text)
            for what, args, text in candidates
            if self.action_problem(state, agent, what, args) is None
        ]

    def condition(self, state: GalaxyState, cond: str) -> bool:
        return False

    def counts(self, state: GalaxyState) -> list[tuple[str, str]]:
        """The mission's own objective counters in words, as (name, count): what the header
        and `/campaign status` show so every objective can be followed."""
        return []

    def reinforcements(self, state: GalaxyState, dice: Dice, events: list[Event]) -> None:
        """The mission's part of Reinforcements in each Strategy phase (queue `asks`)."""

    def entered(
        self, state: GalaxyState, agent: AgentState, h: Hex, dice: Dice, events: list[Event]
    ) -> None:
        """An agent stepped onto `h` during his Movement."""

    def agent_died(self, state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
        """An agent died on his hex (his figure is still there)."""

    def alien_killed(self, state: GalaxyState, alien: AlienState, events: list[Event]) -> None:
        """An alien died (its card is on the discard pile): a mission may remove it from play."""

    def object_destroyed(
        self, state: GalaxyState, key: str, dice: Dice, events: list[Event]
    ) -> None:
        """A mission object (`objects.py`) fell to 0 HP."""

    def tokens(self, state: GalaxyState, seat: str | None) -> list[tuple[str, str, str]]:
        """Extra tokens the board shows to `seat` (None: the public): (hex label, kind, text)."""
        return []

    def lit_marks(self, state: GalaxyState) -> dict[str, str]:
        """Map marks the board shows with a token now (mark -> token, e.g. `flame`)."""
        return {}

    def event_phase(self, state: GalaxyState, dice: Dice, events: list[Event]) -> bool:
        """Run this Event phase the mission's way instead of drawing a card (True), or let
        the card be drawn (False, after any preparation of the deck)."""
        return False

    def turn_over(self, state: GalaxyState, seat: str, events: list[Event]) -> None:
        """The seat's agent turn is over (called as his Aliens turn begins)."""

    def search_open(self, state: GalaxyState) -> bool:
        """Whether the map's Search Areas can be searched now (mission 2: after Event D)."""
        return True

    def decoys(self, state: GalaxyState, alien: AlienState) -> dict[str, Coord]:
        """Mission tokens this alien may target as if agents, always as the most wounded and
        weakest one (token id -> its hex)."""
        return {}

    def strike_decoy(
        self,
        state: GalaxyState,
        alien: AlienState,
        token: str,
        kind: str,
        dice: Dice,
        events: list[Event],
    ) -> None:
        raise RuleError(f"No mission token {token} to attack.")

    def occupant(self, state: GalaxyState, spot: Coord) -> str | None:
        """What of this mission takes up a hex as a figure would (None: nothing)."""
        return None

    def closed(self, state: GalaxyState, spot: Coord) -> bool:
        """Whether a token of this mission keeps figures off the hex."""
        return False

    def kept_out(self, state: GalaxyState) -> tuple[str, ...]:
        """Inoperative agents this mission keeps out of play: no revival for them."""
        return ()

    def advice(self, state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
        """The advisor's move for this mission's goals, or None for the core advisor."""
        return None

    def alpha_advice(self, state: GalaxyState, options: list[str]) -> str | None:
        """The advisor's Alpha Agent when this mission makes the choice matter (None: the
        rulebook's ranking)."""
        return None


NO_RULES = MissionRules()
PACKAGE = "engine.galaxy.strikeback"
_RULES: dict[str, MissionRules] = {}


def register(rules: MissionRules) -> MissionRules:
    """A mission's rules (and its state type) join the game: the one line of its module."""
    known = _RULES.get(rules.key)
    if known is not None and type(known) is not type(rules):
        raise ValueError(f"Mission {rules.key!r} is registered twice")
    _RULES[rules.key] = rules
    if rules.section:
        layer.implement(rules.section, type(rules).__module__.removeprefix(f"{PACKAGE}."))
    if rules.state is not None:
        register_mission_state(rules.key, rules.state)
    return rules


def all_rules() -> list[MissionRules]:
    return [found for _, found in sorted(_RULES.items())]


def rules_for(mission_key: str) -> MissionRules:
    """The mission's own rules; a mission without any gets the inert defaults."""
    return _RULES.get(mission_key, NO_RULES)


def to_warehouse(
    state: GalaxyState, alien: AlienState, warehouse: list[str], events: list[Event]
) -> None:
    """A dead alien's card leaves play: off the discard pile, into the mission's Warehouse."""
    if alien.card in state.alien_deck.discard_pile:
        state.alien_deck.discard_pile.remove(alien.card)
    warehouse.append(alien.card)
    events.append(
        Note(text=f"{alien_name(alien)} is removed from play: its card goes to the Warehouse.")
    )
