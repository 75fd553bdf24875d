"""A device a family shares: each player their own name on it, switched
with one press, nobody's results moved, renamed or deleted by another."""

from __future__ import annotations

import html

import pytest
from sqlalchemy import func, select

from app.db import db, queries
from app.db.models import Player, PlayerToken, Result
from app.web.identity import COOKIE, DEVICE, DEVICE_PLAYERS
from app.web.store import LANGUAGE_COOKIE
from tests.db.conftest import Browser
from tests.db.test_recording import _database_gone


def _player(app, name: str) -> Player:
    with app.app_context():
        player = db.session.scalar(select(Player).where(Player.name == name))
        assert player is not None
        db.session.expunge(player)
        return player


def _heading(page: str) -> str:
    """The page's heading as text: a player's name is in a ``<bdi>``."""
    heading = page.split("<h1>")[1].split("</h1>")[0]
    return html.unescape(heading.removeprefix("<bdi>").removesuffix("</bdi>"))


def test_a_second_player_on_the_same_browser_gets_their_own_name_and_switches_back(app, visitor):
    """The only way for a second person to put their name on a device
    that knew someone was "Change your name", which renamed the first
    player: their results, Daily rank and tasks went under the new name.
    "Someone else is playing" leaves the first player's name as it is, the
    second chooses their own, and one press switches back."""
    visitor.choose_name("Nene")
    visitor.deal("family-nene")
    visitor.play_to_the_end()
    visitor.get("/me")
    aside = visitor.post("/me/aside")
    assert aside.status_code == 303
    page = visitor.get(aside.headers["Location"]).get_data(as_text=True)
    assert _heading(page) == "Your profile"
    assert "This device plays without a name now; nothing was deleted." in page
    assert "Play as <bdi>Nene</bdi>" in page
    assert visitor.choose_name("Ali").status_code == 303
    page = visitor.get("/me").get_data(as_text=True)
    assert _heading(page) == "Ali"
    assert "recorded under the name “<bdi>Ali</bdi>”" in html.unescape(page)
    assert "Play as <bdi>Nene</bdi>" in page
    nene = _player(app, "Nene")
    assert (nene.games, _player(app, "Ali").games) == (1, 0)

    switched = visitor.post("/me/switch", player=str(nene.id))
    assert switched.status_code == 303
    page = visitor.get("/me").get_data(as_text=True)
    assert _heading(page) == "Nene"
    assert "Play as <bdi>Ali</bdi>" in page
    assert "<dt>Games / wins</dt><dd>1 / " in page
    # A switch makes no new device token: the device holds both names' own.
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(PlayerToken)) == 2
    # And back to Ali, whose name stays his.
    visitor.post("/me/switch", player=str(_player(app, "Ali").id))
    assert _heading(visitor.get("/me").get_data(as_text=True)) == "Ali"


def test_the_home_and_daily_pages_say_who_is_playing(visitor):
    """Nothing but the profile said whose name a device plays under, so a
    child could start grandmother's ranked Daily game without knowing it."""
    assert "Playing as" not in visitor.get("/").get_data(as_text=True)
    visitor.choose_name("Nene")
    for path in ("/", "/daily"):
        page = visitor.get(path).get_data(as_text=True)
        assert "Playing as <bdi>Nene</bdi>." in page
        assert "Someone else? Switch player" in page


def test_a_switch_to_a_player_this_device_does_not_remember_is_refused(app, visitor):
    """The field names a player by id: one whose token this device does
    not hold (another device's player) is refused, and nothing changes."""
    Browser(app.test_client()).choose_name("Elsewhere")
    visitor.choose_name("Here")
    visitor.get("/me")
    for chosen in (str(_player(app, "Elsewhere").id), "x", "", "9" * 40):
        refused = visitor.post("/me/switch", player=chosen)
        assert refused.status_code == 400
        assert "This device does not remember that player any more." in refused.get_data(
            as_text=True
        )
    assert _heading(visitor.get("/me").get_data(as_text=True)) == "Here"


