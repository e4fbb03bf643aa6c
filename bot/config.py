"""Settings from the environment or a `.env` file (see `.env.example`)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import make_url


class DatabasePasswordError(RuntimeError):
    """DATABASE_PASSWORD_FILE is set but cannot be read."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="absent: run the playground")
    database_url: str = "sqlite+aiosqlite:///./data/sortie.db"
    # The database password kept out of DATABASE_URL (which `docker inspect` shows): given
    # itself, or as a file (a Docker secret). Either replaces any password in the URL.
    database_password: SecretStr | None = None
    database_password_file: str | None = None
    dev_guild_id: int | None = None
    shard_count: int | None = None
    shard_ids: list[int] | None = None
    # The playground has no login: it listens on this machine only unless told otherwise, and
    # a deployment (the Docker image) switches it off so it never opens by accident.
    playground_enabled: bool = True
    playground_host: str = "127.0.0.1"
    playground_port: int = 8765
    playground_dev_clock: bool = False
    # The playground's channel feeds and images, kept across restarts.
    playground_feed: str = "./data/playground-feed.db"
    # The campaigns' read-only web pages: the address they are reached at (behind the
    # operator's reverse proxy), e.g. https://sortie.example.org. Unset: off on Discord; the
    # playground serves them on its own address.
    web_base_url: str | None = None
    # Where the bot's web server listens when it runs beside the Discord client.
    web_host: str = "127.0.0.1"
    web_port: int = 8780
    # Behind a reverse proxy: rate-limit by the address it forwards (X-Forwarded-For).
    web_trust_proxy: bool = False
    scan_interval_seconds: int = 60
    # How long a process holds an outbox row it is sending; a process killed mid-send leaves
    # the row to the others once this has passed (longer than discord.py's own retries).
    delivery_lease_seconds: float = Field(default=120.0, gt=0)
    render_workers: int = 2
    # Live campaigns one player may own (across servers), and one server may run.
    max_campaigns_per_user: int = Field(default=5, ge=1)
    max_campaigns_per_server: int = Field(default=50, ge=1)
    # The export-signing key, kept out of the database (and its backups) when set: the key
    # itself, or a file holding it (a Docker/systemd secret). Unset: kept in the database.
    sortie_signing_key: SecretStr | None = None
    sortie_signing_key_file: str | None = None
    log_level: str = "INFO"
    log_json: bool = False

    @field_validator("web_base_url", mode="before")
    @classmethod
    def _base_url(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip().rstrip("/")
            if not value:
                return None
            if not value.startswith(("http://", "https://")):
                raise ValueError("WEB_BASE_URL must start with http:// or https://")
        return value

    def database_url_with_password(self) -> str:
        """DATABASE_URL with the password from DATABASE_PASSWORD(_FILE), if one is set."""
        password = self.database_password.get_secret_value() if self.database_password else None
        if password is None and self.database_password_file:
            try:
                password = Path(self.database_password_file).read_text(encoding="utf-8").strip()
            except OSError as error:
                raise DatabasePasswordError(
                    f"DATABASE_PASSWORD_FILE names {self.database_password_file}, which cannot "
                    f"be read ({error.strerror})."
                ) from None
        if not password:
            return self.database_url
        return make_url(self.database_url).set(password=password).render_as_string(False)

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


LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
NO_PLAYGROUND = (
    "No DISCORD_TOKEN is set, and the playground is switched off here (PLAYGROUND_ENABLED=false), "
    "so nothing was started. To run the bot, set DISCORD_TOKEN. To try the playground instead, "
    "set PLAYGROUND_ENABLED=true and PLAYGROUND_HOST=0.0.0.0 and publish the port on your own "
    "machine only (docker run -p 127.0.0.1:8765:8765 ...): the playground has no login, so "
    "anyone who reaches it can act as any player and read their private replies."
)


def playground_refusal(settings: Settings) -> str | None:
    """Why the playground must not start with these settings (a sentence saying what to set)."""
    return None if settings.playground_enabled else NO_PLAYGROUND


def playground_warning(settings: Settings) -> str | None:
    """A loud word when the playground listens beyond this machine."""
    if settings.playground_host in LOOPBACK_HOSTS:
        return None
    return (
        f"The playground listens on {settings.playground_host}: it has no login, so anyone who "
        "reaches this port can act as any player and read their private replies. Keep it "
        "behind a firewall or publish it on 127.0.0.1 only."
    )
