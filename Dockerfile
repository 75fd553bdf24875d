# Pişti in one container: waitress (python -m app.serve) as a non-root user,
# its packages from requirements.lock (exact versions and hashes), sessions,
# the SQLite database and the secret key in the /srv/pisti/instance volume.
# For several containers
# sharing Redis, see docker-compose.yml. Only `python3` is assumed of the base
# image, so scripts/build-image can build this against a Debian stand-in.
# The base is Python 3.11's moving tag, not a patch release's (frozen once
# the next comes out): a rebuild picks up Debian's and CPython's security
# fixes, while the Python packages stay the lock's.
FROM python:3.11-slim-bookworm AS build

ENV PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/venv/bin:$PATH

RUN python3 -m venv /opt/venv
WORKDIR /srv/pisti
# Every package, build tools included, at the lock's version and hash, so an
# image built later has the same packages.
COPY requirements.lock ./
RUN pip install --require-hashes --no-deps -r requirements.lock
COPY pyproject.toml README.md ./
COPY app ./app
# Editable, so the app finds templates/ and static/ beside app/; nothing more
# is fetched. The translations are compiled here, never committed. Then out
# of the venv goes what only building needs or the app never opens: pip and
# setuptools (the app's editable finder needs neither), numpy's own tests,
# and Babel's data for the locales the app does not speak (the root locale,
# English and each catalogue's language in app/translations stay: a
# language added there keeps its data with no edit here).
COPY scripts/prune-locale-data /usr/local/bin/
RUN pip install --no-deps --no-build-isolation --editable . \
    && pybabel -q compile -d app/translations \
    && pip uninstall --quiet --yes setuptools pip \
    && rm -rf /opt/venv/lib/python3*/site-packages/numpy/*/tests \
              /opt/venv/lib/python3*/site-packages/numpy/tests \
    && prune-locale-data /opt/venv/lib/python3*/site-packages/babel/locale-data \
        app/translations

# The image itself: the base, the venv and the app, without the build's
# leftovers (the layers above are not part of it).
FROM python:3.11-slim-bookworm

# MALLOC_ARENA_MAX: glibc's malloc keeps at most 2 arenas, not 8 a core for
# the server's threads: some 10 % less resident memory, and 0.53 GB of
# address space instead of 1.5 (as scripts/serve sets it).
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/venv/bin:$PATH \
    PORT=8000 \
    MALLOC_ARENA_MAX=2

RUN useradd --create-home --uid 10001 pisti
WORKDIR /srv/pisti
COPY --from=build /opt/venv /opt/venv
COPY --from=build /srv/pisti ./
COPY templates ./templates
COPY static ./static
COPY migrations ./migrations
# The documents the site serves (app/web/documents.py: SERVED; the rest of
# docs/ stays out, as .dockerignore says).
COPY docs/record-format.md ./docs/
COPY scripts/healthcheck /usr/local/bin/pisti-healthcheck
RUN mkdir instance \
    && chown 10001:10001 instance

# The commit built, for the server's first log line (the image has no .git):
# scripts/build-image gives it; by hand, --build-arg PISTI_COMMIT=$(git
# rev-parse HEAD).
ARG PISTI_COMMIT=""
ENV PISTI_COMMIT=$PISTI_COMMIT
USER 10001:10001
VOLUME ["/srv/pisti/instance"]
EXPOSE 8000
# /healthz with a Host the site answers to (FLASK_SERVER_NAME, else the first
# of FLASK_TRUSTED_HOSTS, else localhost).
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python3", "/usr/local/bin/pisti-healthcheck"]
# One process (searches go to its process pool, one worker per core); a
# configuration error stops the container with one clear line.
CMD ["sh", "-c", "exec python -m app.serve --listen \"0.0.0.0:$PORT\""]
