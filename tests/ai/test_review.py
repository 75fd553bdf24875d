"""The review's estimates: reproducible at a fixed seed, blind to the
hidden cards, a clearly worse card marked a mistake with why, and the
decisions and summary of whole hands in every rule set."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from app.ai import review
from app.ai.counting import count_cards
from app.ai.facts import LAST_ROUNDS
from app.ai.review import (
    KEEP_JACK_CARDS,
    MISTAKE_POINTS,
    Estimate,
    Step,
    Why,
    evaluate,
    explain,
    is_mistake,
    summarize,
    tells_why,
    verdict,
)
from app.engine import (
    CLASSIC,
    FULL_DECK,
    RULE_SETS,
    GameState,
    Observation,
    RuleSet,
    observe,
    seeded_deck,
    with_options,
    would_capture,
)
from app.engine.cards import CARD_POINTS
from app.engine.decisions import decisions

#: The centre (5♣ on top), then seat 0's four cards, then seat 1's.
STACKED = ["2H", "3H", "4H", "5C", "JD", "7S", "KD", "4C", "7H", "9S", "9D", "QC"]


def stacked(rest_seed: int = 0) -> GameState:
    """A classic hand where seat 0 takes the centre with its Jack and seat 1
    then throws the 7♥ on the empty table: seat 0 holds the 7♠, a pişti.
    ``rest_seed`` shuffles the cards nobody has seen yet."""
    rest = [card for card in FULL_DECK if card not in STACKED]
    random.Random(rest_seed).shuffle(rest)
    return GameState.replay(CLASSIC, STACKED + rest, ["JD", "7H"])


def test_estimates_are_reproducible_with_a_fixed_seed():
    observation = observe(stacked(), 0)
    first = evaluate(observation, "KD", seed="fixed")
    assert evaluate(observation, "KD", seed="fixed") == first
    assert evaluate(observation, "KD", seed="another") != first


def test_estimates_do_not_depend_on_the_hidden_cards():
    one, other = stacked(1), stacked(2)
    assert one.deck[len(STACKED) :] != other.deck[len(STACKED) :]
    assert observe(one, 0) == observe(other, 0)
    assert evaluate(observe(one, 0), "KD") == evaluate(observe(other, 0), "KD")


def test_throwing_away_a_pisti_is_a_mistake_and_says_why():
    step = evaluate(observe(stacked(), 0), "KD", number=3)
    assert step.best == "7S"
    assert step.mistake and step.loss > MISTAKE_POINTS
    played = next(estimate for estimate in step.estimates if estimate.card == "KD")
    assert played.loss_low > 0
    facts = {"best": "7S", "played": "KD", "cards": 1, "points": 0, "pisti": True, "jack": False}
    # Worth more than the pişti's 10 points: the lone card left there may
    # go to the other side (a card or two do not make the most cards).
    assert step.why == Why(
        "take_pile", {**facts, "pisti_points": 10, "beyond": "theirs", "bonus": 3}
    )
    assert step.estimates[0].card == "7S"
    assert step.number == 3 and step.play == 2 and step.worlds > 0
    # The estimates are points for the rest of the hand with their interval.
    for estimate in step.estimates:
        assert estimate.low <= estimate.mean <= estimate.high
        assert estimate.loss_low <= estimate.loss <= estimate.loss_high


def test_making_the_pisti_is_no_mistake():
    step = evaluate(observe(stacked(), 0), "7S")
    assert step.best == "7S" and step.loss == 0 and not step.mistake and step.why is None


def test_a_step_survives_its_json_form():
    step = evaluate(observe(stacked(), 0), "KD")
    assert Step.from_dict(step.to_dict()) == step


def test_a_card_not_in_hand_is_refused():
    with pytest.raises(ValueError, match="not in seat 0's hand"):
        evaluate(observe(stacked(), 0), "AS")


def test_a_capture_worth_more_than_its_points_in_sight_says_why():
    # The pişti in sight is 10 points: a loss of 10.5 is the pişti alone,
    # 11.5 more than it: the lone card left may go to the other side.
    position = observe(stacked(), 0)
    assert explain(position, played="KD", best="7S", loss=10.5).facts["beyond"] is None
    why = explain(position, played="KD", best="7S", loss=11.5)
    assert (why.kind, why.facts["beyond"]) == ("take_pile", "theirs")
    # The centre's four cards, taken by the Jack: they count for the most cards.
    rest = [card for card in FULL_DECK if card not in STACKED]
    start = observe(GameState.replay(CLASSIC, STACKED + rest, []), 0)
    why = explain(start, played="KD", best="JD", loss=1.5)
    assert (why.kind, why.facts["beyond"], why.facts["bonus"]) == ("take_pile", "most_cards", 3)
    # No most-cards bonus in the rules: the pile may go to the other side.
    no_bonus = with_options(CLASSIC, {"most_cards_points": 0})
    state = GameState.replay(no_bonus, STACKED + rest, [])
    assert explain(observe(state, 0), played="KD", best="JD", loss=1.5).facts["beyond"] == "theirs"


def _position(accept: Callable[[Observation], bool], rules: RuleSet = CLASSIC) -> Observation:
    """The first position of random hands of ``rules`` (the seat to play's
    observation) that ``accept`` takes."""
    rng = random.Random(7)
    for number in range(200):
        state = GameState.replay(rules, seeded_deck(f"why-{number}", rules), [])
        while state.legal_plays():
            position = observe(state, state.turn)
            if accept(position):
                return position
            state.play(rng.choice(state.legal_plays()))
    raise AssertionError("no such position in 200 hands")


def _takes_by_rank(position: Observation) -> list[str]:
    top = position.pile_top
    return [card for card in position.hand if would_capture(card, top) and card[0] != "J"]


def _leaves(position: Observation) -> list[str]:
    return [card for card in position.hand if not would_capture(card, position.pile_top)]


def _in_time(position: Observation, near: bool) -> bool:
    """In the last :data:`LAST_ROUNDS` rounds (``near``), or in the last deal
    before them."""
    if position.stock:
        return False
    return (position.plays_left <= LAST_ROUNDS * position.rules.players) is near


@pytest.mark.parametrize("near", [True, False])
def test_a_capture_in_the_last_rounds_brings_the_table_left_at_the_end(near):
    position = _position(
        lambda position: (
            _in_time(position, near) and bool(_takes_by_rank(position)) and bool(_leaves(position))
        )
    )
    takes, leaves = _takes_by_rank(position), _leaves(position)
    points = sum(CARD_POINTS[card] for card in position.pile_face_up)
    why = explain(position, played=leaves[0], best=takes[0], loss=points + 0.5)
    assert (why.kind, why.facts["beyond"]) == ("take_pile", None)
    why = explain(position, played=leaves[0], best=takes[0], loss=points + 1.5)
    # Earlier in the last deal, who takes the next piles matters more.
    assert why.kind == "take_pile"
    assert (why.facts["beyond"] == "last_capture") is near


@pytest.mark.parametrize("near", [True, False])
def test_the_last_capture_is_the_reason_only_in_the_last_rounds(near):
    position = _position(
        lambda position: (
            _in_time(position, near) and position.pile_size > 0 and len(_leaves(position)) >= 2
        )
    )
    unseen = count_cards(position).unseen_by_rank
    # Played: the card with fewer of its rank unseen, so that the pile it
    # leaves is no reason (the other card would leave it to more).
    fewer, more = sorted(_leaves(position), key=lambda card: unseen.get(card[0], 0))[:2]
    why = explain(position, played=fewer, best=more, loss=2.0)
    assert (why.kind == "last_capture") is near
    if near:
        ours = position.last_capturer == position.team
        assert (why.facts["sides"], why.facts["ours"]) == (2, ours)


def test_a_jack_spent_on_a_poor_pile_is_worth_keeping():
    rest = [card for card in FULL_DECK if card not in STACKED]
    start = observe(GameState.replay(CLASSIC, STACKED + rest, []), 0)
    why = explain(start, played="JD", best="4C", loss=3.0)
    assert why == Why(
        "keep_jack", {"best": "4C", "played": "JD", "cards": 4, "points": 0, "jacks": 3}
    )


def test_a_jack_spent_on_a_big_pile_is_no_waste():
    def big_pile_and_a_jack(position: Observation) -> bool:
        pile_points = sum(CARD_POINTS[card] for card in position.pile_face_up)
        big = position.pile_size > KEEP_JACK_CARDS or pile_points > 1
        return big and any(card[0] == "J" for card in position.hand) and bool(_leaves(position))

    position = _position(big_pile_and_a_jack)
    jack = next(card for card in position.hand if card[0] == "J")
    why = explain(position, played=jack, best=_leaves(position)[0], loss=1.0)
    assert why.kind == "average"


def test_a_same_rank_capture_that_keeps_the_jack_banks_its_own_points():
    # The pile's top is the 10♥: the 10♦ takes it as the Jack does.
    deck = ["2H", "3H", "4H", "TH", "JS", "TD", "7C", "7H"]
    deck += [card for card in FULL_DECK if card not in deck]
    position = observe(GameState.replay(CLASSIC, deck, []), 0)
    why = explain(position, played="JS", best="TD", loss=5.0)
    assert why == Why("same_pile_keep_jack", {"best": "TD", "played": "JS", "points": 3})


def test_a_missed_jack_pisti_is_named_with_its_points():
    # Seat 1 throws the J♥ onto the empty table; seat 0 holds the J♦.
    deck = ["2H", "3H", "4H", "5C", "JS", "JD", "AS", "QS", "JH", "8D", "9D", "KC"]
    deck += [card for card in FULL_DECK if card not in deck]
    state = GameState.replay(CLASSIC, deck, ["JS", "JH"])
    position = observe(state, 0)
    assert position.pile_face_up == ("JH",)
    why = explain(position, played="AS", best="JD", loss=18.0)
    assert why.kind == "take_pile"
    assert (why.facts["pisti"], why.facts["jack"], why.facts["pisti_points"]) == (True, True, 20)
    house = with_options(CLASSIC, {"jack_pisti": 10})
    position = observe(GameState.replay(house, deck, ["JS", "JH"]), 0)
    assert explain(position, played="AS", best="JD", loss=9.0).facts["pisti_points"] == 10


def test_a_jack_led_onto_an_empty_table_offers_a_jack_pisti():
    # Seat 0 takes the centre with the J♠; seat 1, on the empty table,
    # holds the J♦ and two 6s. Two Jacks and two 6s are unseen alike, but a
    # lone Jack is a Jack pişti (20) for the next Jack, a 6 a pişti (10).
    deck = ["2H", "3H", "4H", "5C", "JS", "7S", "8C", "KC", "JD", "6S", "6H", "9D"]
    deck += [card for card in FULL_DECK if card not in deck]
    position = observe(GameState.replay(CLASSIC, deck, ["JS"]), 1)
    assert position.pile_size == 0
    why = explain(position, played="JD", best="6S", loss=5.0)
    facts = {"best": "6S", "played": "JD", "unseen": 2, "best_unseen": 2, "jack": True}
    assert why == Why("gives_pisti", {**facts, "pisti_points": 20, "best_pisti_points": 10})


def test_a_lone_card_on_an_empty_table_counts_the_unseen_cards_of_its_rank():
    # Seat 1 faces an empty table after the Jack took the centre.
    rest = [card for card in FULL_DECK if card not in STACKED]
    after_jack = observe(GameState.replay(CLASSIC, STACKED + rest, ["JD"]), 1)
    why = explain(after_jack, played="QC", best="9S", loss=2.5)
    # Seat 1 holds the 9♠ and 9♦ and sees no other 9 or Queen: two 9s are
    # unseen, and three Queens.
    facts = {"best": "9S", "played": "QC", "unseen": 3, "best_unseen": 2, "jack": False}
    assert why == Why("gives_pisti", {**facts, "pisti_points": 10, "best_pisti_points": 10})
    # The other way round nothing simple stands out.
    assert explain(after_jack, played="9S", best="QC", loss=0.7).kind == "average"


RULES = [
    *RULE_SETS.values(),
    with_options(RULE_SETS["classic"], {"players": 3, "jack_pisti": 10}),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: rules.label)
def test_every_rule_set_has_its_decisions_and_summary(rules):
    state = GameState.deal(rules, seeded_deck("review-rules", rules))
    rng = random.Random(5)
    while not state.finished:
        state.play(rng.choice(state.hands[state.turn]))
    found = decisions(state, 0)
    plays_of_seat_0 = 48 // rules.players
    # Each deal's last card is forced; every other play is a decision.
    assert len(found) == plays_of_seat_0 - rules.deals
    assert all(decision.observation.seat == 0 for decision in found)
    assert [decision.played for decision in found] == [
        state.plays[decision.play] for decision in found
    ]
    steps = [
        evaluate(decision.observation, decision.played, number)
        for number, decision in enumerate(found[-3:], start=1)
    ]
    summary = summarize(steps)
    assert summary.losses == tuple(step.loss for step in steps)
    # The total is the sum of the losses as the page shows them.
    assert summary.total == pytest.approx(sum(round(loss, 1) for loss in summary.losses))
    assert summary.mistakes == sum(step.mistake for step in steps)
    assert (
        list(summary.costliest)
        == sorted(
            (step.number for step in steps if verdict(step) != "good"),
            key=lambda number: -steps[number - 1].loss,
        )[:3]
    )


def test_a_seat_outside_the_game_is_refused():
    with pytest.raises(ValueError, match="seat 2"):
        decisions(stacked(), 2)


def test_the_summarys_total_adds_the_losses_as_shown():
    step = evaluate(observe(stacked(), 0), "KD")
    steps = [Step(**{**step.__dict__, "number": number, "loss": 0.26}) for number in (1, 2, 3)]
    # Each is shown as 0.3: the total shown beside them is 0.9, not 0.8.
    assert summarize(steps).total == 0.9


@pytest.mark.parametrize(("spread", "told"), [(0.0, True), (5.0, False)])
def test_a_loss_within_the_noise_gets_no_why(monkeypatch, spread, told):
    # The K♦ scores 0.8 points less than the 7♠ on average; with a spread
    # of 5 points over 40 worlds that is within the noise: no why.
    position = observe(stacked(), 0)

    def values(observation, rng, worlds):
        noise = [spread * (-1) ** world for world in range(40)]
        return {
            card: [(1.0 if card == "7S" else 0.2) + (n if card == "KD" else 0) for n in noise]
            for card in observation.hand
        }

    monkeypatch.setattr(review, "card_values", values)
    step = evaluate(position, "KD")
    assert step.best == "7S" and step.loss == 0.8 and not step.mistake
    assert (step.why is not None) is told


def test_a_jack_tied_with_another_card_is_not_named_the_best(monkeypatch):
    """Seat 0 holds the J♦, 7♠, K♦ and 4♣ and plays the 4♣; the worlds
    score the other three alike (an exact search often does). The best was
    the first of them in the worlds' order, the Jack: its page then ringed
    the Jack as the card to play, and the why named it ("for Jack of spades
    that count is 0"), where the 7♠ does as well and keeps the Jack."""
    rest = [card for card in FULL_DECK if card not in STACKED]
    position = observe(GameState.replay(CLASSIC, STACKED + rest, []), 0)
    assert "JD" in position.hand

    def values(observation, rng, worlds):
        jack_first = sorted(observation.hand, key=lambda card: card[0] != "J")
        return {card: [0.0 if card == "4C" else 3.0] * 60 for card in jack_first}

    monkeypatch.setattr(review, "card_values", values)
    step = evaluate(position, "4C")
    assert (step.best, step.loss, step.mistake) == ("7S", 3.0, True)
    assert step.why is not None and step.why.facts["best"] == "7S"


@pytest.mark.parametrize(("loss", "told"), [(0.44, False), (0.46, True), (0.5, True), (0.0, False)])
def test_a_loss_gets_its_why_as_the_page_shows_it(loss, told):
    # The page shows a loss to one decimal: one shown as 0.5 is never
    # called a good play with "no card was better by half a point".
    assert tells_why(loss) is told


def test_a_lone_ten_of_diamonds_is_told_by_its_own_points_when_the_counts_are_even():
    # Seat 1 leads on the empty table holding the 10♦ and the A♥: three 10s
    # and three Aces unseen. The pişti offered is the same; the 10♦'s own
    # 3 points are the difference.
    deck = ["2H", "3H", "4H", "5C", "JS", "7S", "8C", "KC", "TD", "AH", "6H", "9D"]
    deck += [card for card in FULL_DECK if card not in deck]
    position = observe(GameState.replay(CLASSIC, deck, ["JS"]), 1)
    why = explain(position, played="TD", best="AH", loss=1.5)
    assert why == Why("card_points", {"best": "AH", "played": "TD", "points": 3, "best_points": 1})


#: Classic: the centre (5♣ on top), seat 0's first four cards, seat 1's,
#: then the rest of the deck in order. Seat 1 plays its three Jacks one by
#: one: seat 0 then knows where every Jack is but its own.
JACKS_SEEN = ["2H", "3H", "4H", "5C", "5D", "9C", "KD", "2S", "JH", "JS", "JC", "2C"]


def test_a_jack_led_onto_the_empty_table_is_told_it_took_nothing():
    """Seat 0 leads the J♦ onto the empty table, no other Jack unseen: the
    reason was "it carries card points itself, left where the next player
    may take them", yet nobody could take a lone Jack but with a Jack. A
    Jack on the empty table takes nothing: kept, it takes a pile later."""
    deck = [*JACKS_SEEN, "JD", "7S", "6H", "QH"]
    deck += [card for card in FULL_DECK if card not in deck]
    plays = ["5D", "JH", "9C", "JS", "KD", "JC", "2S", "2C"]
    position = observe(GameState.replay(CLASSIC, deck, plays), 0)
    assert (position.hand, position.pile_size) == (("JD", "7S", "6H", "QH"), 0)
    assert "J" not in count_cards(position).unseen_by_rank
    why = explain(position, played="JD", best="7S", loss=3.0)
    assert why == Why("jack_on_empty", {"best": "7S", "played": "JD"})


def test_a_card_nobody_unseen_could_take_is_not_told_by_its_own_points():
    """Seat 0 holds the four 10s, every Jack seen: the 10♦ left on the
    pile cannot be taken by the next player (no 10 or Jack is unseen), so
    its 3 points are no reason (it was "left where the next player may
    take them")."""
    deck = ["2H", "3H", "4H", "5C", "5D", "9C", "KD", "JD", "JH", "JS", "JC", "2C"]
    deck += ["TD", "TH", "TS", "TC"]
    deck += [card for card in FULL_DECK if card not in deck]
    plays = ["5D", "JH", "9C", "JS", "KD", "JC", "JD", "2C"]
    position = observe(GameState.replay(CLASSIC, deck, plays), 0)
    assert position.pile_face_up == ("JD", "2C")
    why = explain(position, played="TD", best="TC", loss=3.0)
    assert why == Why("average", {"best": "TC", "played": "TD", "loss": 3.0})


@pytest.mark.parametrize(
    ("loss", "low", "mistake"),
    [
        (2.04, 0.9, False),
        (2.0, 0.9, False),
        (2.06, 0.9, True),
        (3.5, 0.01, True),
        (3.5, -0.2, False),
    ],
)
def test_a_mistake_is_a_loss_past_two_points_as_the_page_shows_it(loss, low, mistake):
    """Judged on the loss the page shows, to one decimal: a 2.0 beside a
    "Mistake" at 2.1 and not beside a "not a mistake" (it was, at 2.04)."""
    assert is_mistake(loss, low) is mistake


def _alike(hand: tuple[str, ...]) -> list[tuple[str, str]]:
    """Pairs of cards of ``hand`` the game cannot tell apart: one rank,
    the same card points."""
    return [
        (a, b)
        for index, a in enumerate(hand)
        for b in hand[index + 1 :]
        if a[0] == b[0] and CARD_POINTS[a] == CARD_POINTS[b]
    ]


def test_cards_the_game_cannot_tell_apart_get_the_same_estimate():
    """Two cards of one rank worth the same points (3♦ and 3♥) capture and
    score alike: neither is better, and the review must not call one
    clearly better (the playouts' own choices set them apart by up to 1.5
    points, a 'clear difference' with a why between equal cards)."""
    positions = 0
    for number in range(12):
        state = GameState.replay(CLASSIC, seeded_deck(f"alike-{number}", CLASSIC), [])
        rng = random.Random(number)
        while state.legal_plays():
            position = observe(state, state.turn)
            pairs = _alike(position.hand)
            if pairs and position.stock:
                step = evaluate(position, pairs[0][0])
                by_card = {estimate.card: estimate for estimate in step.estimates}
                for a, b in pairs:
                    assert (by_card[a].mean, by_card[a].low, by_card[a].high) == (
                        by_card[b].mean,
                        by_card[b].low,
                        by_card[b].high,
                    )
                    assert by_card[a].loss == by_card[b].loss
                positions += 1
                break
            state.play(rng.choice(state.legal_plays()))
    assert positions >= 6


def test_a_play_its_page_calls_good_is_not_among_the_costliest_moves():
    """A step page calls a loss under half a point a good play ("No card
    was better by half a point or more"): the summary listed it among the
    three costliest moves all the same, as "0.3 points lost"."""
    step = evaluate(observe(stacked(), 0), "KD")
    played = next(estimate for estimate in step.estimates if estimate.card == "KD")

    def with_loss(number: int, loss: float, low: float, high: float) -> Step:
        mine = Estimate(**{**played.__dict__, "loss": loss, "loss_low": low, "loss_high": high})
        rows = tuple(mine if row.card == "KD" else row for row in step.estimates)
        changed = {"number": number, "estimates": rows, "loss": loss, "mistake": False}
        return Step(**{**step.__dict__, **changed})

    small = with_loss(1, 0.3, 0.1, 0.5 - 0.01)  # clear of zero, under half a point
    noisy = with_loss(2, 0.8, -0.2, 1.8)  # within the noise: "no card clearly better"
    clear = with_loss(3, 1.2, 0.6, 1.8)
    none = with_loss(4, 0.0, 0.0, 0.0)
    assert verdict(small) == "good"
    summary = summarize([small, noisy, clear, none])
    assert summary.costliest == (3, 2)
    assert summarize([small, none]).costliest == ()


def test_the_last_capture_is_not_said_to_be_the_other_sides_when_nobody_made_one():
    """A classic hand with the four Jacks face down in the centre and no
    rank matched all hand (a record written by hand): in its last rounds
    the reason said 'the other side made it' (the last capture), and
    nobody had captured."""
    rng = random.Random(6)
    for _attempt in range(1000):
        rest = [card for card in FULL_DECK if card[0] != "J"]
        rng.shuffle(rest)
        state = GameState.deal(CLASSIC, ["JC", "JD", "JH", "JS", *rest])
        while not state.finished:
            top = state.pile_top
            fits = [card for card in state.hands[state.turn] if top is None or card[0] != top[0]]
            if not fits:
                break
            state.play(rng.choice(fits))
        if state.finished and state.last_capturer is None:
            break
    else:
        raise AssertionError("no such hand in 1000 tries")
    told = []
    for decision in decisions(state, 0):
        position = decision.observation
        for best in position.hand:
            why = explain(position, decision.played, best, 1.0)
            if best != decision.played and why.kind == "last_capture":
                told.append(why)
    assert told
    for why in told:
        assert why.facts["nobody"] and not why.facts["ours"]
