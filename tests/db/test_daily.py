"""The Daily deal: the same deal for everyone, secret until the day ends,
ranked once per player and day."""

from __future__ import annotations

import hashlib
import hmac
import html
import re
from datetime import UTC, date, datetime, timedelta

import pytest
from flask_babel import format_date
from sqlalchemy import delete, select

from app import create_app
from app.db import db, queries
from app.db.models import DailyDeal, DailyEntry, Player, PlayerTask, Result
from app.engine import RULE_SETS
from app.engine.match import Match
from app.engine.rules import parse_rules_text
from app.web import daily, store
from tests.conftest import run_clocks_from
from tests.db.conftest import CARD, GAME, HAND, MOVE, Browser

#: A play's hidden fields, as the table page's card forms carry them.
FIELDS = {"move": MOVE, "hand": HAND, "game": GAME}

#: Every test's day is one from first request to last (CI may run at midnight).
pytestmark = pytest.mark.usefixtures("midday")


def test_the_seed_is_an_hmac_of_the_secret_and_the_date(app):
    with app.test_request_context():
        seed = daily.daily_seed(date(2026, 11, 29), "cardems")
        expected = hmac.new(
            b"db-tests-secret", b"pisti-daily/1|2026-11-29|cardems", hashlib.sha256
        ).hexdigest()[:32]
        assert seed == expected
        assert seed != daily.daily_seed(date(2026, 11, 30), "cardems")
        assert seed != daily.daily_seed(date(2026, 11, 29), "classic")
        app.config["SECRET_KEY"] = "another-secret-key"
        assert seed != daily.daily_seed(date(2026, 11, 29), "cardems")


def test_everyone_gets_the_same_deal(app):
    hands = []
    for _ in range(2):
        visitor = Browser(app.test_client())
        visitor.start_daily()
        hands.append(CARD.findall(visitor.get("/game").get_data(as_text=True)))
    assert hands[0] == hands[1] and len(hands[0]) == 4


def test_the_seed_stays_secret_while_the_day_lasts(app, visitor):
    visitor.choose_name("Keeper")
    visitor.start_daily()
    page = visitor.play_to_the_end()
    with app.test_request_context():
        seed = daily.daily_seed(daily.today(), "cardems")
    assert 'class="verdict"' in page
    assert seed not in page
    # Its "play again" is a new deal, not the Daily again: it says so.
    assert "A new deal, same game" in page and ">Play again<" not in page
    later = "its seed, share link, records and review open once the day is over"
    assert later in page
    # The record and the review show every card: a friend who got them
    # would know today's deal. Neither is offered, and asking is refused.
    assert "Download record" not in page and "Review this game" not in page
    record = visitor.client.get("/record")
    assert record.status_code == 409
    assert "Content-Disposition" not in record.headers
    assert later in record.get_data(as_text=True)
    review = visitor.post("/review/game", hand="1")
    assert review.status_code == 409 and later in review.get_data(as_text=True)
    assert seed not in visitor.get("/daily").get_data(as_text=True)


def test_between_hands_of_todays_daily_match_the_records_wait_too(app, visitor):
    visitor.start_daily("classic")
    for _ in range(200):
        page = visitor.get("/game").get_data(as_text=True)
        if "Next hand" in page:
            break
        card = CARD.search(page).group(1)
        fields = {name: pattern.search(page).group(1) for name, pattern in FIELDS.items()}
        visitor.post("/play", card=card, **fields)
    assert "Hand 1 is over" in page
    assert "Records:" not in page and "/record?hand=1" not in page
    assert "records and review open once the day is over" in page
    assert visitor.client.get("/record?hand=1").status_code == 409


def test_yesterdays_seed_is_public_with_a_link(app, visitor):
    yesterday = daily.today() - timedelta(days=1)
    with app.test_request_context():
        seed = daily.daily_seed(yesterday, "classic")
    page = visitor.get("/daily").get_data(as_text=True)
    assert seed in page
    response = visitor.get(f"/daily/{yesterday.isoformat()}?rules=classic")
    assert response.status_code == 200
    assert seed in visitor.page
    visitor.post(f"/daily/{yesterday.isoformat()}/play", rules="classic")
    final = visitor.play_to_the_end()
    assert seed in final  # a past deal's share link is public
    assert "Back to the Daily deal" not in final  # an ordinary game now
    assert "Download record" in final
    assert visitor.client.get("/record?hand=1").status_code == 200


@pytest.mark.parametrize(
    ("language", "written"),
    [("en", "November 30, 2026"), ("tr", "30 Kasım 2026")],
)
def test_a_past_days_page_writes_its_date_in_the_pages_language(app, visitor, language, written):
    """A past day's page names the day as its language writes a date (not
    2026-11-30); its links keep the ISO date."""
    visitor.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    page = visitor.get("/daily/2026-11-30?rules=classic").get_data(as_text=True)
    heading = page.split("<h1>")[1].split("</h1>")[0]
    assert written in heading
    assert "2026-11-30" not in heading
    assert 'href="/daily/2026-11-30?rules=partners"' in page


