"""A throw-away PostgreSQL cluster on a free loopback port, for the tests
and benchmarks: Debian's ``postgresql`` package, a fresh ``initdb`` in a
temporary folder (trusting local connections, user ``pisti``), ``fsync``
off, and everything deleted when it stops.

PostgreSQL refuses to run as root: as root, the cluster belongs to the
``postgres`` user the package creates (``runuser``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from benchmarks.load_servers import free_port

USER = "pisti"


def postgres_bin() -> Path:
    """Return the folder of the newest installed PostgreSQL's programs.

    Raises:
        FileNotFoundError: PostgreSQL is not installed (``apt-get install
            postgresql``; ``scripts/test`` does it).
    """
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3])
    )
    if not versions:
        raise FileNotFoundError("PostgreSQL is not installed: apt-get install postgresql")
    return versions[-1].parent


class PostgresServer:
    """One cluster: :meth:`start`, :meth:`create_database`, :meth:`stop`."""

    def __init__(self) -> None:
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="pisti-pg-"))
        self.bin = postgres_bin()
        self._as_postgres = os.geteuid() == 0

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self._as_postgres else []
        subprocess.run(
            [*prefix, *command], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )

    def start(self) -> PostgresServer:
        """Make the cluster and start it; return once it accepts connections.

        Raises:
            subprocess.CalledProcessError: ``initdb`` or ``pg_ctl`` failed.
        """
        if self._as_postgres:
            shutil.chown(self.folder, "postgres")
        data = self.folder / "data"
        self._run(
            str(self.bin / "initdb"), "-D", str(data), "-A", "trust", "-U", USER, "-E", "UTF8"
        )
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(data), "-o", options, "-l",
            str(self.folder / "log"), "-w", "start",
        )  # fmt: skip
        return self

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL (psycopg 3) of ``database``."""
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create an empty database ``name`` and return its URL."""
        import psycopg

        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user={USER} dbname=postgres", autocommit=True
        ) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Stop the cluster and delete its folder."""
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
                      "-w", "stop")  # fmt: skip
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
