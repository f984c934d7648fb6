"""Running the application with uvicorn (what ``kassen serve`` does)."""

from __future__ import annotations

__all__ = ["lan_address", "link_base", "listen", "serve"]

import contextlib
import errno
import ipaddress
import logging
import re
import socket
import sys
from typing import TYPE_CHECKING

from kassen.core.fastreplace import replace
from kassen.i18n import _
from kassen.web.settings import Settings, WebError

if TYPE_CHECKING:
    from kassen.web.quiet import QuietLog

_LABEL = re.compile(r"[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?")


def check_host(host: str) -> None:
    """A :class:`WebError` unless ``host`` is an IP address or a host name DNS can carry: labels of 1 to
    63 letters, digits or hyphens (IDNA for other letters), 253 characters in all. The resolver would
    otherwise fail on it with the idna codec's own exception."""
    with contextlib.suppress(ValueError):
        ipaddress.ip_address(host)
        return
    # a byte that is no UTF-8 reaches argv as a lone surrogate: show it as the byte it was
    shown = host.encode("utf-8", "surrogateescape").decode("ascii", "backslashreplace")[:80]
    try:
        ascii_name = host.encode("idna").decode("ascii")
    except UnicodeError:
        raise WebError(
            _(
                "--host {host}: not an address or a host name (each dot-separated part is 1 to 63 letters, "
                "digits or hyphens)"
            ).format(host=shown)
        ) from None
    labels = ascii_name.removesuffix(".").split(".")
    if len(ascii_name) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        raise WebError(
            _("--host {host}: not an address or a host name (letters, digits, hyphens and dots)").format(
                host=shown
            )
        )


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening, or one clear :class:`WebError` (a port in use, an
    address this machine does not have). Bound here, before the address is printed, so that what is
    printed is where the server really listens — and a failure is one line, not uvicorn's log."""
    check_host(host)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise WebError(
            _("--host {host}: not an address of this machine ({why})").format(host=host, why=exc.strerror)
        ) from None
    family, kind, proto, _canonname, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart right after a stop
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise WebError(
                _("--port {port}: the port is in use on {host}: pick another").format(port=port, host=host)
            ) from None
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise WebError(
                _("--port {port}: not allowed to listen on it (below 1024 needs root)").format(port=port)
            ) from None
        raise WebError(
            _("cannot listen on {host}:{port}: {why}").format(host=host, port=port, why=exc.strerror or exc)
        ) from None
    sock.set_inheritable(True)
    return sock


def lan_address(family: int = socket.AF_INET) -> str | None:
    """This machine's address on its network (the one its default route leaves by), or None.

    A UDP socket "connected" to an address off this machine picks the outgoing interface without sending
    anything; the machine's host name is tried next. Loopback and link-local addresses do not count: a
    phone cannot reach them."""
    targets = ("10.255.255.255", "192.0.2.1") if family == socket.AF_INET else ("2001:db8::1",)
    found: list[str] = []
    for target in targets:
        with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((target, 9))
            found.append(str(probe.getsockname()[0]))
    with contextlib.suppress(OSError):
        found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, family)]
    for address in found:
        ip = ipaddress.ip_address(address.split("%")[0])
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified):
            return str(ip)
    return None


