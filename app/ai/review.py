"""Review of a hand, move by move: the Expert's estimate of every card a
seat could have played (a house choice: no seed has a review; it goes on
from seed 001's (CetinsGame guide) hints and strategy tips, after the hand).

For each decision of one seat in a finished (or unfinished) hand
(:func:`app.engine.decisions.decisions`), the review takes the
:class:`~app.engine.Observation` the seat had then (never the state), deals
the cards it could not see into a fixed number of sampled worlds with a
fixed seed (:func:`app.ai.expert.card_values`: the Expert's playouts, or its
exact solver in the last deal), and gives every card in hand its expected
points **for the rest of the hand**: the seat's side's points minus the
other side's (with three or more sides, minus the others' mean; the
Expert's :func:`~app.ai.expert.margin`) won from this play to the end of
the hand, the most-cards and last-sweep bonuses included, with a 95%
interval. Every card is tried in the same worlds, so the loss of a card
against the best one is a paired difference with its own, narrower
interval. A play is a **mistake** when that loss is more than
:data:`MISTAKE_POINTS` and its 95% interval is clear of zero.

One sentence says why, from facts of the position the seat could see
(:class:`Why`): the pile's size and points, the cards of a rank still
unseen, a Jack worth keeping, the last capture taking the table. The
rules of capture and scoring the facts use are those of the rule set
(``docs/rules.md``; seeds 000, 001, 003).

Standard library only, no Flask: the web shows it (:mod:`app.web.review`).
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass, field
from typing import Any

from app.engine import Observation, would_capture
from app.engine.cards import CARD_POINTS

from .counting import count_cards
from .expert import EXACT_LINES, card_values, margin
from .facts import (
    makes_pisti,
    near_the_end,
    pisti_offered,
    play_number,
    points_in_sight,
)

#: Sampled worlds per decision while the stock lasts (batched playouts).
WORLDS = 1000
#: Sampled worlds per decision in the last deal, where each world is solved
#: exactly (costlier, and less uncertain: fewer cards are hidden); fewer
#: with three or more sides, whose exact search (max-n) cannot prune.
EXACT_WORLDS = 60
EXACT_WORLDS_MANY_SIDES = 30
#: The seed every estimate starts from (with the play's number): the same
#: position always gets the same estimates.
SEED = "review/1"
#: The version of the estimates: raised whenever a change here (or in what
#: they rest on: the Expert's playouts, the batched engine) changes any
#: step's figures, verdict or reason. A review kept with another version
#: is evaluated again (:func:`app.db.reviews.find_review`), so a server
#: upgraded never shows stored steps beside steps of the new estimates.
#: 1: the estimates of December 2026 (cards alike get one estimate).
#: 2: a Jack led onto the empty table is told as such (``jack_on_empty``);
#: a card nobody unseen could take is not told by its own points; a card
#: tied with a Jack is named the best rather than the Jack.
ESTIMATES = 2
#: A play is a mistake when it loses more than this many points (rest of
#: the hand) against the best card, as the page shows it, to one decimal
#: (a loss shown as 2.0 is not one, 2.1 is), its 95% interval clear of zero.
MISTAKE_POINTS = 2.0
#: A sentence of why is given when the card played loses at least this
#: many points against the best, rounded to one decimal as the page shows
#: it (less is within the noise of the worlds).
WHY_POINTS = 0.5
#: When taking the pile was worth at least this many points more than
#: the card points and pişti in sight, the sentence names where the rest
#: comes from: the cards counted for the most cards, or in the last deal
#: the cards left on the table going to the last capture.
BEYOND_POINTS = 1.0
#: A Jack "took only" its pile, and was worth keeping for a bigger one,
#: when the pile had at most this many cards and card points in sight
#: (seed 001: "do not waste a jack on a two-card pile"); a bigger pile is
#: no waste of a Jack, whatever the estimates' small differences.
KEEP_JACK_CARDS = 4
KEEP_JACK_POINTS = 1
#: Only a pile of at least this many cards is said to count for the most
#: cards: a card or two hardly moves who gets the most.
MOST_CARDS_PILE = 4
#: Half-width of a 95% interval, in standard errors (normal approximation).
Z95 = 1.96

#: The kinds of :class:`Why`, in the order they are tried.
WHY_KINDS = (
    "take_pile",
    "same_pile_keep_jack",
    "keep_jack",
    "gives_pisti",
    "jack_on_empty",
    "gives_pile",
    "last_capture",
    "card_points",
    "average",
)


@dataclass(frozen=True)
class Estimate:
    """The Expert's estimate of one card, in points for the rest of the hand.

    Attributes:
        card: the card code.
        mean: expected points, the seat's side minus the others, from this
            play to the end of the hand.
        low, high: its 95% interval.
        loss: the best card's mean minus this one's (0 for the best).
        loss_low, loss_high: the 95% interval of that loss (paired over the
            same worlds).
    """

    card: str
    mean: float
    low: float
    high: float
    loss: float
    loss_low: float
    loss_high: float


@dataclass(frozen=True)
class Why:
    """Why the best card beats the one played, as facts for one sentence.

    ``kind`` is one of :data:`WHY_KINDS`; ``facts`` holds what its sentence
    names (cards as codes, counts and points as integers):

    - ``take_pile``: ``best`` takes the pile (``cards`` cards, ``points``
      points seen, ``pisti`` whether it is a pişti, ``jack`` whether a
      Jack pişti, worth ``pisti_points``); ``played`` left it.
      ``beyond`` (or ``None``) says where the capture's worth past those
      points comes from: ``"most_cards"``, worth
      ``bonus`` points; ``"last_capture"``, the table left at the end;
      ``"theirs"``, the pile left to the other side (see :func:`_beyond`).
    - ``same_pile_keep_jack``: ``best`` takes the same pile as the Jack
      ``played`` did, and keeps the Jack; ``points``: ``best``'s own card
      points, which it banks.
    - ``keep_jack``: the Jack ``played`` took only ``cards`` cards worth
      ``points``; ``jacks`` Jacks were unseen.
    - ``gives_pisti``: on an empty table, ``played`` offers a pişti worth
      ``pisti_points`` to the ``unseen`` cards that would make it (Jacks,
      for a Jack: ``jack``), more points at risk with its own card points
      than ``best`` (``best_unseen`` cards, ``best_pisti_points``).
    - ``jack_on_empty``: the Jack ``played`` on the empty table took
      nothing; ``best`` kept it, to take a pile later (no unseen Jack to
      make a Jack pişti of it, or too few to tell: ``gives_pisti`` first).
    - ``gives_pile``: ``played`` left a pile of ``cards`` cards worth
      ``points`` to the ``unseen`` hidden cards of its rank (``best``:
      ``best_unseen``).
    - ``last_capture``: in the last rounds the table goes to the last
      capture; ``best`` keeps the better chance of it (``plays_left``
      plays left, ``ours`` whether the seat's side captured last,
      ``nobody`` whether nobody has captured yet, ``sides`` how many
      sides play).
    - ``card_points``: ``played`` is itself worth ``points`` points
      (``best``: ``best_points``), left where the next seat may take it:
      told only when a card unseen could (one of its rank, or a Jack).
    - ``average``: nothing simple stands out; ``best`` scored ``loss``
      points more on average in the sampled worlds.
    """

    kind: str
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """The review of one decision.

    Attributes:
        number: 1-based, among the seat's decisions.
        play: the play's index in the hand (0 to 47).
        played: the card played.
        best: the card with the highest mean (on a tie, the card played,
            else one not a Jack).
        estimates: every distinct card in hand, best mean first.
        loss: the played card's loss (0 when it was the best).
        mistake: whether the play counts as a mistake (see the module).
        why: why the best card is better, or ``None`` when the card
            played lost less than :data:`WHY_POINTS` or its loss's
            interval reaches zero.
        worlds: the sampled worlds behind the estimates.
    """

    number: int
    play: int
    played: str
    best: str
    estimates: tuple[Estimate, ...]
    loss: float
    mistake: bool
    why: Why | None
    worlds: int

    def to_dict(self) -> dict[str, Any]:
        """Return the step as JSON-ready data (:meth:`from_dict` reads it)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Step:
        """Rebuild a step saved by :meth:`to_dict`.

        Raises:
            KeyError, TypeError: the data is not a saved step.
        """
        why = data["why"]
        return cls(
            number=data["number"],
            play=data["play"],
            played=data["played"],
            best=data["best"],
            estimates=tuple(Estimate(**row) for row in data["estimates"]),
            loss=data["loss"],
            mistake=data["mistake"],
            why=None if why is None else Why(why["kind"], dict(why["facts"])),
            worlds=data["worlds"],
        )


