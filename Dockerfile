FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    NUMBA_CACHE_DIR=/app/.numba_cache

WORKDIR /app
COPY pyproject.toml README.md ./
COPY reversi_site ./reversi_site
COPY games ./games
COPY ai_worker ./ai_worker
COPY manage.py ./
RUN pip install --no-cache-dir . \
    && python manage.py collectstatic --noinput \
    && python -m ai_worker warmup

EXPOSE 8000
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "reversi_site.asgi:application"]
