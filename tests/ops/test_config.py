"""Configuration from FLASK_* variables: read, checked, and refused with a
clear message when unknown or broken."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
import redis
import requests
from flask import Flask

from app import StartupError, create_app
from app import serve as serve_module
from app.config import ConfigError, hide_password
from app.sessions import FileSessions, RedisSessions
from benchmarks.load_servers import free_port
from tests.ops.conftest import a_server, stop_while_migrating

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch):
    """No FLASK_* variables from the machine running the tests."""
    for name in list(os.environ):
        if name.startswith("FLASK_"):
            monkeypatch.delenv(name)


def test_defaults(tmp_path):
    app = create_app({"SECRET_KEY": "0123456789abcdef", "SESSION_FILE_DIR": str(tmp_path)})
    assert app.config["SESSION_BACKEND"] == "filesystem"
    assert isinstance(app.session_interface, FileSessions)
    assert app.permanent_session_lifetime == timedelta(days=31)
    assert app.config["LOG_LEVEL"] == "INFO"
    assert app.config["SESSION_COOKIE_SECURE"] is False
    assert app.config["NEW_GAME_LIMIT"] == "120 per minute"


def test_a_relative_session_folder_is_under_the_instance_folder(monkeypatch, tmp_path):
    # As a relative SQLite path is: not wherever the server was started.
    instance = tmp_path / "instance"
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda _app: str(instance))
    monkeypatch.chdir(tmp_path)
    app = create_app({"SECRET_KEY": "0123456789abcdef", "SESSION_FILE_DIR": "games"})
    assert app.session_interface.folder == instance / "games"
    assert (instance / "games").is_dir() and not (tmp_path / "games").exists()


def test_environment_is_read(monkeypatch):
    monkeypatch.setenv("FLASK_SECRET_KEY", "a-secret-from-the-environment")
    monkeypatch.setenv("FLASK_SESSION_BACKEND", "redis")
    # Nothing listens on port 1: the app starts without connecting.
    monkeypatch.setenv("FLASK_REDIS_URL", "redis://127.0.0.1:1/3")
    monkeypatch.setenv("FLASK_PERMANENT_SESSION_LIFETIME", "3600")
    monkeypatch.setenv("FLASK_LOG_LEVEL", "warning")
    monkeypatch.setenv("FLASK_SESSION_COOKIE_SECURE", "true")
    monkeypatch.setenv("FLASK_NEW_GAME_LIMIT", "5/minute")
    monkeypatch.setenv("FLASK_TRUSTED_PROXIES", "1")
    app = create_app()
    assert app.secret_key == "a-secret-from-the-environment"
    assert isinstance(app.session_interface, RedisSessions)
    assert app.session_interface.client.connection_pool.connection_kwargs["db"] == 3
    assert app.permanent_session_lifetime == timedelta(hours=1)
    assert app.config["LOG_LEVEL"] == "WARNING"
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert app.config["TRUSTED_PROXIES"] == 1


def test_a_numeric_secret_key_stays_text(monkeypatch, tmp_path):
    monkeypatch.setenv("FLASK_SECRET_KEY", "12345678901234567890")
    app = create_app({"SESSION_FILE_DIR": str(tmp_path)})
    assert app.secret_key == "12345678901234567890"


@pytest.mark.parametrize(
    "key", ["fa4806e8a600e0e6", "0123456789abcdef" * 4, "Qx7-rT2_mK9pLw4Zs8Nv1A"]
)
def test_a_random_secret_key_is_taken(monkeypatch, tmp_path, key):
    # 16 random hex digits may repeat many (this one has 7 different): taken.
    monkeypatch.setenv("FLASK_SECRET_KEY", key)
    app = create_app({"SESSION_FILE_DIR": str(tmp_path)})
    assert app.config["SECRET_KEY"] == key


def test_secrets_are_read_from_the_files_the_file_variables_name(monkeypatch, tmp_path):
    # As Docker and Kubernetes mount secrets: one value a file, often with
    # a final line ending.
    (tmp_path / "key").write_text("a-secret-key-from-a-file\n")
    (tmp_path / "redis").write_text("redis://:S3cret@127.0.0.1:1/4")
    (tmp_path / "database").write_text(f"sqlite:///{tmp_path / 'from-file.db'}\r\n")
    monkeypatch.setenv("FLASK_SECRET_KEY_FILE", str(tmp_path / "key"))
    monkeypatch.setenv("FLASK_SESSION_BACKEND", "redis")
    monkeypatch.setenv("FLASK_REDIS_URL_FILE", str(tmp_path / "redis"))
    monkeypatch.setenv("FLASK_DATABASE_URL_FILE", str(tmp_path / "database"))
    app = create_app()
    assert app.secret_key == "a-secret-key-from-a-file"
    assert app.session_interface.client.connection_pool.connection_kwargs["db"] == 4
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'from-file.db'}"
    assert "SECRET_KEY_FILE" not in app.config
    assert (tmp_path / "from-file.db").exists()


@pytest.mark.parametrize(
    "env,files,message",
    [
        (
            {"FLASK_SECRET_KEY_FILE": "{dir}/missing"},
            {},
            "FLASK_SECRET_KEY_FILE: cannot read '{dir}/missing' (No such file or directory)",
        ),
        (
            {"FLASK_SECRET_KEY_FILE": "{dir}/key"},
            {"key": "\n"},
            "FLASK_SECRET_KEY_FILE: '{dir}/key' is empty",
        ),
        (
            {"FLASK_SECRET_KEY_FILE": "{dir}/key"},
            {"key": "short\n"},
            "FLASK_SECRET_KEY_FILE: use at least 16 random characters",
        ),
        (
            {"FLASK_SECRET_KEY_FILE": "{dir}/key", "FLASK_SECRET_KEY": "0123456789abcdefghij"},
            {"key": "0123456789abcdefghij"},
            "FLASK_SECRET_KEY_FILE: set FLASK_SECRET_KEY or FLASK_SECRET_KEY_FILE, not both",
        ),
        (
            {"FLASK_DATABASE_URL_FILE": "{dir}"},
            {},
            "FLASK_DATABASE_URL_FILE: cannot read '{dir}' (Is a directory)",
        ),
        (
            {"FLASK_DATABASE_URL_FILE": "{dir}/db"},
            {"db": "postgresql+psycopg2://pisti:S3cret@db/pisti"},
            "FLASK_DATABASE_URL: must be a URL such as",
        ),
        (
            {"FLASK_REDIS_URL_FILE": "{dir}/redis"},
            {"redis": b"redis://\xff"},
            "FLASK_REDIS_URL_FILE: cannot read '{dir}/redis' ('utf-8' codec can't decode",
        ),
        (
            {"FLASK_SECRET_KEY_FILES": "{dir}/key"},
            {},
            "FLASK_SECRET_KEY_FILES: unknown setting (did you mean FLASK_SECRET_KEY_FILE?)",
        ),
    ],
)
def test_a_file_variable_that_cannot_be_used_stops_start_up(
    monkeypatch, tmp_path, env, files, message
):
    for name, text in files.items():
        if isinstance(text, bytes):
            (tmp_path / name).write_bytes(text)
        else:
            (tmp_path / name).write_text(text)
    for name, value in env.items():
        monkeypatch.setenv(name, value.format(dir=tmp_path))
    test_config = {"SESSION_FILE_DIR": str(tmp_path)}
    if not any(name.startswith("FLASK_SECRET_KEY") for name in env):
        test_config["SECRET_KEY"] = "0123456789abcdef"
    with pytest.raises(ConfigError) as raised:
        create_app(test_config)
    assert message.format(dir=tmp_path) in str(raised.value)
    assert "S3cret" not in str(raised.value)


@pytest.mark.parametrize(
    "env,message",
    [
        (
            {"FLASK_SESSION_BACKEND": "mongodb"},
            "FLASK_SESSION_BACKEND: must be filesystem or redis, not 'mongodb'",
        ),
        (
            {"FLASK_SESSION_BACKEND": "redis"},
            "FLASK_REDIS_URL: required with FLASK_SESSION_BACKEND=redis",
        ),
        (
            {"FLASK_SESSION_BACKEND": "redis", "FLASK_REDIS_URL": "http://cache:6379"},
            "FLASK_REDIS_URL: must be a URL",
        ),
        (
            {"FLASK_PERMANENT_SESSION_LIFETIME": "a month"},
            "FLASK_PERMANENT_SESSION_LIFETIME: must be a whole number",
        ),
        (
            {"FLASK_PERMANENT_SESSION_LIFETIME": "0"},
            "FLASK_PERMANENT_SESSION_LIFETIME: must be a whole number",
        ),
        (
            {"FLASK_PERMANENT_SESSION_LIFETIME": "true"},
            "FLASK_PERMANENT_SESSION_LIFETIME: must be a whole number",
        ),
        (
            # Past 32 bits in the file store, past timedelta's days.
            {"FLASK_PERMANENT_SESSION_LIFETIME": "4000000000"},
            "FLASK_PERMANENT_SESSION_LIFETIME: must be a whole number of seconds from 1 to "
            "315360000 (ten years)",
        ),
        (
            {"FLASK_PERMANENT_SESSION_LIFETIME": "99999999999999"},
            "FLASK_PERMANENT_SESSION_LIFETIME: must be a whole number",
        ),
        (
            {"FLASK_LOG_LEVEL": "loud"},
            "FLASK_LOG_LEVEL: must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL",
        ),
        (
            {"FLASK_SESSION_COOKIE_SECURE": "yes"},
            "FLASK_SESSION_COOKIE_SECURE: must be true or false, not 'yes'",
        ),
        ({"FLASK_RATELIMIT_ENABLED": "off"}, "FLASK_RATELIMIT_ENABLED: must be true or false"),
        ({"FLASK_NEW_GAME_LIMIT": "lots"}, "FLASK_NEW_GAME_LIMIT: must be a rate such as"),
        (
            {"FLASK_TRUSTED_PROXIES": "-1"},
            "FLASK_TRUSTED_PROXIES: must be a whole number, 0 or more",
        ),
        (
            {"FLASK_MAX_CONTENT_LENGTH": "big"},
            "FLASK_MAX_CONTENT_LENGTH: unknown setting",
        ),
        ({"FLASK_SECRET_KEY": "short"}, "FLASK_SECRET_KEY: use at least 16 random characters"),
        (
            {"FLASK_SECRET_KEY": "a" * 16},
            "FLASK_SECRET_KEY: use at least 16 random characters (this one has 16, 1 of them "
            "different), e.g. the output of python3 -c 'import secrets; "
            "print(secrets.token_hex(32))'",
        ),
        (
            {"FLASK_SECRET_KEY": "abcabcabcabcabcabcab"},
            "FLASK_SECRET_KEY: use at least 16 random characters (this one has 20, 3 of",
        ),
        (
            {"FLASK_SESION_BACKEND": "redis"},
            "FLASK_SESION_BACKEND: unknown setting (did you mean FLASK_SESSION_BACKEND?",
        ),
        (
            {"FLASK_SECRETKEY": "x" * 20},
            "FLASK_SECRETKEY: unknown setting (did you mean FLASK_SECRET_KEY?",
        ),
        (
            {"FLASK_ENV": "production"},
            "FLASK_ENV: unknown setting (Flask no longer reads it since Flask 2.3: remove it)",
        ),
        # Only this app's settings are knobs: a typo of one, or another of
        # Flask's or an extension's, is not passed through unchecked.
        ({"FLASK_RATELIMIT_ENABLE": "false"}, "FLASK_RATELIMIT_ENABLE: unknown setting"),
        ({"FLASK_WTF_CSRF_ENABLED": "false"}, "FLASK_WTF_CSRF_ENABLED: unknown setting"),
        ({"FLASK_TESTING": "true"}, "FLASK_TESTING: unknown setting"),
        # The app's fixed settings are not read from the environment either.
        ({"FLASK_SESSION_COOKIE_SAMESITE": "Bogus"}, "FLASK_SESSION_COOKIE_SAMESITE: unknown"),
        ({"FLASK_WTF_CSRF_TIME_LIMIT": "abc"}, "FLASK_WTF_CSRF_TIME_LIMIT: unknown setting"),
        ({"FLASK_SESSION_FILE_THRESHOLD": "abc"}, "FLASK_SESSION_FILE_THRESHOLD: unknown setting"),
        (
            {"FLASK_SESSION_BACKEND": "redis", "FLASK_REDIS_URL": "redis://cache:6379/abc"},
            "FLASK_REDIS_URL: must be a URL such as redis://host:6379/0 (the path must be a "
            "database number",
        ),
        (
            {"FLASK_DATABASE_URL": "postgresql+psycopg2://pisti@db/pisti"},
            "FLASK_DATABASE_URL: must be a URL such as postgresql://user:password@host/pisti "
            "(psycopg 3, the driver installed)",
        ),
    ],
)
def test_broken_values_stop_start_up(monkeypatch, tmp_path, env, message):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as raised:
        create_app(
            {"SESSION_FILE_DIR": str(tmp_path)}
            if "FLASK_SECRET_KEY" in env
            else {"SECRET_KEY": "0123456789abcdef", "SESSION_FILE_DIR": str(tmp_path)}
        )
    assert message in str(raised.value)


def test_an_empty_session_folder_is_refused_not_read_as_the_default(monkeypatch):
    monkeypatch.setenv("FLASK_SESSION_FILE_DIR", "")
    with pytest.raises(ConfigError) as raised:
        create_app({"SECRET_KEY": "0123456789abcdef"})
    assert "FLASK_SESSION_FILE_DIR: must be a folder path (unset: the instance folder's " in str(
        raised.value
    )


@pytest.mark.parametrize(
    ("name", "value", "shown"),
    [
        (
            "FLASK_DATABASE_URL",
            "postgresql+psycopg2://pisti:S3cretPgPw@db/pisti",
            "postgresql+psycopg2://pisti:***@db/pisti",
        ),
        ("FLASK_REDIS_URL", "redis://:S3cretRedisPw@cache:6379/x", "redis://:***@cache:6379/x"),
    ],
)
def test_a_refused_url_is_shown_without_its_password(monkeypatch, tmp_path, name, value, shown):
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as raised:
        create_app({"SECRET_KEY": "0123456789abcdef", "SESSION_FILE_DIR": str(tmp_path)})
    assert f"not {shown!r}" in str(raised.value)
    assert "S3cret" not in str(raised.value)


@pytest.mark.parametrize(
    ("name", "value", "secret"),
    [
        ("FLASK_DATABASE_URL", "postgresql://pisti:p@ss#1@127.0.0.1:5433/pisti", "ss#1"),
        ("FLASK_DATABASE_URL", "postgresql://pisti:p@ss@db/pisti", "p@ss"),
        # Cut at the "/": host "ss", the database "w#rd@127.0.0.1:5499/pisti".
        ("FLASK_DATABASE_URL", "postgresql://pisti:p@ss/w#rd@127.0.0.1:5499/pisti", "w#rd"),
        ("FLASK_REDIS_URL", "redis://:Zq#Xw@cache:6379/0", "Zq"),
        ("FLASK_REDIS_URL", "redis://:Zq/Xw@cache:6379/0", "Zq"),
        ("FLASK_REDIS_URL", "redis://:Zq?Xw@cache:6379/0", "Zq"),
    ],
)
def test_a_password_that_needs_percent_encoding_is_refused(
    monkeypatch, tmp_path, name, value, secret
):
    # The URL would be read with part of the password as the host name, and
    # the driver's error would show that part.
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as raised:
        create_app({"SECRET_KEY": "0123456789abcdef", "SESSION_FILE_DIR": str(tmp_path)})
    message = str(raised.value)
    assert f"{name}: percent-encode the user name and password" in message
    assert "%40" in message
    assert secret not in message


@pytest.mark.parametrize(
    "url",
    [
        # SQLAlchemy reads these passwords whole: only an @ must be encoded.
        "postgresql://pisti:pa/ss#1?@127.0.0.1:1/pisti",
        "postgresql://pisti:S3cret@127.0.0.1:1/pisti?application_name=me@home",
        "postgresql://admin@srv:S3cret@127.0.0.1:1/pisti",
    ],
)
def test_database_urls_sqlalchemy_reads_whole_are_taken(monkeypatch, tmp_path, url):
    monkeypatch.setenv("FLASK_DATABASE_URL", url)
    with pytest.raises(StartupError) as raised:  # nothing listens on port 1
        create_app({"SECRET_KEY": "0123456789abcdef", "SESSION_FILE_DIR": str(tmp_path)})
    assert "port 1 failed: Connection refused" in str(raised.value)
    assert "S3cret" not in str(raised.value) and "pa/ss" not in str(raised.value)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("unix:///run/redis.sock?db=0&password=S3cret", "unix:///run/redis.sock?db=0&password=***"),
        ("redis://admin@srv:S3cret@cache:6379/0", "redis://admin@srv:***@cache:6379/0"),
        (
            "postgresql+psycopg://pisti:S3cret@db/pisti?application_name=a@b",
            "postgresql+psycopg://pisti:***@db/pisti?application_name=a@b",
        ),
        ("sqlite:////srv/me@home/pisti.db", "sqlite:////srv/me@home/pisti.db"),
        ("redis://cache:6379/0", "redis://cache:6379/0"),
        # A "/" or "#" left unencoded in the password ends urlsplit's host
        # part early: still hidden whole.
        ("postgresql+psycopg://u:s3cr/et@h:abc/db", "postgresql+psycopg://u:***@h:abc/db"),
        ("postgresql://u:s3cr#et@h/db", "postgresql://u:***@h/db"),
    ],
)
def test_passwords_are_hidden_wherever_a_url_holds_one(url, shown):
    assert hide_password(url) == shown


def test_encoded_passwords_and_paths_with_at_signs_are_taken(monkeypatch, tmp_path):
    folder = tmp_path / "me@home"
    folder.mkdir()
    monkeypatch.setenv("FLASK_DATABASE_URL", f"sqlite:///{folder / 'pisti.db'}")
    monkeypatch.setenv("FLASK_REDIS_URL", "redis://:p%40ss%231@127.0.0.1:1/0")
    create_app({"SECRET_KEY": "0123456789abcdef", "SESSION_FILE_DIR": str(tmp_path)})


def test_every_problem_is_named_at_once(monkeypatch):
    monkeypatch.setenv("FLASK_SESSION_BACKEND", "memcached")
    monkeypatch.setenv("FLASK_LOG_LEVEL", "chatty")
    monkeypatch.setenv("FLASK_TYPO", "1")
    with pytest.raises(ConfigError) as raised:
        create_app({"SECRET_KEY": "0123456789abcdef"})
    lines = str(raised.value).splitlines()
    assert lines[0] == "configuration error:"
    assert [line.split(":")[0].strip() for line in lines[1:]] == [
        "FLASK_TYPO",
        "FLASK_SESSION_BACKEND",
        "FLASK_LOG_LEVEL",
    ]


def test_the_flask_commands_own_variables_are_not_settings(monkeypatch, tmp_path):
    monkeypatch.setenv("FLASK_APP", "app")
    monkeypatch.setenv("FLASK_DEBUG", "0")
    monkeypatch.setenv("FLASK_RUN_PORT", "8001")
    app = create_app({"SECRET_KEY": "0123456789abcdef", "SESSION_FILE_DIR": str(tmp_path)})
    assert app.config["DEBUG"] == 0


def test_gunicorn_stops_with_the_message_and_no_traceback(serve):
    with pytest.raises(RuntimeError, match="exited with status 1") as raised:
        serve({"FLASK_SESSION_BACKEND": "mongodb"})
    log_name = str(raised.value).split("(see ")[1].split(")")[0]
    with open(log_name) as log:
        output = log.read()
    assert (
        "Error: configuration error:\n"
        "  FLASK_SESSION_BACKEND: must be filesystem or redis, not 'mongodb'" in output
    )
    assert "Traceback" not in output


@pytest.mark.parametrize("value", ["0", "fast", "20000", "true"])
def test_expert_thinking_time_must_be_milliseconds(tmp_path, monkeypatch, value):
    monkeypatch.setenv("FLASK_EXPERT_MS", value)
    with pytest.raises(ConfigError, match="FLASK_EXPERT_MS"):
        create_app({"SECRET_KEY": "ops-config-expert", "SESSION_FILE_DIR": str(tmp_path)})


@pytest.mark.parametrize("value", ["0", "-1", "two", "25", "1.5", "true"])
def test_search_workers_must_be_a_count(tmp_path, monkeypatch, value):
    monkeypatch.setenv("FLASK_SEARCH_WORKERS", value)
    with pytest.raises(ConfigError) as raised:
        create_app({"SECRET_KEY": "ops-config-workers", "SESSION_FILE_DIR": str(tmp_path)})
    assert "FLASK_SEARCH_WORKERS: must be a whole number from 1 to 24" in str(raised.value)


def test_expert_thinking_time_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("FLASK_EXPERT_MS", "40")
    app = create_app({"SECRET_KEY": "ops-config-expert", "SESSION_FILE_DIR": str(tmp_path)})
    assert app.config["EXPERT_MS"] == 40


def start_server(tmp_path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    """Run ``python -m app.serve`` as served, expecting it to stop at
    start-up; return what it did."""
    return run_module("app.serve", *args, env=env)


def run_flask(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``flask --app app`` with ``args`` in the checkout."""
    return run_module("flask", "--app", "app", *args, env=env)