@dataclass(frozen=True)
class Summary:
    """A whole hand's review.

    Attributes:
        losses: points lost at each decision, in order (0 for the best card).
        total: their sum.
        per_decision: their mean (0 with no decisions).
        mistakes: how many decisions were mistakes.
        costliest: the numbers (1-based) of the costliest decisions, at most
            three, costliest first, only those whose page does not call
            them a good play (:func:`verdict`).
    """

    losses: tuple[float, ...]
    total: float
    per_decision: float
    mistakes: int
    costliest: tuple[int, ...]


def evaluate(observation: Observation, played: str, number: int = 1, seed: str = SEED) -> Step:
    """Review one decision: estimate every card of ``observation.hand``
    and judge ``played`` (one of them) against the best.

    The worlds come from ``random.Random(f"{seed}:{play index}")``, so the
    same position and seed always give the same estimates. ``number`` is
    the decision's 1-based number, kept in the step.

    Raises:
        ValueError: ``played`` is not in the hand.
    """
    if played not in observation.hand:
        raise ValueError(f"{played} is not in seat {observation.seat}'s hand")
    worlds = WORLDS
    # As card_values decides: exact when the stock is out and the orders
    # the cards in hand can be played in are few enough.
    lines = math.prod(math.factorial(size) for size in observation.hand_sizes)
    if observation.stock == 0 and lines <= EXACT_LINES:
        many = observation.rules.team_count > 2
        worlds = EXACT_WORLDS_MANY_SIDES if many else EXACT_WORLDS
    rng = random.Random(f"{seed}:{len(observation.plays)}")
    values = card_values(observation, rng, worlds)
    # The worlds' captured cards are stand-ins worth nothing: their margin
    # is the points still to win plus the piştis made so far.
    rules, team = observation.rules, observation.team
    so_far = margin(
        [
            rules.pisti_points * pisti + rules.jack_pisti_points * jack
            for pisti, jack in zip(observation.pisti, observation.jack_pisti, strict=True)
        ],
        team,
    )
    rest = {card: [value - so_far for value in row] for card, row in values.items()}
    means = {card: sum(row) / len(row) for card, row in rest.items()}
    rest, means = _same_cards_alike(rest, means)
    # On a tie the card played is the best; else a card that keeps the
    # Jack (seed 001: a Jack is worth keeping), which the page names.
    best = max(means, key=lambda card: (means[card], card == played, card[0] != "J"))
    estimates = []
    for card, row in rest.items():
        low, high = _interval(row)
        loss = [a - b for a, b in zip(rest[best], row, strict=True)]
        loss_low, loss_high = _interval(loss)
        estimates.append(
            Estimate(
                card,
                _round(means[card]),
                _round(low),
                _round(high),
                _round(means[best] - means[card]),
                _round(loss_low),
                _round(loss_high),
            )
        )
    estimates.sort(key=lambda estimate: (estimate.loss, estimate.card != played))
    mine = next(estimate for estimate in estimates if estimate.card == played)
    mistake = is_mistake(mine.loss, mine.loss_low)
    # A loss within the worlds' noise is no reason to tell a why.
    clear = tells_why(mine.loss) and mine.loss_low > 0
    why = explain(observation, played, best, mine.loss) if clear else None
    return Step(
        number=number,
        play=len(observation.plays),
        played=played,
        best=best,
        estimates=tuple(estimates),
        loss=mine.loss,
        mistake=mistake,
        why=why,
        worlds=len(values[played]),
    )


