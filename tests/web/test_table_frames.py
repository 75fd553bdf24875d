"""The table page's steps (one <template class="frame"> per play since your
move, for the script to move the cards through, only when it asks for them
with the ``Pisti-Frames`` header), the running points and the whose-turn
mark, as served."""

from __future__ import annotations

import re

from app.engine import CARDEMS, PARTNERS, GameState, card_points, seeded_deck
from tests.conftest import leading, without_tokens

FRAME = re.compile(r'<template class="frame" data-position="(\d)">(.*?)</template>', re.S)
FLIP = re.compile(r'data-flip="([2-9TJQKA][CDHS])"')
POINTS = re.compile(
    r'<button[^>]* class="chip points"[^>]*>'
    r'<span class="visually-hidden">, </span><span class="said-whole">(\d+) points?</span>'
)
#: Where a region begins in a step (regions are never nested).
REGION = re.compile(r'(?=<[a-z]+\b[^>]*\bdata-region="([a-z0-9-]+)")')
#: What the page's script sends with a play (and asks for the page with).
ASK = {"Pisti-Frames": "1"}


def regions_of(step: str) -> dict[str, str]:
    """A step's regions by name (``score``, ``seat-1``, ``centre`` ...)."""
    starts = [(match.start(), match.group(1)) for match in REGION.finditer(step)]
    ends = [start for start, _ in starts[1:]] + [len(step)]
    return {name: step[start:end].strip() for (start, name), end in zip(starts, ends, strict=True)}


def shown_steps(page: str) -> list[tuple[str, dict[str, str]]]:
    """Each step of ``page`` as the page's script shows it (``showFrame``):
    the regions the step brings, and every other region as the steps
    before it left it; with the position that played."""
    shown: dict[str, str] = {}
    steps = []
    for position, step in FRAME.findall(page):
        shown = {**shown, **regions_of(step)}
        steps.append((position, shown))
    return steps


def with_frames(player) -> str:
    """The table page as the script gets it after a play: with its steps."""
    return player.client.get("/game", headers=ASK).get_data(as_text=True)


def replay(seed: str, rules, plays: list[str]) -> GameState:
    return GameState.replay(rules, seeded_deck(seed, rules), plays)


def test_one_step_per_play_since_your_move(player):
    player.deal("steps?rules=partners")
    player.play(player.hand[0])
    page = with_frames(player)
    frames = FRAME.findall(page)
    assert [position for position, _ in frames] == ["0", "1", "2", "3"]
    # Each step shows the table after that play, marking who plays next;
    # the page itself marks your turn.
    assert 'class="place place-0 you turn"' in player.page
    for _, frame in frames:
        assert "<form" not in frame and "csrf_token" not in frame
    for index, (_, shown) in enumerate(shown_steps(page)):
        assert set(shown) == {"score", "seat-1", "seat-2", "seat-3", "centre", "you", "log"}
        turn = [name for name, region in shown.items() if re.match(r'<[^>]* turn"', region)]
        assert turn == (["you"] if index == 3 else [f"seat-{index + 1}"])


def test_a_step_leaves_out_the_regions_it_does_not_change(player):
    """After the first step, which brings every region, a step brings only
    the regions its play changed: a partners play's answer was a quarter
    regions repeated unchanged."""
    player.deal("changed-only?rules=partners")
    player.play(player.hand[0])
    page = with_frames(player)
    steps = [regions_of(step) for _, step in FRAME.findall(page)]
    assert {"score", "seat-1", "seat-2", "seat-3", "centre", "you", "log"} == set(steps[0])
    shown = [regions for _, regions in shown_steps(page)]
    for before, step in zip(shown, steps[1:], strict=False):
        # Every play changes the centre and the log; nothing comes unchanged.
        assert {"centre", "log"} <= set(step)
        assert all(step[name] != before[name] for name in step)
    # East played, and it is North's turn: West, yet to play this deal, is
    # as it was; so is the score when East took nothing.
    assert {"seat-1", "seat-2"} <= set(steps[1])
    assert "seat-3" not in steps[1]
    assert ("score" in steps[1]) == ("data-taken-by" in steps[1]["centre"])


