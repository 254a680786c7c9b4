"""Which of this computer's network interfaces the phones are on.

Why: the join address is the one of the default route's interface (``host/network.py``). With
a VPN up (``tun0``, ``wg0``, ``utun3``…) the default route goes through the VPN, and the QR code
on the TV would lead phones on the Wi-Fi nowhere. The interface's name is the only thing that
tells a VPN, a container bridge or a virtual machine's network from the Wi-Fi or the Ethernet,
so that knowledge lives here, once, for the join address and for ``cuckoo-party doctor``.

Everything but ``network_interfaces`` is pure: callers pass the interface table, so tests give
their own and nothing here touches the system.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

#: An interface and one of its IPv4 addresses, as ``network_interfaces`` lists them.
Interface = tuple[str, str]

#: Interface names (compared ignoring case) that are rarely the Wi-Fi the phones are on:
#: containers and bridges (Docker, libvirt, VirtualBox, VMware, Hyper-V), VPNs and overlay
#: networks (OpenVPN, WireGuard, macOS's utun and ipsec, ZeroTier, Tailscale) and the loopback.
#: Windows lists its adapters by their names in the network settings, so the VPN apps that
#: name theirs (NordVPN's NordLynx, ProtonVPN, Mullvad, OpenVPN, ZeroTier One, VirtualBox's
#: and VMware's host-only networks) are here by those names. A VPN whose adapter is called
#: "Ethernet 3" cannot be told from an Ethernet by its name: ``--bind`` is the way out.
VIRTUAL_PREFIXES = (
    "docker",
    "br-",
    "veth",
    "virbr",
    "vboxnet",
    "vmnet",
    "tun",
    "tap",
    "wg",
    "utun",
    "ipsec",
    "zt",
    "zerotier",
    "tailscale",
    "nordlynx",
    "proton",
    "mullvad",
    "openvpn",
    "wireguard",
    "virtualbox",
    "vmware",
    "vethernet",
    "loopback",
)
#: The loopback's names (Linux, macOS), matched whole: a prefix "lo" would also take Windows'
#: "Local Area Connection", which is an Ethernet.
LOOPBACK_NAMES = frozenset({"lo", "lo0"})

#: The home-network ranges of RFC 1918: a Wi-Fi router hands out addresses from these. Link-local
#: addresses (169.254/16, a network with no router) and the carrier-grade range (100.64/10,
#: Tailscale's) are not among them.
HOME_NETWORKS = tuple(
    ipaddress.IPv4Network(block) for block in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")
)


def network_interfaces() -> list[Interface]:
    """``(interface, IPv4 address)`` for every interface up, loopback included.

    psutil is imported here, not at the top: only the join address and the doctor need it,
    and importing this module must cost nothing.
    """
    import psutil

    found: list[Interface] = []
    for name, addresses in psutil.net_if_addrs().items():
        for address in addresses:
            if address.family.name == "AF_INET":
                found.append((name, address.address))
    return found


def is_virtual(interface: str) -> bool:
    """Whether ``interface`` is a container, bridge, VPN or loopback rather than a real LAN."""
    name = interface.casefold()
    return name in LOOPBACK_NAMES or name.startswith(VIRTUAL_PREFIXES)


def is_home_address(address: str) -> bool:
    """An RFC 1918 IPv4 address: one a Wi-Fi or Ethernet router gives out."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    return isinstance(parsed, ipaddress.IPv4Address) and any(
        parsed in network for network in HOME_NETWORKS
    )


def interface_of(address: str, interfaces: Iterable[Interface]) -> str | None:
    """The name of the interface that has ``address``, or None if none listed has it."""
    return next((name for name, listed in interfaces if listed == address), None)


def phone_address(route: str, interfaces: Iterable[Interface]) -> str:
    """The address phones should join at, given the default route's address ``route``.

    The route's address is kept unless it is on a virtual interface (a VPN, a container
    bridge, the loopback) and a real interface has a home-network address: then that one,
    the first in the table's order. With nothing better (only a VPN, or a table that does not
    list the route's address), the route's address stays: it is what the party always used.
    """
    table = list(interfaces)
    route_interface = interface_of(route, table)
    if route_interface is None or not is_virtual(route_interface):
        return route
    home = (address for name, address in table if not is_virtual(name) and is_home_address(address))
    return next(home, route)


__all__ = [
    "HOME_NETWORKS",
    "LOOPBACK_NAMES",
    "VIRTUAL_PREFIXES",
    "Interface",
    "interface_of",
    "is_home_address",
    "is_virtual",
    "network_interfaces",
    "phone_address",
]
