"""The contract every rule system implements, and the plain data it exchanges.

A game is data plus pure functions (after boardgame.io): `new` sets up a mission, `apply`
validates and applies one player action, `advance` runs everything automatic until a seat must
decide, `waiting_on` says who that is, `legal_actions` enumerates what they may do, and `view`
is what one seat (or a spectator) may see. None of them mutates the state it is given, and all
randomness comes from the `Dice` passed in.
"""

from __future__ import annotations

import shlex
from typing import Any, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel, Field

from engine.core.dice import Dice
from engine.core.events import Event
from engine.core.view import SummaryView, View

S = TypeVar("S", bound=BaseModel)


class RoleInfo(BaseModel):
    """A seat a scenario offers: `key` is what players type in `/campaign join role:`.

    Roles that share a non-empty `group` exclude each other: a campaign seats at most one role
    of each group (Reichbusters: one Hero per team, the group being the team's name).
    """

    key: str
    name: str
    description: str = ""
    required: bool = True
    group: str = ""


class OptionInfo(BaseModel):
    """A campaign option with its allowed values; the first-listed default applies when unset."""

    key: str
    description: str
    choices: list[str]
    default: str


class ScenarioInfo(BaseModel):
    key: str
    title: str
    summary: str = ""
    roles: list[RoleInfo]
    min_seats: int = 1
    max_seats: int = 1
    options: list[OptionInfo] = Field(default_factory=list)

    def role(self, key: str) -> RoleInfo | None:
        return next((r for r in self.roles if r.key == key), None)

    def clash(self, key: str, held: set[str]) -> RoleInfo | None:
        """The held role that shares `key`'s group (so `key` may not be taken), or None."""
        wanted = self.role(key)
        if wanted is None or not wanted.group:
            return None
        return next(
            (r for r in self.roles if r.key in held and r.key != key and r.group == wanted.group),
            None,
        )

    def resolve_options(self, given: dict[str, str]) -> dict[str, str]:
        """Fill defaults and reject unknown keys or values (ValueError with a player message)."""
        known = {o.key: o for o in self.options}
        for key, value in given.items():
            if key not in known:
                names = ", ".join(sorted(known)) or "none"
                raise ValueError(f"Unknown option '{key}'. Options for {self.key}: {names}.")
            if value not in known[key].choices:
                raise ValueError(f"Option '{key}' must be one of: {', '.join(known[key].choices)}.")
        return {o.key: given.get(o.key, o.default) for o in self.options}


class Action(BaseModel):
    """One concrete thing a seat may do: a verb and its named arguments.

    Verbs map to slash commands (`move`, `attack`, `act`, `orders`, `choose`, `end-turn`);
    `args` are the command's options as typed strings, so `/move unit:sgt to:C4` is
    `Action(verb="move", args={"unit": "sgt", "to": "C4"})`. `label` is the short description
    autocomplete shows; it never takes part in `matches`.
    """

    verb: str
    args: dict[str, str] = Field(default_factory=dict)
    label: str = ""

    def key(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        return self.verb, tuple(sorted(self.args.items()))

    def matches(self, other: Action) -> bool:
        return self.key() == other.key()

    def command(self) -> str:
        """The slash command that performs this action (values with spaces are quoted)."""
        parts = [f"/{self.verb}"] + [f"{k}:{shlex.quote(v)}" for k, v in self.args.items()]
        return " ".join(parts)


class Prompt(BaseModel):
    """Who the game waits on, and for what.

    `default` is what happens if the waited-on seat does not answer in time (a reaction window
    that passes, a vote that falls back to the rulebook's default): the table applies it for
    the seat once the campaign's window closes. `None` means the table waits as long as it
    takes (a player's own turn).

    `private`: the question is answered in private and interrupts another seat's turn (a
    Forlorn reaction window): the table shows it in the open turn post instead of a new one,
    and neither the asked seat nor, once answered, the interrupted seat is pinged.

    `personal`: a seat's own build choice (a rank-up's tactic or skill): the table offers it
    as one private select with each answer's name and effect, however few the answers.
    """

    seats: list[str] = Field(default_factory=list)
    kind: Literal["turn", "choice", "vote", "none"] = "turn"
    text: str = ""
    finished: bool = False
    outcome: str | None = None
    default: Action | None = None
    private: bool = False
    personal: bool = False


class Step(BaseModel, Generic[S]):
    """The result of `apply` or `advance`: the new state and what happened."""

    state: S
    events: list[Event] = Field(default_factory=list)


class Game(Protocol[S]):
    """What the table service, self-play and the renderers rely on."""

    key: str
    title: str

    def scenarios(self) -> list[ScenarioInfo]: ...

    def new(self, scenario: str, seats: list[str], options: dict[str, str], dice: Dice) -> S: ...

    def waiting_on(self, state: S) -> Prompt: ...

    def legal_actions(self, state: S, seat: str) -> list[Action]: ...

    def apply(self, state: S, seat: str, action: Action, dice: Dice) -> Step[S]: ...

    def advance(self, state: S, dice: Dice) -> Step[S]: ...

    def view(self, state: S, seat: str | None) -> View: ...

    def dump(self, state: S) -> dict[str, Any]: ...

    def load(self, data: dict[str, Any]) -> S: ...


class Advisor(Protocol):
    """Optional for a game: suggest a sensible action for a seat.

    Self-play's `--policy advisor` asks for it to measure whether a mission can be won by
    purposeful play (random play rarely wins), and it is the seam for an autopilot that plays
    well. It must be pure and deterministic; `None` means "no opinion" and the caller chooses.
    """

    def advise(self, state: Any, seat: str, actions: list[Action]) -> Action | None: ...


def advisor_of(game: Game[Any]) -> Advisor | None:
    """The game's advisor, when it offers one."""
    return game if callable(getattr(game, "advise", None)) else None  # type: ignore[return-value]


class CampaignSummaries(Protocol):
    """Optional for a game whose campaign plays several missions in one state: the summary of
    the mission played last, asked when one has just ended and the next one is set up (None:
    not in a campaign, or the campaign is over and the View's own summary says it all)."""

    def ended_summary(self, state: Any) -> SummaryView | None: ...


def campaign_summaries_of(game: Game[Any]) -> CampaignSummaries | None:
    """The game's summaries of ended campaign missions, when it keeps them."""
    found = callable(getattr(game, "ended_summary", None))
    return game if found else None  # type: ignore[return-value]


def scenario_info(game: Game[Any], key: str) -> ScenarioInfo:
    """Look a scenario up by key, with a message listing the valid ones."""
    for info in game.scenarios():
        if info.key == key:
            return info
    names = ", ".join(s.key for s in game.scenarios())
    raise ValueError(f"Unknown scenario '{key}' for {game.key}. Scenarios: {names}.")