def _same_cards_alike(
    rest: dict[str, list[float]], means: dict[str, float]
) -> tuple[dict[str, list[float]], dict[str, float]]:
    """Give cards the game cannot tell apart the same estimate: two cards
    of one rank with the same card points (the 3♦ and the 3♥; any two
    Aces; not the 2♣ and another 2) capture and score alike, so whatever
    follows one can follow the other. The playouts' own choices still
    tell them apart (which card is left in hand, and where, changes how
    a playout plays on), by as much as 1.5 points, which a page would
    call a clear difference between equal cards. Each takes the worlds'
    values of the best of its kind: the seat may play on as that line
    does."""
    best_of: dict[tuple[str, int], str] = {}
    for card in rest:
        kind = (card[0], CARD_POINTS[card])
        if kind not in best_of or means[card] > means[best_of[kind]]:
            best_of[kind] = card
    alike = {card: best_of[(card[0], CARD_POINTS[card])] for card in rest}
    return (
        {card: rest[alike[card]] for card in rest},
        {card: means[alike[card]] for card in rest},
    )


def is_mistake(loss: float, loss_low: float) -> bool:
    """Whether a card that lost ``loss`` points (rest of the hand) against
    the best, the low end of its 95% interval ``loss_low``, is a mistake:
    more than :data:`MISTAKE_POINTS` as the page shows it, to one decimal
    (a loss of 2.04 is shown as 2.0 and is not one), the interval clear of
    zero."""
    return round(loss, 1) > MISTAKE_POINTS and loss_low > 0


