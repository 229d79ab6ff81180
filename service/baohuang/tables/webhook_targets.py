"""Where a webhook may be sent: never inside the service's own network unless a deployment says so.

A platform key that leaks must not open the cluster's insides (OWASP's SSRF prevention cheat
sheet). A webhook URL is checked twice:

* at ``PUT`` (:meth:`Targets.check_url`): its form (http or https, a host, no credentials, no
  control characters or spaces, an IPv4 address only in dotted decimal), the host's name
  (``localhost``, cloud metadata names), the address it is written as, and the addresses its name
  resolves to now (a name that does not resolve yet is accepted: the second check guards it);
* at every delivery (:meth:`Targets.pin`): the name is resolved again, *every* address it
  resolves to must be allowed (DNS can change after the ``PUT``, and a name with one inside
  address among outside ones is refused), and the connection goes to the address that was checked
  — never to a second resolution.

Refused always: link-local (which holds the cloud metadata address 169.254.169.254), multicast,
unspecified, reserved and other non-global special ranges, and the metadata names and addresses.
Refused unless ``allow_private``: private ranges (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7)
and loopback (127/8, ``::1``, ``localhost``) — one switch for both, because a deployment whose
receivers live inside its network (or tests, whose receivers listen on 127.0.0.1) needs exactly
that, and a URL into the cluster is as dangerous as one into the pod. IPv4-mapped, -compatible,
6to4 and NAT64 IPv6 forms are judged by the IPv4 address they carry.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from collections.abc import Awaitable, Callable
from typing import Final
from urllib.parse import urlsplit

__all__ = ["Resolve", "TargetRefused", "Targets", "address_refusal", "form_refusal"]

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolve = Callable[[str, int], Awaitable[list[str]]]
"""``resolve(host, port)`` → the addresses the name has now (raises ``OSError`` when none)."""

RESOLVE_SECONDS: Final = 2.0
"""How long the check at ``PUT`` waits for DNS before accepting a name it could not resolve."""

METADATA_NAMES: Final = frozenset(
    {"metadata", "metadata.google.internal", "metadata.goog", "metadata.azure.internal"}
)
METADATA_ADDRESSES: Final = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",
        "169.254.170.2",
        "fd00:ec2::254",
        "100.100.100.200",
        "168.63.129.16",
    )
)
"""Cloud instance metadata, refused even where private targets are allowed: AWS, GCP and
Azure's link-local one (AWS's IPv6 one sits in the private range), Alibaba Cloud's (in the
shared 100.64/10 range) and Azure's WireServer (a public address)."""

_NAT64: Final = ipaddress.ip_network("64:ff9b::/96")
_NUMERIC_LABEL: Final = re.compile(r"(0x[0-9a-f]*|[0-9]+)", re.IGNORECASE)
_OCTET: Final = r"(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_DOTTED_DECIMAL: Final = re.compile(rf"{_OCTET}(\.{_OCTET}){{3}}")


class TargetRefused(ValueError):
    """A webhook URL, or the address it resolves to, that the service does not send to."""


def form_refusal(url: str) -> str | None:
    """Why ``url`` is not an acceptable webhook URL by its form alone (``None``: it is)."""
    if any(char.isspace() or not char.isprintable() for char in url):
        # urlsplit drops tabs and newlines silently: look at the raw string first.
        return "the webhook url must not hold spaces or control characters"
    try:
        parts = urlsplit(url)
    except ValueError:  # e.g. an unclosed or invalid [IPv6] host
        return "the webhook url is not a valid URL"
    if parts.scheme not in ("http", "https"):
        return "the webhook url must be an http:// or https:// URL"
    if "@" in parts.netloc or "\\" in parts.netloc:
        return "the webhook url must not hold credentials (user:password@)"
    if not parts.hostname:
        return "the webhook url must name a host"
    try:
        parts.port  # noqa: B018  # raises for a port out of range or not a number
    except ValueError:
        return "the webhook url has an invalid port"
    return None


def address_refusal(address: Address, *, allow_private: bool) -> str | None:
    """Why the service does not send to ``address`` (``None``: it may)."""
    address = _carried_ipv4(address)
    if address in METADATA_ADDRESSES:
        return f"{address} is a cloud metadata address"
    if address.is_loopback or (
        (address.is_private or address in _SHARED) and not _always_refused(address)
    ):
        return None if allow_private else f"{address} is a loopback or private address"
    if _always_refused(address) or not address.is_global:
        return f"{address} is a link-local, multicast, unspecified or reserved address"
    return None


