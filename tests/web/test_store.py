"""The session store: nothing stored for passers-by, a bound on sessions
per client address that drops the idlest first, and version checks that
refuse a change made from an out-of-date copy (the served-app trials are in
tests/ops/test_one_writer.py)."""

from __future__ import annotations

import errno
import html
import os
import re
import shutil
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from app import create_app, sessions
from app.web import store
from tests.conftest import (
    CSRF,
    KEPT_GAME,
    Player,
    app_config,
    checked,
    form_fields,
    start_deal,
)

COOKIE = "pisti_session"
#: The words of each game kept aside, in the list's order.
KEPT_LINE = re.compile(r'<span class="kept-what" id="kept-\w+">(.*?)</span>', re.S)


def test_passers_by_store_nothing_and_get_no_session_cookie(app, tmp_path):
    folder = tmp_path / "sessions"
    before = sorted(path.name for path in folder.iterdir())
    client = app.test_client()
    for path in ("/", "/game", "/deal/just-looking", "/record", "/no-such-page", "/healthz"):
        response = client.get(path)
        assert COOKIE not in " ".join(response.headers.getlist("Set-Cookie"))
    assert client.head("/deal/just-looking").status_code == 200
    assert sorted(path.name for path in folder.iterdir()) == before


def test_a_passer_by_s_language_and_aids_live_in_cookies(app, tmp_path):
    """Choosing the language or the aids without a game stores nothing on
    the server (a flood of such posts filled the store and pushed out a
    game in progress from the same address): both go to cookies, and both
    still hold once a game is started."""
    folder = tmp_path / "sessions"
    before = sorted(path.name for path in folder.iterdir())
    client = app.test_client()
    token = CSRF.search(client.get("/").get_data(as_text=True)).group(1)
    for _ in range(3):
        response = client.post("/language", data={"csrf_token": token, "language": "tr"})
        assert response.status_code == 303
        aids = {"csrf_token": token, "counter": "on", "four_colour": "on"}
        assert client.post("/settings", data=aids).status_code == 303
        restart = client.post("/story/lesson/restart", data={"csrf_token": token})
        assert restart.status_code == 303
    assert client.get_cookie(COOKIE) is None
    assert sorted(path.name for path in folder.iterdir()) == before
    home = client.get("/").get_data(as_text=True)
    assert '<html lang="tr"' in home
    assert re.search(r'name="counter"[^>]* checked', home)
    assert not re.search(r'name="highlight"[^>]* checked', home)
    player = Player(client)
    player.deal("cookie-prefs")
    page = player.get().get_data(as_text=True)
    assert '<html lang="tr"' in page and "Açık görülen kartlar" in page


def test_the_latest_language_and_aids_stand_when_the_session_is_gone(app):
    """Chosen in cookies without a game, then changed with one: once the
    session is gone (expired, pushed out), the later choice stands, not
    the cookie's first one."""
    client = app.test_client()
    token = CSRF.search(client.get("/").get_data(as_text=True)).group(1)
    client.post("/language", data={"csrf_token": token, "language": "tr"})
    client.post("/settings", data={"csrf_token": token, "hints": "on"})
    player = Player(client)
    player.deal("latest-choice")
    fields = {"csrf_token": player.token}
    assert client.post("/language", data={**fields, "language": "en"}).status_code == 303
    assert client.post("/settings", data={**fields, "counter": "on"}).status_code == 303
    client.delete_cookie(COOKIE)
    home = client.get("/").get_data(as_text=True)
    assert '<html lang="en"' in home
    assert re.search(r'name="counter"[^>]* checked', home)
    assert not re.search(r'name="hints"[^>]* checked', home)


def test_the_first_post_works_with_the_csrf_cookie_alone(app):
    client = app.test_client()
    token = CSRF.search(client.get("/").get_data(as_text=True)).group(1)
    assert client.get_cookie(COOKIE) is None
    assert client.post("/new", data={"csrf_token": token}).status_code == 303
    assert client.get_cookie(COOKIE) is not None
    assert client.get("/game").status_code == 200
    # Another browser's token does not fit this browser's cookie.
    other = app.test_client()
    other.get("/")
    assert other.post("/new", data={"csrf_token": token}).status_code == 400


