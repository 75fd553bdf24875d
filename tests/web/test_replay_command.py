"""``flask --app app replay FILE`` as shared/spec/record-format.md says."""

from __future__ import annotations

import json

import pytest

from app.engine import CARDEMS, CLASSIC, PARTNERS, GameState, score_hand, seeded_deck


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
    for team in out["teams"]:
        assert team["points"] == (
            team["aces"]
            + team["jacks"]
            + 2 * team["two_of_clubs"]
            + 3 * team["ten_of_diamonds"]
            + team["most_cards"]
            + 10 * team["pisti"]
            + 20 * team["jack_pisti"]
        )


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
    ({k: v for k, v in GOOD.items() if k != "deck"}, "missing field 'deck'"),
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


def test_missing_file_exits_2(runner, tmp_path):
    result = runner.invoke(args=["replay", str(tmp_path / "nope.json")])
    assert result.exit_code == 2 and result.stdout == "" and "cannot read" in result.stderr
