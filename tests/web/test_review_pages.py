"""The review pages: from a finished game and from an uploaded record,
the steps, the hidden cards only on request, bad files, the summary
computed once in the background, and its progress as JSON."""

from __future__ import annotations

import html
import io
import json
import random
import re
import time
from datetime import timedelta

import pytest
from sqlalchemy import update

from app import create_app
from app.ai.review import ESTIMATES, WHY_KINDS, Estimate, Step, Why
from app.db import db, reviews
from app.db.models import Review
from app.engine import (
    CLASSIC,
    PARTNERS,
    GameState,
    card_label,
    card_name,
    load_record,
    make_record,
    score_hand,
    seeded_deck,
    with_options,
)
from app.engine.decisions import decisions
from app.web import i18n
from app.web import review as review_pages
from tests.conftest import CSRF, app_config, form_fields, leading, start_deal, visit_at_once
from tests.engine.test_observation import hidden_from
from tests.web.test_pages import play_out, preview
from tests.web.test_review_fixes import play_hand

STEP = re.compile(r'href="(/review/([0-9a-f]{64})/1)"')
#: The game a final page's "Review this game" form names.
GAME = re.compile(
    r'action="/review/game">\s*<input[^>]*>\s*<input type="hidden" name="game" value="([^"]+)"'
)


def finished_record(rules=CLASSIC, seed: str = "review-pages") -> dict:
    """A finished hand's record: every seat plays its first card."""
    state = GameState.deal(rules, seeded_deck(seed, rules))
    while not state.finished:
        state.play(state.hands[state.turn][0])
    return make_record(state, seed)


def upload(client, body: bytes, name: str = "record.json", headers: dict | None = None):
    token = CSRF.search(client.get("/review/").get_data(as_text=True)).group(1)
    data = {"csrf_token": token, "record": (io.BytesIO(body), name)}
    return client.post(
        "/review/upload", data=data, content_type="multipart/form-data", headers=headers
    )


def wait_until_done(client, key: str) -> dict:
    """Poll the status address until the summary's job ends (the job runs
    in a background thread). The bound only stops a broken job from
    hanging the suite: it fails after 60 s without a decision done, however
    long a loaded machine takes over the whole job."""
    done, idle = -1, 0
    while idle < 600:
        status = client.get(f"/review/{key}/status").get_json()
        if status["status"] in ("done", "failed"):
            return status
        done, idle = status["done"], (idle + 1 if status["done"] == done else 0)
        time.sleep(0.1)
    raise AssertionError(f"the review's job stopped moving: {status}")


def key_of(response) -> str:
    return re.search(r"/review/([0-9a-f]{64})", response.headers["Location"]).group(1)


def uploaded(client, seed: str) -> str:
    """Upload :func:`finished_record` of ``seed``; its review's key."""
    return key_of(upload(client, json.dumps(finished_record(seed=seed)).encode()))


def jobs_submitted(monkeypatch) -> list[str]:
    """Keep the summaries' jobs from running: the list of the review keys
    whose jobs were submitted, in order."""
    started: list[str] = []
    monkeypatch.setattr(review_pages.JOBS, "submit", lambda *args: started.append(args[-1]))
    return started


def test_a_finished_game_offers_its_review_and_the_steps_show_the_players_cards(player):
    play_out(player, "review-final")
    page = player.page
    assert "Review this game" in page
    token = CSRF.search(page).group(1)
    game = GAME.search(page).group(1)
    form = {"csrf_token": token, "game": game}
    response = player.client.post("/review/game", data={**form, "hand": "1"})
    assert response.status_code == 303
    key = key_of(response)
    # No hand, or an empty one, is the last finished hand: the same review.
    for fields in ({}, {"hand": ""}):
        again = player.client.post("/review/game", data={**form, **fields})
        assert again.status_code == 303 and key_of(again) == key
    # A hand the game does not have is told on the upload page, whose file
    # field the player did not use: it is not marked invalid nor given the
    # focus.
    later = player.client.post("/review/game", data={**form, "hand": "2"})
    assert later.status_code == 400
    assert "This game has no hand “2”." in later.get_data(as_text=True)
    assert "aria-invalid" not in later.get_data(as_text=True)
    step = player.client.get(response.headers["Location"])
    html = step.get_data(as_text=True)
    assert step.status_code == 200
    assert "Decision 1 of" in html and "Expected points" in html and "95% interval" in html
    record = json.loads(player.client.get("/record").get_data(as_text=True))
    first = decisions(load_record(json.dumps(record)), 0)[0]
    assert f"Your card: {card_name(first.played)}" in html
    # Every legal card has its row, with its estimate.
    for card in set(first.observation.hand):
        assert card_name(card) in html
    assert reviews.review_key(record, 0) == key


def test_hidden_cards_show_only_on_request(client):
    record = finished_record()
    key = key_of(upload(client, json.dumps(record).encode()))
    first = decisions(load_record(json.dumps(record)), 0)[0]
    hidden = first.state.hands[1] + first.state.pile[: first.state.face_down]
    plain = client.get(f"/review/{key}/1").get_data(as_text=True)
    shown = client.get(f"/review/{key}/1?reveal=1").get_data(as_text=True)
    for card in hidden:
        assert card_name(card) not in plain.replace(card_name(first.played), "")
        assert card_name(card) in shown
    assert "Show the hidden cards" in plain and "Hide those cards again" in shown


def twin_records(rules, seed: str, decisions_made: int) -> tuple[dict, dict]:
    """Two records of a hand stopped just after seat 0's ``decisions_made``-th
    play, random cards played: the same plays, the cards seat 0 could not
    see before that play (the other hands, the stock, the face-down cards)
    dealt otherwise in the second."""
    rng = random.Random(seed)
    state = GameState.deal(rules, seeded_deck(seed, rules))
    made = 0
    while made < decisions_made:
        made += state.turn == 0
        state.play(rng.choice(state.hands[state.turn]))
    before = GameState.replay(rules, state.deck, state.plays[:-1])
    hidden = hidden_from(before, 0)
    places = [index for index, card in enumerate(state.deck) if card in hidden]
    while True:
        deck = list(state.deck)
        moved = [deck[index] for index in places]
        rng.shuffle(moved)
        for index, card in zip(places, moved, strict=True):
            deck[index] = card
        try:
            twin = GameState.replay(rules, deck, list(state.plays))
        except ValueError:  # e.g. a Jack moved to the bottom of a partners stock
            continue
        if twin.hands != state.hands:
            return make_record(state), make_record(twin)


@pytest.mark.parametrize("rules", [CLASSIC, PARTNERS], ids=["classic", "partners"])
def test_a_step_page_is_the_same_whatever_the_hidden_cards(client, rules):
    """Two records that differ only in the cards hidden from seat 0 at its
    decisions give the same step pages (the table as it stood, the card
    played, every estimate and its sentence of why) until the reviewer asks
    to see the hidden cards; then the pages differ, so this comparison can
    fail."""
    one, other = twin_records(rules, f"review-twins-{rules.name}", 3)
    pages: dict[bool, list[list[str]]] = {False: [], True: []}
    for record in (one, other):
        key = key_of(upload(client, json.dumps(record).encode()))
        count = len(decisions(load_record(json.dumps(record)), 0))
        for reveal in (False, True):
            steps = []
            for number in range(1, count + 1):
                answer = client.get(f"/review/{key}/{number}" + ("?reveal=1" if reveal else ""))
                assert answer.status_code == 200
                page = answer.get_data(as_text=True).replace(key, "KEY")
                steps.append(CSRF.sub("", page))
            pages[reveal].append(steps)
    assert len(pages[False][0]) == 3
    assert pages[False][0] == pages[False][1]
    assert pages[True][0] != pages[True][1]


def test_a_count_in_a_sentence_is_written_the_way_of_the_pages_language(client):
    """The estimates' sentence says "1.000 örnek dağıtımından" in Turkish
    and "from 1,000 sampled deals" in English: a plural message's count was
    bare digits ("1000"), where a Turkish reader writes 1.000."""
    key = key_of(upload(client, json.dumps(finished_record()).encode()))
    turkish = client.get(f"/review/{key}/1", headers={"Accept-Language": "tr"})
    assert "görünmeyen kartların 1.000 örnek dağıtımından" in turkish.get_data(as_text=True)
    english = client.get(f"/review/{key}/1", headers={"Accept-Language": "en"})
    assert "from 1,000 sampled deals of the unseen cards" in english.get_data(as_text=True)


