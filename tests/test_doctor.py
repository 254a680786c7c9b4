"""``cuckoo-party doctor`` (issue 17): each check on each system, with fakes of the platform."""

from __future__ import annotations

import importlib.metadata
import io
from argparse import Namespace
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest

from host.cli import build_parser
from host.doctor import Machine, run_doctor_command
from host.i18n import Catalog
from host.one_party import PartyLock, PartyRunning, RunningParty, lock_path
from host.system import Probe
from tests.host_process import HostProcess


def healthy(tmp_path: Path) -> Machine:
    return Machine(
        platform="linux",
        python=(3, 12, 4),
        display=lambda: Probe(True, "x11"),
        audio=lambda: Probe(True, "44100 Hz, 2 channels", 44100, 2),
        voice=lambda lang: "English (Great Britain)",
        interfaces=lambda: [
            ("lo", "127.0.0.1"),
            ("wlan0", "192.168.1.20"),
            ("docker0", "172.17.0.1"),
        ],
        route_address=lambda bind: "192.168.1.20",
        port_free=lambda bind, port: True,
        version=lambda name: "1.0",
        firewall=lambda system: None,
        cjk_fonts=lambda: [Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")],
    )


def run(machine: Machine, tmp_path: Path, lang: str = "en") -> tuple[int, str]:
    args = build_parser().parse_args(
        ["--lang", lang, "--state", str(tmp_path / "s.json"), "--port", "8000", "doctor"]
    )
    out = io.StringIO()
    return run_doctor_command(args, out=out, machine=machine), out.getvalue()


def test_all_well_exits_0_and_names_the_address_and_other_interfaces(tmp_path: Path) -> None:
    code, text = run(healthy(tmp_path), tmp_path)
    assert code == 0, text
    assert "Phones will join at http://192.168.1.20:8000/" in text
    assert "docker0: 172.17.0.1 (a container or VPN network" in text
    assert "cuckoo-party --bind 172.17.0.1" in text
    assert "127.0.0.1" not in text.split("Phones will join")[1].split("\n")[1]
    assert f"The game is saved to {tmp_path / 's.json'}" in text
    assert text.rstrip().endswith("All set: the party can start.")


def test_no_reachable_address_is_a_failure(tmp_path: Path) -> None:
    machine = replace(
        healthy(tmp_path),
        route_address=lambda bind: "127.0.0.1",
        interfaces=lambda: [("lo", "127.0.0.1")],
    )
    code, text = run(machine, tmp_path)
    assert code == 1
    assert "✗ No network address that phones can reach" in text
    assert "--bind or --public-url" in text


def test_missing_screen_sound_and_voice_only_warn(tmp_path: Path) -> None:
    def no_voice(lang: str) -> str:
        raise RuntimeError("pyttsx3 could not start")

    machine = replace(
        healthy(tmp_path),
        display=lambda: Probe(False, "offscreen"),
        audio=lambda: Probe(False, "ALSA: no device"),
        voice=no_voice,
    )
    code, text = run(machine, tmp_path)
    assert code == 0
    assert "! No screen found: the party will run headless" in text
    assert "! No sound output (ALSA: no device)" in text
    assert "! No voice (pyttsx3 could not start): captions only" in text


@pytest.mark.parametrize(
    ("system", "lang", "hint"),
    [
        ("linux", "en", "sudo apt install fonts-noto-cjk"),
        ("linux", "fr", "sudo apt install fonts-noto-cjk"),
        ("darwin", "en", "Noto Sans CJK"),
        ("win32", "it", "Noto Sans CJK"),
    ],
)
def test_playtest_cjk_no_font_for_cjk_names_warns_with_how_to_add_one(
    tmp_path: Path, system: str, lang: str, hint: str
) -> None:
    """Play-test finding ("李小龍" drawn as boxes): without a CJK font the party refuses such
    names at the join; the doctor says so before the guests come, and how to add one."""
    machine = replace(healthy(tmp_path), platform=system, cjk_fonts=list)
    code, text = run(machine, tmp_path, lang)
    assert code == 0
    assert f"! {Catalog.load().t(lang, 'doctor.cjk_none')}" in text and hint in text


def test_playtest_cjk_the_font_for_cjk_names_is_named(tmp_path: Path) -> None:
    _, text = run(healthy(tmp_path), tmp_path)
    assert (
        "✓ Chinese, Japanese and Korean names: the TV draws them with NotoSansCJK-Regular.ttc"
        in text
    )


def test_playtest_cjk_headless_says_nothing_of_cjk_fonts(tmp_path: Path) -> None:
    """No screen: the party runs headless and takes any name."""
    machine = replace(healthy(tmp_path), display=lambda: Probe(False, "offscreen"), cjk_fonts=list)
    _, text = run(machine, tmp_path)
    assert "Chinese" not in text


def test_busy_port_warns_with_a_way_out(tmp_path: Path) -> None:
    code, text = run(replace(healthy(tmp_path), port_free=lambda bind, port: False), tmp_path)
    assert code == 0
    assert "! Port 8000 is busy" in text and "--port" in text


@pytest.mark.parametrize(
    "system, hint",
    [
        ("linux", "sudo ufw allow 8000/tcp"),
        ("darwin", "System Settings › Network › Firewall"),
        ("win32", "allow Python on private networks"),
    ],
)
def test_firewall_hint_per_system(tmp_path: Path, system: str, hint: str) -> None:
    code, text = run(replace(healthy(tmp_path), platform=system), tmp_path)
    assert code == 0 and hint in text


def test_an_active_firewall_is_named(tmp_path: Path) -> None:
    _, text = run(replace(healthy(tmp_path), firewall=lambda system: "ufw"), tmp_path)
    assert "! A firewall is on (ufw)" in text


def test_unsupported_python_and_missing_library_fail(tmp_path: Path) -> None:
    def version(name: str) -> str:
        if name == "waitress":
            raise importlib.metadata.PackageNotFoundError(name)
        return "1.0"

    code, text = run(replace(healthy(tmp_path), python=(3, 14, 0), version=version), tmp_path)
    assert code == 1
    assert "✗ Python 3.14.0 is not supported" in text
    assert "✗ The library waitress is missing" in text


def test_a_state_folder_that_cannot_hold_a_save_fails(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    args = Namespace(
        lang="en",
        doctor_lang=None,
        bind="0.0.0.0",
        port=8000,
        state=str(blocker / "state.json"),
        speak=False,
    )
    out = io.StringIO()
    assert run_doctor_command(args, out=out, machine=healthy(tmp_path)) == 1
    assert f"✗ The game cannot be saved to {blocker / 'state.json'}" in out.getvalue()


def test_the_report_speaks_the_hosts_language(tmp_path: Path) -> None:
    _, text = run(healthy(tmp_path), tmp_path, lang="fr")
    assert "Les téléphones rejoindront la partie sur http://192.168.1.20:8000/" in text
    assert text.rstrip().endswith("Tout est prêt\u00a0: la fête peut commencer.")


def test_a_vpn_on_the_default_route_is_stepped_around_and_said(tmp_path: Path) -> None:
    """Round 34/36's open VPN case: the doctor chooses the Wi-Fi's address, as the party does,
    and says the VPN holds the default route and phones join through the Wi-Fi."""
    machine = replace(
        healthy(tmp_path),
        interfaces=lambda: [("lo", "127.0.0.1"), ("tun0", "10.8.0.6"), ("wlan0", "192.168.1.20")],
        route_address=lambda bind: "10.8.0.6",
    )
    code, text = run(machine, tmp_path)
    assert code == 0, text
    assert "✓ Phones will join at http://192.168.1.20:8000/ (through wlan0)" in text
    assert (
        "! The default route goes through tun0 (10.8.0.6), a VPN or virtual network the phones"
        " cannot reach: they join through wlan0 instead"
    ) in text
    assert "the VPN may be blocking the local network" in text
    assert "tun0: 10.8.0.6 (a container or VPN network" in text
    assert "--bind 10.8.0.6" not in text  # the address just stepped around is no way out
    _, french = run(machine, tmp_path, lang="fr")
    assert "La route par défaut passe par tun0 (10.8.0.6)" in french
    assert "ils passeront plutôt par wlan0" in french


def test_only_a_vpn_keeps_its_address_and_warns(tmp_path: Path) -> None:
    machine = replace(
        healthy(tmp_path),
        interfaces=lambda: [("lo", "127.0.0.1"), ("wg0", "10.64.0.2")],
        route_address=lambda bind: "10.64.0.2",
    )
    code, text = run(machine, tmp_path, lang="it")
    assert code == 0, text
    assert "I telefoni entreranno su http://10.64.0.2:8000/ (tramite wg0)" in text
    assert "! 10.64.0.2 è su wg0, una VPN o una rete virtuale" in text
    assert "instradamento predefinito" not in text  # nothing better to step around it to


def test_docker_on_the_default_route_gives_way_to_the_wifi(tmp_path: Path) -> None:
    machine = replace(
        healthy(tmp_path),
        interfaces=lambda: [
            ("docker0", "172.17.0.1"),
            ("br-5f1c", "172.18.0.1"),
            ("en0", "10.0.0.4"),
        ],
        route_address=lambda bind: "172.17.0.1",
    )
    _, text = run(machine, tmp_path)
    assert "Phones will join at http://10.0.0.4:8000/ (through en0)" in text
    assert "The default route goes through docker0 (172.17.0.1)" in text


def test_plain_wifi_says_its_interface_and_no_vpn(tmp_path: Path) -> None:
    _, text = run(healthy(tmp_path), tmp_path)
    assert "✓ Phones will join at http://192.168.1.20:8000/ (through wlan0)" in text
    assert "default route" not in text and "VPN or virtual network" not in text


def test_the_other_address_to_try_is_a_real_networks_before_a_containers(tmp_path: Path) -> None:
    machine = replace(
        healthy(tmp_path),
        interfaces=lambda: [
            ("docker0", "172.17.0.1"),
            ("wlan0", "192.168.1.20"),
            ("eth0", "10.0.0.4"),
        ],
    )
    _, text = run(machine, tmp_path)
    assert "try another one: cuckoo-party --bind 10.0.0.4" in text


RUNNING = "Cuckoo Party is already running with this saved game"


def test_issue12_a_party_running_on_this_save_is_named_and_its_lock_left_alone(
    tmp_path: Path, host_processes: list[HostProcess]
) -> None:
    """A real host holds the save's lock; the doctor says so with the join address the lock
    file holds, and afterwards the host still holds its lock and serves its phones."""
    state = tmp_path / "s.json"
    host = HostProcess(state)
    host_processes.append(host)
    join = f"{host.url}/?room=TEST"

    code, text = run(healthy(tmp_path), tmp_path)

    assert code == 0, text
    assert f"! {RUNNING}: phones join at {join}" in text
    assert "Starting it again on this save would be refused" in text
    assert text.rstrip().endswith("the party is already running: carry on with it.")
    assert "All set: the party can start." not in text  # it cannot: a start would be refused
    with pytest.raises(PartyRunning) as refused:  # the lock is still the host's, as it wrote it
        PartyLock.take(state)
    assert refused.value.running == RunningParty(pid=host.process.pid, join_url=join)
    assert host.process.poll() is None and host.http.call("GET", "/healthz") == (200, "ok")
    _, french = run(healthy(tmp_path), tmp_path, lang="fr")
    assert (
        "Cuckoo Party est déjà lancé avec cette partie enregistrée\u00a0: "
        f"les téléphones le rejoignent sur {join}" in french
    )

    host.kill_9()  # the lock goes with the process; the file stays, and says nothing now
    assert lock_path(state).exists()
    _, after = run(healthy(tmp_path), tmp_path)
    assert RUNNING not in after
    with closing(PartyLock.take(state)) as next_start:  # the doctor left no lock behind
        assert next_start.held


def test_issue12_no_party_running_says_nothing_and_creates_no_lock_file(tmp_path: Path) -> None:
    code, text = run(healthy(tmp_path), tmp_path)
    assert code == 0 and RUNNING not in text
    assert text.rstrip().endswith("All set: the party can start.")
    assert not lock_path(tmp_path / "s.json").exists()


def test_issue12_a_running_party_without_an_address_yet_is_named_too(tmp_path: Path) -> None:
    """The lock held (here by this process, on its own descriptor) before the party wrote where
    phones join: the doctor still says a party runs."""
    with closing(PartyLock.take(tmp_path / "s.json")):
        _, text = run(healthy(tmp_path), tmp_path, lang="it")
    assert "! Cuckoo Party è già avviato con questa partita salvata (ancora senza indirizzo" in text


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "(44100 Hz, 2 channels)"), ("fr", "(44100 Hz, 2 canaux)")]
)
def test_the_sound_output_is_described_in_the_hosts_language(
    tmp_path: Path, lang: str, said: str
) -> None:
    """Round 37's play-test: the French doctor said "(44100 Hz, 2 channels)"."""
    _, text = run(healthy(tmp_path), tmp_path, lang=lang)
    assert said in text