@pytest.mark.parametrize(
    ("language", "today", "past", "said"),
    [
        (
            "en",
            "Daily deal · Pişti",
            "Daily deal of November 30, 2026 · Pişti",
            "Classic match (2 players) · Everyone gets the same deal each UTC day, "
            "against the Hard computer.",
        ),
        (
            "tr",
            "Günün Dağıtımı · Pişti",
            "Günün Dağıtımı: 30 Kasım 2026 · Pişti",
            "Klasik maç (2 oyuncu) · Her UTC gününde herkes aynı dağıtımı Zor bilgisayara "
            "karşı oynar.",
        ),
    ],
)
def test_a_daily_links_preview_says_what_it_is(visitor, language, today, past, said):
    """A Daily link passed on in a chat was previewed by its title alone:
    its page had no description, address or picture for the chat app. It
    now has them (the day and game, never the deal's cards), in the page's
    language."""
    visitor.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    for path, title, url in [
        ("/daily?rules=classic", today, "http://localhost/daily?rules=classic"),
        (
            "/daily/2026-11-30?rules=classic",
            past,
            "http://localhost/daily/2026-11-30?rules=classic",
        ),
    ]:
        page = visitor.get(path).get_data(as_text=True)
        assert f'<meta property="og:title" content="{title}">' in page
        assert f'<meta property="og:description" content="{said}">' in page
        assert f'<meta name="description" content="{said}">' in page
        assert f'<meta property="og:url" content="{url}">' in page
        assert '<meta property="og:image" content="http://localhost/static/preview.png?v=' in page
        assert '<meta name="twitter:card" content="summary_large_image">' in page


@pytest.mark.parametrize(
    ("language", "written"),
    [("en", r"\(\w{3} \d{1,2}, \d{4} 00:00 UTC\)"), ("tr", r"\(\d{1,2} \w{3} \d{4} 00:00 UTC\)")],
)
def test_the_next_deals_time_is_written_in_the_pages_language(visitor, language, written):
    visitor.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    page = visitor.get("/daily").get_data(as_text=True)
    shown = re.sub(r"<[^>]+>", "", page.split('class="countdown"')[1].split("</p>")[0])
    assert re.search(written, shown), shown


@pytest.mark.parametrize(
    ("moment", "language", "said"),
    [
        # 10:00 on Monday the 7th in Kiritimati (UTC+14), 09:00 on Sunday
        # the 6th in Pago Pago (UTC-11): the deal is Sunday's for both.
        (datetime(2026, 12, 6, 20), "en", "Today (UTC) is Sunday, December 6, 2026."),
        (datetime(2026, 12, 6, 20), "tr", "Bugün (UTC) 6 Aralık 2026 Pazar."),
        (datetime(2026, 12, 7, 0, 0, 1), "en", "Today (UTC) is Monday, December 7, 2026."),
    ],
)
def test_todays_page_names_the_utc_day_of_its_deal(monkeypatch, visitor, moment, language, said):
    """Where the player's day is not the UTC one (Kiritimati's morning,
    Pago Pago's evening), "today's deal" is not their today's: the page
    named no day until someone was on the board (its caption), so a
    player could not tell whose today it was."""
    _clock_at(monkeypatch, moment)
    visitor.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    page = html.unescape(visitor.get("/daily").get_data(as_text=True))
    assert "Nobody is on this leaderboard yet." in page or "henüz kimse yok" in page
    shown = " ".join(re.sub(r"<[^>]+>", " ", page.split("<h1>")[1].split("</p>")[0]).split())
    assert said in shown, shown


def _clock_at(monkeypatch, moment: datetime) -> None:
    """Stop the Daily pages' clock (``datetime.now`` in :mod:`app.web.daily`,
    which :func:`daily.today` reads too) at ``moment``, UTC."""

    class Frozen(datetime):
        @classmethod
        def now(cls, tz=None):
            return moment.replace(tzinfo=UTC).astimezone(tz) if tz else moment

    monkeypatch.setattr(daily, "datetime", Frozen)


@pytest.mark.parametrize(
    ("moment", "left", "language", "words"),
    [
        (datetime(2026, 12, 31, 23, 59, 59, 500_000), 1, "en", "Next deal in less than a minute"),
        (datetime(2026, 12, 31, 23, 59, 1), 59, "tr", "Sonraki dağıtıma bir dakikadan az kaldı"),
        (datetime(2026, 12, 31, 23, 58, 59, 1), 61, "en", "Next deal in 0 h 1 min"),
        (datetime(2026, 12, 31, 0, 0, 0), 86400, "en", "Next deal in 24 h 0 min"),
    ],
)
def test_the_countdown_never_ends_before_midnight(
    monkeypatch, visitor, moment, left, language, words
):
    """The seconds the page's script counts down are rounded up: half a
    second before midnight the page said 0 seconds left, so its script at
    once offered "The new day's deal is out" (and took the play button
    away) while the server still dealt the old day's deal; without the
    script, the last minute said "Next deal in 0 h 0 min". The new day is
    the next year's first (Jan 1, 2027)."""
    _clock_at(monkeypatch, moment)
    visitor.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    page = html.unescape(visitor.get("/daily").get_data(as_text=True))
    assert f'data-seconds-left="{left}"' in page
    shown = " ".join(
        re.sub(r"<[^>]+>", "", page.split('class="countdown"')[1].split("</p>")[0]).split()
    )
    assert words in shown, shown
    assert "0 h 0 min" not in shown and "0 sa 0 dk" not in shown
    assert ("(Jan 1, 2027 00:00 UTC)" if language == "en" else "(1 Oca 2027 00:00 UTC)") in shown


