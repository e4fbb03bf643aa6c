# An exact tag and its digest (the multi-platform index), so a rebuild gets the very same
# Python and Debian even if the tag is moved; bump both deliberately.
# To pin or refresh: docker buildx imagetools inspect python:3.11.13-slim-bookworm (the
# "Digest:" line), or docker pull the tag and read docker inspect --format
# '{{index .RepoDigests 0}}'. Not checked against Docker Hub where this was written (no
# registry access there): the digest is the one public build logs and Dockerfiles resolve for
# this tag. If a build says "manifest unknown", refresh it as above.
FROM python:3.11.13-slim-bookworm@sha256:86adf8dbadc3d6e82ee5dd2c74bec2e1c2467cdad47886280501df722372d2e1

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
# The database answers, and the gateway is connected (or the playground serves).
HEALTHCHECK --interval=30s --timeout=15s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "health"]
CMD ["python", "-m", "bot"]