def test_steps_show_no_hidden_card(player):
    seed = leading("hidden-steps", 4)
    player.deal(f"{seed}?rules=partners")
    for _ in range(6):
        player.play(player.hand[0])
    page = with_frames(player)
    assert FRAME.findall(page)
    state = replay(seed, PARTNERS, _moves(player))
    start = GameState(PARTNERS, seeded_deck(seed, PARTNERS))
    hidden = set(start.pile[: start.face_down]) | set(state.deck[state.next_card : -1])
    for seat in (1, 2, 3):
        hidden |= set(state.hands[seat])
    shown = set(FLIP.findall(page))
    assert shown and not shown & hidden


def test_a_capture_step_shows_the_taken_cards_and_a_pisti_its_mark(player):
    seen_capture = seen_pisti = False
    for number in range(30):
        player.deal(f"marks-{number}")
        while player.hand and not (seen_capture and seen_pisti):
            player.play(player.hand[0])
            if not player.hand:
                break
            log = re.findall(r"<li>(.*?)</li>", player.page.split('class="live"')[1])
            steps = shown_steps(with_frames(player))
            for (position, shown), line in zip(steps, log, strict=False):
                frame = shown["centre"]
                if "took the pile" in line or "pişti!" in line:
                    assert f'data-taken-by="{position}"' in frame
                    seen_capture = True
                if "pişti!" in line:
                    assert 'class="pisti-mark"' in frame and "Pişti!" in frame
                    seen_pisti = True
        if seen_capture and seen_pisti:
            return
    raise AssertionError("no pişti in 30 games")


def test_a_plain_page_has_no_steps_and_is_otherwise_the_same(player):
    player.deal("plain?rules=partners")
    response = player.play(player.hand[0])
    assert "<template" not in player.page
    assert "Pisti-Frames" in response.headers["Vary"]
    page = with_frames(player)
    assert len(FRAME.findall(page)) == 4
    # Each step is a <template> on its own lines; the rest is the same page.
    framed = re.sub(r"\n<template .*?</template>\n", "", page, flags=re.S)
    assert without_tokens(framed) == without_tokens(player.page)


def test_a_play_from_the_script_is_answered_with_the_page_itself(player):
    # One round trip: the page with its steps, not a redirect to it.
    player.deal("direct?rules=partners")
    move, card = player.move, player.hand[0]
    fields = {"csrf_token": player.token, "card": card, "move": move}
    answer = player.client.post("/play", data=fields, headers=ASK)
    assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    assert [position for position, _ in FRAME.findall(page)] == ["0", "1", "2", "3"]
    assert 'data-address="/game"' in page  # the address the script shows
    # The same as the page the redirect led to (the language form's way
    # back aside), and stored once.
    shown = with_frames(player).replace('name="next" value="/game?"', 'name="next" value="/game"')
    assert without_tokens(page.replace(' data-address="/game"', "")) == without_tokens(shown)
    again = player.client.post("/play", data=fields, headers=ASK)
    assert again.status_code == 409


def test_running_points_count_face_up_cards_and_pistis(player):
    seed = "running"
    player.deal(seed)
    start = GameState(CARDEMS, seeded_deck(seed, CARDEMS))
    hidden = set(start.pile[: start.face_down])
    while player.hand:
        player.play(player.hand[0])
        if not player.hand:
            break
        state = replay(seed, CARDEMS, _moves(player))
        expected = [
            sum(card_points(card) for card in state.captured[team] if card not in hidden)
            + 10 * state.pisti[team]
            + 20 * state.jack_pisti[team]
            for team in (0, 1)
        ]
        live = player.page.split("<template")[0]
        assert [int(points) for points in POINTS.findall(live)] == expected


def _moves(player) -> list[str]:
    """Every play of the hand so far, from the session's saved game."""
    with player.client.session_transaction() as session:
        return list(session["table"]["match"]["plays"])


TAKES = re.compile(r"(You take|The computer takes) (\d+) cards?")


