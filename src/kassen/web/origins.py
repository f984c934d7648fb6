"""Which host names this server answers to, and which origins its state-changing requests may come from.

**DNS rebinding**: a page of ``evil.example`` whose name the attacker then points at this server's
address is, to the browser, still ``evil.example``: it may read the replies and send the requests it
likes, with that name in ``Host`` and in ``Origin`` — so a check that ``Origin`` matches ``Host`` passes.
What such a request cannot do is name a host this server serves. So every request's ``Host`` must be
an IP address (a page served from an IP address is that address's own origin: no name to rebind) or a
name on the allow-list: ``localhost``, the name ``kassen serve --host`` was given (for ``0.0.0.0``: the
machine's own names), the host of ``--public-url`` and any ``--allow-host``.

**Origins**: a state-changing request that carries an ``Origin`` must come from this server as the
request reached it — the same scheme, host and port — or from ``--public-url`` (a TLS proxy in front
receives ``https://table.example`` and passes the request on over plain HTTP); the public host name
goes only with the public URL's scheme and port (``http://table.example`` is refused).
"""

from __future__ import annotations

__all__ = ["Origins", "check_public_url", "served_names"]

import contextlib
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from kassen.i18n import _
from kassen.web.settings import WebError

_DEFAULT_PORT = {"http": 80, "https": 443}


def _split_host(value: str) -> tuple[str, int | None] | None:
    """A ``Host`` header's name (lower case, brackets and a final dot dropped) and port, or None when
    it is no host at all."""
    try:
        parts = urlsplit("//" + value)
        name, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not name or parts.username is not None or parts.path or parts.query or parts.fragment:
        return None
    return name.rstrip(".").lower(), port


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Origins:
    """The host names served and the public origin (see the module notes)."""

    names: frozenset[str]
    public: tuple[str, str, int] | None = None

    @classmethod
    def of(cls, names: tuple[str, ...], public_url: str | None) -> Origins:
        public = None
        allowed = {n.rstrip(".").lower() for n in names if n}
        if public_url:
            parts = urlsplit(public_url)
            host = (parts.hostname or "").rstrip(".").lower()
            public = (parts.scheme.lower(), host, parts.port or _DEFAULT_PORT.get(parts.scheme.lower(), 0))
            allowed.add(host)
        return cls(frozenset(allowed), public)

    def host_allowed(self, host: str | None) -> bool:
        """Whether a request's ``Host`` is one this server serves (no ``Host``: not a browser's request,
        which always sends one)."""
        if host is None:
            return True
        split = _split_host(host)
        if split is None:
            return False
        name = split[0]
        return _is_ip(name) or name in self.names

    def origin_allowed(self, origin: str, host: str | None, scheme: str) -> bool:
        """Whether ``Origin`` is this server as the request reached it (``host``, ``scheme``), or its
        public URL."""
        try:
            parts = urlsplit(origin)
            o_scheme, o_name, o_port = parts.scheme.lower(), parts.hostname, parts.port
        except ValueError:
            return False
        if not o_name or o_scheme not in _DEFAULT_PORT or parts.path not in ("", "/"):
            return False
        seen = (o_scheme, o_name.rstrip(".").lower(), o_port or _DEFAULT_PORT[o_scheme])
        if self.public is not None and seen[1] == self.public[1]:
            return seen == self.public  # the public name only ever with its own scheme and port
        split = _split_host(host) if host is not None else None
        if split is None:
            return False
        here = (scheme.lower(), split[0], split[1] or _DEFAULT_PORT.get(scheme.lower(), 0))
        return seen == here


def served_names(host: str) -> tuple[str, ...]:
    """The names a server listening on ``host`` is reached by: the name itself; for every address of the
    machine (``0.0.0.0``, ``::``), the machine's host name, its full name and its ``.local`` name (an IP
    address needs no name: every IP address is allowed)."""
    if not _is_ip(host):
        return (host,)
    if not ipaddress.ip_address(host).is_unspecified:
        return ()
    names = {"localhost"}
    with contextlib.suppress(OSError):
        name = socket.gethostname()
        names |= {name, f"{name.split('.')[0]}.local"}
    with contextlib.suppress(OSError):
        names.add(socket.getfqdn())
    return tuple(sorted(n.lower() for n in names if n))


def check_public_url(url: str) -> str:
    """``url`` without a final ``/`` when it is an address a browser can open this server at
    (``http(s)://host[:port]``, no path: the pages are served from the root), else a :class:`WebError`."""
    shown = url[:100]
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a port that is no number fails here
    except ValueError:
        raise WebError(_("--public-url {url}: not a URL").format(url=shown)) from None
    if parts.scheme.lower() not in _DEFAULT_PORT or not parts.hostname:
        raise WebError(
            _("--public-url {url}: give http://HOST or https://HOST (and :PORT if not the usual)").format(
                url=shown
            )
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username is not None:
        raise WebError(
            _("--public-url {url}: no path, query or user: the table is served at the root").format(url=shown)
        )
    return url.rstrip("/")
