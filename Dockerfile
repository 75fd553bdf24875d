# Pişti: one container, sessions and the secret key in the instance volume.
FROM python:3.11.7-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    GUNICORN_WORKERS=2

RUN useradd --create-home --uid 10001 pisti
WORKDIR /srv/pisti
COPY pyproject.toml README.md ./
COPY app ./app
COPY templates ./templates
COPY static ./static
RUN pip install --editable . \
    && mkdir instance \
    && chown pisti:pisti instance

USER pisti
VOLUME ["/srv/pisti/instance"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python3", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
CMD ["sh", "-c", "exec gunicorn --bind 0.0.0.0:8000 --workers \"$GUNICORN_WORKERS\" --threads 4 --access-logfile - 'app:create_app()'"]
