"""The README and docs/ point only at things in the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: path.name)
def test_docs_refer_to_nothing_outside_the_repository(doc):
    text = doc.read_text(encoding="utf-8")
    assert "shared/" not in text
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if not target.startswith(("http://", "https://")):
            assert (doc.parent / target).exists(), f"{doc.name} links to missing {target}"


def test_the_port_variable_the_readme_names_is_the_one_scripts_serve_reads():
    serve = (ROOT / "scripts" / "serve").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "${PISTI_BIND:-" in serve
    assert "PISTI_BIND=0.0.0.0:8080 scripts/serve" in readme
