"""Smaller hardening: plays rate-limited per game and per address, counted
for the whole served server; Host headers checked (400 with the security
headers, never a 500); share links from the configured host; settings the
server cannot honour refused at start-up."""

from __future__ import annotations

import re
import threading

import limits.storage.memory
import pytest
import requests
from werkzeug.test import EnvironBuilder, run_wsgi_app

from app import create_app
from app.config import ConfigError
from app.web.security import HEADERS, HostCheck, counted_address
from benchmarks.load_test import HIDDEN, PLAY_FORM
from benchmarks.load_test import Player as HttpPlayer
from tests.conftest import CSRF, START, Clock, Player, start_deal
from tests.ops.conftest import clear_of_a_minutes_edge

#: The limits' windows stand still (see the fixture) unless a test moves them.
pytestmark = pytest.mark.usefixtures("limits_clock")


def make_app(tmp_path, **config):
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "ops-hardening",
            "SESSION_FILE_DIR": str(tmp_path),
            "DATABASE_URL": f"sqlite:///{tmp_path / 'pisti.db'}",
            **config,
        }
    )


def play_fields(page: str) -> dict[str, str]:
    fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
    fields["card"] = re.findall(r'name="card" value="([^"]+)"', page)[0]
    return fields


def test_plays_are_limited_per_game(tmp_path):
    app = make_app(tmp_path, PLAY_LIMIT="3 per minute", TRUSTED_PROXIES=1)
    player = Player(app.test_client())
    player.deal("limited-game")
    # Each play from another address: the game's own count still stops it.
    for number in range(3):
        address = {"X-Forwarded-For": f"198.51.100.{number}"}
        response = player.client.post("/play", data=play_fields(player.page), headers=address)
        assert response.status_code == 303
        player.get()
    before = player.move
    refused = player.client.post(
        "/play", data=play_fields(player.page), headers={"X-Forwarded-For": "198.51.100.9"}
    )
    assert refused.status_code == 429
    page = refused.get_data(as_text=True)
    # The table as it stands, with the message where a refused play's goes:
    # the page's script shows it in place of the table, hand and all.
    assert '<p class="alert" role="alert">Too many moves in a short time' in page
    assert 'data-region="centre"' in page
    assert re.findall(r'name="card" value="([^"]+)"', page) == re.findall(
        r'name="card" value="([^"]+)"', player.page
    )
    assert int(refused.headers["Retry-After"]) == 60
    assert player.get().status_code == 200 and player.move == before


def test_a_play_limit_refuses_a_burst_over_a_window_boundary(tmp_path, monkeypatch):
    """A limit of "3 plays a minute" refuses a burst over its windows'
    boundary: with fixed windows one play, two more at its window's end and
    three at the next one's start made five plays within two seconds. (The
    sliding window counter is an estimate: plays spread over the next
    window may pass up to twice the limit within a minute.)"""
    clock = Clock()
    monkeypatch.setattr(limits.storage.memory, "time", clock)
    app = make_app(tmp_path, PLAY_LIMIT="3 per minute")
    player = Player(app.test_client())
    player.deal("any-window")
    for at in (0.0, 59.0, 59.5, 60.5):
        clock.now = 1_000_000.0 + at
        assert player.client.post("/play", data=play_fields(player.page)).status_code == 303
        player.get()
    # Three plays within the last minute (59.0, 59.5, 60.5): a fourth waits.
    clock.now = 1_000_000.0 + 61.0
    assert player.client.post("/play", data=play_fields(player.page)).status_code == 429
    # A minute after the play at 59.0, one more may go.
    clock.now = 1_000_000.0 + 119.5
    assert player.client.post("/play", data=play_fields(player.page)).status_code == 303


def test_plays_are_limited_per_address(tmp_path):
    app = make_app(tmp_path, PLAY_ADDRESS_LIMIT="3 per minute")
    first, second = Player(app.test_client()), Player(app.test_client())
    first.deal("address-one")
    second.deal("address-two")
    for player in (first, first, second):
        assert player.client.post("/play", data=play_fields(player.page)).status_code == 303
        player.get()
    # A fourth play from the same address, in a third game, is refused.
    assert second.client.post("/play", data=play_fields(second.page)).status_code == 429
    other = Player(app.test_client())
    other.deal("address-three")
    elsewhere = {"REMOTE_ADDR": "192.0.2.7"}
    response = other.client.post("/play", data=play_fields(other.page), environ_base=elsewhere)
    assert response.status_code == 303


