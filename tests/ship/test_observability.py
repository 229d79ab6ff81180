"""The chart's Grafana dashboard and PrometheusRule, offline.

- Every metric a dashboard panel or an alert names is one the service exports, with the labels it
  has: read from a live ``/metrics`` of a test app after every documented operation was called
  once (so histograms show their ``_bucket``/``_sum``/``_count`` series).
- The rules pass ``promtool check rules``; ``promtool test rules`` runs ``alerts.test.yaml``, in
  which every alert has a case that fires and one that does not. The dashboard's expressions
  parse as PromQL (``promtool check rules`` over them as recording rules).
- Both objects render only behind their values flags, with the labels the Grafana sidecar and the
  Prometheus Operator select on.

promtool comes from Debian's ``prometheus`` package (``apt-get install prometheus``; ``.ci/run``
installs it). Without it the promtool tests skip loudly, and fail under ``CI=true``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from litestar.testing import TestClient
from prometheus_client.parser import text_string_to_metric_families

from baohuang.http import examples
from baohuang.http.app import create_app
from baohuang.http.settings import Settings
from redis_server import in_ci

from .test_chart import (  # the chart fixtures, shared
    CHART,
    FULLNAME,
    NAMESPACE,
    Doc,
    chart,
    helm,
    of_kind,
    one,
    production_docs,
    production_values,
    render,
    yaml,
)

__all__ = ["chart", "helm", "production_docs", "production_values", "yaml"]  # fixtures

HERE = Path(__file__).resolve().parent
ALERT_TESTS = HERE / "alerts.test.yaml"
DASHBOARD = CHART / "dashboards" / "baohuang-rules.json"
ALERTS = {
    "BaohuangRulesHighErrorRatio",
    "BaohuangRulesStoreUnavailable",
    "BaohuangRulesEngineSlow",
    "BaohuangRulesOverloaded",
    "BaohuangRulesRateLimiting",
    "BaohuangRulesWebhookDeliveryLag",
    "BaohuangRulesRedisReplicasUnconfirmed",
}
SCRAPE_LABELS = {"namespace", "job", "pod", "instance", "service", "container", "endpoint"}
METRIC = re.compile(r"\bbaohuang_[a-z0-9_]+\b")
ENABLED = {"metrics": {"prometheusRule": {"enabled": True}, "dashboard": {"enabled": True}}}


# ------------------------------------------------------------------ what the service exports


def _operations(document: dict[str, Any]) -> list[tuple[str, str]]:
    """Every documented (path, verb): table creation first, deletion last."""
    found = [
        (path, verb)
        for path, item in document["paths"].items()
        for verb in item
        if verb in {"get", "put", "post", "delete"}
    ]
    order = {"put": 0, "post": 1, "get": 2, "delete": 3}
    return sorted(found, key=lambda pv: (order[pv[1]], pv[0]))


def exercise_and_scrape() -> str:
    """``/metrics`` of a test app after each documented operation was called once."""
    settings = Settings(
        token_secret="s", rate_limit="1000/second", rate_limit_stateless="1000/second"
    )
    with TestClient(create_app(settings)) as client:
        document = client.get("/schema/openapi.json").json()
        called = []
        for path, verb in _operations(document):
            url = path.format(**examples.PATH_PARAMETERS)
            bodies = examples.REQUESTS.get((path, verb))
            body = next(iter(bodies.values()))["value"] if bodies else None
            response = client.request(verb.upper(), url, json=body)
            assert response.status_code < 500, (verb, path, response.text)
            called.append((verb, path))
        assert ("put", "/v1/tables/{table_id}") in called and len(called) >= 15
        text: str = client.get("/metrics").text
    return text


def _scraped_as_a_worker(directory: Path) -> str:
    """The same, in a process whose metrics are prometheus-client's multiprocess files, as every
    worker of ``baohuang serve --workers N`` writes them (``/metrics`` adds them up)."""
    root = HERE.parents[1]
    env = {
        **os.environ,
        "PROMETHEUS_MULTIPROC_DIR": str(directory),
        "PYTHONPATH": os.pathsep.join([str(root / "tests"), str(root / "clients" / "python")]),
    }
    scraped = directory / "metrics.txt"  # not stdout: the app logs there
    code = (
        "import sys; from pathlib import Path; from ship.test_observability import "
        "exercise_and_scrape as e; Path(sys.argv[1]).write_text(e())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(scraped)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return scraped.read_text()


@pytest.fixture(scope="module", params=["one process", "workers"])
def exported(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, set[str]]:
    """Sample name → label names, from /metrics after each operation was called once: of one
    process, and as several workers expose them (multiprocess mode)."""
    if request.param == "one process":
        text = exercise_and_scrape()
    else:
        text = _scraped_as_a_worker(tmp_path_factory.mktemp("multiproc"))
        assert "baohuang_worker_requests" in text
    samples: dict[str, set[str]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples.setdefault(sample.name, set()).update(sample.labels)
    return samples


def _metrics_and_labels(expr: str) -> tuple[set[str], set[str]]:
    """Metric names, and label names the expression matches on or aggregates by."""
    metrics = set(METRIC.findall(expr))
    labels: set[str] = set()
    for group in re.findall(r"\b(?:by|without)\s*\(([^)]*)\)", expr):
        labels.update(name.strip() for name in group.split(",") if name.strip())
    for matchers in re.findall(r"\{([^}]*)\}", expr):
        labels.update(re.findall(r"([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)", matchers))
    return metrics, labels


def _assert_exported(where: str, expr: str, exported: dict[str, set[str]]) -> set[str]:
    metrics, labels = _metrics_and_labels(expr)
    assert metrics, f"{where}: names no baohuang_ metric: {expr}"
    for metric in metrics:
        assert metric in exported, f"{where}: {metric} is not exported by the service"
    known = set().union(*(exported[m] for m in metrics)) | SCRAPE_LABELS
    assert labels <= known, f"{where}: labels {sorted(labels - known)} not on {sorted(metrics)}"
    return metrics


def test_exercising_every_route_exports_histograms_in_full(exported: dict[str, set[str]]) -> None:
    for histogram in (
        "baohuang_http_request_duration_seconds",
        "baohuang_engine_seconds",
        "baohuang_store_seconds",
    ):
        for suffix in ("_bucket", "_sum", "_count"):
            assert histogram + suffix in exported
    assert "le" in exported["baohuang_engine_seconds_bucket"]
    assert {"baohuang_store_overloaded_total", "baohuang_rate_limited_total"} <= set(exported)


# -------------------------------------------------------------------------------- dashboard


def _panels(dashboard: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for panel in dashboard["panels"]:
        found.append(panel)
        found.extend(panel.get("panels", []))
    return [p for p in found if p["type"] != "row"]


def test_dashboard_names_only_exported_metrics(exported: dict[str, set[str]]) -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    named: set[str] = set()
    for panel in _panels(dashboard):
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            named |= _assert_exported(panel["title"], target["expr"], exported)
    # What the dashboard must show: requests and latency by route, engine time by operation,
    # verdicts by reason, store latency and outcomes, 503s by code, rate-limited requests.
    assert {
        "baohuang_http_requests_total",
        "baohuang_http_request_duration_seconds_bucket",
        "baohuang_engine_seconds_bucket",
        "baohuang_verdicts_total",
        "baohuang_store_seconds_bucket",
        "baohuang_store_seconds_count",
        "baohuang_store_overloaded_total",
        "baohuang_rate_limited_total",
    } <= named
    variables = {v["name"] for v in dashboard["templating"]["list"]}
    assert {"datasource", "namespace", "job"} <= variables
    for panel in _panels(dashboard):
        assert panel["datasource"]["uid"] == "${datasource}"
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids))


def test_dashboard_only_when_enabled(
    chart: Any, yaml: ModuleType, production_docs: list[Doc]
) -> None:
    assert [
        d for d in of_kind(render(chart, yaml), "ConfigMap") if "dashboard" in d["metadata"]["name"]
    ] == []
    (config_map,) = [
        d
        for d in of_kind(production_docs, "ConfigMap")
        if d["metadata"]["name"] == f"{FULLNAME}-dashboard"
    ]
    assert config_map["metadata"]["labels"]["grafana_dashboard"] == "1"
    assert config_map["metadata"]["annotations"] == {"grafana_folder": "Games"}
    assert json.loads(config_map["data"]["baohuang-rules.json"]) == json.loads(
        DASHBOARD.read_text()
    )


# ----------------------------------------------------------------------------- alert rules


def _rule_doc(docs: list[Doc]) -> Doc:
    return one(docs, "PrometheusRule")


def _alerts(rule: Doc) -> dict[str, dict[str, Any]]:
    return {r["alert"]: r for group in rule["spec"]["groups"] for r in group["rules"]}


def test_rules_only_when_enabled(chart: Any, yaml: ModuleType, production_docs: list[Doc]) -> None:
    assert of_kind(render(chart, yaml), "PrometheusRule") == []
    rule = _rule_doc(production_docs)
    assert rule["apiVersion"] == "monitoring.coreos.com/v1"
    assert rule["metadata"]["labels"]["release"] == "kube-prometheus-stack"
    alerts = _alerts(rule)
    assert set(alerts) == ALERTS
    for name, alert in alerts.items():
        assert set(alert) == {"alert", "expr", "for", "labels", "annotations"}, name
        assert alert["labels"]["severity"] in {"critical", "warning"}
        assert alert["labels"]["team"] == "games"  # alertLabels
        assert {"summary", "description"} <= set(alert["annotations"])
        assert f'namespace="{NAMESPACE}",job="{FULLNAME}"' in alert["expr"], name


def test_rules_name_only_exported_metrics(
    chart: Any, yaml: ModuleType, exported: dict[str, set[str]]
) -> None:
    for name, alert in _alerts(_rule_doc(render(chart, yaml, ENABLED))).items():
        _assert_exported(name, alert["expr"], exported)


def test_rule_values_reach_the_expressions(chart: Any, yaml: ModuleType) -> None:
    values = {
        "metrics": {
            "prometheusRule": {
                "enabled": True,
                "selector": 'cluster="eu-1",app="referee"',
                "errorRatio": 0.2,
                "engineP99Seconds": 0.05,
                "overloadRatio": 0.3,
                "rateLimitedRatio": 0.4,
                "webhookLagSeconds": 600,
            }
        }
    }
    alerts = _alerts(_rule_doc(render(chart, yaml, values)))
    for alert in alerts.values():
        assert 'cluster="eu-1",app="referee"' in alert["expr"]
        assert "namespace=" not in alert["expr"]
    assert alerts["BaohuangRulesHighErrorRatio"]["expr"].endswith("> 0.2")
    assert alerts["BaohuangRulesEngineSlow"]["expr"].endswith("> 0.05")
    assert alerts["BaohuangRulesOverloaded"]["expr"].endswith("> 0.3")
    assert alerts["BaohuangRulesRateLimiting"]["expr"].endswith("> 0.4")
    assert alerts["BaohuangRulesWebhookDeliveryLag"]["expr"].endswith("> 600")


@pytest.mark.parametrize(
    "values",
    [
        {"metrics": {"prometheusRule": {"engineP99Seconds": 0.1}}},  # no bucket above 0.1 s
        {"metrics": {"prometheusRule": {"errorRatio": 0}}},
        {"metrics": {"prometheusRule": {"enable": True}}},
        {"metrics": {"dashboard": {"labels": {"grafana_dashboard": 1}}}},
        {"config": {"tableTtlSeconds": 1, "logLevel": "INFO", "rateLimit": "600/day"}},
        {"config": {"tableTtlSeconds": 1, "logLevel": "INFO", "rateLimitStateless": "0/second"}},
        {"config": {"tableTtlSeconds": 1, "logLevel": "INFO", "logFormat": "xml"}},
    ],
    ids=lambda v: json.dumps(v),
)
def test_schema_rejects_bad_observability_values(
    chart: Any, yaml: ModuleType, helm: ModuleType, values: dict[str, Any]
) -> None:
    with pytest.raises(helm.HelmValuesError):
        render(chart, yaml, values)


def test_rate_limits_reach_the_pods(production_docs: list[Doc], production_values: Doc) -> None:
    (config,) = [
        d for d in of_kind(production_docs, "ConfigMap") if d["metadata"]["name"] == FULLNAME
    ]
    assert config["data"]["BAOHUANG_RATE_LIMIT"] == production_values["config"]["rateLimit"]
    assert config["data"]["BAOHUANG_RATE_LIMIT_STATELESS"] == "6000/minute"
    assert Settings.from_env(config["data"]).rate_limit == "1200/minute"


# ------------------------------------------------------------------------------- promtool


def promtool() -> str:
    """The promtool binary; skip loudly without it, fail under CI=true."""
    found = os.environ.get("PROMTOOL") or shutil.which("promtool")
    if found and os.access(found, os.X_OK):
        return found
    message = "NO PROMTOOL: install Debian's prometheus package (apt-get install prometheus)"
    if in_ci():
        pytest.fail(f"{message} (CI=true: a missing promtool is a failure, not a skip)")
    pytest.skip(f"{message}; under CI=true this fails")


def _run(*command: str, cwd: Path) -> str:
    result = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, f"{' '.join(command)}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def test_promtool_checks_and_tests_the_rules(chart: Any, yaml: ModuleType, tmp_path: Path) -> None:
    binary = promtool()
    rule = _rule_doc(render(chart, yaml, ENABLED))
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump(rule["spec"], sort_keys=False))
    shutil.copy(ALERT_TESTS, tmp_path / ALERT_TESTS.name)
    assert f"SUCCESS: {len(ALERTS)} rules found" in _run(
        binary, "check", "rules", "rules.yaml", cwd=tmp_path
    )
    _run(binary, "test", "rules", ALERT_TESTS.name, cwd=tmp_path)


def test_every_alert_has_a_firing_and_a_quiet_case(chart: Any, yaml: ModuleType) -> None:
    cases = yaml.safe_load(ALERT_TESTS.read_text())
    fires: set[str] = set()
    quiet: set[str] = set()
    for case in cases["tests"]:
        for check in case["alert_rule_test"]:
            (fires if check["exp_alerts"] else quiet).add(check["alertname"])
    names = set(_alerts(_rule_doc(render(chart, yaml, ENABLED))))
    assert names == ALERTS
    assert fires == names, f"no firing case for {sorted(names - fires)}"
    assert quiet == names, f"no quiet case for {sorted(names - quiet)}"


def test_promtool_fails_a_wrong_expectation(chart: Any, yaml: ModuleType, tmp_path: Path) -> None:
    """Guards the test above: a case whose expectation is wrong must fail."""
    binary = promtool()
    rule = _rule_doc(render(chart, yaml, ENABLED))
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump(rule["spec"], sort_keys=False))
    cases = yaml.safe_load(ALERT_TESTS.read_text())
    for case in cases["tests"]:
        for check in case["alert_rule_test"]:
            check["exp_alerts"] = [] if check["exp_alerts"] else [{"exp_labels": {}}]
    (tmp_path / "wrong.test.yaml").write_text(yaml.safe_dump(cases, sort_keys=False))
    result = subprocess.run(
        [binary, "test", "rules", "wrong.test.yaml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0
    for name in ALERTS:
        assert name in result.stdout + result.stderr


def test_dashboard_expressions_parse(tmp_path: Path, yaml: ModuleType) -> None:
    binary = promtool()
    rules = []
    for panel in _panels(json.loads(DASHBOARD.read_text())):
        for target in panel["targets"]:
            expr = target["expr"].replace("$__rate_interval", "5m")
            expr = re.sub(r"\$\w+", ".*", expr)
            rules.append(
                {"record": f"dashboard:panel_{panel['id']}:{target['refId']}", "expr": expr}
            )
    (tmp_path / "dashboard.yaml").write_text(
        yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}, sort_keys=False)
    )
    output = _run(binary, "check", "rules", "dashboard.yaml", cwd=tmp_path)
    assert f"SUCCESS: {len(rules)} rules found" in output


DEPLOY_DOC = CHART.parents[1] / "docs" / "deploy.md"
_ROW = re.compile(
    r"^\| `(?P<alert>BaohuangRules\w+)` \| (?P<severity>\w+) \| (?P<when>.+) \| (?P<value>[^|]*)\|$"
)
_MINUTES = re.compile(r"for (\d+) minutes")


def test_the_alert_table_of_deploy_md_is_the_chart_s(chart: Any, yaml: ModuleType) -> None:
    """docs/deploy.md lists every alert the chart renders, and only those, each with its
    severity, how long it must hold (``for``) and its default threshold (the expression's)."""
    rows = [m.groupdict() for m in map(_ROW.match, DEPLOY_DOC.read_text().splitlines()) if m]
    alerts = _alerts(_rule_doc(render(chart, yaml, ENABLED)))
    assert [row["alert"] for row in rows] == list(alerts)  # every one, in the chart's order
    for row in rows:
        alert = alerts[row["alert"]]
        assert row["severity"] == alert["labels"]["severity"], row
        holds = _MINUTES.findall(row["when"])
        assert holds and f"{holds[-1]}m" == alert["for"], row
        value = row["value"].strip().strip("`")
        threshold = alert["expr"].rsplit(">", 1)[1].strip()
        assert value == ("" if threshold == "0" else threshold), row
