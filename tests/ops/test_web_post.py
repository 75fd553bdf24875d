"""The benchmark of a play over HTTP (``benchmarks/web_post.py``) plays
against the level it is asked for."""

from __future__ import annotations

import re
import tempfile

import pytest

from app import create_app
from benchmarks.web_post import FIELD, deal


@pytest.mark.parametrize(("level", "named"), [("expert", "Expert"), ("easy", "Easy")])
def test_each_game_is_against_the_level_asked_for(level, named):
    with tempfile.TemporaryDirectory() as sessions:
        app = create_app(
            {"SECRET_KEY": "bench-secret-key-0123456789", "SESSION_FILE_DIR": sessions}
        )
        client = app.test_client()
        token = dict(FIELD.findall(client.get("/").get_data(as_text=True)))["csrf_token"]
        for game in range(2):
            page = deal(client, token, game, level, "partners")
            levels = re.findall(r'<p class="place-level">([^<]*)', page)
            assert levels == [named] * 3
