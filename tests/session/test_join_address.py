"""The join address follows the network while the party runs (``host/join_address.py``).

A laptop started before it found the Wi-Fi has only 127.0.0.1; one that moves to another
network gets a new address. Looked up once, the join line and the TV's QR code would lead
every phone nowhere for the rest of the night.
"""

from __future__ import annotations

import io
import threading

from host.app import join_announcer
from host.i18n import Catalog
from host.join_address import JoinAddress, JoinLink, fixed
from host.network import lan_address


class Network:
    """The address the system gives, as a test sets it; counts the look-ups."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.asked = 0
        self.fails = False

    def __call__(self, bind: str) -> str:
        self.asked += 1
        if self.fails:
            raise OSError("resolver gone")
        return bind if bind not in ("", "0.0.0.0", "::") else self.address


def test_no_network_shows_offline_and_the_address_follows_the_wifi_once_it_comes() -> None:
    network = Network("127.0.0.1")
    told: list[JoinLink] = []
    address = JoinAddress("0.0.0.0", 8000, "CAKE", route_address=network, on_change=told.append)
    assert address.current() == JoinLink("http://127.0.0.1:8000/?room=CAKE", offline=True)
    assert address.check() is False and told == []  # nothing moved: nothing told
    network.address = "192.168.1.20"
    assert address.check() is True
    assert told == [JoinLink("http://192.168.1.20:8000/?room=CAKE")]
    assert address.current() == told[-1]
    network.address = "10.0.0.7"  # another Wi-Fi, or a new lease
    assert address.check() is True
    assert address.current().url == "http://10.0.0.7:8000/?room=CAKE"
    network.address = "127.0.0.1"  # the Wi-Fi dropped
    assert address.check() is True and told[-1].offline
    assert len(told) == 3


def test_an_address_the_host_chose_is_never_looked_up_again_nor_called_unreachable() -> None:
    network = Network("192.168.1.20")
    address = JoinAddress("127.0.0.1", 8000, "CAKE", route_address=network)
    assert address.current() == JoinLink("http://127.0.0.1:8000/?room=CAKE", offline=False)
    assert not address.follows
    assert address.start()._thread is None  # nothing to follow: no thread
    address.stop()
    assert fixed("http://party.example/?room=CAKE")() == JoinLink("http://party.example/?room=CAKE")


def test_the_watcher_follows_on_its_own_thread_and_a_failed_look_up_keeps_the_address() -> None:
    network = Network("127.0.0.1")
    moved = threading.Event()
    address = JoinAddress(
        "0.0.0.0",
        8000,
        "CAKE",
        route_address=network,
        every=0.01,
        on_change=lambda link: moved.set(),
    ).start()
    try:
        network.fails = True
        asked = network.asked
        deadline = threading.Event()
        for _ in range(500):  # a few failed look-ups (at most 5 s)
            if network.asked >= asked + 3:
                break
            deadline.wait(0.01)
        assert network.asked >= asked + 3
        assert address.current().offline  # the failures changed nothing and ended nothing
        network.fails = False
        network.address = "192.168.1.20"
        assert moved.wait(5)
        assert address.current() == JoinLink("http://192.168.1.20:8000/?room=CAKE")
    finally:
        address.stop()
    assert address._thread is not None and not address._thread.is_alive()


def test_the_console_prints_the_contract_line_again_and_says_what_to_do_without_network() -> None:
    catalog = Catalog.load()
    out = io.StringIO()
    announce = join_announcer(catalog, "fr", out)
    announce(JoinLink("http://127.0.0.1:8000/?room=CAKE", offline=True))
    announce(JoinLink("http://192.168.1.20:8000/?room=CAKE"))
    lines = out.getvalue().splitlines()
    assert lines == [
        "Join at http://127.0.0.1:8000/?room=CAKE",
        catalog.t("fr", "cli.join_at", url="http://127.0.0.1:8000/?room=CAKE"),
        catalog.t("fr", "cli.no_network"),
        "Join at http://192.168.1.20:8000/?room=CAKE",
        catalog.t("fr", "cli.join_at", url="http://192.168.1.20:8000/?room=CAKE"),
    ]
    assert "Wi-Fi" in lines[2]


class Terminal(io.StringIO):
    """A console a person reads (``isatty``), as when the host types the command."""

    def isatty(self) -> bool:
        return True


def test_round46_an_italian_console_says_every_line_in_italian() -> None:
    """Round 46: ``cuckoo-party --lang it`` printed "Join at …" in English first. On a
    terminal the host reads only the chosen language; the contract's English line stays for
    the programs that read a pipe (the test above), and is the one line in English."""
    catalog = Catalog.load()
    url = "http://192.168.1.20:8000/?room=CAKE"
    for lang, told in (("it", catalog.t("it", "cli.join_at", url=url)), ("en", f"Join at {url}")):
        out = Terminal()
        join_announcer(catalog, lang, out)(JoinLink(url))
        assert out.getvalue().splitlines() == [told], lang


def test_a_vpn_switched_on_mid_party_does_not_move_the_join_address_off_the_wifi() -> None:
    """Round 34/36's open VPN case: the VPN takes the default route while the party runs; the
    address looked up every few seconds stays the Wi-Fi's, so the QR code keeps working."""
    network = Network("192.168.1.20")
    table = [("lo", "127.0.0.1"), ("wlan0", "192.168.1.20")]

    def route_address(bind: str) -> str:
        return lan_address(bind, route=network, interfaces=lambda: table)

    told: list[JoinLink] = []
    address = JoinAddress(
        "0.0.0.0", 8000, "CAKE", route_address=route_address, on_change=told.append
    )
    network.address = "10.8.0.6"  # the VPN comes up and takes the default route
    table.append(("tun0", "10.8.0.6"))
    assert address.check() is False and told == []
    assert address.current() == JoinLink("http://192.168.1.20:8000/?room=CAKE")
