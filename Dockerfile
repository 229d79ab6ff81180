# syntax=docker/dockerfile:1
#
# baohuang-rules: the Baohuang rules referee as an HTTP service.
#
#   docker build -t baohuang-rules .
#   docker run --rm -p 8000:8000 baohuang-rules
#
# Two stages on one pinned base: the builder installs the locked dependencies and the
# project's wheel into /opt/venv; the runtime copies only that
# venv, so pip's caches, the source tree and build tools never reach the image.

FROM python:3.11.17-slim-bookworm AS base

# ---------------------------------------------------------------- builder ----
FROM base AS builder

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_ROOT_USER_ACTION=ignore

WORKDIR /src

# The venv lives at the same path as in the runtime stage: its scripts carry
# absolute shebangs (#!/opt/venv/bin/python).
RUN python -m venv /opt/venv

# The runtime dependencies, pinned with their hashes (requirements/runtime.txt, compiled from
# pyproject.toml by `uv pip compile`), in a layer of their own that only a change of the lock
# rebuilds.
COPY requirements/runtime.txt ./requirements/runtime.txt
RUN /opt/venv/bin/pip install --no-deps --require-hashes -r requirements/runtime.txt

# Only what the wheel is built from (see .dockerignore).
COPY pyproject.toml README.md ./
COPY service ./service

# Build the project wheel and install it alone: its dependencies are the locked ones above. pip
# compiles the bytecode at install time, so the read-only runtime never needs to.
RUN /opt/venv/bin/pip wheel --no-deps --wheel-dir /tmp/wheels . \
 && /opt/venv/bin/pip install --no-deps /tmp/wheels/*.whl \
 && /opt/venv/bin/pip check \
 && /opt/venv/bin/baohuang --help > /dev/null

# ---------------------------------------------------------------- runtime ----
FROM base AS runtime

# tini as PID 1: forwards SIGTERM/SIGINT to uvicorn and reaps zombies, whether
# or not the runtime adds its own init (docker run --init, Kubernetes never does).
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini=0.19.0-1+b3 \
 && rm -rf /var/lib/apt/lists/*

# A fixed, unprivileged UID/GID so Kubernetes' runAsUser/runAsNonRoot can check it.
RUN groupadd --system --gid 10001 baohuang \
 && useradd --system --uid 10001 --gid 10001 --no-create-home \
            --home-dir /nonexistent --shell /usr/sbin/nologin baohuang

COPY --from=builder /opt/venv /opt/venv

# The build arguments change with every build: declared after the RUN steps, so a new revision
# reuses their layers (and builds without the network once they are cached).
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown

LABEL org.opencontainers.image.title="baohuang-rules" \
      org.opencontainers.image.description="Rules referee for Baohuang (保皇): combos, moves, live tables and scores over HTTP." \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.base.name="docker.io/library/python:3.11.17-slim-bookworm"

ENV PATH="/opt/venv/bin:${PATH}" \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1

USER 10001:10001

EXPOSE 8000

# Liveness only: /healthz never depends on Redis (readiness is /readyz).
# No curl in slim images, so the probe is Python's own urllib.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=3).status == 200 else 1)"]

ENTRYPOINT ["tini", "--", "baohuang"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000"]