def test_forget_me_deletes_only_the_player_on_screen(app, visitor):
    """Forget me names whose name it deletes; it deletes that one only,
    and the device still offers the others."""
    visitor.choose_name("Nene")
    visitor.get("/me")
    visitor.post("/me/aside")
    visitor.choose_name("Ali")
    page = visitor.get("/me").get_data(as_text=True)
    assert (
        "Delete the name “<bdi>Ali</bdi>” and everything kept under it for good"
        in html.unescape(page)
    )
    assert visitor.post("/me/forget", confirm="yes").status_code == 303
    page = visitor.get("/me?forgotten=1").get_data(as_text=True)
    assert "Play as <bdi>Nene</bdi>" in page and "Play as <bdi>Ali</bdi>" not in page
    with app.app_context():
        assert db.session.scalars(select(Player.name)).all() == ["Nene"]
    visitor.post("/me/switch", player=str(_player(app, "Nene").id))
    assert _heading(visitor.get("/me").get_data(as_text=True)) == "Nene"


def test_a_player_forgotten_on_another_device_leaves_this_devices_list(app, visitor):
    """A remembered player forgotten elsewhere (by a transfer code's other
    device) is no longer offered, and their token leaves the cookie at
    the next switch."""
    visitor.choose_name("Traveller")
    visitor.get("/me")
    code = visitor.post("/me/transfer").get_data(as_text=True)
    code = code.split('class="transfer-code"><code>')[1].split("<")[0]
    visitor.post("/me/aside")
    visitor.choose_name("Stays")
    phone = Browser(app.test_client())
    phone.get("/me")
    assert phone.post("/me/continue", code=code).status_code == 303
    phone.get("/me")
    phone.post("/me/forget", confirm="yes")
    page = visitor.get("/me").get_data(as_text=True)
    assert _heading(page) == "Stays" and "Play as <bdi>Traveller</bdi>" not in page
    visitor.post("/me/aside")
    # Stays's token alone is kept: Traveller's names nobody.
    assert visitor.client.get_cookie(DEVICE).value.count(".") == 0
    assert visitor.client.get_cookie(COOKIE) is None


def test_the_shared_device_words_are_turkish_too(visitor):
    visitor.client.set_cookie(LANGUAGE_COOKIE, "tr")
    visitor.choose_name("Nene")
    page = html.unescape(visitor.get("/me").get_data(as_text=True))
    assert "Başka biri oynuyor" in page
    assert "Bu cihazda biten oyunlar “<bdi>Nene</bdi>” adıyla kaydedilir." in page
    assert "Oynayan: <bdi>Nene</bdi>." in visitor.get("/").get_data(as_text=True)
    visitor.post("/me/aside")
    page = visitor.get("/me?aside=1").get_data(as_text=True)
    assert "<bdi>Nene</bdi> olarak oyna" in page and "Bu cihazdaki oyuncular:" in page


@pytest.mark.usefixtures("midday")
def test_a_game_is_recorded_for_the_player_it_was_started_under(app, visitor):
    """Grandmother starts her ranked Daily game and hands the laptop over;
    the child switches to his own name and finishes it: it was recorded
    for the child (his Daily entry unranked, hers left unfinished, her rank
    lost), and nothing told him whose game it was. A game is the player's
    it was started under, and the home page says so."""
    visitor.choose_name("Nene")
    visitor.start_daily()
    assert "started by" not in visitor.get("/").get_data(as_text=True)
    visitor.get("/me")
    visitor.post("/me/aside")
    visitor.choose_name("Ali")
    # The home page says whose game "Continue your game" goes back to.
    assert "started by <bdi>Nene</bdi>, whose result it will be" in visitor.get("/").get_data(
        as_text=True
    )
    final = html.unescape(visitor.play_to_the_end())
    assert "Recorded for <bdi>Nene</bdi>, who started this game on this device." in final
    assert "Recorded for <bdi>Ali</bdi>." not in final
    assert (_player(app, "Nene").games, _player(app, "Ali").games) == (1, 0)
    visitor.post("/me/switch", player=str(_player(app, "Nene").id))
    page = visitor.get("/daily").get_data(as_text=True)
    assert "Your ranked game is done:" in page
    assert "This was your ranked Daily game." in visitor.get("/game").get_data(as_text=True)


def test_a_game_started_without_a_name_is_the_name_chosen_at_its_end(visitor, app):
    visitor.deal("family-anonymous")
    final = visitor.play_to_the_end()
    assert "Keep this result" in final
    visitor.post("/me/name", name="Baba", next="game")
    assert "Recorded for <bdi>Baba</bdi>." in visitor.get("/game").get_data(as_text=True)
    assert _player(app, "Baba").games == 1


