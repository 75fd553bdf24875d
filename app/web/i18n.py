"""Languages with Flask-Babel: English, the messages' own, and one more
per catalogue in ``app/translations`` (Turkish; docs/translations.md says
how to add one).

The catalogues live in ``app/translations``; the ``.mo`` files are compiled
by the install scripts (``pybabel compile``), never committed. The language
is the player's choice on any page, else the browser's ``Accept-Language``.

:func:`gettext`, :func:`ngettext`, :func:`pgettext` and their lazy forms
are Flask-Babel's, with the request's catalogue looked up once per request
(:func:`translations`) instead of once per string: a table page translates
over a hundred strings, and Flask-Babel's lookup of the catalogue costs some
50 times the lookup of a string in it. The templates' ``_()``, ``gettext()``
and ``ngettext()`` are :func:`template_gettext` and
:func:`template_ngettext`: Jinja's newstyle gettext (autoescaped, always
formatted), called directly rather than through the i18n extension's three
nested calls, with a translated text that has no variables kept per
catalogue (a template's ``_("...")`` cost some 13 µs).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from babel import Locale, UnknownLocaleError
from babel.core import get_global
from babel.support import NullTranslations
from flask import Flask, g, request
from flask_babel import Babel, format_number, get_translations
from flask_babel.speaklater import LazyString
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from werkzeug.datastructures import LanguageAccept

from app.engine.cards import RANK_NAMES

from . import store

#: The catalogues, one folder per language (Flask-Babel's default folder).
CATALOGUES = Path(__file__).resolve().parents[1] / "translations"
#: The static files, where a language's web app manifest is.
STATIC = Path(__file__).resolve().parents[2] / "static"


def languages(folder: Path) -> dict[str, str]:
    """Return the site's languages: their codes and names, each name in its
    own language ("Türkçe", from Babel's data): English first (the
    messages are written in it), then each language with a catalogue in
    ``folder`` (``<code>/LC_MESSAGES/messages.po``), by code.

    Raises:
        ValueError: a catalogue's folder is not named by a language code
            Babel has data for (``de``, ``pt_BR``).
    """
    codes = sorted(po.parents[1].name for po in folder.glob("*/LC_MESSAGES/messages.po"))
    named = {}
    for code in ["en", *codes]:
        try:
            name = Locale.parse(code).display_name or code
        except (ValueError, UnknownLocaleError) as error:
            raise ValueError(
                f"{folder / code}: Babel has no data for this language code"
            ) from error
        named[code] = name[:1].upper() + name[1:]  # "español" is "Español" in a list
    return named


#: Language codes and their names, in their own language.
LANGUAGES = languages(CATALOGUES)


def og_locale(code: str) -> str:
    """Return the Open Graph locale (``language_TERRITORY``, as a chat app's
    preview reads ``og:locale``) of the site's language ``code``: the code
    itself when it names a territory (``pt_BR``), else the language with
    its most likely territory, from Babel's data (``tr`` is ``tr_TR``,
    ``en`` ``en_US``)."""
    if "_" in code:
        return code
    likely = Locale.parse(get_global("likely_subtags").get(code, code))
    return f"{likely.language}_{likely.territory}" if likely.territory else likely.language


def manifest(code: str) -> str:
    """Return the static file name of the web app manifest of a page in the
    language ``code``: ``manifest-<code>.webmanifest`` where ``static/`` has
    one (the site's name and description in that language), else the
    English ``manifest.webmanifest``."""
    name = f"manifest-{code}.webmanifest"
    return name if name in _MANIFESTS else "manifest.webmanifest"


_MANIFESTS = frozenset(path.name for path in STATIC.glob("manifest-*.webmanifest"))

babel = Babel()


def translations() -> NullTranslations:
    """Return this request's catalogue (Flask-Babel's ``get_translations()``
    for the request's language), looked up once per request and kept on
    ``g``; outside a request, Flask-Babel's (which is the identity)."""
    try:
        # One look through the proxy (each costs about a microsecond).
        space = g._get_current_object()
    except RuntimeError:  # outside an app context
        return get_translations()
    found: NullTranslations | None = getattr(space, "pisti_translations", None)
    if found is None:
        found = space.pisti_translations = get_translations()
    return found


def gettext(string: str, **variables: Any) -> str:
    """Return ``string`` in the page's language, formatted with
    ``variables`` (``%(name)s``), as Flask-Babel's ``gettext``."""
    text: str = translations().ugettext(string)
    return text % variables if variables else text


def count_text(num: int) -> int | str:
    """Return ``num`` as a plural message shows it: as it is below 1000,
    else grouped in the page's language ("12,345", "12.345")."""
    if -1000 < num < 1000:
        return num  # the usual case, without Babel's formatting (some µs)
    return str(format_number(num))


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """Return ``singular`` or ``plural`` for ``num`` in the page's language,
    formatted with ``variables`` and ``num`` (written by :func:`count_text`),
    as Flask-Babel's ``ngettext``."""
    variables.setdefault("num", count_text(num))
    text: str = translations().ungettext(singular, plural, num)
    return text % variables


def pgettext(context: str, string: str, **variables: Any) -> str:
    """Return ``string`` in the page's language in ``context`` (a
    ``msgctxt``), formatted with ``variables``, as Flask-Babel's
    ``pgettext``."""
    text: str = translations().upgettext(context, string)
    return text % variables if variables else text


def lazy_pgettext(context: str, string: str, **variables: Any) -> LazyString:
    """Return ``string`` in ``context`` to be translated by :func:`pgettext`
    each time it is used, as Flask-Babel's ``lazy_pgettext``."""
    return LazyString(pgettext, context, string, **variables)


def lazy_gettext(string: str, **variables: Any) -> LazyString:
    """Return ``string`` to be translated by :func:`gettext` each time it
    is used (module-level texts), as Flask-Babel's ``lazy_gettext``."""
    return LazyString(gettext, string, **variables)


SUITS = {
    "C": lazy_gettext("clubs"),
    "D": lazy_gettext("diamonds"),
    "H": lazy_gettext("hearts"),
    "S": lazy_gettext("spades"),
}
NAMED_RANKS = {
    "A": lazy_gettext("Ace of %(suit)s"),
    "J": lazy_gettext("Jack of %(suit)s"),
    "Q": lazy_gettext("Queen of %(suit)s"),
    "K": lazy_gettext("King of %(suit)s"),
}


#: A link's parameter naming the language of the page it was shared from
#: (``lang=tr``), which a deal's share link carries when that is not
#: English: the language of the link's preview in a chat app
#: (:func:`select_locale`). Not one of the deal's settings, nor in its check.
LINK_LANGUAGE = "lang"

#: The chat apps' link preview bots, by their User-Agent: Facebook and
#: Messenger (``facebookexternalhit``, ``Facebot``; iMessage names both and
#: ``Twitterbot``), X, Telegram, Discord, Slack, WhatsApp (Signal's
#: previews say ``WhatsApp`` too), LinkedIn and Skype or Teams. Their
#: ``Accept-Language`` is their own (Telegram's and Signal's ``en-US``
#: whatever the app's language), not that of the people reading the chat.
PREVIEW_BOTS = re.compile(
    r"facebookexternalhit|Facebot|Twitterbot|TelegramBot|Discordbot|Slackbot|WhatsApp"
    r"|LinkedInBot|SkypeUriPreview",
    re.IGNORECASE,
)


def link_language(value: str | None) -> str | None:
    """Return the site's language ``value`` names, a link's
    :data:`LINK_LANGUAGE` (a language tag, in any case and with or without
    its region, as :func:`spoken` reads it: ``TR``, `` tr-TR``, read up to
    the punctuation of the chat message that ends with the link: ``tr.``),
    or ``None``: none, one the site does not speak, or English (the
    language of a page when nothing names another, so a link need not
    name it). The code returned is the site's own (``tr``), the form a
    link carries on."""
    written = re.match(r"[A-Za-z_-]*", (value or "").strip())
    code = spoken(written.group() if written else "")
    return code if code != "en" else None


def unescaped_name(name: str) -> str:
    """Return a query parameter's ``name`` without the ``amp;`` prefixes an
    ``&`` escaped on the way put before it (``amp;lang``: a link copied out
    of a page's source or an e-mail, or badly unescaped by a chat app)."""
    while name.startswith("amp;"):
        name = name.removeprefix("amp;")
    return name


def linked_language(args: Mapping[str, str]) -> str | None:
    """Return the language a link's query ``args`` name: the
    :func:`link_language` of its :data:`LINK_LANGUAGE`, named as written
    or after an ``&`` escaped on the way (:func:`unescaped_name`);
    ``None`` when none names a language the site speaks (what else it says
    is never used)."""
    for name, value in args.items():
        if unescaped_name(name) == LINK_LANGUAGE:
            language = link_language(value)
            if language is not None:
                return language
    return None


def select_locale() -> str:
    """Return the page's language: the player's choice, else the
    browser's best match (:func:`pick_language`). A link's language
    (:func:`link_language`, the sharer's) is the page's when the request
    names no language, and for a chat app's preview bot
    (:data:`PREVIEW_BOTS`), whose languages are its own: the preview of a
    link shared from a Turkish page is Turkish, as the chat likely is."""
    linked = linked_language(request.args)
    accepted = request.accept_languages
    if linked is not None and PREVIEW_BOTS.search(request.headers.get("User-Agent", "")):
        accepted = LanguageAccept()
    return pick_language(store.language(), accepted, linked)


def pick_language(chosen: object, accepted: LanguageAccept, linked: str | None = None) -> str:
    """Return a page's language: ``chosen`` (the player's choice, from the
    session or the language cookie) when the site speaks it, else the first
    of the browser's ``accepted`` languages, most wanted first, that the
    site speaks, or speaks a variant of ("tr-CY" is Turkish), else English;
    ``linked`` (a language the site speaks, see :func:`link_language`)
    instead of English when ``accepted`` names no language at all.

    Each accepted language is tried whole, then by its language alone,
    before the next: Werkzeug's ``best_match`` tries every one whole first,
    so "tr-TR, en;q=0.5" got English and "en-US, tr;q=0.9" Turkish. A
    "*" (any language) is English, or the first language the site speaks
    that the browser does not refuse (``q=0``)."""
    if chosen in LANGUAGES:
        return str(chosen)
    if not accepted:
        return linked or "en"
    refused = {value.replace("-", "_").lower() for value, quality in accepted if quality <= 0}
    # Werkzeug lists a "*" after every language, whatever its quality.
    for value, quality in sorted(accepted, key=lambda item: -item[1]):
        if quality <= 0:
            continue
        if value == "*":  # any language: the first the browser does not refuse
            return next((code for code in LANGUAGES if code.lower() not in refused), "en")
        found = spoken(value)
        if found:
            return found
    return "en"


def spoken(tag: str) -> str | None:
    """Return the site's language (its code, a key of :data:`LANGUAGES`)
    that the language ``tag`` names, or ``None``: tags are case-insensitive
    (BCP 47) and written with ``-`` or ``_`` (``TR``, ``tr-TR``,
    ``pt_br``); a tag is matched whole, else by its language alone, to the
    site's language or to the first variant of it the site speaks
    (``tr-CY`` is Turkish, ``pt`` Brazilian Portuguese if that is the one
    the site speaks)."""
    # The site's languages by their codes in lower case ("pt_br"), and by
    # their language alone ("pt") for a variant the site speaks (the first).
    lowered = {code.lower(): code for code in LANGUAGES}
    variants = {code.partition("_")[0]: code for code in reversed(lowered.values())}
    whole = tag.replace("-", "_").lower()
    language = whole.partition("_")[0]
    return lowered.get(whole) or lowered.get(language) or variants.get(language)


#: The kinds of character a quoted value shows as U+FFFD (:func:`quoted`):
#: controls (NUL), formats (a right-to-left override, which turns the rest
#: of the message around), surrogates, private use, unassigned, and line and
#: paragraph separators.
UNSHOWN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def quoted(text: str, limit: int) -> str:
    """Return ``text``, a value the browser sent, as a message quotes it
    ("“%(seed)s” cannot be used"): its first ``limit`` characters, each
    control or format character (:data:`UNSHOWN`) shown as U+FFFD, so a
    hostile link can neither turn the page's own words around nor hide in
    them what it holds."""
    cut = text[:limit]
    if cut.isprintable():  # the usual case: nothing to replace
        return cut
    return "".join("\ufffd" if unicodedata.category(char) in UNSHOWN else char for char in cut)


def card_name(card: str) -> str:
    """Return a card's name in the page's language, e.g. ``"Queen of
    hearts"`` or ``"Kupa Kızı"`` (kept per catalogue: a table page names
    a dozen cards, each some 4 µs to put together).

    Raises:
        KeyError: ``card`` is not a card code (``"QH"``).
    """
    catalogue = translations()
    names = _CARD_NAMES.get(catalogue)
    if names is None:
        names = _CARD_NAMES.setdefault(catalogue, {})
    name = names.get(card)
    if name is None:
        suit = str(SUITS[card[1]])
        if card[0] in NAMED_RANKS:
            name = str(NAMED_RANKS[card[0]]) % {"suit": suit}
        else:
            name = str(gettext("%(rank)s of %(suit)s", rank=RANK_NAMES[card[0]], suit=suit))
        names[card] = name
    return name


#: Per catalogue, the names of the cards named so far (52 at most).
_CARD_NAMES: WeakKeyDictionary[NullTranslations, dict[str, str]] = WeakKeyDictionary()


#: Per catalogue, the templates' texts without variables, translated and
#: formatted (``Markup``).
_READY: WeakKeyDictionary[NullTranslations, dict[str, Markup]] = WeakKeyDictionary()


def _format(text: str, variables: dict[str, Any]) -> Markup:
    """Return ``Markup(text) % variables`` (``text`` is a translation, so
    markup; the variables are escaped); with numbers only, which escaping
    leaves as they are, without escaping each."""
    if all(type(value) is int for value in variables.values()):
        return Markup(text % variables)
    return Markup(text) % variables


def markup_gettext(string: str, **variables: Any) -> Markup:
    """Return ``string`` in the page's language as markup, formatted with
    ``variables`` (escaped), as a template's ``{{ _(string) }}`` is: a text
    without variables is kept translated per catalogue."""
    catalogue = translations()
    if variables:
        return _format(catalogue.ugettext(string), variables)
    ready = _READY.get(catalogue)
    if ready is None:
        ready = _READY.setdefault(catalogue, {})
    text = ready.get(string)
    if text is None:
        text = ready[string] = _format(catalogue.ugettext(string), variables)
    return text


def markup_ngettext(singular: str, plural: str, num: int, **variables: Any) -> Markup:
    """Return ``singular`` or ``plural`` for ``num`` in the page's language as
    markup, formatted with ``variables`` (escaped) and ``num`` (written by
    :func:`count_text`), as a template's ``{{ ngettext(...) }}`` is."""
    variables.setdefault("num", count_text(num))
    return _format(translations().ungettext(singular, plural, num), variables)


def isolated(text: str) -> Markup:
    """Return ``text``, a name or seed a player typed, as HTML that a
    sentence holds apart from its own words: escaped, in a ``<bdi>``
    (``"<bdi>Ali</bdi>"``), so a Persian or Hebrew name ending in a sign
    (``س.ع.``) reads right to left within itself and leaves the words and
    signs around it where the sentence has them. For the variables of
    :func:`markup_gettext` and of the templates' ``_()`` (the filter
    ``isolated``), which keep it as markup; not for a page's title or an
    attribute, which hold text only."""
    return Markup("<bdi>%s</bdi>") % (text,)


@pass_context
def template_gettext(context: Context, string: str, **variables: Any) -> str:
    """The templates' ``_()`` and ``gettext()``: :func:`gettext` as Jinja's
    newstyle gettext returns it (:func:`markup_gettext` when autoescaping,
    and always formatted with ``variables``, so ``%%`` is ``%`` even without
    any)."""
    if not context.eval_ctx.autoescape:
        return str(translations().ugettext(string)) % variables
    return markup_gettext(string, **variables)


@pass_context
def template_ngettext(
    context: Context, singular: str, plural: str, num: int, **variables: Any
) -> str:
    """The templates' ``ngettext()``: :func:`ngettext` as Jinja's newstyle
    ngettext returns it (``num`` among the variables; :func:`markup_ngettext`
    when autoescaping)."""
    if context.eval_ctx.autoescape:
        return markup_ngettext(singular, plural, num, **variables)
    variables.setdefault("num", count_text(num))
    return str(translations().ungettext(singular, plural, num)) % variables


def init_app(app: Flask) -> None:
    """Set up Flask-Babel on ``app`` with :func:`select_locale`, and the
    templates' ``_()``, ``gettext()`` and ``ngettext()`` (Flask-Babel's Jinja
    i18n extension is newstyle; these replace its callables, and its ``_``,
    an alias that looks ``gettext`` up on every call), :func:`manifest` and
    :func:`og_locale`, and the filter ``isolated`` (:func:`isolated`)."""
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.globals.update(
        _=template_gettext,
        gettext=template_gettext,
        ngettext=template_ngettext,
        manifest=manifest,
        og_locale=og_locale,
    )
    app.jinja_env.filters["isolated"] = isolated
