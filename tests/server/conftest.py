from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_harness import ThreadServer, make_settings


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(make_settings(tmp_path)) as running:
        yield running