@pytest.mark.usefixtures("midday")
def test_the_daily_is_ranked_once_a_browser_and_the_second_player_is_told(visitor):
    """The browser has shown the day's cards to the first player: the
    second name on it plays the Daily unranked, and the page says why."""
    visitor.choose_name("Nene")
    assert "Play today's deal (ranked)" in html.unescape(
        visitor.get("/daily").get_data(as_text=True)
    )
    visitor.start_daily()
    visitor.get("/me")
    visitor.post("/me/aside")
    visitor.choose_name("Ali")
    page = html.unescape(visitor.get("/daily").get_data(as_text=True))
    assert "Playing as <bdi>Ali</bdi>." in page
    assert "Play today's deal (unranked)" in page
    assert "dealt in this browser without a name or under another" in page


def _result_panel(page: str) -> str:
    return html.unescape(page.split('id="your-result"')[1].split("</section>")[0])


def test_a_game_the_database_could_not_take_is_its_starters_whoever_has_no_name(
    app, visitor, monkeypatch
):
    """Nene's game, finished by someone with no name while the database
    did not take its result: the final page offered "Keep this result",
    and still did with the database back (nobody recorded the game); a
    name chosen there was told nothing of whose it was. It says the
    result waits for Nene, and records it for her on the next view."""
    visitor.choose_name("Nene")
    visitor.deal("family-outage")
    visitor.get("/me")
    visitor.post("/me/aside")
    monkeypatch.setattr(queries, "record_result", _database_gone)
    panel = _result_panel(visitor.play_to_the_end())
    assert "Not recorded yet for <bdi>Nene</bdi>: the results database did not answer." in panel
    assert "Keep this result" not in panel
    monkeypatch.undo()
    panel = _result_panel(visitor.get("/game").get_data(as_text=True))
    assert "Recorded for <bdi>Nene</bdi>, who started this game on this device." in panel
    assert "Keep this result" not in panel
    assert _player(app, "Nene").games == 1
    # Someone with a name on the device now is not told it is theirs.
    visitor.choose_name("Ali")
    panel = _result_panel(visitor.get("/game").get_data(as_text=True))
    assert "Recorded for <bdi>Nene</bdi>, who started this game on this device." in panel
    assert (_player(app, "Nene").games, _player(app, "Ali").games) == (1, 0)


def test_a_second_press_of_play_as_changes_nothing(app, visitor):
    """A double click on "Play as Nene" (or the button of a tab opened
    before the switch): the second press was refused 400 with "This
    device does not remember that player any more", although it did."""
    visitor.choose_name("Nene")
    visitor.get("/me")
    visitor.post("/me/aside")
    visitor.choose_name("Ali")
    visitor.get("/me")
    nene = str(_player(app, "Nene").id)
    assert visitor.post("/me/switch", player=nene).status_code == 303
    again = visitor.post("/me/switch", player=nene)
    assert again.status_code == 303
    assert again.headers.getlist("Set-Cookie") == []
    page = visitor.get("/me").get_data(as_text=True)
    assert _heading(page) == "Nene" and "Play as <bdi>Ali</bdi>" in page


def test_the_story_page_says_whose_match_it_goes_back_to(visitor):
    """The home page's Continue line says "started by Nene" to another
    player; the story page's, for the same match, did not."""
    visitor.choose_name("Nene")
    visitor.post("/story/lesson/skip")
    visitor.get("/story")
    visitor.post("/story/play", opponent="hayriye")
    assert "started by" not in visitor.get("/story").get_data(as_text=True)
    visitor.get("/me")
    visitor.post("/me/aside")
    visitor.choose_name("Ali")
    page = visitor.get("/story").get_data(as_text=True)
    assert "started by <bdi>Nene</bdi>, whose result it will be" in page
    visitor.client.set_cookie(LANGUAGE_COOKIE, "tr")
    page = visitor.get("/story").get_data(as_text=True)
    assert "<bdi>Nene</bdi> başlattı; sonucu onun adına kaydedilir" in page


def _names(app) -> list[str]:
    with app.app_context():
        return sorted(db.session.scalars(select(Player.name)))