def test_a_new_secret_key_keeps_the_days_already_played(app, database_url, tmp_path):
    yesterday = daily.today() - timedelta(days=1)
    before = Browser(app.test_client())
    before.start_daily()
    hand = CARD.findall(before.get("/game").get_data(as_text=True))
    before.post(f"/daily/{yesterday.isoformat()}/play", rules="classic")
    with app.test_request_context():
        played = daily.daily_seed(yesterday, "classic")
        unplayed = daily.daily_seed(yesterday, "partners")
    # The same database served with another key (a restart with
    # FLASK_SECRET_KEY set, a move to containers).
    rekeyed = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "db-tests-another-secret",
            "SESSION_FILE_DIR": str(tmp_path / "sessions"),
            "DATABASE_URL": database_url,
            "RATELIMIT_ENABLED": False,
        }
    )
    after = Browser(rekeyed.test_client())
    after.start_daily()
    assert CARD.findall(after.get("/game").get_data(as_text=True)) == hand
    page = after.get(f"/daily/{yesterday.isoformat()}?rules=classic").get_data(as_text=True)
    assert played in page
    # A day nobody started is the new key's, and looking at it keeps nothing.
    page = after.get(f"/daily/{yesterday.isoformat()}?rules=partners").get_data(as_text=True)
    assert unplayed not in page
    with rekeyed.app_context():
        kept = db.session.execute(select(DailyDeal.rules)).scalars().all()
        db.session.remove()
        db.engine.dispose()
    assert sorted(kept) == ["cardems", "classic"]


@pytest.mark.parametrize(
    "day", ["tomorrow", "2999-01-01", "2026-13-01", "yesterday-ish", "2026-1-1", "2020-01-01"]
)
def test_no_page_for_the_future_or_a_bad_date(visitor, day):
    text = (daily.today() + timedelta(days=1)).isoformat() if day == "tomorrow" else day
    response = visitor.get(f"/daily/{text}")
    assert response.status_code == 404
    assert "No such Daily deal" in visitor.page
    told = "There is no finished Daily deal" in visitor.page
    assert told == (day not in ("tomorrow", "2999-01-01", "2020-01-01"))  # those say why


@pytest.mark.parametrize(
    ("when", "language", "said"),
    [
        ("2025-12-31", "en", "The first Daily deal was dealt on January 1, 2026."),
        ("2025-12-31", "tr", "İlk Günün Dağıtımı 1 Ocak 2026 tarihinde dağıtıldı."),
        (
            "tomorrow",
            "en",
            "The Daily deal of {day} is not out yet: it comes at 00:00 UTC that day.",
        ),
        ("tomorrow", "tr", "{day} tarihli Günün Dağıtımı henüz çıkmadı: o gün 00:00 UTC'de çıkar."),
        ("2026-12-01/play", "en", "The Daily deal of {day} is not out yet"),
    ],
)
def test_a_day_without_a_daily_deal_says_why(app, visitor, monkeypatch, when, language, said):
    """A real date before the first Daily deal, or one still to come, is
    told as such (its deal never leaks: a 404 without a seed); both were
    told "give a past day as YYYY-MM-DD", which 2025-12-31 is."""
    if when.startswith("2026-12-01"):
        monkeypatch.setattr(daily, "today", lambda: date(2026, 11, 30))
    day = date.fromisoformat(when[:10]) if when[0] == "2" else daily.today() + timedelta(days=1)
    visitor.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    if when.endswith("/play"):
        visitor.get("/daily")
        response = visitor.post(f"/daily/{when}", rules="classic")
    else:
        response = visitor.get(f"/daily/{day.isoformat() if when == 'tomorrow' else when}")
    assert response.status_code == 404
    with app.test_request_context(headers={"Accept-Language": language}):
        written = format_date(day, "long")
        seed = daily.keyed_seed(day, "classic")
    page = html.unescape(visitor.page)
    assert said.format(day=written) in page
    assert seed not in page and "give a past day" not in page


def test_todays_date_leads_to_todays_page(visitor):
    response = visitor.get(f"/daily/{daily.today().isoformat()}?rules=classic&page=2")
    assert response.status_code == 302
    assert response.headers["Location"] == "/daily?rules=classic&page=2"


def test_the_first_started_game_is_ranked_later_ones_are_not(app, visitor):
    visitor.choose_name("Ranked Rana")
    visitor.start_daily()
    started = visitor.get("/daily").get_data(as_text=True)
    assert "You have started today's ranked game" in started
    assert "starting one before the ranked game ends takes its rank away" in started
    assert "Your place:" not in started  # not on the board until it ends
    first = visitor.play_to_the_end()
    assert "This was your ranked Daily game." in first
    assert "Your place on the Daily leaderboard: 1 of 1" in first
    assert '<a class="button" href="/daily?rules=cardems">Back to the Daily deal</a>' in first
    visitor.start_daily()
    second = visitor.play_to_the_end()
    assert "Daily deal, unranked." in second
    with app.app_context():
        results = db.session.scalars(select(Result).order_by(Result.id)).all()
        entries = db.session.scalars(select(DailyEntry)).all()
    assert [r.ranked for r in results] == [True, False]
    assert len(entries) == 1 and entries[0].points == results[0].points
    page = visitor.get("/daily").get_data(as_text=True)
    assert "Your place: 1 of 1" in page
    assert "Ranked Rana" in page
    points = results[0].points  # the day's deal: "1 point." or "N points."
    assert f"Your ranked game is done: {points} point{'' if points == 1 else 's'}." in page
    assert "Play today&#39;s deal (unranked)" in page or "Play today's deal (unranked)" in page