def test_steps_go_forward_and_back_and_end(client):
    record = finished_record()
    key = key_of(upload(client, json.dumps(record).encode()))
    total = len(decisions(load_record(json.dumps(record)), 0))
    first = client.get(f"/review/{key}/1").get_data(as_text=True)
    assert f'href="/review/{key}/2"' in first and 'rel="prev"' not in first
    assert first.count("<nav ") == 1 and first.count('class="review-nav"') == 2
    last = client.get(f"/review/{key}/{total}").get_data(as_text=True)
    assert f'href="/review/{key}/{total - 1}"' in last and 'rel="next"' not in last
    assert client.get(f"/review/{key}/{total + 1}").status_code == 404
    assert client.get(f"/review/{key}/0").status_code == 404
    # One address a step: another way of writing its number is sent there.
    again = client.get(f"/review/{key}/02?reveal=1")
    assert again.status_code == 308 and again.location == f"/review/{key}/2?reveal=1"
    assert client.get("/review/" + "0" * 64).status_code == 404
    assert client.get("/review/not-a-key/1").status_code == 404


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"", "Choose a record file"),
        (b"{not json", '<code lang="en">bad JSON'),
        (
            b'{"format": "pisti-record/9", "rules": "classic", "deck": [], "plays": []}',
            "unknown format",
        ),
    ],
)
def test_bad_uploads_are_refused_with_a_message(client, body, message):
    response = upload(client, body, name="record.json" if body else "")
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)


def test_a_file_over_the_records_limit_is_too_large_as_one_over_the_forms(client):
    # 9 KiB passes the form's 16 KiB but not a record's 8: the same 413 and
    # words as a file the form's limit stops.
    response = upload(client, b"x" * (9 * 1024), name="record.json")
    assert response.status_code == 413
    message = "too big to be a game record: a record is about 1 KB, at most 8 KB"
    assert message in response.get_data(as_text=True)


def test_a_record_with_more_points_than_the_site_plays_is_refused(client):
    # The record is valid (the spec sets no upper limit, and its replay
    # scores it); the review's search adds points in 64-bit integers.
    record = finished_record()
    record["format"] = "pisti-record/2"
    for points, status in [(10**30, 400), (2**63, 400), (1_000_000, 400), (999_999, 303)]:
        record["rules"] = {"base": "classic", "pisti": points, "jack_pisti": points}
        response = upload(client, json.dumps(record).encode())
        assert response.status_code == status, points
        if status == 400:
            assert "at most 999,999" in response.get_data(as_text=True)
    step = client.get(response.headers["Location"])
    assert step.status_code == 200 and "Expected points" in step.get_data(as_text=True)


def test_an_illegal_play_in_a_record_is_named(client):
    record = finished_record()
    record["plays"][1] = record["plays"][0]
    response = upload(client, json.dumps(record).encode())
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    # Said in the page's words as a record that cannot be replayed (not as
    # a file that is no record), the reader's own line folded under it, and
    # the file field marked and given the focus.
    # The play counted from 1 as a player counts, then from 0 as the
    # record's list of plays and the reader's line count.
    assert (
        "its play number 2 (play 1 in the file, which counts from 0) is not a card in the hand"
        in page
    )
    assert "not a game record" not in page
    assert "play 1: " in page
    assert 'aria-invalid="true" aria-describedby="upload-problem" autofocus' in page
    turkish = upload(client, json.dumps(record).encode(), headers={"Accept-Language": "tr"})
    said = turkish.get_data(as_text=True)
    assert "Bu oyun kaydı yeniden oynatılamıyor: 2. hamlesi (0" in said
    assert "dosyada 1 numaralı hamle), sırası gelen" in said


@pytest.mark.parametrize(
    ("change", "headline"),
    [
        (
            lambda record: record["plays"].__setitem__(5, "XX"),
            "its play number 6 (play 5 in the file, which counts from 0) is not a card (a card",
        ),
        (
            lambda record: record["plays"].__setitem__(5, 10),
            "its play number 6 (play 5 in the file, which counts from 0) is not a card (a card",
        ),
        (
            lambda record: record["plays"].append("AS"),
            "its plays are not a list of at most 48 cards",
        ),
        (
            lambda record: record.__setitem__("plays", "AS"),
            "its plays are not a list of at most 48 cards",
        ),
        (lambda record: record["deck"].pop(), "its deck is not one its rules could deal"),
        (
            lambda record: record.update(
                {"format": "pisti-record/2", "rules": {"base": "classic", "kings": 3}}
            ),
            "This game record&#39;s rules are not ones this site can play.",
        ),
    ],
)
def test_a_records_problem_is_named_in_the_headline(client, change, headline):
    record = finished_record()
    change(record)
    response = upload(client, json.dumps(record).encode())
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert headline in page
    assert "not a game record" not in page


#: A lone surrogate as a record's JSON may write it (``\ud800``): a str
#: Python reads but that no UTF-8 page can carry.
LONE = "\\ud800"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ('"format": "pisti-record/1"', f'"format": "{LONE}"'),
        ('"rules": "classic"', f'"rules": "{LONE}"'),
        (
            '"format": "pisti-record/1", "rules": "classic"',
            f'"format": "pisti-record/2", "rules": {{"base": "classic", "{LONE}": 1}}',
        ),
        (
            '"format": "pisti-record/1", "rules": "classic"',
            f'"format": "pisti-record/2", "rules": {{"base": "classic", "opening_jack": "{LONE}"}}',
        ),
        ('"deck": ["5H"', f'"deck": ["{LONE}"'),
    ],
)
def test_a_lone_surrogate_in_a_record_is_refused_with_its_escape_not_a_500(client, before, after):
    text = json.dumps(finished_record())
    assert before in text
    response = upload(client, text.replace(before, after, 1).encode())
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert '<code lang="en">' in page and LONE in page


def test_a_surrogate_written_as_utf_8_bytes_is_refused_as_not_a_record(client):
    # Not UTF-8 (as a Latin-1 byte is not): bad JSON, never read as a seed
    # or a name with a lone surrogate in it.
    text = json.dumps({**finished_record(), "seed": "a-b"}).encode()
    response = upload(client, text.replace(b"a-b", b"\xed\xa0\x80"))
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "not a game record" in page and "bad JSON: &#39;utf-8&#39; codec" in page


def test_a_refused_record_is_told_in_the_pages_language(client):
    page = client.get("/review/").get_data(as_text=True)
    token = CSRF.search(page).group(1)
    client.post("/language", data={"csrf_token": token, "language": "tr", "next": "/review/"})
    response = upload(client, b'{"format": "pisti-record/1", "rules": "tavla"}')
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Bu dosya bir oyun kaydı değil." in page
    # the engine's reason stays as it is, folded away and marked as English
    assert '(İngilizce)</summary><code lang="en">missing field &#34;deck&#34;</code>' in page


def who(page: str) -> list[str]:
    """The step page's seat headings, in seat order."""
    return [re.sub(r"<[^>]+>", "", name).strip() for name in WHO.findall(page)][:-1]


WHO = re.compile(r'<p class="review-who">(.*?)</p>', re.S)


def visible(page: str) -> str:
    """The page's text without its tags (and their classes)."""
    return re.sub(r"<[^>]+>", " ", page)


def test_a_partners_record_reviews_seat_0(client):
    record = finished_record(PARTNERS, "review-partners")
    response = upload(client, json.dumps(record).encode())
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    # The record does not name the player's seat: seat 0 is not "You", and
    # the others are named by their position from it, as the table does.
    assert who(page) == ["Seat 0 (plays first)", "East", "North partner", "West"]
    assert "Your" not in visible(page) and "seat 1" not in visible(page)


def test_a_house_rules_record_of_three_players_is_reviewed(client):
    rules = with_options(CLASSIC, {"players": 3, "jack_pisti": 10})
    record = finished_record(rules, "review-three")
    assert record["format"] == "pisti-record/2"
    response = upload(client, json.dumps(record).encode())
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Decision 1 of 12" in page
    assert who(page) == ["Seat 0 (plays first)", "East", "West"]
    # Three sides: the estimate is against the others' average.
    assert "to the end of the hand minus the other sides' average, from" in page
    assert "minus the other side's," not in page
    # The header says the rules in the table's words, not option names.
    assert "Review · Classic · 3 players · Jack pişti 10</span>" in page
    assert "players=3" not in page and "2 players" not in page
    turkish = client.get(response.headers["Location"], headers={"Accept-Language": "tr"})
    text = turkish.get_data(as_text=True)
    assert "İnceleme · Klasik · 3 oyuncu · Vale piştisi 10</span>" in text
    assert who(text) == ["0 numaralı oyuncu (ilk oynayan)", "Doğu", "Batı"]
    assert "eksi diğer tarafların ortalaması" in text
    for english in ("players", "East", "West", "Seat", "seat", "Card played"):
        assert english not in visible(text)


