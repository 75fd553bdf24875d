"""A small machine: memory and answer times of a running server.

Plays against a server already running on this machine (``scripts/serve``,
perhaps under ``taskset -c 0`` for one core) and reads, from ``/proc``, the
resident memory (VmRSS) and proportional share (Pss) of the server and of
every process under it (the fork server, the resource tracker, the search
workers):

1. at start;
2. after ``--games`` single deals against Medium, five players at once
   (their ``POST /play`` times);
3. the highest while ``--experts`` players play an Expert single deal each
   beside one Medium player (each side's ``POST /play`` times: a play and
   the computer's answer), then while each of those hands' review summary
   runs (uploaded as records, all started at once; seconds until each is
   done).

Run (the server's rate limits off: every player comes from 127.0.0.1):

    FLASK_RATELIMIT_ENABLED=false PISTI_BIND=127.0.0.1:5000 taskset -c 0 scripts/serve &
    .venv/bin/python -m benchmarks.small_machine --url http://127.0.0.1:5000
"""

from __future__ import annotations

import argparse
import random
import re
import threading
import time
from pathlib import Path

from .load_test import Player, Tally

#: A review's key in the address an upload is sent on to.
REVIEW = re.compile(r"/review/([0-9a-f]{64})")


def listening_pid(port: int) -> int:
    """The pid of the process listening on TCP ``port`` (from /proc).

    Raises:
        LookupError: nothing listens there that this user may see.
    """
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(fields[9])
    for fd in Path("/proc").glob("[0-9]*/fd/*"):
        try:
            link = fd.readlink()
        except OSError:
            continue
        if link.name.startswith("socket:[") and link.name[8:-1] in inodes:
            return int(fd.parent.parent.name)
    raise LookupError(f"nothing listens on port {port}")


def processes(pid: int) -> dict[int, str]:
    """``pid`` and every process under it, each with its role: the
    server, multiprocessing's fork server or resource tracker (the
    server's children), or a search worker (the fork server's)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        children.setdefault(parent, []).append(int(stat.parent.name))
    found, todo = {pid: "server"}, [pid]
    while todo:
        parent = todo.pop()
        for child in children.get(parent, []):
            try:
                command = Path(f"/proc/{child}/cmdline").read_bytes().decode()
            except OSError:
                continue
            named = re.search(r"from multiprocessing\.(\w+) import", command)
            role = named.group(1) if named and parent == pid else "search worker"
            found[child] = role.replace("_", " ")
            todo.append(child)
    return found


def memory(pid: int) -> dict[int, tuple[str, int, int]]:
    """Each process under ``pid`` (itself included): its name, VmRSS and
    Pss in KiB."""
    shown = {}
    for each, name in processes(pid).items():
        try:
            status = Path(f"/proc/{each}/status").read_text()
            rollup = Path(f"/proc/{each}/smaps_rollup").read_text()
        except OSError:
            continue
        rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
        pss = int(re.search(r"Pss:\s+(\d+)", rollup).group(1))
        shown[each] = (name, rss, pss)
    return shown


def show(title: str, shown: dict[int, tuple[str, int, int]]) -> None:
    """Print ``shown`` (:func:`memory`) as a table under ``title``."""
    print(f"\n{title}\n| process | RSS MB | PSS MB |\n|---|---|---|")
    for name, rss, pss in shown.values():
        print(f"| {name} | {rss / 1024:.0f} | {pss / 1024:.0f} |")
    rss = sum(value[1] for value in shown.values())
    pss = sum(value[2] for value in shown.values())
    print(f"| all {len(shown)} | {rss / 1024:.0f} | {pss / 1024:.0f} |")


class Peak:
    """The highest memory of each process under a pid, sampled in a
    thread every 0.2 s between ``start()`` and ``stop()``."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.highest: dict[int, tuple[str, int, int]] = {}
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._done.is_set():
            for each, (name, rss, pss) in memory(self.pid).items():
                _, top_rss, top_pss = self.highest.get(each, (name, 0, 0))
                self.highest[each] = (name, max(rss, top_rss), max(pss, top_pss))
            self._done.wait(0.2)

    def start(self) -> Peak:
        """Start sampling; return this."""
        self._thread.start()
        return self

    def stop(self) -> dict[int, tuple[str, int, int]]:
        """Stop sampling; return the highest of each process."""
        self._done.set()
        self._thread.join()
        return self.highest