def test_a_daily_deal_finished_again_adds_its_win_but_not_its_points(app, visitor, monkeypatch):
    """The day's deal finished again is one its player has seen whole, and
    the Hard computers answer the same to the same plays: its points were
    added again each time, so replaying a learnt line topped the all-time
    board. The first finish counts; a later one adds its game, not its points."""
    moment = datetime(2026, 12, 1, 12)  # a day whose deal, played so, scores
    _clock_at(monkeypatch, moment)
    monkeypatch.setattr(queries, "utcnow", lambda: moment)
    visitor.choose_name("Learner")
    for _ in range(3):
        visitor.start_daily()
        visitor.play_to_the_end()
    with app.app_context():
        results = db.session.scalars(select(Result).order_by(Result.id)).all()
        player = db.session.scalar(select(Player))
    assert len(results) == 3 and results[0].points > 0
    assert (player.games, player.points) == (3, results[0].points)


def _dealt_without_a_name_then_a_name(visitor):
    visitor.start_daily()
    visitor.play_to_the_end()
    visitor.deal("another-game")  # its final page gone: that game is not recorded
    visitor.choose_name("Second Look")
    visitor.start_daily()


def _dealt_then_dealt_again(visitor):
    visitor.choose_name("Second Look")
    visitor.start_daily()  # the rank's game, looked at (or played to its last card)
    visitor.start_daily()


def _dealt_twice_without_a_name(visitor):
    visitor.start_daily()
    visitor.play_to_the_end()
    visitor.start_daily()


@pytest.mark.parametrize(
    "first_look",
    [_dealt_without_a_name_then_a_name, _dealt_then_dealt_again, _dealt_twice_without_a_name],
    ids=["anonymous-then-name", "started-again", "anonymous-twice-then-name"],
)
def test_a_daily_deal_dealt_before_adds_its_win_but_not_its_points(
    app, visitor, monkeypatch, first_look
):
    """A Daily deal this browser or player dealt before (played through
    without a name, or started and started again) is played knowing its
    cards: unranked, and its points were still added to the Pişti score, as
    the player's first finish of it. It adds its game, not its points."""
    moment = datetime(2026, 12, 1, 12)  # a day whose deal, played so, scores
    _clock_at(monkeypatch, moment)
    monkeypatch.setattr(queries, "utcnow", lambda: moment)
    first_look(visitor)
    page = visitor.play_to_the_end()
    if "Second Look" not in page:  # the name chosen on the final page
        visitor.choose_name("Second Look")
        page = visitor.get("/game").get_data(as_text=True)
    assert "Recorded for <bdi>Second Look</bdi>" in page and "Daily deal, unranked." in page
    assert "A Daily deal dealt again adds its game to your Pişti score, but not its points" in (
        html.unescape(page)
    )
    with app.app_context():
        results = db.session.scalars(select(Result)).all()
        player = db.session.scalar(select(Player))
    assert [result.ranked for result in results] == [False] and results[0].points > 0
    assert (player.games, player.points) == (1, 0)


#: Tasks about playing well, with goals one game cannot reach.
SKILL_TASKS = ("pisti3", "ten_diamonds", "two_clubs", "most_cards", "win2")


@pytest.mark.parametrize("played_before_the_name", [True, False], ids=["browser", "started-again"])
def test_a_daily_deal_dealt_before_says_which_tasks_it_did_not_advance(
    app, visitor, monkeypatch, played_before_the_name
):
    """A Daily deal dealt before in this browser (without a name), or
    started again by the player, advances no task about playing well, as a
    deal link does; its final page said nothing of the tasks it held back
    (it looked only for an earlier result of the deal). It names them now."""
    moment = datetime(2026, 12, 4, 12)  # its deal, played so: a win, a pişti
    _clock_at(monkeypatch, moment)
    monkeypatch.setattr(queries, "utcnow", lambda: moment)
    if played_before_the_name:
        visitor.start_daily()
        visitor.play_to_the_end()
        visitor.deal("another-game")  # its final page gone: that game is not recorded
    visitor.choose_name("Task Looker")
    with app.app_context():
        player_id = db.session.scalar(select(Player.id))
        queries.player_tasks(player_id, moment.date())
        db.session.execute(delete(PlayerTask).where(PlayerTask.period == "day"))
        for task in SKILL_TASKS:
            db.session.add(
                PlayerTask(
                    player_id=player_id,
                    period="day",
                    start=moment.date(),
                    task=task,
                    goal=9,
                    reward=10,
                )
            )
        db.session.commit()
    if not played_before_the_name:
        visitor.start_daily()  # the rank's game, looked at
    visitor.start_daily()
    page = html.unescape(visitor.play_to_the_end())
    assert "A Daily deal dealt again adds its game to your Pişti score" in page
    # The reason said once, in the sentence before.
    assert page.count("known beforehand") == 1
    assert (
        "For the same reason, it did not count for your tasks "
        "“Make 3 piştis”, “Take the 10♦”, “Take the most cards in a hand”, “Win 2 games”"
    ) in page
    with app.app_context():
        progress = db.session.scalars(select(PlayerTask.progress)).all()
    assert set(progress) == {0}


