"""The search cap: at most one search per worker process at once, niced;
a longer line lowers each search's budget; past the line's bound the page
answers 503 and nothing is played; Expert games play through the pool."""

from __future__ import annotations

import contextlib
import html
import os
import pickle
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app import searches
from app.engine import RULE_SETS, observe
from app.engine.match import Match
from app.searches import NICENESS, SearchBusy, SearchPool, SearchWorkerDied
from tests.ops.conftest import a_server


def probe(budget_ms: float) -> tuple[float, float, float, int]:
    """Sleep ``budget_ms``; return (budget, start, end, niceness)."""
    start = time.time()
    time.sleep(budget_ms / 1000)
    return budget_ms, start, time.time(), os.nice(0)


def _run_together(pool: SearchPool, count: int, budget_ms: float) -> list:
    results: list = []
    lock = threading.Lock()

    def one() -> None:
        outcome = pool.run(probe, budget_ms)
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.fixture
def pool():
    pool = SearchPool(processes=2, max_in_flight=50, floor_ms=1, max_wait_ms=300)
    yield pool
    pool.shutdown()


def test_no_more_searches_at_once_than_workers(pool):
    results = _run_together(pool, 8, 200)
    assert len(results) == 8
    events = sorted(
        [(start, 1) for _, start, _, _ in results] + [(end, -1) for _, _, end, _ in results]
    )
    running = most = 0
    for _, step in events:
        running += step
        most = max(most, running)
    assert most <= 2
    assert pool.in_flight == 0


def test_workers_are_niced(pool):
    (_, _, _, niceness), *_ = _run_together(pool, 1, 1)
    assert niceness >= os.nice(0) + NICENESS or niceness == 19


def test_a_long_line_lowers_the_budgets(pool):
    budgets = sorted(budget for budget, *_ in _run_together(pool, 6, 300))
    # Two in flight: the whole budget (300 ms × 2 workers / 2); more: less,
    # down to at most 100 ms for the sixth (never below the 1 ms floor).
    assert budgets[-1] == 300
    assert budgets[0] <= 100 and all(budget >= 1 for budget in budgets)


def test_past_the_bound_a_search_is_refused():
    pool = SearchPool(processes=1, max_in_flight=1)
    try:
        holder = threading.Thread(target=pool.run, args=(probe, 500))
        holder.start()
        deadline = time.monotonic() + 10
        while pool.in_flight == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        with pytest.raises(SearchBusy):
            pool.run(probe, 1)
        holder.join()
        # Free again once the first is done.
        assert pool.run(probe, 1)[0] == 1
    finally:
        pool.shutdown()


def test_the_observation_crosses_to_the_worker_and_back():
    match = Match(RULE_SETS["partners"], "pickled")
    observation = observe(match.state, 1)
    assert pickle.loads(pickle.dumps(observation)) == observation
    card = searches.choose("expert", "seed", 5, observation)
    assert card in observation.hand
    # A level that does not search decides here, the same as in a worker.
    assert searches.choose("hard", "seed", 5, observation) == searches.POOL.run(
        searches._choose, 5, "hard", "seed", observation
    )


def _expert_game(client) -> str:
    """Start a single deal against the Expert; return the table page."""
    token = _token(client.get("/").get_data(as_text=True))
    data = {"rules": "cardems", "level": "expert", "csrf_token": token}
    return client.post("/new", data=data, follow_redirects=True).get_data(as_text=True)


def _play_first_card(client, page: str):
    fields = dict(re.findall(r'name="(csrf_token|move|hand|game)" value="([^"]+)"', page))
    card = re.findall(r'name="card" value="([^"]+)"', page)[0]
    return fields["move"], client.post("/play", data={**fields, "card": card})


def _move(page: str) -> int:
    return int(re.search(r'name="move" value="(\d+)"', page).group(1))


def test_a_full_line_answers_503_and_plays_nothing(client, monkeypatch):
    page = _expert_game(client)
    monkeypatch.setattr(searches, "POOL", SearchPool(processes=1, max_in_flight=0))
    move, response = _play_first_card(client, page)
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    assert "The computer players are thinking for many games" in response.get_data(as_text=True)
    assert _move(client.get("/game").get_data(as_text=True)) == int(move)


