"""Daily tasks and the weekly challenge, the Pişti score, the leaderboards."""

from __future__ import annotations

import html
import re
import threading
import time
from dataclasses import replace
from datetime import UTC, date, datetime

import pytest
from sqlalchemy import delete, func, select

from app.db import db, queries
from app.db.models import Player, PlayerTask, Result
from app.db.tasks import DAILY_POOL, TASKS, daily_tasks, week_start, weekly_challenge
from app.web import players
from tests.db.conftest import Browser
from tests.db.test_recording import _facts

#: A test's tasks are of one day and week from first to last (CI may run at
#: midnight, or on Sunday's last second; see the fixture).
pytestmark = pytest.mark.usefixtures("midday")


def test_the_pool_and_the_draw():
    assert len(DAILY_POOL) >= 12
    day = date(2026, 11, 29)
    drawn = daily_tasks(7, day)
    assert len({task.id for task in drawn}) == 3
    assert drawn == daily_tasks(7, day)
    assert weekly_challenge(day) == weekly_challenge(date(2026, 11, 23))
    assert week_start(day) == date(2026, 11, 23)


def test_a_finished_task_adds_its_reward_once(app):
    with app.app_context():
        player, _ = queries.create_player("Tasker")
        player_id = player.id
        today = queries.utcnow().date()
        tasks = queries.player_tasks(player_id, today)
        assert len(tasks) == 4 and [t.period for t in tasks].count("week") == 1
        # Make one of today's tasks the pişti task, whose goal one game reaches.
        row = db.session.scalar(
            select(PlayerTask).where(PlayerTask.period == "day").order_by(PlayerTask.id)
        )
        row.task, row.goal, row.reward = "pisti", 1, 20
        db.session.commit()
        first = queries.record_result(player_id, _facts("g1"))
        assert TASKS["pisti"] in first.finished_tasks
        again = queries.record_result(player_id, _facts("g1"))
        assert again is None
        later = queries.record_result(player_id, _facts("g2"))
        assert TASKS["pisti"] not in later.finished_tasks
        player = db.session.get(Player, player_id)
        rewards = sum(task.reward for task in first.finished_tasks + later.finished_tasks)
        assert player.rewards == rewards >= 20
        assert player.score == 20 + rewards
        done = db.session.get(PlayerTask, row.id)
        assert done.progress == 1 and done.done_at is not None


def test_the_profile_shows_progress(app, visitor):
    visitor.choose_name("Shown")
    page = visitor.get("/me").get_data(as_text=True)
    assert "Today&#39;s tasks" in page or "Today's tasks" in page
    assert "Weekly challenge" in page
    assert (
        page.count("of 1,")
        + page.count("of 2,")
        + page.count("of 3,")
        + page.count("of 5,")
        + page.count("of 10,")
        >= 4
    )


@pytest.mark.parametrize(
    ("moment", "language", "tasks", "challenge"),
    [
        # Monday 01:00 in Türkiye (UTC+3) is still Sunday in UTC: the
        # challenge of the week about to end, and Sunday's tasks.
        (
            datetime(2026, 12, 6, 22, 0, 0),
            "tr",
            "Yeni görevlere 2 sa 0 dk kaldı (her gün saat 00:00 UTC).",
            "Yeni meydan okumaya 2 sa 0 dk kaldı (her pazartesi saat 00:00 UTC).",
        ),
        (
            datetime(2026, 12, 31, 23, 59, 30),
            "en",
            "New tasks in less than a minute (every day at 00:00 UTC).",
            "A new challenge in 3 days 0 h (every Monday at 00:00 UTC).",
        ),
        (
            datetime(2028, 2, 29, 23, 59, 30),  # the leap day's last minute (a Tuesday)
            "en",
            "New tasks in less than a minute (every day at 00:00 UTC).",
            "A new challenge in 5 days 0 h (every Monday at 00:00 UTC).",
        ),
        (
            datetime(2026, 12, 6, 23, 30, 0),
            "en",
            "New tasks in 0 h 30 min (every day at 00:00 UTC).",
            "A new challenge in 0 h 30 min (every Monday at 00:00 UTC).",
        ),
        (
            datetime(2026, 12, 7, 0, 0, 0),  # Monday's first second: a whole week
            "en",
            "New tasks in 24 h 0 min (every day at 00:00 UTC).",
            "A new challenge in 7 days 0 h (every Monday at 00:00 UTC).",
        ),
    ],
)
def test_the_profile_says_when_the_tasks_and_the_challenge_change(
    monkeypatch, visitor, moment, language, tasks, challenge
):
    """The tasks and the challenge change at 00:00 UTC, which is not the
    player's midnight: the profile says how long they have left, and when
    they change in UTC. It said "a new challenge every Monday" ("her
    pazartesi"), so a player in Türkiye at 01:00 on Monday was shown last
    week's challenge on a page that promised a new one, with no word of
    the three hours to go."""

    class Frozen(datetime):
        @classmethod
        def now(cls, tz=None):
            return moment.replace(tzinfo=UTC).astimezone(tz) if tz else moment

    monkeypatch.setattr(players, "datetime", Frozen)
    visitor.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    visitor.choose_name("Saat Kaç")
    page = html.unescape(visitor.get("/me").get_data(as_text=True))
    said = " ".join(
        re.sub(r"<[^>]+>", "", page.split('class="small task-times"')[1].split("</p>")[0]).split()
    )
    assert tasks in said and challenge in said, said


