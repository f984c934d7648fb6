"""What one server runs with: the store's URL, the content layers, the limits."""

from __future__ import annotations

__all__ = ["DEFAULT_DB", "Quota", "QuotaSettings", "Settings", "WebError"]

from dataclasses import dataclass

from kassen.core.errors import KassenError
from kassen.i18n import S_

#: ``kassen serve`` with no ``--db``: a SQLite file in the working directory.
DEFAULT_DB = "sqlite:///kassen.db"


class WebError(KassenError):
    """A server that cannot start as asked (a bad ``--db`` URL, a store newer than this kassen)."""

    code = "web"


@dataclass(frozen=True)
class Quota:
    """``amount`` per ``seconds`` (a sliding window)."""

    amount: int
    seconds: int

    def words(self, unit: str) -> str:
        span = (
            S_("{n} h", n=self.seconds // 3600)
            if self.seconds % 3600 == 0
            else S_("{n} min", n=self.seconds // 60)
            if self.seconds % 60 == 0
            else S_("{n} s", n=self.seconds)
        )
        return S_("{amount} {unit} per {span}", amount=f"{self.amount:,}", unit=unit, span=span)


@dataclass(frozen=True)
class QuotaSettings:
    """What one client or token may take of a server (see :mod:`kassen.web.quotas`)."""

    fights: Quota = Quota(60, 600)
    store_bytes: Quota = Quota(32 * 1024 * 1024, 3600)
    actions: Quota = Quota(1200, 60)
    requests_at_once: int = 32
    streams_per_client: int = 32
    streams_per_token: int = 8


@dataclass(frozen=True)
class Settings:
    """One server's configuration.

    ``content`` are ``--content`` layers (directories or YAML files on the server) merged over the
    bundled data of every fight this server opens; they are recorded with each fight. The byte limits
    bound every request body (``max_import_bytes`` for an imported chronicle); ``cached_fights`` is how
    many live fights stay in memory (others are rebuilt from the store when asked for);
    ``max_streams`` bounds the open event streams, per fight and in all.

    ``max_connections`` (in all and per client) and ``header_timeout`` bound the connections
    (:mod:`kassen.web.connections`); ``body_timeout`` is how long a request's body may take to arrive;
    ``quotas`` are what one client or token may take (:mod:`kassen.web.quotas`).

    ``token_ttl`` is how many seconds a fight's tokens work when the request that makes them does not
    say (None: until the GM replaces them).

    ``allowed_hosts`` are the host names requests may name in ``Host`` (any IP address may be named;
    ``kassen serve`` adds the names it listens on), ``public_url`` the address browsers open the server
    at when it differs from where it listens (behind a TLS proxy), and ``trusted_proxies`` the addresses
    whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed (see :mod:`kassen.web.origins`).
    ``join_url`` is where the links and QR codes the GM hands out point when there is no
    ``public_url``: ``kassen serve`` sets it to the server's LAN address when it listens beyond
    loopback, so that a phone on the same network reaches it whichever address the GM opened."""

    db: str = DEFAULT_DB
    content: tuple[str, ...] = ()
    max_body_bytes: int = 1024 * 1024
    max_import_bytes: int = 8 * 1024 * 1024
    cached_fights: int = 256
    max_streams_per_fight: int = 64
    max_streams: int = 512
    keepalive_seconds: float = 15.0
    allowed_hosts: tuple[str, ...] = ("localhost",)
    public_url: str | None = None
    join_url: str | None = None
    trusted_proxies: tuple[str, ...] = ()
    max_connections: int = 1000
    max_connections_per_client: int = 100
    header_timeout: float = 10.0
    body_timeout: float = 60.0
    quotas: QuotaSettings = QuotaSettings()
    token_ttl: float | None = None
