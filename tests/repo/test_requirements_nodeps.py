"""The packages ``make setup-test`` installs with ``--no-deps`` (``requirements-test-nodeps.txt``).

pip does not check their requirements, so these tests do: each requirement of each such package
(for Linux and this Python) is pinned in the other files at a version it accepts, except the ones
it caps below the series' pins, which are named here with the reason; when a release lifts a cap,
the test fails, and the package can go back to ``requirements-test.txt``.
"""

from __future__ import annotations

import sys
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
NODEPS = ROOT / "requirements-test-nodeps.txt"
#: package -> its requirements it caps below the pins (why it is installed with --no-deps)
CAPPED = {"instructor": {"jiter", "rich"}}
LINUX = {
    "sys_platform": "linux",
    "platform_system": "Linux",
    "os_name": "posix",
    "python_version": f"{sys.version_info.major}.{sys.version_info.minor}",
}


def _pins(*names: str) -> dict[str, str]:
    """name -> version of every ``name==version`` line in the files ``names``."""
    pins: dict[str, str] = {}
    for name in names:
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
            line = line.split("#")[0].strip()
            if "==" in line and not line.startswith("-"):
                pin = Requirement(line)
                pins[canonicalize_name(pin.name)] = next(iter(pin.specifier)).version
    return pins


NODEPS_PINS = _pins(NODEPS.name)


def test_every_no_deps_package_says_why():
    assert set(NODEPS_PINS) == set(CAPPED)


@pytest.mark.parametrize("package", sorted(NODEPS_PINS))
def test_its_requirements_are_pinned_and_only_its_caps_are_broken(package):
    try:
        installed = distribution(package)
    except PackageNotFoundError:
        pytest.skip(f"{package} is not installed (make setup-test installs it)")
    assert installed.version == NODEPS_PINS[package]
    pins = _pins("requirements.txt", "requirements-test.txt", "constraints.txt")
    direct = _pins("requirements.txt", "requirements-test.txt")
    broken = set()
    for text in installed.requires or []:
        requirement = Requirement(text)
        if requirement.marker is not None and not requirement.marker.evaluate(
            {**LINUX, "extra": ""}
        ):
            continue
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{package} requires {text}: not pinned"
        if requirement.specifier.contains(pins[name]):
            assert name in direct, f"{package} requires {text}: pin it in requirements-test.txt"
        else:
            broken.add(name)
    assert broken == CAPPED[package]
