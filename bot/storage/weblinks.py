"""The campaigns' web links: one unguessable token per campaign, made on first use.

The token is looked up by the database's unique index (the page answers the same 404 for a
wrong token and an old one), never compared character by character in Python.
"""

from __future__ import annotations

import secrets

from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from bot.storage.db import Database
from bot.storage.models import Campaign, WebLink, utcnow

TOKEN_BYTES = 24  # 32 URL-safe characters: far beyond guessing


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


class WebLinks:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def token(self, campaign_id: int) -> str:
        """The campaign's token, made now if it has none (two processes agree on one)."""
        async with self.db.session() as session:
            found = await session.get(WebLink, campaign_id)
            if found is not None:
                return found.token
        async with self.db.write_session() as session:
            session.add(WebLink(campaign_id=campaign_id, token=new_token()))
            try:
                await session.commit()
            except IntegrityError:
                await session.rollback()
        async with self.db.session() as session:
            made = await session.get(WebLink, campaign_id)
            assert made is not None
            return made.token

    async def reset(self, campaign_id: int) -> str:
        """A new token for the campaign: the old link stops working at once."""
        token = new_token()
        async with self.db.write_session() as session:
            found = await session.get(WebLink, campaign_id)
            if found is None:
                session.add(WebLink(campaign_id=campaign_id, token=token))
            else:
                found.token = token
                found.created_at = utcnow()
                session.add(found)
            await session.commit()
        return token

    async def campaign(self, token: str) -> Campaign | None:
        """The campaign a token opens, or None."""
        if not token or len(token) > 64:
            return None
        async with self.db.session() as session:
            link = (await session.exec(select(WebLink).where(WebLink.token == token))).first()
            if link is None:
                return None
            return await session.get(Campaign, link.campaign_id)
