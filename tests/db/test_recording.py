"""A finished game is written once, by the server, in one transaction."""

from __future__ import annotations

import dataclasses
import re
import threading
from dataclasses import replace

import pytest
from sqlalchemy import Connection, event, func, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.db import db, queries
from app.db.facts import GameFacts, deal_key, house_rules
from app.db.models import Player, Result, ScoreCount, WeeklyTotal
from app.engine.rules import parse_rules_text
from tests.conftest import start_deal
from tests.db.conftest import Browser


def _count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def test_a_known_players_game_is_recorded_once(app, visitor):
    visitor.choose_name("Once")
    visitor.get("/")
    visitor.post("/new", rules="cardems", level="medium")
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


def test_a_deal_chosen_by_its_seed_adds_its_win_but_not_its_points(app, visitor):
    """A deal link's seed is the player's to choose, and its computers answer
    the same to the same plays: worked out beforehand with the open engine
    (a 2-ply look-ahead knowing every card: 24 points a Single hand against
    Hard, 14.6 playing as Hard does; a chosen seed's best line, 54 every
    time), it was replayed for its points to top the all-time board. Its
    result is kept (the deal's list, the statistics), and it adds a game
    and its win, but not its points; a New game, dealt at random, does."""
    visitor.choose_name("Replayer")
    visitor.deal("replayed-deal")
    page = visitor.play_to_the_end()
    assert "adds its game to your Pişti score, but not its points" in page
    with app.app_context():
        result = db.session.scalar(select(Result))
        player = db.session.scalar(select(Player))
        assert result is not None and result.points > 0
        assert (player.games, player.points) == (1, 0)
        assert player.score == player.rewards
        assert db.session.scalar(select(WeeklyTotal.score)) == player.score
    visitor.get("/")
    visitor.post("/new", rules="cardems", level="medium")
    assert "but not its points" not in visitor.play_to_the_end()
    with app.app_context():
        dealt = db.session.scalars(select(Result).order_by(Result.id.desc())).first()
        player = db.session.scalar(select(Player))
        assert dealt is not None and dealt.id != result.id
        assert (player.games, player.points) == (2, dealt.points)


def test_a_game_from_a_seed_in_turkish_letters_is_recorded(app, visitor):
    # The Daily check compared the seed with hmac.compare_digest, which
    # refuses non-ASCII text: the last play was a 500 and nothing recorded.
    visitor.choose_name("Ayşe")
    visitor.deal("cuma-ak%C5%9Fam%C4%B1")
    page = visitor.play_to_the_end()
    assert "Recorded for <bdi>Ayşe</bdi>." in page
    with app.app_context():
        key = deal_key("cuma-akşamı", "cardems", None, ("medium",))
        assert db.session.scalar(select(Result.deal_key)) == key


def test_anonymous_games_are_not_recorded(app, visitor):
    visitor.deal("anon")
    visitor.play_to_the_end()
    assert _count(app, Result) == 0


def test_choosing_a_name_on_the_final_page_keeps_that_game(app, visitor):
    visitor.deal("name-after")
    page = visitor.play_to_the_end()
    assert "Keep this result" in page
    response = visitor.post("/me/name", name="Afterwards", next="game")
    # Back to the final page, at the result just recorded.
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/game#your-result")
    page = visitor.get("/game").get_data(as_text=True)
    assert "Recorded for <bdi>Afterwards</bdi>." in page
    assert _count(app, Result) == 1
    # Reloading the final page records nothing more.
    visitor.get("/game")
    assert _count(app, Result) == 1


def test_a_finished_game_is_recorded_for_one_player_only(app, visitor):
    """Dropping the player cookie and choosing another name on the same
    final page does not record the game again for the new player."""
    visitor.deal("one-owner")
    visitor.play_to_the_end()
    assert visitor.post("/me/name", name="Owner", next="game").status_code == 303
    for name in ("Second", "Third"):
        visitor.client.delete_cookie("pisti_player")
        assert visitor.post("/me/name", name=name, next="game").status_code == 303
        page = visitor.get("/game").get_data(as_text=True)
        assert f"Recorded for {name}." not in page
    assert _count(app, Result) == 1
    with app.app_context():
        owner = db.session.scalar(select(Result.player_id))
        assert db.session.get(Player, owner).name == "Owner"