def test_all_time_board_pages_and_your_row(app):
    with app.app_context():
        ids = []
        for number in range(45):
            player, _ = queries.create_player(f"P{number:02d}")
            player.score = 1000 - number
            ids.append(player.id)
        db.session.commit()
        last = db.session.get(Player, ids[-1])
        last.score = 1  # below everyone
        tied = db.session.get(Player, ids[10])
        tied.score = 1000 - 9  # ties P09: the one who joined first ranks higher
        db.session.commit()
        queries.recount_scores()  # the scores were set by hand
        board = queries.alltime_leaderboard(1, ids[-1])
        assert [row["rank"] for row in board.rows] == list(range(1, 21))
        assert board.pages == 3 and board.total == 45
        assert board.mine["rank"] == 45 and not board.mine_on_page
        names = [row["name"] for row in board.rows]
        assert names.index("P09") < names.index("P10")
        page3 = queries.alltime_leaderboard(3, ids[0])
        assert [row["rank"] for row in page3.rows] == [41, 42, 43, 44, 45]
        assert page3.mine["rank"] == 1
        assert queries.alltime_leaderboard(99, None).page == 3


def test_the_all_time_board_leaves_out_players_with_no_points(app, visitor):
    """A name chosen for the Daily deal and no game finished made a row of
    0 at the foot of the board, counted in everyone's "of N"."""
    with app.app_context():
        for number, score in enumerate([30, 0, 12, 0]):
            player, _ = queries.create_player(f"P{number}")
            player.score = score
        db.session.commit()
        queries.recount_scores()
        board = queries.alltime_leaderboard(1, None)
        assert [(row["name"], row["rank"]) for row in board.rows] == [("P0", 1), ("P2", 2)]
        assert board.total == 2
    visitor.choose_name("Zeynep")
    page = visitor.get("/leaderboard").get_data(as_text=True)
    assert ">Zeynep" not in page and ">P1<" not in page
    assert "You join this board with your first points: finish a game." in page
    with app.app_context():
        player = queries.player_named("Zeynep")
        player.score = 12  # as P2, who joined first
        db.session.commit()
        queries.recount_scores()
    page = visitor.get("/leaderboard").get_data(as_text=True)
    assert "Your place: 3 of 3" in page and "first points" not in page


