"""Error pages: every error is a page that says what went wrong, never a
stack trace."""

from __future__ import annotations

from flask import Flask, render_template
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

MESSAGES = {
    400: "The request was not understood.",
    404: "There is no page here.",
    405: "That address does not take this kind of request.",
    413: "That request was too large.",
    500: "Something went wrong on our side. Your game is safe; go back and try again.",
}


def register(app: Flask) -> None:
    """Register the error pages on ``app``."""

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> tuple[str, int]:
        message = (
            "This form was missing its security token or it did not match "
            "(it may come from another site). Nothing was played; reload the page and try again."
        )
        return render_template("errors/error.html", status=400, message=message), 400

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int]:
        status = error.code or 500
        message = MESSAGES.get(status, error.description)
        return render_template("errors/error.html", status=status, message=message), status

    @app.errorhandler(Exception)
    def unexpected_error(error: Exception) -> tuple[str, int]:
        app.logger.exception("unexpected error", exc_info=error)
        return http_error(InternalServerError())
