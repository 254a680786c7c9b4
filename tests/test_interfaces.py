"""Which interface the phones are on (``host/interfaces.py``), from fake interface tables.

Round 34 and 36, still open: with a VPN up, the default route (and so the join address) was
the VPN's, and the QR code on the TV led the phones on the Wi-Fi nowhere.
"""

from __future__ import annotations

import pytest

from host.interfaces import Interface, is_home_address, is_virtual, phone_address

WIFI: Interface = ("wlan0", "192.168.1.20")
LOOPBACK: Interface = ("lo", "127.0.0.1")
DOCKER: Interface = ("docker0", "172.17.0.1")


@pytest.mark.parametrize(
    "vpn",
    [
        ("tun0", "10.8.0.6"),
        ("wg0", "10.64.0.2"),
        ("utun3", "10.7.0.3"),
        ("tailscale0", "100.101.1.2"),
    ],
)
def test_vpn_holding_the_route_gives_way_to_the_wifi(vpn: Interface) -> None:
    table = [LOOPBACK, vpn, DOCKER, WIFI]  # the VPN and Docker listed before the Wi-Fi
    assert phone_address(vpn[1], table) == "192.168.1.20"


def test_only_a_vpn_keeps_the_vpn_address_nothing_better() -> None:
    vpn = ("tun0", "10.8.0.6")
    assert phone_address("10.8.0.6", [LOOPBACK, vpn]) == "10.8.0.6"
    # a link-local address (169.254/16: a network without a router) is no better
    assert phone_address("10.8.0.6", [LOOPBACK, vpn, ("eth0", "169.254.7.1")]) == "10.8.0.6"
    # nor is a public address on a real interface (not a home network's)
    assert phone_address("10.8.0.6", [vpn, ("eth0", "203.0.113.5")]) == "10.8.0.6"


def test_docker_holding_the_route_gives_way_to_the_wifi_and_never_wins_over_it() -> None:
    bridges = [("br-5f1c2a", "172.18.0.1"), ("virbr0", "192.168.122.1"), ("veth12ab", "10.9.0.1")]
    table = [LOOPBACK, DOCKER, *bridges, WIFI]
    assert phone_address("172.17.0.1", table) == "192.168.1.20"
    assert phone_address("192.168.122.1", table) == "192.168.1.20"
    # a VPN's route with only bridges beside the Wi-Fi: the Wi-Fi, not the first bridge
    assert phone_address("10.8.0.6", [("tun0", "10.8.0.6"), *table]) == "192.168.1.20"


@pytest.mark.parametrize(
    "table", [[LOOPBACK, WIFI], [LOOPBACK, DOCKER, WIFI, ("eth0", "10.0.0.4")]]
)
def test_plain_wifi_route_is_unchanged(table: list[Interface]) -> None:
    assert phone_address("192.168.1.20", table) == "192.168.1.20"
    assert phone_address("10.0.0.4", [*table, ("eth0", "10.0.0.4")]) == "10.0.0.4"


def test_a_route_address_no_interface_lists_is_kept() -> None:
    assert phone_address("10.8.0.6", [LOOPBACK, WIFI]) == "10.8.0.6"


def test_no_default_route_but_a_wifi_address_is_the_wifi() -> None:
    """The route probe's fallback, the loopback, is on ``lo``: the Wi-Fi's address is better."""
    assert phone_address("127.0.0.1", [LOOPBACK, WIFI]) == "192.168.1.20"
    assert phone_address("127.0.0.1", [LOOPBACK]) == "127.0.0.1"


def test_interface_names_and_home_addresses() -> None:
    assert is_virtual("tun0") and is_virtual("Tailscale") and is_virtual("vEthernet (WSL)")
    assert not is_virtual("wlan0") and not is_virtual("en0") and not is_virtual("Wi-Fi")
    assert not is_virtual("br0")  # a bridge someone made for the LAN, unlike Docker's br-…
    assert is_virtual("lo") and is_virtual("lo0") and is_virtual("Loopback Pseudo-Interface 1")
    # Windows' name for an Ethernet: not the loopback for starting with "lo".
    assert not is_virtual("Local Area Connection")
    assert not is_virtual("Ethernet 2") and not is_virtual("WLAN")  # Windows, German Windows


@pytest.mark.parametrize(
    "name",
    [
        "NordLynx",  # NordVPN, Windows and Linux
        "ProtonVPN",  # Windows
        "proton0",  # ProtonVPN, Linux
        "Mullvad",  # Windows
        "OpenVPN TAP-Windows6",
        "OpenVPN Data Channel Offload",
        "ZeroTier One [8056c2e21c000001]",
        "VirtualBox Host-Only Network",
        "VMware Network Adapter VMnet8",
        "ipsec0",  # macOS's IKEv2 VPNs
    ],
)
def test_vpns_and_virtual_networks_by_their_windows_and_app_names(name: str) -> None:
    """Round 37: the VPN check knew Linux's and macOS's names (tun0, wg0, utun3) but not the
    names Windows lists its VPN adapters by, so a NordVPN on Windows still took the QR code."""
    assert is_virtual(name)
    assert phone_address("10.5.0.2", [(name, "10.5.0.2"), ("Wi-Fi", "192.168.1.20")]) == (
        "192.168.1.20"
    )
    assert is_home_address("10.1.2.3") and is_home_address("172.31.0.1")
    assert is_home_address("192.168.0.1")
    assert not is_home_address("172.32.0.1") and not is_home_address("169.254.1.1")
    assert not is_home_address("100.64.0.1") and not is_home_address("fe80::1")
    assert not is_home_address("not an address")
