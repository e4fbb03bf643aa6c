"""The one description of Sortie's commands: names, options, types, help and completion.

The Discord command tree (`bot/discord/tree.py`), the playground's suggestions
(`bot/playground/suggest.py`) and the text parser (`bot/commands.py`) are all built from
`COMMANDS`, so the three cannot drift apart; `tests/bot/test_schema.py` checks they agree.

Each command has two shapes. On Discord an option is a typed field; in the typed text it is
`name:value`. They are the same except where Discord needs a different form: `/campaign
create` takes the scenario's own options (`difficulty:veteran`) as one `options` field on
Discord, and `/campaign settings` takes `setting` and `value` there but `nudge_hours:24` as
text. Options marked `discord_only` exist only in the Discord shape; `text_keys` names the
text shape's extra keys (checked by the command itself when they depend on the scenario).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.pacing import REMINDER_CHOICES

OptionKind = Literal["text", "integer", "boolean", "user", "channel"]
# Where an option's suggestions come from: the table (legal actions, seats, scenarios,
# rules topics...), the help topics, or nowhere (free text or fixed choices).
Completion = Literal["none", "table", "help"]

MAX_DESCRIPTION = 100  # Discord's limit for command and option descriptions


@dataclass(frozen=True)
class Choice:
    label: str
    value: str


@dataclass(frozen=True)
class Option:
    name: str
    description: str
    kind: OptionKind = "text"
    required: bool = False
    choices: tuple[Choice, ...] = ()
    complete: Completion = "none"
    min_value: int | None = None
    max_value: int | None = None
    discord_only: bool = False


# How a command's typed text may carry keys beyond its declared options.
TextKeys = Literal["declared", "scenario", "settings"]


@dataclass(frozen=True)
class Spec:
    """One command. `path` is what follows the slash: `move`, `campaign create`."""

    path: str
    description: str
    options: tuple[Option, ...] = ()
    # Steps that render or run an enemy phase: Discord acknowledges them at once.
    defers: bool = False
    # The bot must be able to post in the channel by itself (boards, reminders).
    needs_posting: bool = False
    text_keys: TextKeys = "declared"

    @property
    def name(self) -> str:
        return self.path.split(" ")[0]

    @property
    def sub(self) -> str | None:
        parts = self.path.split(" ", 1)
        return parts[1] if len(parts) > 1 else None

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    @property
    def text_options(self) -> tuple[str, ...]:
        """The option names of the typed-text shape."""
        return tuple(o.name for o in self.options if not o.discord_only)


YES = (Choice("yes, I am sure", "yes"),)
AUDIENCE = (Choice("the public board", "all"), Choice("my seat's view, secrets included", "me"))
# Looks answer privately; share:yes posts the public version in the channel for the table.
SHARE = Option(
    "share",
    "Post it in the channel for everyone (otherwise only you see it)",
    choices=(Choice("yes, post it for the table", "yes"),),
)
UNIT = Option("unit", "Which of your figures (when you have several)", complete="table")
SURGE = Option(
    "surge", "yes: pay with the figure's Adrenaline Surge, where the game has one", complete="table"
)

GROUP_DESCRIPTIONS = {"campaign": "Create, join and run a campaign in this channel"}


def _play(name: str, description: str, required: tuple[str, str], *rest: Option) -> Spec:
    """A play verb: every option but fixed-choice ones completes from the legal actions."""
    first = Option(required[0], required[1], required=True, complete="table")
    return Spec(name, description, (first, UNIT, *rest, SURGE), defers=True)


def _legal(name: str, description: str) -> Option:
    return Option(name, description, complete="table")


COMMANDS: tuple[Spec, ...] = (
    # ---------------------------------------------------------------- campaign lifecycle
    Spec(
        "campaign create",
        "Set up a mission in this channel",
        (
            Option("game", "Which game", required=True, complete="table"),
            Option("scenario", "Which mission", required=True, complete="table"),
            Option(
                "options",
                "Extra options as name:value pairs, e.g. difficulty:veteran",
                discord_only=True,
            ),
            Option(
                "thread",
                "Open a thread for the campaign and play there",
                kind="boolean",
                discord_only=True,
            ),
        ),
        needs_posting=True,
        text_keys="scenario",
    ),
    Spec(
        "campaign join",
        "Take a seat in this channel's campaign",
        (_legal("role", "Which seat"),),
    ),
    Spec("campaign leave", "Give up your seat", (_legal("role", "Which seat"),)),
    Spec("campaign begin", "Start the mission (owner)", defers=True, needs_posting=True),
    Spec("campaign status", "Seats, and whose turn it is"),
    Spec(
        "campaign settings",
        "Show or change campaign settings",
        (
            Option(
                "setting",
                "Which setting to change (leave empty to see them all)",
                complete="table",
                discord_only=True,
            ),
            Option("value", "Its new value", complete="table", discord_only=True),
        ),
        text_keys="settings",
    ),
    Spec(
        "campaign end",
        "End this channel's campaign for good",
        (Option("confirm", "Type yes to confirm", choices=YES),),
    ),
    Spec("campaign list", "Campaigns running on this server"),
    Spec("campaign export", "Download the whole campaign as a file"),
    Spec(
        "campaign rollback",
        "Return the campaign to an earlier step",
        (
            Option(
                "to",
                "The step number to return to (see /log)",
                kind="integer",
                required=True,
                min_value=1,
                max_value=1_000_000,
            ),
            Option("confirm", "Type yes to confirm", choices=YES),
        ),
        defers=True,
    ),
    Spec(
        "campaign seat",
        "Hand your seat to a player, or take a free one",
        (
            Option("role", "The seat", required=True, complete="table"),
            Option("to", "Who takes it over (leave out to take it yourself)", kind="user"),
        ),
    ),
    Spec(
        "campaign mirror",
        "Follow this campaign in another channel",
        (
            Option("channel", "The spectator channel", kind="channel"),
            Option("stop", "yes to stop mirroring there", choices=YES),
        ),
    ),
    Spec(
        "campaign web",
        "The campaign's read-only web page: board, timeline, log",
        (Option("reset", "yes: issue a new link, the old one stops working (owner)", choices=YES),),
    ),
    # ---------------------------------------------------------------- play
    _play(
        "move",
        "Move one of your figures",
        ("to", "Where to (only reachable places are offered)"),
        Option(
            "facing",
            "Which way to face at the end, where the game has facing",
            choices=tuple(Choice(f, f) for f in "NESW"),
        ),
    ),
    _play(
        "attack",
        "Attack with one of your figures",
        ("target", "Whom to attack (only valid targets are offered)"),
        _legal("weapon", "Which weapon"),
        _legal("mode", "How to fire, where the weapon allows a choice"),
        _legal("target2", "A second target, for a figure that may attack two at once"),
    ),
    _play(
        "act",
        "A special action, ability, card or device",
        ("what", "What to do (only usable actions are offered)"),
        _legal("target", "On whom or what"),
        _legal("to", "Where to"),
        _legal("weapon", "With which weapon"),
        _legal("using", "Paid with which action"),
        _legal("card", "Which card to play"),
        _legal("drop", "What to drop to make room"),
        _legal("discard", "A card discarded to strengthen the one played, where the game allows"),
    ),
    _play(
        "orders",
        "Give a standing order such as Guard",
        ("order", "Which standing order"),
        _legal("target", "Aimed at whom or where"),
        _legal("aps", "Action points to hold back"),
        _legal("range", "Up to what range"),
        _legal("spin", "Allow turning on the spot"),
        _legal("weapon", "With which weapon"),
        _legal("refuel", "yes: refuel first when the tank runs dry, where the game has one"),
    ),
    Spec(
        "choose",
        "Answer the question the game is asking",
        (
            Option(
                "option",
                "Your answer (the possible answers are offered)",
                required=True,
                complete="table",
            ),
        ),
        defers=True,
    ),
    Spec("end-turn", "You are done for this turn", (UNIT,), defers=True),
    Spec(
        "pick",
        "Pick an action from menus, no typing (only you see it)",
        (
            Option("unit", "Start with this figure", complete="table"),
            Option(
                "kind",
                "Start with this kind of action (move, attack, act:open...)",
                complete="table",
            ),
            Option("page", "Which page of a long list", kind="integer", min_value=1, max_value=100),
        ),
    ),
    Spec("undo", "Take back your last action", defers=True),
    # ---------------------------------------------------------------- looking
    Spec(
        "board",
        "Show the board",
        (
            Option(
                "view",
                "The whole board, a close-up, or a text grid",
                choices=(
                    Choice("whole board", "full"),
                    Choice("close-up around the action", "focus"),
                    Choice("text (for screen readers)", "text"),
                ),
            ),
            Option("for", "Whose view", choices=AUDIENCE),
            SHARE,
        ),
        defers=True,
    ),
    Spec(
        "sheet",
        "A figure's card: profile and state",
        (
            Option("unit", "Which figure", required=True, complete="table"),
            Option("for", "Whose view", choices=AUDIENCE),
            SHARE,
        ),
        defers=True,
    ),
    Spec("hand", "Your private cards, secrets and answers open to you (only you)"),
    Spec(
        "log",
        "Recent steps of the campaign",
        (
            Option(
                "last",
                "How many steps to show (1 to 50)",
                kind="integer",
                min_value=1,
                max_value=50,
            ),
            SHARE,
        ),
    ),
    Spec(
        "rules",
        "A short rules reference for this game",
        (
            _legal("topic", "What to look up"),
            _legal("game", "Another game than this channel's"),
        ),
    ),
    Spec("help", "How to play Sortie", (Option("topic", "Which topic", complete="help"),)),
    # ---------------------------------------------------------------- pacing
    Spec(
        "prefs",
        "Your reminder preferences, for every campaign",
        (
            Option("timezone", "Your time zone, e.g. Europe/Paris"),
            Option("quiet", "Quiet hours as start-end in your time, e.g. 22-7, or off"),
            Option(
                "reminders",
                "Hours before a reminder when it is your turn",
                choices=tuple(Choice(c, c) for c in REMINDER_CHOICES),
            ),
            Option(
                "dm",
                "Reminders by direct message",
                choices=(Choice("on", "on"), Choice("off", "off")),
            ),
        ),
    ),
    Spec(
        "away",
        "Mark yourself away; your seats play safe",
        (Option("for", "How long, e.g. 12h or 3d; off when you are back", required=True),),
        defers=True,
    ),
    Spec(
        "vote",
        "Vote to skip a seat past its deadline",
        (Option("skip", "The seat to skip", required=True),),
        defers=True,
    ),
)

BY_PATH: dict[str, Spec] = {spec.path: spec for spec in COMMANDS}
GROUPS: dict[str, tuple[str, ...]] = {}
for _spec in COMMANDS:
    if _spec.sub is not None:
        GROUPS[_spec.name] = (*GROUPS.get(_spec.name, ()), _spec.sub)
TOP_LEVEL: tuple[str, ...] = tuple(spec.path for spec in COMMANDS if spec.sub is None)
PLAY_VERBS: tuple[str, ...] = ("move", "attack", "act", "orders", "choose", "end-turn")


def spec_of(name: str, sub: str | None = None) -> Spec | None:
    return BY_PATH.get(f"{name} {sub}" if sub else name)
