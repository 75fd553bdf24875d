"""The site's languages are English and one per catalogue in
``app/translations``: a translator adds a language with its catalogue
alone (docs/translations.md), and it is offered, negotiated and named in
the page as Turkish is, its untranslated messages in English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po

from app import create_app
from app.serve import page_language
from app.web import i18n
from tests.conftest import CSRF, app_config

ROOT = Path(__file__).resolve().parents[2]
#: A German catalogue begun: a few messages translated, the rest not yet.
GERMAN = {"New game": "Neues Spiel", "Score so far": "Punktestand"}


def add_catalogue(folder, code: str, messages: dict[str, str]) -> None:
    """Write ``code``'s catalogue of ``messages`` into ``folder`` as
    ``pybabel init`` and ``pybabel compile`` would (``.po`` and ``.mo``)."""
    catalog = Catalog(locale=code)
    for message, translation in messages.items():
        catalog.add(message, translation)
    place = folder / code / "LC_MESSAGES"
    place.mkdir(parents=True)
    with (place / "messages.po").open("wb") as file:
        write_po(file, catalog)
    with (place / "messages.mo").open("wb") as file:
        write_mo(file, catalog)


def test_the_languages_are_english_and_each_catalogues(tmp_path):
    add_catalogue(tmp_path, "tr", {"New game": "Yeni oyun"})
    add_catalogue(tmp_path, "de", GERMAN)
    add_catalogue(tmp_path, "es", {})
    assert i18n.languages(tmp_path) == {
        "en": "English",
        "de": "Deutsch",
        "es": "Español",
        "tr": "Türkçe",
    }


def test_the_sites_languages_are_its_catalogues():
    """Every catalogue in app/translations is offered, and nothing else:
    the list was written out in the code ("en" and "tr"), so a language
    added by its catalogue never showed."""
    catalogues = ROOT / "app" / "translations"
    folders = {po.parents[1].name for po in catalogues.glob("*/LC_MESSAGES/messages.po")}
    assert "tr" in folders
    assert set(i18n.LANGUAGES) == {"en", *folders}


def test_a_third_language_is_offered_chosen_and_falls_back_to_english(tmp_path, monkeypatch):
    folder = tmp_path / "translations"
    add_catalogue(folder, "de", GERMAN)
    monkeypatch.setattr(i18n, "LANGUAGES", i18n.languages(folder))
    app = create_app(app_config(tmp_path, BABEL_TRANSLATION_DIRECTORIES=str(folder)))
    client = app.test_client()
    page = client.get("/", headers={"Accept-Language": "de-AT, de;q=0.9, en;q=0.5"})
    home = page.get_data(as_text=True)
    assert '<html lang="de">' in home
    assert "<h2>Neues Spiel</h2>" in home
    # Not translated yet: in English, whole.
    assert '<span id="language-label">Language:</span>' in home
    # No German manifest in static/: the English one.
    assert re.search(r'<link rel="manifest" href="/static/manifest\.webmanifest\?v=\w+">', home)
    assert re.search(r'value="de" lang="de"[^>]*>Deutsch</button>', home)
    # Chosen on a page, it outranks the browser's language.
    token = CSRF.search(home).group(1)
    client.post("/language", data={"csrf_token": token, "language": "de"})
    again = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="de">' in again
    # Dates in German (Babel's data): the Daily deal's next one, "06.12.2026".
    daily = client.get("/daily").get_data(as_text=True)
    assert re.search(r"\(\d\d\.\d\d\.\d{4}</span>", daily)


def test_a_catalogue_babel_has_no_data_for_is_named(tmp_path):
    """A folder misnamed ("german"), or a language whose Babel data the
    image left out (Dockerfile), stops the app at its start, saying which."""
    add_catalogue(tmp_path, "german", {})
    with pytest.raises(ValueError, match=r"german: Babel has no data for this language code"):
        i18n.languages(tmp_path)


@pytest.mark.parametrize(
    ("accepted", "language"),
    [
        # A Turkish browser in Türkiye that takes English too: Werkzeug's
        # best_match took English, matched whole, over "tr-TR" (only a
        # variant of Turkish). And the other way round.
        ("tr-TR, en;q=0.5", "tr"),
        ("en-US, tr;q=0.9", "en"),
        ("tr-CY", "tr"),
        ("fr-FR, tr;q=0.8, en;q=0.5", "tr"),
        ("fr-FR", "en"),
        ("tr;q=0, en-GB", "en"),
        # "*" is any language: the site's own (English) unless refused.
        ("*;q=0.5, tr;q=0.1", "en"),
        ("en;q=0, *", "tr"),
        ("*", "en"),
        ("*;q=0.9, tr;q=0.1, en;q=0.05", "en"),
        # Odd headers: English, never an error.
        ("tr;q=abc, -tr, i-klingon, x-tr", "en"),
        ("TR-tr", "tr"),
        (", " * 5000 + "tr", "tr"),
    ],
)
def test_the_browsers_first_language_the_site_speaks_is_the_pages(client, accepted, language):
    page = client.get("/", headers={"Accept-Language": accepted}).get_data(as_text=True)
    assert f'<html lang="{language}">' in page
    # The server's own error pages (413, 431) choose the same way.
    assert page_language({"ACCEPT_LANGUAGE": accepted}) == language