def test_a_change_from_an_out_of_date_copy_is_refused(app):
    """Two requests load the same version; the first stores its change;
    the second is refused and stores nothing."""
    client = app.test_client()
    start_deal(client, "/deal/versions")
    interface = app.session_interface
    cookie = {"Cookie": f"{COOKIE}={client.get_cookie(COOKIE).value}"}
    with app.test_request_context("/game", headers=cookie) as first_request:
        first = interface.open_session(app, first_request.request)
    with app.test_request_context("/game", headers=cookie) as second_request:
        second = interface.open_session(app, second_request.request)
        first["language"] = "tr"
        interface.commit(app, first)
        second["language"] = "en"
        with pytest.raises(sessions.Stale):
            interface.commit(app, second)
        interface.reload(second)
        assert second["language"] == "tr"
    assert 'lang="tr"' in client.get("/game").get_data(as_text=True)


def test_sessions_per_address_are_bounded_and_the_idlest_go_first(tmp_path, caplog):
    per_address = 3
    app = create_app(app_config(tmp_path, SESSIONS_PER_ADDRESS=per_address))
    players = [app.test_client() for _ in range(per_address)]
    for number, player in enumerate(players):
        start_deal(player, f"/deal/address-{number}")
    # The first player plays on: the second is now the idlest.
    page = players[0].get("/game").get_data(as_text=True)
    fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
    card = re.findall(r'name="card" value="([^"]+)"', page)[0]
    assert players[0].post("/play", data={**fields, "card": card}).status_code == 303
    newcomer = app.test_client()
    start_deal(newcomer, "/deal/address-new")
    playing = [client.get("/game").status_code for client in (*players, newcomer)]
    assert playing == [200, 404, 200, 200]
    assert (
        "1 stored session(s) of the address 127.0.0.1 dropped: it had more than "
        "FLASK_SESSIONS_PER_ADDRESS (3); behind a proxy, see FLASK_TRUSTED_PROXIES"
    ) in [record.getMessage() for record in caplog.records]
    # Another address has its own count.
    elsewhere = app.test_client()
    start_deal(elsewhere, "/deal/elsewhere", environ_base={"REMOTE_ADDR": "192.0.2.9"})
    assert [client.get("/game").status_code for client in (*players, newcomer)] == playing


def test_past_its_threshold_the_file_store_drops_the_idlest_down_to_nine_tenths(tmp_path):
    """Expiry is write time plus lifetime, so the earliest expiry is the
    longest idle; a game just played is never the one dropped."""
    cache = sessions.PruningFileCache(str(tmp_path), threshold=10)
    for number in range(11):
        cache.set(f"game-{number}", {"table": number}, timeout=1000 + number)
    assert all(cache.has(f"game-{number}") for number in range(11))
    cache.set("game-new", {"table": "new"}, timeout=2000)  # past the threshold: prune
    kept = [number for number in range(11) if cache.has(f"game-{number}")]
    assert kept == list(range(2, 11)) and cache.has("game-new")
    cache.set("game-newer", {"table": "newer"}, timeout=2000)  # no scan: under it again
    assert cache.has("game-2")


def test_the_file_store_deletes_expired_sessions_far_below_its_threshold(tmp_path, monkeypatch):
    """A game idle past its lifetime leaves the disk within the hour (the
    README: deleted 31 days after its last change), however few sessions
    the folder holds: cachelib deletes an expired file only when it is
    read or past the threshold (100,000 files), and an abandoned game's is
    never read. One sweep an hour, not one per write, in a thread of its
    own (no request waits for it)."""
    cache = sessions.PruningFileCache(str(tmp_path), threshold=1000)
    cache.set("idle", {"table": 1}, timeout=3600)
    cache.set("playing", {"table": 2}, timeout=31 * 24 * 3600)
    sweeps = []
    sweep = cache._remove_expired
    monkeypatch.setattr(cache, "_remove_expired", lambda now: sweeps.append(now) or sweep(now))
    later = time.time() + 3600 + sessions.SWEEP_SECONDS
    monkeypatch.setattr(sessions, "time", SimpleNamespace(time=lambda: later))
    cache.set("new", {"table": 3}, timeout=31 * 24 * 3600)
    cache.sweeper.join()
    cache.set("newer", {"table": 4}, timeout=31 * 24 * 3600)
    on_disk = {
        key
        for key in ("idle", "playing", "new", "newer")
        if Path(cache._get_filename(key)).exists()
    }
    assert on_disk == {"playing", "new", "newer"}
    assert sweeps == [later]


