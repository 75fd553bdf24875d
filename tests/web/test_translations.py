"""Every sentence the app can show has its Turkish: the messages are
extracted from the code and the templates as ``pybabel extract`` does (with
``babel.cfg`` and the app's own gettext wrappers) and looked up in the
Turkish catalogue, placeholders included."""

from __future__ import annotations

import ast
import functools
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


def in_f_strings(path: Path) -> list[tuple[str | tuple[str, ...], str | None, str]]:
    """Return ``(message, context, where)`` for the messages of the gettext
    calls inside ``path``'s f-strings, which Babel's extraction passes over
    on Python 3.11 (it reads an f-string as one string)."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for string in ast.walk(tree):
        if not isinstance(string, ast.JoinedStr):
            continue
        for call in ast.walk(string):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
                continue
            if call.func.id not in KEYWORDS:
                continue
            # Babel's keyword spec: the 1-based places of the message's
            # forms, and of its context as (place, "c"); None for (1,).
            spec = KEYWORDS[call.func.id] or (1,)
            texts = [arg.value if isinstance(arg, ast.Constant) else None for arg in call.args]
            places = [place for place in spec if isinstance(place, int)]
            context = next((place[0] for place in spec if isinstance(place, tuple)), None)
            wanted = [*places, *([context] if context else [])]
            if max(wanted) > len(texts) or not all(isinstance(texts[i - 1], str) for i in wanted):
                continue
            forms = tuple(texts[i - 1] for i in places)
            message = forms[0] if len(forms) == 1 else forms
            found.append(
                (
                    message,
                    texts[context - 1] if context else None,
                    f"{path.relative_to(ROOT)}:{call.lineno}",
                )
            )
    return found


@functools.cache
def extracted() -> list[tuple[str | tuple[str, ...], str | None, str]]:
    """Return ``(message, context, where)`` for every message in ``app/``
    and ``templates/`` (a plural message is a tuple of its forms), those
    inside f-strings too (:func:`in_f_strings`)."""
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
    for path in sorted((ROOT / "app").rglob("*.py")):
        found += in_f_strings(path)
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
    """The catalogue holds no message the app no longer shows."""
    with CATALOGUE.open("rb") as file:
        catalogue = read_po(file)
    used = {(m[0] if isinstance(m, tuple) else m, context) for m, context, _ in extracted()}
    unused = []
    for entry in catalogue:
        key = entry.id[0] if isinstance(entry.id, tuple) else entry.id
        if key and (key, entry.context) not in used:
            unused.append(key)
    assert unused == []


def test_messages_inside_f_strings_are_extracted():
    """A gettext call inside an f-string is checked like any other (the
    table's regions are drawn with them)."""
    found = {message for message, _, where in extracted() if where.startswith("app/web/regions")}
    assert {"Playing aids", ("%(num)s Jack pişti", "%(num)s Jack piştis")} <= found
