"""Turn interactions into slash text for the table service, and replies into Discord messages.

Everything here is transport glue: the rules, the checks and the wording live in the service.
What this module owns is Discord's etiquette: acknowledge within 3 seconds (defer when a step
may take long), at most 2000 characters and 10 files per message, attachments within the size
the interaction allows, pings only for the users a reply names, and hidden information only in
ephemeral messages (a public "thinking" placeholder is never filled with a private reply), and
a command whose options may carry a secret (`/choose`, `/act`, `/orders`, `/hand`) is answered
in private while its public outcome is posted in the channel by the bot itself.
"""

from __future__ import annotations

import asyncio
import io
import logging
import shlex
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import aiohttp
import discord
from PIL import Image

from bot.commands import PLAY_VERBS
from bot.delivery import mirror_copies
from bot.disclosure import command_verb, invocation_is_public
from bot.replies import DISCORD_MESSAGE_LIMIT, Attachment, Reply, direct, split_message
from bot.storage.outbox import announce_scope
from bot.table import Caller, TableService
from renders.media import fit_attachments

log = logging.getLogger("sortie.discord")

# A command not known to render still gets deferred if the service has not answered by then;
# Discord drops an interaction that is not acknowledged within 3 seconds.
DEFER_AFTER = 1.5
MAX_FILES = 10
DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024  # a server without boosts
# Dispatched (as `on_sortie_interaction_done`) once an interaction has been fully answered.
DONE_EVENT = "sortie_interaction_done"
PLACEHOLDER = "sortie_placeholder"  # interaction.extras key: a public deferral awaits content
IN_THREAD = "In your private thread, where it stays:"
DELAYED = (
    "Done: your step is made. Discord is slow to take the table's post right now; it will "
    "appear in the channel as soon as Discord allows. No need to repeat the command."
)
CANNOT_POST = (
    "(Done, but I may not post in this channel, so only you see this: a server admin can "
    "give me Send Messages here.)"
)


def posts_a_turn(text: str) -> bool:
    """A step: its public outcome is the bot's turn post (new or edited), not the answer."""
    verb = command_verb(text)
    return verb in PLAY_VERBS or verb == "undo"


def looks_privately(text: str) -> bool:
    """A look (`/board`, `/sheet`, `/log`) without `share:yes` answers its caller only."""
    return command_verb(text) in ("board", "sheet", "log") and "share:yes" not in text.lower()


def caller_of(interaction: discord.Interaction[Any], channel_id: int | None = None) -> Caller:
    permissions = interaction.permissions
    owners = getattr(interaction.client, "owner_ids", None) or set()
    return Caller(
        user_id=str(interaction.user.id),
        user_name=interaction.user.display_name,
        channel_id=str(channel_id or interaction.channel_id),
        guild_id=str(interaction.guild_id) if interaction.guild_id else None,
        # Manage Server in this guild, or one of the bot's owners.
        is_admin=bool(permissions and permissions.manage_guild) or interaction.user.id in owners,
    )


def slash_text(name: str, options: dict[str, Any]) -> str:
    """Rebuild the typed command from an interaction's options (quoted when needed)."""
    parts = [f"/{name}"]
    for key, value in options.items():
        if value is None:
            continue
        text = str(value)
        parts.append(f"{key}:{shlex.quote(text) if text != shlex.quote(text) else text}")
    return " ".join(parts)


# ---------------------------------------------------------------------- attachments


def shrink_image(data: bytes, limit: int) -> bytes | None:
    """A smaller PNG of a still image that fits `limit` bytes, or None if it cannot be done."""
    try:
        with Image.open(io.BytesIO(data)) as opened:
            if getattr(opened, "n_frames", 1) > 1:
                return None  # an animation would lose its frames
            image = opened.convert("RGB")
    except (OSError, ValueError):
        return None
    scale = 1.0
    while scale >= 0.2:
        size = (max(1, int(image.width * scale)), max(1, int(image.height * scale)))
        resized = image.resize(size, Image.Resampling.LANCZOS) if scale < 1 else image
        out = io.BytesIO()
        resized.quantize(colors=128).save(out, format="PNG", optimize=True)
        if out.tell() <= limit:
            return out.getvalue()
        scale *= min(0.8, (limit / out.tell()) ** 0.5)
    return None


@dataclass(frozen=True)
class _Sized:
    """An attachment as `renders.media.fit_attachments` measures it."""

    attachment: Attachment

    @property
    def png(self) -> bytes:
        return self.attachment.data

    @property
    def filename(self) -> str:
        return self.attachment.filename


