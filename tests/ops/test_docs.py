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


def anchors(doc: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``doc``: lower case,
    punctuation dropped, spaces as ``-``, a repeated one numbered."""
    text = re.sub(r"^```.*?^```", "", doc.read_text(encoding="utf-8"), flags=re.S | re.M)
    found: set[str] = set()
    for heading in re.findall(r"^#+ +(.+?) *$", text, flags=re.M):
        words = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", heading).lower()
        slug = "".join(c for c in words if c.isalnum() or c in " -_").replace(" ", "-")
        name, number = slug, 0
        while name in found:
            number += 1
            name = f"{slug}-{number}"
        found.add(name)
    return found


@pytest.mark.parametrize("doc", [*DOCS, ROOT / "BENCHMARKS.md"], ids=lambda path: path.name)
def test_every_link_to_a_heading_finds_it(doc):
    """A link to a part of a page (``#...``) names one of its headings: a
    heading reworded leaves no link going to the top of the page."""
    text = re.sub(r"^```.*?^```", "", doc.read_text(encoding="utf-8"), flags=re.S | re.M)
    links = re.findall(r"\]\(([^)#\s]*)#([^)\s]+)\)", text)
    for target, part in links:
        if target.startswith(("http://", "https://")):
            continue
        page = (doc.parent / target) if target else doc
        assert part in anchors(page), f"{doc.name} links to {target}#{part}: no such heading"


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


def _stand_in(path: Path, text: str) -> None:
    path.write_text("#!/usr/bin/env bash\n" + text)
    path.chmod(0o755)


def _stand_in_checkout(folder: Path) -> tuple[Path, Path]:
    """Make ``folder`` a checkout holding scripts/serve, a lock, a
    pyproject and an empty Turkish catalogue: its scripts/serve and the
    catalogue's folder."""
    (folder / "scripts").mkdir()
    serve = folder / "scripts" / "serve"
    serve.write_text((ROOT / "scripts" / "serve").read_text())
    serve.chmod(0o755)
    (folder / "requirements.lock").write_text("a==1\n")
    (folder / "pyproject.toml").write_text("[project]\n")
    catalogue = folder / "app" / "translations" / "tr" / "LC_MESSAGES"
    catalogue.mkdir(parents=True)
    (catalogue / "messages.po").write_text("")
    return serve, catalogue


def _two_replicas(serve: Path, **env: str) -> list[str]:
    """Start ``serve`` twice at once (ports 5001 and 5002, ``env`` added to
    the environment), check both end with status 0: their outputs."""
    replicas = [
        subprocess.Popen(
            [str(serve)],
            env={**os.environ, "PISTI_BIND": f"127.0.0.1:{port}", **env},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for port in (5001, 5002)
    ]
    outputs = [replica.communicate(timeout=60)[0] for replica in replicas]
    assert [replica.returncode for replica in replicas] == [0, 0], outputs
    return outputs


def test_replicas_started_together_from_one_checkout_install_one_at_a_time(tmp_path):
    # The README's several replicas without Docker: two scripts/serve
    # started at once from one checkout after an upgrade both ran pip into
    # the one .venv at the same time (seen: both logged "Installing").
    # Here scripts/serve runs in a stand-in checkout whose pip and pybabel
    # note when two run at once.
    serve, catalogue = _stand_in_checkout(tmp_path)
    tools = tmp_path / ".venv" / "bin"
    tools.mkdir(parents=True)
    _stand_in(tools / "python", 'if [ "$1" = -V ]; then echo "Python 3.11.7"; fi\n')
    at_once = f"""
if ! mkdir "{tmp_path}/busy" 2>/dev/null; then touch "{tmp_path}/at-once"; fi
echo "$(basename "$0")" >> "{tmp_path}/runs"
sleep 1
rmdir "{tmp_path}/busy" 2>/dev/null || true
"""
    _stand_in(tools / "pip", at_once)
    _stand_in(tools / "pybabel", at_once + f'touch "{catalogue}/messages.mo"\n')
    outputs = _two_replicas(serve)
    assert not (tmp_path / "at-once").exists(), "two installs ran at once"
    # The first installs and compiles; the second finds it done.
    assert (tmp_path / "runs").read_text().split() == ["pip", "pip", "pybabel"]
    assert sum("Installing the app's packages" in output for output in outputs) == 1


def test_replicas_started_together_from_a_fresh_checkout_make_one_venv(tmp_path):
    # Two scripts/serve started at once from a checkout with no .venv yet
    # (the first start of the README's replicas) both ran "python3 -m venv
    # .venv" at once, before the install's lock: with the real venv one of
    # them stopped with "Error: [Errno 17] File exists: '.../.venv'", and so
    # did its replica. Here a stand-in python3 notes two runs at once.
    serve, catalogue = _stand_in_checkout(tmp_path)
    (catalogue / "messages.mo").write_text("")
    os.utime(catalogue / "messages.po", (1, 1))
    outside = tmp_path / "path"
    outside.mkdir()
    tools = tmp_path / ".venv" / "bin"
    _stand_in(
        outside / "python3",
        f"""
if ! mkdir "{tmp_path}/busy" 2>/dev/null; then touch "{tmp_path}/at-once"; exit 1; fi
echo venv >> "{tmp_path}/runs"
sleep 1
mkdir -p "{tools}"
printf '#!/usr/bin/env bash\\nif [ "$1" = -V ]; then echo "Python 3.11.7"; fi\\n' > "{tools}/python"
printf '#!/usr/bin/env bash\\necho pip >> "{tmp_path}/runs"\\n' > "{tools}/pip"
chmod +x "{tools}/python" "{tools}/pip"
rmdir "{tmp_path}/busy"
""",
    )
    _two_replicas(serve, PATH=f"{outside}:{os.environ['PATH']}")
    assert not (tmp_path / "at-once").exists(), "two venvs were made at once"
    assert (tmp_path / "runs").read_text().split() == ["venv", "pip", "pip"]
