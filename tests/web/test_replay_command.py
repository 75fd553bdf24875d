"""``flask --app app replay FILE`` as docs/record-format.md says."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.engine import (
    CARDEMS,
    CLASSIC,
    PARTNERS,
    GameState,
    get_rules,
    make_record,
    score_hand,
    seeded_deck,
    with_options,
)
from tests.conftest import points_from_fields


def write(tmp_path, data) -> str:
    path = tmp_path / "record.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def finished_record(rules, seed="replay"):
    deck = seeded_deck(seed, rules)
    state = GameState(rules, deck)
    while not state.finished:
        state.play(sorted(state.hands[state.turn])[0])
    return {
        "format": "pisti-record/1",
        "rules": rules.name,
        "deck": deck,
        "plays": state.plays,
    }, state


@pytest.mark.parametrize("rules", [CARDEMS, CLASSIC, PARTNERS])
def test_replay_prints_the_score(runner, tmp_path, rules):
    record, state = finished_record(rules)
    result = runner.invoke(args=["replay", write(tmp_path, record)])
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert list(out) == ["rules", "finished", "plays", "teams", "winner"]
    assert out["rules"] == rules.name and out["finished"] is True and out["plays"] == 48
    assert [team["points"] for team in out["teams"]] == [s.points for s in score_hand(state)]
    assert sum(team["cards"] for team in out["teams"]) == 52
    assert out["teams"][0]["seats"] == ([0] if rules.players == 2 else [0, 2])
    assert [team["points"] for team in out["teams"]] == [
        points_from_fields(team) for team in out["teams"]
    ]


def test_replay_reads_standard_input(runner):
    record, _ = finished_record(CARDEMS)
    record["plays"] = record["plays"][:10]
    record["deck"] = [card.lower().replace("t", "10") for card in record["deck"]]
    result = runner.invoke(args=["replay", "-"], input=json.dumps(record))
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["finished"] is False and out["plays"] == 10 and out["winner"] is None
    assert all(team["most_cards"] == 0 for team in out["teams"])


def deck_with(cards_at: dict[int, str]) -> list[str]:
    deck = [c for c in seeded_deck("base", CARDEMS) if c not in cards_at.values()]
    for index in sorted(cards_at):
        deck.insert(index, cards_at[index])
    return deck


GOOD = finished_record(CARDEMS)[0]
INVALID = [
    ("{not json", "bad JSON"),
    ("[1, 2]", "not a JSON object"),
    ({**GOOD, "format": "pisti-record/3"}, "unknown format"),
    ({k: v for k, v in GOOD.items() if k != "deck"}, 'missing field "deck"'),
    ({**GOOD, "rules": "tavla"}, "unknown rule set"),
    ({**GOOD, "deck": GOOD["deck"][:51]}, "51 cards, not 52"),
    ({**GOOD, "deck": [*GOOD["deck"][:51], GOOD["deck"][0]]}, "appears twice"),
    ({**GOOD, "deck": ["ZZ", *GOOD["deck"][1:]]}, "is not a card code"),
    ({**GOOD, "plays": GOOD["plays"] + ["7H"]}, "49 plays"),
    ({**GOOD, "deck": deck_with({0: "JC", 1: "JD", 2: "JH", 3: "JS"})}, "four Jacks"),
    ({**GOOD, "rules": "partners", "deck": deck_with({51: "JC"}), "plays": []}, "bottom"),
    ({**GOOD, "plays": [*GOOD["plays"][:17], GOOD["plays"][18]]}, "play 17:"),
    ({**GOOD, "plays": ["XX"]}, "play 0:"),
    ({**GOOD, "plays": "7H"}, "plays is not a list"),
]


@pytest.mark.parametrize("data,problem", INVALID)
def test_invalid_record_exits_2_with_one_line(runner, tmp_path, data, problem):
    result = runner.invoke(args=["replay", write(tmp_path, data)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert problem in result.stderr


def test_a_file_that_is_not_utf_8_exits_2_with_one_line(runner, tmp_path):
    # A surrogate written as UTF-8 bytes is not UTF-8: bad JSON, as a
    # Latin-1 byte is, never read as a seed with a lone surrogate in it.
    path = tmp_path / "record.json"
    path.write_bytes(json.dumps({**GOOD, "seed": "a-b"}).encode().replace(b"a-b", b"\xed\xa0\x80"))
    result = runner.invoke(args=["replay", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "bad JSON: 'utf-8' codec" in result.stderr


def test_missing_file_exits_2(runner, tmp_path):
    result = runner.invoke(args=["replay", str(tmp_path / "nope.json")])
    assert result.exit_code == 2 and result.stdout == "" and "cannot read" in result.stderr


# --- format 1 unchanged, format 2 (house rules) ------------------------------------------

#: Replay output of format-1 records, printed by the engine before house
#: rules existed (each seat plays its highest card code, in sorted order).
GOLDEN = {
    ("cardems", "golden-a"): (
        '{"rules": "cardems", "finished": true, "plays": 48, "teams": [{"team": 0, "seats": [0], '
        '"cards": 42, "aces": 3, "jacks": 3, "two_of_clubs": 1, "ten_of_diamonds": 1, '
        '"most_cards": 3, "pisti": 0, "jack_pisti": 0, "points": 14}, {"team": 1, "seats": [1], '
        '"cards": 10, "aces": 1, "jacks": 1, "two_of_clubs": 0, "ten_of_diamonds": 0, '
        '"most_cards": 0, "pisti": 0, "jack_pisti": 0, "points": 2}], "winner": 0}'
    ),
    ("classic", "golden-b"): (
        '{"rules": "classic", "finished": true, "plays": 48, "teams": [{"team": 0, "seats": [0], '
        '"cards": 15, "aces": 1, "jacks": 2, "two_of_clubs": 0, "ten_of_diamonds": 0, '
        '"most_cards": 0, "pisti": 0, "jack_pisti": 0, "points": 3}, {"team": 1, "seats": [1], '
        '"cards": 37, "aces": 3, "jacks": 2, "two_of_clubs": 1, "ten_of_diamonds": 1, '
        '"most_cards": 3, "pisti": 3, "jack_pisti": 0, "points": 43}], "winner": 1}'
    ),
    ("partners", "golden-c"): (
        '{"rules": "partners", "finished": true, "plays": 48, "teams": [{"team": 0, '
        '"seats": [0, 2], "cards": 30, "aces": 3, "jacks": 4, "two_of_clubs": 0, '
        '"ten_of_diamonds": 0, "most_cards": 3, "pisti": 1, "jack_pisti": 1, "points": 40}, '
        '{"team": 1, "seats": [1, 3], "cards": 22, "aces": 1, "jacks": 0, "two_of_clubs": 1, '
        '"ten_of_diamonds": 1, "most_cards": 0, "pisti": 0, "jack_pisti": 0, "points": 6}], '
        '"winner": 0}'
    ),
}


@pytest.mark.parametrize(("name", "seed"), list(GOLDEN))
def test_format_1_records_replay_as_before(runner, tmp_path, name, seed):
    rules = get_rules(name)
    state = GameState(rules, seeded_deck(seed, rules))
    while not state.finished:
        state.play(sorted(state.hands[state.turn])[-1])
    record = make_record(state, seed)
    assert record["format"] == "pisti-record/1"
    result = runner.invoke(args=["replay", write(tmp_path, record)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == GOLDEN[name, seed] + "\n"


HOUSE = {"base": "classic", "players": 3, "jack_pisti": 10, "last_sweep_bonus": 3}


def test_format_2_record_replays_with_one_team_per_seat(runner, tmp_path):
    rules = with_options(CLASSIC, {"players": 3, "jack_pisti": 10, "last_sweep_bonus": 3})
    deck = seeded_deck("house", rules)
    state = GameState(rules, deck)
    while not state.finished:
        state.play(sorted(state.hands[state.turn])[0])
    record = {"format": "pisti-record/2", "rules": HOUSE, "deck": deck, "plays": state.plays}
    result = runner.invoke(args=["replay", write(tmp_path, record)])
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["rules"] == HOUSE
    assert [team["seats"] for team in out["teams"]] == [[0], [1], [2]]
    assert [team["points"] for team in out["teams"]] == [s.points for s in score_hand(state)]
    assert sum(team["cards"] for team in out["teams"]) == 52
    assert sum(team["last_sweep_bonus"] for team in out["teams"]) in (0, 3)
    for team in out["teams"]:
        assert team["points"] == (
            team["aces"]
            + team["jacks"]
            + 2 * team["two_of_clubs"]
            + 3 * team["ten_of_diamonds"]
            + team["most_cards"]
            + team["last_sweep_bonus"]
            + 10 * team["pisti"]
            + 10 * team["jack_pisti"]
        )


@pytest.mark.parametrize(
    "rules",
    [
        {"base": "classic", "pisti": 10},
        {"base": "classic"},
        {"pisti": 10, "base": "cardems", "tie_break": "cards"},
    ],
)
def test_format_2_output_echoes_the_rules_as_the_record_writes_them(runner, tmp_path, rules):
    record = {**GOOD, "format": "pisti-record/2", "rules": rules}
    result = runner.invoke(args=["replay", write(tmp_path, record)])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["rules"] == rules
    assert result.stdout.startswith('{"rules": ' + json.dumps(rules) + ", ")


def test_format_2_with_a_plain_name_means_format_1(runner, tmp_path):
    record = {**GOOD, "format": "pisti-record/2"}
    two = runner.invoke(args=["replay", write(tmp_path, record)])
    one = runner.invoke(args=["replay", write(tmp_path, GOOD)])
    assert two.exit_code == one.exit_code == 0
    out_two, out_one = json.loads(two.stdout), json.loads(one.stdout)
    assert [team.pop("last_sweep_bonus") for team in out_two["teams"]] == [0, 0]
    assert out_two == out_one


GOOD_2 = {**GOOD, "format": "pisti-record/2"}
INVALID_OPTIONS = [
    ({**GOOD_2, "rules": {"base": "cardems", "jokers": 2}}, 'unknown option "jokers"'),
    ({**GOOD_2, "rules": {"base": "cardems", "pisti": "10"}}, 'pisti: "10" is not'),
    ({**GOOD_2, "rules": {"base": "cardems", "pisti_on_last_play": 1}}, "pisti_on_last_play"),
    ({**GOOD_2, "rules": {"base": "classic", "players": 3, "most_cards": 27}}, "most_cards: 27"),
    ({**GOOD_2, "rules": {"base": "classic", "teams": "partners"}}, "teams"),
    ({**GOOD_2, "rules": {"base": "classic", "players": 2.0}}, "players"),
    ({**GOOD_2, "rules": {"base": "classic", "opening_jack": None}}, "opening_jack: null is not"),
    # Values as the record writes them, not in Python's spelling.
    ({**GOOD_2, "rules": {"base": "classic", "four_jacks": True}}, "four_jacks: true is not"),
    ({**GOOD_2, "rules": {"players": 3}}, "base"),
    ({**GOOD, "rules": {"base": "cardems"}}, "pisti-record/2"),
]


@pytest.mark.parametrize("data,problem", INVALID_OPTIONS)
def test_invalid_options_exit_2_with_one_line(runner, tmp_path, data, problem):
    result = runner.invoke(args=["replay", write(tmp_path, data)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert problem in result.stderr


def test_replay_needs_no_store(tmp_path):
    # A replay opens no database and makes no session folder: with the
    # configured database down it still prints the score and exits 0.
    record, state = finished_record(CLASSIC)
    env = {
        **os.environ,
        "FLASK_DATABASE_URL": "postgresql://pisti:secret@127.0.0.1:1/pisti",
        "FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions"),
    }
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "app", "replay", write(tmp_path, record)],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")
    out = json.loads(done.stdout)
    assert [team["points"] for team in out["teams"]] == [s.points for s in score_hand(state)]
    assert not (tmp_path / "sessions").exists()
