"""A finished game is written once, by the server, in one transaction."""

from __future__ import annotations

import threading

from sqlalchemy import func, select

from app.db import db, queries
from app.db.facts import GameFacts
from app.db.models import Player, Result, WeeklyTotal
from tests.db.conftest import Browser


def _count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def test_a_known_players_game_is_recorded_once(app, visitor):
    visitor.choose_name("Once")
    visitor.deal("record-once")
    last = []
    visitor.play_to_the_end(last)
    assert _count(app, Result) == 1
    # The same last move posted again (a retry, a double click) is refused
    # as out of date and records nothing.
    response = visitor.post("/play", **last[0])
    assert response.status_code == 409
    assert _count(app, Result) == 1
    with app.app_context():
        result = db.session.scalar(select(Result))
        player = db.session.scalar(select(Player))
        assert player.games == 1
        assert player.points == result.points
        assert player.score == player.points + player.rewards
        assert db.session.scalar(select(WeeklyTotal.score)) == player.score


def test_anonymous_games_are_not_recorded(app, visitor):
    visitor.deal("anon")
    visitor.play_to_the_end()
    assert _count(app, Result) == 0


def test_choosing_a_name_on_the_final_page_keeps_that_game(app, visitor):
    visitor.deal("name-after")
    page = visitor.play_to_the_end()
    assert "Keep this result" in page
    response = visitor.post("/me/name", name="Afterwards", next="game")
    assert response.status_code == 303 and response.headers["Location"].endswith("/game")
    page = visitor.get("/game").get_data(as_text=True)
    assert "Recorded for Afterwards." in page
    assert _count(app, Result) == 1
    # Reloading the final page records nothing more.
    visitor.get("/game")
    assert _count(app, Result) == 1


def _facts(game_id: str) -> GameFacts:
    return GameFacts(
        game_id=game_id,
        rules="cardems",
        target=None,
        seed="s",
        levels=("medium",),
        outcome="win",
        points=10,
        opp_points=5,
        hands=1,
        pistis=1,
        jack_pistis=0,
        most_cards=1,
        ten_of_diamonds=1,
        two_of_clubs=0,
        used_jack=True,
    )


def test_recording_the_same_game_at_once_from_many_threads_keeps_one(app):
    with app.app_context():
        player, _ = queries.create_player("Racer")
        player_id = player.id
    outcomes = []

    def record() -> None:
        with app.app_context():
            outcomes.append(queries.record_result(player_id, _facts("same-game")))

    threads = [threading.Thread(target=record) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(outcome is not None for outcome in outcomes) == 1
    assert _count(app, Result) == 1
    with app.app_context():
        assert db.session.get(Player, player_id).games == 1


def test_shared_deal_lists_everyone_best_first(app):
    for name in ("First", "Second"):
        visitor = Browser(app.test_client())
        visitor.choose_name(name)
        visitor.deal("shared-list")
        visitor.play_to_the_end()
    page = visitor.get("/game").get_data(as_text=True)
    assert "Everyone who finished this deal" in page
    table = page.split("Everyone who finished this deal")[1]
    assert "First" in table and "Second" in table