@pytest.mark.parametrize(
    ("rules", "players", "sides"),
    [
        (CLASSIC, None, ["Seat 0 (plays first)", "Opponent"]),
        # Records uploaded by a browser that did not play them: "you" is
        # their recorder.
        (CLASSIC, ["computer", "you"], ["The recorder", "The computer"]),
        (
            PARTNERS,
            ["you", "East", "North", "West"],
            ["The recorder &amp; North", "East &amp; West"],
        ),
        # Reviewed from seat 1: still "… & North" (in seat order it was
        # "North & …", where the table and the final page say "You & North").
        (
            PARTNERS,
            ["West", "you", "East", "North"],
            ["The recorder &amp; North", "East &amp; West"],
        ),
    ],
)
def test_the_summary_says_the_points_of_the_hand(client, rules, players, sides):
    # From its first view (the review still running), the reviewed seat's
    # side first: what an uploaded hand scored is on the page.
    record = finished_record(rules)
    if players is not None:
        record["players"] = players
    state = load_record(json.dumps(record))
    points = {team.team: team.points for team in score_hand(state)}
    seat = players.index("you") if players else 0
    mine = state.rules.team_of(seat)
    expected = [points[mine], points[1 - mine]]
    key = key_of(upload(client, json.dumps(record).encode()))
    page = client.get(f"/review/{key}").get_data(as_text=True)
    said = re.search(r'<p class="review-result">(.*?)</p>', page).group(1)
    shown = re.findall(r'<span class="side">(.*?) <strong>(\d+)</strong></span>', said)
    assert shown == [(name, str(point)) for name, point in zip(sides, expected, strict=True)]
    wait_until_done(client, key)
    record["plays"] = record["plays"][:10]
    key = key_of(upload(client, json.dumps(record).encode()))
    assert "review-result" not in client.get(f"/review/{key}").get_data(as_text=True)
    wait_until_done(client, key)