def test_a_ranked_game_still_open_at_midnight_is_played_on_unranked(app, visitor, monkeypatch):
    """At midnight the day's seed is public, and with it every card still to
    come: a ranked game begun before and finished after it counts neither
    on the day's board nor as a Daily game (tasks); nor does a replay of a
    past day's deal."""
    visitor.choose_name("Night Owl")
    visitor.start_daily()
    day = daily.today()
    monkeypatch.setattr(daily, "today", lambda: day + timedelta(days=1))
    with app.test_request_context():
        seed = daily.daily_seed(day, "cardems")
    assert seed in visitor.get("/daily").get_data(as_text=True)  # public now
    page = visitor.play_to_the_end()
    assert "This was your ranked Daily game." not in page
    assert "Daily deal, unranked." not in page
    visitor.post(f"/daily/{day.isoformat()}/play", rules="cardems")
    visitor.play_to_the_end()
    with app.app_context():
        results = db.session.scalars(select(Result).order_by(Result.id)).all()
        entry = db.session.scalar(select(DailyEntry))
    assert [(r.ranked, r.daily_day) for r in results] == [(False, None), (False, None)]
    assert entry is not None and entry.points is None  # claimed, never finished
    board = visitor.get(f"/daily/{day.isoformat()}?rules=cardems").get_data(as_text=True)
    assert "Night Owl" not in board


def test_a_ranked_game_s_final_page_seen_a_week_later_leads_to_its_day_s_board(
    app, visitor, monkeypatch
):
    """A ranked Daily game's final page, left open or seen again a week
    later, says "Your place on the Daily leaderboard: 1 of 1" (of its own
    day), but its "Daily deal" link led to today's board, where the player
    looked for their place in vain. It leads to the day's own page now; on
    the day itself, to /daily."""
    day = datetime(2026, 12, 1, 12)
    _clock_at(monkeypatch, day)
    monkeypatch.setattr(queries, "utcnow", lambda: day)
    visitor.choose_name("Week Later")
    visitor.start_daily()
    page = visitor.play_to_the_end()
    assert "This was your ranked Daily game." in page
    assert 'href="/daily?rules=cardems">Daily deal</a>' in page
    week_later = day + timedelta(days=7)
    _clock_at(monkeypatch, week_later)
    monkeypatch.setattr(queries, "utcnow", lambda: week_later)
    page = visitor.get("/game").get_data(as_text=True)
    assert "Your place on the Daily leaderboard: 1 of 1" in page
    link = "/daily/2026-12-01?rules=cardems"
    assert f'href="{link}">Daily deal</a>' in html.unescape(page)
    board = visitor.get(link).get_data(as_text=True)
    assert "Ranked games of December 1, 2026" in board and "<bdi>Week Later</bdi> (you)" in board


@pytest.mark.parametrize("ranked", [True, False], ids=["ranked", "second-look"])
def test_a_daily_game_finished_after_its_day_adds_its_game_but_not_its_points(
    app, visitor, monkeypatch, ranked
):
    """A Daily game put aside and finished a day (or a week) later is played
    on after its deal went public at midnight: anyone can open that day's
    deal (its seed is on /daily) and see every card and every answer of the
    computer before finishing it. Its points were added to the Pişti score
    and the week's, as an unseen deal's are; such a deal adds its game, not
    its points, as a past day's deal played from its seed does, and its
    final page says so."""
    day = datetime(2026, 12, 1, 12)  # a day whose deal, played so, scores
    _clock_at(monkeypatch, day)
    monkeypatch.setattr(queries, "utcnow", lambda: day)
    visitor.choose_name("Late Finisher")
    if not ranked:
        visitor.start_daily()  # the rank's game, looked at and left
    visitor.start_daily()
    week_later = day + timedelta(days=7)
    _clock_at(monkeypatch, week_later)
    monkeypatch.setattr(queries, "utcnow", lambda: week_later)
    page = html.unescape(visitor.play_to_the_end())
    assert "Recorded for <bdi>Late Finisher</bdi>." in page
    assert (
        "A Daily deal finished after its day adds its game to your Pişti score, but not its "
        "points: its cards were public by then."
    ) in page
    turkish = visitor.client.get("/game", headers={"Accept-Language": "tr"})
    assert "Gününden sonra biten bir Günün Dağıtımı Pişti puanınıza oyununu ekler" in (
        html.unescape(turkish.get_data(as_text=True))
    )
    with app.app_context():
        results = db.session.scalars(select(Result)).all()
        player = db.session.scalar(select(Player))
        assert player is not None
        week = queries.week_start(week_later.date())
        board = queries.weekly_leaderboard(week, 1, player.id)
    assert [(r.ranked, r.daily_day) for r in results] == [(False, None)]
    assert results[0].points > 0
    assert (player.games, player.points) == (1, 0)
    assert [row["score"] for row in board.rows] == [0]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Your ranked Daily game of {day} ended after midnight UTC"),
        ("tr", "{day} tarihli sıralamalı Günün Dağıtımı oyununuz UTC gece yarısından sonra"),
    ],
)
def test_a_ranked_game_finished_after_midnight_says_why_it_is_not_ranked(
    app, visitor, monkeypatch, language, said
):
    """The final page of a ranked Daily game begun before midnight and
    finished after it says that it lost its rank at midnight, and why; it
    said nothing, so the player looked for it on the day's board in vain. An
    unranked replay of a past day's deal says nothing of the kind."""
    visitor.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    visitor.choose_name("Gece Kuşu")
    visitor.start_daily()
    day = daily.today()
    monkeypatch.setattr(daily, "today", lambda: day + timedelta(days=1))
    page = html.unescape(visitor.play_to_the_end())
    with app.test_request_context(headers={"Accept-Language": language}):
        written = format_date(day, "long")  # "December 4, 2026", "4 Aralık 2026"
    assert said.format(day=written) in page
    visitor.post(f"/daily/{day.isoformat()}/play", rules="cardems")
    page = html.unescape(visitor.play_to_the_end())
    assert "ended after midnight UTC" not in page
    assert "gece yarısından sonra bitti" not in page