async def fit_images(
    images: Sequence[Attachment], limit: int | None
) -> tuple[list[Attachment], str]:
    """Keep images within the interaction's size limit: downsize a still image that is too
    large, then keep what fits in total; the note names what was left out (empty if none)."""
    if limit is None:
        return list(images), ""
    candidates: list[Attachment] = []
    for image in images:
        smaller = None
        if len(image.data) > limit:
            smaller = await asyncio.to_thread(shrink_image, image.data, limit)
        if smaller is not None:
            image = Attachment(image.filename, smaller, image.description)
        candidates.append(image)
    fitted = fit_attachments([_Sized(image) for image in candidates], limit)
    for dropped in fitted.dropped:
        log.warning("dropped %s: %d bytes, limit %d", dropped.filename, len(dropped.png), limit)
    kept = [picture.attachment for picture in fitted.kept if isinstance(picture, _Sized)]
    return kept, fitted.note


# ---------------------------------------------------------------------- messages


# One colour per game for the embed stripe beside its board (Okabe-Ito, as the boards use).
GAME_COLOURS: dict[str, int] = {
    "galaxy-defenders": 0x56B4E9,
    "forlorn-hope": 0xD55E00,
    "reichbusters": 0x009E73,
}


@dataclass
class Outgoing:
    """One Discord message: a reply may become several (long text, many files)."""

    content: str
    ephemeral: bool
    files: list[Attachment]
    mentions: list[str]
    view: discord.ui.View | None = None
    colour: int | None = None  # the game's colour: the board sits in an embed of that colour

    def kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "content": self.content or None,
            "ephemeral": self.ephemeral,
            "allowed_mentions": discord.AllowedMentions(
                everyone=False,
                roles=False,
                replied_user=False,
                users=[discord.Object(int(u)) for u in self.mentions if u.isdigit()],
            ),
        }
        if self.files:
            kwargs["files"] = [
                discord.File(
                    io.BytesIO(f.data),
                    filename=f.filename,
                    description=f.description[:1024] or None,
                )
                for f in self.files
            ]
        if self.view is not None:
            kwargs["view"] = self.view
        if self.colour is not None and self.files:
            embed = discord.Embed(colour=self.colour)
            embed.set_image(url=f"attachment://{self.files[-1].filename}")
            kwargs["embed"] = embed
        return kwargs


async def outgoing(
    reply: Reply, size_limit: int | None, view: discord.ui.View | None
) -> list[Outgoing]:
    images, note = await fit_images(reply.images, size_limit)
    text = reply.content
    if note:
        text = f"{text}\n({note})" if text else f"({note})"
    chunks = split_message(text, DISCORD_MESSAGE_LIMIT) if text else [""]
    file_groups = [images[i : i + MAX_FILES] for i in range(0, len(images), MAX_FILES)] or [[]]
    messages = [Outgoing(chunk, reply.ephemeral, [], reply.mentions) for chunk in chunks]
    messages[-1].files = file_groups[0]
    messages += [Outgoing("", reply.ephemeral, group, []) for group in file_groups[1:]]
    messages[-1].view = view
    colour = GAME_COLOURS.get(reply.game or "")
    for message in messages:
        message.colour = colour
    if not messages[0].content and not messages[0].files and view is None:
        messages[0].content = "Done."
    return messages


async def send_direct(client: discord.Client, reply: Reply) -> bool:
    """A direct message to `reply.dm_to`; False when Discord will not deliver it (the
    public post says the same in the channel)."""
    try:
        user = client.get_user(int(reply.dm_to)) or await client.fetch_user(int(reply.dm_to))
        for message in await outgoing(replace(reply, dm_to=""), DEFAULT_UPLOAD_LIMIT, None):
            kwargs = message.kwargs()
            kwargs.pop("ephemeral", None)
            await user.send(**kwargs)
    except (discord.Forbidden, discord.NotFound, ValueError) as refused:
        log.info("no direct message to %s: %s", reply.dm_to, refused)
        return False
    return True