def test_an_ipv6_client_counts_as_its_64(tmp_path):
    """A home or a phone is given a whole IPv6 /64 and may take any address
    in it: the per-address limits count the /64, so changing the address
    within it does not reset them; another /64 is another client."""
    app = make_app(tmp_path, PLAY_ADDRESS_LIMIT="2 per minute")
    players = [Player(app.test_client()) for _ in range(4)]
    for number, player in enumerate(players):
        player.deal(f"ipv6-{number}")
    home = ["2001:db8:1:2::1", "2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::ffff"]
    for player, address in zip(players, home[:2], strict=False):
        sent = {"REMOTE_ADDR": address}
        response = player.client.post("/play", data=play_fields(player.page), environ_base=sent)
        assert response.status_code == 303
    third = players[2].client.post(
        "/play", data=play_fields(players[2].page), environ_base={"REMOTE_ADDR": home[2]}
    )
    assert third.status_code == 429
    elsewhere = {"REMOTE_ADDR": "2001:db8:1:3::1"}
    response = players[3].client.post(
        "/play", data=play_fields(players[3].page), environ_base=elsewhere
    )
    assert response.status_code == 303


@pytest.mark.parametrize(
    ("address", "counted"),
    [
        ("192.0.2.7", "192.0.2.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:DB8:1:2::9", "2001:db8:1:2::/64"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        ("::1", "::/64"),
        ("192.0.2.7:51234", "192.0.2.7"),
        ("[2001:db8:1:2::9]:443", "2001:db8:1:2::/64"),
        ("[::ffff:192.0.2.7]", "192.0.2.7"),
        ("[not-an-address]:80", "[not-an-address]:80"),
        ("", ""),
        ("unix-socket", "unix-socket"),
    ],
)
def test_the_counted_part_of_an_address(address, counted):
    assert counted_address(address) == counted


def test_a_forwarded_address_with_its_port_counts_as_the_address(tmp_path):
    """Some trusted proxies forward the client's address with its port
    (Azure's Application Gateway: ``192.0.2.7:51234``, ``[2001:db8::1]:443``).
    Counted as text, each connection's port made another client, so a new
    connection escaped the per-address limits."""
    app = make_app(tmp_path, PLAY_ADDRESS_LIMIT="2 per minute", TRUSTED_PROXIES=1)
    homes = (
        ["198.51.100.7:40001", "198.51.100.7:40002", "198.51.100.7:40003"],
        ["[2001:db8:1:2::1]:5001", "[2001:db8:1:2::2]:5002", "2001:db8:1:2::3"],
    )
    for home_number, home in enumerate(homes):
        statuses = []
        for number, address in enumerate(home):
            player = Player(app.test_client())
            player.deal(f"ported-{home_number}-{number}")
            sent = {"X-Forwarded-For": address}
            response = player.client.post("/play", data=play_fields(player.page), headers=sent)
            statuses.append(response.status_code)
        assert statuses == [303, 303, 429]


def test_one_address_may_play_more_than_one_game_may(tmp_path, monkeypatch):
    """One address is many players (a school, a mobile network's shared
    address): by default its games together may play twelve times as fast
    as one game may, each game still held to its own limit."""
    monkeypatch.delenv("FLASK_PLAY_LIMIT")
    monkeypatch.delenv("FLASK_PLAY_ADDRESS_LIMIT")
    app = make_app(tmp_path)
    assert (app.config["PLAY_LIMIT"], app.config["PLAY_ADDRESS_LIMIT"]) == (
        "5 per second",
        "60 per second",
    )
    app = make_app(tmp_path, PLAY_LIMIT="2 per minute", PLAY_ADDRESS_LIMIT="6 per minute")
    players = [Player(app.test_client()) for _ in range(4)]
    for number, player in enumerate(players):
        player.deal(f"shared-address-{number}")
    for player in players[:3]:
        for _ in range(2):
            assert player.client.post("/play", data=play_fields(player.page)).status_code == 303
            player.get()
    # The game's own third play, and a fourth game's first, are refused.
    assert players[0].client.post("/play", data=play_fields(players[0].page)).status_code == 429
    assert players[3].client.post("/play", data=play_fields(players[3].page)).status_code == 429


def test_sixty_players_on_one_address_may_each_play_in_the_same_second(tmp_path, monkeypatch):
    """Two school classes on one Wi-Fi: 60 players each playing a card every
    1 to 3 s make some 30 plays a second, in bursts near 60 (on the served
    app, the former default of 20 a second refused a third of their plays,
    and 1 in 80 of 30 players'). By default 60 plays of 60 games in one
    second all pass; a 61st in that second is refused, and its player is
    told that their network's games, not theirs, went too fast."""
    monkeypatch.delenv("FLASK_PLAY_LIMIT")
    monkeypatch.delenv("FLASK_PLAY_ADDRESS_LIMIT")
    clock = Clock()
    clock.now = 1_000_000.0
    monkeypatch.setattr(limits.storage.memory, "time", clock)
    app = make_app(tmp_path)
    players = [Player(app.test_client()) for _ in range(61)]
    for number, player in enumerate(players):
        assert player.deal(f"class-{number}").status_code == 200
    clock.now += 5.0
    for player in players[:60]:
        assert player.client.post("/play", data=play_fields(player.page)).status_code == 303
    refused = players[60].client.post("/play", data=play_fields(players[60].page))
    assert refused.status_code == 429
    page = refused.get_data(as_text=True)
    assert "Many games are being played from your network right now" in page
    assert "Too many moves" not in page
    clock.now += 1.5
    assert players[60].client.post("/play", data=play_fields(players[60].page)).status_code == 303


def served_deal(url: str, seed: str, **options) -> requests.Response:
    """Open the deal link of ``seed`` on the served app and press its start
    button (a new session); return the POST's answer, not followed."""
    http = requests.Session()
    page = http.get(f"{url}/deal/{seed}", timeout=30, **options).text
    action = START.search(page).group(1).replace("&amp;", "&")
    data = {"csrf_token": CSRF.search(page).group(1)}
    return http.post(url + action, data=data, allow_redirects=False, timeout=30, **options)


def _play_once(url: str, results: list[int], start: threading.Barrier) -> None:
    player = HttpPlayer(url)
    player.new_game("easy")
    fields = dict(HIDDEN.findall(PLAY_FORM.search(player.page).group(1)))
    fields["card"] = player.hand[0]
    start.wait()
    response = player.http.post(url + "/play", data=fields, allow_redirects=False, timeout=30)
    results.append(response.status_code)


def test_the_served_server_counts_plays_for_the_whole_server(serve, tmp_path):
    server = serve(
        {
            "FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions"),
            "FLASK_RATELIMIT_ENABLED": "true",
            "FLASK_PLAY_ADDRESS_LIMIT": "5 per minute",
            "FLASK_NEW_GAME_LIMIT": "100 per minute",
        }
    )
    results: list[int] = []
    start = threading.Barrier(12, action=clear_of_a_minutes_edge)  # then the plays
    players = [
        threading.Thread(target=_play_once, args=(server.url, results, start)) for _ in range(12)
    ]
    for thread in players:
        thread.start()
    for thread in players:
        thread.join()
    # Twelve games from one address at once: exactly five plays pass.
    assert sorted(results) == [303] * 5 + [429] * 7