def run_module(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``python -m`` with ``args`` in the checkout, with a secret key
    and ``env`` over this process's environment (at most 60 s)."""
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=ROOT,
        env={**os.environ, "FLASK_SECRET_KEY": "0123456789abcdef", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"FLASK_DATABASE_URL": "postgresql://pisti@127.0.0.1:1/pisti"},
            "Error: the app cannot start: the database (FLASK_DATABASE_URL) cannot be used: "
            'connection failed: connection to server at "127.0.0.1", port 1 failed: '
            "Connection refused; start the database server, or correct the host and port in "
            "FLASK_DATABASE_URL: the server does not wait for it, so start it once the "
            "database answers (a systemd unit with Restart=on-failure and RestartSec=5 tries "
            "again by itself)",
        ),
        (
            {"FLASK_DATABASE_URL": "sqlite:////nonexistent/folder/pisti.db"},
            "Error: the app cannot start: the database (FLASK_DATABASE_URL) cannot be used: "
            "[Errno 2] the SQLite database's folder does not exist: '/nonexistent/folder'; "
            "correct the path, or make the folders on it first",
        ),
        (
            {"FLASK_SESSION_FILE_DIR": "/proc/no-such-folder"},
            "Error: the app cannot start: the session folder (FLASK_SESSION_FILE_DIR) cannot "
            "be used: [Errno 2] No such file or directory: '/proc/no-such-folder'; "
            "correct the path, or make the folders on it first",
        ),
        (
            # A mistyped path is not made into a new, empty store.
            {"FLASK_SESSION_FILE_DIR": "/nonexistent/pisti/sessions"},
            "Error: the app cannot start: the session folder (FLASK_SESSION_FILE_DIR) cannot "
            "be used: [Errno 2] No such file or directory: '/nonexistent/pisti/sessions'; "
            "correct the path, or make the folders on it first",
        ),
    ],
)
@pytest.mark.parametrize("command", ["serve", "flask db current", "flask routes"])
def test_a_start_up_that_cannot_go_on_says_why_in_one_line(tmp_path, env, message, command):
    env.setdefault("FLASK_DATABASE_URL", f"sqlite:///{tmp_path / 'pisti.db'}")
    env.setdefault("FLASK_SESSION_FILE_DIR", str(tmp_path / "sessions"))
    if command == "serve":
        done = start_server(tmp_path, env, "--listen", f"127.0.0.1:{free_port()}")
    else:
        # Every command of the app but a replay or an arena starts it first.
        done = run_flask(*command.split()[1:], env=env)
    assert done.returncode == 1
    assert done.stderr.strip() == message
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stdout + done.stderr


