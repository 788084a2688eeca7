"""Where the links a player shares (invite, watch, challenge, and their QR codes) point.

A link is only useful if a friend's device can open it.  The page opened at ``127.0.0.1`` would
share ``http://127.0.0.1:8000/join/...``, which opens nothing on a phone.  So:

* with ``public_url`` set (behind a reverse proxy, or a name for this machine), links use it;
* else, opened at a loopback address while the server listens on every interface, links use
  this machine's network address;
* else, opened at a loopback address, links work on this machine only: the page says so next
  to them (``local_only``);
* otherwise the page's own address is the one friends reach too.

>>> share_origin(None, "127.0.0.1", 8000, listen_host="0.0.0.0", network="192.168.1.20")
('http://192.168.1.20:8000', False)
>>> share_origin(None, "localhost", 8000, listen_host="127.0.0.1", network="192.168.1.20")
(None, True)
>>> share_origin("https://cards.example", "127.0.0.1", 8000, listen_host="127.0.0.1")
('https://cards.example', False)
>>> share_origin(None, "192.168.1.20", 8000, listen_host="0.0.0.0")
(None, False)
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket

#: Addresses that mean "every interface" when listened on.
EVERY_INTERFACE = frozenset({"0.0.0.0", "::", ""})


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) is this machine
    only.

    >>> is_loopback("localhost"), is_loopback("[::1]"), is_loopback("127.0.0.2"), is_loopback("10.0.0.1")
    (True, True, True, False)
    """
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def network_address() -> str | None:
    """This machine's address on its network (the one its default route leaves from), or None.
    Nothing is sent: connecting a UDP socket only picks the route."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))
        address = str(probe.getsockname()[0])
        if not is_loopback(address) and address != "0.0.0.0":
            return address
    return None


def share_origin(
    public_url: str | None,
    page_host: str,
    port: int | None,
    listen_host: str | None,
    network: str | None = None,
) -> tuple[str | None, bool]:
    """The origin share links should use (None: the page's own) and whether they work on this
    machine only; ``page_host`` and ``port`` are the address the page was opened at,
    ``listen_host`` the address the server listens on (None: unknown), ``network`` this
    machine's network address (see :func:`network_address`)."""
    if public_url is not None:
        return public_url, False
    if not is_loopback(page_host):
        return None, False
    if listen_host in EVERY_INTERFACE and network is not None:
        return f"http://{network}" + (f":{port}" if port else ""), False
    return None, True