def test_the_hands_last_cards_are_steps_of_its_score_page(player):
    """The score page after the hand's last play carries its steps too: the
    last card lands on the pile, then its capture or the final sweep takes
    the table (to the sweeping side, every card left counted), and nothing
    hidden is drawn."""
    seen = set()
    for number in range(40):
        seed = f"last-steps-{number}"
        player.deal(seed)
        while player.hand:
            player.play(player.hand[0])
        page = with_frames(player)
        assert "Download record" in page
        state = replay(seed, CARDEMS, _moves(player))
        steps = FRAME.findall(page)
        # Your last card, then the computer's, the dealer's, which ends the hand.
        assert [step for step, _ in steps] == ["0", "1"]
        position, last = steps[-1]
        last_card = state.plays[-1]
        assert last_card in FLIP.findall(last)
        start = GameState(CARDEMS, seeded_deck(seed, CARDEMS))
        assert not set(FLIP.findall(page)) & set(start.pile[: start.face_down])
        who, count = TAKES.search(last).groups()
        taker_team = 0 if who == "You take" else 1
        assert f'data-taken-by="{taker_team}"' in last
        lines = re.findall(r"<li>(.*?)</li>", page.split('class="last-plays"')[1])
        swept = re.search(r"The (\d+) cards left on the table go to", " ".join(lines))
        if swept:
            assert int(count) == int(swept.group(1))
            # the card that ended the hand is told as such, not left bare
            assert lines[-2].endswith(": the hand's last card.")
            if "captured" not in lines[0] and "pişti" not in lines[0]:
                # Your card stayed on the pile, and went with it: the
                # sweep's line says where, once.
                assert lines[0].endswith("it stayed on the table to the end.")
                assert "and the table went to" not in " ".join(lines)
            seen.add("sweep")
        else:
            assert position == ("0" if taker_team == 0 else "1")
            seen.add("capture")
        if seen == {"sweep", "capture"}:
            return
    raise AssertionError(f"only {seen} in 40 hands")


TOTAL = re.compile(
    r'class="chip total"[^>]*><span aria-hidden="true">'
    r'<span class="said-whole">(\d+) / 51 pts</span>'
)


def test_the_last_steps_show_the_match_totals_before_the_hand(player):
    """While the hand's last cards land, the match totals are those before
    it, as on the table a moment ago: its points are added on the score."""
    player.deal("totals?rules=classic&target=51")
    before = [0, 0]
    for _hand in range(2):
        while player.hand:
            player.play(player.hand[0])
        page = with_frames(player)
        steps = shown_steps(page)
        assert steps
        for _, step in steps:
            assert [int(total) for total in TOTAL.findall(step["score"])] == before
        gains = [int(gain) for gain in re.findall(r'<span class="running">= (\d+)</span>', page)]
        before = gains[-2:]
        assert before != [0, 0]
        fields = dict(re.findall(r'name="(csrf_token|hand)" value="([^"]+)"', page))
        assert player.client.post("/next", data=fields).status_code == 303
        player.get()


def test_the_final_sweep_is_shown_going_to_the_last_capturer(player):
    """In partners the table left at the end goes to the side of the last
    capture: its step shows the seat that made that capture taking it."""
    positions = {"you": 0, "East": 1, "North": 2, "West": 3}
    for number in range(40):
        player.deal(f"sweep-to-{number}?rules=partners")
        while player.hand:
            player.play(player.hand[0])
        page = with_frames(player)
        record = player.client.get("/record?hand=1").get_json()
        state = GameState(PARTNERS, record["deck"])
        last = None
        for card in record["plays"]:
            result = state.play(card)
            if result.captured:
                last = result.seat
        final = state.plays[-1]
        _, step = FRAME.findall(page)[-1]
        if result.captured or last is None:
            continue
        assert final in FLIP.findall(step)
        assert f'data-taken-by="{positions[record["players"][last]]}"' in step
        if record["players"][last] != "you":
            return
    raise AssertionError("no sweep to another seat than yours in 40 hands")
