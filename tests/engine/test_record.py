"""Game records, format pisti-record/1 (record-format.md): writing, reading,
the replay summary, and every kind of invalid record."""

import json
import random

import pytest

from app.engine import (
    CARDEMS,
    CLASSIC,
    FULL_DECK,
    PARTNERS,
    GameState,
    InvalidRecord,
    load_record,
    make_record,
    read_record,
    replay_summary,
    seeded_deck,
)

TEAM_KEYS = [
    "team",
    "seats",
    "cards",
    "aces",
    "jacks",
    "two_of_clubs",
    "ten_of_diamonds",
    "most_cards",
    "pisti",
    "jack_pisti",
    "points",
]


def random_state(rules, seed, plays):
    rng = random.Random(seed)
    state = GameState.deal(rules, seeded_deck(seed, rules))
    for _ in range(plays):
        state.play(rng.choice(state.hands[state.turn]))
    return state


def record_text(rules="cardems", deck=None, plays=(), **fields):
    data = {
        "format": "pisti-record/1",
        "rules": rules,
        "deck": list(seeded_deck("rec", CARDEMS) if deck is None else deck),
        "plays": list(plays),
    }
    data.update(fields)
    return json.dumps(data)


# --- writing and reading --------------------------------------------------------


@pytest.mark.parametrize("rules", [CARDEMS, CLASSIC, PARTNERS], ids=lambda r: r.name)
@pytest.mark.parametrize("plays", [0, 1, 17, 47, 48])
def test_make_and_load_round_trip(rules, plays):
    state = random_state(rules, f"rt-{plays}", plays)
    record = make_record(state, f"rt-{plays}")
    assert record == {
        "format": "pisti-record/1",
        "rules": rules.name,
        "seed": f"rt-{plays}",
        "deck": list(state.deck),
        "plays": list(state.plays),
    }
    loaded = load_record(json.dumps(record))
    assert loaded.to_dict() == state.to_dict()
    assert loaded.hands == state.hands
    assert loaded.captured == state.captured
    assert loaded.pile == state.pile
    assert replay_summary(loaded) == replay_summary(state)


def test_record_without_seed_and_with_extra_fields():
    state = random_state(CLASSIC, "extra", 10)
    record = make_record(state, created="2025-01-01T00:00:00Z", players=["Ayşe", "bot"])
    assert "seed" not in record
    assert record["created"] == "2025-01-01T00:00:00Z"
    assert load_record(json.dumps(record, ensure_ascii=False)).to_dict() == state.to_dict()


def test_read_record_keeps_the_other_fields_as_written():
    state = random_state(CLASSIC, "kept", 10)
    record = make_record(state, "kept", players=["Ayşe", "bot"], note={"any": [1, 2]})
    read = read_record(json.dumps(record, ensure_ascii=False))
    assert read.extra == {"seed": "kept", "players": ["Ayşe", "bot"], "note": {"any": [1, 2]}}
    assert read.rules == "classic" and read.version == 1
    assert read_record(json.dumps(make_record(state))).extra == {}


def test_load_accepts_bytes():
    state = random_state(CARDEMS, "bytes", 5)
    assert load_record(json.dumps(make_record(state)).encode()).to_dict() == state.to_dict()


def test_seed_is_informational_and_never_used():
    state = random_state(CARDEMS, "seed-a", 6)
    record = make_record(state, "some-other-seed")
    assert load_record(json.dumps(record)).deck == state.deck


def spell_loosely(card, rng):
    rank = "10" if card[0] == "T" and rng.random() < 0.5 else card[0]
    text = rank + card[1]
    return text.lower() if rng.random() < 0.5 else text


def test_lower_case_and_10_are_accepted_in_deck_and_plays():
    rng = random.Random(7)
    state = random_state(CARDEMS, "loose", 30)
    deck = [spell_loosely(c, rng) for c in state.deck]
    plays = [spell_loosely(c, rng) for c in state.plays]
    assert deck != list(state.deck)
    assert "10d" in deck or "10D" in deck or "td" in deck
    loaded = load_record(record_text(deck=deck, plays=plays))
    assert loaded.to_dict() == state.to_dict()  # canonical codes inside
    assert make_record(loaded)["deck"] == list(state.deck)


@pytest.mark.parametrize("ten", ["10d", "10D", "td", "Td"])
def test_ten_of_diamonds_spellings_in_a_play(ten, stacked_deck):
    deck = stacked_deck(["3D", "4D", "5D", "6D"], [[["TD"]]])
    loaded = load_record(record_text(deck=deck, plays=[ten]))
    assert loaded.plays == ["TD"]
    assert loaded.pile[-1] == "TD"


# --- the replay summary ---------------------------------------------------------