def test_a_port_taken_or_out_of_range_is_refused_in_one_line(tmp_path):
    env = {
        "FLASK_DATABASE_URL": f"sqlite:///{tmp_path / 'pisti.db'}",
        "FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions"),
    }
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = start_server(tmp_path, env, "--listen", f"127.0.0.1:{port}")
    assert done.returncode == 1
    assert done.stderr == (
        f"Error: cannot listen on 127.0.0.1:{port}: [Errno 98] Address already in use\n"
    )
    # A host waitress cannot resolve.
    done = start_server(tmp_path, env, "--listen", "no-such-host.invalid:8000")
    assert done.returncode == 1
    assert done.stderr.startswith("Error: cannot listen on no-such-host.invalid:8000: ")
    assert len(done.stderr.strip().splitlines()) == 1
    # 99999 is no port (it would wrap round to 34463).
    done = start_server(tmp_path, env, "--listen", "127.0.0.1:99999")
    assert done.returncode == 2
    assert "--listen must be HOST:PORT with a port from 0 to 65535, not '127.0.0.1:99999'" in (
        done.stderr
    )
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize("port", ["abc", "", "0", "99999", "8000 "])
def test_a_container_port_that_is_no_port_is_named_as_port(tmp_path, port):
    """The container serves on 0.0.0.0:$PORT (its CMD): a PORT that is no
    port is said as the variable the self-hoster set, in one line, not as
    argparse's usage and an --listen they never typed; 0 is refused too (a
    port picked at random: neither -p nor the health check could find it)."""
    env = {
        "PORT": port,
        "FLASK_DATABASE_URL": f"sqlite:///{tmp_path / 'pisti.db'}",
        "FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions"),
    }
    done = start_server(tmp_path, env, "--listen", f"0.0.0.0:{port}")
    assert done.returncode == 1
    assert done.stderr == (
        f"Error: PORT: the port the container serves on must be a number from 1 to 65535, "
        f"not {port!r}\n"
    )


