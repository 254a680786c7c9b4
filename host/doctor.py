"""``cuckoo-party doctor``: everything a party needs, checked and explained before guests come.

Why a doctor: the host machine is whatever is plugged into the TV (a MacBook, a Windows
laptop, a Raspberry Pi), often with several network interfaces (Wi-Fi, Ethernet, Docker, a
VPN) and a firewall. Each check says what it found and, when something is wrong, what to do,
in the host's language. Exit status 1 when something the party *needs* is missing (Python and
its libraries, a free port, an address phones can reach, a folder to save the game in), 0 when
all is well; a missing display, sound or voice only means headless or captions, so it warns.

Every probe is passed in, so tests run each branch (macOS, Windows, no display, busy port)
with fakes of the platform calls.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import ipaddress
import os
import platform as platform_module
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO
from urllib.parse import urlsplit

from host.i18n import Catalog
from host.interfaces import Interface, interface_of, is_virtual, network_interfaces
from host.network import default_route_address, lan_address, port_is_free
from host.one_party import RunningParty, running_party
from host.persistence import default_state_path
from host.system import Probe, probe_audio, probe_display
from host.tv.fallback_fonts import find_fallback_fonts

#: The libraries the party imports, by distribution name.
LIBRARIES: tuple[str, ...] = ("pygame", "pyttsx3", "flask", "waitress", "qrcode", "platformdirs")
SUPPORTED_PYTHON = ((3, 10), (3, 14))  # from 3.10 up to, not including, 3.14
OK, WARN, FAIL = "ok", "warn", "fail"


@dataclass(frozen=True)
class Finding:
    """One line of the report: a status and a translated sentence (with an optional hint)."""

    status: str
    text: str
    hint: str = ""
    summary: str = ""
    """The closing line this finding calls for instead of "All set" (a party already running:
    starting one is not what to do next)."""


@dataclass
class Machine:
    """The platform calls the doctor makes; tests replace any of them."""

    platform: str = sys.platform
    python: tuple[int, int, int] = tuple(sys.version_info[:3])  # type: ignore[assignment]
    display: Callable[[], Probe] = probe_display
    audio: Callable[[], Probe] = probe_audio
    voice: Callable[[str], str] | None = None
    """Returns the voice's name for a language, or raises (no voice)."""
    interfaces: Callable[[], list[Interface]] = network_interfaces
    route_address: Callable[[str], str] = default_route_address
    """The default route's address; the doctor steps around a VPN's as the party does."""
    port_free: Callable[[str, int], bool] = port_is_free
    version: Callable[[str], str] = importlib.metadata.version
    firewall: Callable[[str], str | None] = field(default=lambda system: firewall_state(system))
    running: Callable[[Path], RunningParty | None] = running_party
    """The party running on a save, if one is (it only looks: the lock stays as it was)."""
    cjk_fonts: Callable[[], list[Path]] = find_fallback_fonts
    """The computer's fonts the TV would draw Chinese, Japanese and Korean names with."""


def firewall_state(system: str) -> str | None:
    """A firewall known to be on (``ufw``/``firewalld`` on Linux), else None (unknown or off)."""
    if not system.startswith("linux"):
        return None
    import shutil
    import subprocess

    for command in (["ufw", "status"], ["firewall-cmd", "--state"]):
        if shutil.which(command[0]) is None:
            continue
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=5, check=False)
        except (OSError, subprocess.SubprocessError):
            continue
        answer = (done.stdout or "").strip().lower()
        if answer.startswith("status: active") or answer == "running":
            return command[0]
    return None


def examine(
    machine: Machine, t: Callable[..., str], *, bind: str, port: int, state: Path
) -> list[Finding]:
    """Every check, in the order a host would fix things."""
    findings: list[Finding] = []
    findings += _python_and_libraries(machine, t)
    findings += _screen_and_sound(machine, t)
    running = machine.running(state)
    findings += _network(machine, t, bind, port, running)
    findings.append(_saving(t, state))
    findings += _running(t, running)
    return findings


