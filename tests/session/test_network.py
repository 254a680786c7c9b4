"""Finding the address phones use, without sending traffic, and a free port."""

from __future__ import annotations

import ipaddress
import socket

from host.network import free_port, join_url, lan_address, port_is_free, public_join_url


def test_join_url_is_the_contract_line_shape() -> None:
    assert join_url("192.168.1.20", 8000, "ABCD") == "http://192.168.1.20:8000/?room=ABCD"
    assert join_url("fe80::1", 8000, "ABCD") == "http://[fe80::1]:8000/?room=ABCD"
    assert public_join_url("http://10.0.0.5:9000/", "ABCD") == "http://10.0.0.5:9000/?room=ABCD"


def test_lan_address_is_the_bound_address_or_an_ipv4() -> None:
    assert lan_address("127.0.0.1") == "127.0.0.1"
    assert isinstance(ipaddress.ip_address(lan_address("0.0.0.0")), ipaddress.IPv4Address)


def test_free_port_skips_a_busy_one() -> None:
    busy = free_port("127.0.0.1", 0)
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", busy))
        blocker.listen()
        assert not port_is_free("127.0.0.1", busy)
        assert free_port("127.0.0.1", busy) > busy


VPN_AND_WIFI = [("lo", "127.0.0.1"), ("tun0", "10.8.0.6"), ("wlan0", "192.168.1.20")]


def test_lan_address_steps_around_a_vpn_holding_the_default_route() -> None:
    """Round 34/36's open VPN case: the join address is the Wi-Fi's, not the VPN's."""
    found = lan_address("0.0.0.0", route=lambda bind: "10.8.0.6", interfaces=lambda: VPN_AND_WIFI)
    assert found == "192.168.1.20"


def test_lan_address_keeps_an_address_the_host_bound_even_a_vpns() -> None:
    found = lan_address("10.8.0.6", route=lambda bind: bind, interfaces=lambda: VPN_AND_WIFI)
    assert found == "10.8.0.6"


def test_lan_address_keeps_the_route_when_the_interfaces_cannot_be_listed() -> None:
    def no_listing() -> list[tuple[str, str]]:
        raise OSError("no interfaces for you")

    assert (
        lan_address("0.0.0.0", route=lambda bind: "10.8.0.6", interfaces=no_listing) == "10.8.0.6"
    )