@pytest.mark.parametrize(
    "language,words",
    [
        ("en", "The computer players' thinking was cut short on the server. Nothing was played"),
        ("tr", "Bilgisayar oyuncularının düşünmesi sunucuda yarıda kesildi. Hiçbir kart oynanmadı"),
    ],
)
def test_a_worker_that_died_is_not_told_as_a_busy_server(client, monkeypatch, language, words):
    """A search whose worker died (killed, out of memory) answers 503 and
    plays nothing, as a full line does, but does not tell the player the
    computers are thinking for many games: nobody else may be playing."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    page = _expert_game(client)

    def died(*args, **kwargs):
        raise SearchWorkerDied("a search worker died")

    monkeypatch.setattr(searches.POOL, "run", died)
    move, response = _play_first_card(client, page)
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    said = html.unescape(response.get_data(as_text=True))
    assert words in said
    assert "many games" not in said and "pek çok oyun" not in said
    assert _move(client.get("/game").get_data(as_text=True)) == int(move)


def test_an_expert_game_plays_through_the_pool(app, client):
    app.config["EXPERT_MS"] = 5
    page = _expert_game(client)
    for _ in range(3):
        move, response = _play_first_card(client, page)
        assert response.status_code == 303
        page = client.get("/game").get_data(as_text=True)
        # The player's card and the Expert's answer.
        assert _move(page) == int(move) + 2


def _token(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


@pytest.mark.parametrize(
    ("files", "quota", "used"),
    [
        ({"cpu.max": "max 100000\n"}, None, 2),
        ({"cpu.max": "50000 100000\n"}, 0.5, 1),
        ({"cpu.max": "150000 100000\n"}, 1.5, 2),
        ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, None, 2),
        ({"cpu/cpu.cfs_quota_us": "100000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 1.0, 1),
        ({}, None, 2),
    ],
    ids=["v2-none", "v2-half", "v2-one-and-a-half", "v1-none", "v1-one", "no-cgroup"],
)
def test_a_cpu_quota_bounds_the_workers(tmp_path, monkeypatch, files, quota, used):
    # A container run with --cpus gets as many search workers as its quota
    # allows (rounded up), not one per core of the machine.
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.setattr(searches, "CGROUP", tmp_path)
    monkeypatch.setattr(searches.os, "sched_getaffinity", lambda pid: {0, 1})  # two cores
    assert searches.cpu_quota() == quota
    assert searches.cores() == used
    assert searches.SearchPool().processes == used


def test_a_worker_is_deaf_to_ctrl_c_from_birth():
    # Deaf before any initializer runs, so a Ctrl-C that finds a worker
    # still importing prints no KeyboardInterrupt traceback. A process of
    # its own: this one's fork server may have been started by another test.
    script = (
        "import multiprocessing, signal\n"
        "from concurrent.futures import ProcessPoolExecutor\n"
        "from app.searches import SearchPool\n"
        "pool = SearchPool(processes=1)\n"
        "pool.start()\n"
        "bare = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context('forkserver'))\n"
        "print(bare.submit(signal.getsignal, signal.SIGINT).result() is signal.SIG_IGN)\n"
        "bare.shutdown()\n"
        "pool.shutdown()\n"
        "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.split() == ["True", "True"], done.stderr


def _descendants(pid: int) -> set[int]:
    """The processes under ``pid`` (children, theirs, ...), from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has ended, its parent (now init) not told yet


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_the_workers_end_when_the_server_is_killed():
    # A server killed outright (SIGKILL, the out-of-memory killer) shuts
    # nothing down: its search workers, one of them searching, must still
    # end, and with them the fork server and the resource tracker, not
    # wait for work forever.
    script = (
        "import os, threading, time\n"
        "from app.searches import SearchPool\n"
        "pool = SearchPool(processes=2, max_wait_ms=60_000)\n"
        "pool.start()\n"
        "threading.Thread(target=pool.run, args=(time.sleep, 60), daemon=True).start()\n"
        "while not pool.in_flight:\n"
        "    time.sleep(0.01)\n"
        "print('ready', flush=True)\n"
        "time.sleep(120)\n"
    )
    server = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE,
        text=True,
    )
    left: set[int] = set()
    try:
        assert server.stdout.readline().strip() == "ready"
        pool = _descendants(server.pid)
        assert len(pool) >= 4  # two workers, the fork server, the resource tracker
        server.kill()
        server.wait()
        deadline = time.monotonic() + 30
        left = {pid for pid in pool if _running(pid)}
        while left and time.monotonic() < deadline:
            time.sleep(0.1)
            left = {pid for pid in left if _running(pid)}
        assert not left, f"still running after the server was killed: {sorted(left)}"
    finally:
        server.kill()
        server.wait()
        server.stdout.close()
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def _die(budget_ms: float) -> None:
    """A search whose worker dies (as one killed from outside)."""
    os._exit(1)