@pytest.mark.parametrize("rules", [CARDEMS, CLASSIC, PARTNERS], ids=lambda r: r.name)
@pytest.mark.parametrize("seed", ["sum-1", "sum-2", "sum-3", "sum-4"])
def test_summary_shape_and_points_formula(rules, seed):
    state = random_state(rules, seed, 48)
    summary = replay_summary(load_record(json.dumps(make_record(state))))
    assert list(summary) == ["rules", "finished", "plays", "teams", "winner"]
    assert summary["rules"] == rules.name
    assert summary["finished"] is True
    assert summary["plays"] == 48
    assert json.loads(json.dumps(summary)) == summary
    teams = summary["teams"]
    assert [list(t) for t in teams] == [TEAM_KEYS, TEAM_KEYS]
    assert [t["team"] for t in teams] == [0, 1]
    assert [t["seats"] for t in teams] == ([[0], [1]] if rules.players == 2 else [[0, 2], [1, 3]])
    for t in teams:
        assert all(type(t[k]) is int for k in TEAM_KEYS if k != "seats")
        assert t["points"] == (
            t["aces"]
            + t["jacks"]
            + 2 * t["two_of_clubs"]
            + 3 * t["ten_of_diamonds"]
            + t["most_cards"]
            + 10 * t["pisti"]
            + 20 * t["jack_pisti"]
        )
    assert sum(t["cards"] for t in teams) == 52
    points = [t["points"] for t in teams]
    if points[0] != points[1]:
        assert summary["winner"] == points.index(max(points))
    assert summary["winner"] in (0, 1, None)


def test_summary_of_a_known_hand(tie_deal):
    # The tie of conftest's tie_deal: 8 points each, team 1 has 27 cards.
    deck, plays = tie_deal
    summary = replay_summary(load_record(record_text(deck=deck, plays=plays)))
    assert summary == {
        "rules": "cardems",
        "finished": True,
        "plays": 48,
        "teams": [
            {
                "team": 0,
                "seats": [0],
                "cards": 25,
                "aces": 4,
                "jacks": 2,
                "two_of_clubs": 1,
                "ten_of_diamonds": 0,
                "most_cards": 0,
                "pisti": 0,
                "jack_pisti": 0,
                "points": 8,
            },
            {
                "team": 1,
                "seats": [1],
                "cards": 27,
                "aces": 0,
                "jacks": 2,
                "two_of_clubs": 0,
                "ten_of_diamonds": 1,
                "most_cards": 3,
                "pisti": 0,
                "jack_pisti": 0,
                "points": 8,
            },
        ],
        "winner": 1,
    }
    classic = replay_summary(load_record(record_text("classic", deck=deck, plays=plays)))
    assert classic["winner"] is None
    assert [t["points"] for t in classic["teams"]] == [8, 8]


@pytest.mark.parametrize("rules", ["cardems", "classic"])
@pytest.mark.parametrize(
    ("centre", "fixed", "n", "cards", "jacks"),
    [
        # seat 1 takes the pile with a Jack at play 21 (26 cards), seat 0 with
        # one at play 24 (3 cards); 1 card lies on the table after 26 plays
        (["JC", "JD", "5D", "6D"], {21: "JH", 24: "JS"}, 26, [3, 26], [1, 3]),
        # seat 0 takes 27 cards at play 22; 13 cards lie on the table
        (["JC", "JD", "JS", "6D"], {22: "JH"}, 36, [27, 0], [4, 0]),
    ],
    ids=["3-26", "27-0"],
)
def test_summary_of_an_unfinished_hand(
    deck_from_plays,
    no_match_plays,
    rules,
    centre,
    fixed,
    n,
    cards,
    jacks,
):
    # Counts so far: nothing is swept and nobody has the most-cards bonus yet.
    plays = no_match_plays(fixed, centre)
    deck = deck_from_plays(centre, plays)
    summary = replay_summary(load_record(record_text(rules, deck=deck, plays=plays[:n])))
    assert summary["finished"] is False
    assert summary["plays"] == n
    assert summary["winner"] is None
    assert [t["cards"] for t in summary["teams"]] == cards
    assert [t["most_cards"] for t in summary["teams"]] == [0, 0]
    assert [t["jacks"] for t in summary["teams"]] == jacks


def test_summary_of_an_empty_record():
    summary = replay_summary(load_record(record_text()))
    assert summary["finished"] is False and summary["plays"] == 0 and summary["winner"] is None
    assert [t["points"] for t in summary["teams"]] == [0, 0]


# --- invalid records ------------------------------------------------------------

DECK = seeded_deck("rec", CARDEMS)
GOOD = json.loads(record_text())


