"""Where the export-signing key comes from, and the refusal to make a new one by accident.

The key signs every full export (`bot.archive`), so an import can tell this deployment's own
files from edited ones. It is read from `SORTIE_SIGNING_KEY`, else from the file
`SORTIE_SIGNING_KEY_FILE` names (a Docker or systemd secret), else kept in the database's
`instance_key` row as before (made on first use). A key kept outside the database is not in
the database's backups.

Whichever key signs, the database remembers its fingerprint (`signing_mark`). Once a key has
been used, a start without it (the variable dropped, the row lost in a partial restore) is an
error that says what to do: a new key would silently refuse every earlier export.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from pydantic import SecretStr

MIN_KEY_LENGTH = 32


class SigningKeyError(RuntimeError):
    """The configured key cannot be used, or the key the exports were signed with is gone."""


def fingerprint(key: str) -> str:
    """A short public name for a key (safe to log and store beside it)."""
    return hashlib.sha256(b"sortie-signing-key:" + key.encode()).hexdigest()[:16]


def configured_key(value: SecretStr | None, file: str | None) -> str | None:
    """The key from the environment or its file; None when neither is set."""
    if value is not None and value.get_secret_value().strip():
        return checked(value.get_secret_value().strip(), "SORTIE_SIGNING_KEY")
    if not file:
        return None
    try:
        text = Path(file).read_text(encoding="utf-8").strip()
    except OSError as error:
        raise SigningKeyError(
            f"SORTIE_SIGNING_KEY_FILE names {file}, which cannot be read ({error.strerror})."
        ) from None
    return checked(text, f"the key file {file}")


def checked(key: str, where: str) -> str:
    if len(key) < MIN_KEY_LENGTH:
        raise SigningKeyError(
            f"The signing key in {where} is {len(key)} characters; use at least "
            f"{MIN_KEY_LENGTH} (for example: python -c 'import secrets; "
            "print(secrets.token_hex(32))')."
        )
    return key


def missing_key_text(known: str) -> str:
    return (
        f"The export-signing key (fingerprint {known}) is missing: it is neither in "
        "SORTIE_SIGNING_KEY, nor in SORTIE_SIGNING_KEY_FILE, nor in the database. Exports made "
        "with it could no longer be imported, so no new key was made. Set SORTIE_SIGNING_KEY "
        "(or SORTIE_SIGNING_KEY_FILE) to that key again, or restore the database's "
        "instance_key row from a backup. To start over with a new key on purpose (earlier "
        "exports then import only with --accept-unsigned), run: python -m bot signing-key --new"
    )
