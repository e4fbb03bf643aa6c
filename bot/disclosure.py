"""What the table may show in public: the one place that decides it.

The rule (docs/architecture.md, "Hidden information"): every public artefact — a post's text,
its buttons (labels and the commands they carry), images and their alt text, the text board,
`/log` lines, mirror copies, digests, mentions, the live export and the invocation line of a
command — is built only from the public view (`game.view(state, None)`) and public events
(`visible_to is None`). What only a seat may know reaches that seat privately: an ephemeral
reply, or a public button that merely opens such a reply for that seat (`/hand`).

The table's code asks this module instead of filtering on its own, so the rule lives here:

- `public_events`, `public_texts`: what a post, the log, a digest or a catch-up may narrate.
- `holds_secrets`: whether a seat knows something nobody else does (its private view lines).
- `public_buttons`: a question's answers become public buttons only when the answering seat
  holds no secret and they are few; otherwise one button opens that seat's private panel
  (a long list, like a rank-up's tactics, one private select with names and effects).
- `private_answers`: the buttons of that panel, offered only to the seat's player.
- `answered_privately` / `invocation_is_public`: commands whose options may name a hidden
  card or order (`/choose`, `/act`, `/orders`, `/hand`) never show their invocation; their
  public outcome is posted by the bot in the channel.
- `stand_in_events`: the note when the table plays for a seat (autopilot, a closed window)
  names the command only when it cannot carry a secret.
- `log_line`: one `/log` line from public events, with the command's options only when its
  invocation is public.
- `seat_conflict`: nobody holds (or takes after having held) a seat on the side opposing
  another of theirs, so one user never sees both sides' secrets.
"""

from __future__ import annotations

import json
from typing import Any

from bot.markup import mention
from bot.names import VERB_WORDS, SeatNames, action_words, seat_name
from bot.replies import Button
from engine.core.events import Event, Note, parse_events
from engine.core.game import Action, Game, Prompt

# Commands whose options may name a hidden card, a hidden choice or a standing order.
ANSWERED_PRIVATELY = frozenset({"choose", "act", "orders", "hand", "pick"})
# Discord: 25 buttons a message (five rows of five); four are the turn buttons.
MAX_PUBLIC_CHOICES = 20
MAX_PRIVATE_CHOICES = 20  # four rows of five buttons (Discord allows five rows)
PRIVATE_PANEL = "/hand"
# Answers shown as public buttons under a question; more open one private select instead.
MAX_INLINE_ANSWERS = 4
CHOOSE_PANEL = "/pick kind:choose"


def command_verb(text: str) -> str:
    """The command name of a typed slash command (`/choose option:x` -> `choose`)."""
    head = text.strip().removeprefix("/").split(maxsplit=1)
    return head[0].lower() if head else ""


def answered_privately(verb: str) -> bool:
    return verb.lower() in ANSWERED_PRIVATELY


def invocation_is_public(text: str) -> bool:
    """Whether the channel may see the command as typed (Discord's "used /..." line, the
    playground's feed). A command that may carry a secret stays with its author."""
    return not answered_privately(command_verb(text))


def public_events(events: list[Event]) -> list[Event]:
    return [e for e in events if e.visible_for(None)]


def public_texts(events: list[Event]) -> list[str]:
    return [e.text for e in events if e.text and e.visible_for(None)]


def private_texts(events: list[Event], roles: set[str]) -> list[str]:
    """Lines only the given seats may read (shown to their player in private)."""
    return [
        e.text
        for e in events
        if e.text and not e.visible_for(None) and any(e.visible_for(r) for r in roles)
    ]


def holds_secrets(game: Game[Any], state: Any, role: str) -> bool:
    """A seat holds a secret when its own view has private lines (a hand, hidden orders)."""
    return bool(game.view(state, role).private)


def _choices(game: Game[Any], state: Any, role: str) -> list[Action]:
    return [a for a in game.legal_actions(state, role) if a.verb == "choose"]


def _answer(action: Action, role: str | None = None, names: SeatNames | None = None) -> Button:
    label = action_words(action)
    return Button(for_whom(label, [role] if role else [], names), action.command(), "success")


def for_whom(label: str, roles: list[str], names: SeatNames | None = None) -> str:
    """A button only some seats' players may use says whose it is, by the seats' names:
    `End turn · Chromium (Marine)`."""
    if not roles:
        return label
    return f"{label} · {', '.join(seat_name(names, r) for r in roles)}"[:80]