def test_a_turkish_summary_names_the_sides_as_the_table_does(client):
    """In Turkish a partners hand's points are "Siz ve Kuzey" (here, a
    record uploaded by another browser: "Kaydeden oyuncu ve Kuzey") and
    "Doğu ve Batı", as the table and the final page say; the review joined
    the names with an English "&" ("Siz & Kuzey")."""
    record = finished_record(PARTNERS)
    record["players"] = ["you", "East", "North", "West"]
    key = key_of(upload(client, json.dumps(record).encode()))
    page = client.get(f"/review/{key}", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    said = re.search(r'<p class="review-result">(.*?)</p>', page).group(1)
    names = re.findall(r'<span class="side">(.*?) <strong>', said)
    assert names == ["Kaydeden oyuncu ve Kuzey", "Doğu ve Batı"]
    wait_until_done(client, key)


def count_evaluations(monkeypatch) -> list[int]:
    """The numbers of the decisions the summary's job evaluates from now
    on, in the order it does (a list that fills as it runs)."""
    evaluated: list[int] = []
    real = review_pages._pooled

    def counted(decision, number):
        evaluated.append(number)
        return real(decision, number)

    monkeypatch.setattr(review_pages, "_pooled", counted)
    return evaluated


def test_the_summary_is_computed_once_and_its_progress_is_json(client, app, monkeypatch):
    record = finished_record(seed="review-summary")
    key = key_of(upload(client, json.dumps(record).encode()))
    total = len(decisions(load_record(json.dumps(record)), 0))
    evaluated = count_evaluations(monkeypatch)
    status = client.get(f"/review/{key}/status").get_json()
    assert status == {
        "status": "new",
        "done": 0,
        "total": total,
        "ahead": None,
        "busy": False,
        "stalled": False,
    }
    # Several visitors at once start one job.
    pages = visit_at_once(app, f"/review/{key}")
    assert all(page.status_code == 200 for page in pages)
    running = pages[0].get_data(as_text=True)
    assert "decisions evaluated" in running or "Points lost" in running
    assert wait_until_done(client, key) == {
        "status": "done",
        "done": total,
        "total": total,
        "ahead": None,
        "busy": False,
        "stalled": False,
    }
    assert sorted(evaluated) == list(range(1, total + 1))
    done = client.get(f"/review/{key}").get_data(as_text=True)
    assert "Points lost per decision" in done and "The three costliest moves" in done
    # Each bar: near zero is good, past a mistake's 2 points is bad.
    bars = re.findall(r"<meter [^>]*>", done)
    assert len(bars) == total
    assert all('low="0.5" high="2.0" optimum="0"' in bar for bar in bars)
    # The figure beside each bar is what is read out, once: the bar is hidden.
    assert all('aria-hidden="true"' in bar for bar in bars)
    # Visiting again, or uploading the same record again, computes nothing.
    assert key_of(upload(client, json.dumps(record).encode())) == key
    client.get(f"/review/{key}")
    assert len(evaluated) == total
    # The steps now come from the stored summary, with the same numbers
    # (the forms' CSRF tokens carry the second they were signed in).
    stored = CSRF.sub("", client.get(f"/review/{key}/1").get_data(as_text=True))
    monkeypatch.setattr(review_pages.searches.POOL, "run", fail_if_called)
    assert CSRF.sub("", client.get(f"/review/{key}/1").get_data(as_text=True)) == stored


def test_steps_seen_in_order_before_the_summary_count_in_its_progress(client, monkeypatch):
    """Decisions looked at one by one from the first are kept as the
    summary's first steps: its page starts at "2 of N", not at 0 with the
    first two done already (a step seen out of order, or the last, is not
    kept), and it evaluates only the rest, to the same figures."""
    record = finished_record(seed="review-seen-first")
    key = key_of(upload(client, json.dumps(record).encode()))
    total = len(decisions(load_record(json.dumps(record)), 0))
    for number in (1, 2, 4, 1):
        assert client.get(f"/review/{key}/{number}").status_code == 200
    status = client.get(f"/review/{key}/status").get_json()
    assert (status["status"], status["done"]) == ("new", 2)
    assert client.get(f"/review/{key}/{total}").status_code == 200
    assert client.get(f"/review/{key}/status").get_json()["done"] == 2
    seen = CSRF.sub("", client.get(f"/review/{key}/2").get_data(as_text=True))
    evaluated = count_evaluations(monkeypatch)
    page = client.get(f"/review/{key}").get_data(as_text=True)
    assert "Points lost per decision" in page or f"2 of {total} decisions evaluated" in page
    assert wait_until_done(client, key)["done"] == total
    assert sorted(evaluated) == list(range(3, total + 1))
    assert CSRF.sub("", client.get(f"/review/{key}/2").get_data(as_text=True)) == seen


def fail_if_called(*args, **kwargs):
    raise AssertionError("a stored step was evaluated again")


def test_a_busy_search_pool_answers_503_for_a_step(client, monkeypatch):
    from app.searches import SearchPool

    record = finished_record(seed="review-busy")
    key = key_of(upload(client, json.dumps(record).encode()))
    monkeypatch.setattr(review_pages.searches, "POOL", SearchPool(processes=1, max_in_flight=0))
    response = client.get(f"/review/{key}/1")
    assert response.status_code == 503


def test_review_pages_in_turkish(client):
    record = finished_record(seed="review-turkish")
    key = key_of(upload(client, json.dumps(record).encode()))
    headers = {"Accept-Language": "tr"}
    step = client.get(f"/review/{key}/1", headers=headers).get_data(as_text=True)
    assert "Karar 1" in step
    for english in ("Decision", "Expected points", "Your card", "Show the hidden cards"):
        assert english not in step
    client.get(f"/review/{key}")
    wait_until_done(client, key)
    summary = client.get(f"/review/{key}", headers=headers).get_data(as_text=True)
    for english in ("Points lost", "three costliest", "Decision"):
        assert english not in summary


def test_a_later_hand_of_a_match_reviews_the_seat_the_player_had(client):
    start_deal(client, f"/deal/{leading('review-match', 2)}?rules=classic&target=51")
    # The game's id, as its pages' forms carry it (a card's form here).
    game = re.search(r'name="game" value="([^"]+)"', client.get("/game").get_data(as_text=True))
    page = play_hand(client)
    fields = dict(re.findall(r'name="(csrf_token|hand)" value="([^"]+)"', page))
    assert client.post("/next", data=fields).status_code == 303
    between = play_hand(client)
    form = {"csrf_token": CSRF.search(between).group(1), "game": game.group(1)}
    # In the second hand the player deals: seat 1.
    response = client.post("/review/game", data={**form, "hand": "2"})
    assert response.status_code == 303
    record = json.loads(client.get("/record?hand=2").get_data(as_text=True))
    assert key_of(response) == reviews.review_key(record, 1)
    first = decisions(load_record(json.dumps(record)), 1)[0]
    step = client.get(response.headers["Location"]).get_data(as_text=True)
    assert f"Your card: {card_name(first.played)}" in step
    assert who(step) == ["The computer", "You"]
    # The header says which hand of the match this is, on the summary too,
    # and so does the review of the hand's downloaded record.
    assert "Review · Classic · hand 2</span>" in step
    summary = client.get(f"/review/{key_of(response)}").get_data(as_text=True)
    assert "Review · Classic · hand 2</span>" in summary
    record["players"] = ["you", "computer"]  # another review: seat 0
    uploaded = upload(client, json.dumps(record).encode())
    assert key_of(uploaded) != key_of(response)
    page = client.get(uploaded.headers["Location"]).get_data(as_text=True)
    assert "Review · Classic · hand 2</span>" in page
    # A hand not dealt yet is not a hand of the game; dealt, it cannot be
    # reviewed before it is over.
    response = client.post("/review/game", data={**form, "hand": "3"})
    assert response.status_code == 400
    assert "This game has no hand “3”." in response.get_data(as_text=True)
    fields = dict(re.findall(r'name="(csrf_token|hand)" value="([^"]+)"', between))
    assert client.post("/next", data=fields).status_code == 303
    response = client.post("/review/game", data={**form, "hand": "3"})
    assert response.status_code == 400
    assert "once it is over" in response.get_data(as_text=True)


def test_an_upload_over_the_request_limit_is_refused(client):
    # A photo picked by mistake: over the 16 KiB a form may carry, refused
    # before it is read, with the upload form to try again.
    response = upload(client, b"\x89PNG" + b"x" * (20 * 1024), name="photo.png")
    assert response.status_code == 413
    page = response.get_data(as_text=True)
    assert "That file is too big to be a game record" in page
    assert 'action="/review/upload"' in page and 'name="csrf_token"' in page


@pytest.mark.parametrize("path", ["/review/upload", "/review/game"])
def test_the_review_forms_answer_a_get_with_405(client, path):
    response = client.get(path)
    assert response.status_code == 405 and response.headers["Allow"] == "OPTIONS, POST"


def test_reviewing_a_game_needs_a_game(client):
    token = CSRF.search(client.get("/review/").get_data(as_text=True)).group(1)
    response = client.post("/review/game", data={"csrf_token": token, "hand": "1"})
    assert response.status_code == 404


def test_a_review_form_of_another_game_is_refused_not_answered_with_this_one(player):
    """ "Review this game" on the final page of an earlier game, sent after a
    newer game was started and finished in another tab: 409 with the table
    as it stands, not a review of the newer game. It says why in a review's
    words (the play's "the move was already played" told of no move), and
    the table takes the table's address (it took the upload page's, which
    a reload then opened)."""
    play_out(player, "review-old")
    old = player.page
    fields = {
        "csrf_token": CSRF.search(old).group(1),
        "game": GAME.search(old).group(1),
        "hand": "1",
    }
    play_out(player, "review-new")
    response = player.client.post("/review/game", data=fields)
    assert response.status_code == 409
    page = html.unescape(response.get_data(as_text=True))
    assert "That page's game is no longer this browser's game" in page
    assert "move was already played" not in page
    assert 'data-address="/game"' in page
    turkish = player.client.post("/review/game", data=fields, headers={"Accept-Language": "tr"})
    assert "O sayfanın oyunu artık bu tarayıcının oyunu değil" in turkish.get_data(as_text=True)
    fields["game"] = GAME.search(player.page).group(1)
    assert player.client.post("/review/game", data=fields).status_code == 303


def test_a_review_form_from_before_an_upgrade_says_so(player):
    """ "Review this game" on a final page left open across an upgrade from
    a version whose form did not name its game (before December 2): which
    game it meant cannot be told, so 409 with the table, saying why in
    words that fit (no "newer game was started": none was)."""
    play_out(player, "review-before-upgrade")
    fields = {"csrf_token": CSRF.search(player.page).group(1), "hand": "1"}
    response = player.client.post("/review/game", data=fields)
    assert response.status_code == 409
    page = html.unescape(response.get_data(as_text=True))
    assert "That page is from an earlier version of this site" in page
    assert "a newer one was started" not in page
    assert 'data-address="/game"' in page and "Review this game" in page
    turkish = player.client.post("/review/game", data=fields, headers={"Accept-Language": "tr"})
    assert "O sayfa bu sitenin önceki bir sürümünden" in turkish.get_data(as_text=True)


def test_a_running_summary_shows_its_progress_with_and_without_javascript(client, monkeypatch):
    started = []
    monkeypatch.setattr(review_pages.JOBS, "submit", lambda *args: started.append(args))
    record = finished_record(seed="review-progress")
    key = key_of(upload(client, json.dumps(record).encode()))
    total = len(decisions(load_record(json.dumps(record)), 0))
    page = client.get(f"/review/{key}").get_data(as_text=True)
    assert len(started) == 1
    assert f'value="0" max="{total}"' in page and "<progress" in page
    assert f"0 of {total} decisions evaluated" in page
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in page
    assert "review/review.js" in page
    assert client.get(f"/review/{key}/status").get_json() == {
        "status": "running",
        "done": 0,
        "total": total,
        "ahead": None,
        "busy": False,
        "stalled": False,
    }
    # Another visit while it runs starts nothing more.
    client.get(f"/review/{key}")
    assert len(started) == 1


def test_a_job_is_claimed_once_and_again_only_when_it_failed_or_went_silent(app):
    record = finished_record(seed="review-claims")
    with app.app_context():
        key = reviews.keep_review(record, 0, 5)
        assert reviews.keep_review(record, 0, 5) == key
        assert reviews.claim_review(key)
        assert not reviews.claim_review(key)
        silent = reviews.utcnow() + reviews.STALE_AFTER + timedelta(seconds=1)
        assert reviews.claim_review(key, silent)
        reviews.fail_review(key)
        assert reviews.claim_review(key)
        reviews.save_steps(key, [], finished=True)
        assert not reviews.claim_review(key, silent + reviews.STALE_AFTER)


def match_record(client, hand: int) -> dict:
    """Play a classic match's first ``hand`` hands by the first card and
    download the record of the last (``players`` names each seat)."""
    start_deal(client, "/deal/review-upload-match?rules=classic&target=51")
    page = play_hand(client)
    for _ in range(hand - 1):
        fields = dict(re.findall(r'name="(csrf_token|hand)" value="([^"]+)"', page))
        assert client.post("/next", data=fields).status_code == 303
        page = play_hand(client)
    return json.loads(client.get(f"/record?hand={hand}").get_data(as_text=True))


def test_an_uploaded_record_reviews_the_seat_it_names_you(client):
    record = match_record(client, 2)
    assert record["players"] == ["computer", "you"]
    response = upload(client, json.dumps(record).encode())
    assert key_of(response) == reviews.review_key(record, 1)
    state = load_record(json.dumps(record))
    mine, computers = decisions(state, 1)[0], decisions(state, 0)[0]
    step = client.get(response.headers["Location"]).get_data(as_text=True)
    assert f"Your card: {card_name(mine.played)}" in step
    assert f"Your card: {card_name(computers.played)}" not in step
    assert who(step) == ["The computer", "You"]
    # The same record without "players" reviews seat 0, never called "You".
    del record["players"]
    response = upload(client, json.dumps(record).encode())
    key = key_of(response)
    assert key == reviews.review_key(record, 0)
    step = client.get(response.headers["Location"]).get_data(as_text=True)
    assert f"Card played: {card_name(computers.played)}" in step
    assert who(step) == ["Seat 0 (plays first)", "Opponent"]
    assert "which seat was yours" in step
    for words in ("Your card", "your card", "You", "your side"):
        assert words not in visible(step)
    client.get(f"/review/{key}")
    wait_until_done(client, key)
    summary = client.get(f"/review/{key}").get_data(as_text=True)
    assert "Review · Classic · hand 2</span>" in summary and "Card played" in summary
    assert (
        " was played, the best was " in summary
        or "no card played was worse than the best" in summary
    )
    for words in ("Your card", "you played", "card you played", "your Jack", "Your Jack"):
        assert words not in visible(summary)
    turkish = client.get(f"/review/{key}", headers={"Accept-Language": "tr"})
    assert "Oynanan kart" in turkish.get_data(as_text=True)


def test_an_uploaded_record_of_the_player_dealt_first_says_you(client):
    record = match_record(client, 1)
    assert record["players"] == ["you", "computer"]
    response = upload(client, json.dumps(record).encode())
    assert key_of(response) == reviews.review_key(record, 0)
    step = client.get(response.headers["Location"]).get_data(as_text=True)
    assert who(step) == ["You", "The computer"] and "which seat was yours" not in step


@pytest.mark.parametrize(
    "players",
    [["you", "you"], ["computer", "computer"], ["you"], "you", [0, 1], {"0": "you"}, None],
)
def test_a_players_field_that_names_no_one_seat_you_is_left_out(client, players):
    record = finished_record(seed="review-players")
    record["players"] = players
    response = upload(client, json.dumps(record).encode())
    assert response.status_code == 303
    del record["players"]
    assert key_of(response) == reviews.review_key(record, 0)
    step = client.get(response.headers["Location"]).get_data(as_text=True)
    assert who(step) == ["Seat 0 (plays first)", "Opponent"]


def test_a_partners_review_names_places_from_the_player(client):
    record = finished_record(PARTNERS, "review-partners-you")
    record["players"] = ["West", "you", "East", "North"]
    response = upload(client, json.dumps(record).encode())
    assert key_of(response) == reviews.review_key(record, 1)
    step = client.get(response.headers["Location"]).get_data(as_text=True)
    assert who(step) == ["West", "The recorder", "East", "North partner"]
    assert "Review · Partners</span>" in step
    turkish = client.get(response.headers["Location"], headers={"Accept-Language": "tr"})
    assert who(turkish.get_data(as_text=True)) == ["Batı", "Kaydeden oyuncu", "Doğu", "Kuzey eş"]


#: Facts enough for every sentence of why (:class:`app.ai.review.Why`).
FACTS = {
    "best": "7S",
    "played": "JH",
    "cards": 3,
    "points": 2,
    "pisti": False,
    "jacks": 2,
    "unseen": 1,
    "best_unseen": 0,
    "plays_left": 4,
    "best_points": 0,
    "best_pisti_points": 10,
    "pisti_points": 10,
    "jack": False,
    "sides": 2,
    "loss": 1.5,
}


@pytest.mark.parametrize("kind", WHY_KINDS)
@pytest.mark.parametrize("ours", [True, False])
@pytest.mark.parametrize("language", ["en", "tr"])
def test_why_is_told_of_the_reviewed_player_unless_it_is_you(app, kind, ours, language):
    why = Why(kind, {**FACTS, "ours": ours})
    with app.test_request_context(headers={"Accept-Language": language}):
        macro = app.jinja_env.get_template("review/_why.html").module.why_sentence
        neutral, yours = str(macro(why, False)), str(macro(why, True))
    assert neutral and yours
    # Turkish says "you" in its verbs and possessives too (-nız, -niz ...).
    words = {"en": r"\b(you|your)\b", "tr": r"\bsiz|(?<!yal)(?<!he)n[ıiuü]z\b"}[language]
    assert not re.search(words, neutral, re.I)
    jack_kept = ("same_pile_keep_jack", "keep_jack", "jack_on_empty")
    if kind in jack_kept or (kind == "last_capture" and ours):
        assert re.search(words, yours, re.I)


@pytest.mark.parametrize("language", ["en", "tr"])
def test_a_last_capture_nobody_made_is_told_so(app, language):
    why = Why("last_capture", {**FACTS, "ours": False, "nobody": True})
    with app.test_request_context(headers={"Accept-Language": language}):
        macro = app.jinja_env.get_template("review/_why.html").module.why_sentence
        neutral, yours = str(macro(why, False)), str(macro(why, True))
    said = {"en": "nobody has made one yet", "tr": "henüz kimse kart almadı"}[language]
    assert said in neutral and said in yours
    for wrong in ("the other side made it", "another player made it", "karşı taraf aldı"):
        assert wrong not in neutral and wrong not in yours


@pytest.mark.parametrize(
    ("language", "you", "sentence"),
    [
        (
            "en",
            True,
            "Jack of hearts took nothing on the empty table. 7 of spades would have kept your "
            "Jack, which takes any pile, for a pile to take later.",
        ),
        (
            "en",
            False,
            "Jack of hearts took nothing on the empty table. 7 of spades would have kept the "
            "Jack, which takes any pile, for a pile to take later.",
        ),
        (
            "tr",
            True,
            "Kupa Valesi boş yerde hiçbir kart almadı. Maça 7 ile, her yeri alan Valenizi daha "
            "sonra alacağınız bir yer için saklardınız.",
        ),
    ],
)
def test_a_jack_led_onto_the_empty_table_is_told_it_took_nothing(app, language, you, sentence):
    why = Why("jack_on_empty", {"best": "7S", "played": "JH"})
    with app.test_request_context(headers={"Accept-Language": language}):
        macro = app.jinja_env.get_template("review/_why.html").module.why_sentence
        assert str(macro(why, you)) == sentence


@pytest.mark.parametrize(
    ("kind", "unseen", "english"),
    [
        (
            "gives_pile",
            3,
            "After Jack of hearts, the pile of 3 cards (card points in sight: 2) could be taken "
            "by any of the 3 cards of that rank still unseen; for 7 of spades that count is 0.",
        ),
        (
            "gives_pile",
            1,
            "After Jack of hearts, the pile of 3 cards (card points in sight: 2) could be taken "
            "by the one card of that rank still unseen; for 7 of spades that count is 0.",
        ),
        (
            "gives_pisti",
            2,
            "Alone on the empty table, Jack of hearts could be taken as a pişti by any of the 2 "
            "cards of its rank still unseen; for 7 of spades that count is 0.",
        ),
    ],
)
def test_a_card_left_to_the_unseen_cards_of_its_rank_is_told_plainly(app, kind, unseen, english):
    why = Why(kind, {**FACTS, "unseen": unseen, "ours": True})
    with app.test_request_context(headers={"Accept-Language": "en"}):
        macro = app.jinja_env.get_template("review/_why.html").module.why_sentence
        assert str(macro(why, True)) == english
    with app.test_request_context(headers={"Accept-Language": "tr"}):
        turkish = str(macro(why, True))
    assert ("tek kart" in turkish) == (unseen == 1) and "bu sayı 0" in turkish


@pytest.mark.parametrize(
    ("beyond", "english", "turkish"),
    [
        (None, "left it on the table.", "bıraktı."),
        (
            "most_cards",
            "left it on the table. Every card taken also counts towards the most cards (3 points).",
            "Alınan her kart en çok kart için de sayılır (3 puan).",
        ),
        (
            "last_capture",
            "left it on the table. In the last deal a capture may also bring the cards left "
            "on the table at the end: they go to the last capture.",
            "sonunda yerde kalan kartları da getirebilir",
        ),
    ],
)
def test_a_capture_says_where_its_worth_beyond_the_points_in_sight_comes_from(
    app, beyond, english, turkish
):
    why = Why("take_pile", {**FACTS, "beyond": beyond, "bonus": 3})
    for language, ending in (("en", english), ("tr", turkish)):
        with app.test_request_context(headers={"Accept-Language": language}):
            macro = app.jinja_env.get_template("review/_why.html").module.why_sentence
            for you in (True, False):
                sentence = str(macro(why, you))
                assert sentence.endswith(ending) if language == "en" else ending in sentence
                assert sentence.count(ending) == 1


def test_a_two_player_opponent_the_record_does_not_call_the_computer_is_the_opponent(client):
    record = finished_record(seed="review-named")
    record["players"] = ["Ayşe", "you"]
    response = upload(client, json.dumps(record).encode())
    assert key_of(response) == reviews.review_key(record, 1)
    assert who(client.get(response.headers["Location"]).get_data(as_text=True)) == [
        "Opponent",
        "The recorder",
    ]


@pytest.mark.parametrize(
    ("played", "players", "english", "turkish"),
    [
        (
            0,
            None,
            "This seat has not played a card",
            "Bu oyuncu bu kayıtta henüz hiç kart oynamadı",
        ),
        (
            1,
            ["computer", "you"],
            "This seat has not played a card",
            "Bu oyuncu bu kayıtta henüz hiç kart oynamadı",
        ),
    ],
)
def test_a_record_before_the_seats_first_card_has_nothing_to_review(
    client, played, players, english, turkish
):
    # A record may stop anywhere, even before its first play (0 to 48
    # plays). The reviewed seat has played no card: nothing to review, and
    # the summary says so rather than speak of forced last cards.
    record = finished_record(seed="review-empty")
    record["plays"] = record["plays"][:played]
    if players:
        record["players"] = players
    response = upload(client, json.dumps(record).encode())
    assert response.status_code == 303
    key = key_of(response)
    assert response.headers["Location"].endswith(f"/review/{key}")
    # Nothing to evaluate: the summary is done at once, no job started.
    assert client.get(f"/review/{key}/status").get_json() == {
        "status": "done",
        "done": 0,
        "total": 0,
        "ahead": None,
        "busy": False,
        "stalled": False,
    }
    page = visible(client.get(f"/review/{key}").get_data(as_text=True))
    assert f"{english} in this record yet: there is nothing to review." in page
    assert "last in hand" not in page and "decisions evaluated" not in page
    page = client.get(f"/review/{key}", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    assert f"{turkish}: incelenecek bir şey yok." in visible(page)


def test_summaries_past_the_cap_wait_for_room(client, monkeypatch):
    """A flood of uploads cannot queue summaries without end: past
    MAX_SUMMARIES claimed at once, a new one waits (its page says so, and
    its status says busy) and starts once there is room."""
    started = jobs_submitted(monkeypatch)
    monkeypatch.setattr(review_pages, "MAX_SUMMARIES", 1)
    first = uploaded(client, "cap-first")
    second = uploaded(client, "cap-second")
    assert client.get(f"/review/{first}").status_code == 200
    assert started == [first]
    page = client.get(f"/review/{second}").get_data(as_text=True)
    assert started == [first]
    busy = re.search(r'<p id="review-busy" class="alert"( hidden)?>', page)
    assert busy is not None and busy.group(1) is None
    assert "this one starts as soon as there is room" in page
    status = client.get(f"/review/{second}/status").get_json()
    assert (status["status"], status["busy"]) == ("new", True)
    # The first one's job finishes (the stand-in for JOBS ran nothing: its
    # place in the process is given back here, as the job would).
    with client.application.app_context():
        reviews.save_steps(first, [], finished=True)
    assert client.get(f"/review/{second}/status").get_json()["busy"] is True
    review_pages._room(client.application).give_back(first)
    assert client.get(f"/review/{second}/status").get_json()["busy"] is False
    page = client.get(f"/review/{second}").get_data(as_text=True)
    assert started == [first, second]
    assert '<p id="review-busy" class="alert" hidden>' in page


def silence(app, key: str) -> None:
    """Make review ``key``'s job look silent for twice the stale time."""
    long_ago = reviews.utcnow() - reviews.STALE_AFTER * 2
    with app.app_context():
        db.session.execute(update(Review).where(Review.key == key).values(updated_at=long_ago))
        db.session.commit()


def test_an_open_summary_starts_again_by_itself_when_its_job_went_silent(
    client, monkeypatch, tmp_path, caplog
):
    # The server died mid-summary (a crash, a kill) and was started again:
    # the page's script asks for the status every few seconds, and once the
    # job has been silent for the stale time the status starts it again,
    # so the bar moves on.
    started = jobs_submitted(monkeypatch)
    key = uploaded(client, "silent-page")
    client.get(f"/review/{key}")
    assert started == [key]
    assert client.get(f"/review/{key}/status").get_json()["status"] == "running"
    silence(client.application, key)
    # Silent, but its job still waits for a thread in this server: alive.
    assert client.get(f"/review/{key}/status").get_json()["status"] == "running"
    assert started == [key]
    silence(client.application, key)
    assert "started again" not in caplog.text
    restarted = create_app(app_config(tmp_path)).test_client()
    assert restarted.get(f"/review/{key}/status").get_json()["status"] == "running"
    assert started == [key, key]
    # The log says so, once, by the key's first characters.
    taken = [record for record in caplog.records if "started again" in record.getMessage()]
    assert [record.levelname for record in taken] == ["WARNING"]
    said = taken[0].getMessage()
    assert said.startswith(f"the review {key[:8]}…'s summary had stored nothing since ")
    assert said.endswith("(its server or worker stopped): started again from decision 1 of 18")
    assert key not in caplog.text
    assert restarted.get(f"/review/{key}/status").get_json()["status"] == "running"
    assert len([r for r in caplog.records if "started again" in r.getMessage()]) == 1


def test_a_summary_that_stored_nothing_for_a_while_says_it_may_have_stopped(client, monkeypatch):
    # Between a server's death and the takeover two minutes later, the
    # page does not go on saying that the Expert is at work and nothing more.
    jobs_submitted(monkeypatch)
    key = uploaded(client, "stalled-page")
    page = client.get(f"/review/{key}").get_data(as_text=True)
    assert '<p id="review-stalled" class="small" hidden>' in page
    assert client.get(f"/review/{key}/status").get_json()["stalled"] is False
    quiet = reviews.utcnow() - review_pages.STALLED_AFTER - timedelta(seconds=1)
    with client.application.app_context():
        db.session.execute(update(Review).where(Review.key == key).values(updated_at=quiet))
        db.session.commit()
    answer = client.get(f"/review/{key}/status").get_json()
    assert (answer["status"], answer["stalled"]) == ("running", True)
    page = client.get(f"/review/{key}").get_data(as_text=True)
    assert (
        '<p id="review-stalled" class="small">No decision has been evaluated for a while: '
        "the review is waiting its turn, or its server stopped, and then another server "
        "takes it over by itself within two minutes.</p>"
    ) in page
    turkish = client.get(f"/review/{key}?lang=tr").get_data(as_text=True)
    assert "Bir süredir hiçbir karar değerlendirilmedi" in turkish
    # Once it moves on, it is no longer said.
    with client.application.app_context():
        reviews.save_steps(key, [], finished=True)
    assert client.get(f"/review/{key}/status").get_json()["stalled"] is False


def test_summaries_waiting_past_the_stale_time_still_take_their_room(client, monkeypatch):
    # Jobs that wait for a thread longer than the stale time no longer
    # count in the database; they still hold their place in the process,
    # so a flood cannot queue more than MAX_SUMMARIES.
    started = jobs_submitted(monkeypatch)
    monkeypatch.setattr(review_pages, "MAX_SUMMARIES", 2)
    keys = [uploaded(client, f"flood-{n}") for n in range(3)]
    for key in keys[:2]:
        client.get(f"/review/{key}")
        silence(client.application, key)
    assert started == keys[:2]
    page = client.get(f"/review/{keys[2]}").get_data(as_text=True)
    assert started == keys[:2]
    assert "this one starts as soon as there is room" in page
    status = client.get(f"/review/{keys[2]}/status").get_json()
    assert (status["status"], status["busy"]) == ("new", True)


def test_a_summary_the_claim_finds_no_room_for_says_it_waits(client, monkeypatch):
    # Another server's claim lands between a count of the summaries and
    # this one's claim: the claim decides, and the page says it waits.
    started = jobs_submitted(monkeypatch)
    monkeypatch.setattr(review_pages, "MAX_SUMMARIES", 1)
    monkeypatch.setattr(review_pages, "running_summaries", lambda: 0)
    first = uploaded(client, "race-first")
    second = uploaded(client, "race-second")
    assert client.get(f"/review/{first}").status_code == 200
    page = client.get(f"/review/{second}").get_data(as_text=True)
    assert started == [first]
    assert '<p id="review-busy" class="alert">' in page


def test_a_jack_spent_on_a_small_pile_is_told_by_the_piles_size(app):
    # The pile's cards, as the table's hint says it ("the pile is only 1
    # card"), not the cards the capture won (the Jack among them).
    why = Why("keep_jack", {**FACTS, "cards": 1, "points": 0, "jacks": 2})
    with app.test_request_context(headers={"Accept-Language": "en"}):
        macro = app.jinja_env.get_template("review/_why.html").module.why_sentence
        assert str(macro(why, True)).startswith(
            "Your Jack took a pile of only 1 card (card points in sight: 0)."
        )
    with app.test_request_context(headers={"Accept-Language": "tr"}):
        assert str(macro(why, True)).startswith("Valeniz yalnızca 1 kartlık bir yer aldı")


def review_of_one_step(
    client, loss: float, low: float, high: float, told: bool
) -> tuple[str, str, str]:
    """Upload a record and store its first step as evaluated: the card
    played ``loss`` points (interval ``low`` to ``high``) below another
    card of the hand, with the "average" reason when ``told``. Return the
    review's key, the better card and the card played."""
    record = finished_record(seed="review-verdicts")
    key = key_of(upload(client, json.dumps(record).encode()))
    first = decisions(load_record(json.dumps(record)), 0)[0]
    best = next(card for card in first.observation.hand if card != first.played)
    step = Step(
        number=1,
        play=first.play,
        played=first.played,
        best=best,
        estimates=(
            Estimate(best, 3.0, 2.0, 4.0, 0.0, 0.0, 0.0),
            Estimate(first.played, 3.0 - loss, 2.0 - loss, 4.0 - loss, loss, low, high),
        ),
        loss=loss,
        mistake=False,
        why=Why("average", {"best": best, "played": first.played, "loss": loss}) if told else None,
        worlds=100,
    )
    with client.application.app_context():
        stored = json.dumps([step.to_dict()])
        db.session.execute(update(Review).where(Review.key == key).values(steps=stored))
        db.session.commit()
    return key, best, first.played


def test_turkish_verdicts_keep_a_cards_number_apart_from_the_points(client):
    """In Turkish a card's name ends in its number ("Maça 7"): the verdict
    read "Maça 7 1,5 puan daha iyiydi", two numbers run together, and the
    average's reason "Maça 7, Kupa Valesi kartından", a list of two cards to
    a Turkish reader. Now the card's name and the points stand apart."""
    key, best, played = review_of_one_step(client, 1.5, 0.8, 2.2, told=True)
    page = client.get(f"/review/{key}/1", headers={"Accept-Language": "tr"})
    text = html.unescape(page.get_data(as_text=True))
    with client.application.test_request_context(headers={"Accept-Language": "tr"}):
        best_name, played_name = i18n.card_name(best), i18n.card_name(played)
    assert (
        f"{best_name} daha iyiydi (1,5 puan fark): açık bir fark ama hata değil; "
        "hata, 2,0 puandan fazlasını kaybettirir."
    ) in text
    assert (
        f"örnek dağıtımlarda {best_name} ortalamada {played_name} kartından 1,5 puan fazla getirdi."
    ) in text


@pytest.mark.parametrize(
    ("loss", "low", "high", "verdict", "told"),
    [
        (
            1.5,
            0.8,
            2.2,
            "was better by 1.5 points: a clear difference, but not a mistake, "
            "which loses more than 2.0.",
            True,
        ),
        (0.8, -0.3, 1.9, "No card was clearly better:", False),
        (0.3, -0.2, 0.9, "No card was clearly better:", False),
        (0.2, 0.1, 0.3, "Good play", False),
    ],
)
def test_a_steps_verdict_tells_a_clear_loss_from_the_noise(client, loss, low, high, verdict, told):
    # A loss whose interval reaches zero is no clear difference, and its
    # reason is not told, even from a step stored with one (as stored
    # before a why needed a clear loss: one from 0.5 points).
    key, _best, _played = review_of_one_step(client, loss, low, high, told=loss >= 0.5)
    page = client.get(f"/review/{key}/1").get_data(as_text=True)
    assert verdict in page
    assert ("No single reason stands out" in page) is told
    assert ("Good play" in page) is (verdict == "Good play")


@pytest.mark.parametrize(
    ("why", "english", "turkish"),
    [
        (
            Why("take_pile", {**FACTS, "pisti": True, "jack": True, "pisti_points": 20}),
            "7 of spades would have taken the lone Jack on the table: a Jack pişti (20 points).",
            "Vale piştisi",
        ),
        (
            # House rules may make a Jack pişti worth one point (format 2).
            Why("take_pile", {**FACTS, "pisti": True, "jack": True, "pisti_points": 1}),
            "7 of spades would have taken the lone Jack on the table: a Jack pişti (1 point).",
            "Vale piştisi yapardınız (1 puan)",
        ),
        (
            Why(
                "gives_pisti",
                {**FACTS, "unseen": 2, "best_unseen": 1, "jack": True, "pisti_points": 20},
            ),
            "Alone on the empty table, Jack of hearts could be taken as a Jack pişti (20 points) "
            "by any of the 2 Jacks still unseen; the cards still unseen that could take "
            "7 of spades, as a pişti of 10: 1.",
            "Vale piştisi",
        ),
        (
            Why("take_pile", {**FACTS, "beyond": "theirs"}),
            "Left on the table, those cards may go to another player, which counts against "
            "you too.",
            "başka bir oyuncu alabilir",
        ),
        (
            Why("same_pile_keep_jack", {**FACTS, "points": 3}),
            "7 of spades would also have banked its own 3 points.",
            "kendi 3 puanını da",
        ),
        (
            Why("last_capture", {**FACTS, "ours": False, "sides": 3}),
            "and another player made it: 7 of spades gives you a better chance",
            "en son başka bir oyuncu aldı",
        ),
    ],
)
def test_the_reasons_name_a_jack_pisti_the_pile_left_and_the_points_banked(
    app, why, english, turkish
):
    with app.test_request_context(headers={"Accept-Language": "en"}):
        macro = app.jinja_env.get_template("review/_why.html").module.why_sentence
        assert english in str(macro(why, True))
        assert "you" not in str(macro(why, False)).replace("Your", "").split()
    with app.test_request_context(headers={"Accept-Language": "tr"}):
        assert turkish in str(macro(why, True))


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "There is no review at this address"),
        ("tr", "Bu adreste bir inceleme yok"),
    ],
)
def test_a_review_no_longer_kept_says_so(client, language, words):
    """A review's address that keeps none (an old one pruned when many are
    kept, a link mistyped) says what is missing and how to get it back, not
    the bare "There is no page here."; the summary and a step alike."""
    gone = "0" * 64
    for path in (f"/review/{gone}", f"/review/{gone}/1", f"/review/{gone}/status"):
        response = client.get(path, headers={"Accept-Language": language})
        assert response.status_code == 404
        if path.endswith("status"):
            continue  # the summary's script reads this one
        page = html.unescape(response.get_data(as_text=True))
        assert words in page, path
        assert "Download record" in page or "Kaydı indir" in page


