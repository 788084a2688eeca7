"""axe-core, the accessibility checker, for the browser tests: fetched from the npm registry at
test time (never served by the card room), checked against its pinned sha512, kept in the
user's cache folder; and a run of it on a page.

Pinned: axe-core 4.14.1 (MPL-2.0).  It is put into the page through the browser's debugging
protocol (Playwright's ``evaluate``), which the page's Content-Security-Policy does not govern,
so the page runs as it does for people.
"""

from __future__ import annotations

import io
import tarfile
from typing import Any

import httpx

from bistrot.pyodide import cache_root, integrity_of

AXE_VERSION = "4.14.1"
AXE_TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{AXE_VERSION}.tgz"
AXE_INTEGRITY = (
    "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
)
#: What must never be found on a page.
BLOCKING = ("serious", "critical")


def axe_source() -> str:
    """axe.min.js of :data:`AXE_VERSION`, fetched once (RuntimeError saying why if it cannot be)."""
    kept = cache_root() / f"axe-core-{AXE_VERSION}.min.js"
    if kept.is_file():
        return kept.read_text(encoding="utf-8")
    try:
        answer = httpx.get(AXE_TARBALL, timeout=60, follow_redirects=True)
        answer.raise_for_status()
    except httpx.HTTPError as err:
        raise RuntimeError(f"axe-core {AXE_VERSION} could not be fetched from npm: {err}") from err
    tarball = kept.with_suffix(".tgz.part")
    tarball.parent.mkdir(parents=True, exist_ok=True)
    tarball.write_bytes(answer.content)
    try:
        if integrity_of(tarball) != AXE_INTEGRITY:
            raise RuntimeError(f"{AXE_TARBALL} is not axe-core {AXE_VERSION} as published (sha512 differs)")
        with tarfile.open(fileobj=io.BytesIO(answer.content), mode="r:gz") as archive:
            member = archive.extractfile("package/axe.min.js")
            assert member is not None
            source = member.read().decode("utf-8")
    finally:
        tarball.unlink(missing_ok=True)
    partial = kept.with_suffix(".part")
    partial.write_text(source, encoding="utf-8")
    partial.replace(kept)
    return source


def blocking_violations(page: Any) -> list[str]:
    """Run axe on the page as it is now: its serious and critical violations, one line each
    (rule, impact, the first elements and axe's summary of how to fix them)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found = page.evaluate("async () => (await axe.run(document, { resultTypes: ['violations'] })).violations")
    lines = []
    for v in found:
        if v["impact"] in BLOCKING:
            targets = ", ".join(str(n["target"]) for n in v["nodes"][:3])
            lines.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])} elements: {targets}): {v['help']}")
    return lines
