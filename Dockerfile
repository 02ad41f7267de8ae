# boardchat: runs every platform whose token is set; the database lives on the /data volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    BOARDCHAT_DB=/data/boardchat.sqlite3

WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY engine ./engine
COPY assets ./assets
RUN pip install --no-compile . \
    && useradd --create-home --uid 10001 boardchat \
    && mkdir -p /data && chown boardchat:boardchat /data

USER boardchat
VOLUME ["/data"]

# Healthy when the package imports and the database file is readable (or not yet created).
HEALTHCHECK --interval=60s --timeout=10s --start-period=30s --retries=3 \
    CMD python -c "import os, sqlite3, bot.table; p=os.environ['BOARDCHAT_DB']; os.path.exists(p) and sqlite3.connect(p).execute('select 1')" || exit 1

CMD ["boardchat", "run"]