def test_the_sweep_deletes_what_writes_the_disk_refused_left(tmp_path, monkeypatch):
    """A write the disk refuses (full) leaves cachelib's temporary file,
    empty or partial, which its listing skips: one more file for every
    failed write, kept for good. The sweep deletes those an hour old (a
    write in progress takes a moment)."""
    cache = sessions.PruningFileCache(str(tmp_path), threshold=1000)
    cache.set("game", {"table": 1}, timeout=31 * 24 * 3600)  # the first write's sweep
    cache.sweeper.join()

    class FullDisk(type(cache.serializer)):  # reads as cachelib does
        def dump(self, value, stream):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(cache, "serializer", FullDisk())
    assert not cache.set("game", {"table": 2}, timeout=31 * 24 * 3600)
    monkeypatch.undo()
    left = list(tmp_path.glob("*.__wz_cache"))
    assert len(left) == 1  # its 4-byte header
    later = time.time() + 3600 + sessions.SWEEP_SECONDS
    writing = tmp_path / "tmp-in-progress.__wz_cache"
    writing.write_bytes(b"")
    os.utime(writing, (later - 1, later - 1))
    monkeypatch.setattr(sessions, "time", SimpleNamespace(time=lambda: later))
    cache.set("other", {"table": 3}, timeout=3600)
    cache.sweeper.join()
    assert list(tmp_path.glob("*.__wz_cache")) == [writing]
    assert cache.get("game") == {"table": 1}


def test_a_sweep_of_a_sessions_folder_gone_is_a_warning(tmp_path, caplog):
    """The sessions folder removed while the server runs (its pages answer
    503): the sweep's thread logs a warning, not a traceback."""
    cache = sessions.PruningFileCache(str(tmp_path / "sessions"), threshold=1000)
    shutil.rmtree(tmp_path / "sessions")
    assert not cache.set("game", {"table": 1}, timeout=3600)  # not written; sweeps
    cache.sweeper.join()
    said = [record for record in caplog.records if record.name == "app.sessions"]
    assert [(record.levelname, record.getMessage()[:30]) for record in said] == [
        ("WARNING", "expired sessions not deleted: ")
    ]


def test_a_sweep_without_a_thread_still_writes_the_session(tmp_path, monkeypatch, caplog):
    """A server short of memory (ulimit -v, MemoryMax=) may be refused a new
    thread: the session is written all the same (the sweep's RuntimeError
    made the request a 500), a warning says so, and a later sweep runs."""
    cache = sessions.PruningFileCache(str(tmp_path), threshold=1000)

    def refused(self):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refused)
    assert cache.set("game", {"table": 1}, timeout=3600)
    assert cache.get("game") == {"table": 1}
    said = [record.getMessage() for record in caplog.records if record.name == "app.sessions"]
    assert said == ["expired sessions not deleted: can't start new thread"]
    monkeypatch.undo()
    later = time.time() + sessions.SWEEP_SECONDS
    monkeypatch.setattr(sessions, "time", SimpleNamespace(time=lambda: later))
    cache.set("other", {"table": 2}, timeout=3600)
    assert cache.sweeper is not None and cache.sweeper.ident is not None  # started


def test_only_a_change_that_is_kept_writes(app, monkeypatch):
    player = Player(app.test_client())
    player.deal("writes")
    interface = app.session_interface
    writes = []
    swap = interface._swap
    monkeypatch.setattr(interface, "_swap", lambda *args: writes.append(args) or swap(*args))
    client, token, move = player.client, player.token, player.move
    for path in ("/", "/game", "/record", "/deal/other", "/no-such-page", "/static/pisti.css"):
        client.get(path).close()
    client.head("/deal/other")
    client.post("/healthz", data={"csrf_token": token})  # 405
    client.post("/play", data={"csrf_token": token, "card": "x" * 20_000})  # 413
    client.post("/play", data={"csrf_token": "forged", "card": "7H", "move": move})  # 400
    client.post("/play", data={"csrf_token": token, "card": "ZZ", "move": move})  # 400
    client.post("/play", data={"csrf_token": token, "card": "7H", "move": "99"})  # 409
    assert writes == []
    player.play(player.hand[0])
    assert len(writes) == 1
    aids = {"csrf_token": token, "counter": "on"}
    assert client.post("/settings", data=aids).status_code == 303
    assert client.post("/settings", data=aids).status_code == 303  # the same again
    assert len(writes) == 2


