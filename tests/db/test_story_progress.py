"""Mansion Evenings progress of a known player lives in the database: it is
written as the lesson moves on and a story match is won, merged (the
furthest kept) when an anonymous player becomes known by a name or a
transfer code, kept across a restart, and deleted by "forget me"."""

from __future__ import annotations

from sqlalchemy import func, select

from app import create_app
from app.db import db, queries
from app.db.models import Player, Result, StoryProgress
from app.web.identity import COOKIE
from tests.db.conftest import Browser
from tests.story.test_story_pages import skip_lesson, text, winning_seed


def progress_of(app, name: str) -> dict:
    with app.app_context():
        player = db.session.scalar(select(Player).where(Player.name == name))
        return queries.story_progress(player.id)


def give_session_progress(app, client, value: dict) -> None:
    """Put ``value`` in the client's session as a POST would have stored it."""
    with client.session_transaction() as session:
        session["story"] = value
        app.session_interface.commit(app, session)


def text_of(page: str) -> str:
    return " ".join(page.split())


def transfer_code(visitor: Browser) -> str:
    visitor.get("/me")
    page = visitor.post("/me/transfer").get_data(as_text=True)
    return page.split('class="transfer-code"><code>')[1].split("<")[0]


def test_a_known_players_progress_is_written_to_the_database(visitor, app, client, monkeypatch):
    visitor.choose_name("Storyteller")
    skip_lesson(client)
    assert progress_of(app, "Storyteller") == {
        "lesson": "skipped",
        "lesson_step": 0,
        "beaten": [],
    }
    winning_seed(client, monkeypatch)
    assert progress_of(app, "Storyteller")["beaten"] == ["hayriye"]
    with client.session_transaction() as session:
        assert "story" not in session  # the database only


def test_choosing_a_name_moves_the_sessions_progress_to_the_database(visitor, app, client):
    skip_lesson(client)
    give_session_progress(app, client, {"lesson": "done", "lesson_step": 6, "beaten": ["hayriye"]})
    visitor.choose_name("Newcomer")
    assert progress_of(app, "Newcomer") == {
        "lesson": "done",
        "lesson_step": 6,
        "beaten": ["hayriye"],
    }
    with client.session_transaction() as session:
        assert "story" not in session
    assert 'value="sevim"' in client.get("/story").get_data(as_text=True)


def test_continuing_on_another_device_keeps_the_furthest_of_both(visitor, app):
    visitor.choose_name("Wanderer")
    with app.app_context():
        player = db.session.scalar(select(Player))
        progress = {"lesson": "skipped", "lesson_step": 2, "beaten": ["hayriye"]}
        queries.update_story_progress(player.id, lambda kept: progress)
    code = transfer_code(visitor)
    phone = Browser(app.test_client())
    skip_lesson(phone.client)
    give_session_progress(
        app, phone.client, {"lesson": "done", "lesson_step": 1, "beaten": ["hayriye", "sevim"]}
    )
    phone.get("/me")
    assert phone.post("/me/continue", code=code).status_code == 303
    merged = {"lesson": "done", "lesson_step": 2, "beaten": ["hayriye", "sevim"]}
    assert progress_of(app, "Wanderer") == merged
    # Both devices see it, and the phone's anonymous copy is gone.
    for device in (visitor.client, phone.client):
        assert 'value="cevdet"' in device.get("/story").get_data(as_text=True)
    with phone.client.session_transaction() as session:
        assert "story" not in session
    # Less progress on a third device takes nothing away.
    third = Browser(app.test_client())
    skip_lesson(third.client)
    third.get("/me")
    assert third.post("/me/continue", code=transfer_code(visitor)).status_code == 303
    assert progress_of(app, "Wanderer") == merged


def test_progress_is_kept_across_a_restart_with_a_new_session(visitor, app, database_url, tmp_path):
    visitor.choose_name("Returning")
    with app.app_context():
        player = db.session.scalar(select(Player))
        progress = {"lesson": "done", "lesson_step": 6, "beaten": ["hayriye", "sevim"]}
        queries.update_story_progress(player.id, lambda kept: progress)
    token = visitor.client.get_cookie(COOKIE).value
    again = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "db-tests-secret",
            "SESSION_FILE_DIR": str(tmp_path / "other-sessions"),
            "DATABASE_URL": database_url,
            "RATELIMIT_ENABLED": False,
        }
    )
    browser = again.test_client()
    browser.set_cookie(COOKIE, token)
    page = browser.get("/story").get_data(as_text=True)
    assert 'value="cevdet"' in page and "Play the lesson again" in text_of(page)
    with again.app_context():
        db.session.remove()
        db.engine.dispose()


