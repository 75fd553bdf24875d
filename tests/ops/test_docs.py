"""The README and docs/ point only at things in the repository."""

from __future__ import annotations

import os
import re
import subprocess
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


@pytest.mark.parametrize(
    "bind", ["localhost", ":8080", "8080", "0.0.0.0:http", "127.0.0.1:99999", "[::1]:65536"]
)
def test_a_bad_pisti_bind_is_named_in_one_line(bind):
    done = subprocess.run(
        [str(ROOT / "scripts" / "serve")],
        env={**os.environ, "PISTI_BIND": bind},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1
    assert done.stderr == (
        "Error: PISTI_BIND must be HOST:PORT with a port up to 65535, such as 127.0.0.1:5000 "
        f"or 0.0.0.0:8080, not '{bind}'\n"
    )
