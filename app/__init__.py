"""Pişti web app: ``create_app()`` (:mod:`app.factory`) wires
configuration, sessions, CSRF, security, blueprints, error pages, logging
and the command line.

The package imports none of that itself: its names come from
:mod:`app.factory` when first used. A search worker (:mod:`app.searches`)
imports the engine and the bots through this package, and would otherwise
load the web stack too (Flask, SQLAlchemy, Babel, Redis...), some 60 MB in
every worker that it never uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .factory import ROOT, STORELESS_COMMANDS, StartupError, create_app, csrf

__all__ = ["ROOT", "STORELESS_COMMANDS", "StartupError", "create_app", "csrf"]


def __getattr__(name: str) -> Any:
    """Return :mod:`app.factory`'s ``name`` (one of :data:`__all__`),
    importing it on first use.

    Raises:
        AttributeError: any other name.
    """
    if name in __all__:
        from . import factory

        return getattr(factory, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
