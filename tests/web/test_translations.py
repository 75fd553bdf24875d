"""Every sentence the app can show has its Turkish: the messages are
extracted from the code and the templates by ``pybabel extract`` as a
maintainer runs it (its settings in ``pyproject.toml``, docs/translations.md)
and looked up in the Turkish catalogue, placeholders included; and nothing
the code asks to translate is missed by that extraction."""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "app" / "translations" / "tr" / "LC_MESSAGES" / "messages.po"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def extract(folder: Path) -> Path:
    """Run ``pybabel extract`` as the docs say (at the top of the checkout,
    no options but where to write) into ``folder``; the template's path."""
    pot = folder / "messages.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "-q", "extract", "-o", str(pot)],
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    return pot


@functools.cache
def template() -> Catalog:
    """Return the messages ``pybabel extract`` finds (:func:`extract`)."""
    with tempfile.TemporaryDirectory() as folder:
        pot = extract(Path(folder))
        with pot.open("rb") as file:
            return read_po(file)


def extracted() -> list[tuple[str | tuple[str, ...], str | None, str]]:
    """Return ``(message, context, where)`` for every message extracted
    (a plural message is a tuple of its forms)."""
    return [
        (message.id, message.context, ", ".join(name for name, _line in message.locations))
        for message in template()
        if message.id
    ]


def called(path: Path) -> list[tuple[str, str | None, str]]:
    """Return ``(message, context, where)`` for every call in ``path`` of a
    gettext function (``_``, or any name ending in ``gettext``: Babel's,
    Flask-Babel's and the app's wrappers, lazy ones too) with its message
    written out: what the code asks to translate, read from its syntax
    tree, f-strings included (Babel's extraction passes over a call inside
    an f-string on Python 3.11, reading the f-string as one string)."""
    found = []
    for call in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(call, ast.Call):
            continue
        func = call.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name != "_" and not name.endswith("gettext"):
            continue
        texts = [arg.value if isinstance(arg, ast.Constant) else None for arg in call.args]
        contextual = name.endswith("pgettext")
        message = texts[1 if contextual else 0] if len(texts) > contextual else None
        context = texts[0] if contextual else None
        if isinstance(message, str):
            found.append((message, context, f"{path.relative_to(ROOT)}:{call.lineno}"))
    return found


def test_the_extraction_finds_every_message_the_code_asks_for():
    """A message left out of ``pybabel extract`` would be dropped from the
    catalogues by the next ``pybabel update`` (kept only as an obsolete
    ``#~`` entry), and shown in English. 19 were, all in f-strings."""
    keys = {(m[0] if isinstance(m, tuple) else m, context) for m, context, _ in extracted()}
    asked = [found for path in sorted((ROOT / "app").rglob("*.py")) for found in called(path)]
    assert len(asked) > 400
    assert [where for message, context, where in asked if (message, context) not in keys] == []


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


def test_the_catalogue_is_as_pybabel_update_writes_it():
    """The steps of docs/translations.md (extract, then update) change
    nothing in the Turkish catalogue but its template's date: a catalogue
    edited by hand in another order made the next update rewrite the whole
    file, a diff of thousands of lines that hid the messages it changed."""
    with tempfile.TemporaryDirectory() as folder:
        pot = extract(Path(folder))
        updated = Path(folder) / "tr" / "LC_MESSAGES" / "messages.po"
        updated.parent.mkdir(parents=True)
        updated.write_bytes(CATALOGUE.read_bytes())
        subprocess.run(
            [
                sys.executable,
                "-m",
                "babel.messages.frontend",
                "-q",
                "update",
                "-i",
                str(pot),
                "-d",
                folder,
            ],
            cwd=folder,
            check=True,
            timeout=120,
        )
        dated = re.compile(r'^"POT-Creation-Date: .*\n', re.M)
        assert dated.sub("", updated.read_text("utf-8")) == dated.sub(
            "", CATALOGUE.read_text("utf-8")
        )
