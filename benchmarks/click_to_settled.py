"""Click-to-settled time of a play in the browser: from pressing a card to
the table standing still with the replies landed and the hand ready again.

Plays whole games in Debian's Chromium (Playwright) against the app served
on 127.0.0.1, clicking a capturing card when the page marks one, else the
first card, and measures each play inside the page: ``performance.now()``
at the card's ``pointerdown`` to the moment ``static/pisti.js`` marks the
page settled (``<html data-state="ready">``, ``data-settled`` counting up).
Prints the median, 90th percentile and maximum per game, in milliseconds.

    .venv/bin/python benchmarks/click_to_settled.py [--games 2] [--size 1280x800] [--level medium]
        [--latency MS] [--cpu-slowdown N] [--fast]

``--latency`` adds that many milliseconds to every request's answer, as a
slow mobile network would (Chromium's network emulation, through CDP).
``--cpu-slowdown`` runs the page's work N times slower, as a low-end phone
would (Chromium's CPU throttling, through CDP; the server is not slowed).
``--fast`` turns the "fast play" aid on first (the aids form of the home
page), as a player who wants the cards to move quickly would.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app import create_app
from tests.conftest import serve

#: Records each play's time in ``window.settleTimes`` (milliseconds).
TIMER = """() => {
  window.settleTimes = [];
  let start = null;
  document.addEventListener("pointerdown", () => { start = performance.now(); }, true);
  new MutationObserver(() => {
    if (start !== null && document.documentElement.dataset.state === "ready") {
      window.settleTimes.push(performance.now() - start);
      start = null;
    }
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-settled"] });
}"""


def play_fast(page: Page, url: str) -> None:
    """Turn the "fast play" aid on, as a player would: the aids form of the
    home page, which the page's script posts as the box is ticked."""
    page.goto(f"{url}/")
    page.locator("details.settings summary").click()
    page.locator("form.aids [name=fast]").check()
    page.wait_for_function("() => document.body.classList.contains('fast-play')")


def play_game(page: Page, url: str, rules: str, seed: str, level: str) -> list[float]:
    """Play one whole hand (or match) of ``rules``; return each play's
    click-to-settled time in milliseconds."""
    # A new game from the home page keeps the level with the player's
    # settings, which a deal link then uses for every computer.
    page.goto(f"{url}/")
    page.locator("form.stack").first.locator("#level").select_option(level)
    page.locator("form.stack").first.get_by_role("button", name="New game").click()
    page.wait_for_url(f"{url}/game")
    page.goto(f"{url}/deal/{seed}?rules={rules}")
    page.locator(".deal-link button[type=submit]").click()
    page.wait_for_url(f"{url}/game")
    page.evaluate(TIMER)
    while page.locator(".hand button").count():
        settled = int(page.evaluate("Number(document.documentElement.dataset.settled || 0)"))
        capturing = page.locator(".hand button.captures")
        (capturing.first if capturing.count() else page.locator(".hand button").first).click()
        page.wait_for_function(
            "n => Number(document.documentElement.dataset.settled || 0) > n", arg=settled
        )
    return page.evaluate("window.settleTimes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per rule set")
    parser.add_argument("--size", default="1280x800", help="viewport, WIDTHxHEIGHT")
    parser.add_argument("--level", default="medium", help="the computers' level")
    parser.add_argument("--latency", type=float, default=0, help="added network latency, ms")
    parser.add_argument(
        "--cpu-slowdown", type=float, default=1, help="the page's CPU N times slower (default 1)"
    )
    parser.add_argument("--fast", action="store_true", help='the "fast play" aid on')
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    app = create_app(
        {
            "SECRET_KEY": "benchmark-secret-key",
            "SESSION_FILE_DIR": tempfile.mkdtemp(prefix="pisti-bench-"),
            "RATELIMIT_ENABLED": False,
            "LOG_LEVEL": "WARNING",
        }
    )
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with serve(app) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        page = browser.new_page(viewport={"width": width, "height": height})
        devtools = page.context.new_cdp_session(page)
        if args.latency:
            devtools.send("Network.enable")
            conditions = {"offline": False, "latency": args.latency}
            devtools.send(
                "Network.emulateNetworkConditions",
                {**conditions, "downloadThroughput": -1, "uploadThroughput": -1},
            )
        if args.cpu_slowdown != 1:
            devtools.send("Emulation.setCPUThrottlingRate", {"rate": args.cpu_slowdown})
        latency = f", {args.latency:.0f} ms added latency" if args.latency else ""
        slowdown = f", CPU {args.cpu_slowdown:g}x slower" if args.cpu_slowdown != 1 else ""
        fast = ", fast play" if args.fast else ""
        if args.fast:
            play_fast(page, url)
        print(
            f"{args.size}, computers {args.level}{latency}{slowdown}{fast}; "
            "milliseconds from click to settled"
        )
        print("| game | plays | median | 90th percentile | max |")
        print("|---|---|---|---|---|")
        for rules in ("cardems", "partners"):
            times: list[float] = []
            for game in range(args.games):
                times += play_game(page, url, rules, f"bench-{game}", args.level)
            times.sort()
            p90 = times[int(0.9 * (len(times) - 1))]
            print(
                f"| {rules} | {len(times)} | {statistics.median(times):.0f} | {p90:.0f} "
                f"| {times[-1]:.0f} |"
            )
        browser.close()


if __name__ == "__main__":
    main()