def test_a_ranked_game_whose_recording_crosses_midnight_is_one_day_throughout(
    app, visitor, monkeypatch
):
    """The game's last play is taken for today's Daily deal a moment before
    midnight, and the result written a moment after it (the two read the
    clock apart): the result was ranked on the old day's board with a
    finish of the new day ("00:00:00 UTC" on the day before's board) and its
    "Finish a Daily deal" counted for the new day's tasks. It is written as
    the game that ended after midnight that it is: unranked, no Daily task,
    and the final page says why."""
    visitor.choose_name("Tam Vakit")
    visitor.start_daily()
    day = daily.today()
    after = datetime.combine(day + timedelta(days=1), datetime.min.time()).replace(microsecond=1)
    monkeypatch.setattr(queries, "utcnow", lambda: after)
    page = html.unescape(visitor.play_to_the_end())
    with app.app_context():
        result = db.session.scalar(select(Result))
        entry = db.session.scalar(select(DailyEntry))
        tasks = db.session.scalars(select(PlayerTask).where(PlayerTask.task == "daily")).all()
    assert result is not None and result.finished_at == after
    assert (result.ranked, result.daily_day) == (False, None)
    assert entry is not None and entry.finished_at is None
    assert all(task.progress == 0 for task in tasks)
    assert "This was your ranked Daily game." not in page
    assert "ended after midnight UTC" in page


@pytest.mark.parametrize("page_fields", [{"replaces": ""}, {}], ids=["page", "no-field"])
def test_the_same_start_sent_twice_at_once_keeps_the_ranked_game(app, visitor, page_fields):
    """A double click on "Play today's deal (ranked)" in a browser with no
    game yet: both sends carry the same cookies and no session, so nothing
    but the claim tells them apart. The second starts nothing; sent from the
    page (which names the game it replaces: none) it is led to the ranked
    game of the first (its answer may have been lost), without the field
    it is refused (409). Either way the ranked game is the browser's."""
    visitor.choose_name("Double Clicker")
    visitor.get("/daily")
    twin = Browser(app.test_client())
    for cookie in ("pisti_csrf", "pisti_player"):
        twin.client.set_cookie(cookie, visitor.client.get_cookie(cookie).value)
    twin.page = visitor.page
    first = visitor.post("/daily/play", rules="cardems", **page_fields)
    second = twin.post("/daily/play", rules="cardems", **page_fields)
    if page_fields:
        assert (first.status_code, second.status_code) == (303, 303)
        session_id = visitor.client.get_cookie("pisti_session").value
        assert twin.client.get_cookie("pisti_session").value == session_id
    else:
        assert (first.status_code, second.status_code) == (303, 409)
        assert twin.client.get_cookie("pisti_session") is None
    assert "ranked Daily game" in visitor.play_to_the_end()
    with app.app_context():
        assert db.session.scalar(select(Result.ranked)) is True


def test_starting_again_and_again_from_a_games_page_is_no_double_send(app, visitor):
    """The double-send guard is for a browser with no game: with a game,
    each start from its page (even seconds apart) starts a new, unranked one."""
    visitor.choose_name("Restarter")
    assert visitor.start_daily().status_code == 303
    for _ in range(2):
        assert visitor.start_daily().status_code == 303
    visitor.deal("between-dailies")
    assert visitor.start_daily().status_code == 303


def test_a_ranked_start_that_fails_gives_its_claim_back(app, visitor, monkeypatch):
    visitor.choose_name("Unlucky")
    visitor.get("/daily")

    def broken(table):
        raise OSError("the session store cannot write")

    with monkeypatch.context() as failing:
        failing.setattr(store, "start_table", broken)
        assert visitor.post("/daily/play", rules="cardems").status_code == 500
    with app.app_context():
        assert db.session.scalar(select(DailyEntry)) is None
    assert visitor.start_daily().status_code == 303
    assert "This was your ranked Daily game." in visitor.play_to_the_end()


