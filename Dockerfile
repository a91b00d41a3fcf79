# The service as its wheel, installed on the locked dependencies and run by an unprivileged
# user. Build: `docker compose build` (or `docker build -t reversi .`).

FROM python:3.11-slim AS wheel
WORKDIR /src
COPY . .
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /dist .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=reversi_site.settings \
    DJANGO_STATIC_ROOT=/app/staticfiles \
    NUMBA_CACHE_DIR=/app/numba-cache
RUN useradd --system --create-home --home-dir /app --uid 10001 reversi
WORKDIR /app

COPY requirements.txt /tmp/requirements.txt
RUN pip install --no-cache-dir --require-hashes -r /tmp/requirements.txt
COPY --from=wheel /dist /tmp/dist
RUN pip install --no-cache-dir --no-deps /tmp/dist/*.whl \
    && rm -r /tmp/dist /tmp/requirements.txt \
    && DJANGO_DEBUG=1 django-admin collectstatic --noinput

USER reversi
# The numba kernels, compiled once into the image's cache (owned by the user that reads it).
RUN python -m ai_worker warmup

EXPOSE 8000
# The web server, as docker-compose's `web` service runs it: WEB_WORKERS uvicorn processes
# (one per core by default) sharing the Redis channel layer.
CMD ["sh", "-c", "exec uvicorn reversi_site.asgi:application --host 0.0.0.0 --port 8000 --workers ${WEB_WORKERS:-$(nproc)} --no-access-log"]
