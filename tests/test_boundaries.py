"""The boundaries between the app's parts, read from the imports: the
engine is pure rules and the bots see only it (no Flask, no web, no
database; the engine no bots either), and only the
session store (``app/web/store.py``, over the session interface
``app/sessions.py``) touches Flask's ``session``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[1] / "app"


def imports(path: Path) -> set[str]:
    """Every name ``path`` imports: modules, and ``module.name`` for a
    ``from module import name`` (relative modules resolved within app/)."""
    found = set()
    package = ".".join(path.relative_to(APP.parent).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


#: What may not be imported from each pure part: the web's and the
#: database's libraries, and any part of the app but the ones named.
PURE = {"engine": ("app.engine",), "ai": ("app.engine", "app.ai")}
OUTSIDE = {"flask", "flask_babel", "flask_sqlalchemy", "sqlalchemy", "werkzeug", "redis"}


@pytest.mark.parametrize(
    "path",
    [path for part in PURE for path in sorted((APP / part).glob("*.py"))],
    ids=lambda path: f"{path.parent.name}/{path.name}",
)
def test_the_engine_and_the_bots_import_no_web_or_database(path):
    allowed = PURE[path.parent.name]
    outside = {
        name
        for name in imports(path)
        if name.split(".")[0] in OUTSIDE
        or (name.startswith("app.") and not name.startswith(allowed))
    }
    assert outside == set()


def test_only_the_session_store_touches_the_session():
    touching = sorted(
        str(path.relative_to(APP.parent))
        for path in APP.rglob("*.py")
        if "flask.session" in imports(path)
    )
    assert touching == ["app/sessions.py", "app/web/store.py"]