def test_a_ranked_games_final_page_says_so_after_midnight(app, visitor, monkeypatch):
    visitor.choose_name("Late Reader")
    visitor.start_daily()
    page = visitor.play_to_the_end()
    assert "This was your ranked Daily game." in page
    day = daily.today()
    monkeypatch.setattr(daily, "today", lambda: day + timedelta(days=1))
    page = visitor.get("/game").get_data(as_text=True)
    assert "This was your ranked Daily game." in page
    assert "Your place on the Daily leaderboard: 1 of 1" in page


def _play_form(page: str) -> dict[str, str]:
    """The fields of the Daily page's play form, as the browser sends them."""
    form = page.split('class="daily-play"')[1].split("</form>")[0]
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "A new day began at midnight UTC while this page was open"),
        (
            "tr",
            # Not "Bu, yeni günün Günün Dağıtımı" ("the new day's day's deal").
            "Bu sayfa açıkken UTC gece yarısı yeni bir gün başladı, bu yüzden hiçbir oyun "
            "başlatılmadı. Şimdi yeni günün dağıtımını görüyorsunuz.",
        ),
    ],
)
def test_a_daily_page_shown_before_midnight_starts_nothing_after_it(
    app, visitor, monkeypatch, language, said
):
    """The Daily page of a player whose ranked game is done, shown before
    midnight UTC, offers "Play today's deal (unranked)"; sent after it (no
    script to take the button away, or sent in the last second), it started
    the new day's deal as the player's ranked game of that day, 0 points
    played as a look at the cards. Now the form names its day: nothing is
    started (409), the new day's page says why and offers its own game."""
    visitor.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    day = daily.today()
    evening = datetime.combine(day, datetime.min.time(), UTC) + timedelta(hours=23, minutes=50)
    run_clocks_from(monkeypatch, evening)
    visitor.choose_name("Gezgin")
    visitor.start_daily()
    visitor.play_to_the_end()
    shown = visitor.get("/daily").get_data(as_text=True)
    fields = _play_form(shown)
    run_clocks_from(monkeypatch, evening + timedelta(minutes=10, seconds=30))
    response = visitor.post("/daily/play", **fields)
    page = " ".join(html.unescape(response.get_data(as_text=True)).split())
    assert response.status_code == 409
    assert said in page
    with app.app_context():
        entries = db.session.scalars(select(DailyEntry.day)).all()
        results = db.session.scalars(select(Result.daily_day)).all()
    assert entries == [day] and results == [day]
    offered = _play_form(page)
    assert offered["replaces"] == fields["replaces"]  # the finished game is still the browser's
    assert offered["day"] == (day + timedelta(days=1)).isoformat()
    assert visitor.post("/daily/play", **offered).status_code == 303
    visitor.play_to_the_end()
    with app.app_context():
        assert db.session.scalars(select(Result.ranked).order_by(Result.id)).all() == [True, True]


def test_looking_at_the_cards_spends_the_rank(app, visitor):
    visitor.choose_name("Peeker")
    visitor.start_daily()  # look, then start again
    visitor.start_daily()
    page = visitor.play_to_the_end()
    assert "Daily deal, unranked." in page
    with app.app_context():
        assert db.session.scalar(select(Result.ranked)) is False


def test_the_ranked_game_put_aside_by_a_second_start_is_ranked_no_more(app, visitor):
    # The second game shows every card, and the Hard computers answer the
    # same to the same plays: the ranked game, resumed, could be played
    # knowing them.
    visitor.choose_name("Peeker Again")
    visitor.start_daily()
    ranked = re.search(r'name="game" value="(\w+)"', visitor.get("/game").get_data(as_text=True))
    visitor.start_daily()
    assert "Daily deal, unranked." in visitor.play_to_the_end()
    assert visitor.post("/resume", game=ranked.group(1)).status_code == 303
    page = visitor.play_to_the_end()
    assert "Daily deal, unranked." in page and "your ranked Daily game" not in page
    with app.app_context():
        assert db.session.scalars(select(Result.ranked)).all() == [False, False]
    told = visitor.get("/daily").get_data(as_text=True)
    assert "You started today's deal again before your ranked game ended" in told
    assert "Your place:" not in told


def _forget_and_take_the_name_again(app, visitor):
    visitor.choose_name("Comeback")
    visitor.start_daily()
    visitor.play_to_the_end()  # a ranked result the player would rather not keep
    visitor.get("/me")
    visitor.post("/me/forget", confirm="yes")
    visitor.choose_name("Comeback")


def _another_players_transfer_code(app, visitor):
    visitor.choose_name("First Name")
    visitor.start_daily()
    visitor.play_to_the_end()
    other = Browser(app.test_client())
    other.choose_name("Second Name")
    other.get("/me")
    code = re.search(
        r"[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}", other.post("/me/transfer").get_data(as_text=True)
    )
    visitor.get("/me")
    assert visitor.post("/me/continue", code=code.group(0)).status_code == 303


def _anonymous_then_a_name(app, visitor):
    visitor.start_daily()
    visitor.play_to_the_end()
    page = html.unescape(visitor.get("/daily").get_data(as_text=True))
    assert "This browser has dealt today's deal, so a name chosen now plays it unranked" in page
    visitor.choose_name("Second Look")