def test_a_taken_name_on_the_final_page_keeps_the_final_page(app, visitor):
    # It went to the profile page with the refusal: the score was gone.
    other = Browser(app.test_client())
    other.choose_name("Taken")
    visitor.deal("name-taken")
    visitor.play_to_the_end()
    response = visitor.post("/me/name", name="taken", next="game")
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "That name is taken" in page and 'class="verdict"' in page
    assert 'value="taken"' in page  # the name typed, to change
    form = page.split('id="name-form"')[1].split("</form>")[0]
    assert 'id="name-error">That name is taken' in form and 'aria-invalid="true"' in form
    assert _count(app, Result) == 0
    response = visitor.post("/me/name", name="Free", next="game")
    assert response.status_code == 303
    assert "Recorded for <bdi>Free</bdi>." in visitor.get("/game").get_data(as_text=True)
    assert _count(app, Result) == 1


def test_a_refused_name_from_a_final_page_that_changed_is_still_said(app, visitor):
    """The final page's name form sent from a tab whose page is out of date:
    the refusal is said at the top of the page that answers (it has no name
    form beside which to say it), and that page is the table's, not the
    profile's, so a reload shows it."""
    visitor.deal("name-late")
    visitor.play_to_the_end()
    visitor.deal("name-late-next")  # another tab starts a new game
    response = visitor.post("/me/name", name="<bad>", next="game")
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert '<p class="alert" role="alert">A name may have' in page
    assert 'data-address="/game"' in page
    other = Browser(app.test_client())
    other.deal("name-late-2")
    other.play_to_the_end()
    other.choose_name("Chosen Elsewhere")  # another tab chose a name
    page = other.post("/me/name", name="<bad>", next="game").get_data(as_text=True)
    assert '<p class="alert" role="alert">A name may have' in page and "Recorded for" in page


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


@pytest.mark.parametrize("paused_before", ["INSERT INTO results", "SELECT player_tasks.id"])
def test_forget_me_while_a_game_of_the_player_is_being_recorded(app, paused_before):
    # "Forget me" in one tab while a game finishes in another: the
    # recording is held just before it writes the result (or reads the
    # tasks) while the forgetting runs. Before, forgetting went first, and
    # the result then failed its foreign key (IntegrityError), or, on
    # PostgreSQL, each waited for rows the other had locked (a deadlock,
    # answered as "the database cannot be reached"). Now whichever takes
    # the player's row first goes first: the player and every row of
    # theirs are gone, and neither request fails.
    with app.app_context():
        player_id = queries.create_player("Unutulan")[0].id
        queries.record_result(player_id, _facts("before"))  # a weekly row, tasks
        engine = db.engine
    recording = threading.current_thread()  # replaced by the recording's thread
    held, release = threading.Event(), threading.Event()
    errors: list[Exception] = []

    def hold(_conn, _cursor, statement, *_args) -> None:
        if threading.current_thread() is recording and statement.startswith(paused_before):
            held.set()
            release.wait(timeout=60)

    def run(work) -> None:
        try:
            with app.app_context():
                work()
        except Exception as error:  # reported by the assertion below
            errors.append(error)

    event.listen(engine, "before_cursor_execute", hold)
    try:
        recording = threading.Thread(
            target=run, args=(lambda: queries.record_result(player_id, _facts("now")),)
        )
        recording.start()
        assert held.wait(timeout=60)
        forgetting = threading.Thread(target=run, args=(lambda: queries.forget_player(player_id),))
        forgetting.start()
        forgetting.join(timeout=1)  # done, or waiting for the recording's locks
        release.set()
        recording.join()
        forgetting.join()
    finally:
        release.set()
        event.remove(engine, "before_cursor_execute", hold)
    assert errors == []
    for model in (Player, Result, WeeklyTotal):
        assert _count(app, model) == 0
    with app.app_context():
        assert db.session.scalar(select(func.sum(ScoreCount.players))) == 0


