"""Bench-only app factories: the service with its metrics in different ways (never deployed).

Serve one with e.g. ``uvicorn --factory bench_apps:lean`` (``bench/`` on ``PYTHONPATH``):

* ``lean``      the production app, ``baohuang.http.app.create_app()`` (HttpMetrics wrapper, engine
                histograms, verdict counters);
* ``unwrapped`` the production app with the HttpMetrics wrapper taken off
                (``app.asgi_handler = app.asgi_handler.app``): engine metrics stay;
* ``bare``      ``unwrapped`` and the engine histograms and verdict counters replaced by no-ops:
                no metrics at all, the baseline for "all metrics together";
* ``plugin``    Litestar's Prometheus plugin (``PrometheusConfig(group_path=True)`` middleware and
                a ``PrometheusController`` at ``/plugin-metrics``) instead of HttpMetrics; engine
                metrics stay. It is built by ``create_app()`` itself, with the ``Litestar`` class
                it calls swapped for one that adds the middleware and controller, so every other
                setting is the production one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from litestar import Litestar

import baohuang.http.app as app_module
from baohuang.http.app import create_app
from baohuang.http.metrics import HttpMetrics


def lean() -> Litestar:
    app = create_app()
    assert isinstance(app.asgi_handler, HttpMetrics)
    return app


def unwrapped() -> Litestar:
    app = create_app()
    assert isinstance(app.asgi_handler, HttpMetrics)
    app.asgi_handler = app.asgi_handler.app
    return app


class _NoObserve:
    def observe(self, _value: float) -> None:
        return None


def _noop(*_args: Any, **_kwargs: Any) -> None:
    return None


@contextmanager
def engine_metrics_off() -> Iterator[None]:
    """Replace the combos controller's engine histograms and verdict counters with no-ops."""
    from baohuang.http.controllers import combos

    saved = {n: getattr(combos, n) for n in dir(combos) if n.endswith("_TIME")}
    saved |= {n: getattr(combos, n) for n in ("count_verdict", "count_verdicts")}
    noop = _NoObserve()
    for name in saved:
        setattr(combos, name, noop if name.endswith("_TIME") else _noop)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(combos, name, value)


def bare() -> Litestar:
    engine_metrics_off().__enter__()  # for the life of this (bench-only) server process
    return unwrapped()


def plugin() -> Litestar:
    from litestar.plugins.prometheus import PrometheusConfig, PrometheusController

    config = PrometheusConfig(app_name="baohuang_plugin", group_path=True)

    class PluginMetrics(PrometheusController):
        path = "/plugin-metrics"

    class LitestarWithPlugin(Litestar):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["route_handlers"] = [*kwargs.get("route_handlers", ()), PluginMetrics]
            kwargs["middleware"] = [*kwargs.get("middleware", ()), config.middleware]
            super().__init__(*args, **kwargs)

    original = app_module.Litestar
    app_module.Litestar = LitestarWithPlugin  # type: ignore[misc]
    try:
        app = create_app()
    finally:
        app_module.Litestar = original  # type: ignore[misc]
    assert isinstance(app.asgi_handler, HttpMetrics)
    app.asgi_handler = app.asgi_handler.app
    return app


VARIANTS = {"lean": lean, "unwrapped": unwrapped, "bare": bare, "plugin": plugin}