@pytest.mark.parametrize(
    "first_look",
    [_anonymous_then_a_name, _forget_and_take_the_name_again, _another_players_transfer_code],
    ids=["anonymous-then-name", "forget-me-same-name", "transfer-code"],
)
def test_a_deal_seen_in_this_browser_under_no_name_or_another_is_unranked(
    app, visitor, monkeypatch, first_look
):
    """Today's deal played through in this browser without a name (or under
    a name forgotten since, or another player's), then started under the
    name the browser has now: that game was ranked, played knowing every
    card, for first place on the day's board. It is unranked, and stays so
    in a fresh session of the same player; the Daily page says why."""
    first_look(app, visitor)
    page = html.unescape(visitor.get("/daily").get_data(as_text=True))
    said = "Today's deal was dealt in this browser without a name or under another"
    assert said in page
    assert "Play today's deal (unranked)" in page and "(ranked)" not in page
    visitor.start_daily()
    assert "Daily deal, unranked." in visitor.play_to_the_end()
    # A minute later (no double send), in a fresh session of the same player.
    monkeypatch.setattr(daily, "TWICE_SECONDS", 0)
    visitor.client.delete_cookie("pisti_session")
    visitor.start_daily()
    assert "Daily deal, unranked." in visitor.play_to_the_end()
    with app.app_context():
        ranked = db.session.scalars(select(Result.ranked).order_by(Result.id)).all()
    assert ranked[-2:] == [False, False]
    page = html.unescape(visitor.get("/daily").get_data(as_text=True))
    assert "Play today's deal (unranked)" in page and "Your place:" not in page


def test_anonymous_daily_games_are_not_ranked(app, visitor):
    visitor.start_daily()
    page = visitor.play_to_the_end()
    assert "Keep this result" in page
    assert "this one will be kept unranked" in page
    with app.app_context():
        assert db.session.scalars(select(DailyEntry)).all() == []


def test_daily_leaderboard_order_and_your_place(app):
    names = ["Ali", "Bora", "Cem"]
    for name in names:
        visitor = Browser(app.test_client())
        visitor.choose_name(name)
        visitor.start_daily("cardems")
        visitor.play_to_the_end()
    visitor = Browser(app.test_client())
    page = visitor.get("/daily").get_data(as_text=True)
    for name in names:
        assert name in page
    assert "Your place" not in page
    assert "Ties: more piştis (Jack piştis included) first, then the earlier finish." in page
    # Same plays, same points and piştis: the earlier finish ranks first.
    rows = page.split("<tbody>")[1].split("</tbody>")[0]
    assert rows.index("Ali") < rows.index("Bora") < rows.index("Cem")


def test_a_daily_seed_under_house_rules_is_not_a_daily_game(app):
    with app.test_request_context():
        seed = daily.daily_seed(daily.today(), "classic")
        levels = daily.daily_levels("classic")
        plain = Match(RULE_SETS["classic"], seed, target=51)
        house = Match(parse_rules_text("classic&pisti=20"), seed, target=51)
        assert daily.daily_day_of(plain, levels) == daily.today()
        assert daily.daily_day_of(house, levels) is None


def test_the_bar_says_a_daily_game_is_one(app, visitor):
    """The table's bar and the final page's say "Daily deal" for today's
    Daily game; yesterday's deal played again from the Daily page, or from
    a deal link at the Daily level, is not one."""
    bar = (
        '<div class="meta"><strong>Daily deal</strong> · <a class="rules-link" href="/game/rules"'
        ' aria-label="Single hand (2 players): the rules">Single hand (2 players)</a>'
    )
    visitor.start_daily()
    assert bar in visitor.get("/game").get_data(as_text=True)
    assert bar in visitor.play_to_the_end()
    yesterday = daily.today() - timedelta(days=1)
    with app.test_request_context():
        seed = daily.daily_seed(yesterday, "cardems")
    again = Browser(app.test_client())
    again.get(f"/daily/{yesterday.isoformat()}")
    again.post(f"/daily/{yesterday.isoformat()}/play", rules="cardems")
    linked = Browser(app.test_client())
    linked.deal(f"{seed}?level={daily.DAILY_LEVEL}")
    for other in (again, linked):
        table = other.get("/game").get_data(as_text=True)
        assert '<div class="meta"><a class="rules-link" href="/game/rules"' in table
        assert ">Single hand (2 players)</a>" in table
        assert "Daily deal" not in table


@pytest.mark.parametrize(
    ("language", "words"), [("en", "Today's Daily deal"), ("tr", "Bugünün dağıtımı")]
)
def test_a_past_days_page_links_to_today_in_its_game(visitor, language, words):
    """From a past day's page (opened from "Yesterday's deals") the way on
    to today's deal of the same game is a link, beside the leaderboards;
    the page had none (only New game and the profile), and today's page
    needs none."""
    visitor.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    page = html.unescape(visitor.get("/daily/2026-11-30?rules=classic").get_data(as_text=True))
    assert f'<a href="/daily?rules=classic">{words}</a>' in page
    today = html.unescape(visitor.get("/daily?rules=classic").get_data(as_text=True))
    assert f">{words}</a>" not in today