def _vote_buttons(
    game: Game[Any], state: Any, seats: list[str], names: SeatNames | None
) -> list[Button]:
    """A vote's answers, one button per answer naming every seat that may give it (not one
    row per seat); a long list keeps its first answer (the engine lists agreeing to the
    proposal first) and opens the rest in one private select."""
    answers: dict[str, tuple[Action, list[str]]] = {}
    for role in seats:
        for action in _choices(game, state, role):
            answers.setdefault(action.command(), (action, []))[1].append(role)
    shown = list(answers.values())
    if len(shown) > MAX_INLINE_ANSWERS:
        first, roles = shown[0]
        return [
            Button(for_whom(action_words(first), roles, names), first.command(), "success"),
            Button(for_whom("Other answers", seats, names), CHOOSE_PANEL, "success"),
        ]
    return [
        Button(for_whom(action_words(a), roles, names), a.command(), "success")
        for a, roles in shown
    ]


def public_buttons(
    game: Game[Any],
    state: Any,
    prompt: Prompt,
    undo_seat: str | None = None,
    names: SeatNames | None = None,
) -> list[Button]:
    """The buttons under a public post: a question's answers when they are public (every
    one of them, or as many as fit and a way to the rest), the private panel of a seat that
    holds secrets, then the turn buttons, each saying which seats it is for. Undo appears only
    when the step just shown can be taken back, and names the seat whose action it was."""
    if prompt.finished:
        return []
    buttons: list[Button] = []
    seats = list(prompt.seats)
    if prompt.kind == "vote" and not any(holds_secrets(game, state, r) for r in seats):
        buttons = _vote_buttons(game, state, seats, names)
    elif prompt.kind in ("choice", "vote"):
        for role in seats:
            answers = _choices(game, state, role)
            if holds_secrets(game, state, role):
                label = for_whom("Answer in private", [role], names)
                buttons.append(Button(label, PRIVATE_PANEL, "success"))
            elif len(answers) > MAX_INLINE_ANSWERS or prompt.personal:
                # A long list, or a seat's own build choice (a rank-up's tactic or skill): one
                # private select, each answer with its name and effect, not public buttons.
                buttons.append(Button(for_whom("Choose", [role], names), CHOOSE_PANEL, "success"))
            else:
                buttons += [_answer(a, role, names) for a in answers]
        if len(buttons) > MAX_PUBLIC_CHOICES:
            rest = Button(for_whom("More answers", seats, names), CHOOSE_PANEL, "success")
            buttons = [*buttons[: MAX_PUBLIC_CHOICES - 1], rest]
    ending = end_turn(game, state, seats)
    return [
        *buttons,
        Button(for_whom("Pick an action", seats, names), "/pick", "primary"),
        *([Button(for_whom("End turn", ending[1], names), ending[0], "primary")] if ending else []),
        *([Button(for_whom("Undo", [undo_seat], names), "/undo")] if undo_seat else []),
        Button("Board", "/board"),
    ]


def end_turn(game: Game[Any], state: Any, seats: list[str]) -> tuple[str, list[str]] | None:
    """The End turn button's command and the waiting seats it is legal for (only those are
    named on it: a seat that must first do something, like Reichbusters' pending card effects,
    is left off); None when no waiting seat may end. The command is the one way to end, or
    plain `/end-turn` where the game takes it for the whole seat."""
    enders = {
        role: [a.command() for a in game.legal_actions(state, role) if a.verb == "end-turn"]
        for role in seats
    }
    commands = list(dict.fromkeys(c for role in seats for c in enders[role]))
    if "/end-turn" in commands:
        command = "/end-turn"
    elif len(commands) == 1:
        command = commands[0]
    else:
        return None
    return command, [role for role in seats if command in enders[role]]


def private_answers(game: Game[Any], state: Any, prompt: Prompt, roles: set[str]) -> list[Button]:
    """For a player's private panel: the answers their seats may give to the question now, and
    what a seat the game is not waiting on may do out of turn (an any-time card)."""
    if prompt.finished:
        return []
    buttons: list[Button] = []
    for role in sorted(roles):
        if role not in prompt.seats or prompt.private:
            # Out of turn, or a question asked in private: every answer (a card, a pass).
            buttons += [_answer(a) for a in game.legal_actions(state, role)]
        elif prompt.kind == "choice":
            buttons += [_answer(a) for a in _choices(game, state, role)]
    if len(buttons) > MAX_PRIVATE_CHOICES:
        more = Button("More (pick from menus)", "/pick", "success")
        buttons = [*buttons[: MAX_PRIVATE_CHOICES - 1], more]
    return buttons


