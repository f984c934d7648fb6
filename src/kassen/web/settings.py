"""What one server runs with: the store's URL, the content layers, the limits."""

from __future__ import annotations

__all__ = ["DEFAULT_DB", "Settings", "WebError"]

from dataclasses import dataclass

from kassen.core.errors import KassenError

#: ``kassen serve`` with no ``--db``: a SQLite file in the working directory.
DEFAULT_DB = "sqlite:///kassen.db"


class WebError(KassenError):
    """A server that cannot start as asked (a bad ``--db`` URL, a store newer than this kassen)."""

    code = "web"


@dataclass(frozen=True)
class Settings:
    """One server's configuration.

    ``content`` are ``--content`` layers (directories or YAML files on the server) merged over the
    bundled data of every fight this server opens; they are recorded with each fight. The byte limits
    bound every request body (``max_import_bytes`` for an imported chronicle); ``cached_fights`` is how
    many live fights stay in memory (others are rebuilt from the store when asked for);
    ``max_streams`` bounds the open event streams, per fight and in all.

    ``allowed_hosts`` are the host names requests may name in ``Host`` (any IP address may be named;
    ``kassen serve`` adds the names it listens on), ``public_url`` the address browsers open the server
    at when it differs from where it listens (behind a TLS proxy), and ``trusted_proxies`` the addresses
    whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed (see :mod:`kassen.web.origins`)."""

    db: str = DEFAULT_DB
    content: tuple[str, ...] = ()
    max_body_bytes: int = 1024 * 1024
    max_import_bytes: int = 8 * 1024 * 1024
    cached_fights: int = 256
    max_streams_per_fight: int = 64
    max_streams: int = 1024
    keepalive_seconds: float = 15.0
    allowed_hosts: tuple[str, ...] = ("localhost",)
    public_url: str | None = None
    trusted_proxies: tuple[str, ...] = ()
