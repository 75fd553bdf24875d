"""What is kept about a player, as the player sees it: the download of
their data (every row of theirs, no secret's hash) and Forget me (every
row of theirs gone, on every device, the name free again)."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime

from sqlalchemy import func, select

from app.db import db, queries
from app.db.models import Player, PlayerToken, ScoreCount
from tests.conftest import run_clocks_from
from tests.db.conftest import Browser
from tests.story.test_story_pages import skip_lesson


def _tables_of_a_player() -> set[str]:
    """The tables with a column that points at a player."""
    return {
        table.name
        for table in db.metadata.tables.values()
        for column in table.columns
        if any(key.column.table.name == "players" for key in column.foreign_keys)
    }


def test_forget_me_and_the_download_cover_every_table_of_a_player(app):
    """A new table of a player's rows must be deleted by Forget me and given
    by the download: both go through ``PLAYER_TABLES``."""
    listed = {model.__tablename__ for _, model in queries.PLAYER_TABLES}
    assert listed == _tables_of_a_player()
    assert len(listed) == 6


#: The day (noon UTC) a player with a row in every table plays on.
DAY = datetime(2026, 12, 5, 12, tzinfo=UTC)


def _known_everywhere(app, visitor: Browser, monkeypatch) -> Browser:
    """Make ``visitor`` a player with a row in every table of a player: a
    game of a shared deal, a ranked Daily game, tasks, a weekly score,
    story progress, and a second device through a transfer code. It is
    played on DAY, whose Daily deal the first card's play wins (a shared
    deal's points do not count), so the player's score is above 0 whatever
    day the test runs on."""
    run_clocks_from(monkeypatch, DAY)
    visitor.choose_name("Gizli Ayşe")
    skip_lesson(visitor.client)  # the lesson skipped: story progress kept
    visitor.deal("private-test")
    visitor.play_to_the_end()
    visitor.start_daily()
    visitor.play_to_the_end()
    visitor.get("/me")
    code = visitor.post("/me/transfer").get_data(as_text=True)
    code = code.split('<p class="transfer-code"><code>')[1].split("<")[0]
    phone = Browser(app.test_client())
    phone.get("/me")
    assert phone.post("/me/continue", code=code).status_code == 303
    visitor.get("/me")
    visitor.post("/me/transfer")  # a code left open
    return phone


def test_the_download_gives_every_row_kept_about_the_player(app, visitor, monkeypatch):
    _known_everywhere(app, visitor, monkeypatch)
    page = visitor.get("/me").get_data(as_text=True)
    assert 'href="/me/data" download' in page
    response = visitor.get("/me/data")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Content-Disposition"] == "attachment; filename=pisti-my-data.json"
    body = response.get_data(as_text=True)
    data = json.loads(body)
    assert data["format"] == "pisti-player-data/1"
    assert data["player"]["name"] == "Gizli Ayşe"
    with app.app_context():
        player = db.session.scalars(select(Player)).one()
        assert data["player"]["score"] == player.score > 0
        assert data["player"]["transfer_expires"] is not None
        for name, model in queries.PLAYER_TABLES:
            rows = data[name]
            count = db.session.scalar(select(func.count()).select_from(model))
            assert len(rows) == count > 0, name
            # Every column but the owner and a secret's hash, every row.
            columns = {column.key for column in model.__table__.columns}
            assert set(rows[0]) == columns - {"player_id", "token_hash"}, name
        # Hashes of secrets are no one's business, not even their owner's.
        hashes = [token.token_hash for token in db.session.scalars(select(PlayerToken))]
        hashes.append(player.transfer_hash)
    assert len(data["devices"]) == 2
    assert len(data["results"]) == 2
    assert [result["ranked"] for result in data["results"]] == [False, True]
    assert data["story_progress"][0]["lesson"] == "skipped"
    for secret in hashes:
        assert secret and secret not in body
    # The page's language names the file.
    visitor.client.set_cookie("pisti_language", "tr")
    turkish = visitor.get("/me/data")
    assert "filename=pisti-verilerim.json" in turkish.headers["Content-Disposition"]
    assert json.loads(turkish.get_data(as_text=True))["player"]["name"] == "Gizli Ayşe"


def test_without_a_name_there_is_nothing_to_download(app, visitor):
    response = visitor.get("/me/data")
    assert response.status_code == 404
    assert "Nothing is kept about you until you choose a name." in response.get_data(as_text=True)
    # Another player's data is never this device's.
    Browser(app.test_client()).choose_name("Someone Else")
    response = visitor.get("/me/data")
    assert response.status_code == 404
    assert "Someone Else" not in response.get_data(as_text=True)


def test_forget_me_leaves_nothing_of_the_player_anywhere(app, visitor, tmp_path, monkeypatch):
    phone = _known_everywhere(app, visitor, monkeypatch)
    assert "Gizli Ayşe" in phone.get("/me").get_data(as_text=True)
    visitor.get("/me")
    assert visitor.post("/me/forget", confirm="yes").status_code == 303
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Player)) == 0
        for name, model in queries.PLAYER_TABLES:
            assert db.session.scalar(select(func.count()).select_from(model)) == 0, name
        assert db.session.scalar(select(func.sum(ScoreCount.players))) == 0
        reviews = db.session.execute(db.text("SELECT record FROM reviews")).scalars().all()
        assert not any("Gizli" in record for record in reviews)
    # The second device is signed out too, and sees nobody's data.
    assert "Gizli" not in phone.get("/me").get_data(as_text=True)
    assert phone.get("/me/data").status_code == 404
    # The name is on no page any more: the boards, the deal's link.
    for path in ("/leaderboard", "/leaderboard?period=week", "/daily", "/deal/private-test"):
        assert "Gizli" not in Browser(app.test_client()).get(path).get_data(as_text=True), path
    # No stored session holds the name.
    folder = tmp_path / "sessions"
    for file in os.listdir(folder):
        assert b"Gizli" not in (folder / file).read_bytes()
    # The name is free again, for anyone.
    assert Browser(app.test_client()).choose_name("gizli ayşe").status_code == 303


def test_the_host_can_give_and_delete_a_players_data_by_name(app, visitor):
    """A player who lost their devices (and their cookie) asks the host:
    ``player-data NAME`` prints what the download gives, ``forget-player
    NAME`` does what Forget me does; the name is matched whatever its case."""
    visitor.choose_name("Kayıp İlker")
    visitor.deal("lost-device")
    visitor.play_to_the_end()
    runner = app.test_cli_runner()
    printed = runner.invoke(args=["player-data", "KAYIP ilker"])
    assert printed.exit_code == 0, printed.output
    data = json.loads(printed.output)
    assert data["player"]["name"] == "Kayıp İlker"
    assert len(data["results"]) == 1
    asked = runner.invoke(args=["forget-player", "kayıp i̇lker"], input="n\n")
    assert asked.exit_code == 1  # not confirmed: nothing deleted
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Player)) == 1
    done = runner.invoke(args=["forget-player", "Kayıp İlker", "--yes"])
    assert done.exit_code == 0, done.output
    assert "deleted 'Kayıp İlker' and their 1 game(s)" in done.output
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Player)) == 0
        for name, model in queries.PLAYER_TABLES:
            assert db.session.scalar(select(func.count()).select_from(model)) == 0, name
    assert "Kayıp" not in visitor.get("/me").get_data(as_text=True)
    for command in (["player-data", "Nobody"], ["forget-player", "Nobody", "--yes"]):
        unknown = runner.invoke(args=command)
        assert unknown.exit_code == 2
        assert "no player is called 'Nobody'" in unknown.output


def test_a_device_whose_name_was_forgotten_elsewhere_drops_its_cookie(app, visitor, monkeypatch):
    """The other device's token names nobody once the player is forgotten:
    its next page drops it, so the device keeps nothing of the name; a
    known player's cookie is never dropped, nor one just set."""
    phone = _known_everywhere(app, visitor, monkeypatch)
    kept = phone.get("/me")
    assert "pisti_player=;" not in " ".join(kept.headers.getlist("Set-Cookie"))
    assert phone.client.get_cookie("pisti_player") is not None
    visitor.get("/me")
    visitor.post("/me/forget", confirm="yes")
    dropped = phone.get("/leaderboard")
    assert any(
        line.startswith("pisti_player=;") and "HttpOnly" in line
        for line in dropped.headers.getlist("Set-Cookie")
    )
    assert phone.client.get_cookie("pisti_player") is None
    # A stale cookie does not stop a new name from being kept.
    phone.client.set_cookie("pisti_player", "never-anyones-token")
    assert phone.choose_name("New Name").status_code == 303
    assert phone.client.get_cookie("pisti_player").value != "never-anyones-token"
    assert "New Name" in phone.get("/me").get_data(as_text=True)
