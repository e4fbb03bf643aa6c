"""Settings from the environment or a `.env` file (see `.env.example`)."""

from __future__ import annotations

from functools import lru_cache

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="absent: run the playground")
    database_url: str = "sqlite+aiosqlite:///./data/sortie.db"
    dev_guild_id: int | None = None
    shard_count: int | None = None
    shard_ids: list[int] | None = None
    playground_host: str = "127.0.0.1"
    playground_port: int = 8765
    playground_dev_clock: bool = False
    # The playground's channel feeds and images, kept across restarts.
    playground_feed: str = "./data/playground-feed.db"
    scan_interval_seconds: int = 60
    render_workers: int = 2
    # Live campaigns one player may own (across servers), and one server may run.
    max_campaigns_per_user: int = Field(default=5, ge=1)
    max_campaigns_per_server: int = Field(default=50, ge=1)
    log_level: str = "INFO"
    log_json: bool = False

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        # `DISCORD_TOKEN=` (as many compose files leave it) means no token: the playground.
        if isinstance(value, str) and not value.strip():
            return None
        return value


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