def _always_refused(address: Address) -> bool:
    return (
        address.is_link_local
        or address.is_multicast
        or address.is_unspecified
        or address.is_reserved
        or (isinstance(address, ipaddress.IPv4Address) and address in _THIS_NETWORK)
        or (isinstance(address, ipaddress.IPv6Address) and address.is_site_local)
    )


_THIS_NETWORK: Final = ipaddress.ip_network("0.0.0.0/8")
_SHARED: Final = ipaddress.ip_network("100.64.0.0/10")
"""Carrier-grade NAT space, which some Kubernetes pod networks use: private for this purpose."""


def _carried_ipv4(address: Address) -> Address:
    """The IPv4 address an IPv6 address carries (mapped, compatible, 6to4, NAT64), else itself."""
    if not isinstance(address, ipaddress.IPv6Address):
        return address
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if int(address) >> 32 == 0 and int(address) > 1:  # ::a.b.c.d, the deprecated compatible form
        return ipaddress.IPv4Address(int(address))
    return address


def _host_refusal(host: str, *, allow_private: bool) -> str | None:
    """Why the URL's host (lower-case, brackets removed) is refused by its name or literal."""
    name = host.rstrip(".")
    if name in METADATA_NAMES:
        return f"{name} is a cloud metadata name"
    if name == "localhost" or name.endswith(".localhost"):
        return None if allow_private else f"{name} is a loopback name"
    literal = _literal(name)
    if isinstance(literal, str):
        return literal
    if literal is not None:
        return address_refusal(literal, allow_private=allow_private)
    return None


def _literal(host: str) -> Address | str | None:
    """The address ``host`` is written as, a refusal for an IPv4 address in another form than
    dotted decimal (``0x7f000001``, ``2130706433``, ``0177.0.0.1``, ``127.1``: resolvers read them
    differently), or ``None`` for a name."""
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            return "the webhook url's host is not a valid IPv6 address"
    if _NUMERIC_LABEL.fullmatch(host.rsplit(".", 1)[-1]):
        if _DOTTED_DECIMAL.fullmatch(host) is None:
            return "an IPv4 address in a webhook url must be written in dotted decimal"
        return ipaddress.IPv4Address(host)
    return None


async def resolve_with_dns(host: str, port: int) -> list[str]:
    """The addresses ``host`` has now, by the system's resolver (as a connection would)."""
    loop = asyncio.get_running_loop()
    found = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in found]


class Targets:
    """The policy for webhook destinations, shared by the ``PUT`` check and the sender."""

    def __init__(self, *, allow_private: bool = False, resolve: Resolve = resolve_with_dns) -> None:
        self.allow_private = allow_private
        self._resolve = resolve

    def refusal(self, url: str) -> str | None:
        """Why ``url`` is refused without resolving it (``None``: not so far)."""
        refused = form_refusal(url)
        if refused is not None:
            return refused
        host = urlsplit(url).hostname or ""
        return _host_refusal(host, allow_private=self.allow_private)

    async def check_url(self, url: str) -> None:
        """The check at ``PUT``: raises :class:`TargetRefused` with the reason."""
        refused = self.refusal(url)
        if refused is not None:
            raise TargetRefused(refused)
        parts = urlsplit(url)
        host = parts.hostname or ""
        if _literal(host) is not None:
            return
        try:
            async with asyncio.timeout(RESOLVE_SECONDS):
                found = await self._resolve(host, parts.port or 0)
        except (OSError, TimeoutError, UnicodeError):
            return  # not resolvable now: every delivery checks again before it connects
        self._check_all(host, found)

    async def pin(self, host: str, port: int) -> str:
        """The check at connect time: the one address to connect to for ``host``, after every
        address ``host`` resolves to now was allowed (raises :class:`TargetRefused`)."""
        refused = _host_refusal(host.lower().strip("[]"), allow_private=self.allow_private)
        if refused is not None:
            raise TargetRefused(refused)
        literal = _literal(host.lower().strip("[]"))
        if literal is not None and not isinstance(literal, str):
            return str(literal)
        found = await self._resolve(host, port)
        return self._check_all(host, found)

    def _check_all(self, host: str, found: list[str]) -> str:
        if not found:
            raise TargetRefused(f"{host} resolves to no address")
        for text in found:
            try:
                address = ipaddress.ip_address(text.split("%", 1)[0])
            except ValueError:
                raise TargetRefused(f"{host} resolves to {text!r}, not an address") from None
            refused = address_refusal(address, allow_private=self.allow_private)
            if refused is not None:
                raise TargetRefused(f"{host} resolves to {refused}")
        return found[0].split("%", 1)[0]