def test_the_flask_commands_say_a_configuration_error_without_a_traceback(tmp_path):
    done = run_flask("db", "upgrade", env={"FLASK_EXPERT_MS": "0"})
    assert done.returncode == 1
    assert done.stderr.startswith("Error: configuration error:\n  FLASK_EXPERT_MS: must be")
    assert "Traceback" not in done.stderr


def test_a_database_whose_disk_is_full_at_start_up_says_to_free_space(tmp_path):
    # SQLite says only "database or disk is full" when the migrations
    # cannot grow the file: the host is told what to do, as for a full
    # session folder. (A page limit stands in for the full disk.)
    file = tmp_path / "pisti.db"

    def small_disk() -> sqlite3.Connection:
        connection = sqlite3.connect(file, check_same_thread=False)
        connection.execute("PRAGMA max_page_count = 8")
        return connection

    with pytest.raises(StartupError) as stopped:
        create_app(
            {
                "SECRET_KEY": "ops-config-disk-full",
                "SESSION_FILE_DIR": str(tmp_path / "sessions"),
                "DATABASE_URL": f"sqlite:///{file}",
                "SQLALCHEMY_ENGINE_OPTIONS": {"creator": small_disk},
            }
        )
    assert stopped.value.message == (
        "the app cannot start: the database (FLASK_DATABASE_URL) cannot be used: "
        "database or disk is full; free some space on its disk"
    )