def test_forget_me_deletes_the_story_progress(visitor, app, client):
    visitor.choose_name("Forgetful")
    skip_lesson(client)
    visitor.get("/me")
    assert visitor.post("/me/forget", confirm="yes").status_code == 303
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(StoryProgress)) == 0
    assert "Skip the lesson" in text(client.get("/story"))  # anonymous, from the start


def test_a_known_players_matches_against_each_opponent_are_counted(
    visitor, app, client, monkeypatch
):
    # The story page tells a known player how their matches against each
    # opponent went, and the statistics page names her, not her bot's key.
    visitor.choose_name("Tally")
    assert "matches played" not in text(client.get("/story"))
    winning_seed(client, monkeypatch)
    with app.app_context():
        played = db.session.scalar(
            select(func.count()).select_from(Result).where(Result.levels == "hayriye")
        )
    assert played >= 1
    # A single deal against her is no story match: not counted.
    with app.app_context():
        match = db.session.scalars(select(Result).where(Result.levels == "hayriye")).first()
        fields = {column.key: getattr(match, column.key) for column in Result.__table__.columns}
        fields.update(id=None, game_id="single-deal", rules="cardems", target=None, outcome="win")
        db.session.add(Result(**fields))
        db.session.commit()
    places = client.get("/story").get_data(as_text=True).split('class="story-place')[1:]
    won = "match played" if played == 1 else "matches played"
    assert f"Your matches: {played} {won}, 1 won" in text_of(places[0])
    assert not any("Your matches" in place for place in places[1:])
    turkish = client.get("/story", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert f"Maçlarınız: {played} maç oynandı, 1 galibiyet" in turkish
    # No other way to play her: a deal link naming her is refused.
    assert client.get("/deal/tally?rules=classic&target=51&level=hayriye").status_code == 400
    stats = text(client.get("/me/stats"))
    assert f"Classic match (2 players) · Aunt Hayriye {played} 1 " in stats
    assert "hayriye" not in stats


def test_an_anonymous_player_sees_no_tally(client, monkeypatch):
    winning_seed(client, monkeypatch)
    assert "Your matches" not in text(client.get("/story"))


def test_a_lesson_step_and_a_story_win_made_at_once_both_stay(visitor, app):
    """The progress is changed by compare-and-set: a change computed from a
    copy another request wrote over meanwhile is made again on the fresh
    one, so a lesson restart racing a win on another device keeps the win."""
    visitor.choose_name("Racer")
    with app.app_context():
        player_id = db.session.scalar(select(Player.id))
        queries.update_story_progress(player_id, lambda kept: {**kept, "lesson": "done"})
        calls = []

        def restart(kept):
            calls.append(dict(kept))
            if len(calls) == 1:
                # Another request wins against Aunt Hayriye meanwhile.
                with app.app_context():
                    queries.update_story_progress(
                        player_id, lambda other: {**other, "beaten": ["hayriye"]}
                    )
            return {**kept, "lesson_step": 0}

        queries.update_story_progress(player_id, restart)
        assert [call["beaten"] for call in calls] == [[], ["hayriye"]]
        assert queries.story_progress(player_id) == {
            "lesson": "done",
            "lesson_step": 0,
            "beaten": ["hayriye"],
        }


def test_progress_that_keeps_changing_gets_the_409_page_not_a_500(visitor, app, monkeypatch):
    """Many requests of one known player at once: when every compare-and-set
    try lost, the page says it was out of date (409)."""
    visitor.choose_name("Flooder")

    def busy(player_id, change):
        raise queries.StoryBusy("kept changing")

    monkeypatch.setattr(queries, "update_story_progress", busy)
    visitor.get("/story/lesson")
    response = visitor.post("/story/lesson/restart")
    assert response.status_code == 409
    assert "out of date" in response.get_data(as_text=True)