def test_a_page_left_open_for_another_player_deletes_or_renames_nobody(app, visitor):
    """A profile left open in one tab while another switched players:
    its Forget me deleted the player switched to, whose name the page had
    never shown (and its name form renamed them, its "Someone else is
    playing" put them aside, its transfer code form showed their code, and
    an anonymous page's "Keep my results" renamed the player switched to).
    Each form says whose page it was; another's is refused 409 and nothing
    changes."""
    visitor.choose_name("Nene")
    visitor.get("/me")
    visitor.post("/me/aside")
    visitor.choose_name("Ali")
    ali, nene = str(_player(app, "Ali").id), str(_player(app, "Nene").id)
    page = visitor.get("/me").get_data(as_text=True)
    assert f'name="player" value="{ali}"' in page
    visitor.post("/me/switch", player=nene)
    # The forms of Ali's page, sent after the switch to Nene.
    for path, fields in (
        ("/me/forget", {"confirm": "yes"}),
        ("/me/name", {"name": "Ali2"}),
        ("/me/aside", {}),
        ("/me/transfer", {}),
    ):
        refused = visitor.post(path, player=ali, **fields)
        assert refused.status_code == 409
        assert "This page was for another player: nothing changed." in refused.get_data(
            as_text=True
        )
        assert _names(app) == ["Ali", "Nene"]
    with app.app_context():
        assert db.session.scalars(select(Player.transfer_hash)).all() == [None, None]
    # The name form of a page with no name, sent once Nene plays here.
    refused = visitor.post("/me/name", player="", name="Veli")
    assert refused.status_code == 409
    assert _names(app) == ["Ali", "Nene"]
    visitor.client.set_cookie(LANGUAGE_COOKIE, "tr")
    refused = visitor.post("/me/forget", player=ali, confirm="yes")
    assert refused.status_code == 409
    assert "Bu sayfa başka bir oyuncu içindi: hiçbir şey değişmedi." in refused.get_data(
        as_text=True
    )
    assert _names(app) == ["Ali", "Nene"]
    assert _heading(visitor.get("/me").get_data(as_text=True)) == "Nene"
    # The same forms of Nene's own page do what they say.
    assert visitor.post("/me/name", player=nene, name="Babaanne").status_code == 303
    assert _names(app) == ["Ali", "Babaanne"]
    assert visitor.post("/me/forget", player=nene, confirm="yes").status_code == 303
    assert _names(app) == ["Ali"]


def test_the_final_pages_name_form_sent_after_a_name_was_chosen_elsewhere_renames_nobody(
    app, visitor
):
    """The final page of a game with no name, its "Keep my results" form
    sent after another tab chose a name: it renamed that player. It is
    refused 409 on the final page, whose result is the name's."""
    visitor.deal("family-final-form")
    visitor.play_to_the_end()
    assert "Keep this result" in visitor.page
    token = visitor.token
    visitor.choose_name("Baba")
    refused = visitor.client.post(
        "/me/name", data={"csrf_token": token, "player": "", "name": "Veli", "next": "game"}
    )
    assert refused.status_code == 409
    page = html.unescape(refused.get_data(as_text=True))
    assert "This page was for another player: nothing changed." in page
    assert "Recorded for <bdi>Baba</bdi>." in page
    assert _names(app) == ["Baba"]


def test_someone_else_is_playing_pressed_twice_changes_nothing_more(app, visitor):
    visitor.choose_name("Nene")
    page = visitor.get("/me").get_data(as_text=True)
    nene = str(_player(app, "Nene").id)
    assert f'name="player" value="{nene}"' in page
    first = visitor.post("/me/aside", player=nene)
    assert first.status_code == 303
    again = visitor.post("/me/aside", player=nene)
    assert again.status_code == 303
    assert again.headers.getlist("Set-Cookie") == []
    assert "Play as <bdi>Nene</bdi>" in visitor.get("/me?aside=1").get_data(as_text=True)


