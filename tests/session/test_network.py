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
