"""Pyodide for offline play: fetched once from the npm registry, checked, kept in a cache.

The ``pyodide`` package of the npm registry, version :data:`PYODIDE_VERSION`, is fetched with the
npm client (``npm pack``), checked against the pinned sha512 :data:`PYODIDE_INTEGRITY`, and its
core files kept in the user's cache directory (:func:`cache_root`).  ``bistrot serve`` fetches it
in the background on start when it is missing (:class:`PyodideFetcher`); ``bistrot offline
fetch`` does it by hand (``--from`` a tarball brought over to a machine with no network).  This
module needs nothing beyond the standard library, so the command line can use it without
importing the server.

>>> pyodide_dir(Path("/tmp/cache")).name == f"pyodide-{PYODIDE_VERSION}"
True
>>> PYODIDE_INTEGRITY.startswith("sha512-")
True
"""

from __future__ import annotations

import base64
import hashlib
import logging
import os
import shutil
import subprocess
import tarfile
import tempfile
import threading
from pathlib import Path

log = logging.getLogger("bistrot.pyodide")

PYODIDE_VERSION = "314.0.7"
#: The npm registry's ``dist.integrity`` of ``pyodide@314.0.7`` (the sha512 of its tarball).
PYODIDE_INTEGRITY = (
    "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
)
#: The core files the page loads (the rest of the npm package is not needed).
PYODIDE_FILES = (
    "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
)
#: Kept beside them for the record (Pyodide is MPL-2.0: its package.json says so); not served.
PYODIDE_EXTRAS = ("package.json", "README.md")


class OfflineUnavailable(Exception):
    """Pyodide could not be had; the message says why and what to do."""




def cache_root() -> Path:
    """Where fetched files are kept: ``$BISTROT_CACHE_DIR``, else ``$XDG_CACHE_HOME/bistrot``,
    else ``~/.cache/bistrot``."""
    explicit = os.environ.get("BISTROT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "bistrot"


def pyodide_dir(root: Path | None = None) -> Path:
    """The folder of this version's Pyodide files."""
    return (root or cache_root()) / f"pyodide-{PYODIDE_VERSION}"


def pyodide_ready(root: Path | None = None) -> bool:
    """Whether every core file is in place (they are only ever put there after the check)."""
    folder = pyodide_dir(root)
    return all((folder / name).is_file() for name in PYODIDE_FILES)


def integrity_of(path: Path) -> str:
    """The npm-style ``sha512-<base64>`` integrity of a file."""
    digest = hashlib.sha512()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return "sha512-" + base64.b64encode(digest.digest()).decode()


def install_tarball(tarball: Path, root: Path | None = None) -> Path:
    """Check ``tarball`` against the pinned integrity and unpack the core files; their folder.

    The files appear all at once (unpacked beside, then renamed), so a reader never sees half
    of them.
    """
    found = integrity_of(tarball)
    if found != PYODIDE_INTEGRITY:
        raise OfflineUnavailable(
            f"{tarball.name} is not pyodide {PYODIDE_VERSION} as published: its sha512 is {found[:30]}..., "
            f"expected {PYODIDE_INTEGRITY[:30]}..."
        )
    target = pyodide_dir(root)
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".pyodide-", dir=target.parent))
    try:
        with tarfile.open(tarball, "r:gz") as tar:
            for name in PYODIDE_FILES + PYODIDE_EXTRAS:
                try:
                    member = tar.getmember(f"package/{name}")
                except KeyError:
                    if name in PYODIDE_EXTRAS:
                        continue
                    raise OfflineUnavailable(f"{tarball.name} has no {name}") from None
                source = tar.extractfile(member)
                if source is None:
                    raise OfflineUnavailable(f"{tarball.name}: {name} is not a file")
                with source, (work / name).open("wb") as out:
                    shutil.copyfileobj(source, out)
        work.chmod(0o755)  # mkdtemp made it private; the files are public knowledge
        if target.exists():
            if pyodide_ready(root):  # another process checked and placed the same files meanwhile
                return target
            shutil.rmtree(target)  # a broken folder left by hand
        try:
            work.rename(target)
        except OSError:
            if not pyodide_ready(root):
                raise
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return target