def test_a_redis_that_does_not_answer_at_start_up_is_logged_and_the_server_starts(serve):
    server = serve({"FLASK_SESSION_BACKEND": "redis", "FLASK_REDIS_URL": "redis://127.0.0.1:1/0"})
    assert requests.get(server.url + "/healthz", timeout=5).status_code == 200
    log = server.log.read_text()
    assert "Redis at FLASK_REDIS_URL does not answer" in log
    assert "Connection refused" in log
    assert "Traceback" not in log


@pytest.mark.parametrize(
    ("password", "url_ending", "said"),
    [
        (
            "the-right-one",
            "127.0.0.1:{port}/0",
            "it asks for a password, and the URL gives none; put Redis's password (its "
            "requirepass) in the URL: redis://:password@host:6379/0",
        ),
        (
            "the-right-one",
            ":a-wrong-one@127.0.0.1:{port}/0",
            "it does not take the user name and password the URL gives (",
        ),
        (
            None,
            "127.0.0.1:{port}/99",
            "it has no database of the number the URL ends with (DB index is out of range); "
            "Redis has 0 to 15",
        ),
    ],
    ids=["no password", "a wrong password", "no such database"],
)
@pytest.mark.parametrize("command", ["serve", "review-worker"])
def test_a_redis_that_refuses_the_server_stops_start_up_in_one_line(
    tmp_path, redis_server, password, url_ending, said, command
):
    """A Redis that answers and refuses (a password missing or wrong, a
    database it does not have) will not mend by waiting, as one still
    coming up does: the server and the review worker stop, naming
    FLASK_REDIS_URL, rather than answer 503 (and /healthz 200) for ever."""
    if password:
        redis.Redis.from_url(redis_server.url).config_set("requirepass", password)
    url = "redis://" + url_ending.format(port=redis_server.port)
    env = {
        "FLASK_SESSION_BACKEND": "redis",
        "FLASK_REDIS_URL": url,
        "FLASK_DATABASE_URL": f"sqlite:///{tmp_path / 'pisti.db'}",
    }
    if command == "serve":
        done = start_server(tmp_path, env, "--listen", f"127.0.0.1:{free_port()}")
        assert done.returncode == 1
        start = "Error: the app cannot start: Redis at FLASK_REDIS_URL ("
    else:
        done = run_flask("review-worker", "--burst", env=env)
        assert done.returncode == 2
        start = "the review queue's Redis at FLASK_REDIS_URL ("
    assert done.stderr.startswith(start + hide_password(url) + ") cannot be used: " + said), (
        done.stderr
    )
    assert len(done.stderr.strip().splitlines()) == 1
    assert "a-wrong-one" not in done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr


def test_a_review_queue_s_redis_that_refuses_the_server_stops_it_too(tmp_path, redis_server):
    """With the sessions on disk and the reviews on the queue
    (FLASK_REVIEW_QUEUE=true), the queue's Redis is asked too."""
    url = f"redis://127.0.0.1:{redis_server.port}/99"
    env = {
        "FLASK_REVIEW_QUEUE": "true",
        "FLASK_REDIS_URL": url,
        "FLASK_DATABASE_URL": f"sqlite:///{tmp_path / 'pisti.db'}",
        "FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions"),
    }
    done = start_server(tmp_path, env, "--listen", f"127.0.0.1:{free_port()}")
    assert done.returncode == 1
    assert done.stderr.startswith(
        f"Error: the app cannot start: Redis at FLASK_REDIS_URL ({url}) cannot be used: it has "
        "no database"
    ), done.stderr


def test_the_server_says_at_start_up_what_it_keeps_where(serve, tmp_path):
    database = tmp_path / "fresh.db"
    # Said whatever the log level, as "serving on" is.
    server = serve(
        {
            "FLASK_DATABASE_URL": f"sqlite:///{database}",
            "FLASK_SESSION_FILE_DIR": str(tmp_path),
            "FLASK_LOG_LEVEL": "WARNING",
        }
    )
    assert requests.get(server.url + "/healthz", timeout=5).status_code == 200
    line = next(line for line in server.log.read_text().splitlines() if "sessions:" in line)
    assert re.search(
        rf"pisti [0-9.]+ \(commit [0-9a-f]{{12}}\): sessions: files in {re.escape(str(tmp_path))}; "
        rf"database: sqlite:///{re.escape(str(database))}, schema upgraded empty to \w+; "
        "secret key: FLASK_SECRET_KEY; review summaries: in this process",
        line,
    ), line
    # The same field by field, for a log reader.
    said = json.loads(line)
    assert said["sessions"] == f"files in {tmp_path}"
    assert said["database"] == f"sqlite:///{database}"
    assert (said["schema_before"], said["secret_key"]) == (None, "FLASK_SECRET_KEY")
    assert said["schema"] in line and said["version"] in line
    # The checkout's commit (an image's is given to its build).
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    assert said["commit"] == head.stdout.strip()[:12]
    assert f"(commit {said['commit']})" in said["event"]
    # The players' database is for the server's user only, and its log
    # (which holds every change until a checkpoint) too.
    assert database.stat().st_mode & 0o777 == 0o600
    wal = database.with_name(database.name + "-wal")
    assert wal.exists() and wal.stat().st_mode & 0o777 == 0o600
    # A stop asked for says so (a crash logs its error instead).
    server.stop()
    assert '"event": "stopped on SIGTERM"' in server.log.read_text().splitlines()[-1]


