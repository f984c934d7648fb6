"""``kassen serve``: the GM table in the browser (a lazily loaded command; needs ``kassen[web]``).

With no arguments it serves on http://127.0.0.1:8000/ with a SQLite store ``kassen.db`` in the working
directory; ``--db postgresql://user@host/db`` stores fights in PostgreSQL (``kassen[postgres]``).
"""

from __future__ import annotations

import importlib

__all__ = ["serve_app"]

import ipaddress
from pathlib import Path
from typing import Annotated

import typer

from kassen.cli.common import user_errors
from kassen.cli.numbers import whole
from kassen.core.errors import KassenError
from kassen.i18n import _

serve_app = typer.Typer(name="serve", add_completion=False)


@serve_app.command("serve")
@user_errors
def serve_command(
    db: Annotated[
        str,
        typer.Option(
            "--db", help="The fight store: sqlite:///PATH or postgresql://USER@HOST/DB.", metavar="URL"
        ),
    ] = "sqlite:///kassen.db",
    host: Annotated[str, typer.Option(help="The address to listen on (default: this machine only).")] = (
        "127.0.0.1"
    ),
    port: Annotated[
        int, typer.Option(help="The port to listen on.", parser=whole(1, 65535), metavar="PORT")
    ] = 8000,
    content: Annotated[
        list[Path] | None,
        typer.Option("--content", help="A content layer for every fight (repeat).", metavar="DIR"),
    ] = None,
    max_body: Annotated[
        int,
        typer.Option(
            "--max-body",
            help="The largest request body, in bytes.",
            parser=whole(1024, 1 << 30),
            metavar="BYTES",
        ),
    ] = 1024 * 1024,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help="Where browsers open the table when not where it listens (https://HOST behind a TLS proxy).",
            metavar="URL",
        ),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            help="Another host name browsers reach the server by (repeat; IP addresses always work).",
            metavar="NAME",
        ),
    ] = None,
    proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--proxy",
            help="The address of a reverse proxy whose X-Forwarded-For/-Proto to believe (repeat).",
            metavar="ADDRESS",
        ),
    ] = None,
    max_connections: Annotated[
        int,
        typer.Option(
            "--max-connections",
            help="The most connections open at once (kept under the process's file limit).",
            parser=whole(16, 1_000_000),
            metavar="N",
        ),
    ] = 1000,
    max_per_client: Annotated[
        int,
        typer.Option(
            "--max-per-client",
            help="The most connections one client (an IP address, an IPv6 /64) holds at once.",
            parser=whole(1, 1_000_000),
            metavar="N",
        ),
    ] = 100,
    header_timeout: Annotated[
        int,
        typer.Option(
            "--header-timeout",
            help="Seconds a request's head may take to arrive (then 408 and closed).",
            parser=whole(1, 3600),
            metavar="SECONDS",
        ),
    ] = 10,
    body_timeout: Annotated[
        int,
        typer.Option(
            "--body-timeout",
            help="Seconds a request's body may take to arrive (then 408).",
            parser=whole(1, 3600),
            metavar="SECONDS",
        ),
    ] = 60,
    token_days: Annotated[
        int,
        typer.Option(
            "--token-days",
            help="Days a new fight's links work, unless its creator says (0: until the GM replaces them).",
            parser=whole(0, 3650),
            metavar="DAYS",
        ),
    ] = 0,
    quiet: Annotated[bool, typer.Option("--quiet", help="Log warnings only.")] = False,
) -> None:
    """Serve the GM table in the browser: fights, menus with exact odds, table dice, live screens."""
    try:
        from kassen.web.server import serve
        from kassen.web.settings import Settings

        for name in ("uvicorn", "segno"):  # imported where they are used: asked for here, at once
            importlib.import_module(name)
    except ImportError as exc:  # the web extra is not installed
        raise KassenError(
            _("kassen serve needs the web extra: pip install 'kassen[web]' ({name} missing)").format(
                name=exc.name
            )
        ) from None
    layers = tuple(str(p) for p in content or [])
    for layer in layers:
        if not Path(layer).exists():
            raise KassenError(_("--content {layer}: no such file or directory").format(layer=layer))
    from kassen.web.origins import check_public_url

    proxies = tuple(proxy or [])
    for address in proxies:
        try:
            ipaddress.ip_network(address, strict=False)
        except ValueError:
            raise KassenError(
                _("--proxy {address}: not an IP address or network").format(address=address[:60])
            ) from None
    settings = Settings(
        db=db,
        content=layers,
        max_body_bytes=max_body,
        allowed_hosts=("localhost", *(allow_host or [])),
        public_url=None if public_url is None else check_public_url(public_url),
        trusted_proxies=proxies,
        max_connections=max_connections,
        max_connections_per_client=max_per_client,
        header_timeout=float(header_timeout),
        body_timeout=float(body_timeout),
        token_ttl=token_days * 86400.0 if token_days else None,
    )
    serve(settings, host=host, port=port, quiet=quiet)
