"""What ``bistrot serve`` hands out for offline play (bistrot/pyodide.py, bistrot/server/offline.py,
offline_assets.py, offline_wheel.py, docs/offline.md):
Pyodide checked against its pinned sha512, the wheel, the service worker and its precache list,
and a server without Pyodide that says so and plays online as ever."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bistrot import pyodide
from bistrot.cli import main as cli
from bistrot.pyodide import (
    PYODIDE_FILES,
    PYODIDE_VERSION,
    OfflineUnavailable,
    PyodideFetcher,
    fetch_pyodide,
    install_tarball,
    integrity_of,
    pyodide_ready,
)
from bistrot.server import Settings, create_app, offline_wheel
from bistrot.server.offline_wheel import build_wheel
from bistrot.server.settings import STATIC_DIR

FAKE_FILES = {name: f"fake {name}\n".encode() for name in PYODIDE_FILES}


def fake_tarball(path: Path, files: dict[str, bytes] = FAKE_FILES) -> Path:
    """A tarball shaped like the npm package (files under package/)."""
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files.items():
            item = tarfile.TarInfo(f"package/{name}")
            item.size = len(data)
            tar.addfile(item, io.BytesIO(data))
    return path


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("BISTROT_CACHE_DIR", str(root))
    return root


def test_a_tarball_is_unpacked_only_if_it_is_the_pinned_release(tmp_path, cache, monkeypatch):
    tarball = fake_tarball(tmp_path / f"pyodide-{PYODIDE_VERSION}.tgz")
    with pytest.raises(OfflineUnavailable, match=r"not pyodide .* as published"):
        install_tarball(tarball)
    assert not pyodide_ready()
    monkeypatch.setattr(pyodide, "PYODIDE_INTEGRITY", integrity_of(tarball))
    folder = install_tarball(tarball)
    assert folder == cache / f"pyodide-{PYODIDE_VERSION}"
    assert {p.name for p in folder.iterdir()} == set(PYODIDE_FILES)
    assert (folder / "pyodide.asm.wasm").read_bytes() == FAKE_FILES["pyodide.asm.wasm"]
    assert pyodide_ready()
    incomplete = fake_tarball(tmp_path / "short.tgz", {"pyodide.mjs": b"x"})
    monkeypatch.setattr(pyodide, "PYODIDE_INTEGRITY", integrity_of(incomplete))
    with pytest.raises(OfflineUnavailable, match="has no"):
        install_tarball(incomplete)
    assert pyodide_ready(), "a bad tarball leaves the good files in place"


def test_without_npm_or_without_network_the_message_says_what_to_do(tmp_path, cache, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda _name: None)  # no npm on this machine
    with pytest.raises(OfflineUnavailable, match=r"npm is not installed.*offline fetch --from"):
        fetch_pyodide()
    failing = tmp_path / "npm"
    failing.write_text("#!/bin/sh\necho 'npm error code ENOTFOUND' >&2\nexit 1\n")
    failing.chmod(0o755)
    with pytest.raises(OfflineUnavailable, match=r"is the network down.*ENOTFOUND"):
        fetch_pyodide(npm=str(failing))


def test_npm_pack_is_used_and_checked(tmp_path, cache, monkeypatch):
    tarball = fake_tarball(tmp_path / "made.tgz")
    monkeypatch.setattr(pyodide, "PYODIDE_INTEGRITY", integrity_of(tarball))
    npm = tmp_path / "npm"
    # A stand-in for npm that records its arguments and "packs" the tarball where asked.
    npm.write_text(
        f'#!/bin/sh\necho "$@" > {tmp_path}/args\ncp {tarball} "$4/pyodide-{PYODIDE_VERSION}.tgz"\n'
    )
    npm.chmod(0o755)
    assert fetch_pyodide(npm=str(npm)) == cache / f"pyodide-{PYODIDE_VERSION}"
    assert (tmp_path / "args").read_text().split()[:2] == ["pack", f"pyodide@{PYODIDE_VERSION}"]


def test_a_server_without_pyodide_says_so_and_plays_online(tmp_path, cache, monkeypatch):
    monkeypatch.setenv("BISTROT_OFFLINE_FETCH", "0")
    settings = Settings(db=str(tmp_path / "room.db"), bot_executor="thread", bot_workers=1)
    with TestClient(create_app(settings)) as client:
        status = client.get("/offline/status").json()
        assert status["ready"] is False and status["state"] == "failed"
        assert "bistrot offline fetch" in status["message"]
        answer = client.get("/sw.js")
        assert answer.status_code == 503 and answer.json()["code"] == "offline_unavailable"
        assert client.get(f"/offline/pyodide-{PYODIDE_VERSION}/pyodide.asm.wasm").status_code == 503
        assert client.get("/manifest.webmanifest").json()["start_url"] == "/"
        made = client.post("/api/tables", json={"game": "omi"})
        assert made.status_code == 201, "online play does not need Pyodide"


@pytest.fixture
def ready_app(tmp_path, cache, monkeypatch):
    """An app whose Pyodide files are in place (fakes: the server only serves them)."""
    tarball = fake_tarball(tmp_path / "p.tgz")
    monkeypatch.setattr(pyodide, "PYODIDE_INTEGRITY", integrity_of(tarball))
    install_tarball(tarball)
    static = tmp_path / "static"
    shutil.copytree(STATIC_DIR, static)
    settings = Settings(db=str(tmp_path / "room.db"), bot_executor="thread", bot_workers=1, static_dir=static)
    with TestClient(create_app(settings)) as client:
        yield client, static


def test_the_service_worker_precaches_everything_and_changes_with_any_file(ready_app):
    client, static = ready_app
    status = client.get("/offline/status").json()
    assert status["ready"] is True
    sw = client.get("/sw.js")
    assert sw.headers["content-type"].startswith("text/javascript")
    assert sw.headers["cache-control"] == "no-cache"
    head = dict(line.removeprefix("const ").rstrip(";").split(" = ", 1) for line in sw.text.splitlines()[1:4])
    assert json.loads(head["VERSION"]) == status["version"]
    urls = json.loads(head["PRECACHE"])
    statics = {f"/static/{p.relative_to(static).as_posix()}" for p in static.rglob("*") if p.is_file()}
    types_only = {"/static/js/protocol-types.js", "/static/vendor/qrcode-generator/qrcode.d.mts"}
    assert types_only <= statics and not types_only & set(urls), "what only tsc reads is not cached"
    assert statics - {"/static/js/sw.js", "/static/manifest.webmanifest", *types_only} <= set(urls)
    assert {"/", "/manifest.webmanifest", "/offline/config.json", status["wheel_url"]} <= set(urls)
    assert {status["pyodide_url"] + name for name in PYODIDE_FILES} <= set(urls)
    total = 0
    for url in urls:  # every file listed is served, and the sizes add up to the figure announced
        answer = client.get(url)
        assert answer.status_code == 200, url
        total += len(answer.content)
    assert total == status["bytes"] == int(head["PRECACHE_BYTES"])
    wasm = client.get(status["pyodide_url"] + "pyodide.asm.wasm")
    assert wasm.headers["content-type"] == "application/wasm" and "immutable" in wasm.headers["cache-control"]
    assert client.get(status["pyodide_url"] + "console.html").status_code == 404
    config = client.get("/offline/config.json").json()
    assert config == {"pyodide": status["pyodide_url"], "wheel": status["wheel_url"]}
    # Any file changed: a new version, so browsers install the new files and drop the old cache.
    (static / "style.css").write_text((static / "style.css").read_text() + "\n/* changed */\n")
    assert client.get("/offline/status").json()["version"] != status["version"]


@pytest.mark.slow
def test_the_wheel_plays_with_nothing_but_the_standard_library(tmp_path):
    """Unpacked alone (no site-packages, so no endplay), the wheel plays: the solver falls back to
    Python, the hard computer players choose legal moves, the local table answers."""
    _name, data = build_wheel()
    zipfile.ZipFile(io.BytesIO(data)).extractall(tmp_path / "site")
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    package = Path(offline_wheel.__file__).resolve().parents[1]
    data_files = [p for sub in ("omi", "oti") for p in (package / sub).rglob("*.json")]
    assert all(f"bistrot/{p.relative_to(package).as_posix()}" in names for p in data_files)
    record = zipfile.ZipFile(io.BytesIO(data)).read("bistrot-0.1.0.dist-info/RECORD").decode()
    assert all(line.split(",")[0] in names for line in record.splitlines())
    script = """