@pytest.mark.parametrize("page", ["%C2%B2", "%E2%91%A0", "0", "-2", "1_0", "+2", "%201", "1234567"])
@pytest.mark.parametrize(
    "path,text",
    [
        ("/leaderboard", "You join this board with your first points"),
        ("/leaderboard?period=week", "This week"),
        ("/daily", "<h1>Daily deal</h1>"),
    ],
)
def test_an_odd_page_number_is_the_first_page(app, visitor, path, text, page):
    # "²" and "①" are digits to str.isdigit() but not to int(): they were
    # a 500.
    with app.app_context():
        for number in range(25):  # two pages of the all-time board
            player, _ = queries.create_player(f"P{number:02d}")
            player.score = 1000 - number
        db.session.commit()
        queries.recount_scores()
    visitor.choose_name("Zeynep")
    joined = "&" if "?" in path else "?"
    response = visitor.get(f"{path}{joined}page={page}")
    assert response.status_code == 200
    shown = response.get_data(as_text=True)
    assert text in shown
    if path == "/leaderboard":
        assert ">P00<" in shown and ">P24<" not in shown  # page 1 of 2


def test_leaderboard_page_states_the_formula_and_escapes_names(app, visitor):
    visitor.choose_name("Zeynep")
    page = visitor.get("/leaderboard?page=abc").get_data(as_text=True)
    assert "Pişti score = points from all your finished games + task and challenge rewards" in page
    assert "You join this board with your first points: finish a game." in page
    week = visitor.get("/leaderboard?period=week").get_data(as_text=True)
    assert "This week" in week


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Last week", "from Monday, November 30, 2026 to Sunday, December 6, 2026"]),
        ("tr", ["Geçen hafta", "30 Kasım 2026 Pazartesi ile 6 Aralık 2026 Pazar"]),
    ],
)
def test_last_weeks_board_stays_to_be_seen_after_monday(app, visitor, monkeypatch, language, words):
    """At Monday 00:00 UTC this week's board starts empty; last week's
    final standing stayed in the database with no page to show it, so a
    player back on Monday could not see who won the week (nor their own
    place). The board of the week before is a tab of its own."""

    class Frozen(datetime):
        @classmethod
        def now(cls, tz=None):
            moment = datetime(2026, 12, 7, 0, 5)  # Monday, five minutes into the week
            return moment.replace(tzinfo=UTC).astimezone(tz) if tz else moment

    visitor.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    visitor.choose_name("Pazar Akşamı")
    with app.app_context():
        player = db.session.scalar(select(Player))
        monkeypatch.setattr(queries, "utcnow", lambda: datetime(2026, 12, 6, 23, 50))  # Sunday
        queries.record_result(player.id, replace(_facts("sunday-night"), points=17))
    monkeypatch.setattr(players, "datetime", Frozen)
    this_week = html.unescape(visitor.get("/leaderboard?period=week").get_data(as_text=True))
    assert "Pazar Akşamı" not in this_week.split("<h1>")[1].split("</section>")[0]
    last = html.unescape(visitor.get("/leaderboard?period=last").get_data(as_text=True))
    board = last.split("<h1>")[1].split("</section>")[0]
    assert "Pazar Akşamı" in board
    assert all(word in board for word in words), board
    assert 'href="/leaderboard?period=last"' in this_week


def test_statistics_page_draws_charts_with_numbers(app, visitor):
    visitor.choose_name("Stats")
    for seed in ("stats-a", "stats-b"):
        visitor.deal(f"{seed}")
        visitor.play_to_the_end()
    page = visitor.get("/me/stats").get_data(as_text=True)
    assert page.count("<svg") >= 4
    assert "<polyline" in page
    # Each line chart says which way its x-axis runs (it shows the last 200
    # games at most, so no game numbers).
    points = page.split('aria-labelledby="points-title"')[1].split("</svg>")[0]
    assert ">earlier games</text>" in points and ">latest game</text>" in points
    assert "Average of the games counted" in page
    # Each table is named by its section's heading, as a screen reader's
    # list of tables shows it.
    names = re.findall(r'<table [^>]*aria-labelledby="([^"]+)"', page)
    assert len(names) == page.count("<table") == 4
    headings = [re.search(rf'<h2 id="{name}">([^<]+)</h2>', page) for name in names]
    assert [found.group(1) for found in headings if found] == [
        "Games and win rate",
        "Points per hand",
        "Piştis per hand",
        "Most cards",
    ]
    assert "style=" not in page and "<script>" not in page
    assert Browser(app.test_client()).get("/me/stats").status_code == 200


