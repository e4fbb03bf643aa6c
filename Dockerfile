# An exact tag, so a rebuild gets the same Python and Debian (bump it deliberately).
FROM python:3.11.13-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_URL=sqlite+aiosqlite:////app/data/sortie.db \
    PLAYGROUND_ENABLED=false

WORKDIR /app
RUN useradd --create-home --uid 10001 sortie

# The locked versions first (a layer that changes only with the lock; every file checked against
# its hash), then Sortie itself in a pip call of its own (it has no hash to check).
COPY requirements/runtime.lock ./requirements/
RUN pip install --no-cache-dir --require-hashes -r requirements/runtime.lock
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY renders ./renders
COPY bot ./bot
COPY bench ./bench
RUN pip install --no-cache-dir --no-deps . \
    && mkdir -p /app/data && chown sortie:sortie /app/data

USER sortie
VOLUME ["/app/data"]
CMD ["python", "-m", "bot"]