def tells_why(loss: float) -> bool:
    """Whether a card that lost ``loss`` points against the best gets a
    sentence of why: at least :data:`WHY_POINTS` as the page shows it, to
    one decimal (a loss of 0.46 is shown, and told, as 0.5)."""
    return round(loss, 1) >= WHY_POINTS


def verdict(step: Step) -> str:
    """What a step's page says of the card played: ``"mistake"`` (see the
    module); ``"clear"``, a loss told (:func:`tells_why`) whose interval is
    clear of zero, smaller than a mistake; ``"unclear"``, a loss whose
    interval reaches zero and :data:`WHY_POINTS` (within the sampled deals'
    noise: no card was clearly better, and no why is told); else
    ``"good"``."""
    mine = next(estimate for estimate in step.estimates if estimate.card == step.played)
    if step.mistake:
        return "mistake"
    if mine.loss_low > 0:
        return "clear" if tells_why(step.loss) else "good"
    return "unclear" if mine.loss_high >= WHY_POINTS else "good"


def summarize(steps: list[Step]) -> Summary:
    """Return the summary of a hand's reviewed ``steps`` (in order). The
    total adds the losses as a page shows them, to one decimal, so that it
    is the sum of the figures shown beside it."""
    losses = tuple(step.loss for step in steps)
    total = _round(sum(round(loss, 1) for loss in losses))
    # Only plays a step's page does not call good: a loss under half a
    # point (or one only just over, whose interval stays under it) is
    # told there as a good play, and is no costly move.
    costly = sorted(
        (step for step in steps if verdict(step) != "good"), key=lambda step: -step.loss
    )
    return Summary(
        losses=losses,
        total=total,
        per_decision=_round(total / len(steps)) if steps else 0.0,
        mistakes=sum(1 for step in steps if step.mistake),
        costliest=tuple(step.number for step in costly[:3]),
    )