def test_static_files_never_load_the_session(app, monkeypatch):
    player = Player(app.test_client())
    player.deal("static")

    def refuse(*args):
        raise AssertionError("the session was loaded")

    monkeypatch.setattr(app.session_interface, "_load", refuse)
    for path in ("/static/pisti.css", "/healthz"):
        response = player.client.get(path)
        response.close()
        assert response.status_code == 200


def test_the_deal_link_page_and_kept_games_are_in_turkish(app):
    client = app.test_client()
    turkish = {"Accept-Language": "tr"}
    start_deal(client, "/deal/turkce-1", headers=turkish)
    asked = client.get("/deal/turkce-2", headers=turkish).get_data(as_text=True)
    assert "Bu dağıtımı başlat" in asked and "Süren bir oyununuz var" in asked
    start_deal(client, "/deal/turkce-2", headers=turkish)
    table = client.get("/game", headers=turkish).get_data(as_text=True)
    assert "Süren diğer oyunlarınız" in table and "hamle 0 / 48" in table
    for english in ("Start this deal", "game in progress", "Back to it", "play 0 of"):
        assert english not in asked + table


def test_games_kept_aside_name_the_points_their_matches_go_to(app):
    """A player back after a week found "Partners (2 v 2) · all Expert ·
    hand 1, 0–0" among the games kept aside for a match to 101, and could
    not tell two matches of one game to different targets apart; their
    lines name the target, as the table's bar does ("to 101", Turkish
    "hedef 101"). A Single hand game has none."""
    client = app.test_client()
    home = client.get("/").get_data(as_text=True)
    for rules, target in (("classic", "101"), ("classic", ""), ("partners", ""), ("cardems", "")):
        fields = {**form_fields(home, "/new"), "rules": rules, "target": target, "level": "easy"}
        assert client.post("/new", data=fields).status_code == 303
        home = client.get("/").get_data(as_text=True)
    lines = [html.unescape(re.sub(r"\s+", " ", line)) for line in KEPT_LINE.findall(home)]
    assert [line.split(" · ")[:2] for line in lines] == [
        ["Partners (2 v 2)", "to 151"],
        ["Classic match (2 players)", "to 51"],
        ["Classic match (2 players)", "to 101"],
    ]
    turkish = client.get("/", headers={"Accept-Language": "tr"}).get_data(as_text=True)
    turkish = html.unescape(re.sub(r"\s+", " ", turkish))
    assert "Klasik maç (2 oyuncu) · hedef 101 · Kolay" in turkish


def test_a_game_put_aside_in_the_old_format_can_still_be_resumed(app):
    """Sessions stored before the list of kept games held one game under
    ``previous_table``."""
    player = Player(app.test_client())
    player.deal("old-format-a")
    player.play(player.hand[0])
    start_deal(player.client, "/deal/old-format-b")
    interface = app.session_interface
    cookie = {"Cookie": f"{COOKIE}={player.client.get_cookie(COOKIE).value}"}
    with app.test_request_context("/game", method="POST", headers=cookie) as context:
        stored = interface.open_session(app, context.request)
        stored["previous_table"] = stored.pop("kept")[0]["table"]
        interface.commit(app, stored)
    page = player.client.get("/game").get_data(as_text=True)
    game = KEPT_GAME.search(page).group(1)
    token = CSRF.search(page).group(1)
    assert (
        player.client.post("/resume", data={"csrf_token": token, "game": game}).status_code == 303
    )
    player.get()
    assert player.move == "2"  # game A after its first play; B is kept in turn
    assert "“<bdi>old-format-b</bdi>”" in player.page


def _kept_ids(client) -> list[str]:
    page = client.get("/").get_data(as_text=True)
    return KEPT_GAME.findall(page)