def with_fields(**fields):
    data = dict(GOOD)
    for key, value in fields.items():
        if value is ...:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


FOUR_JACKS = ["JC", "JD", "JH", "JS"] + [c for c in FULL_DECK if c[0] != "J"]
BOTTOM_JACK = [c for c in FULL_DECK if c != "JS"] + ["JS"]


def first_plays(n, rules=CARDEMS, deck=DECK):
    state = GameState.deal(rules, deck)
    for _ in range(n):
        state.play(state.hands[state.turn][0])
    return list(state.plays), state


def other_seats_card(state):
    """A card in the hand of the seat after the one to play."""
    return state.hands[(state.turn + 1) % state.rules.players][0]


PLAYS_3, STATE_3 = first_plays(3)
PLAYS_17, STATE_17 = first_plays(17)

INVALID = [
    pytest.param("{", "JSON", id="bad JSON"),
    pytest.param(
        with_fields(note=0).replace('"note": 0', '"note": ' + "9" * 5000),
        "a number of 5,000 digits: no value of a record is that long",
        id="a number too long",
    ),
    pytest.param("", "JSON", id="empty text"),
    pytest.param("[1, 2]", "object", id="not an object"),
    pytest.param('"pisti"', "object", id="a string"),
    pytest.param(with_fields(format=...), "format", id="no format"),
    pytest.param(with_fields(format="pisti-record/3"), "format", id="unknown format"),
    pytest.param(with_fields(format=1), "format", id="format not a string"),
    pytest.param(with_fields(rules=...), "rules", id="no rules"),
    pytest.param(with_fields(rules="turkish"), "turkish", id="unknown rule set"),
    pytest.param(with_fields(rules="Cardems"), "Cardems", id="rule set is case-sensitive"),
    pytest.param(with_fields(rules=None), "rules is not a rule-set name: null", id="rules null"),
    pytest.param(with_fields(rules=7), "rules is not a rule-set name: 7", id="rules a number"),
    pytest.param(
        with_fields(rules={"base": "classic"}), "house rules need", id="house rules in format 1"
    ),
    pytest.param(record_text().replace('"format"', '"seed": NaN, "format"', 1), "NaN", id="NaN"),
    pytest.param(
        record_text().replace('"format"', '"created": -Infinity, "format"', 1),
        "-Infinity",
        id="-Infinity",
    ),
    pytest.param(
        record_text().replace('"format"', '"created": [Infinity], "format"', 1),
        "Infinity",
        id="Infinity",
    ),
    pytest.param(with_fields(deck=...), "deck", id="no deck"),
    pytest.param(with_fields(deck="7H KD"), "deck", id="deck not a list"),
    pytest.param(with_fields(deck=DECK[:51]), "51", id="51 cards"),
    pytest.param(with_fields(deck=[*DECK, "7H"]), "53", id="53 cards"),
    pytest.param(with_fields(deck=[*DECK[:51], DECK[0]]), DECK[0], id="a card twice"),
    pytest.param(
        with_fields(deck=[*DECK[:51], DECK[0].lower()]),
        DECK[0],
        id="a card twice, spelled differently",
    ),
    pytest.param(with_fields(deck=[*DECK[:10], "XX", *DECK[11:]]), "XX", id="bad card code"),
    pytest.param(with_fields(deck=[*DECK[:10], 7, *DECK[11:]]), "deck[10]", id="card not a string"),
    pytest.param(with_fields(deck=FOUR_JACKS), "four Jacks", id="cardems four centre Jacks"),
    pytest.param(
        with_fields(rules="partners", deck=FOUR_JACKS),
        "four Jacks",
        id="partners four centre Jacks",
    ),
    pytest.param(
        with_fields(rules="partners", deck=BOTTOM_JACK), "deck[51]", id="partners Jack at deck[51]"
    ),
    pytest.param(with_fields(plays=...), "plays", id="no plays"),
    pytest.param(with_fields(plays="7H"), "plays", id="plays not a list"),
    pytest.param(with_fields(plays=["7H"] * 49), "49", id="49 plays"),
    pytest.param(with_fields(plays=[DECK[8]]), "play 0:", id="play 0 from seat 1's hand"),
    pytest.param(
        with_fields(plays=[*PLAYS_3, other_seats_card(STATE_3)]),
        f"play 3: {other_seats_card(STATE_3)} is not in seat 1's hand",
        id="play 3 from seat 0's hand",
    ),
    pytest.param(
        with_fields(plays=[*PLAYS_17, other_seats_card(STATE_17)]),
        "play 17: ",
        id="play 17 from the other hand",
    ),
    pytest.param(
        with_fields(plays=[*PLAYS_3, DECK[51]]), f"play 3: {DECK[51]}", id="play 3 from the stock"
    ),
    pytest.param(
        with_fields(plays=[*PLAYS_3, PLAYS_3[0]]),
        f"play 3: {PLAYS_3[0]}",
        id="play 3 a card already played",
    ),
    pytest.param(with_fields(plays=["ZZ"]), "play 0:", id="play 0 bad code"),
    pytest.param(with_fields(plays=[*PLAYS_3[:2], None]), "play 2:", id="play 2 null"),
]