def test_the_served_server_counts_new_games_for_the_whole_server(serve, tmp_path):
    server = serve(
        {
            "FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions"),
            "FLASK_RATELIMIT_ENABLED": "true",
            "FLASK_NEW_GAME_LIMIT": "4 per minute",
        }
    )
    results: list[int] = []
    lock = threading.Lock()

    def deal(number: int) -> None:
        response = served_deal(server.url, f"many-{number}")
        with lock:
            results.append(response.status_code)

    threads = [threading.Thread(target=deal, args=(n,)) for n in range(10)]
    clear_of_a_minutes_edge()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results.count(429) == 6 and len(results) == 10


@pytest.mark.parametrize("host", ["a" * 64 + ".example", "a..b", "bad host", "x.example:port"])
def test_a_malformed_host_is_a_400_with_the_security_headers(tmp_path, host, capsys):
    app = create_app({"SECRET_KEY": "ops-hardening", "SESSION_FILE_DIR": str(tmp_path)})
    capsys.readouterr()
    for path in ("/", "/deal/some-seed", "/no-such-page"):
        response = app.test_client().get(path, headers={"Host": host})
        assert response.status_code == 400
        assert "This site does not answer to the host name" in response.get_data(as_text=True)
        for name, value in HEADERS.items():
            assert response.headers[name] == value
    # A request line and why each, no traceback.
    log = capsys.readouterr().out
    assert "Traceback" not in log
    assert log.count(f"request refused: the Host {host!r} ") == 3