def test_shared_deal_lists_everyone_best_first(app):
    for name in ("First", "Second"):
        visitor = Browser(app.test_client())
        visitor.choose_name(name)
        visitor.deal("shared-list")
        visitor.play_to_the_end()
    page = visitor.get("/game").get_data(as_text=True)
    assert '<h2 id="deal-results-heading">Everyone who finished this deal</h2>' in page
    table = page.split("Everyone who finished this deal")[1]
    assert '<table class="score leaderboard" aria-labelledby="deal-results-heading">' in table
    assert "First" in table and "Second" in table
    # The player's own row says so, once.
    assert re.search(
        r'<tr class="mine"><td>\d</td><th scope="row"><bdi>Second</bdi> \(you\)</th>', table
    )
    assert '<th scope="row"><bdi>First</bdi></th>' in table
    assert page.count("(you)") == 1


def test_the_deal_link_lists_everyone_who_finished_it_to_compare_later(app):
    # Ayşe finishes a shared deal and starts another game, so her final page
    # is gone; Barış plays her link afterwards. Opening the link again, Ayşe
    # sees how he did beside her own result (the final page was the only
    # place that listed them, and only until the next game).
    link = "/deal/cuma-akşamı?rules=classic&level=hard"
    ayse = Browser(app.test_client())
    ayse.choose_name("Ayşe")
    start_deal(ayse.client, link)
    ayse.play_to_the_end()
    start_deal(ayse.client, "/deal/another-deal")
    baris = Browser(app.test_client())
    baris.choose_name("Barış")
    start_deal(baris.client, link)
    baris.play_to_the_end()
    page = ayse.get(link).get_data(as_text=True)
    assert "Start this deal" in page
    listed = _deal_list(page)
    rows = re.findall(r'<th scope="row"><bdi>([^<]+)</bdi>([^<]*)</th>', listed)
    assert sorted(rows) == [("Ayşe", " (you)"), ("Barış", "")]
    assert re.search(
        r'<tr class="mine"><td>\d</td><th scope="row"><bdi>Ayşe</bdi> \(you\)</th>', listed
    )
    # The same seed with other computers is another deal: nobody yet.
    other = ayse.get("/deal/cuma-akşamı?rules=classic&level=easy").get_data(as_text=True)
    assert "Everyone who finished this deal" not in other
    assert "Start this deal" in other


def test_a_deal_link_opens_and_deals_with_the_database_down(app, visitor, monkeypatch):
    # The list of who finished the deal waits for the database; the link
    # still says what it deals and starts it.
    visitor.choose_name("Outage")
    monkeypatch.setattr(Connection, "_execute_context", _database_gone)
    response = visitor.get("/deal/kesinti?rules=classic")
    assert response.status_code == 200
    assert "Start this deal" in visitor.page
    assert "Everyone who finished this deal" not in visitor.page
    assert start_deal(visitor.client, "/deal/kesinti?rules=classic").status_code == 303


def test_a_player_who_plays_a_shared_deal_again_is_listed_once_with_the_best(app):
    with app.app_context():
        again, _ = queries.create_player("Again")
        other, _ = queries.create_player("Other")
        for game_id, player, points in (("a1", again, 7), ("o1", other, 9), ("a2", again, 12)):
            queries.record_result(player.id, replace(_facts(game_id), points=points))
        key = _facts("x").deal_key
        rows = [(row["name"], row["points"]) for row in queries.deal_results(key)]
    assert rows == [("Again", 12), ("Other", 9)]


def _deal_list(page: str) -> str:
    return page.split("Everyone who finished this deal")[1]


def test_a_shared_deal_under_house_rules_is_another_deal(app):
    """Issue 11: a shared deal is "the same seed, rules, target and level";
    the house-rule options are part of the rules."""
    links = {
        "Preset": "/deal/shared-house",
        "House": "/deal/shared-house?rules=cardems&pisti=20&jack_pisti=40",
        "Also House": "/deal/shared-house?rules=cardems&jack_pisti=40&pisti=20",
    }
    pages = {}
    for name, link in links.items():
        visitor = Browser(app.test_client())
        visitor.choose_name(name)
        start_deal(visitor.client, link)
        pages[name] = _deal_list(visitor.play_to_the_end())
    assert "Preset" in pages["Preset"] and "House" not in pages["Preset"]
    assert "House" in pages["House"] and "Preset" not in pages["House"]
    # The same options in another order are the same deal.
    assert '"row"><bdi>House</bdi><' in pages["Also House"] and "Also House" in pages["Also House"]
    assert "Preset" not in pages["Also House"]
    with app.app_context():
        keys = set(db.session.scalars(select(Result.deal_key)))
    assert len(keys) == 2