#: Three won games as ``(game_id, house rules, points)``: a preset, one
#: whose house rules make a pişti worth 999,999, one of three players.
HOUSE_GAMES = (
    ("preset", "", 30),
    ("inflated", "pisti=999999 jack_pisti=999999", 2_000_037),
    ("three", "players=3", 10),
)


def record_house_games(app, **facts) -> None:
    """Record :data:`HOUSE_GAMES` for the only player, with ``facts``
    changed too."""
    with app.app_context():
        player = db.session.scalar(select(Player))
        for game_id, house, points in HOUSE_GAMES:
            game = replace(_facts(game_id), points=points, house_rules=house, **facts)
            queries.record_result(player.id, game)


def test_statistics_leave_out_points_set_by_house_rules(app, visitor):
    # A pişti worth 999,999 would make "points per hand" and its chart
    # about one game: games whose house rules set what cards are worth are
    # left out of the points (counted in games and hands), and the page
    # says so; a house game that changes no value (three players) counts.
    visitor.choose_name("Charts")
    record_house_games(app, hands=1)
    page = " ".join(visitor.get("/me/stats").get_data(as_text=True).split())
    assert "<dt>Games</dt><dd>3</dd>" in page and "<dt>Hands</dt><dd>3</dd>" in page
    assert '<th scope="row">Average of the games counted</th><td>20</td>' in page
    assert '<th scope="row">Last game</th><td>10</td>' in page
    assert '<th scope="row">Games counted</th><td>2</td>' in page
    assert "2,000,037" not in page and "1,000,018" not in page
    assert "are not counted here." in page
    line = re.search(r'class="line-points" fill="none" points="([^"]*)"', page)
    assert line is not None and len(line.group(1).split()) == 2
    # The y scale runs to 50 (the 30 points' game), not to a million.
    assert re.search(r'<text class="tick"[^>]*>50</text>', page)
    # Piştis per hand run to 1 in quarters, in the page's language's digits.
    turkish = visitor.client.get("/me/stats", headers={"Accept-Language": "tr"})
    assert re.search(r'<text class="tick"[^>]*>0,25</text>', turkish.get_data(as_text=True))


def test_statistics_tell_a_house_rules_game_from_its_base(app, visitor):
    # A classic match against Easy and a classic game of three (house
    # rules, two Easy computers) are two rows with two names.
    visitor.choose_name("Counter")
    with app.app_context():
        player = db.session.scalar(select(Player))
        for game_id, levels in (("two", ("easy",)), ("three", ("easy", "easy"))):
            facts = replace(_facts(game_id), rules="classic", target=51, levels=levels)
            queries.record_result(player.id, facts)
    page = " ".join(visitor.get("/me/stats").get_data(as_text=True).split())
    assert '<th scope="row">Classic match (2 players) · Easy</th>' in page
    assert '<th scope="row">Classic · 3 players · Easy</th>' in page


def test_statistics_tell_house_rules_apart_by_their_options(app, visitor):
    # Games the same in rule set and computers but not in options are rows
    # of their own, named by the rules' line: the preset, a 20-point pişti,
    # four each for themselves and two against two.
    visitor.choose_name("Options")
    games = (
        ("preset", "classic", "", ("easy",)),
        ("pisti", "classic", "pisti=20", ("easy",)),
        ("solo", "partners", "teams=solo", ("easy",) * 3),
        ("pairs", "partners", "", ("easy",) * 3),
    )
    with app.app_context():
        player = db.session.scalar(select(Player))
        for game_id, rules, house, levels in games:
            facts = replace(_facts(game_id), rules=rules, levels=levels, house_rules=house)
            queries.record_result(player.id, facts)
        stored = db.session.scalars(select(Result.house).order_by(Result.id)).all()
    assert stored == ["", "pisti=20", "teams=solo", ""]
    page = " ".join(visitor.get("/me/stats").get_data(as_text=True).split())
    table = page.split('class="score by-rules"')[1].split("</table>")[0]
    rows = re.findall(r'<th scope="row">([^<]*)</th><td>1</td>', table)
    assert sorted(rows) == sorted(
        [
            "Classic · pişti 20 · Easy",
            "Classic match (2 players) · Easy",
            "Partnership rules · 4 players, each for themselves · Easy",
            "Partners (2 v 2) · Easy",
        ]
    )
    turkish = visitor.client.get("/me/stats", headers={"Accept-Language": "tr"})
    assert "Klasik · pişti 20 · " in turkish.get_data(as_text=True)


