"""Every dependency installs from wheels on every supported system (issue 17).

Why: a party host runs on whatever is plugged into the TV. If one dependency has no wheel for
a Python or a platform, pip falls back to a source build that needs compilers and SDL headers
— a dead end for a guest's laptop. This asks pip to resolve the whole dependency tree, wheels
only (``--only-binary=:all:``), for CPython 3.10–3.13 on Linux x86-64 and aarch64, macOS
(Intel and Apple silicon) and Windows, without installing anything (``--dry-run``; pip reads the
wheels' metadata only).

pip evaluates environment markers against the machine it runs on, not the target; so the
platform-specific requirements (ours, and those of our direct dependencies, such as pyttsx3's
pyobjc on macOS) are evaluated here for each target and passed explicitly.

    python scripts/check_wheels.py            # all targets; exit 1 if any fails
"""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import tomllib
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PYTHONS = ("3.10", "3.11", "3.12", "3.13")
#: Each target: the wheel platform tags pip may use there, and its marker environment.
TARGETS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "linux-x86_64": (
        ("manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64"),
        {
            "sys_platform": "linux",
            "platform_system": "Linux",
            "platform_machine": "x86_64",
            "os_name": "posix",
        },
    ),
    "linux-aarch64": (
        ("manylinux_2_28_aarch64", "manylinux_2_17_aarch64", "manylinux2014_aarch64"),
        {
            "sys_platform": "linux",
            "platform_system": "Linux",
            "platform_machine": "aarch64",
            "os_name": "posix",
        },
    ),
    "macos-x86_64": (
        (
            "macosx_12_0_x86_64",
            "macosx_11_0_x86_64",
            "macosx_10_13_x86_64",
            "macosx_10_9_x86_64",
            "macosx_10_9_universal2",
        ),
        {
            "sys_platform": "darwin",
            "platform_system": "Darwin",
            "platform_machine": "x86_64",
            "os_name": "posix",
        },
    ),
    "macos-arm64": (
        ("macosx_14_0_arm64", "macosx_12_0_arm64", "macosx_11_0_arm64", "macosx_10_9_universal2"),
        {
            "sys_platform": "darwin",
            "platform_system": "Darwin",
            "platform_machine": "arm64",
            "os_name": "posix",
        },
    ),
    "windows-amd64": (
        ("win_amd64",),
        {
            "sys_platform": "win32",
            "platform_system": "Windows",
            "platform_machine": "AMD64",
            "os_name": "nt",
        },
    ),
}
PLATFORM_KEYS = ("sys_platform", "platform_system", "platform_machine", "os_name")


def project_requirements() -> list[Requirement]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [Requirement(text) for text in data["project"]["dependencies"]]


def applies(requirement: Requirement, environment: dict[str, str]) -> bool:
    return requirement.marker is None or requirement.marker.evaluate({**environment, "extra": ""})


def requirements_for(environment: dict[str, str]) -> list[str]:
    """Our requirements for one target, plus our dependencies' platform-specific ones."""
    lines: list[str] = []
    for requirement in project_requirements():
        if not applies(requirement, environment):
            continue
        lines.append(str(Requirement(str(requirement).split(";")[0])))
        try:
            nested = importlib.metadata.requires(requirement.name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        for text in nested:
            child = Requirement(text)
            if (
                child.marker is not None
                and any(key in str(child.marker) for key in PLATFORM_KEYS)
                and "extra" not in str(child.marker)
                and applies(child, environment)
            ):
                lines.append(str(Requirement(text.split(";")[0])))
    return lines


def check(target: str, python: str) -> tuple[str, str, bool, str]:
    tags, environment = TARGETS[target]
    environment = {
        **environment,
        "python_version": python,
        "python_full_version": f"{python}.0",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
    }
    with tempfile.TemporaryDirectory() as folder:
        requirements = Path(folder) / "requirements.txt"
        requirements.write_text("\n".join(requirements_for(environment)) + "\n")
        command = [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--dry-run",
            "--quiet",
            "--ignore-installed",
            "--only-binary=:all:",
            "--target",
            str(Path(folder) / "t"),
            "--python-version",
            python,
            "--implementation",
            "cp",
            *[arg for tag in tags for arg in ("--platform", tag)],
            "-r",
            str(requirements),
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    errors = [line for line in done.stderr.splitlines() if line.startswith("ERROR")]
    return target, python, done.returncode == 0, (errors[-1] if errors else "")


def main() -> int:
    jobs = [(target, python) for target in TARGETS for python in PYTHONS]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda job: check(*job), jobs))
    failed = 0
    for target, python, ok, error in results:
        print(f"{'ok  ' if ok else 'FAIL'} CPython {python} {target:14} {error}")
        failed += not ok
    print(f"{len(results) - failed} of {len(results)} targets install from wheels only")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