def test_a_start_form_sent_twice_starts_one_game(app):
    # A double click, a retry, or Back then the same button: the second
    # send is refused as out of date (409) and changes nothing.
    client = app.test_client()
    start_deal(client, "/deal/twice-a")
    page = client.get("/deal/twice-b").get_data(as_text=True)
    action = checked("/deal/twice-b?rules=cardems&level=medium")
    fields = form_fields(page, action.partition("?")[0])
    assert fields["replaces"]  # game A's id
    assert client.post(action, data=fields).status_code == 303
    again = client.post(action, data=fields)
    assert again.status_code == 409
    assert "That form was sent twice, or from a page that was out of date" in again.get_data(
        as_text=True
    )
    assert len(_kept_ids(client)) == 1  # game A, not a first copy of B
    # The home page's New game, twice.
    home = client.get("/").get_data(as_text=True)
    fields = {**form_fields(home, "/new"), "rules": "cardems", "level": "easy"}
    assert client.post("/new", data=fields).status_code == 303
    assert client.post("/new", data=fields).status_code == 409
    assert len(_kept_ids(client)) == 2  # B, then A: one new game
    # A page shown without any game: "" stands for none.
    fresh = app.test_client()
    assert form_fields(fresh.get("/").get_data(as_text=True), "/new")["replaces"] == ""


@pytest.mark.parametrize("path", ["/new", "/house"])
def test_a_first_game_sent_twice_by_a_new_browser_starts_one(app, path):
    # A visitor with no game yet double-clicks, or sends the form again
    # after its answer was lost (Back pressed while it was on its way):
    # neither send has a session to tell it from the other, and both
    # started a game (one lost at once). The second is led to the first's.
    client = app.test_client()
    page = client.get(path if path == "/house" else "/").get_data(as_text=True)
    fields = form_fields(page, path)
    assert fields["replaces"] == ""
    fields.update(rules="cardems", level="easy", target="51")
    again = app.test_client()  # the second send: the same cookies, no session
    again.set_cookie("pisti_csrf", client.get_cookie("pisti_csrf").value)
    assert client.post(path, data=fields).status_code == 303
    second = again.post(path, data=fields)
    assert (second.status_code, second.location) == (303, "/game")
    assert again.get_cookie(COOKIE).value == client.get_cookie(COOKIE).value
    assert again.get("/game").status_code == 200
    assert client.get("/game").status_code == 200
    assert not KEPT_GAME.findall(again.get("/").get_data(as_text=True))
    # Another browser starts its own.
    other = app.test_client()
    page = other.get(path if path == "/house" else "/").get_data(as_text=True)
    assert other.post(path, data={**fields, **form_fields(page, path)}).status_code == 303
    assert other.get_cookie(COOKIE).value != client.get_cookie(COOKIE).value


def test_a_first_start_sent_again_while_the_first_is_on_its_way_is_led_to_its_game(
    app, monkeypatch
):
    # A double click: the second send arrives while the first, slow to be
    # stored, has claimed the start. It waits for the first's game.
    client = app.test_client()
    fields = {**form_fields(client.get("/").get_data(as_text=True), "/new"), "rules": "cardems"}
    again = app.test_client()
    again.set_cookie("pisti_csrf", client.get_cookie("pisti_csrf").value)
    swap = sessions.FileSessions._swap
    claimed = threading.Event()

    def slow_swap(*args, **kwargs):
        claimed.set()
        time.sleep(0.3)
        return swap(*args, **kwargs)

    monkeypatch.setattr(sessions.FileSessions, "_swap", slow_swap)
    first: list = []
    sender = threading.Thread(target=lambda: first.append(client.post("/new", data=fields)))
    sender.start()
    assert claimed.wait(5)
    second = again.post("/new", data=fields)
    sender.join()
    assert (first[0].status_code, second.status_code) == (303, 303)
    assert again.get_cookie(COOKIE).value == client.get_cookie(COOKIE).value


def test_a_first_start_whose_game_is_never_stored_is_refused(app):
    # The claim's game never came (its store failed): the start sent again
    # starts nothing and has no game to be led to, so it is the 409.
    client = app.test_client()
    fields = {**form_fields(client.get("/").get_data(as_text=True), "/new"), "rules": "cardems"}
    with app.test_request_context("/new", method="POST", data=fields):
        browser, form = client.get_cookie("pisti_csrf").value, store._start_form()
        assert app.session_interface.claim_first_start(browser, "x", form)
    refused = client.post("/new", data=fields)
    assert refused.status_code == 409
    assert "That page was out of date" in refused.get_data(as_text=True)
    assert client.get_cookie(COOKIE) is None