def test_a_presets_deal_key_is_unchanged_by_house_rules_support():
    """Results stored before house rules were part of the key stay listed."""
    assert deal_key("s", "classic", 51, ("hard",)) == deal_key("s", "classic", 51, ("hard",), "")
    assert deal_key("s", "classic", 51, ("hard",)) != deal_key(
        "s", "classic", 51, ("hard",), "pisti=20"
    )
    assert house_rules(parse_rules_text("classic")) == ""
    assert (
        house_rules(parse_rules_text("classic&pisti=20&players=3"))
        == "players=3 teams=solo pisti=20"
    )


def _score_counts(app) -> tuple[dict[int, int], dict[int, int]]:
    """The kept players per score (rows above 0) and the players' own."""
    with app.app_context():
        kept = db.session.execute(select(ScoreCount.score, ScoreCount.players))
        actual = db.session.execute(select(Player.score, func.count()).group_by(Player.score))
        return (
            {score: players for score, players in kept if players},
            {score: players for score, players in actual},
        )


def test_the_players_per_score_follow_every_write(app):
    """The all-time place is a sum over ScoreCount: it must follow a new
    player, recorded games (with task rewards) and forgetting a player."""
    with app.app_context():
        ids = [queries.create_player(name)[0].id for name in ("Bir", "İki", "Üç")]
    facts = GameFacts(
        game_id="g", rules="cardems", target=None, seed="s", levels=("hard",), outcome="win",
        points=12, opp_points=3, hands=1, pistis=1, jack_pistis=0, most_cards=1,
        ten_of_diamonds=1, two_of_clubs=0, used_jack=False,
    )  # fmt: skip
    with app.app_context():
        queries.record_result(ids[0], facts)
        queries.record_result(ids[0], facts)  # a second POST changes nothing
        queries.record_result(ids[1], dataclasses.replace(facts, game_id="h", points=2))
        queries.record_result(ids[2], dataclasses.replace(facts, game_id="i", points=30))
    kept, actual = _score_counts(app)
    assert kept == actual and sum(kept.values()) == 3
    with app.app_context():
        queries.forget_player(ids[2])
        board = queries.alltime_leaderboard(1, ids[1])
    kept, actual = _score_counts(app)
    assert kept == actual and sum(kept.values()) == 2
    assert board.total == 2 and board.mine is not None
    assert board.mine == next(row for row in board.rows if row["player_id"] == ids[1])


def _database_gone(*args, **kwargs):
    raise OperationalError("SELECT 1", {}, Exception("server closed the connection unexpectedly"))


def test_a_result_the_database_could_not_take_is_recorded_when_it_answers_again(
    app, visitor, monkeypatch
):
    visitor.choose_name("Later")
    visitor.deal("record-later")
    # The database fails every write of the result: the moves still stand,
    # and the final page does not claim a record it does not have.
    monkeypatch.setattr(queries, "record_result", _database_gone)
    page = visitor.play_to_the_end()
    assert "Not recorded yet for <bdi>Later</bdi>: the results database did not answer." in page
    assert "Recorded for <bdi>Later</bdi>." not in page
    assert _count(app, Result) == 0
    # Back: the next view of the final page records the game, once.
    monkeypatch.undo()
    page = visitor.get("/game").get_data(as_text=True)
    assert "Recorded for <bdi>Later</bdi>." in page
    assert _count(app, Result) == 1
    visitor.get("/game")
    assert _count(app, Result) == 1


def _database_full(*args, **kwargs):
    raise OperationalError("COMMIT", {}, Exception("database or disk is full"))


def _pool_taken(*args, **kwargs):
    # Every pooled connection stayed taken for pool_timeout (the pool's
    # own words): logged with a traceback, as an error, before.
    raise PoolTimeout("QueuePool limit of size 15 overflow 0 reached, connection timed out")