def read_out(page: str, seat: str) -> str:
    """What a screen reader reads of a step page's seat (``you``, a role,
    or ``pile-place``): the cards' names, which the faces (hidden from it)
    show."""
    part = re.search(
        rf'<div class="review-seat {seat}[ "].*?<div class="review-cards">(.*?)</div>', page, re.S
    )
    assert part, seat
    return "".join(re.findall(r'<span class="visually-hidden">(.*?)</span>', part.group(1)))


def test_a_steps_cards_are_read_apart_with_their_marks(client):
    """The hand under review is read as a list, its card played and the
    best one named as the rings round them show them ("7 of hearts (your
    card), King of diamonds, 4 of spades (best)"), not as names run
    together; so are the hidden cards shown on request."""
    record = finished_record()
    key = key_of(upload(client, json.dumps(record).encode()))
    first = decisions(load_record(json.dumps(record)), 0)[0]
    shown = client.get(f"/review/{key}/1?reveal=1").get_data(as_text=True)
    hand = read_out(shown, "you")
    names = [card_name(card) for card in first.observation.hand]
    assert hand.split(", ")[0].startswith(names[0])
    assert len(hand.split(", ")) == len(names), hand
    assert f"{card_name(first.played)} (played)" in hand
    other = read_out(shown, "opponent")
    assert other == ", ".join(card_name(card) for card in first.state.hands[1]), other


