# boardchat: runs every platform whose token is set; the database lives on the /data volume
# (SQLite) or on a PostgreSQL server (BOARDCHAT_DB=postgresql://...; see docker-compose.yml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    BOARDCHAT_DB=/data/boardchat.sqlite3 \
    BOARDCHAT_HEALTH_DIR=/tmp/boardchat-health

WORKDIR /app
# The pinned dependencies first (requirements.lock, `make lock`): a code change reuses the layer.
COPY requirements.lock ./
RUN pip install --no-compile -r requirements.lock
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY engine ./engine
COPY assets ./assets
RUN pip install --no-compile --no-deps . \
    && useradd --create-home --uid 10001 boardchat \
    && mkdir -p /data && chown boardchat:boardchat /data

USER boardchat
VOLUME ["/data"]
EXPOSE 8443

# Healthy while a platform adapter polled Telegram or heard Discord's gateway heartbeat within
# BOARDCHAT_HEALTH_MAX_AGE seconds (bot/health.py); the start period covers the first login.
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 \
    CMD ["boardchat", "health"]

CMD ["boardchat", "run"]
