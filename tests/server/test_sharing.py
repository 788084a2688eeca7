"""GET /api/room: where shared links point, from the server's settings and the page's address."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError
from server_harness import ThreadServer, make_settings

from bistrot.server.sharing import network_address


def room_of(url: str, host: str | None = None) -> dict:
    headers = {"host": host} if host else {}
    answer = httpx.get(url + "/api/room", headers=headers, timeout=10)
    assert answer.status_code == 200
    return dict(answer.json())


def test_a_public_url_is_where_links_point(tmp_path: Path) -> None:
    with ThreadServer(make_settings(tmp_path, public_url="HTTPS://Cards.Example/")) as server:
        assert room_of(server.url) == {"share_origin": "https://cards.example", "local_only": False}


def test_opened_at_loopback_links_work_here_only_unless_listening_everywhere(tmp_path: Path) -> None:
    with ThreadServer(make_settings(tmp_path)) as server:
        assert room_of(server.url) == {"share_origin": None, "local_only": True}
        # Opened at an address others reach: that one.
        assert room_of(server.url, host="192.0.2.7:8000") == {"share_origin": None, "local_only": False}
        server.app.state.listen_host = "0.0.0.0"  # as `bistrot serve --host 0.0.0.0` sets it
        network = network_address()
        expected = (
            {"share_origin": f"http://{network}:{server.url.rsplit(':', 1)[1]}", "local_only": False}
            if network
            else {"share_origin": None, "local_only": True}
        )
        assert room_of(server.url) == expected


@pytest.mark.parametrize("bad", ["cards.example", "ftp://cards.example", "https://cards.example/path", "https://"])
def test_a_public_url_must_be_an_origin(tmp_path: Path, bad: str) -> None:
    with pytest.raises(ValidationError, match="public_url is scheme://host\\[:port\\]"):
        make_settings(tmp_path, public_url=bad)
