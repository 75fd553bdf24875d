"""A machine plays the web app at random (Hypothesis's stateful testing,
over Flask's test client, CSRF on) and checks after every step what must
always hold: no 5xx and nothing logged as an error; a refused play or next
hand is a 4xx with a message and changes nothing; every record downloaded
replays through the engine to the score the page shows; no card hidden
from the player is on the table page; a game's move counter never goes
back."""

from __future__ import annotations

import json
import logging
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from app import create_app
from app.engine import RULE_SETS
from app.engine.record import read_record, replay_summary
from app.web.rule_words import CHOICES, option_text
from app.web.table import Table
from tests.conftest import CSRF, HAND, KEPT_GAME, app_config, form_fields, start_deal
from tests.web.test_secrecy import drawn_faces, leaks, may_see

#: The levels the machine plays against (the faster two).
LEVELS = ("easy", "medium")
#: The house options the machine sets, with the values it picks among.
HOUSE_OPTIONS = ("teams", "opening_jack", "bottom_card", "face_down", "pisti_on_last_play")
#: A hand's points per side on the hand's score and the final score.
GLANCE_POINTS = re.compile(r'<td class="glance-points">(\d+)</td>')
#: Each side's match total on them, in a match.
GLANCE_TOTALS = re.compile(r'<td class="glance-total"><span aria-hidden="true">(\d+)</span>')
#: The message of a page that refuses a change.
ALERT = re.compile(r'<p class="alert" role="alert">([^<]+)')
#: Seeds of deal links.
SEEDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_şı", min_size=1, max_size=12)


