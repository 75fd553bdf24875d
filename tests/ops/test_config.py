"""Configuration from FLASK_* variables: read, checked, and refused with a
clear message when unknown or broken."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest

from app import create_app
from app.config import ConfigError
from app.sessions import FileSessions, RedisSessions


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch):
    """No FLASK_* variables from the machine running the tests."""
    for name in list(os.environ):
        if name.startswith("FLASK_"):
            monkeypatch.delenv(name)


def test_defaults(tmp_path):
    app = create_app({"SECRET_KEY": "x" * 16, "SESSION_FILE_DIR": str(tmp_path)})
    assert app.config["SESSION_BACKEND"] == "filesystem"
    assert isinstance(app.session_interface, FileSessions)
    assert app.permanent_session_lifetime == timedelta(days=31)
    assert app.config["LOG_LEVEL"] == "INFO"
    assert app.config["SESSION_COOKIE_SECURE"] is False
    assert app.config["NEW_GAME_LIMIT"] == "120 per minute"


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
            "FLASK_MAX_CONTENT_LENGTH: must be a number of bytes",
        ),
        ({"FLASK_SECRET_KEY": "short"}, "FLASK_SECRET_KEY: use at least 16 random characters"),
        ({"FLASK_SESION_BACKEND": "redis"}, "FLASK_SESION_BACKEND: unknown setting"),
        ({"FLASK_ENV": "production"}, "FLASK_ENV: unknown setting"),
    ],
)
def test_broken_values_stop_start_up(monkeypatch, tmp_path, env, message):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as raised:
        create_app(
            {"SESSION_FILE_DIR": str(tmp_path)}
            if "FLASK_SECRET_KEY" in env
            else {"SECRET_KEY": "x" * 16, "SESSION_FILE_DIR": str(tmp_path)}
        )
    assert message in str(raised.value)


def test_every_problem_is_named_at_once(monkeypatch):
    monkeypatch.setenv("FLASK_SESSION_BACKEND", "memcached")
    monkeypatch.setenv("FLASK_LOG_LEVEL", "chatty")
    monkeypatch.setenv("FLASK_TYPO", "1")
    with pytest.raises(ConfigError) as raised:
        create_app({"SECRET_KEY": "x" * 16})
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
    app = create_app({"SECRET_KEY": "x" * 16, "SESSION_FILE_DIR": str(tmp_path)})
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


def test_expert_thinking_time_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("FLASK_EXPERT_MS", "40")
    app = create_app({"SECRET_KEY": "ops-config-expert", "SESSION_FILE_DIR": str(tmp_path)})
    assert app.config["EXPERT_MS"] == 40