def stand_in_events(
    game: Game[Any], state: Any, who: str, role: str, action: Action, names: SeatNames | None = None
) -> list[Event]:
    """The note when the table plays for a seat: what it chose only if that is public."""
    seat = seat_name(names, role)
    if answered_privately(action.verb) and holds_secrets(game, state, role):
        return [
            Note(text=f"{who} plays for {seat}."),
            Note(text=f"{who} played for you: {action_words(action)}", visible_to=[role]),
        ]
    return [Note(text=f"{who} plays for {seat}: {action_words(action)}")]


def shown_command(action_json: str) -> str:
    """A logged action as the public may read it: options only for public commands (the
    campaign export keeps it; people read `shown_action`)."""
    action = Action.model_validate_json(action_json)
    return f"/{action.verb}" if answered_privately(action.verb) else action.command()


def shown_action(action_json: str) -> str:
    """A logged action in words, as the public may read it: the verb as a player says it
    ("moves", "sets a standing order"); what exactly is told by the step's narration."""
    action = Action.model_validate_json(action_json)
    return VERB_WORDS.get(action.verb, action.verb.replace("-", " "))


STEP_KINDS = {"begin": "the mission begins", "undo": "a step taken back", "end": "the end"}


def log_line(
    seq: int,
    kind: str,
    seat: str | None,
    action_json: str,
    events_json: str,
    names: SeatNames | None = None,
) -> str:
    """One `/log` line: who acted (by the seat's name) and the step's public narration."""
    texts = public_texts(parse_events(json.loads(events_json)))
    who = seat_name(names, seat) if seat else STEP_KINDS.get(kind, kind.replace("-", " "))
    if not texts and kind == "action":
        texts = [shown_action(action_json)]
    return f"`#{seq}` {who}: " + (" ".join(texts)[:300] or "-")


# ---------------------------------------------------------------------- seats

# Roles that play alone against every other seat of their game and keep cards from them.
# (The engine's RoleInfo has no notion of sides yet; this is the table's knowledge of it.)
LONE_OPPONENTS: dict[str, frozenset[str]] = {"forlorn-hope": frozenset({"xeno"})}


def opposed(game_key: str, role: str, other: str) -> bool:
    """Whether two seats of a game play against each other (one keeps secrets from the other)."""
    lone = LONE_OPPONENTS.get(game_key, frozenset())
    return role != other and (role in lone or other in lone)


def has_opponents(game_key: str, seats: list[tuple[str, str]]) -> bool:
    """Whether two different players hold seats that play against each other."""
    held = [(role, user) for role, user in seats if user]
    return any(
        opposed(game_key, role, other) and user != holder
        for role, user in held
        for other, holder in held
    )


def held_by(settings_json: str) -> list[str]:
    """The users who have held a seat since the campaign was created (its seat settings)."""
    users = json.loads(settings_json or "{}").get("held_by", [])
    return [str(u) for u in users] if isinstance(users, list) else []


def with_holder(settings_json: str, user_id: str) -> str:
    """Seat settings that remember one more holder."""
    settings = json.loads(settings_json or "{}")
    users = held_by(settings_json)
    if user_id not in users:
        users.append(user_id)
    settings["held_by"] = users
    return json.dumps(settings, sort_keys=True)


def seat_conflict(
    game_key: str, role: str, user_id: str, seats: list[tuple[str, str, str]]
) -> str | None:
    """Why `user_id` may not take `role`, or None. `seats` are (role, holder, settings_json).

    Nobody holds, or takes after having held, a seat playing against another of theirs: one
    user would see both sides' secrets.
    """
    for other, holder, settings_json in seats:
        if not opposed(game_key, role, other):
            continue
        if holder == user_id or user_id in held_by(settings_json):
            now = "holds" if holder == user_id else "has held"
            return (
                f"{mention(user_id)} {now} **{other}**, which plays against **{role}** with hidden "
                "cards: one player may not see both sides."
            )
    return None