def test_shared_sessions_without_a_shared_secret_key_are_warned_of(monkeypatch, tmp_path, capfd):
    monkeypatch.setenv("FLASK_SESSION_BACKEND", "redis")
    monkeypatch.setenv("FLASK_REDIS_URL", "redis://:S3cret@127.0.0.1:1/0")
    database = f"sqlite:///{tmp_path / 'p.db'}"
    app = create_app({"SESSION_FILE_DIR": str(tmp_path), "DATABASE_URL": database})
    capfd.readouterr()
    serve_module._describe_setup(app, app.logger)
    said = [json.loads(line) for line in capfd.readouterr().out.splitlines()]
    assert "sessions: Redis at redis://:***@127.0.0.1:1/0" in said[0]["event"]
    assert said[0]["event"].endswith(
        "review summaries: on the RQ queue 'pisti-reviews' (run `flask --app app review-worker`)"
    )
    assert "secret key: this instance's own (instance/secret_key)" in said[0]["event"]
    assert "S3cret" not in said[0]["event"]
    assert said[1]["level"] == "WARNING"
    assert said[1]["event"].startswith(
        "sessions are in Redis but the secret key is this instance's own: set FLASK_SECRET_KEY"
    )
    # Only a server with another instance folder makes another key.
    assert f"another instance folder than {app.instance_path} " in said[1]["event"]
    assert said[1]["event"].endswith("servers sharing this folder share its key")
    monkeypatch.setenv("FLASK_SECRET_KEY", "0123456789abcdef" * 2)
    app = create_app({"SESSION_FILE_DIR": str(tmp_path), "DATABASE_URL": database})
    capfd.readouterr()
    serve_module._describe_setup(app, app.logger)
    said = capfd.readouterr().out.splitlines()
    assert len(said) == 1 and "secret key: FLASK_SECRET_KEY" in said[0]
    monkeypatch.delenv("FLASK_SECRET_KEY")
    (tmp_path / "key").write_text("0123456789abcdef" * 2)
    monkeypatch.setenv("FLASK_SECRET_KEY_FILE", str(tmp_path / "key"))
    app = create_app({"SESSION_FILE_DIR": str(tmp_path), "DATABASE_URL": database})
    capfd.readouterr()
    serve_module._describe_setup(app, app.logger)
    said = capfd.readouterr().out.splitlines()
    assert len(said) == 1
    assert f"secret key: the file {tmp_path / 'key'} (FLASK_SECRET_KEY_FILE)" in said[0]


