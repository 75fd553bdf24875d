"""The browser set-up of the browser tests, for the story's browser tests."""

from __future__ import annotations

from tests.e2e.conftest import (  # noqa: F401 (fixtures)
    browser_type_launch_args,
    live_server,
    screenshots,
)