@pytest.mark.parametrize(("text", "problem"), INVALID)
def test_invalid_records(text, problem):
    with pytest.raises(InvalidRecord) as caught:
        load_record(text)
    message = str(caught.value)
    assert problem in message
    assert message.strip() == message and message
    assert "\n" not in message and "\r" not in message


@pytest.mark.parametrize(
    ("text", "part", "play"),
    [
        ("{", "record", None),
        (with_fields(format="pisti-record/3"), "record", None),
        (with_fields(deck=...), "record", None),
        (with_fields(rules="turkish"), "rules", None),
        (with_fields(deck=DECK[:51]), "deck", None),
        (with_fields(deck=FOUR_JACKS), "deck", None),
        (with_fields(plays="7H"), "plays", None),
        (with_fields(plays=["7H"] * 49), "plays", None),
        (with_fields(plays=[*PLAYS_3, "ZZ"]), "card", 3),
        (with_fields(plays=[*PLAYS_3[:2], None]), "card", 2),
        (with_fields(plays=[*PLAYS_3, DECK[51].lower()]), "hand", 3),
    ],
)
def test_an_invalid_record_says_which_part_is_wrong(text, part, play):
    with pytest.raises(InvalidRecord) as caught:
        load_record(text)
    assert (caught.value.problem, caught.value.play) == (part, play)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,  # unclosed and too deep for the JSON parser
        "[" * 100_000 + "]" * 100_000,  # valid JSON, but not an object
    ],
    ids=["deeply nested, unclosed", "deeply nested array"],
)
def test_deeply_nested_json_is_an_invalid_record(text):
    # record-format.md: any invalid record (bad JSON, not an object...) is
    # reported as one line naming the problem, exit 2 -- never a crash.
    with pytest.raises(InvalidRecord):
        load_record(text)


def test_invalid_record_message_names_the_seat_for_partners():
    deck = seeded_deck("rec4", PARTNERS)
    plays, state = first_plays(6, PARTNERS, deck)
    wrong = state.hands[0][0]  # seat 2 is to play
    with pytest.raises(InvalidRecord, match=rf"^play 6: {wrong} is not in seat 2's hand$"):
        load_record(record_text("partners", deck=deck, plays=[*plays, wrong]))


def test_invalid_bytes_are_an_invalid_record():
    with pytest.raises(InvalidRecord):
        load_record(b"\xff\xfe\xfa{")


@pytest.mark.parametrize(
    "encoded",
    [b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xed\xa0\xbd\xed\xb8\x80"],
    ids=["lone high surrogate", "lone low surrogate", "surrogate pair as two"],
)
def test_a_surrogate_encoded_in_the_bytes_is_not_utf_8(encoded):
    # A surrogate's code point written as UTF-8 bytes is not UTF-8 (Unicode
    # table 3-7), so the file is not JSON text: an invalid record, as a
    # Latin-1 "é" is. The JSON escape "\ud800" is JSON and stays readable.
    text = record_text(seed="a-b").encode()
    with pytest.raises(InvalidRecord, match=r"^bad JSON: 'utf-8' codec can't decode"):
        read_record(text.replace(b"a-b", encoded))
    with pytest.raises(InvalidRecord, match=r"^bad JSON: 'utf-8' codec can't decode"):
        read_record(text.replace(b"a-b", b"\xe9"))
    assert read_record(text.replace(b"a-b", b"\\ud800")).extra["seed"] == "\ud800"
    # The same in UTF-16: a lone surrogate has no UTF-16 either.
    utf_16 = record_text(seed="a-b").replace("a-b", "\ud800").encode("utf-16-le", "surrogatepass")
    with pytest.raises(InvalidRecord, match=r"^bad JSON: 'utf-16"):
        read_record(utf_16)


@pytest.mark.parametrize(
    "encoding", ["utf-8-sig", "utf-16", "utf-16-le", "utf-32"], ids=lambda name: name
)
def test_a_record_in_another_unicode_encoding_is_read(encoding):
    # The JSON reader's own leniency, kept: a byte-order mark (RFC 8259
    # lets a reader ignore it) and UTF-16/32, which Notepad may save.
    text = record_text(seed="şans")
    assert read_record(text.encode(encoding)).extra["seed"] == "şans"
