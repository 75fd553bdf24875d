"""Sessions on disk that cannot be written (a read-only or full disk): the
server does not start on a folder it cannot write, and a write that fails
while serving is a 503 that says nothing was played, with the game as it
was, never a move answered as played and then lost."""

from __future__ import annotations

import errno
import json
import os
import struct
from pathlib import Path

import cachelib.file
import pytest

from app import StartupError, create_app
from app.logs import JsonFormatter
from app.web.errors import StoreWriteFailed
from tests.conftest import CSRF, Player, app_config, start_deal

#: The start of cachelib's warning when its file cache fails on a file.
CACHELIB_WARNING = "Exception raised while handling cache file"


def _read_only(*args, **kwargs):
    raise OSError(errno.EROFS, "Read-only file system")


def make_app(tmp_path):
    return create_app(app_config(tmp_path))


def test_a_folder_that_cannot_be_written_stops_start_up(tmp_path, monkeypatch):
    # A permission check alone would pass for root on a read-only mount:
    # the start writes a file.
    monkeypatch.setattr("app.sessions.tempfile.mkstemp", _read_only)
    with pytest.raises(StartupError) as raised:
        make_app(tmp_path)
    assert str(raised.value).startswith(
        "the app cannot start: the session folder (FLASK_SESSION_FILE_DIR) cannot be used: "
        "[Errno 30] Read-only file system; it must be writable by the user the server runs as "
        "(in the container, uid 10001: chown 10001 <folder>)"
    )


def test_a_full_disk_stops_start_up(tmp_path, monkeypatch):
    # An empty file can still be made on a full disk: the check writes.
    write = os.write

    def full(handle, data):
        if ".write-check-" in os.readlink(f"/proc/self/fd/{handle}"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return write(handle, data)

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(StartupError, match=r"\[Errno 28\] No space left on device"):
        make_app(tmp_path)


def test_a_play_that_cannot_be_written_is_a_503_and_not_played(tmp_path, monkeypatch, caplog):
    player = Player(make_app(tmp_path).test_client())
    player.deal("read-only-play")
    before, move = player.hand, player.move

    monkeypatch.setattr(cachelib.file.tempfile, "mkstemp", _read_only)
    response = player.post(card=before[0], move=move)
    assert response.status_code == 503
    assert "Location" not in response.headers
    assert "Nothing was played and your game is kept" in response.get_data(as_text=True)
    # The log says what failed, never the session's id (the player's key).
    sid = player.client.get_cookie("pisti_session").value
    logged = [record.getMessage() for record in caplog.records]
    assert f"session store cannot write, nothing saved: a session in {tmp_path}" in "".join(logged)
    assert not any(sid in line for line in logged)

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


def test_a_name_chosen_while_sessions_cannot_be_written_keeps_its_player(tmp_path, monkeypatch):
    # Choosing a name makes the player in the database and moves the
    # session's story progress there; when the session then cannot be
    # written, the device must still get the player's cookie, or the name
    # is taken by a player nobody can be.
    client = make_app(tmp_path).test_client()
    start_deal(client, "/deal/named-later")
    token = CSRF.search(client.get("/story").get_data(as_text=True)).group(1)
    assert client.post("/story/lesson/skip", data={"csrf_token": token}).status_code == 303
    monkeypatch.setattr(cachelib.file.tempfile, "mkstemp", _read_only)
    response = client.post("/me/name", data={"csrf_token": token, "name": "Zeynep"})
    assert response.status_code == 503
    assert "pisti_player=" in " ".join(response.headers.getlist("Set-Cookie"))
    monkeypatch.undo()
    page = client.get("/me").get_data(as_text=True)
    assert "Zeynep" in page and "Keep this result" not in page


def test_a_winning_move_stands_when_the_story_cannot_note_the_win(tmp_path, monkeypatch):
    # The move that ends a match is kept first; the story's note of a win
    # is a second write. If that one fails, the move was still played, so
    # the answer is the final page, not a 503 saying nothing was played.
    def cannot_write(table):
        raise StoreWriteFailed("session in a read-only folder")

    monkeypatch.setattr("app.web.story.record_result", cannot_write)
    player = Player(make_app(tmp_path).test_client())
    player.deal("story-note-fails")
    while player.hand:
        response = player.post(card=player.hand[0], move=player.move)
        assert response.status_code == 303
        player.get()
    assert 'class="verdict"' in player.page


def test_an_instance_folder_the_server_cannot_write_says_what_to_do(tmp_path, monkeypatch):
    # A folder of the host's mounted as the container's instance folder,
    # owned by root: the secret key cannot be made.
    def denied(path):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr("app.factory._instance_secret_key", denied)
    config = {**app_config(tmp_path), "SECRET_KEY": None}
    with pytest.raises(StartupError) as raised:
        create_app(config)
    message = str(raised.value)
    assert message.startswith(
        "the app cannot start: the instance folder (for the secret key) cannot be used: "
        "[Errno 13] Permission denied"
    )
    assert message.endswith("(in the container, uid 10001: chown 10001 <folder>)")


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (OSError(errno.ENOSPC, "No space left on device"), "[Errno 28] No space left on device"),
        (OSError(errno.EROFS, "Read-only file system"), "[Errno 30] Read-only file system"),
    ],
    ids=["full", "read-only"],
)
def test_the_log_says_why_a_session_cannot_be_written_and_what_to_do(
    tmp_path, monkeypatch, caplog, error, said
):
    # cachelib swallows the error (a warning of its own, a traceback) and
    # answers False: the app's line says why and what to do.
    player = Player(make_app(tmp_path).test_client())
    player.deal("full-disk")

    def failing(*args, **kwargs):
        raise error

    monkeypatch.setattr(cachelib.file.tempfile, "mkstemp", failing)
    response = player.post(card=player.hand[0], move=player.move)
    assert response.status_code == 503
    logged = [r.getMessage() for r in caplog.records if r.name == "app"]
    assert logged[-1] == (
        f"session store cannot write, nothing saved: a session in {tmp_path / 'sessions'}: "
        f"{said}; free space on its disk, or make the folder writable by the user the server "
        "runs as (in the container, uid 10001): until then no game can change, and nothing "
        "already kept is lost"
    )
    # cachelib's own warning is one line too: the error, not a traceback
    # per failed write (a full disk made the log mostly tracebacks).
    cachelib_lines = [r for r in caplog.records if r.getMessage().startswith(CACHELIB_WARNING)]
    assert len(cachelib_lines) == 1
    assert cachelib_lines[0].exc_info is None
    assert cachelib_lines[0].fields["error"] == said
    line = JsonFormatter().format(cachelib_lines[0])
    assert "\n" not in line and "Traceback" not in line
    assert json.loads(line)["error"] == said


def test_a_session_file_cachelib_cannot_read_keeps_its_traceback(tmp_path, caplog):
    # A damaged session file is no disk problem: cachelib's warning keeps
    # the traceback that says where it failed.
    app = make_app(tmp_path)
    player = Player(app.test_client())
    player.deal("damaged-file")
    sid = player.client.get_cookie("pisti_session").value
    session_file = app.session_interface.cache._get_filename(
        app.session_interface._get_store_id(sid)
    )
    Path(session_file).write_bytes(b"\x00\x01")
    player.client.get("/game")
    damaged = [r for r in caplog.records if r.getMessage().startswith(CACHELIB_WARNING)]
    assert damaged
    assert all(r.exc_info is not None and r.exc_info[0] is struct.error for r in damaged)