class _Errors(logging.Handler):
    """Keeps every record logged at ERROR or above, or with a traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR or record.exc_info:
            self.records.append(record)


class WebMachine(RuleBasedStateMachine):
    """One browser (a test client with its cookies) playing at random."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="pisti-machine-"))
        self.app = create_app(app_config(self.folder))
        self.client = self.app.test_client()
        self.errors = _Errors()
        self.app.logger.addHandler(self.errors)
        logging.getLogger().addHandler(self.errors)
        #: The last table page read (``/game``), "" before any.
        self.page = ""
        #: Forms of earlier pages: (action, fields, the cards offered).
        self.old_forms: list[tuple[str, dict[str, str], list[str]]] = []
        #: The most plays seen in each (game id, hand number).
        self.moves: dict[tuple[str, int], int] = {}
        # Random deals from a fixed series, so that a failing run is run
        # again the same way and shrunk.
        seeds = (f"machine-{number}" for number in range(10_000))
        self.seeds = [
            mock.patch(f"app.web.{module}.new_seed", lambda: next(seeds))
            for module in ("game", "house")
        ]
        for patch in self.seeds:
            patch.start()

    def teardown(self) -> None:
        for patch in self.seeds:
            patch.stop()
        self.app.logger.removeHandler(self.errors)
        logging.getLogger().removeHandler(self.errors)
        shutil.rmtree(self.folder, ignore_errors=True)

    # What the session holds --------------------------------------------

    def saved(self) -> dict[str, Any]:
        """The session's table and the games put aside, as stored."""
        with self.client.session_transaction() as session:
            return json.loads(
                json.dumps({"table": session.get("table"), "kept": session.get("kept")})
            )

    def table(self) -> Table | None:
        """The game on the table, as the session keeps it."""
        table = self.saved()["table"]
        return None if table is None else Table.from_dict(table)

    def token(self, path: str = "/") -> str:
        """The CSRF token of the page at ``path``."""
        page = self.get(path)
        return CSRF.search(page).group(1)

    # Requests -----------------------------------------------------------

    def answered(self, response, path: str) -> str:
        """The text of the answer to ``path``, which is no server error."""
        assert response.status_code < 500, (path, response.status_code)
        return response.get_data(as_text=True)

    def get(self, path: str) -> str:
        return self.answered(self.client.get(path), path)

    def post(self, path: str, data: dict[str, str], script: bool = False):
        headers = {"Pisti-Frames": "1"} if script else {}
        response = self.client.post(path, data=data, headers=headers)
        self.answered(response, path)
        return response

    def refused(self, path: str, data: dict[str, str]) -> None:
        """POST ``data`` to ``path``, which must refuse it: a 4xx page with
        its reason, and the session's games as they were."""
        before = self.saved()
        response = self.post(path, data)
        page = response.get_data(as_text=True)
        assert 400 <= response.status_code < 500, (path, data, response.status_code)
        message = ALERT.search(page)
        assert message and message.group(1).strip(), (path, data, page[:2000])
        assert self.saved() == before, (path, data)

    def read_table(self) -> None:
        """Read the table page and keep its play and next-hand forms, to
        send again later (:meth:`send_an_old_form`)."""
        self.page = self.get("/game")
        for action in ("/play", "/next"):
            if f'action="{action}"' in self.page:
                fields = form_fields(self.page, action)
                self.old_forms.append((action, fields, HAND.findall(self.page)))
        # The last 12 play forms and every next-hand form (fewer, and rarer).
        plays = [index for index, form in enumerate(self.old_forms) if form[0] == "/play"]
        for index in reversed(plays[:-12]):
            del self.old_forms[index]

    # Rules ---------------------------------------------------------------

    @initialize(rules=st.sampled_from(sorted(RULE_SETS)), level=st.sampled_from(LEVELS))
    def first_game(self, rules: str, level: str) -> None:
        """Start with a game from the home page's form."""
        self.new_game(rules, level, None)

    @rule(
        rules=st.sampled_from(sorted(RULE_SETS)),
        level=st.sampled_from(LEVELS),
        match_to=st.sampled_from([None, "51", "101"]),
    )
    def new_game(self, rules: str, level: str, match_to: str | None) -> None:
        """Start a new random game from the home page's form."""
        data = {"csrf_token": self.token("/"), "rules": rules, "level": level}
        if match_to and RULE_SETS[rules].match_targets:
            data["target"] = match_to
        response = self.post("/new", data)
        assert response.status_code == 303, response.status_code
        self.read_table()

    @rule(seed=SEEDS, rules=st.sampled_from(sorted(RULE_SETS)), level=st.sampled_from(LEVELS))
    def deal_link(self, seed: str, rules: str, level: str) -> None:
        """Open a deal link and press its "Start this deal"."""
        link = f"/deal/{seed}?rules={rules}&level={level}"
        response = start_deal(self.client, link)
        self.answered(response, link)
        assert response.status_code in (303, 308), (link, response.status_code)
        self.read_table()

    @rule(
        players=st.sampled_from(["3", "4"]),
        rules=st.sampled_from(sorted(RULE_SETS)),
        level=st.sampled_from(LEVELS),
        options=st.dictionaries(
            st.sampled_from(HOUSE_OPTIONS), st.integers(min_value=0, max_value=3), max_size=3
        ),
    )
    def house_game(self, players: str, rules: str, level: str, options: dict[str, int]) -> None:
        """Start a game of 3 or 4 players under house rules (``options``:
        each an index into the option's values); options that do not go
        together are a 400 that starts nothing."""
        data = {"csrf_token": self.token("/house"), "rules": rules, "level": level}
        data["players"] = players
        for name, index in options.items():
            values = [option_text(value) for value in CHOICES[name]]
            data[name] = values[index % len(values)]
        before = self.saved()
        response = self.post("/house", data)
        if response.status_code == 400:
            # Options that do not go together: nothing started.
            assert self.saved() == before
        else:
            assert response.status_code == 303, response.status_code
        self.read_table()

    @rule(path=st.sampled_from(["/", "/game", "/game/rules", "/house", "/me"]))
    def open_page(self, path: str) -> None:
        """Open a page; any card it draws face up is one the player may see."""
        page = self.get(path)
        if path == "/game":
            self.page = page
        table = self.table()
        if table is not None:
            assert set(drawn_faces(page)) <= may_see(table), path

    @precondition(lambda self: 'action="/play"' in self.page)
    @rule(data=st.data(), count=st.integers(min_value=1, max_value=30), script=st.booleans())
    def play_cards(self, data, count: int, script: bool) -> None:
        """Play up to ``count`` cards of the hand (a hand is 24 at most),
        each a legal one, as a form (303) or as the page's script does
        (``Pisti-Frames: 1``: the table at once, 200)."""
        for _ in range(count):
            self.read_table()
            hand = HAND.findall(self.page)
            if not hand or 'action="/play"' not in self.page:
                return
            card = data.draw(st.sampled_from(hand))
            fields = {**form_fields(self.page, "/play"), "card": card}
            response = self.post("/play", fields, script)
            assert response.status_code == (200 if script else 303), (
                fields,
                response.get_data(as_text=True)[:2000],
            )
        self.read_table()

    @precondition(lambda self: 'action="/play"' in self.page)
    @rule(data=st.data())
    def play_a_card_not_in_hand(self, data) -> None:
        """Send the table's play form with a card not in the hand (one
        played already or in another hand, the stock, face down)."""
        self.read_table()
        table = self.table()
        if table is None or 'action="/play"' not in self.page:
            return
        hand = set(table.state.hands[table.seat])
        others = sorted(set(table.state.deck) - hand)
        card = data.draw(st.sampled_from(others))
        fields = {**form_fields(self.page, "/play"), "card": card}
        self.refused("/play", fields)

    @precondition(lambda self: self.old_forms)
    @rule(data=st.data())
    def send_an_old_form(self, data) -> None:
        """Send again the play or next-hand form of an earlier page: taken
        when it is the current one, else refused."""
        action, fields, hand = data.draw(st.sampled_from(self.old_forms))
        table = self.table()
        current = (
            table is not None
            and fields.get("game", table.game_id) == table.game_id
            and fields.get("hand") == str(table.match.hand_number)
        )
        if action == "/play":
            fields = {**fields, "card": data.draw(st.sampled_from(hand))}
            current = (
                current
                and not table.state.finished
                and fields.get("move") == str(table.move)
                and fields["card"] in table.state.hands[table.seat]
            )
        else:
            current = current and table.match.hand_counted and not table.match.over
        if current:
            assert self.post(action, fields).status_code == 303
        else:
            self.refused(action, fields)
        self.read_table()

    @precondition(lambda self: 'action="/next"' in self.page)
    @rule()
    def next_hand(self) -> None:
        """Press "Next hand" on the score page last read, which is current."""
        fields = form_fields(self.page, "/next")
        table = self.table()
        assert table is not None and fields.get("game") == table.game_id
        assert self.post("/next", fields).status_code == 303
        self.read_table()

    @rule(aids=st.sets(st.sampled_from(["highlight", "counter", "hints", "bottom_card", "fan"])))
    def toggle_aids(self, aids: set[str]) -> None:
        """Save the playing aids: ``aids`` on, the others off."""
        data = {"csrf_token": self.token("/game"), "next": "/game"}
        data.update({name: "on" for name in aids})
        assert self.post("/settings", data).status_code == 303

    @rule(language=st.sampled_from(["en", "tr"]))
    def switch_language(self, language: str) -> None:
        """Switch the pages' language."""
        data = {"csrf_token": self.token("/"), "language": language, "next": "/"}
        assert self.post("/language", data).status_code == 303

    @rule(data=st.data())
    def resume_a_game(self, data) -> None:
        """Go back to one of the games put aside listed on the home page."""
        home = self.get("/")
        kept = KEPT_GAME.findall(home)
        if not kept:
            return
        game = data.draw(st.sampled_from(kept))
        response = self.post("/resume", {"csrf_token": CSRF.search(home).group(1), "game": game})
        assert response.status_code == 303, response.status_code
        table = self.table()
        assert table is not None and table.game_id == game
        self.read_table()

    @rule()
    def download_the_record(self) -> None:
        """Download the current hand's record: 409 before the hand is over;
        after, it and each earlier hand's replay through the engine to the
        points the score page shows, and in a match to its totals."""
        table = self.table()
        response = self.client.get("/record")
        self.answered(response, "/record")
        if table is None:
            assert response.status_code == 404
            return
        if not table.state.finished:
            assert response.status_code == 409
            return
        assert response.status_code == 200, response.status_code
        page = self.get("/game")
        match = table.match
        totals = [0] * match.sides
        for number in range(1, match.hand_number + 2):
            path = f"/record?hand={number}"
            answer = self.client.get(path)
            self.answered(answer, path)
            assert answer.status_code == 200, (path, answer.status_code)
            record = read_record(answer.get_data())
            assert list(record.state.plays) == list(match.finished_hand(number - 1).plays)
            summary = replay_summary(record.state, record.version, record.rules)
            points = [0] * match.sides
            for team, score in enumerate(summary["teams"]):
                points[match.side_of_team(team, number - 1)] += score["points"]
            totals = [total + hand for total, hand in zip(totals, points, strict=True)]
        # The page shows the last hand's points and, in a match, the totals.
        assert [int(shown) for shown in GLANCE_POINTS.findall(page)] == points
        if match.target:
            assert [int(shown) for shown in GLANCE_TOTALS.findall(page)] == totals
        assert response.get_data() == answer.get_data()

    # Invariants ------------------------------------------------------------

    @invariant()
    def nothing_logged_as_an_error(self) -> None:
        """No error logged, no traceback."""
        assert not self.errors.records, [r.getMessage() for r in self.errors.records]

    @invariant()
    def no_hidden_card_on_the_table(self) -> None:
        """The table page draws, names or offers no card the player may
        not see (:func:`tests.web.test_secrecy.may_see`)."""
        table = self.table()
        if table is None or not self.page:
            return
        page = self.get("/game")
        allowed = may_see(table)
        hidden = set(table.state.deck) - allowed
        assert set(drawn_faces(page)) <= allowed, set(drawn_faces(page)) - allowed
        assert leaks(page, hidden) == [], (leaks(page, hidden), table.state.plays)

    @invariant()
    def moves_only_go_forward(self) -> None:
        """A hand's move counter never goes back."""
        table = self.table()
        if table is None:
            return
        key = (table.game_id, table.match.hand_number)
        assert table.move >= self.moves.get(key, 0), (key, table.move, self.moves[key])
        self.moves[key] = table.move


#: A budget of some 10 s here (each example a new app and browser); the
#: same series each run, as tests/ops/test_fuzz.py's. Longer runs, to hunt:
#: ``WebMachine.TestCase.settings = settings(max_examples=150,
#: stateful_step_count=60, ...)`` with ``derandomize=False``.
WebMachine.TestCase.settings = settings(
    max_examples=12,
    stateful_step_count=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestWebMachine = WebMachine.TestCase