KNOWN = re.compile(r'<p class="review-known">(.*?)</p>', re.S)


def test_a_step_shows_the_cards_its_seat_knew_off_the_table(client):
    """The stock's bottom card (shown to all in partners) while it is in
    the stock, and the face-down cards the seat's side took (seed 003: its
    side may look at them): the seat had seen them, and the step's counts
    of cards still unseen leave them out, so the page shows them too."""
    record = finished_record(PARTNERS, "review-partners")
    key = key_of(upload(client, json.dumps(record).encode()))
    found = decisions(load_record(json.dumps(record)), 0)
    bottom = card_name(record["deck"][51])
    first = client.get(f"/review/{key}/1").get_data(as_text=True)
    known = " ".join(KNOWN.findall(first))
    assert "The stock's bottom card, known to all:" in known and bottom in known
    turkish = client.get(f"/review/{key}/1", headers={"Accept-Language": "tr"})
    assert "Destenin herkesin bildiği alt kartı:" in turkish.get_data(as_text=True)
    # In the last deal the bottom card is in the dealer's hand: not shown.
    last = len(found)
    assert found[-1].observation.stock == 0
    assert "bottom card" not in client.get(f"/review/{key}/{last}").get_data(as_text=True)
    # The face-down cards, once the reviewed seat's side has taken them.
    taken = [d for d in found if d.observation.seen_face_down]
    assert taken, "the deal must let seat 0's side take the face-down cards"
    number = found.index(taken[0]) + 1
    page = client.get(f"/review/{key}/{number}").get_data(as_text=True)
    shown = " ".join(KNOWN.findall(page))
    assert "took the face-down cards; only that side sees them:" in shown
    for card in taken[0].observation.seen_face_down:
        assert card_name(card) in shown