def _python_and_libraries(machine: Machine, t: Callable[..., str]) -> list[Finding]:
    low, high = SUPPORTED_PYTHON
    version = ".".join(map(str, machine.python))
    found = [
        Finding(OK, t("doctor.python_ok", version=version))
        if low <= machine.python[:2] < high
        else Finding(FAIL, t("doctor.python_bad", version=version), t("doctor.python_hint"))
    ]
    versions: list[str] = []
    for library in LIBRARIES:
        try:
            versions.append(f"{library} {machine.version(library)}")
        except importlib.metadata.PackageNotFoundError:
            found.append(
                Finding(
                    FAIL, t("doctor.library_missing", library=library), t("doctor.library_hint")
                )
            )
    found.append(Finding(OK, t("doctor.libraries", versions=", ".join(versions))))
    return found


def _screen_and_sound(machine: Machine, t: Callable[..., str]) -> list[Finding]:
    found: list[Finding] = []
    display = machine.display()
    found.append(
        Finding(OK, t("doctor.display_ok", driver=display.detail))
        if display.available
        else Finding(WARN, t("doctor.display_none"), t("doctor.display_hint"))
    )
    if display.available:  # a headless party takes any name
        found.append(_cjk_names(machine, t))
    audio = machine.audio()
    found.append(
        Finding(OK, t("doctor.audio_ok", detail=_sound_format(audio, t)))
        if audio.available
        else Finding(WARN, t("doctor.audio_none", detail=audio.detail), t("doctor.audio_hint"))
    )
    if machine.voice is not None:
        try:
            found.append(Finding(OK, t("doctor.voice_ok", voice=machine.voice(""))))
        except Exception as error:  # noqa: BLE001 - any engine failure means captions only
            found.append(
                Finding(WARN, t("doctor.voice_none", reason=str(error)), t("doctor.voice_hint"))
            )
    return found


def _cjk_names(machine: Machine, t: Callable[..., str]) -> Finding:
    """Whether the TV can draw Chinese, Japanese and Korean names: without a CJK font on the
    computer, the party refuses them at the join (``host/tv/shown_names.py``)."""
    fonts = machine.cjk_fonts()
    if fonts:
        return Finding(OK, t("doctor.cjk_ok", font=", ".join(path.name for path in fonts)))
    system = _system(machine.platform)
    hint = t("doctor.cjk_hint_linux" if system == "linux" else "doctor.cjk_hint")
    return Finding(WARN, t("doctor.cjk_none"), hint)


def _network(
    machine: Machine, t: Callable[..., str], bind: str, port: int, running: RunningParty | None
) -> list[Finding]:
    found = _join_address(machine, t, bind, port)
    if machine.port_free(bind, port):
        found.append(Finding(OK, t("doctor.port_free", port=port)))
    elif _serves_on(running, port):
        # Not "close the other program": the other program is this party, said below.
        found.append(Finding(OK, t("doctor.port_party", port=port)))
    else:
        found.append(Finding(WARN, t("doctor.port_busy", port=port), t("doctor.port_hint")))
    system = _system(machine.platform)
    active = machine.firewall(machine.platform)
    hint = t(f"doctor.firewall_{system}", port=port)
    found.append(
        Finding(WARN, t("doctor.firewall_on", firewall=active), hint)
        if active
        else Finding(OK, t("doctor.firewall_check"), hint)
    )
    return found


def _join_address(machine: Machine, t: Callable[..., str], bind: str, port: int) -> list[Finding]:
    """The address phones will use, through which interface, and the others to try.

    The address is chosen as the party chooses it (``lan_address``), so a VPN that holds the
    default route is stepped around here too; the report then says so, since the VPN itself
    may still keep the phones out.
    """
    route = machine.route_address(bind)
    table = machine.interfaces()
    chosen = lan_address(bind, route=lambda _: route, interfaces=lambda: table)
    interface = interface_of(chosen, table)
    loopback = ipaddress.ip_address(chosen).is_loopback
    found: list[Finding] = []
    if loopback:
        found.append(Finding(FAIL, t("doctor.address_loopback"), t("doctor.address_hint")))
    elif interface is None:
        found.append(Finding(OK, t("doctor.address_ok", address=chosen, port=port)))
    else:
        found.append(
            Finding(OK, t("doctor.address_on", address=chosen, port=port, interface=interface))
        )
    route_interface = interface_of(route, table)
    if chosen != route and not ipaddress.ip_address(route).is_loopback:
        text = t("doctor.route_virtual", route=route, vpn=route_interface, interface=interface)
        found.append(Finding(WARN, text, t("doctor.route_virtual_hint")))
    elif interface is not None and is_virtual(interface) and not loopback:
        text = t("doctor.address_virtual", address=chosen, interface=interface)
        found.append(Finding(WARN, text, t("doctor.address_virtual_hint")))
    others = [
        (name, address)
        for name, address in table
        if address != chosen and not ipaddress.ip_address(address).is_loopback
    ]
    for name, address in others:
        key = "doctor.interface_virtual" if is_virtual(name) else "doctor.interface_other"
        found.append(Finding(OK, t(key, interface=name, address=address)))
    # A real network's address first, a container's last; never the VPN's just stepped around.
    to_try = sorted(
        (other for other in others if other[1] != route), key=lambda other: is_virtual(other[0])
    )
    if to_try:
        found.append(Finding(OK, t("doctor.interface_pick", address=to_try[0][1])))
    return found


