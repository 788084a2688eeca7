"""The browser's bistrot wheel: what offline play runs under Pyodide (docs/offline.md).

The pure-Python engines, bots, solver, :mod:`bistrot.wire` and :mod:`bistrot.local`, zipped from
the installed package (:func:`build_wheel`): the local table, the registry and each registered
game's packages, and every bistrot module these import, found by following their imports.
Pyodide itself is fetched by :mod:`bistrot.pyodide`; :mod:`bistrot.server.offline` serves both.

>>> name, data = build_wheel()
>>> name
'bistrot-0.1.0-py3-none-any.whl'
>>> import io, zipfile
>>> names = zipfile.ZipFile(io.BytesIO(data)).namelist()
>>> "bistrot/local.py" in names, "bistrot/omi/dd/python_solver.py" in names
(True, True)
>>> any(n.startswith(("bistrot/server", "bistrot/cli")) for n in names)
False
>>> build_wheel() == (name, data)  # the same files always give the same bytes
True
"""

from __future__ import annotations

import ast
import base64
import hashlib
import io
import zipfile
from pathlib import Path

import bistrot
from bistrot import games

#: What the browser's wheel starts from: the local table, the registry, and each registered game's
#: packages whole (their engines and bots are imported by name from the registry, which no import
#: follows). Every bistrot module these import is added, followed import by import, so a new module
#: of the engines comes along by itself.
WHEEL_ROOTS = ("__init__.py", "py.typed", "local.py", "bots.py", "games.py", "wire.py")
WHEEL_DATA_SUFFIXES = (".py", ".json", ".typed")
#: Never in the browser: they need the server's or the terminal's third-party packages.
WHEEL_NEVER = ("server", "cli", "arena", "web", "__main__")
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def _imported_bistrot_modules(source: Path) -> set[str]:
    """The ``bistrot.x`` modules a file imports (``bistrot.omi.game`` gives ``omi``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "bistrot" and len(parts) > 1:
                found.add(parts[1])
    return found


def _wheel_sources(package: Path) -> list[tuple[str, Path]]:
    """(name in the wheel, file) of everything the browser needs, found by following imports."""
    chosen: dict[str, Path] = {}
    todo = [package / name for name in WHEEL_ROOTS]
    packages = [sub for entry in games.all_games() for sub in entry.packages]
    todo += [p for sub in packages for p in sorted((package / sub).rglob("*"))]
    while todo:
        path = todo.pop()
        if not path.is_file() or "__pycache__" in path.parts or path.suffix not in WHEEL_DATA_SUFFIXES:
            continue
        name = f"bistrot/{path.relative_to(package).as_posix()}"
        if name in chosen:
            continue
        chosen[name] = path
        if path.suffix != ".py":
            continue
        for top in _imported_bistrot_modules(path):
            if top in WHEEL_NEVER:
                raise RuntimeError(f"{name} imports bistrot.{top}, which cannot run in the browser")
            if (package / top).is_dir():
                todo += sorted((package / top).rglob("*"))
            elif (package / f"{top}.py").is_file():  # else a name of bistrot/__init__.py
                todo.append(package / f"{top}.py")
    return sorted(chosen.items())


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(package: Path | None = None) -> tuple[str, bytes]:
    """``(file name, bytes)`` of a pure-Python wheel of the engines, the bots and the local table.

    Built from the installed package (``package`` defaults to it), with only the modules the
    browser needs, and reproducible: the same files give the same bytes.
    """
    package = package or Path(bistrot.__file__).resolve().parent
    version = bistrot.__version__
    info = f"bistrot-{version}.dist-info"
    entries = [(arc, path.read_bytes()) for arc, path in _wheel_sources(package)]
    entries.append((f"{info}/METADATA", (
        f"Metadata-Version: 2.1\nName: bistrot\nVersion: {version}\n"
        "Summary: bistrot's engines, computer players and local table, for the browser\n"
        "License: MIT\n"
    ).encode()))
    # Generator names the module that built the wheel before it had its own: kept, so that the
    # wheel's bytes (and with them the service worker's version) did not change with the move.
    entries.append((f"{info}/WHEEL", (
        b"Wheel-Version: 1.0\nGenerator: bistrot.server.offline\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )))
    record = "".join(_record_line(name, data) + "\n" for name, data in entries) + f"{info}/RECORD,,\n"
    entries.append((f"{info}/RECORD", record.encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in entries:
            item = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            item.compress_type = zipfile.ZIP_DEFLATED
            item.external_attr = 0o644 << 16
            wheel.writestr(item, data)
    return f"bistrot-{version}-py3-none-any.whl", buffer.getvalue()