def test_ctrl_c_stops_the_server_without_a_traceback(tmp_path):
    port = free_port()
    # Its own process group, as a terminal gives it.
    server = a_server(tmp_path, tmp_path / "pisti.db", port, start_new_session=True)
    try:
        for _ in range(300):
            try:
                if requests.get(f"http://127.0.0.1:{port}/healthz", timeout=5).ok:
                    break
            except requests.RequestException:
                time.sleep(0.1)
        # Ctrl-C reaches the whole group: the server and its search workers.
        os.killpg(server.pid, signal.SIGINT)
        output, _ = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
    assert server.returncode == 0
    assert "serving on" in output
    assert '"event": "stopped on SIGINT"' in output.splitlines()[-1]
    assert "Traceback" not in output and "KeyboardInterrupt" not in output


@pytest.mark.parametrize("value", ["1", "true", "yes", "on"])
def test_the_server_refuses_debug_mode(tmp_path, value):
    """FLASK_DEBUG is the flask command's, for development: the server
    stops with one line rather than serve in debug mode."""
    done = subprocess.run(
        [sys.executable, "-m", "app.serve", "--listen", f"127.0.0.1:{free_port()}"],
        cwd=ROOT,
        env={
            **os.environ,
            "FLASK_DEBUG": value,
            "FLASK_SECRET_KEY": "0123456789abcdef",
            "FLASK_DATABASE_URL": f"sqlite:///{tmp_path / 'pisti.db'}",
            "FLASK_SESSION_FILE_DIR": str(tmp_path / "sessions"),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith(
        f"Error: FLASK_DEBUG={value!r}: the server does not run in debug mode"
    )
    assert len(done.stderr.splitlines()) == 1
    assert not (tmp_path / "pisti.db").exists()  # refused before anything started


@pytest.mark.parametrize("value", ["0", "false", "No", ""])
def test_the_server_drops_a_debug_flag_that_asks_for_none(monkeypatch, tmp_path, value):
    # Flask itself would read "no" as true (its JSON reading keeps it text).
    monkeypatch.setenv("FLASK_DEBUG", value)
    assert serve_module._refuse_debug() is None
    assert "FLASK_DEBUG" not in os.environ
    database = f"sqlite:///{tmp_path / 'pisti.db'}"
    app = create_app(
        {
            "SECRET_KEY": "0123456789abcdef",
            "SESSION_FILE_DIR": str(tmp_path),
            "DATABASE_URL": database,
        }
    )
    assert not app.debug


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=lambda stop: stop.name)
def test_a_stop_while_the_server_starts_ends_it_cleanly(tmp_path, stop):
    """A replica waiting its turn to migrate the schema (here: another
    process holds the SQLite database's migration lock) stops at once on
    SIGTERM or Ctrl-C, with status 0 and the "stopped on" line, not a
    traceback, nor a container runtime's kill after its grace period."""
    database = tmp_path / "pisti.db"
    returncode, output = stop_while_migrating(
        lambda: a_server(tmp_path, database, free_port()), database, stop
    )
    assert returncode == 0, output
    assert "serving on" not in output
    assert f'"event": "stopped on {stop.name} while starting"' in output.splitlines()[-1]
    assert "Traceback" not in output and "KeyboardInterrupt" not in output


@pytest.mark.parametrize(
    ("host", "url"),
    [("127.0.0.1", "http://127.0.0.1:5000"), ("::1", "http://[::1]:5000")],
)
def test_the_address_served_on_is_logged_as_a_url(host, url):
    assert serve_module.address_url(host, 5000) == url
