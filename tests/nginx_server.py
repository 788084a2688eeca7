"""A throwaway nginx in front of the test nodes, configured by docs/deploy.md's own block.

The ``nginx`` block of docs/deploy.md goes into the ``http`` context as it is written, with its
upstream servers and its ``listen`` port replaced by the test's; everything nginx writes stays
in a temporary folder.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from tests.lanes import starting
from tests.ports import free_port

DEPLOY_DOC = Path(__file__).resolve().parent.parent / "docs" / "deploy.md"
NGINX = "/usr/sbin/nginx"


def deploy_block() -> str:
    """The nginx configuration of docs/deploy.md (its one ``nginx`` code block)."""
    blocks = re.findall(r"```nginx\n(.*?)```", DEPLOY_DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1, "docs/deploy.md has one nginx block"
    return blocks[0]


class NginxServer:
    """nginx on a free loopback port, proxying to ``upstreams`` (``host:port`` each)."""

    def __init__(self, upstreams: list[str]) -> None:
        if not Path(NGINX).exists():
            raise RuntimeError("nginx is not installed: apt-get install nginx-light (scripts/test does)")
        self.root = Path(tempfile.mkdtemp(prefix="bistrot-nginx-"))
        self.port = free_port()
        block = deploy_block()
        servers = "".join(f"    server {u};\n" for u in upstreams)
        listed = r"(?m)^    server 127\.0\.0\.1:\d+;\n(?:    server 127\.0\.0\.1:\d+;\n)*"
        block, count = re.subn(listed, servers, block)
        assert count == 1, "the upstream of docs/deploy.md lists its servers one per line"
        block, count = re.subn(r"listen 80;", f"listen 127.0.0.1:{self.port};", block)
        assert count == 1
        temp = {name: self.root / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
        for folder in temp.values():
            folder.mkdir()
        conf = (
            f"daemon off;\npid {self.root}/nginx.pid;\nerror_log {self.root}/error.log;\n"
            "events { worker_connections 1024; }\n"
            "http {\n  access_log off;\n"
            f"  client_body_temp_path {temp['body']};\n  proxy_temp_path {temp['proxy']};\n"
            f"  fastcgi_temp_path {temp['fastcgi']};\n  uwsgi_temp_path {temp['uwsgi']};\n"
            f"  scgi_temp_path {temp['scgi']};\n{block}}}\n"
        )
        self.conf = self.root / "nginx.conf"
        self.conf.write_text(conf)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> NginxServer:
        starting("nginx", "an nginx server")
        self.process = subprocess.Popen(
            [NGINX, "-p", str(self.root), "-c", str(self.conf)],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while not (self.root / "nginx.pid").exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                errors = self.root / "error.log"
                said = errors.read_text(errors="replace") if errors.exists() else ""
                raise RuntimeError(f"nginx did not start: {said}")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> NginxServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
