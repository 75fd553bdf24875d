"""Every sentence the app can show has its Turkish: the messages are
extracted from the code and the templates as ``pybabel extract`` does (with
``babel.cfg`` and the app's own gettext wrappers) and looked up in the
Turkish catalogue, placeholders included."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "app" / "translations" / "tr" / "LC_MESSAGES" / "messages.po"
#: The app's wrappers (``app/web/i18n.py``) beside Babel's own names.
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    "lazy_gettext": None,
    "lazy_pgettext": ((1, "c"), 2),
    "lazy_ngettext": (1, 2),
    "markup_gettext": None,
    "markup_ngettext": (1, 2),
}
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def extracted() -> list[tuple[str | tuple[str, ...], str | None, str]]:
    """Return ``(message, context, where)`` for every message in ``app/``
    and ``templates/`` (a plural message is a tuple of its forms)."""
    method_map = [("app/**.py", "python"), ("templates/**.html", "jinja2")]
    found = []
    for name, line, message, _comments, context in extract_from_dir(
        ROOT,
        method_map,
        keywords=KEYWORDS,
        options_map={"templates/**.html": {"extensions": "jinja2.ext.i18n"}},
        directory_filter=lambda path: ".venv" not in path and "tests" not in path,
    ):
        found.append((message, context, f"{name}:{line}"))
    return found


def test_every_message_has_its_turkish():
    with CATALOGUE.open("rb") as file:
        catalogue = read_po(file)
    found = extracted()
    assert len(found) > 600
    missing, wrong = [], []
    for message, context, where in found:
        key = message[0] if isinstance(message, tuple) else message
        entry = catalogue.get(key, context=context)
        forms = entry.string if entry is not None else None
        forms = forms if isinstance(forms, tuple) else (forms,)
        if entry is None or entry.fuzzy or not all(forms):
            missing.append(f"{where}: {key!r}")
            continue
        wanted = set(PLACEHOLDER.findall(key))
        for form in forms:
            if not set(PLACEHOLDER.findall(str(form))) <= wanted | {"num"}:
                wrong.append(f"{where}: {form!r}")
    assert missing == []
    assert wrong == []


def test_a_score_keeps_its_dash_between_its_numbers():
    """A score written "40 – 6" in Turkish is one unbreakable group: at
    360 px the hand's verdict ended a line with "(40 –" and began the next
    with "6).", and "64 – 24" and "22 – 4 puan" could break the same way.
    No-break spaces around the dash are not enough (a line may break after
    a dash even before a no-break space: "(15 –" over " 11)."), so a word
    joiner follows the dash."""
    with CATALOGUE.open("rb") as file:
        catalogue = read_po(file)
    broken = []
    for entry in catalogue:
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        broken += [
            form
            for form in forms
            if re.search(r"\)s\s*–", str(form)) and "\u00a0–\u2060\u00a0" not in str(form)
        ]
    assert broken == []


def test_every_turkish_message_is_still_used():
    """The catalogue holds no message the app no longer shows: each one is
    extracted from the code or templates, or (a message inside an f-string,
    which extraction does not see) written there as it stands."""
    with CATALOGUE.open("rb") as file:
        catalogue = read_po(file)
    used = {(m[0] if isinstance(m, tuple) else m, context) for m, context, _ in extracted()}
    sources = [*(ROOT / "app").rglob("*.py"), *(ROOT / "templates").rglob("*.html")]
    text = "\n".join(path.read_text(encoding="utf-8") for path in sources)
    unused = []
    for entry in catalogue:
        key = entry.id[0] if isinstance(entry.id, tuple) else entry.id
        if key and (key, entry.context) not in used and key not in text:
            unused.append(key)
    assert unused == []