def fetch_pyodide(root: Path | None = None, npm: str | None = None, timeout_s: float = 600.0) -> Path:
    """Get Pyodide with the npm client (``npm pack pyodide@VERSION``), check it, unpack it.

    Uses the machine's npm configuration (registry, proxy).  Raises :class:`OfflineUnavailable`
    with a message for people when npm is missing or cannot get it.
    """
    if pyodide_ready(root):
        return pyodide_dir(root)
    npm = npm or shutil.which("npm")
    if not npm:
        raise OfflineUnavailable(
            f"npm is not installed, so Pyodide {PYODIDE_VERSION} cannot be fetched. Install npm "
            f"(apt-get install npm), or on a machine with npm run 'npm pack pyodide@{PYODIDE_VERSION}' "
            f"and here 'bistrot offline fetch --from pyodide-{PYODIDE_VERSION}.tgz'"
        )
    with tempfile.TemporaryDirectory(prefix="bistrot-npm-") as tmp:
        try:
            done = subprocess.run(
                [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", tmp, "--silent"],
                cwd=tmp,
                capture_output=True,
                text=True,
                timeout=timeout_s,
                check=False,
                env={**os.environ, "npm_config_update_notifier": "false", "npm_config_fund": "false"},
            )
        except (OSError, subprocess.TimeoutExpired) as err:
            raise OfflineUnavailable(f"npm could not fetch pyodide@{PYODIDE_VERSION}: {err}") from None
        tarball = Path(tmp) / f"pyodide-{PYODIDE_VERSION}.tgz"
        if done.returncode != 0 or not tarball.is_file():
            lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
            reason = " / ".join(lines[-3:]) or f"exit status {done.returncode}"
            raise OfflineUnavailable(
                f"npm could not fetch pyodide@{PYODIDE_VERSION} (is the network down?): {reason}"
            )
        return install_tarball(tarball, root)


class PyodideFetcher:
    """The Pyodide files of one server: ``ready``, ``fetching``, ``missing`` or ``failed``.

    :meth:`start` fetches them in a background thread once; online play never waits for it.
    """

    def __init__(self, root: Path | None = None) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.error: str | None = None

    @property
    def folder(self) -> Path:
        """Where the files are (or will be)."""
        return pyodide_dir(self.root)

    @property
    def state(self) -> str:
        """``ready``, ``fetching``, ``failed`` or ``missing``."""
        if pyodide_ready(self.root):
            return "ready"
        if self._thread is not None and self._thread.is_alive():
            return "fetching"
        return "failed" if self.error else "missing"

    def start(self) -> None:
        """Fetch in the background unless the files are there or a fetch already ran."""
        with self._lock:
            if self._thread is not None or pyodide_ready(self.root):
                return
            if os.environ.get("BISTROT_OFFLINE_FETCH", "1").lower() in ("0", "no", "off", "false"):
                self.error = "fetching Pyodide is off (BISTROT_OFFLINE_FETCH=0): run 'bistrot offline fetch'"
                return
            self._thread = threading.Thread(target=self._run, name="bistrot-pyodide-fetch", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        log.info("offline play: fetching Pyodide %s with npm (once)", PYODIDE_VERSION)
        try:
            folder = fetch_pyodide(self.root)
        except OfflineUnavailable as err:
            self.error = str(err)
            log.warning(
                "offline play is not available: %s. Online play works as usual. "
                "Run 'bistrot offline fetch' when there is a network.",
                err,
            )
        except Exception as err:  # never take the server down for the offline extra
            self.error = f"{type(err).__name__}: {err}"
            log.exception("offline play: fetching Pyodide failed")
        else:
            log.info("offline play: Pyodide %s is in %s", PYODIDE_VERSION, folder)
