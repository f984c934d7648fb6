"""The connections ``kassen serve`` accepts: how many, from whom, and how long one may take to say
what it wants.

uvicorn closes a connection idle *between* requests (``timeout_keep_alive``) and bounds a request's
head in bytes, but it waits for the head itself for ever: a client that opens connections and sends a
header line now and then holds every one of them until the process runs out of file descriptors, and
every other client is locked out. :class:`GuardedH11Protocol` (uvicorn's own h11 protocol, chosen with
``uvicorn.Config(http=...)``) adds what it lacks:

- **a connection cap**, in all and per client: a connection over either is answered at once with a 503
  and closed, before it holds anything (the total stays under the process's file-descriptor limit,
  which :func:`raise_file_limit` lifts as far as it may go);
- **a header timeout**: a request's head must be complete within ``header_timeout`` seconds of its
  first byte (of the connection, for the first request), else a 408 and the connection is closed.

A body's time is bounded in the application, where it is read (:class:`kassen.web.app.BodyLimit`).
Refusals are counted, not logged one by one (:class:`~kassen.web.quiet.QuietLog`).

A client is an IPv4 address or an IPv6 /64 (one machine usually holds a whole /64); a reverse proxy
named in ``--proxy`` is exempt from the per-client cap (its clients are told apart by
``X-Forwarded-For`` in the application's own quotas).
"""

from __future__ import annotations

__all__ = ["ConnectionLimits", "Gate", "client_key", "guarded_protocol", "raise_file_limit"]

import asyncio
import ipaddress
import json
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr

from kassen.web.quiet import QuietLog


def client_key(address: str) -> str:
    """Who a peer address counts as: the address itself (IPv4), its /64 (IPv6)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass(frozen=True)
class ConnectionLimits:
    """How many connections in all and per client, and how long a request's head may take."""

    total: int = 1000
    per_client: int = 100
    header_timeout: float = 10.0
    exempt: tuple[str, ...] = ()


class Gate:
    """The open connections, counted per client (thread-safe; see the module notes)."""

    def __init__(self, limits: ConnectionLimits, quiet: QuietLog) -> None:
        self.limits = limits
        self.quiet = quiet
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()
        self._total = 0
        self._exempt = [ipaddress.ip_network(p, strict=False) for p in limits.exempt]

    def _is_exempt(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self._exempt)

    def admit(self, address: str) -> str | None:
        """The client key the connection counts under, or None when it is over a cap (refused)."""
        key = client_key(address)
        with self._lock:
            if self._total >= self.limits.total:
                why = f"over the cap of {self.limits.total} connections in all"
            elif self._open[key] >= self.limits.per_client and not self._is_exempt(address):
                why = f"over the cap of {self.limits.per_client} connections per client"
            else:
                self._open[key] += 1
                self._total += 1
                return key
        self.quiet.note("connection refused", why, key)
        return None

    def release(self, key: str) -> None:
        with self._lock:
            self._open[key] -= 1
            if self._open[key] <= 0:
                del self._open[key]
            self._total -= 1

    @property
    def total(self) -> int:
        return self._total


def _raw(status: int, reason: str, body: dict[str, Any], extra: bytes = b"") -> bytes:
    data = json.dumps(body).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(data)}\r\nconnection: close\r\n"
    ).encode()
    return head + extra + b"\r\n" + data


_BUSY = _raw(
    503,
    "Service Unavailable",
    {"detail": "too many connections: try again shortly", "code": "connections"},
    b"retry-after: 5\r\n",
)
_SLOW = _raw(408, "Request Timeout", {"detail": "the request's head took too long", "code": "timeout"})


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the connection caps and the header timeout (see the module notes).
    Made for one server by :func:`guarded_protocol`."""

    gate: Gate

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._key: str | None = None
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = get_remote_addr(transport)
        self._key = self.gate.admit(peer[0] if peer else "")
        if self._key is None:
            transport.write(_BUSY)
            transport.close()
            return
        super().connection_made(transport)
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._key is None:  # refused: uvicorn never saw it
            return
        self._cancel_head_timer()
        self.gate.release(self._key)
        self._key = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    # -- the header timeout ------------------------------------------------------------------------------
    def _watch(self) -> None:
        """A head is being waited for while the client's side is IDLE: time it from its first byte (the
        keep-alive timeout covers a connection that sends nothing after a reply)."""
        if self.conn.their_state is h11.IDLE and self.conn.trailing_data[0]:
            self._arm_head_timer()
        elif self.conn.their_state is not h11.IDLE:
            self._cancel_head_timer()

    def _arm_head_timer(self) -> None:
        if self._head_timer is None and self.transport is not None and not self.transport.is_closing():
            self._head_timer = self.loop.call_later(self.gate.limits.header_timeout, self._head_too_slow)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        self.gate.quiet.note(
            "slow request head",
            f"not complete within {self.gate.limits.header_timeout:g} s: closed",
            self._key or "",
        )
        if self.conn.our_state is h11.IDLE:
            self.transport.write(_SLOW)
        self.transport.close()


def guarded_protocol(gate: Gate) -> type[GuardedH11Protocol]:
    """The protocol class of one server, bound to its ``gate``."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"gate": gate})


def raise_file_limit(wanted: int) -> int:
    """Lift this process's soft limit of open files towards ``wanted`` (never past the hard limit);
    returns the limit now in force."""
    try:
        import resource
    except ImportError:  # not on a POSIX system: nothing to lift
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return wanted if soft == resource.RLIM_INFINITY else int(soft)