def test_house_rules_that_set_points_add_no_points_to_the_boards(app, visitor):
    """A pişti worth 999,999 under house rules would top every board: such
    a game adds its win but not its points; a house game that changes no
    point value (three players) adds its points as a preset does."""
    visitor.choose_name("Farmer")
    record_house_games(app, pistis=0)
    with app.app_context():
        player = db.session.scalar(select(Player))
        rewards = player.rewards
        assert (player.points, player.games, player.wins) == (40, 3, 3)
        assert player.score == 40 + rewards
    page = visitor.get("/leaderboard?period=week").get_data(as_text=True)
    assert "2000037" not in page and "2,000,037" not in page
    # Both boards' formulas say so.
    assert "piştis are worth add no points" in page
    assert "piştis are worth add no points" in visitor.get("/leaderboard").get_data(as_text=True)


@pytest.mark.parametrize(("language", "you"), [("en", "(you)"), ("tr", "(siz)")])
def test_your_row_under_a_board_page_says_it_is_you(app, visitor, language, you):
    """Your own row under a page of the board you are not on is marked
    "(you)"; in Turkish "(siz)", not "(size)" ("to you"), the word of the
    score's "the cards go to you" that it shared."""
    visitor.choose_name("Bottom Row")
    with app.app_context():
        queries.player_named("Bottom Row").score = 1  # on the board, below everyone
        for number in range(25):
            player, _ = queries.create_player(f"Top{number:02d}")
            player.score = 100 + number
        db.session.commit()
        queries.recount_scores()
    visitor.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    page = visitor.get("/leaderboard").get_data(as_text=True)
    foot = page.split("<tfoot>")[1].split("</tfoot>")[0]
    assert f"<bdi>Bottom Row</bdi> {you}" in foot


@pytest.mark.parametrize(("language", "you"), [("en", "(you)"), ("tr", "(siz)")])
def test_your_row_on_a_board_page_says_it_is_you(app, visitor, language, you):
    """Your own row among the board's rows was told by its bold and its
    background alone (and "Your place: 2 of 3" above): its name says
    "(you)" now, as under a page you are not on, and once, so a screen
    reader hears it once, with the row's name; no one else's row says it."""
    visitor.choose_name("Middle")
    with app.app_context():
        queries.player_named("Middle").score = 50
        for name, score in (("Above", 100), ("Below", 1)):
            queries.create_player(name)[0].score = score
        db.session.commit()
        queries.recount_scores()
    visitor.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    page = visitor.get("/leaderboard").get_data(as_text=True)
    assert "<tfoot>" not in page
    rows = re.findall(
        r"<tr( class=\"mine\")?>\s*<td>(\d)</td><th scope=\"row\"><bdi>([^<]*)</bdi>([^<]*)</th>",
        page,
    )
    assert rows == [
        ("", "1", "Above", ""),
        (' class="mine"', "2", "Middle", f" {you}"),
        ("", "3", "Below", ""),
    ]
    assert page.count(you) == 1


@pytest.mark.parametrize(
    "language,score,place",
    [
        ("tr", "12.345", "Sıralamadaki yeriniz: 1. (1.001 kişi arasında)"),
        ("en", "12,345", "Your place: 1 of 1,001"),
    ],
)
def test_big_counts_are_written_the_way_of_the_pages_language(app, language, score, place):
    """A Pişti score of 12345 is "12.345" on a Turkish page and "12,345" on
    an English one, on the board and the profile, and so is a board of 1001
    players in "Your place"; they were bare digits ("12345", "1001")."""
    visitor = Browser(app.test_client())
    visitor.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    visitor.choose_name("Şükrü")
    with app.app_context():
        mine = db.session.scalars(select(Player).where(Player.name == "Şükrü")).one()
        mine.score, mine.points, mine.rewards = 12345, 12000, 345
        db.session.commit()
        for number in range(1000):
            queries.create_player(f"P{number:04d}")[0].score = 1
        db.session.commit()
        queries.recount_scores()
    board = visitor.get("/leaderboard").get_data(as_text=True)
    assert f'<td class="col-score">{score}</td>' in board
    assert place in board
    profile = visitor.get("/me").get_data(as_text=True)
    assert f"<dd>{score}</dd>" in profile
    assert "12345" not in board + profile


