"""A doubting player checks a finished game's cards without this app: the
Python script of docs/record-format.md ("Checking a deal yourself") re-deals
a downloaded record from its seed, and the deal depends on the seed alone
(not the computers' levels, the page's language, a reload or the cards
played)."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.engine import GameState, get_rules, make_record, seeded_deck, with_options
from app.engine.match import Match
from app.web import store
from tests.conftest import CSRF, start_deal
from tests.web.test_score_pages import next_hand

DOC = Path(__file__).resolve().parents[2] / "docs" / "record-format.md"


@pytest.fixture(scope="module")
def script(tmp_path_factory) -> Path:
    """The docs' script, written to a file as a reader would save it."""
    section = DOC.read_text(encoding="utf-8").split("## Checking a deal yourself", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert not re.search(r"^\s*(import|from)\s+app\b", code, re.M)
    path = tmp_path_factory.mktemp("reader") / "check.py"
    path.write_text(code, encoding="utf-8")
    return path


def check(script: Path, record: dict, folder: Path) -> subprocess.CompletedProcess[str]:
    """Run the docs' script on ``record`` in a Python that cannot import the
    app (``-I``: no current folder, no PYTHONPATH)."""
    game = folder / "game.json"
    game.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-I", str(script), str(game)],
        capture_output=True,
        text=True,
        cwd=folder,
        check=False,
    )


HOUSE = {
    "classic": get_rules("classic"),
    "cardems": get_rules("cardems"),
    "partners": get_rules("partners"),
    "three-no-jack": with_options(get_rules("classic"), {"players": 3, "bottom_card": "no_jack"}),
    "four-jacks-play": with_options(get_rules("partners"), {"four_jacks": "play"}),
    "cardems-any": with_options(get_rules("cardems"), {"bottom_card": "no_jack"}),
}


@pytest.mark.parametrize("name", list(HOUSE))
def test_the_docs_script_re_deals_every_games_records(script, tmp_path, name):
    # Seeds and hands whose decks needed a reshuffle are among them (about
    # one Partners deck in 13 has a Jack at the bottom).
    rules = HOUSE[name]
    plain = get_rules("classic")
    cases = [(f"check-{number}", number % 4) for number in range(300)]
    reshuffled = [
        (seed, hand)
        for seed, hand in cases
        if seeded_deck(seed, rules, hand) != seeded_deck(seed, plain, hand)
    ]
    if name in ("partners", "three-no-jack", "cardems-any"):
        assert len(reshuffled) > 10
    for seed, hand in cases[:12] + reshuffled[:12]:
        deck = seeded_deck(seed, rules, hand)
        record = make_record(GameState.deal(rules, deck), seed, hand=hand + 1)
        result = check(script, record, tmp_path)
        assert result.returncode == 0, result.stderr
        assert result.stdout == f"The deck is the one seed '{seed}' deals for hand {hand + 1}.\n"


def test_the_docs_script_finds_a_deck_that_is_not_the_seeds(script, tmp_path):
    classic = HOUSE["classic"]
    record = make_record(GameState.deal(classic, seeded_deck("şans", classic)), "şans")
    record["deck"][10], record["deck"][20] = record["deck"][20], record["deck"][10]
    result = check(script, record, tmp_path)
    assert result.returncode == 1
    assert result.stderr == "The deck is NOT the one seed 'şans' deals for hand 1.\n"
    del record["seed"]
    assert "This record has no seed" in check(script, record, tmp_path).stderr


def play_hand(client, pick) -> str:
    """Play the current hand to its end, ``pick`` choosing from the hand."""
    page = client.get("/game").get_data(as_text=True)
    while cards := re.findall(r'name="card" value="([^"]+)"', page):
        fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
        assert client.post("/play", data={**fields, "card": pick(cards)}).status_code == 303
        client.get("/game")  # a reload changes nothing
        page = client.get("/game").get_data(as_text=True)
    return page


@pytest.mark.parametrize(
    ("query", "pick", "language", "aids"),
    [
        ("level=easy", lambda cards: cards[0], "en", False),
        ("level=hard", lambda cards: cards[-1], "tr", True),
        ("level=expert", lambda cards: cards[len(cards) // 2], "en", True),
    ],
    ids=["easy-first-card", "hard-last-card-turkish-aids", "expert-middle-card-aids"],
)
def test_a_deal_links_records_are_the_seeds_whatever_the_player_does(
    client, script, tmp_path, query, pick, language, aids
):
    # The same link against other computers, in another language, with
    # every playing aid on or off, played otherwise: hands 1 and 2 are the
    # decks the seed deals, and the docs' script says so from the
    # downloaded records alone.
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    token = CSRF.search(client.get("/").get_data(as_text=True)).group(1)
    every_aid = dict.fromkeys(store.AIDS, "on") if aids else {}
    assert client.post("/settings", data={"csrf_token": token, **every_aid}).status_code == 303
    home = client.get("/").get_data(as_text=True)
    for aid in store.AIDS:
        assert bool(re.search(rf'name="{aid}"[^>]* checked', home)) == aids, aid
    link = f"/deal/Cuma-akşamı?rules=classic&target=101&{query}"
    assert start_deal(client, link).status_code == 303
    page = play_hand(client, pick)
    assert 'action="/next"' in page
    next_hand(client, page)
    for hand in (1, 2):
        record = client.get(f"/record?hand={hand}").get_json()
        assert record["deck"] == seeded_deck("Cuma-akşamı", get_rules("classic"), hand - 1)
        result = check(script, record, tmp_path)
        assert result.stdout == f"The deck is the one seed 'Cuma-akşamı' deals for hand {hand}.\n"


@pytest.mark.parametrize("name", ["classic", "partners", "three-no-jack", "cardems"])
def test_the_first_dealer_is_drawn_as_the_docs_say(name):
    rules = HOUSE[name]
    n = rules.players
    for number in range(200):
        seed = f"dealer-{number}"
        digest = hashlib.sha256(f"pisti-first-dealer/1|{seed}".encode()).digest()
        r = int.from_bytes(digest[:8], "big") % n if name != "cardems" else 0
        assert Match(rules, seed, 51).dealer == (n - 1 + r) % n
        single = rules.default_target is None
        assert Match(rules, seed).dealer == (n - 1 if single else (n - 1 + r) % n)
