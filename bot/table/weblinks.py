"""`/campaign web`: the campaign's read-only web link, and the line turn posts carry.

The link is `<base>/t/<token>`: `<base>` is `WEB_BASE_URL` (the playground's own address when
it serves the page), the token an unguessable one per campaign (`bot.storage.weblinks`). Off
until a shell sets the base: the command then says the operator has not set the web view up.
"""

from __future__ import annotations

from bot.replies import Reply, ephemeral
from bot.storage.models import Campaign
from bot.storage.weblinks import WebLinks
from bot.table.context import Caller, UserError, check_same_server, id_of
from bot.table.loading import Loader

NOT_SET_UP = (
    "The web view is not set up on this bot: its operator turns it on with WEB_BASE_URL "
    "(the address the bot's web server is reached at)."
)


class WebAddress:
    """Where a campaign's page lives, once a shell has said the web server's base address."""

    def __init__(self, links: WebLinks) -> None:
        self.links = links
        self.base: str | None = None

    def set_base(self, base: str | None) -> None:
        self.base = base.rstrip("/") if base else None

    async def url(self, campaign_id: int) -> str | None:
        if self.base is None:
            return None
        return f"{self.base}/t/{await self.links.token(campaign_id)}"

    async def post_line(self, campaign_id: int) -> str | None:
        """The line a turn post ends with (None while the web view is off)."""
        url = await self.url(campaign_id)
        # Discord's <url> form: a link without a preview card under every turn post.
        return f"The whole table, step by step: <{url}>" if url else None


class WebCommands:
    def __init__(self, loader: Loader, web: WebAddress) -> None:
        self.loader = loader
        self.web = web

    async def web_link(self, caller: Caller, options: dict[str, str]) -> list[Reply]:
        """The campaign's link; `reset:yes` (its owner or a server admin) issues a new one."""
        campaign = await self._campaign(caller)
        if self.web.base is None:
            raise UserError(NOT_SET_UP)
        reset = options.get("reset", "").lower()
        if reset and reset != "yes":
            raise UserError("To replace the link, write `/campaign web reset:yes`.")
        if reset:
            if caller.user_id != campaign.owner_id and not caller.is_admin:
                raise UserError(
                    "Only the campaign owner or a server admin can replace the web link; "
                    "anyone can see the current one with /campaign web."
                )
            await self.web.links.reset(id_of(campaign))
            url = await self.web.url(id_of(campaign))
            return [
                Reply(
                    f"Campaign #{campaign.id} has a new web link: {url}\n"
                    "The old link no longer works."
                )
            ]
        url = await self.web.url(id_of(campaign))
        return ephemeral(
            f"Campaign #{campaign.id} on the web (read-only, public information only; "
            f"anyone with the link can watch): {url}"
        )

    async def _campaign(self, caller: Caller) -> Campaign:
        campaign = await self.loader.live_or_latest(caller)
        if campaign is None:
            raise UserError("No campaign in this channel. Start one with /campaign create.")
        check_same_server(caller, campaign)
        return campaign