def test_a_review_kept_by_older_estimates_is_evaluated_again(client):
    """Steps stored by an older version of the estimates (a review kept
    before the server's upgrade) are not shown: the review is emptied and
    evaluated again, so a step's page and the summary show the server's
    own figures, never old ones beside new. Steps of the server's version
    are shown as stored."""
    record = finished_record(seed="review-verdicts")  # review_of_one_step's
    key = key_of(upload(client, json.dumps(record).encode()))
    evaluated = CSRF.sub("", client.get(f"/review/{key}/1").get_data(as_text=True))
    kept, _, _ = review_of_one_step(client, 2.5, 1.5, 3.5, told=True)
    assert kept == key  # the same record: its stored first step is now a made-up one
    doctored = CSRF.sub("", client.get(f"/review/{key}/1").get_data(as_text=True))
    assert doctored != evaluated and "2.5" in doctored
    with client.application.app_context():
        db.session.execute(update(Review).where(Review.key == key).values(estimates=0))
        db.session.commit()
    assert CSRF.sub("", client.get(f"/review/{key}/1").get_data(as_text=True)) == evaluated
    status = client.get(f"/review/{key}/status").get_json()
    assert (status["status"], status["done"]) == ("new", 1)
    with client.application.app_context():
        assert db.session.get(Review, key).estimates == ESTIMATES


