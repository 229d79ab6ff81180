"""Bodies of the index and the probes (``/``, ``/healthz``, ``/readyz``)."""

from __future__ import annotations

from .base import Answer


class Health(Answer):
    status: str


class Index(Answer):
    """Where the API reference is: `docs` and `swagger` (Swagger UI, served from the package's
    own files), `openapi` (the OpenAPI document as JSON)."""

    name: str
    version: str
    docs: str
    swagger: str
    openapi: str