def test_a_worker_that_dies_is_a_busy_search_that_says_why_and_the_next_one_runs():
    pool = SearchPool(processes=1)
    try:
        with pytest.raises(SearchBusy) as raised:
            pool.run(_die, 10)
        assert str(raised.value) == (
            "a search worker died (killed from outside, or by the out-of-memory killer: see "
            "the kernel's log); the next search starts new workers"
        )
        assert pool.run(probe, 10)[0] == 10
    finally:
        pool.shutdown()


def _out_of_memory(budget_ms: float, exhausted: str) -> int:
    """A search whose worker is out of memory while the file ``exhausted``
    exists (under ``ulimit -v``, numpy's allocations raise ``MemoryError``);
    else it returns the worker's pid."""
    if Path(exhausted).exists():
        raise MemoryError("Unable to allocate 184. KiB for an array")
    return os.getpid()


def test_a_worker_out_of_memory_is_a_busy_search_and_the_next_one_gets_new_workers(tmp_path):
    """A worker that hit its memory limit: the play answers 503 (a
    :class:`SearchWorkerDied`, logged as a warning), not an error page with
    a traceback for this and every later Expert move, and the next search
    runs in a new worker."""
    exhausted = tmp_path / "exhausted"
    pool = SearchPool(processes=1)
    try:
        first = pool.run(_out_of_memory, 10, str(exhausted))
        exhausted.touch()
        with pytest.raises(SearchWorkerDied) as raised:
            pool.run(_out_of_memory, 10, str(exhausted))
        assert str(raised.value) == (
            "a search worker ran out of memory (a memory limit on the server, such as "
            "ulimit -v, or too little free memory); the next search starts new workers"
        )
        exhausted.unlink()
        assert pool.run(_out_of_memory, 10, str(exhausted)) != first  # a new worker
    finally:
        pool.shutdown()


def _out_of_memory_when_told(budget_ms: float, folder: str) -> int:
    """A search that says it began (the file ``began``), waits for the file
    ``go`` and then runs out of memory."""
    Path(folder, "began").touch()
    while not Path(folder, "go").exists():
        time.sleep(0.01)
    raise MemoryError("Unable to allocate 184. KiB for an array")


def test_searches_in_line_behind_a_worker_out_of_memory_are_busy_too(tmp_path):
    """The workers retired after a MemoryError: searches still in line in
    their pool were cancelled, and each came out as a CancelledError, an
    error page (500) for those players' Expert moves; they are busy
    searches (503, "try again") as when a worker dies."""
    pool = SearchPool(processes=1, max_in_flight=10)
    outcomes: list = []

    def one(search, *args) -> None:
        try:
            outcomes.append(pool.run(search, 10, *args))
        except Exception as error:  # what a web thread would get
            outcomes.append(type(error).__name__)

    try:
        pool.start()
        first = threading.Thread(target=one, args=(_out_of_memory_when_told, str(tmp_path)))
        first.start()
        while not (tmp_path / "began").exists():
            time.sleep(0.01)
        behind = [threading.Thread(target=one, args=(probe,)) for _ in range(8)]
        for thread in behind:
            thread.start()
        while pool.in_flight < 9:
            time.sleep(0.01)
        time.sleep(0.2)  # the three handed to the pool
        (tmp_path / "go").touch()
        for thread in [first, *behind]:
            thread.join()
        assert "CancelledError" not in outcomes
        assert outcomes.count("SearchWorkerDied") >= 5  # the first and those never begun
    finally:
        pool.shutdown()


