"""Sessions on disk that cannot be written (a read-only or full disk): the
server does not start on a folder it cannot write, and a write that fails
while serving is a 503 that says nothing was played, with the game as it
was, never a move answered as played and then lost."""

from __future__ import annotations

import errno

import cachelib.file
import pytest

from app import StartupError, create_app
from tests.conftest import Player, start_deal


def _read_only(*args, **kwargs):
    raise OSError(errno.EROFS, "Read-only file system")


def make_app(tmp_path):
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "ops-file-store",
            "SESSION_FILE_DIR": str(tmp_path / "sessions"),
            "RATELIMIT_ENABLED": False,
        }
    )


def test_a_folder_that_cannot_be_written_stops_start_up(tmp_path, monkeypatch):
    # A permission check alone would pass for root on a read-only mount:
    # the start writes a file.
    monkeypatch.setattr("app.sessions.tempfile.mkstemp", _read_only)
    with pytest.raises(StartupError, match=r"the app cannot start: \[Errno 30\] Read-only"):
        make_app(tmp_path)


def test_a_play_that_cannot_be_written_is_a_503_and_not_played(tmp_path, monkeypatch):
    player = Player(make_app(tmp_path).test_client())
    player.deal("read-only-play")
    before, move = player.hand, player.move

    monkeypatch.setattr(cachelib.file.tempfile, "mkstemp", _read_only)
    response = player.post(card=before[0], move=move)
    assert response.status_code == 503
    assert "Location" not in response.headers
    assert "Nothing was played and your game is kept" in response.get_data(as_text=True)

    monkeypatch.undo()
    player.get()
    assert (player.hand, player.move) == (before, move)
    player.play(before[0])
    assert len(player.hand) == 3


def test_a_new_game_that_cannot_be_written_keeps_the_old_one(tmp_path, monkeypatch):
    player = Player(make_app(tmp_path).test_client())
    player.deal("read-only-old")
    before = player.hand

    monkeypatch.setattr(cachelib.file.tempfile, "mkstemp", _read_only)
    response = start_deal(player.client, "/deal/read-only-new")
    assert response.status_code == 503
    assert "Nothing was played and your game is kept" in response.get_data(as_text=True)

    monkeypatch.undo()
    player.get()
    assert player.hand == before


def test_a_visitor_whose_first_game_cannot_be_written_is_sent_home(tmp_path, monkeypatch):
    client = make_app(tmp_path).test_client()
    monkeypatch.setattr(cachelib.file.tempfile, "mkstemp", _read_only)
    response = start_deal(client, "/deal/read-only-first")
    page = response.get_data(as_text=True)
    assert response.status_code == 503
    assert "so nothing was changed. Try again in a few seconds." in page
    assert "Back to your game" not in page
    assert "pisti_session" not in response.headers.get("Set-Cookie", "")