def test_statistics_count_every_game_past_the_charts_last_200(app, visitor):
    # A regular's 205th game: the charts draw the last 200 games, but the
    # figures beside them (the average, the games it counts) are of every
    # game; "Games counted" said 200 beside an average of all 205.
    visitor.choose_name("Regular")
    with app.app_context():
        player = db.session.scalar(select(Player))
        for number in range(205):
            points = 20 if number < 5 else 10  # the five oldest games score 20
            queries.record_result(player.id, replace(_facts(f"g{number}"), points=points))
    page = " ".join(visitor.get("/me/stats").get_data(as_text=True).split())
    assert "<dt>Games</dt><dd>205</dd>" in page
    # (5 × 20 + 200 × 10) / 205 = 10.24
    assert '<th scope="row">Average of the games counted</th><td>10.24</td>' in page
    assert '<th scope="row">Games counted</th><td>205</td>' in page
    line = re.search(r'class="line-points" fill="none" points="([^"]*)"', page)
    assert line is not None and len(line.group(1).split()) == 200


def only_task(player_id: int, day: date, task: str, goal: int, reward: int) -> PlayerTask:
    """Make ``task`` the player's one task of ``day`` (their drawn ones
    removed, so it cannot clash with one of them) and return its row."""
    queries.player_tasks(player_id, day)
    db.session.execute(
        delete(PlayerTask).where(PlayerTask.player_id == player_id, PlayerTask.period == "day")
    )
    row = PlayerTask(
        player_id=player_id, period="day", start=day, task=task, goal=goal, reward=reward
    )
    db.session.add(row)
    db.session.commit()
    return row


def set_tasks(
    player_id: int, day: date, day_tasks: list[tuple[str, int, int]], week: tuple[str, int]
) -> PlayerTask:
    """Make ``day_tasks`` (each ``(task, goal, reward)``) the player's tasks
    of ``day`` and ``week`` (``(task, goal)``) their task of the week;
    return the row of the first day task."""
    row = only_task(player_id, day, *day_tasks[0])
    for task, goal, reward in day_tasks[1:]:
        db.session.add(
            PlayerTask(
                player_id=player_id, period="day", start=day, task=task, goal=goal, reward=reward
            )
        )
    week_row = db.session.scalar(
        select(PlayerTask).where(PlayerTask.player_id == player_id, PlayerTask.period == "week")
    )
    week_row.task, week_row.goal = week
    db.session.commit()
    return row


@pytest.mark.parametrize(
    ("levels", "counts"),
    [
        (("ferit",), True),
        (("muruvvet",), True),
        (("nevin",), False),
        (("hard", "hard", "medium"), False),
    ],
)
def test_beating_the_storys_hard_and_expert_players_is_a_win_against_hard_or_expert(
    app, levels, counts
):
    # Ferit Hoca is the Hard level and Mürüvvet Hanım the Expert (the story
    # page says so): a story win over either is a win against Hard or
    # Expert; the story's gentler opponents are not.
    with app.app_context():
        player, _ = queries.create_player("Storyteller")
        player_id = player.id
        row = only_task(player_id, queries.utcnow().date(), "win_hard", 1, 40)
        facts = replace(_facts("story"), rules="classic", target=51, levels=levels)
        recorded = queries.record_result(player_id, facts)
        assert (TASKS["win_hard"] in recorded.finished_tasks) is counts
        assert (db.session.get(PlayerTask, row.id).done_at is not None) is counts


