"""The turn-post registry's store in a dict, for tests that need no database."""

from __future__ import annotations

from bot.storage.models import OpenTurnPost


class MemoryTurnPosts:
    """Loads, saves and drops a campaign's open turn post as the database store does."""

    def __init__(self) -> None:
        self.rows: dict[int, OpenTurnPost] = {}

    async def load(self, campaign_id: int) -> OpenTurnPost | None:
        return self.rows.get(campaign_id)

    async def save(self, row: OpenTurnPost) -> None:
        self.rows[row.campaign_id] = row

    async def drop(self, campaign_id: int) -> None:
        self.rows.pop(campaign_id, None)