def test_a_friends_record_names_its_recorder_where_the_players_own_game_says_you(app):
    """Two friends on one deal: Ayşe reviews her game from its final page
    ("You"), downloads its record and sends it, with the review's link, to
    Can. His pages of it, whether he uploads the record or opens the link,
    review Ayşe's seat: "The recorder", never "You", in English and
    Turkish. Ayşe uploading her own record back is hers again ("You")."""
    ayse, can = app.test_client(), app.test_client()
    start_deal(ayse, "/deal/friends-review")
    final = play_hand(ayse)
    fields = form_fields(final, "/review/game")
    response = ayse.post("/review/game", data=fields)
    assert response.status_code == 303
    own_key = key_of(response)
    step = ayse.get(response.headers["Location"]).get_data(as_text=True)
    assert "You" in who(step) and "The recorder" not in visible(step)
    assert "Your card: " in step
    record = json.loads(ayse.get("/record").get_data(as_text=True))
    seat = record["players"].index("you")

    # Can uploads Ayşe's record: the same review (computed once), his words.
    response = upload(can, json.dumps(record).encode())
    assert key_of(response) == own_key
    step = can.get(response.headers["Location"]).get_data(as_text=True)
    names = who(step)
    assert names[seat] == "The recorder" and "You" not in names
    assert "The decisions of the recorder: the player who downloaded this record" in step
    assert "Card played: " in step
    for words in ("Your card", "your card", "You ", "your side"):
        assert words not in visible(step)
    summary = can.get(f"/review/{own_key}").get_data(as_text=True)
    said = re.search(r'<p class="review-result">(.*?)</p>', summary).group(1)
    assert "The recorder <strong>" in said and "You" not in said
    turkish = can.get(response.headers["Location"], headers={"Accept-Language": "tr"})
    text = turkish.get_data(as_text=True)
    assert who(text)[seat] == "Kaydeden oyuncu" and "Siz" not in who(text)
    assert "Kaydeden oyuncunun, yani bu kaydı indiren oyuncunun" in text
    # A third browser opening the review's link: the recorder too.
    stranger = app.test_client()
    assert who(stranger.get(response.headers["Location"]).get_data(as_text=True))[seat] == (
        "The recorder"
    )
    # Ayşe's pages stay hers, and her own record uploaded back says "You".
    assert who(ayse.get(response.headers["Location"]).get_data(as_text=True))[seat] == "You"
    response = upload(ayse, json.dumps(record).encode())
    assert key_of(response) == own_key
    assert who(ayse.get(response.headers["Location"]).get_data(as_text=True))[seat] == "You"
    ayse.get(f"/review/{own_key}")
    wait_until_done(ayse, own_key)


def test_a_review_begun_before_an_upgrade_still_says_you(app):
    """A review of the player's own game begun before the server was
    upgraded to a version that keeps which reviews are this browser's
    (a session without ``own_reviews``): its next page still says "You",
    not "The recorder: the player who downloaded this record" (no record
    was downloaded). A review of another game stays the recorder's."""
    client = app.test_client()
    start_deal(client, "/deal/review-across-upgrade")
    response = client.post("/review/game", data=form_fields(play_hand(client), "/review/game"))
    step_url = response.headers["Location"]
    # As a POST, so the session is stored (a GET stores nothing).
    with client.session_transaction(method="POST") as session:
        del session["own_reviews"]
    step = client.get(step_url).get_data(as_text=True)
    assert "You" in who(step) and "The recorder" not in visible(step)
    start_deal(client, "/deal/review-after-upgrade")
    play_hand(client)
    assert "The recorder" in who(client.get(step_url).get_data(as_text=True))


def test_a_record_uploaded_back_by_its_player_says_you_even_first(app):
    """The player who uploads the record of a hand of the game in their
    browser (not reviewed from the final page first) is its "you"."""
    client = app.test_client()
    start_deal(client, "/deal/friends-own-upload")
    play_hand(client)
    record = json.loads(client.get("/record").get_data(as_text=True))
    seat = record["players"].index("you")
    response = upload(client, json.dumps(record).encode())
    step = client.get(response.headers["Location"]).get_data(as_text=True)
    assert who(step)[seat] == "You" and "recorder" not in step
    # Another browser's game does not make it its own.
    other = app.test_client()
    start_deal(other, "/deal/friends-other")
    play_hand(other)
    response = upload(other, json.dumps(record).encode())
    assert who(other.get(response.headers["Location"]).get_data(as_text=True))[seat] == (
        "The recorder"
    )


def test_the_upload_page_says_whose_decisions_a_friends_record_shows(client):
    """The upload page promised to go through "your decisions", which is
    false of a friend's record: it says whose they are, and what the pages
    call that player."""
    page = " ".join(visible(client.get("/review/").get_data(as_text=True)).split())
    assert "Upload a game record, yours or a friend's" in page
    assert "the decisions of the player who downloaded it (the one the record calls “you”)" in page
    assert "“You” only in a record of a game played in this browser, else “The recorder”" in page
    assert "your decisions" not in page
    turkish = client.get("/review/", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    turkish = " ".join(visible(turkish).split())
    assert "Kendinizin ya da bir arkadaşınızın oyun kaydını yükleyin" in turkish
    assert "“Kaydeden oyuncu” der" in turkish and "kararlarınızı" not in turkish


def test_a_reviews_preview_names_its_game_never_a_card_or_a_move(client):
    """A review's summary and decisions are previewed by their game and
    what a review is, under their own address (a decision's without its
    hidden cards): never a card, a move or the hand's points, whatever the
    page shows (its hidden cards with ``?reveal=1``)."""
    record = finished_record()
    key = key_of(upload(client, json.dumps(record).encode()))
    # Its job, started by the summary's first visit, done first.
    client.get(f"/review/{key}")
    wait_until_done(client, key)
    every_card = [
        word
        for card in seeded_deck("review-pages", CLASSIC)
        for word in (card_name(card), card_label(card))
    ]
    for address, url in [
        (f"/review/{key}", f"http://localhost/review/{key}"),
        (f"/review/{key}/3?reveal=1", f"http://localhost/review/{key}/3"),
    ]:
        page = client.get(address).get_data(as_text=True)
        tags = preview(page)
        assert tags["og:title"] == "Pişti: a hand reviewed"
        assert tags["og:description"] == (
            "Classic · The Expert goes through a player's decisions in a hand one by one and "
            "says what each card was worth."
        )
        assert tags["og:url"] == url
        said = " ".join(tags.values())
        assert not [word for word in every_card if word in said]
        assert not re.search(r"\d+ points?|played|took", said)


def test_a_summary_whose_server_stops_is_given_back_and_starts_again_elsewhere(
    client, monkeypatch, tmp_path
):
    # A replica stopped (a restart, an upgrade) while its process worked
    # out a summary: the step in hand failed as the search pool shut down,
    # the review was marked failed, and its open page said "The review
    # could not be finished. Reload the page to try again." (seen with two
    # replicas and FLASK_REVIEW_QUEUE=false). Now the job gives its claim
    # back: the status is "new" and not busy, which the page's script
    # answers by loading the page again, and that visit, on the replica
    # still running, starts it.
    started = jobs_submitted(monkeypatch)
    key = uploaded(client, "stopping")
    client.get(f"/review/{key}")
    assert started == [key]
    review_pages.stop_summaries(client.application)
    review_pages._summarize(client.application, key)  # its job, as the server stops
    status = client.get(f"/review/{key}/status").get_json()
    assert (status["status"], status["busy"]) == ("new", False)
    other = create_app(app_config(tmp_path)).test_client()
    other.get(f"/review/{key}")
    assert started == [key, key]
    assert other.get(f"/review/{key}/status").get_json()["status"] == "running"