def test_issue12_the_port_the_running_party_holds_is_not_called_busy(tmp_path: Path) -> None:
    """Round 37's play-test: with the party running, the doctor said "Port 8000 is busy …
    Close the other program", the other program being the party it names two lines below."""
    machine = replace(
        healthy(tmp_path),
        port_free=lambda bind, port: False,
        running=lambda state: RunningParty(pid=4321, join_url="http://192.168.1.20:8000/?room=T"),
    )
    _, text = run(machine, tmp_path)
    assert "✓ Port 8000 is taken by the party already running" in text
    assert "busy" not in text and "Close the other program" not in text
    elsewhere = replace(
        machine, running=lambda state: RunningParty(pid=4321, join_url="http://192.168.1.20:8001/")
    )
    _, text = run(elsewhere, tmp_path)  # the party took the next port: 8000 is someone else's
    assert "! Port 8000 is busy" in text and "Close the other program" in text


def test_round45_doctor_takes_the_partys_options_after_its_name_too() -> None:
    """Round 45's play-test: "cuckoo-party doctor --port 6150" was a usage error; only
    "cuckoo-party --port 6150 doctor" worked. Both now check that port (and --bind, --state);
    with neither, the party's defaults."""
    after = build_parser().parse_args(
        ["doctor", "--port", "6150", "--bind", "127.0.0.1", "--state", "/tmp/s.json"]
    )
    before = build_parser().parse_args(
        ["--port", "6150", "--bind", "127.0.0.1", "--state", "/tmp/s.json", "doctor"]
    )
    for args in (after, before):
        assert (args.command, args.port, args.bind, args.state) == (
            "doctor",
            6150,
            "127.0.0.1",
            "/tmp/s.json",
        )
    plain = build_parser().parse_args(["doctor"])
    assert (plain.port, plain.bind, plain.state) == (8000, "0.0.0.0", None)