async def send_replies(
    interaction: discord.Interaction[Any],
    replies: Sequence[Reply],
    version: int | None = None,
    channel_id: int | None = None,
    private_invocation: bool = False,
) -> None:
    """Post the replies: the first answers the interaction (or fills its deferral).

    With `private_invocation` (a command whose options may carry a secret, see
    bot/disclosure.py) the interaction is answered only in private, and the public replies are
    posted by the bot in the channel, so nobody sees the command that caused them.
    """
    from bot.discord.buttons import turn_view  # buttons imports this module

    limit: int | None = interaction.filesize_limit
    replies, letters = direct(list(replies))
    for letter in letters:
        await send_direct(interaction.client, letter)
    if not replies:
        replies = [Reply("Done.", ephemeral=True)]  # never leave an interaction unanswered
    target = channel_id or interaction.channel_id or 0
    deliverer = interaction.client.deliverer
    answered = False  # something was posted as the answer to the interaction
    delayed = False  # a channel post waits in the outbox for Discord
    kept: set[int] = set()  # the player's private thread took a reply (bot/discord/threads.py)
    threads = getattr(interaction.client, "threads", None)
    for reply in replies:
        view = None
        shown = reply.version if reply.version is not None else version
        if reply.keep and reply.ephemeral and threads is not None:
            thread_id = await threads.post(interaction, target, reply, shown)
            if thread_id is not None:
                kept.add(thread_id)
                continue
        controls = bool(reply.buttons or reply.menus) and shown is not None
        if (private_invocation or reply.post_key or controls) and not reply.ephemeral:
            # A turn post is the bot's own message, so later steps can edit it in place; it
            # goes through the outbox, which delivers it now or, if Discord is slow, later.
            # So does any public post with buttons (the campaign-create post): the bot may
            # take its buttons away when a newer post supersedes it, which an interaction's
            # own reply would not allow after 15 minutes (one set of live controls).
            if not interaction.response.is_done():
                # Acknowledge first: Discord gives an interaction 3 s, a post may take longer.
                await defer_private(interaction)
                private_invocation = True  # its "thinking..." note goes once all is posted
            outcome = await deliverer.post(target, [reply], limit, shown)
            if outcome != "refused":
                delayed = delayed or outcome == "later"
                continue
            # The step is made; say so to its author rather than fail the interaction.
            log.warning("could not post in channel %s", target)
            reply = replace(reply, content=f"{CANNOT_POST}\n{reply.content}", ephemeral=True)
        elif controls and shown is not None:  # a private panel: the interaction's own reply
            view = turn_view(reply.buttons, target, shown, reply.menus)
        for message in await outgoing(reply, limit, view):
            await post(interaction, message)
            answered = True
    if delayed:
        # The step is committed; only its post is late. The player hears exactly that.
        await post(interaction, Outgoing(DELAYED, True, [], []))
        answered = True
    elsewhere = kept - {interaction.channel_id or 0}
    if elsewhere:
        # Said from the channel: where to find it (a reply there is only a tap away).
        where = " ".join(f"<#{thread_id}>" for thread_id in sorted(elsewhere))
        await post(interaction, Outgoing(f"{IN_THREAD} {where}", True, [], []))
        answered = True
    if not answered and not interaction.response.is_done():
        # Everything went to the channel as the bot's posts: acknowledge quietly.
        await defer_private(interaction)
        private_invocation = True
    if private_invocation and not answered:
        # Nothing private to say: remove the author's own "thinking..." note.
        await interaction.delete_original_response()
    if interaction.extras.get(PLACEHOLDER):
        # Nothing filled the deferral: never leave a "thinking..." message behind.
        interaction.extras[PLACEHOLDER] = False
        await interaction.delete_original_response()
    await mirror(interaction.client, replies, limit)


async def mirror(client: discord.Client, replies: Sequence[Reply], limit: int | None) -> None:
    """Copy the public replies to the campaign's spectator channels: no pings, no buttons.

    Copies go through the outbox like every channel post; a mirror that refuses is skipped
    (and logged); it never affects the table.
    """
    deliverer = client.deliverer  # type: ignore[attr-defined]
    for channel_id, copies in mirror_copies(replies).items():
        if not channel_id.isdigit():
            log.warning("mirror channel %s is not reachable", channel_id)
            continue
        if await deliverer.post(int(channel_id), copies, limit, None) == "refused":
            log.warning("mirror to %s failed", channel_id)