def test_only_trusted_hosts_are_answered(tmp_path):
    app = make_app(tmp_path, TRUSTED_HOSTS=["pisti.example", ".friends.example"])
    client = app.test_client()
    assert client.get("/", headers={"Host": "pisti.example"}).status_code == 200
    assert client.get("/", headers={"Host": "table.friends.example:8000"}).status_code == 200
    # A name with the root's dot written is the same name, in the Host and
    # in the setting; two dots are no name.
    assert client.get("/", headers={"Host": "pisti.example."}).status_code == 200
    assert client.get("/", headers={"Host": "pisti.example.:8000"}).status_code == 200
    dotted = make_app(tmp_path, TRUSTED_HOSTS=["pisti.example."]).test_client()
    assert dotted.get("/", headers={"Host": "pisti.example"}).status_code == 200
    assert dotted.get("/", headers={"Host": "pisti.example."}).status_code == 200
    assert make_app(tmp_path).test_client().get("/", headers={"Host": "a.."}).status_code == 400
    refused = client.get("/", headers={"Host": "evil.example"})
    assert refused.status_code == 400
    assert refused.headers["X-Frame-Options"] == "DENY"
    assert "does not answer to the host name in this address" in refused.get_data(as_text=True)
    # What the log says of it.
    check = HostCheck(app.wsgi_app, ["pisti.example"])
    assert (
        check.refusal("evil.example") == "the Host 'evil.example' is not one of FLASK_TRUSTED_HOSTS"
    )
    assert check.refusal("pisti.example:8000") is None


@pytest.mark.parametrize("trusted", [["pisti.example"], [".pisti.example"], None])
def test_a_request_without_a_host_is_answered_as_the_site(tmp_path, capsys, trusted):
    # HTTP/1.0 allows a request with no Host (a monitor's, say): it is
    # answered as the site, not with a traceback, trusted hosts or not.
    app = make_app(tmp_path, TRUSTED_HOSTS=trusted)
    capsys.readouterr()
    for path in ("/healthz", "/", "/static/pisti.css"):
        environ = EnvironBuilder(path=path).get_environ()
        del environ["HTTP_HOST"]
        _body, status, headers = run_wsgi_app(app, environ, buffered=True)
        assert status.startswith("200"), (path, status)
        assert headers["X-Frame-Options"] == "DENY"
    assert "Traceback" not in capsys.readouterr().out


def test_trusted_hosts_ignore_case(tmp_path):
    # Host names are not case-sensitive: neither in the setting nor in the
    # Host header a browser sends.
    client = make_app(tmp_path, TRUSTED_HOSTS=["Pisti.Example"]).test_client()
    assert client.get("/", headers={"Host": "pisti.example"}).status_code == 200
    assert client.get("/", headers={"Host": "PISTI.example:8000"}).status_code == 200
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400


def _finished_page(client, headers: dict[str, str]) -> str:
    player = Player(client)
    start_deal(player.client, "/deal/shared-deal", headers=headers)
    while True:
        page = client.get("/game", headers=headers).get_data(as_text=True)
        cards = re.findall(r'name="card" value="([^"]+)"', page)
        if not cards:
            return page
        fields = {**play_fields(page), "card": cards[0]}
        assert client.post("/play", data=fields, headers=headers).status_code == 303


