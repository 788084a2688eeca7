"""The lock (requirements/*.txt, written by scripts/lock) is what the test venv holds, and it
satisfies what pyproject.toml asks for: a dependency added without re-locking, or a venv that
drifted from the lock, fails here with what to do."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^\s;\\]+)\s*(?:;\s*([^\\]+?))?\s*\\?$")


def pins(lock: Path) -> dict[str, tuple[Version, Marker | None]]:
    """Each ``name==version ; marker`` line of a lock, by canonical name."""
    found: dict[str, tuple[Version, Marker | None]] = {}
    for line in lock.read_text().splitlines():
        match = PIN.match(line)
        if match:
            name, version, marker = match.groups()
            found[canonicalize_name(name)] = (Version(version), Marker(marker) if marker else None)
    return found


def declared(extras: tuple[str, ...]) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    optional = project["optional-dependencies"]
    text = project["dependencies"] + [line for extra in extras for line in optional[extra]]
    return [Requirement(line) for line in text]


def test_pins_are_read() -> None:
    runtime = pins(ROOT / "requirements" / "runtime.txt")
    assert "sqlalchemy" in runtime and "greenlet" in runtime  # what SQLAlchemy's asyncio layer needs
    assert "pytest" not in runtime


@pytest.mark.parametrize(("lock", "extras"), [("runtime.txt", ()), ("dev.txt", ("test", "ray"))])
def test_the_lock_meets_pyproject(lock: str, extras: tuple[str, ...]) -> None:
    locked = pins(ROOT / "requirements" / lock)
    for requirement in declared(extras):
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{requirement} is not in requirements/{lock}: run scripts/lock"
        version = locked[name][0]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"requirements/{lock} has {name} {version}, pyproject.toml asks {requirement}: run scripts/lock"
        )


def test_the_venv_holds_exactly_the_lock() -> None:
    """What ``pip freeze`` says equals the lock, for every package locked for this platform."""
    wrong = []
    for name, (version, marker) in pins(ROOT / "requirements" / "dev.txt").items():
        if marker is not None and not marker.evaluate():
            continue
        try:
            installed = Version(metadata.version(name))
        except metadata.PackageNotFoundError:
            wrong.append(f"{name}: not installed (locked {version})")
            continue
        if installed != version:
            wrong.append(f"{name}: {installed} installed, {version} locked")
    assert not wrong, "the venv is not the lock (scripts/test installs it): " + "; ".join(wrong)