def test_a_daily_deal_finished_again_is_not_another_daily_deal_for_the_tasks(app):
    # "Finish 5 Daily deals this week" was done by finishing today's Single
    # hand deal five times (the replays are unranked, their cards known):
    # each day's deal of each game counts once, the first time it is finished.
    with app.app_context():
        player, _ = queries.create_player("Replayer")
        player_id = player.id
        today = queries.utcnow().date()
        day = only_task(player_id, today, "daily", 1, 25)
        week = db.session.scalar(select(PlayerTask).where(PlayerTask.period == "week"))
        week.task, week.goal, week.reward = "week_daily5", 5, 150
        db.session.commit()
        week_id, day_id = week.id, day.id
        for number in range(5):
            queries.record_result(player_id, replace(_facts(f"again{number}"), daily_day=today))
        assert db.session.get(PlayerTask, week_id).progress == 1
        assert db.session.get(PlayerTask, day_id).done_at is not None
        other = replace(_facts("classic"), rules="classic", target=51, daily_day=today)
        queries.record_result(player_id, other)
        assert db.session.get(PlayerTask, week_id).progress == 2


@pytest.mark.parametrize(
    ("target", "points", "counts"), [(None, 20, True), (None, 19, False), (51, 60, False)]
)
def test_twenty_points_in_a_single_hand_game_means_in_its_one_hand(app, target, points, counts):
    # A Single hand match to 51 (a deal link's or the House rules page's
    # target) scores 20 and more over its hands whoever wins: it made
    # "Score 20 points or more in a Single hand game" a task done by any
    # such match.
    with app.app_context():
        player, _ = queries.create_player("Tek El")
        player_id = player.id
        row = only_task(player_id, queries.utcnow().date(), "points20", 1, 30)
        facts = replace(
            _facts("single"), target=target, points=points, hands=1 if not target else 3
        )
        recorded = queries.record_result(player_id, facts)
        assert (TASKS["points20"] in recorded.finished_tasks) is counts
        assert (db.session.get(PlayerTask, row.id).done_at is not None) is counts


@pytest.mark.parametrize(
    ("rules", "house", "counts"),
    [
        ("partners", "", True),
        ("partners", "teams=solo", False),
        ("classic", "players=4 teams=partners", True),
        ("classic", "players=3 teams=solo", False),
    ],
)
def test_a_partners_game_is_one_played_two_against_two(app, rules, house, counts):
    # Partners each for themselves (teams=solo) was "a partners game" for
    # the task, and a Classic game of four in partners was not.
    with app.app_context():
        player, _ = queries.create_player("Eş")
        player_id = player.id
        row = only_task(player_id, queries.utcnow().date(), "win_partners", 1, 50)
        facts = replace(_facts("four"), rules=rules, target=51, house_rules=house)
        recorded = queries.record_result(player_id, facts)
        assert (TASKS["win_partners"] in recorded.finished_tasks) is counts
        assert (db.session.get(PlayerTask, row.id).done_at is not None) is counts


