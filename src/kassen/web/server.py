"""Running the application with uvicorn (what ``kassen serve`` does)."""

from __future__ import annotations

__all__ = ["listen", "serve"]

import contextlib
import errno
import ipaddress
import re
import socket
import sys
from dataclasses import replace

from kassen.web.settings import Settings, WebError

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
            f"--host {shown}: not an address or a host name (each dot-separated part is 1 to 63 letters, "
            "digits or hyphens)"
        ) from None
    labels = ascii_name.removesuffix(".").split(".")
    if len(ascii_name) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        raise WebError(f"--host {shown}: not an address or a host name (letters, digits, hyphens and dots)")


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening, or one clear :class:`WebError` (a port in use, an
    address this machine does not have). Bound here, before the address is printed, so that what is
    printed is where the server really listens — and a failure is one line, not uvicorn's log."""
    check_host(host)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise WebError(f"--host {host}: not an address of this machine ({exc.strerror})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart right after a stop
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise WebError(f"--port {port}: the port is in use on {host}: pick another") from None
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise WebError(f"--port {port}: not allowed to listen on it (below 1024 needs root)") from None
        raise WebError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def serve(settings: Settings, *, host: str = "127.0.0.1", port: int = 8000, quiet: bool = False) -> None:
    """Open the store, listen, print the address, and serve until interrupted."""
    import uvicorn

    from kassen.web.app import create_app
    from kassen.web.origins import served_names
    from kassen.web.store import Store

    # the address first: a host or port refused leaves no new database behind; then the store, opened
    # (and migrated) before the address is printed
    sock = listen(host, port)
    try:
        store = Store(settings.db)
    except BaseException:
        sock.close()
        raise
    settings = replace(settings, allowed_hosts=(*settings.allowed_hosts, *served_names(host)))
    app = create_app(settings, store=store)
    shown = f"[{host}]" if ":" in host else host
    sys.stdout.write(f"kassen serve: http://{shown}:{port}/  (store: {store.shown})\n")
    sys.stdout.flush()
    config = uvicorn.Config(
        app,
        log_level="warning" if quiet else "info",
        timeout_graceful_shutdown=3,
        # X-Forwarded-For / -Proto only from a proxy the GM named: anyone else could claim any address
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=list(settings.trusted_proxies) or None,
        server_header=False,
    )
    uvicorn.Server(config).run(sockets=[sock])