def test_a_ninth_player_does_not_push_the_first_off_the_device(app, visitor):
    """A child pressing "Someone else is playing" and choosing a new name
    eight times pushed grandmother's name off the device (it keeps eight
    others): no "Play as Nene" any more, her results kept under a name no
    device could take back. The ninth is refused 409 and says how to make
    room; nobody is dropped."""
    visitor.choose_name("Nene")
    for number in range(1, 9):
        visitor.get("/me")
        assert visitor.post("/me/aside").status_code == 303
        visitor.choose_name(f"Child{number}")
    page = visitor.get("/me").get_data(as_text=True)
    assert page.count("Play as ") == DEVICE_PLAYERS and "Play as <bdi>Nene</bdi>" in page
    refused = visitor.post("/me/aside")
    assert refused.status_code == 409
    assert refused.headers.getlist("Set-Cookie") == []
    said = html.unescape(refused.get_data(as_text=True))
    assert "This device remembers 8 other players, the most it can: nothing changed." in said
    assert "To make room, play as one of them and press Forget me." in said
    assert _heading(visitor.get("/me").get_data(as_text=True)) == "Child8"
    visitor.post("/me/switch", player=str(_player(app, "Nene").id))
    assert _heading(visitor.get("/me").get_data(as_text=True)) == "Nene"
    visitor.client.set_cookie(LANGUAGE_COOKIE, "tr")
    said = html.unescape(visitor.post("/me/aside").get_data(as_text=True))
    assert "Bu cihaz 8 başka oyuncuyu hatırlıyor" in said


def test_the_name_and_forget_me_forms_sent_twice_are_answered_as_once(app, visitor):
    """A double click on "Keep my results" or Forget me: the second press
    finds the device changed by the first, and must not be answered as a
    page of another player: the name form's as done, Forget me's as a stale
    form saying the name is gone already (the next test)."""
    visitor.get("/me")
    token = visitor.token
    fields = {"csrf_token": token, "player": "", "name": "Ali"}
    assert visitor.client.post("/me/name", data=fields).status_code == 303
    again = visitor.client.post("/me/name", data=fields)
    assert again.status_code == 303
    assert _names(app) == ["Ali"]
    ali = str(_player(app, "Ali").id)
    fields = {"csrf_token": token, "player": ali, "confirm": "yes"}
    assert visitor.client.post("/me/forget", data=fields).status_code == 303
    again = visitor.client.post("/me/forget", data=fields)
    assert again.status_code == 409
    assert "There was nothing to forget" in again.get_data(as_text=True)
    assert _names(app) == []


def test_a_stale_forget_me_says_there_was_nothing_to_forget(app, visitor):
    """Two tabs on Nene's profile; one pressed Forget me, then the other:
    its press was answered by a redirect to the anonymous profile, no word
    of what happened. It is a stale form (409, as the others), and the page
    says the name was forgotten already and nothing changed; a tab of a
    player stepped aside in another tab is another player's page."""
    visitor.choose_name("Nene")
    visitor.get("/me")
    nene = str(_player(app, "Nene").id)
    assert visitor.post("/me/forget", player=nene, confirm="yes").status_code == 303
    stale = visitor.post("/me/forget", player=nene, confirm="yes")
    assert stale.status_code == 409
    assert stale.headers.getlist("Set-Cookie") == []
    said = html.unescape(stale.get_data(as_text=True))
    assert (
        "There was nothing to forget: this device plays under no name now (it was "
        "forgotten already, in another tab or by a second press). Nothing changed."
    ) in said
    assert 'role="alert"' in said
    visitor.client.set_cookie(LANGUAGE_COOKIE, "tr")
    stale = visitor.post("/me/forget", player=nene, confirm="yes")
    said = html.unescape(stale.get_data(as_text=True))
    assert "Unutulacak bir şey yoktu" in said
    visitor.client.set_cookie(LANGUAGE_COOKIE, "en")
    # Ali steps aside in one tab; the other tab's Forget me deletes nobody.
    visitor.choose_name("Ali")
    ali = str(_player(app, "Ali").id)
    visitor.get("/me")
    visitor.post("/me/aside", player=ali)
    refused = visitor.post("/me/forget", player=ali, confirm="yes")
    assert refused.status_code == 409
    assert "This page was for another player: nothing changed." in refused.get_data(as_text=True)
    assert _names(app) == ["Ali"]