def link_base(host: str, port: int) -> str | None:
    """Where players' links point for a server listening on ``host:port``: a host given by name or
    address as it is (not loopback); for every address (``0.0.0.0``, ``::``) the machine's LAN address;
    None on loopback (the links then follow the address the GM's browser used)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return None if host.lower() in ("localhost", "localhost.") else f"http://{host}:{port}"
    if ip.is_loopback:
        return None
    if ip.is_unspecified:
        found = lan_address(socket.AF_INET6 if ip.version == 6 and lan_address() is None else socket.AF_INET)
        if found is None:
            return None
        ip = ipaddress.ip_address(found)
    shown = f"[{ip}]" if ip.version == 6 else str(ip)
    return f"http://{shown}:{port}"


def serve(settings: Settings, *, host: str = "127.0.0.1", port: int = 8000, quiet: bool = False) -> None:
    """Open the store, listen, print the address, and serve until interrupted."""
    import uvicorn

    from kassen.web.app import create_app
    from kassen.web.connections import ConnectionLimits, Gate, guarded_protocol, raise_file_limit
    from kassen.web.origins import served_names
    from kassen.web.quiet import QuietLog
    from kassen.web.store import Store

    # the address first: a host or port refused leaves no new database behind; then the store, opened
    # (and migrated) before the address is printed
    sock = listen(host, port)
    try:
        store = Store(settings.db)
    except BaseException:
        sock.close()
        raise
    refusals = QuietLog(_logger())
    # every connection is a file: keep the cap under the process's limit, with room for the store's
    # connections, the log and the libraries' own files
    files = raise_file_limit(settings.max_connections + _SPARE_FILES)
    total = max(16, min(settings.max_connections, files - _SPARE_FILES))
    if total < settings.max_connections:
        refusals.logger.warning(
            "at most %d connections at once: the process may open %d files (ulimit -n)", total, files
        )
    limits = ConnectionLimits(
        total=total,
        per_client=min(settings.max_connections_per_client, total),
        header_timeout=settings.header_timeout,
        exempt=settings.trusted_proxies,
    )
    join = None if settings.public_url else (settings.join_url or link_base(host, port))
    settings = replace(settings, allowed_hosts=(*settings.allowed_hosts, *served_names(host)), join_url=join)
    app = create_app(settings, store=store, quiet=refusals)
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{port}/"
    sys.stdout.write(
        _("kassen serve: {address}  (store: {store})").format(address=address, store=store.shown) + "\n"
    )
    players = settings.public_url or join
    if players:
        sys.stdout.write(
            _("players join at {address}/ (the GM screen shows each side's link and QR code)").format(
                address=players
            )
            + "\n"
        )
    else:
        sys.stdout.write(
            _(
                "join links use the address the GM's browser opened: for players' phones, listen with "
                "--host 0.0.0.0 (docs/web.md)"
            )
            + "\n"
        )
    sys.stdout.flush()
    config = uvicorn.Config(
        app,
        http=guarded_protocol(Gate(limits, refusals)),
        log_level="warning" if quiet else "info",
        timeout_graceful_shutdown=3,
        # X-Forwarded-For / -Proto only from a proxy the GM named: anyone else could claim any address
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=list(settings.trusted_proxies) or None,
        server_header=False,
    )
    _quiet_uvicorn(refusals)  # after uvicorn.Config, which sets up its loggers
    uvicorn.Server(config).run(sockets=[sock])


#: Files the process needs beside its connections (the store's pool, the log, the libraries).
_SPARE_FILES = 128

#: What uvicorn and asyncio log once per refused request or connection: counted instead (a flood of
#: them is a line a minute, not a line or a traceback each).
_PER_REQUEST = {
    "Invalid HTTP request received.": "invalid HTTP request",
    "Exceeded concurrency limit.": "over the concurrency limit",
}
_REFUSED_STATUSES = {408, 429, 503}


def _logger() -> logging.Logger:
    """kassen's server log, on stderr beside uvicorn's."""
    logger = logging.getLogger("kassen.web")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:  kassen: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    return logger


def _quiet_uvicorn(refusals: QuietLog) -> None:
    """Route the per-request warnings of uvicorn, the access lines of refused requests and asyncio's
    "out of system resource" tracebacks to ``refusals``."""

    def errors(record: logging.LogRecord) -> bool:
        kind = _PER_REQUEST.get(str(record.msg))
        if kind is not None:
            refusals.note(kind, str(record.msg))
            return False
        return True

    def access(record: logging.LogRecord) -> bool:
        args = record.args
        return not (isinstance(args, tuple) and len(args) >= 5 and args[4] in _REFUSED_STATUSES)

    def loop(record: logging.LogRecord) -> bool:
        text = str(record.msg)
        if "out of system resource" in text or "Too many open files" in text:
            refusals.note("out of files", text.split("\n")[0][:120])
            return False
        return True

    logging.getLogger("uvicorn.error").addFilter(errors)
    logging.getLogger("uvicorn.access").addFilter(access)
    logging.getLogger("asyncio").addFilter(loop)