def _libraries(pid: int) -> set[str]:
    """The packages of the compiled extensions loaded in process ``pid``
    (from its memory map: ``sqlalchemy``, ``markupsafe``, ``numpy``...)."""
    maps = Path(f"/proc/{pid}/maps").read_text()
    return set(re.findall(r"site-packages/([A-Za-z_]+)/\S*\.so", maps))


def _started(worker: int) -> bool:
    """Wait until search worker ``worker`` has loaded ``numpy.random``, the
    last of what a search needs (the server serves once one worker has
    started: another may still be loading); ``False`` after 30 s."""
    deadline = time.monotonic() + 30
    while "site-packages/numpy/random/" not in Path(f"/proc/{worker}/maps").read_text():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@contextlib.contextmanager
def _serving(tmp_path: Path, **env: str):
    """Run ``python -m app.serve`` on a free port with ``env`` over a
    secret key and a database and sessions in ``tmp_path``; yield its pid
    and its search workers' pids, once it serves."""
    server = a_server(tmp_path, tmp_path / "pisti.db", 0, env)
    try:
        for line in server.stdout:  # the pool has started once it serves
            if "serving on" in line:
                break
        else:
            raise AssertionError("the server did not start")
        # The workers are the fork server's children, not the server's.
        workers = [
            pid
            for pid in _descendants(server.pid)
            if "forkserver" in Path(f"/proc/{pid}/cmdline").read_text()
            and int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
            != server.pid
        ]
        yield server.pid, workers
    finally:
        server.terminate()
        server.communicate(timeout=30)


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc")
def test_the_servers_search_workers_load_no_web_code(tmp_path):
    """A search worker of the server as run (``python -m app.serve``)
    imports only what a search needs (the engine, the bots, numpy): not
    the server's module, which a worker imported again as the process's
    main module, nor the app with it. Measured: 35 MB resident a worker
    against 95 MB, each."""
    with _serving(tmp_path) as (server, workers):
        assert len(workers) == searches.cores()
        assert {"sqlalchemy", "markupsafe"} <= _libraries(server)
        for worker in workers:
            _started(worker)
            assert _libraries(worker) == {"numpy"}


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc")
def test_a_search_worker_has_its_code_loaded_before_its_first_search(tmp_path):
    """Numpy loads ``numpy.random`` at its first use, which the Expert's
    first search was: a worker out of memory by then failed that import
    (``ImportError: ... failed to map segment``), a 500 for every Expert
    move, and stayed, not replaced as a worker out of memory is."""
    with _serving(tmp_path) as (_, workers):
        for worker in workers:
            assert _started(worker)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_flask_search_workers_sets_the_servers_search_workers(tmp_path):
    """``FLASK_SEARCH_WORKERS`` gives the server that many search workers
    whatever its cores (fewer, on a board with more cores than memory)."""
    for wanted in (1, 3):
        with _serving(tmp_path, FLASK_SEARCH_WORKERS=str(wanted)) as (_, workers):
            assert len(workers) == wanted


def test_a_search_worker_loads_no_web_code():
    """What a worker imports to run a search (the Expert's move, a review's
    step: both in :mod:`app.searches`) leaves the web stack out, some 60 MB
    a worker it never uses (36 MB against 95 MB resident, measured)."""
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, app.searches;"
            "print(sorted({name.split('.')[0] for name in sys.modules}"
            " & {'flask', 'werkzeug', 'jinja2', 'sqlalchemy', 'alembic', 'babel', 'redis', 'rq'}))",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert shown.stdout.strip() == "[]"
    assert searches.evaluate_step.__module__ == searches._choose.__module__ == "app.searches"