def test_a_game_of_a_name_forgotten_meanwhile_is_recorded_for_nobody(app, visitor):
    """Nene starts a game, presses Forget me before its end and hands the
    laptop over; Ali chose a name and finished it: it was recorded for Ali
    (his first game, someone else's deal). A name forgotten leaves nothing
    behind: the game plays on, recorded for nobody, and the table, the home
    page's "Continue your game" and the final page say so."""
    visitor.choose_name("Nene")
    visitor.deal("forgotten-midgame")
    visitor.get("/me")
    assert visitor.post("/me/forget", confirm="yes").status_code == 303
    visitor.choose_name("Ali")
    assert "Recorded for nobody" in visitor.get("/game").get_data(as_text=True)
    home = html.unescape(visitor.get("/").get_data(as_text=True))
    assert "started under a name forgotten since; its result is recorded for nobody" in home
    visitor.client.set_cookie(LANGUAGE_COOKIE, "tr")
    assert "Kimsenin adına kaydedilmiyor" in visitor.get("/game").get_data(as_text=True)
    visitor.client.set_cookie(LANGUAGE_COOKIE, "en")
    panel = _result_panel(visitor.play_to_the_end())
    assert "Recorded for nobody: the name this game was started under was forgotten" in panel
    assert "Recorded for <bdi>Ali</bdi>" not in panel and "Not recorded yet" not in panel
    assert _player(app, "Ali").games == 0
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Result)) == 0
    # Nobody with a name on the device now: no "Keep this result" either.
    visitor.get("/me")
    visitor.post("/me/aside")
    panel = _result_panel(visitor.get("/game").get_data(as_text=True))
    assert "Recorded for nobody" in panel and "Keep this result" not in panel
    visitor.client.set_cookie(LANGUAGE_COOKIE, "tr")
    panel = _result_panel(visitor.get("/game").get_data(as_text=True))
    assert "Kimsenin adına kaydedilmedi: bu oyunun başlatıldığı ad unutuldu" in panel


def test_a_result_kept_under_a_name_then_forgotten_goes_to_no_other_name(app, visitor):
    """A game played with no name, kept under Nene on its final page; Nene
    presses Forget me and the next name chosen on that final page got the
    game. It stays nobody's."""
    visitor.deal("forgotten-final")
    visitor.play_to_the_end()
    visitor.post("/me/name", name="Nene", next="game")
    assert "Recorded for <bdi>Nene</bdi>." in visitor.get("/game").get_data(as_text=True)
    visitor.get("/me")
    assert visitor.post("/me/forget", confirm="yes").status_code == 303
    panel = _result_panel(visitor.get("/game").get_data(as_text=True))
    assert "Recorded for nobody" in panel and "Keep this result" not in panel
    visitor.get("/game")
    visitor.post("/me/name", name="Ali", next="game")
    assert "Recorded for <bdi>Ali</bdi>" not in visitor.get("/game").get_data(as_text=True)
    assert _player(app, "Ali").games == 0


def test_a_name_in_a_sentence_is_set_apart_from_its_words(app, visitor):
    """A Persian name ending in a sign (``س.ع.``) turned the sentence that
    holds it around ("Playing as .ع.س." read "Playing as ع.س.."): the
    boards held each name in a ``<bdi>``, the sentences did not. Now every
    sentence does, in both languages, the name escaped (``O'Neil``'s
    apostrophe as ``&#39;``), and a sentence's own full stop after a name
    that ends in one is left out as before."""
    visitor.choose_name("O'Neil")
    visitor.deal("bdi-oneil")
    visitor.get("/me")
    visitor.post("/me/aside")
    visitor.choose_name("س.ع.")
    name, other = "<bdi>س.ع.</bdi>", "<bdi>O&#39;Neil</bdi>"
    profile = visitor.get("/me").get_data(as_text=True)
    assert f"<h1>{name}</h1>" in profile
    assert f"recorded under the name “{name}”." in profile
    assert f"Play as {other}</button>" in profile
    assert f"Delete the name “{name}” and everything" in profile
    home = visitor.get("/").get_data(as_text=True)
    assert f"Playing as {name}." in home
    assert f"started by {other}, whose result it will be" in home
    visitor.client.set_cookie(LANGUAGE_COOKIE, "tr")
    assert f"Oynayan: {name}." in visitor.get("/").get_data(as_text=True)
    assert f"Bu cihazda biten oyunlar “{name}” adıyla" in visitor.get("/me").get_data(as_text=True)
    assert f"{other} olarak oyna" in visitor.page
    visitor.client.set_cookie(LANGUAGE_COOKIE, "en")
    final = visitor.play_to_the_end()
    assert f"Recorded for {other}, who started this game on this device." in final
    visitor.deal("bdi-own")
    final = visitor.play_to_the_end()
    assert f"Recorded for {name}" in final and f"Recorded for {name}." not in final
