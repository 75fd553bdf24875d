"""Moving to another database (``flask --app app copy-database FROM``): a
SQLite database with a player in every table of a player, a Daily result
and a kept review is copied into a new SQLite or PostgreSQL database, row
for row; its player carries on there and new players and results get ids
of their own. A copy refused writes nothing."""

from __future__ import annotations

from sqlalchemy import select

from app.db import db, reviews
from tests.db.conftest import Browser, make_app
from tests.db.test_player_data import _known_everywhere
from tests.db.test_review_claims import _record


def _rows(app) -> dict[str, list[tuple]]:
    """Every row of every table of ``app``'s database, by table, sorted."""
    with app.app_context():
        return {
            table.name: sorted(tuple(row) for row in db.session.execute(select(table)))
            for table in db.metadata.sorted_tables
        }


def _old_database(tmp_path, monkeypatch):
    """A SQLite database in ``tmp_path/old`` as a club's server leaves it,
    its file's path, and the phone its player continued on."""
    folder = tmp_path / "old"
    folder.mkdir()
    old = make_app(f"sqlite:///{folder / 'pisti.db'}", folder)
    phone = _known_everywhere(old, Browser(old.test_client()), monkeypatch)
    with old.app_context():
        reviews.keep_review(_record("moving"), 0, 24)
        db.session.remove()
        db.engine.dispose()
    return old, folder / "pisti.db", phone


def test_a_sqlite_database_moves_whole_and_its_players_carry_on(app, tmp_path, monkeypatch):
    old, file, phone = _old_database(tmp_path, monkeypatch)
    before = _rows(old)
    assert all(before.values()), before  # a row in every table

    result = app.test_cli_runner().invoke(args=["copy-database", str(file)])
    assert result.exit_code == 0, result.output
    assert "players: 1 rows" in result.output
    assert "reviews: 1 rows" in result.output
    assert _rows(app) == before

    # The player's phone, pointed at the new database, is still the player.
    moved = Browser(app.test_client())
    moved.client.set_cookie("pisti_player", phone.client.get_cookie("pisti_player").value)
    assert "Gizli Ayşe" in moved.get("/me").get_data(as_text=True)
    assert "Gizli Ayşe" in moved.get("/leaderboard").get_data(as_text=True)
    # A new player and their result get ids of their own (PostgreSQL's
    # counters go on after the copied ids).
    newcomer = Browser(app.test_client())
    assert newcomer.choose_name("Yeni Gelen").status_code == 303
    newcomer.deal("after-the-move")
    newcomer.play_to_the_end()
    after = _rows(app)
    assert len(after["players"]) == 2
    assert len(after["results"]) == len(before["results"]) + 1


def test_a_copy_into_a_database_with_rows_or_from_another_version_writes_nothing(
    app, tmp_path, monkeypatch
):
    old, file, _ = _old_database(tmp_path, monkeypatch)
    runner = app.test_cli_runner()
    Browser(app.test_client()).choose_name("Zaten Burada")
    refused = runner.invoke(args=["copy-database", str(file)])
    assert refused.exit_code == 2
    assert "nothing copied: the app's database" in refused.output
    assert "is not empty (players has rows)" in refused.output
    assert [row[1] for row in _rows(app)["players"]] == ["Zaten Burada"]

    with old.app_context():
        db.session.execute(
            db.text("UPDATE alembic_version SET version_num = '0009_reviews_created_index'")
        )
        db.session.commit()
        db.engine.dispose()
    older = runner.invoke(args=["copy-database", str(file)])
    assert older.exit_code == 2
    assert "is at migration 0009_reviews_created_index" in older.output
    assert "flask --app app db upgrade" in older.output

    missing = runner.invoke(args=["copy-database", str(tmp_path / "none.db")])
    assert missing.exit_code == 2
    assert f"no SQLite database at {tmp_path / 'none.db'}" in missing.output
    assert not (tmp_path / "none.db").exists()

    unreached = runner.invoke(args=["copy-database", "postgresql://pisti:s3cret@127.0.0.1:1/old"])
    assert unreached.exit_code == 2
    assert "nothing copied: a database could not be read or written: " in unreached.output
    assert "Traceback" not in unreached.output
    assert "s3cret" not in unreached.output