def explain(observation: Observation, played: str, best: str, loss: float) -> Why:
    """Say why ``best`` beats ``played`` in the position ``observation``,
    from what the seat could see: the first of :data:`WHY_KINDS` whose
    facts hold."""
    rules = observation.rules
    top = observation.pile_top
    pile_cards = observation.pile_size
    pile_points = points_in_sight(observation)
    takes_best = would_capture(best, top)
    takes_played = would_capture(played, top)
    number = play_number(observation)
    if takes_best and not takes_played:
        pisti = makes_pisti(observation, best)
        jack = pisti and best[0] == "J"
        pisti_points = pisti_offered(rules, best, number) if pisti else 0
        shown = pile_points + pisti_points
        facts = {"best": best, "played": played, "cards": pile_cards, "points": pile_points}
        beyond = _beyond(observation, loss, shown)
        bonus = rules.most_cards_points
        return Why(
            "take_pile",
            {
                **facts,
                "pisti": pisti,
                "jack": jack,
                "pisti_points": pisti_points,
                "beyond": beyond,
                "bonus": bonus,
            },
        )
    if played[0] == "J" and takes_played and best[0] != "J":
        if takes_best:
            points = CARD_POINTS[best]
            return Why("same_pile_keep_jack", {"best": best, "played": played, "points": points})
        if pile_cards <= KEEP_JACK_CARDS and pile_points <= KEEP_JACK_POINTS:
            jacks = count_cards(observation).unseen_by_rank.get("J", 0)
            facts = {"best": best, "played": played, "cards": pile_cards, "points": pile_points}
            return Why("keep_jack", {**facts, "jacks": jacks})
    if not takes_played and not takes_best:
        by_rank = count_cards(observation).unseen_by_rank
        unseen, best_unseen = by_rank.get(played[0], 0), by_rank.get(best[0], 0)
        facts = {"best": best, "played": played, "unseen": unseen, "best_unseen": best_unseen}
        if pile_cards == 0:
            # The pişti offered to the next seat, weighed by its points (a
            # Jack's is a Jack pişti) with the card's own: a lone Jack and a
            # lone 6 with as many cards unseen that take them are not alike.
            value = pisti_offered(rules, played, number + 1)
            best_value = pisti_offered(rules, best, number + 1)
            risk = unseen * (value + CARD_POINTS[played]) if value else 0
            best_risk = best_unseen * (best_value + CARD_POINTS[best]) if best_value else 0
            # Told by the counts or the pişti's points: where only the
            # cards' own points differ, card_points says it.
            if risk > best_risk and (unseen > best_unseen or value > best_value):
                offered = {"pisti_points": value, "best_pisti_points": best_value}
                return Why("gives_pisti", {**facts, **offered, "jack": played[0] == "J"})
            if played[0] == "J" and best[0] != "J":
                return Why("jack_on_empty", {"best": best, "played": played})
        elif unseen > best_unseen:
            points = pile_points + CARD_POINTS[played]
            return Why("gives_pile", {**facts, "cards": pile_cards + 1, "points": points})
        if near_the_end(observation):
            ours = observation.last_capturer == observation.team
            nobody = observation.last_capturer is None
            facts = {"best": best, "played": played, "plays_left": observation.plays_left}
            sides = {"ours": ours, "nobody": nobody, "sides": rules.team_count}
            return Why("last_capture", {**facts, **sides})
        # Left on the table, the card is taken by one of its rank or a Jack:
        # with none of those unseen, nobody may take it next.
        takers = unseen + (by_rank.get("J", 0) if played[0] != "J" else 0)
        if CARD_POINTS[played] > CARD_POINTS[best] and takers:
            facts = {"best": best, "played": played, "points": CARD_POINTS[played]}
            return Why("card_points", {**facts, "best_points": CARD_POINTS[best]})
    return Why("average", {"best": best, "played": played, "loss": _round(loss)})


def _beyond(observation: Observation, loss: float, shown: float) -> str | None:
    """Where a capture's worth beyond the ``shown`` points (card points
    and pişti in sight) comes from, when ``loss`` exceeds them by
    :data:`BEYOND_POINTS`: ``"last_capture"`` in the last rounds (the
    cards left at the end go to the last side to capture; seed 000);
    ``"most_cards"`` for a pile of :data:`MOST_CARDS_PILE` cards or more
    where the most cards score; else ``"theirs"``: left on the table, the
    pile may go to another side, which the estimate (one side's points
    against the others') counts too. ``None`` when the loss is about the
    points in sight."""
    if loss < shown + BEYOND_POINTS:
        return None
    if near_the_end(observation):
        return "last_capture"
    if observation.pile_size >= MOST_CARDS_PILE and observation.rules.most_cards_points:
        return "most_cards"
    return "theirs"


def _interval(values: list[float]) -> tuple[float, float]:
    """Return the 95% interval of the mean of ``values`` (normal
    approximation; one value: that value)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean
    variance = sum((value - mean) ** 2 for value in values) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return mean - half, mean + half


def _round(value: float) -> float:
    """Two decimals: what a page shows, and what the record of a step keeps."""
    return round(value, 2)