def test_a_daily_deal_finished_on_two_devices_at_once_counts_once_for_the_tasks(app, monkeypatch):
    # Two devices of one player finish games of today's Daily deal at the
    # same moment: each looked for the other's result before it was written,
    # and both counted as the first finish of the deal.
    with app.app_context():
        player, _ = queries.create_player("Twin devices")
        player_id = player.id
        today = queries.utcnow().date()
        only_task(player_id, today, "daily", 1, 25)
        week = db.session.scalar(select(PlayerTask).where(PlayerTask.period == "week"))
        week.task, week.goal, week.reward = "week_daily5", 5, 150
        db.session.commit()
        week_id = week.id
    looked = queries._finished_daily_before

    def slow_look(player_id, facts):
        # Both devices look before either has written its result.
        found = looked(player_id, facts)
        time.sleep(0.3)
        return found

    monkeypatch.setattr(queries, "_finished_daily_before", slow_look)

    def record(game_id: str) -> None:
        with app.app_context():
            queries.record_result(player_id, replace(_facts(game_id), daily_day=today))

    threads = [threading.Thread(target=record, args=(f"device{n}",)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with app.app_context():
        assert db.session.get(PlayerTask, week_id).progress == 1
        assert db.session.scalar(select(func.count(Result.id))) == 2


#: What each task needs of a game besides a won Single hand game against
#: Hard, with three piştis, a Jack pişti, the 10♦, the 2♣ and the most
#: cards, no Jack played, 25 points.
TASK_GAMES = {
    "win_partners": {"rules": "partners", "target": 51},
    "win_101": {"rules": "classic", "target": 101},
}


@pytest.mark.parametrize("task_id", sorted(set(TASKS) - {"daily", "week_daily5"}))
def test_a_known_deal_advances_no_task_about_playing_well(app, task_id):
    """A deal link's cards can be known beforehand and its computers answer
    the same to the same plays: worked out and replayed, it ticked off any
    task ("Make a Jack pişti", "Win against Hard or Expert"). Now it
    advances only the tasks about playing at all; a deal dealt at random
    advances them all."""
    facts = replace(
        _facts("g"),
        levels=("hard",),
        pistis=3,
        jack_pistis=1,
        two_of_clubs=1,
        used_jack=False,
        points=25,
        **TASK_GAMES.get(task_id, {}),
    )
    with app.app_context():
        for known in (False, True):
            player, _ = queries.create_player(f"Known {known}")
            player_id = player.id
            today = queries.utcnow().date()
            if task_id.startswith("week_"):
                queries.player_tasks(player_id, today)
                row = db.session.scalar(
                    select(PlayerTask).where(
                        PlayerTask.player_id == player_id, PlayerTask.period == "week"
                    )
                )
                row.task = task_id
                db.session.commit()
            else:
                row = only_task(player_id, today, task_id, 1, 10)
            row_id = row.id
            queries.record_result(player_id, replace(facts, known_deal=known))
            advanced = db.session.get(PlayerTask, row_id).progress > 0
            assert advanced is (not known or task_id == "play3"), known


def test_the_final_page_of_a_known_deal_says_which_tasks_it_did_not_advance(app, visitor):
    # The deal link "known-6", played card by card from the left of the
    # hand, is a win with the most cards against Medium: it advanced the
    # tasks of wins and the most cards, now only "Finish 3 games".
    visitor.choose_name("Knower")
    with app.app_context():
        player_id = db.session.scalar(select(Player.id))
        today = queries.utcnow().date()
        set_tasks(
            player_id,
            today,
            [("win2", 2, 30), ("most_cards", 3, 15), ("play3", 3, 15)],
            ("week_win10", 10),
        )
    visitor.deal("known-6")
    page = html.unescape(visitor.play_to_the_end())
    assert (
        "For the same reason, it did not count for your tasks "
        "“Win 2 games”, “Take the most cards in a hand”, and “Win 10 games this week”: such a "
        "deal counts only for the tasks of finishing games."
    ) in page
    # The reason is said once, in the sentence just before (it was said
    # again in the next one).
    assert page.count("known beforehand") == 1
    with app.app_context():
        progress = dict(db.session.execute(select(PlayerTask.task, PlayerTask.progress)).all())
    assert progress == {"win2": 0, "most_cards": 0, "play3": 1, "week_win10": 0}
    visitor.post("/language", language="tr")
    page = html.unescape(visitor.get("/game").get_data(as_text=True))
    assert (
        "Aynı nedenle “2 oyun kazan”, “Bir elde en çok "
        "kartı al” ve “Bu hafta 10 oyun kazan” görevlerinize de sayılmadı"
    ) in page
    assert page.count("önceden bilinebil") == 1


def test_todays_daily_deal_finished_again_says_which_task_it_did_not_advance(app):
    # A replay of today's Daily deal is unranked and its cards known: its
    # third pişti of "Make 3 piştis" does not count, and the final page
    # can say so; a task done before it is not said.
    with app.app_context():
        player, _ = queries.create_player("Again")
        player_id = player.id
        today = queries.utcnow().date()
        row = set_tasks(
            player_id,
            today,
            [("pisti3", 3, 40), ("pisti", 1, 20), ("play3", 1, 20)],
            ("week_daily5", 5),
        )
        first = replace(_facts("first"), pistis=2, daily_day=today)
        queries.record_result(player_id, first)
        assert queries.held_back_tasks(player_id, first) == []
        again = replace(first, game_id="again")
        queries.record_result(player_id, again)
        assert db.session.get(PlayerTask, row.id).progress == 2
        assert [task.id for task in queries.held_back_tasks(player_id, again)] == ["pisti3"]