import json, sys
from bistrot import bots
from bistrot.local import BROWSER_BOT_OPTIONS, JsonRoom
from bistrot.omi import OmiGame, OmiRules
from bistrot.omi.dd import available_solvers
from bistrot.oti import OtiGame, OtiRules
assert available_solvers() == ["python"], available_solvers()
omi = OmiGame.new(OmiRules(), seed=5)
hard = bots.make_bot("omi", "hard", seed=1, **BROWSER_BOT_OPTIONS[("omi", "hard")])
while omi.phase != "play" or omi.to_move != 1:
    omi.apply(hard.act(omi.view(omi.to_move)))
assert hard.act(omi.view(1)) in omi.legal_actions(1) and hard.last_samples > 0
oti = OtiGame.new(OtiRules(players=3), seed=5)
hard = bots.make_bot("oti", "hard", seed=1, **BROWSER_BOT_OPTIONS[("oti", "hard")])
seat = next(s for s in range(3) if oti.legal_actions(s))
assert hard.act(oti.view(seat)) in oti.legal_actions(seat)
host = JsonRoom(browser=True)
made = json.loads(host.create(json.dumps({"game": "omi", "level": "easy", "seat": 1})))
assert json.loads(host.bot_turn(made["table"]))["seat"] == 0
assert not any(m.split(".")[0] in ("fastapi", "pydantic", "endplay", "rich") for m in sys.modules)
print("ok")
"""
    done = subprocess.run(
        [sys.executable, "-S", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={"PYTHONPATH": str(tmp_path / "site"), "PATH": os.environ.get("PATH", "")},
    )
    assert done.stdout.strip() == "ok", done.stderr


def test_the_wheel_follows_the_engines_imports(tmp_path):
    """A module the engines start to import comes along by itself; a server module cannot."""
    package = tmp_path / "bistrot"
    for name in ("__init__.py", "local.py", "bots.py", "wire.py", "omi/__init__.py", "oti/__init__.py"):
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text("")
    (package / "omi" / "rules.py").write_text("from bistrot.newthing import X\nimport bistrot.extra.deep\n")
    (package / "newthing.py").write_text("from bistrot import cards\n")
    (package / "cards.py").write_text("")
    (package / "extra").mkdir()
    (package / "extra" / "deep.py").write_text("")
    (package / "unused.py").write_text("")
    names = zipfile.ZipFile(io.BytesIO(build_wheel(package)[1])).namelist()
    assert {"bistrot/newthing.py", "bistrot/cards.py", "bistrot/extra/deep.py"} <= set(names)
    assert "bistrot/unused.py" not in names
    (package / "oti" / "game.py").write_text("from bistrot.server.app import create_app\n")
    with pytest.raises(RuntimeError, match="cannot run in the browser"):
        build_wheel(package)


def test_the_command_line(tmp_path, cache, capsys):
    assert cli(["offline", "status"]) == 1
    assert "bistrot offline fetch" in capsys.readouterr().out
    bad = fake_tarball(tmp_path / "bad.tgz")
    assert cli(["offline", "fetch", "--from", str(bad)]) == 1
    assert "as published" in capsys.readouterr().err
    assert cli(["offline", "fetch", "--from", str(tmp_path / "missing.tgz")]) == 2


def test_a_background_fetch_that_fails_leaves_a_message(tmp_path, cache, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    fetcher = PyodideFetcher()
    assert fetcher.state == "missing"
    fetcher.start()
    assert fetcher._thread is not None
    fetcher._thread.join(30)
    assert fetcher.state == "failed" and "npm is not installed" in (fetcher.error or "")