@pytest.mark.parametrize(
    "config,expected",
    [
        ({"SERVER_NAME": "pisti.example"}, "http://pisti.example/deal/~"),
        ({"TRUSTED_HOSTS": ["cards.example", "evil.example"]}, "http://cards.example/"),
    ],
)
def test_share_links_use_the_configured_host(tmp_path, config, expected):
    client = make_app(tmp_path, **config).test_client()
    page = _finished_page(client, {"Host": "evil.example"})
    share = re.search(r'id="share"[^>]*value="([^"]+)"', page).group(1)
    assert share.startswith(expected.rstrip("/")) and "shared-deal" in share
    assert "evil.example" not in share


@pytest.mark.parametrize(
    "proxies,forwarded_host,expected",
    [
        (1, "pisti.example:8443", "https://pisti.example:8443/deal/~"),
        # A client's own copy comes before the proxy's, and is not taken.
        (1, "pisti.example:6666, pisti.example:8443", "https://pisti.example:8443/deal/~"),
        (1, "pisti.example:443", "https://pisti.example/deal/~"),  # the standard port
        # No proxy trusted: the header is a client's, never in a link.
        (0, "pisti.example:8443", "http://pisti.example/deal/~"),
    ],
)
def test_share_links_keep_the_port_a_trusted_proxy_is_reached_at(
    tmp_path, proxies, forwarded_host, expected
):
    # nginx on port 8443 in front of the app, sending the host and its port
    # as the README's block does (X-Forwarded-Host: $host:$server_port):
    # the links carried no port, and a friend's browser went to port 443.
    client = make_app(
        tmp_path, TRUSTED_PROXIES=proxies, TRUSTED_HOSTS=["pisti.example"]
    ).test_client()
    headers = {
        "Host": "pisti.example",
        "X-Forwarded-For": "203.0.113.9",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": forwarded_host,
        "X-Forwarded-Prefix": "/",
        # A browser's, on the site's own pages (Referrer-Policy: same-origin),
        # which Flask-WTF compares with the host over https.
        "Referer": expected.replace("/deal/~", "/game"),
    }
    page = _finished_page(client, headers)
    share = re.search(r'id="share"[^>]*value="([^"]+)"', page).group(1)
    assert share.startswith(expected) and "shared-deal" in share


def test_a_server_name_outside_the_trusted_hosts_stops_start_up(monkeypatch, tmp_path):
    # Its share links and the image's health check would name a host the
    # site refuses.
    monkeypatch.setenv("FLASK_TRUSTED_HOSTS", '["pisti.example"]')
    monkeypatch.setenv("FLASK_SERVER_NAME", "www.other.example")
    with pytest.raises(ConfigError, match="FLASK_SERVER_NAME: must be one of FLASK_TRUSTED_HOSTS"):
        create_app({"SECRET_KEY": "ops-hardening", "SESSION_FILE_DIR": str(tmp_path)})
    monkeypatch.setenv("FLASK_SERVER_NAME", "pisti.example:8443")
    create_app({"SECRET_KEY": "ops-hardening", "SESSION_FILE_DIR": str(tmp_path)})
    monkeypatch.setenv("FLASK_SERVER_NAME", "pisti.example.")
    create_app({"SECRET_KEY": "ops-hardening", "SESSION_FILE_DIR": str(tmp_path)})


@pytest.mark.parametrize("name", ["[::1]", "[::1]:8080", "pisti.example", "pisti.example:8443"])
def test_a_server_name_with_or_without_a_port_starts(monkeypatch, tmp_path, name):
    monkeypatch.setenv("FLASK_SERVER_NAME", name)
    app = create_app({"SECRET_KEY": "ops-hardening", "SESSION_FILE_DIR": str(tmp_path)})
    assert app.config["SERVER_NAME"] == name