def test_resuming_a_game_twice_shows_it_as_out_of_date(app):
    # The second Resume found no kept game of that id and said there was
    # no game in progress (404), while that very game was on the table.
    player = Player(app.test_client())
    player.deal("resume-a")
    start_deal(player.client, "/deal/resume-b")
    (game,) = _kept_ids(player.client)
    fields = {"csrf_token": player.token if player.get() else "", "game": game}
    assert player.client.post("/resume", data=fields).status_code == 303
    again = player.client.post("/resume", data=fields)
    assert again.status_code == 409
    page = again.get_data(as_text=True)
    assert "out of date" in page and "“<bdi>resume-b</bdi>”" in page  # A on the table, B kept
    assert "No game in progress" not in page


def test_a_start_form_whose_game_was_lost_meanwhile_starts_its_game(app, tmp_path):
    # The session expired or was wiped while the page was open: there is no
    # game to keep, so the form's game starts (it was a 409 with nothing to
    # go back to).
    client = app.test_client()
    start_deal(client, "/deal/lost-a")
    home = client.get("/").get_data(as_text=True)
    fields = {**form_fields(home, "/new"), "rules": "cardems", "level": "easy"}
    assert fields["replaces"]
    app.session_interface.cache.clear()
    assert client.get("/game").status_code == 404  # no game any more
    assert client.post("/new", data=fields).status_code == 303
    assert client.get("/game").status_code == 200


CHOICES = [
    ("/language", {"language": "tr"}, '<html lang="tr"'),
    ("/settings", {"counter": "on"}, 'data-region="counter"'),
]


@pytest.mark.parametrize(("path", "fields", "seen"), CHOICES)
def test_a_choice_sent_with_an_id_this_browsers_new_game_replaced_lands_in_it(
    app, path, fields, seen
):
    # A slow tab still holds the old id when another tab of the same
    # browser starts a new game: the choice is led on to the new game,
    # whose session keeps the choices (they outweigh the cookie).
    client = app.test_client()
    start_deal(client, "/deal/moved-a")
    page = client.get("/game").get_data(as_text=True)
    token = CSRF.search(page).group(1)
    stale = app.test_client()
    stale.set_cookie(COOKIE, client.get_cookie(COOKIE).value)
    stale.set_cookie("pisti_csrf", client.get_cookie("pisti_csrf").value)
    home = client.get("/").get_data(as_text=True)
    assert client.post("/new", data=form_fields(home, "/new")).status_code == 303
    answer = stale.post(path, data={"csrf_token": token, "next": "/game", **fields})
    assert answer.status_code == 303
    assert seen in client.get("/game").get_data(as_text=True)


@pytest.mark.parametrize(("path", "fields", "seen"), CHOICES)
def test_a_choice_sent_with_an_id_another_browsers_new_game_replaced_is_refused(
    app, path, fields, seen
):
    # The id another browser replaced leads nowhere: the choice would be
    # answered as done and not be seen there. It is refused as out of date.
    client = app.test_client()
    start_deal(client, "/deal/moved-b")
    old_id = client.get_cookie(COOKIE).value
    stale = app.test_client()
    token = CSRF.search(stale.get("/").get_data(as_text=True)).group(1)
    stale.set_cookie(COOKIE, old_id)
    home = client.get("/").get_data(as_text=True)
    assert client.post("/new", data=form_fields(home, "/new")).status_code == 303
    answer = stale.post(path, data={"csrf_token": token, "next": "/game", **fields})
    assert answer.status_code == 409
    assert seen not in client.get("/game").get_data(as_text=True)


def test_the_sessions_folder_keeps_no_client_address(tmp_path):
    """The sessions counted per address are kept under a keyed digest of
    the address: a file named by a plain hash of the address (as the
    file store names a key) could be undone by trying every IPv4 address."""
    app = create_app(app_config(tmp_path))
    address = "203.0.113.77"
    start_deal(app.test_client(), "/deal/private-address", environ_base={"REMOTE_ADDR": address})
    interface = app.session_interface
    plain = interface.cache._get_filename(f"{interface.key_prefix}address:{address}")
    folder = Path(plain).parent
    assert len(list(folder.iterdir())) >= 2  # the session, and its address's count
    assert not Path(plain).exists()
    for file in folder.iterdir():
        assert address.encode() not in file.read_bytes()
