"""1,000 fuzzed POST bodies: each is refused with a 4xx and a message, and
the game is exactly as it was."""

from __future__ import annotations

import re
import tempfile
from urllib.parse import urlencode

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app import create_app
from app.engine import InvalidCard, parse_card
from tests.conftest import Player, expected_state, without_tokens

ALERT = re.compile(r'role="alert">\s*([^<\s][^<]*)<')
SEED = "fuzz-target"


def snapshot(client) -> str:
    """The table as shown, minus the per-response CSRF tokens."""
    return without_tokens(client.get("/game").get_data(as_text=True))


def test_fuzzed_posts_are_refused_and_change_nothing():
    with tempfile.TemporaryDirectory() as sessions:
        app = create_app({"TESTING": True, "SECRET_KEY": "ops-fuzz", "SESSION_FILE_DIR": sessions})
        player = Player(app.test_client())
        player.deal(SEED)
        for _ in range(2):
            player.play(player.hand[0])
        other = Player(app.test_client())
        other.deal("another-game")
        for _ in range(5):
            other.play(other.hand[0])
        hand, move, token = player.hand, int(player.move), player.token
        hidden = [card for card in expected_state(SEED, []).deck if card not in hand]
        before = snapshot(player.client)
        check_bodies(player, hand, move, token, hidden, other, before)


def check_bodies(player, hand, move, token, hidden, other, before):
    other_game = re.search(r'name="game" value="([^"]*)"', other.page).group(1)
    cards = st.one_of(
        st.sampled_from(hand),  # in hand, but sent with a wrong move
        st.sampled_from(hidden),  # the computer's, the stock's, the pile's
        st.sampled_from(
            ["", "ZZ", "1H", "11S", "7X", "JOKER", "7", "H7", "A♠", "7H7H", "10 D", "null"]
        ),
        st.text(max_size=40),
        st.builds(
            lambda char, size: char * size, st.characters(), st.integers(15_000, 17_000)
        ),  # near the body limit
        st.integers().map(str),
    )
    moves = st.one_of(
        st.just(str(move)),
        st.just(other.move),  # another game's move number (and id, below)
        st.integers(min_value=-5, max_value=60).map(str),
        st.integers(min_value=10**15, max_value=10**40).map(str),
        st.integers(4_000, 5_000).map(lambda size: "9" * size),  # over Python's int digit limit
        st.sampled_from(["", "one", "1.0", "1e3", "0x1", "NaN", "∞", "-", "[]"]),
        st.text(max_size=20),
    )
    tokens = st.one_of(
        st.just(token),
        st.just(token),
        st.just(token),  # mostly valid, to reach the game
        st.just(other.token),  # another session's
        st.text(max_size=100),
    )
    fields = st.lists(
        st.one_of(
            st.tuples(st.just("card"), cards),
            st.tuples(st.just("move"), moves),
            st.tuples(st.just("hand"), moves),
            st.tuples(st.just("game"), st.one_of(st.just(other_game), st.text(max_size=12))),
            st.tuples(st.just("csrf_token"), tokens),
            st.tuples(st.text(max_size=12), st.text(max_size=30)),
        ),
        max_size=8,
    )
    encodings = st.sampled_from(["form", "multipart", "raw"])

    @settings(
        max_examples=1000,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        path=st.sampled_from(["/play", "/next"]),
        body=fields,
        encoding=encodings,
        raw=st.binary(max_size=200),
    )
    # A part name werkzeug cannot read comes out as None (once a 500).
    @example(path="/play", body=[("\r", ""), ("csrf_token", token)], encoding="multipart", raw=b"")
    def check(path, body, encoding, raw):
        first = {}
        for name, value in body:
            first.setdefault(name, value)
        if (
            path == "/play"
            and encoding != "raw"
            and first.get("csrf_token") == token
            and _is(first.get("move"), move)
        ):
            try:
                if parse_card(first.get("card", "")) in hand:
                    return  # a legal play, not a bad one
            except InvalidCard:
                pass
        if encoding == "raw":
            response = player.client.post(
                path, data=raw, content_type="application/x-www-form-urlencoded"
            )
        elif encoding == "form":
            response = player.client.post(
                path, data=urlencode(body), content_type="application/x-www-form-urlencoded"
            )
        else:
            data = {}
            for name, value in body:
                data.setdefault(name, []).append(value)
            response = player.client.post(path, data=data, content_type="multipart/form-data")
        page = response.get_data(as_text=True)
        assert 400 <= response.status_code < 500, (body, response.status_code)
        assert ALERT.search(page), (body, page[:300])
        assert snapshot(player.client) == before, body

    check()


def _is(text: str | None, number: int) -> bool:
    """Whether ``text`` reads as ``number`` the way the form's move does."""
    try:
        return int(str(text)) == number
    except ValueError:
        return False