def _saving(t: Callable[..., str], state: Path) -> Finding:
    folder = state.parent
    probe = folder if folder.exists() else next((p for p in folder.parents if p.exists()), folder)
    if probe.is_dir() and os.access(probe, os.W_OK):
        return Finding(OK, t("doctor.state_ok", path=str(state)))
    return Finding(FAIL, t("doctor.state_bad", path=str(state)), t("doctor.state_hint"))


def _sound_format(audio: Probe, t: Callable[..., str]) -> str:
    """The output's rate and channels in the host's language ("44100 Hz, 2 canaux"); SDL's
    own words when the probe did not give them."""
    if not audio.channels:
        return audio.detail
    return t("doctor.audio_format", count=audio.channels, hz=audio.frequency)


def _serves_on(running: RunningParty | None, port: int) -> bool:
    """Whether the party running on this save is the one holding ``port`` (its join address
    says which port it took)."""
    if running is None or not running.join_url:
        return False
    try:
        return urlsplit(running.join_url).port == port
    except ValueError:  # a lock file written by hand: say nothing of its port
        return False


def _running(t: Callable[..., str], running: RunningParty | None) -> list[Finding]:
    """A party already running on this save (issue 12's lock): a second start is refused."""
    if running is None:
        return []
    text = (
        t("doctor.party_running_at", url=running.join_url)
        if running.join_url
        else t("doctor.party_running")
    )
    return [Finding(WARN, text, t("doctor.party_running_hint"), t("doctor.summary_running"))]


def _system(platform: str) -> str:
    if platform == "darwin":
        return "macos"
    if platform.startswith("win"):
        return "windows"
    return "linux"


def report(findings: Iterable[Finding], t: Callable[..., str], out: TextIO) -> int:
    """Print the findings; 1 if any is a failure, else 0."""
    marks = {OK: "✓", WARN: "!", FAIL: "✗"}
    code = 0
    closing = t("doctor.summary_ok")
    for finding in findings:
        print(f"{marks[finding.status]} {finding.text}", file=out)
        if finding.hint:
            print(f"    {finding.hint}", file=out)
        code = 1 if finding.status == FAIL else code
        closing = finding.summary or closing
    print(t("doctor.summary_bad") if code else closing, file=out)
    return code


def _real_voice(lang: str) -> Callable[[str], str]:
    def describe(_: str) -> str:
        from host.voice import Pyttsx3Engine

        engine = Pyttsx3Engine()
        engine.open()
        return engine.describe(lang)

    return describe


def run_doctor_command(
    args: argparse.Namespace, *, out: TextIO | None = None, machine: Machine | None = None
) -> int:
    """``cuckoo-party doctor [--speak]`` with the party's own ``--lang/--bind/--port/--state``."""
    out = out or sys.stdout
    lang: str = getattr(args, "doctor_lang", None) or args.lang
    t = Catalog.load().translator(lang)
    machine = machine or Machine(voice=_real_voice(lang))
    state = Path(args.state) if args.state else default_state_path()
    print(t("doctor.title", system=platform_module.platform(terse=True)), file=out)
    code = report(examine(machine, t, bind=args.bind, port=args.port, state=state), t, out)
    if getattr(args, "speak", False):
        from host.voice.cli import run_test_voice_command

        speak = argparse.Namespace(voice_lang=lang, lang=lang, out=None)
        code = max(code, run_test_voice_command(speak, out=out, err=out))
    return code
