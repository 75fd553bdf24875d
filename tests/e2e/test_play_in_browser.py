"""A whole hand played by clicking, at phone and desktop sizes."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Page, expect

from app.ai import make_bot
from app.engine import CARDEMS, GameState, hand_winner, observe, score_hand, seeded_deck
from tests.conftest import checked
from tests.e2e.conftest import DESKTOP, PHONE, cards_in_hand, play_card, play_out, submit


def engine_result(seed: str, mine: list[str]) -> tuple[GameState, list]:
    """Replay ``seed`` with the player's cards and the default computer."""
    state = GameState(CARDEMS, seeded_deck(seed, CARDEMS))
    for card in mine:
        state.play(card)
        while not state.finished and state.turn == 1:
            rng = random.Random()
            state.play(make_bot("medium", rng).choose(observe(state, 1)))
    return state, score_hand(state)


@pytest.mark.parametrize("size_name,size", [("phone", PHONE), ("desktop", DESKTOP)])
def test_deal_from_seed_and_play_a_whole_hand(
    page: Page, live_server, screenshots, size_name, size
):
    # A seed in Turkish letters: dealt, shared and dealt again as written.
    seed = f"e2e-{size_name}-şans"
    page.set_viewport_size(size)
    page.goto(live_server + "/")
    page.emulate_media(reduced_motion="reduce")
    page.screenshot(path=screenshots / f"home-{size_name}.png", full_page=True)
    field = page.get_by_label("Seed")
    field.fill("a b")
    assert not field.evaluate("f => f.checkValidity()")
    field.fill(seed)
    assert field.evaluate("f => f.checkValidity()")
    submit(page, page.get_by_role("button", name="Deal from a seed"))
    expect(page.locator(".deal-facts .seed")).to_have_text(seed)
    page.emulate_media(reduced_motion="reduce")
    page.screenshot(path=screenshots / f"deal-link-{size_name}.png", full_page=True)
    submit(page, page.get_by_role("button", name="Start this deal"))
    expect(page.locator(".hand button")).to_have_count(4)
    mine = []
    while cards_in_hand(page):
        buttons = page.locator(".hand button")
        # Prefer a capturing card when the page marks one, as a player would.
        capturing = page.locator(".hand button.captures")
        button = capturing.first if capturing.count() else buttons.last
        card = button.get_attribute("value")
        if play_card(page, button):
            mine.append(card)
        if len(mine) == 3:
            page.emulate_media(reduced_motion="reduce")
            page.screenshot(path=screenshots / f"table-{size_name}.png")
        if 0 < len(mine) < 24:
            expect(page.locator(".log")).to_contain_text("You played")
    assert len(mine) == 24
    expect(page.locator(".verdict")).to_be_visible()
    page.emulate_media(reduced_motion="reduce")
    page.screenshot(path=screenshots / f"final-{size_name}.png", full_page=True)

    state, scores = engine_result(seed, mine)
    assert state.finished
    totals = page.locator(".score tfoot td.score-points").all_inner_texts()
    assert [int(t) for t in totals] == [scores[0].points, scores[1].points]
    cards_row = (
        page.locator(".hand-score tbody tr").first.locator("td.score-count").all_inner_texts()
    )
    assert [int(t) for t in cards_row] == [scores[0].cards, scores[1].cards]
    winner, _ = hand_winner(state, scores)
    expect(page.locator(".verdict")).to_have_text(
        {0: "You won!", 1: "The computer won", None: "A draw"}[winner]
    )
    share = checked(f"{live_server}/deal/{seed}?rules=cardems&level=medium")
    expect(page.locator("#share")).to_have_value(share)
    # At the field's default line height Chromium drew no underscore, so
    # "a_b" read as "a b" on a laptop screen.
    line, size = page.locator("#share").evaluate(
        "f => [getComputedStyle(f).lineHeight, getComputedStyle(f).fontSize].map(parseFloat)"
    )
    assert line >= 1.4 * size
    # On a phone the field takes the whole row, the button going under it,
    # so more of the link shows.
    field, row = (page.locator(s).bounding_box()["width"] for s in ("#share", ".share-row"))
    assert field >= (0.95 if size_name == "phone" else 0.6) * row
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page.get_by_role("button", name="Copy link").click()
    expect(page.get_by_role("button", name="Copied")).to_be_focused()
    # Said in a status too, which a screen reader reads out.
    expect(page.get_by_role("status")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == share

    page.get_by_role("button", name="Play this deal again").click()
    expect(page.locator(".hand button")).to_have_count(4)
    assert (
        page.locator(".hand button").evaluate_all("bs => bs.map(b => b.value)")
        == seeded_deck(seed, CARDEMS)[4:8]
    )


def test_the_longest_seed_wraps_on_the_narrowest_phone(page: Page, live_server, screenshots):
    # A seed may be 64 characters without a break; on a 360 px phone it
    # wraps rather than push the page sideways: on its deal link (also
    # naming a game in progress), on the home page's list of games in
    # progress and its "Continue" line, and in the refusal of one
    # character too many.
    page.set_viewport_size({"width": 360, "height": 740})
    seed = "Cuma-aksami_" + "x" * 52
    wider = "document.documentElement.scrollWidth - window.innerWidth"
    page.goto(f"{live_server}/deal/{seed}?rules=classic")
    expect(page.locator(".deal-facts .seed")).to_have_text(seed)
    assert page.evaluate(wider) <= 0
    submit(page, page.get_by_role("button", name="Start this deal"))
    expect(page.locator(".hand button").first).to_be_visible()
    page.goto(f"{live_server}/deal/{seed}?rules=cardems")
    # The game in progress is named, its seed too.
    expect(page.locator(".alert")).to_contain_text(seed)
    assert page.evaluate(wider) <= 0
    submit(page, page.get_by_role("button", name="Start this deal"))
    page.goto(f"{live_server}/")
    expect(page.get_by_text(seed).first).to_be_visible()
    assert page.evaluate(wider) <= 0
    page.screenshot(path=screenshots / "long-seed-home-360.png", full_page=True)
    page.goto(f"{live_server}/deal/{seed}y")
    expect(page.get_by_text(f"{seed}y").first).to_be_visible()
    assert page.evaluate(wider) <= 0


def test_a_name_chosen_on_the_final_page_brings_the_focus_to_the_result(page: Page, live_server):
    # On a phone the confirmation is far below the score: after the name is
    # kept, the page comes back with the recorded result focused, in view.
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{live_server}/deal/name-focus")
    submit(page, page.get_by_role("button", name="Start this deal"))
    play_out(page)
    page.get_by_label("Your display name").fill("Odak")
    page.keyboard.press("Enter")
    result = page.locator("#your-result")
    expect(result).to_contain_text("Recorded for Odak.")
    expect(result).to_be_focused()
    expect(result).to_be_in_viewport()


def test_continue_your_game_from_the_keyboard_focuses_the_first_card(page: Page, live_server):
    page.goto(f"{live_server}/deal/continue-keys")
    submit(page, page.get_by_role("button", name="Start this deal"))
    expect(page.locator(".hand button").first).to_be_visible()
    page.goto(f"{live_server}/")
    page.get_by_role("link", name="Continue your game").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".hand button").first).to_be_focused()
    # By mouse the page opens as any page does, nothing focused.
    page.goto(f"{live_server}/")
    page.get_by_role("link", name="Continue your game").click()
    expect(page.locator(".hand button").first).to_be_visible()
    assert page.evaluate("document.activeElement === document.body")


def test_chromium_can_install_the_site_as_an_app(
    browser_type, browser_type_launch_args, live_server, tmp_path
):
    # Chromium reads the manifest without a complaint and finds nothing
    # that keeps the site from being installed (a persistent profile: a
    # private window never installs anything).
    context = browser_type.launch_persistent_context(tmp_path, **browser_type_launch_args)
    page = context.new_page()
    page.goto(live_server + "/")
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == []
    assert manifest["manifest"]["name"] == "Pişti"
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    context.close()
