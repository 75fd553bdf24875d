"""The Dockerfile passes hadolint and installs from requirements.lock, which
pins every dependency with hashes; docker-compose.yml wires Redis, two app
replicas and nginx with settings the app accepts. (scripts/build-image
builds the image for real.)"""

from __future__ import annotations

import fnmatch
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
import redis
import yaml
from flask import request
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from app import create_app
from app.web.documents import SERVED
from app.web.i18n import LANGUAGES
from app.web.security import HEADERS
from benchmarks.load_servers import free_port

ROOT = Path(__file__).resolve().parents[2]


def test_dockerfile_passes_hadolint():
    hadolint = shutil.which("hadolint", path=str(Path(sys.executable).parent)) or shutil.which(
        "hadolint"
    )
    result = subprocess.run(
        [hadolint, "Dockerfile"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


@pytest.fixture
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_runs_redis_postgres_two_app_replicas_and_a_proxy(compose):
    services = compose["services"]
    assert set(services) == {"redis", "postgres", "app", "worker", "proxy"}
    app = services["app"]
    assert app["build"] == {"context": ".", "args": {"PISTI_COMMIT": "${PISTI_COMMIT:-}"}}
    assert app["deploy"]["replicas"] == 2
    assert app["depends_on"]["redis"]["condition"] == "service_healthy"
    assert app["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert services["postgres"]["volumes"] == ["postgres-data:/var/lib/postgresql/data"]
    assert "postgres-data" in compose["volumes"]
    assert "--appendonly" in services["redis"]["command"]
    assert services["proxy"]["ports"] == ["8000:80"]
    # nginx resolves the replicas once, at its start: not before they answer.
    assert services["proxy"]["depends_on"] == {"app": {"condition": "service_healthy"}}
    nginx = compose["configs"]["nginx"]["content"]
    assert "server app:8000;" in nginx and "proxy_pass http://pisti;" in nginx
    assert re.search(r"client_max_body_size 64k;", nginx)
    # nginx's own error answers carry the security headers too.
    for name, value in HEADERS.items():
        assert f'add_header {name} "{value}" always;' in nginx
        assert f"proxy_hide_header {name};" in nginx


def test_every_log_docker_keeps_is_capped(compose):
    """Docker keeps a container's log without end unless told (some 2 MB a
    day at 200 games a day, on a small box's SD card): every compose
    service's log, and the README's ``docker run``'s, is capped."""
    for name, service in compose["services"].items():
        assert service.get("logging", {}).get("options", {}).get("max-size") == "10m", name
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    run = re.search(r"^docker run --name pisti (?:.*\\\n)*.*$", readme, re.M)
    assert run is not None
    assert "--log-opt max-size=10m --log-opt max-file=3" in run.group(0)


def test_the_server_runs_with_two_malloc_arenas():
    """glibc's malloc makes up to 8 arenas a core for the server's threads:
    with 2, the server measured 118 MB resident after 50 games, not 131,
    and 0.53 GB of address space, not 1.46 (``ulimit -v 600000`` stopped
    it at start, "can't start new thread"; it now serves under 1000000).
    The image and ``scripts/serve`` (the systemd unit's) both set it."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    image = dockerfile[dockerfile.rindex("\nFROM ") :]
    assert re.search(r"^ENV (?:.*\\\n)*\s*MALLOC_ARENA_MAX=2$", image, re.M)
    serve = (ROOT / "scripts" / "serve").read_text()
    assert serve.index('export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"') < serve.index(
        "exec .venv/bin/python"
    )


def test_compose_app_settings_are_accepted(compose, monkeypatch, tmp_path):
    environment = compose["services"]["app"]["environment"]
    assert environment["FLASK_DATABASE_URL"].startswith("postgresql://pisti:")
    assert environment["FLASK_SESSION_BACKEND"] == "redis"
    assert environment["FLASK_REDIS_URL"].startswith("redis://redis:6379/")
    assert environment["FLASK_SECRET_KEY"].startswith("${FLASK_SECRET_KEY:?")  # required, shared
    for name, value in environment.items():
        monkeypatch.setenv(name, _compose_default(str(value)))
    monkeypatch.setenv("FLASK_SECRET_KEY", "a-compose-secret-key")
    # No "postgres" host here: the same settings with SQLite in its place.
    monkeypatch.setenv("FLASK_DATABASE_URL", f"sqlite:///{tmp_path / 'pisti.db'}")
    app = create_app()
    assert app.config["SESSION_BACKEND"] == "redis" and app.config["TRUSTED_PROXIES"] == 1
    assert app.config["SESSION_COOKIE_SECURE"] is False


def _compose_default(value: str) -> str:
    """``value`` as Compose reads it with nothing set: each ``${NAME:-default}``
    its default."""
    return re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", value)


def _through_compose_nginx(nginx: str, headers: dict[str, str], remote_addr: str) -> dict:
    """The headers the compose file's nginx sends the app for a request that
    came with ``headers`` from ``remote_addr``: those, with its
    ``proxy_set_header`` lines in place of the ones they name, nginx's
    variables filled as nginx fills them (a ``$$`` in the
    compose file is Compose's way of writing ``$``)."""
    came = {name.lower(): value for name, value in headers.items()}
    forwarded_for = came.get("x-forwarded-for")
    variables = {
        "request_id": NGINX_REQUEST_ID,
        "scheme": "http",
        "remote_addr": remote_addr,
        "proxy_add_x_forwarded_for": (
            f"{forwarded_for}, {remote_addr}" if forwarded_for else remote_addr
        ),
        **{f"http_{name.replace('-', '_')}": value for name, value in came.items()},
    }
    settings = re.findall(r"proxy_set_header (\S+) (\"[^\"]*\"|\S+);", nginx)
    # nginx passes a request's headers on, those it sets replaced.
    replaced = {name.lower() for name, _ in settings}
    sent = {name: value for name, value in headers.items() if name.lower() not in replaced}
    for name, value in settings:
        value = re.sub(r"\$\$(\w+)", lambda m: variables.get(m.group(1), ""), value.strip('"'))
        sent[name] = value
    return sent


CLIENT, NGINX, TLS_PROXY = "203.0.113.7", "172.18.0.9", "172.18.0.1"
#: nginx's ``$request_id``: 32 hex digits, new for each request.
NGINX_REQUEST_ID = "6f1e0c3b9a8d4e2f8c7b6a5d4e3f2a1b"


@pytest.mark.parametrize(
    ("proxies", "headers", "remote_addr", "seen"),
    [
        # The compose file alone: a client's own X-Forwarded-* are not believed.
        (
            None,
            {
                "Host": "localhost:8000",
                "X-Forwarded-Proto": "https",
                "X-Forwarded-Host": "evil.example",
                "X-Forwarded-For": "198.51.100.1",
                "X-Request-ID": "chosen-by-the-client",
                "X-Forwarded-Prefix": "/evil",
            },
            CLIENT,
            ("http", "localhost:8000", CLIENT, ""),
        ),
        # A TLS proxy in front (FLASK_TRUSTED_PROXIES=2): its https, host and
        # client address are.
        (
            "2",
            {
                "Host": "pisti.example",
                "X-Forwarded-Proto": "https",
                "X-Forwarded-Host": "pisti.example",
                "X-Forwarded-For": CLIENT,
            },
            TLS_PROXY,
            ("https", "pisti.example", CLIENT, ""),
        ),
        # ... one serving the site under a path, which it says it strips.
        (
            "2",
            {
                "Host": "example.org",
                "X-Forwarded-Proto": "https",
                "X-Forwarded-Host": "example.org",
                "X-Forwarded-For": CLIENT,
                "X-Forwarded-Prefix": "/pisti",
            },
            TLS_PROXY,
            ("https", "example.org", CLIENT, "/pisti"),
        ),
        # ... one that sends its own Host (nginx's default) but says the
        # site's in X-Forwarded-Host.
        (
            "2",
            {
                "Host": "127.0.0.1:8000",
                "X-Forwarded-Proto": "https",
                "X-Forwarded-Host": "pisti.example",
                "X-Forwarded-For": CLIENT,
            },
            TLS_PROXY,
            ("https", "pisti.example", CLIENT, ""),
        ),
        # ... and behind it, a client's own copies are not believed either.
        (
            "2",
            {
                "Host": "pisti.example",
                "X-Forwarded-Proto": "http, https",
                "X-Forwarded-Host": "evil.example, pisti.example",
                "X-Forwarded-For": f"198.51.100.1, {CLIENT}",
                "X-Forwarded-Prefix": "/evil, /pisti",
            },
            TLS_PROXY,
            ("https", "pisti.example", CLIENT, "/pisti"),
        ),
    ],
)
def test_the_app_behind_the_compose_nginx_sees_the_players_scheme_host_address_and_path(
    compose, tmp_path, proxies, headers, remote_addr, seen
):
    environment = compose["services"]["app"]["environment"]
    setting = environment["FLASK_TRUSTED_PROXIES"]
    trusted = int(proxies or _compose_default(str(setting)))
    if proxies:  # as the README says to set it: in .env, which Compose reads
        assert setting == "${FLASK_TRUSTED_PROXIES:-1}"
    # Not a test app: with its request log, which names each request.
    app = create_app(
        {
            "SECRET_KEY": "a-compose-secret-key",
            "SESSION_FILE_DIR": str(tmp_path),
            "DATABASE_URL": f"sqlite:///{tmp_path / 'pisti.db'}",
            "TRUSTED_PROXIES": trusted,
        }
    )
    app.add_url_rule(
        "/probe",
        "probe",
        lambda: [request.scheme, request.host, request.remote_addr, request.script_root],
    )
    sent = _through_compose_nginx(compose["configs"]["nginx"]["content"], headers, remote_addr)
    answer = app.test_client().get("/probe", headers=sent, environ_base={"REMOTE_ADDR": NGINX})
    assert tuple(answer.get_json()) == seen
    # The request's id is the compose nginx's, never a client's.
    assert answer.headers["X-Request-ID"] == NGINX_REQUEST_ID


def _locked() -> dict[str, tuple[str, int]]:
    """The lock file's pins: name -> (version, number of hashes)."""
    text = (ROOT / "requirements.lock").read_text()
    pins = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", text):
        match = re.match(r"([A-Za-z0-9_.-]+)==([^\s\\]+)", block)
        if match:
            name = canonicalize_name(match.group(1))
            pins[name] = (match.group(2), block.count("--hash=sha256:"))
    return pins


def test_the_lock_pins_every_dependency_with_hashes():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pins = _locked()
    for line in project["project"]["dependencies"]:
        requirement = Requirement(line)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is missing from requirements.lock (see the README)"
        version = pins[name][0]
        assert requirement.specifier.contains(version), f"{name}=={version} is not {requirement}"
    # The build tools the image installs the app with are locked too.
    for tool in project["build-system"]["requires"]:
        assert canonicalize_name(Requirement(tool).name) in pins
    assert all(hashes > 0 for _, hashes in pins.values())


def test_the_lock_is_made_on_the_images_python():
    """pip-compile on a later Python picks releases that do not install on the
    image's (numpy 2.5 needs 3.12), so the lock is made on the Python that the
    image runs and requires-python names as the oldest (README, "The lock file")."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    oldest = re.fullmatch(r">=(3\.\d+)", project["project"]["requires-python"])
    assert oldest
    lock = (ROOT / "requirements.lock").read_text()
    made_on = re.search(r"autogenerated by pip-compile with Python (\S+)\n", lock)
    assert made_on and made_on.group(1) == oldest.group(1)
    bases = re.findall(r"^FROM python:(\S+)-slim", (ROOT / "Dockerfile").read_text(), re.M)
    assert bases and set(bases) == {oldest.group(1)}


def test_the_tests_run_on_the_locks_packages():
    """scripts/test installs the lock before the test tools, so the suite tests
    the versions that the server and the image run, not the newest on PyPI."""
    unlike = {}
    for name, (version, _) in _locked().items():
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            installed = None
        if installed != version:
            unlike[name] = f"locked {version}, installed {installed}"
    assert unlike == {}, "run scripts/test, which installs requirements.lock"


def test_the_image_installs_from_the_lock_only():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "pip install --require-hashes --no-deps -r requirements.lock" in dockerfile
    installs = re.findall(r"pip install [^\n]*", dockerfile)
    assert all("--no-deps" in line for line in installs), installs


def test_compose_redis_caps_memory_and_evicts_only_keys_that_expire(compose, tmp_path):
    """Redis runs the compose command's settings as written: a memory cap,
    and past it evicting only keys with an expiry (sessions carry one)."""
    command = [
        re.sub(r"\$\{\w+:-([^}]+)\}", r"\1", str(part))
        for part in compose["services"]["redis"]["command"]
    ]
    assert command[0] == "redis-server"
    port = free_port()
    server = subprocess.Popen(
        [*command, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
    )
    try:
        client = redis.Redis(port=port)
        assert _wait_for(client), "redis-server did not start"
        assert client.config_get("maxmemory-policy") == {"maxmemory-policy": "volatile-lru"}
        assert int(client.config_get("maxmemory")["maxmemory"]) == 256 * 1024 * 1024
    finally:
        server.terminate()
        server.wait()


def _wait_for(client) -> bool:
    for _ in range(100):
        try:
            return bool(client.ping())
        except redis.ConnectionError:
            time.sleep(0.05)
    return False


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"FLASK_TRUSTED_HOSTS": '["pisti.example", "www.pisti.example"]'},
        {"FLASK_TRUSTED_HOSTS": '[".pisti.example"]'},
        {"FLASK_TRUSTED_HOSTS": '["pisti.example"]', "FLASK_SERVER_NAME": "pisti.example:8443"},
    ],
)
def test_the_image_health_check_sends_a_host_the_site_answers_to(serve, env):
    # With trusted hosts set, the app answers 400 to a Host it does not
    # know, loopback included; the image's check must still see it healthy.
    assert (
        'CMD ["python3", "/usr/local/bin/pisti-healthcheck"]' in (ROOT / "Dockerfile").read_text()
    )
    server = serve(env, ready_host="pisti.example")
    check = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "healthcheck")],
        env={**os.environ, **env, "PORT": str(server.port)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert check.returncode == 0, check.stderr


def test_the_health_check_fails_when_nothing_answers():
    check = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "healthcheck")],
        env={**os.environ, "PORT": "1"},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert check.returncode == 1
    assert "unhealthy:" in check.stderr


def test_the_image_keeps_babels_data_for_every_language_the_app_speaks(tmp_path):
    # The image drops Babel's data for other locales; a language without
    # its data would stop the app from starting (app.web.i18n.languages).
    # A catalogue added to app/translations keeps its data (and its
    # parent's) with no edit to the Dockerfile.
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(
        r"prune-locale-data /opt/venv/\S+/babel/locale-data \\\s+app/translations\n", dockerfile
    )
    translations = tmp_path / "translations"
    for code in [*LANGUAGES, "pt_BR"]:
        if code != "en":
            (translations / code / "LC_MESSAGES").mkdir(parents=True)
            (translations / code / "LC_MESSAGES" / "messages.po").touch()
    data = tmp_path / "locale-data"
    data.mkdir()
    for code in ["root", "en", "en_GB", "tr", "tr_CY", "pt", "pt_BR", "pt_PT", "de"]:
        (data / f"{code}.dat").touch()
    script = ROOT / "scripts" / "prune-locale-data"
    subprocess.run([script, data, translations], check=True, timeout=30)
    kept = {path.stem for path in data.iterdir()}
    assert kept == {"root", *LANGUAGES, "pt", "pt_BR"}


def test_the_image_is_built_in_two_stages_without_the_build_tools():
    # pip and setuptools only build the venv; the image copies the venv
    # out of the build stage, without them.
    dockerfile = (ROOT / "Dockerfile").read_text()
    stages = re.findall(r"^FROM (\S+)(?: AS (\w+))?$", dockerfile, re.M)
    assert [name for _, name in stages] == ["build", ""]
    final = dockerfile.split("\nFROM ")[-1]
    assert "COPY --from=build /opt/venv /opt/venv" in final
    assert "pip install" not in final
    assert "pip uninstall --quiet --yes setuptools pip" in dockerfile


def in_build_context(path: str) -> bool:
    """Whether ``.dockerignore`` lets file ``path`` (relative to the
    repository) into the build context: its last rule matching the path or
    a folder above it decides, a ``!`` rule letting it in."""
    rules = [line for line in (ROOT / ".dockerignore").read_text().splitlines() if line]
    parts = path.split("/")
    paths = ["/".join(parts[: end + 1]) for end in range(len(parts))]
    sent = True
    for rule in rules:
        pattern = rule.removeprefix("!")
        if any(fnmatch.fnmatchcase(candidate, pattern) for candidate in paths):
            sent = rule.startswith("!")
    return sent


def test_the_image_holds_the_documents_the_site_serves_and_no_other():
    # The rules page links to docs/record-format.md; the image had no docs/
    # at all, so a self-hoster's site answered the link with a 404.
    final = (ROOT / "Dockerfile").read_text().split("\nFROM ")[-1]
    for name in SERVED:
        assert f"COPY docs/{name} ./docs/\n" in final
        assert in_build_context(f"docs/{name}")
    assert not in_build_context("docs/translations.md")
    assert not in_build_context("tests/conftest.py")
    assert in_build_context("scripts/healthcheck") and not in_build_context("scripts/serve")