@pytest.mark.parametrize(
    ("failure", "words"),
    [
        (_database_full, "database or disk is full"),
        (_pool_taken, "QueuePool limit of size 15 overflow 0 reached, connection timed out"),
    ],
    ids=["full", "pool"],
)
def test_a_result_the_database_could_not_take_is_logged_with_what_to_do(
    app, visitor, monkeypatch, caplog, failure, words
):
    visitor.choose_name("Dolu")
    visitor.deal("record-full")
    monkeypatch.setattr(queries, "record_result", failure)
    visitor.play_to_the_end()
    visitor.get("/game")
    failed = [r for r in caplog.records if "could not record a finished game" in r.getMessage()]
    assert len(failed) == 3  # the last move, the final page, shown again
    for record in failed:
        assert record.levelname == "WARNING" and record.exc_info is None  # no traceback
        assert record.getMessage() == (
            f"could not record a finished game: {words}; the game is kept, and its final "
            "page records it when next shown with the database back (GET /readyz says when)"
        )


def test_a_database_that_does_not_answer_leaves_the_final_page_and_the_game(
    app, visitor, monkeypatch
):
    visitor.choose_name("Outage")
    visitor.deal("record-outage")
    # Every statement fails from here, as with the database server stopped.
    monkeypatch.setattr(Connection, "_execute_context", _database_gone)
    page = visitor.play_to_the_end()
    # The final page shows the score and says the result waits.
    assert visitor.get("/game").status_code == 200
    assert "Not recorded yet: the results database did not answer." in page
    assert "Final score" in page
    turkish = visitor.client.get("/game", headers={"Accept-Language": "tr"})
    assert "Henüz kaydedilmedi: sonuç veritabanı yanıt vermedi." in turkish.get_data(as_text=True)
    # Pages that are the database's answer 503.
    response = visitor.get("/me")
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    page = response.get_data(as_text=True)
    assert "The results database is not answering right now. Your game is kept" in page
    assert "Something went wrong" not in page
    turkish = visitor.client.get("/me", headers={"Accept-Language": "tr"})
    assert "Sonuç veritabanı şu anda yanıt vermiyor." in turkish.get_data(as_text=True)
    monkeypatch.undo()
    page = visitor.get("/game").get_data(as_text=True)
    assert "Recorded for <bdi>Outage</bdi>." in page
    assert _count(app, Result) == 1


def test_a_database_outage_tells_a_visitor_without_a_game_of_no_game(app, visitor, monkeypatch):
    visitor.choose_name("Gameless")
    monkeypatch.setattr(Connection, "_execute_context", _database_gone)
    response = visitor.get("/me")
    assert response.status_code == 503
    page = response.get_data(as_text=True)
    assert "The results database is not answering right now. Reload the page" in page
    assert "Your game is kept" not in page and "Back to your game" not in page


def test_a_name_ending_in_a_full_stop_is_not_given_a_second_one(app, visitor):
    visitor.choose_name("Ayşe K.")
    visitor.deal("record-stop")
    page = visitor.play_to_the_end()
    assert "Recorded for <bdi>Ayşe K.</bdi>" in page and "Ayşe K.</bdi>." not in page


def test_a_device_taken_over_by_another_player_does_not_record_the_game_again(app, visitor):
    # Ana's game is recorded for Ana. Her device then continues as Bora
    # (a transfer code): the final page shown to Bora records nothing, and
    # says whose game it is.
    visitor.choose_name("Ana")
    visitor.deal("taken-over")
    assert "Recorded for <bdi>Ana</bdi>." in visitor.play_to_the_end()
    bora = Browser(app.test_client())
    bora.choose_name("Bora")
    bora.get("/me")
    page = bora.post("/me/transfer").get_data(as_text=True)
    code = re.search(r"<code>([^<]+)</code>", page).group(1).strip()
    visitor.get("/me")
    assert visitor.post("/me/continue", code=code).status_code == 303
    page = visitor.get("/game").get_data(as_text=True)
    assert _count(app, Result) == 1
    assert "Recorded for <bdi>Ana</bdi>, who started this game on this device." in page
    assert "Recorded for Bora" not in page and "Not recorded yet" not in page


@pytest.mark.parametrize(
    ("link", "heading"),
    [
        ("/deal/other-side", "Other side"),
        ("/deal/other-side?rules=classic&players=3", "Best other side"),
    ],
)
def test_a_shared_deals_list_names_the_other_sides_column_by_their_number(app, link, heading):
    """With one other side its points are "Other side"; with two or more the
    column holds the best of them, and says so."""
    visitor = Browser(app.test_client())
    visitor.choose_name("Counted")
    start_deal(visitor.client, link)
    table = _deal_list(visitor.play_to_the_end())
    assert f'<th scope="col">{heading}</th>' in table