async def post(interaction: discord.Interaction[Any], message: Outgoing) -> None:
    if not interaction.response.is_done():
        await interaction.response.send_message(**message.kwargs())
        return
    if interaction.extras.get(PLACEHOLDER) and message.ephemeral:
        # The first follow-up would fill the public placeholder and show a private text to
        # everyone: remove the placeholder and send the private text on its own.
        interaction.extras[PLACEHOLDER] = False
        await interaction.delete_original_response()
    await interaction.followup.send(**message.kwargs())
    # Only a follow-up that arrived has filled the placeholder: if sending failed, the error
    # answer must still treat the placeholder as public.
    interaction.extras[PLACEHOLDER] = False


async def defer_private(interaction: discord.Interaction[Any]) -> None:
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def defer_public(interaction: discord.Interaction[Any]) -> None:
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True)
        interaction.extras[PLACEHOLDER] = True


async def campaign_version(service: TableService, channel_id: str) -> int | None:
    return await service.campaign_version(channel_id)


async def run_text(
    service: TableService,
    interaction: discord.Interaction[Any],
    text: str,
    defer: bool = False,
    channel_id: int | None = None,
    expect_version: int | None = None,
    then: str | None = None,
) -> None:
    """Run one command; defer at once when it may render, or as soon as it runs long.
    `then` (the picker after an action chosen from it) is run next when the first is not
    refused, and its private replies follow."""
    caller = caller_of(interaction, channel_id)
    # Its options may name a hidden card, or its outcome is a turn post the bot writes (and
    # edits) itself: only its author sees the command.
    private_invocation = not invocation_is_public(text) or posts_a_turn(text)
    # A look answers privately unless shared: its "thinking..." note is private too.
    quietly = defer_private if looks_privately(text) else defer_public
    if private_invocation:
        await defer_private(interaction)
    elif defer:
        await quietly(interaction)
    # The interaction's id makes the command act once, even if the gateway delivers it again.
    request = f"discord:{interaction.id}"
    # A step commits a marker with it, which its outbox rows replace: a crash between the
    # commit and the outbox leaves the marker, and a deliverer composes the post.
    async with announce_scope(service.db, interaction.client.deliverer.lease):
        task = asyncio.ensure_future(service.handle(caller, text, expect_version, request))
        if not defer and not private_invocation:
            done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
            if not done:
                await quietly(interaction)
        replies = await task
        if then and not any(r.error or r.repeat for r in replies):
            replies += [
                r for r in await service.handle(caller, then) if r.ephemeral and not r.error
            ]
        version = None
        if any((r.buttons or r.menus) and r.version is None for r in replies):
            # Replies without a board (a confirmation prompt) take the campaign's version.
            version = await campaign_version(service, caller.channel_id)
        await send_replies(interaction, replies, version, channel_id, private_invocation)
    finished(interaction)


async def run_command(
    service: TableService,
    interaction: discord.Interaction[Any],
    name: str,
    options: dict[str, Any],
    defer: bool = False,
    channel_id: int | None = None,
) -> None:
    """Run one slash command; `defer` for steps that render or run an enemy phase;
    `channel_id`: the campaign's channel when it is not the interaction's."""
    await run_text(service, interaction, slash_text(name, options), defer, channel_id)


def finished(interaction: discord.Interaction[Any]) -> None:
    interaction.client.dispatch(DONE_EVENT, interaction)


async def answer_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral answer whatever state the interaction is in."""
    if interaction.extras.get(PLACEHOLDER):
        interaction.extras[PLACEHOLDER] = False
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            log.warning("could not remove the placeholder of interaction %s", interaction.id)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


def error_id() -> str:
    return uuid.uuid4().hex[:8]


def not_ours(error: BaseException) -> str | None:
    """What went wrong, when it was Discord or the network rather than the bot (a 5xx, a rate
    limit that outlasted discord.py's retries, a timeout, a dropped connection); None for our
    own faults, which deserve a traceback."""
    original = getattr(error, "original", None) or error.__cause__ or error
    if isinstance(original, discord.DiscordServerError | discord.RateLimited):
        return f"Discord: {original}"
    if isinstance(original, discord.HTTPException) and original.status in (429, 502, 503, 504):
        return f"Discord: {original.status} {original.text}"
    if isinstance(original, TimeoutError | ConnectionError | aiohttp.ClientError):
        return f"network: {type(original).__name__}: {original}"
    return None


def failure_text(error: BaseException) -> str:
    ident = error_id()
    outside = not_ours(error)
    if outside is not None:
        log.warning("interaction failed (error id %s): %s", ident, outside)
    else:
        log.error("interaction failed (error id %s)", ident, exc_info=error)
    return f"Something went wrong on our side. Quote error id `{ident}` if you report it."
