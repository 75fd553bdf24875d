"""Flask's "hello world", for the load test's ceiling: what Flask and
waitress answer on the same threads with no work behind the page.

Served by ``benchmarks/load_test.py`` as ``benchmarks.load_hello:app``.
"""

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello() -> str:
    """Answer a tiny page."""
    return "Hello, World!"