@pytest.mark.parametrize(
    "name,value,message",
    [
        ("FLASK_EXPERT_MS", "331", "from 1 to 330 (the most one answer to a play may think)"),
        ("FLASK_TRUSTED_HOSTS", '"pisti.example"', "FLASK_TRUSTED_HOSTS: must be a list"),
        ("FLASK_TRUSTED_HOSTS", '["a..b"]', "FLASK_TRUSTED_HOSTS: must be a list"),
        ("FLASK_SERVER_NAME", "http://pisti.example", "FLASK_SERVER_NAME: must be a host name"),
        ("FLASK_SERVER_NAME", "pisti.example:99999", "FLASK_SERVER_NAME: must be a host name"),
        ("FLASK_SERVER_NAME", "[::1]:99999", "FLASK_SERVER_NAME: must be a host name"),
        ("FLASK_PLAY_LIMIT", "often", "FLASK_PLAY_LIMIT: must be a rate"),
        ("FLASK_PLAY_LIMIT", "0/second", "FLASK_PLAY_LIMIT: must be a rate"),
        ("FLASK_PLAY_ADDRESS_LIMIT", "fast", "FLASK_PLAY_ADDRESS_LIMIT: must be a rate"),
        ("FLASK_NEW_GAME_LIMIT", "0 per minute", "FLASK_NEW_GAME_LIMIT: must be a rate"),
        ("FLASK_RANKING_LIMIT", "60/minute;0/hour", "FLASK_RANKING_LIMIT: must be a rate"),
        ("FLASK_REVIEWS_KEPT", "0", "FLASK_REVIEWS_KEPT: must be a whole number, 1 or more"),
        ("FLASK_REVIEWS_KEPT", "many", "FLASK_REVIEWS_KEPT: must be a whole number, 1 or more"),
        (
            "FLASK_SESSIONS_PER_ADDRESS",
            "0",
            "FLASK_SESSIONS_PER_ADDRESS: must be a whole number, 1 or more",
        ),
        (
            "FLASK_DATABASE_URL",
            "postgresql://u:pw@host:notaport/db",
            "FLASK_DATABASE_URL: must be a URL",
        ),
        ("FLASK_DATABASE_URL", "postgresql://[::1:5999/db", "FLASK_DATABASE_URL: must be a URL"),
    ],
)
def test_unusable_settings_stop_start_up(monkeypatch, tmp_path, name, value, message):
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=re.escape(message)):
        create_app({"SECRET_KEY": "ops-hardening", "SESSION_FILE_DIR": str(tmp_path)})


@pytest.mark.parametrize("proxies,second", [("1", 303), ("0", 429)])
def test_the_served_server_believes_forwarded_addresses_only_from_trusted_proxies(
    serve, tmp_path, proxies, second
):
    server = serve(
        {
            "FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions"),
            "FLASK_RATELIMIT_ENABLED": "true",
            "FLASK_TRUSTED_PROXIES": proxies,
            "FLASK_NEW_GAME_LIMIT": "1 per minute",
        }
    )
    clear_of_a_minutes_edge()
    statuses = [
        served_deal(
            server.url,
            f"forwarded-{number}",
            headers={"X-Forwarded-For": f"198.51.100.{number}"},
        ).status_code
        for number in (1, 2)
    ]
    assert statuses == [303, second]


def test_the_play_limits_forget_games_long_over(tmp_path, monkeypatch):
    """The limits in memory keep a count per game: with the moving window
    a server left running for weeks kept one for every game ever played
    (and for every made-up ``game`` field posted), each past its window, so
    its memory grew without end. Counts past their windows now go."""
    clock = Clock()
    clock.now = 1_000_000.0
    monkeypatch.setattr(limits.storage.memory, "time", clock)
    app = make_app(tmp_path)
    storage = next(iter(app.extensions["limiter"])).storage
    player = Player(app.test_client())
    player.deal("kept-playing")
    fields = play_fields(player.page)
    for number in range(300):
        clock.now += 0.5
        made_up = {**fields, "game": f"made-up-{number}"}
        assert player.client.post("/play", data=made_up).status_code == 409
    # The storage's pass over past counts runs 10 ms after a count.
    storage.timer.join()
    # Counts (fixed and sliding windows) and events (the moving window).
    assert len(storage.storage) + len(storage.events) < 20
    # The limits still hold: the game played on counts its plays.
    clock.now += 5.0
    assert player.client.post("/play", data=fields).status_code == 303
    assert any(f"game:{fields['game']}" in key for key in storage.storage)