def play(url: str, level: str, seed: int, times: list[float], tally: Tally) -> bytes:
    """Play a single deal against ``level`` at ``url``, random cards,
    adding each ``POST /play``'s milliseconds to ``times``; return the
    hand's record."""
    player = Player(url, tally, random.Random(seed))
    player.new_game(level)
    while player.hand:
        began = time.perf_counter()
        player.post("/play", {**player.play_fields(), "card": player.rng.choice(player.hand)})
        times.append((time.perf_counter() - began) * 1000)
        player.get("/game")
    return player.http.get(url + "/record", timeout=60).content


def medium_games(url: str, first: int, count: int, times: list[float], tally: Tally) -> None:
    """Play ``count`` single deals against Medium (:func:`play`), the
    first with seed ``first``."""
    for seed in range(first, first + count):
        play(url, "medium", seed, times, tally)


def together(jobs: list[tuple]) -> list:
    """Run each ``(function, *args)`` of ``jobs`` in a thread of its own;
    return their results in order (an exception raised, for one that
    failed)."""
    results: list = [None] * len(jobs)

    def one(number: int) -> None:
        function, *args = jobs[number]
        try:
            results[number] = function(*args)
        except Exception as error:  # counted as a failure
            results[number] = error

    threads = [threading.Thread(target=one, args=(number,)) for number in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def quantiles(times: list[float]) -> str:
    """Median, 95th percentile and highest of ``times`` (ms), in words."""
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {ordered[len(ordered) // 2]:.0f} ms, p95 {p95:.0f} ms, max {ordered[-1]:.0f} ms"


def summaries(url: str, records: list[bytes]) -> list[float]:
    """Upload each record for review, open every summary at once, and
    return the seconds until each was done (or failed).

    Raises:
        RuntimeError: a summary not done within 10 minutes.
    """
    opened = []
    for record in records:
        player = Player(url)
        player.get("/review/")
        sent = player.http.post(
            url + "/review/upload",
            data={"csrf_token": player.token},
            files={"record": ("record.json", record)},
            allow_redirects=False,
            timeout=60,
        )
        opened.append((player, REVIEW.search(sent.headers["Location"]).group(1)))
    began = time.monotonic()
    for player, key in opened:
        player.http.get(f"{url}/review/{key}", timeout=60)
    done: dict[str, float] = {}
    while len(done) < len(opened):
        if time.monotonic() - began > 600:
            raise RuntimeError("a summary was not done in 10 minutes")
        for player, key in opened:
            if key not in done:
                status = player.http.get(f"{url}/review/{key}/status", timeout=60).json()
                if status["status"] in ("done", "failed"):
                    done[key] = time.monotonic() - began
        time.sleep(0.2)
    return sorted(done.values())


def main(argv: list[str] | None = None) -> int:
    """Measure; print the tables. Returns 1 when a request failed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:5000", help="the running server")
    parser.add_argument("--games", type=int, default=50, help="Medium games first (default 50)")
    parser.add_argument("--experts", type=int, default=3, help="Expert players at once (3)")
    args = parser.parse_args(argv)
    url = args.url.rstrip("/")
    server = listening_pid(int(url.rsplit(":", 1)[1]))
    tally = Tally()
    show("At start", memory(server))
    times: list[float] = []
    players = 5
    failed = together(
        [(medium_games, url, n * 1000, args.games // players, times, tally) for n in range(players)]
    )
    show(f"After {args.games} Medium games (plays: {quantiles(times)})", memory(server))
    expert: list[float] = []
    medium: list[float] = []
    peak = Peak(server).start()
    jobs = [(play, url, "expert", n, expert, tally) for n in range(args.experts)]
    records = together([*jobs, (play, url, "medium", 99, medium, tally)])
    failed += [record for record in records if isinstance(record, Exception)]
    records = [record for record in records if isinstance(record, bytes)]
    show(
        f"Highest during {args.experts} Expert games (plays: {quantiles(expert)}) beside a "
        f"Medium game (plays: {quantiles(medium)})",
        peak.stop(),
    )
    peak = Peak(server).start()
    seconds = summaries(url, records)
    show(
        f"Highest during {len(records)} review summaries (done after "
        f"{', '.join(f'{s:.1f}' for s in seconds)} s)",
        peak.stop(),
    )
    failed = [error for error in failed if error is not None]
    print(f"\nfailed: {len(failed)} {failed[:3]}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
