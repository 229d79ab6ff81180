"""The Helm chart, offline: rendered, linted and validated without helm, a cluster or a network.

- helm-python-sdk (`helm_python`) binds Helm's own Go SDK: rendering, `values.schema.json`
  validation and `helm lint` are Helm's code, not a re-implementation.
- kubernetes-validate ships the Kubernetes OpenAPI schemas per version; the `-strict`
  variants refuse unknown fields, the way `kubectl apply --validate=strict` does.

Both come from the project's `test` extra; when one is missing the tests fail and say so.
"""

from __future__ import annotations

import base64
import copy
import importlib
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from baohuang.http.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
CHART = ROOT / "helm" / "baohuang-rules"
PRODUCTION = CHART / "ci" / "production-values.yaml"
RELEASE, NAMESPACE = "baohuang-rules", "games"
FULLNAME = RELEASE  # a release named like the chart keeps the plain name
# The Kubernetes version the manifests are validated against (a schema set that
# kubernetes-validate ships); bump it together with the clusters you support.
KUBE_VERSION = "1.31.0"
UID = 10001

Doc = dict[str, Any]


def _require(module: str, distribution: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError as error:  # not a skip: CI installs it through the `test` extra
        pytest.fail(
            f"{distribution} is not installed ({error}): `pip install {distribution}` "
            "(it is part of the project's `test` extra)",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def helm() -> ModuleType:
    return _require("helm_python", "helm-python-sdk")


@pytest.fixture(scope="session")
def kubernetes_validate() -> ModuleType:
    module = _require("kubernetes_validate", "kubernetes-validate")
    versions = module.utils.all_versions()
    if KUBE_VERSION not in versions:
        pytest.fail(
            f"kubernetes-validate {module.__version__} ships no schemas for "
            f"{KUBE_VERSION} (it has {versions[0]}..{versions[-1]})",
            pytrace=False,
        )
    return module


@pytest.fixture(scope="session")
def yaml() -> ModuleType:
    return _require("yaml", "pyyaml")


@pytest.fixture(scope="session")
def chart(helm: ModuleType) -> Any:
    loaded = helm.Chart.load(CHART)
    yield loaded
    loaded.close()


@pytest.fixture(scope="session")
def production_values(helm: ModuleType) -> dict[str, Any]:
    # Helm's own YAML reading, exactly what `helm install -f` gets.
    values: dict[str, Any] = helm.values_from_yaml(PRODUCTION.read_text())
    return values


def render(chart: Any, yaml: ModuleType, values: dict[str, Any] | None = None) -> list[Doc]:
    """Every rendered Kubernetes object (NOTES.txt and empty templates dropped)."""
    manifests = chart.render(values, name=RELEASE, namespace=NAMESPACE, is_install=True)
    docs: list[Doc] = []
    for path, text in sorted(manifests.items()):
        if path.endswith("NOTES.txt"):
            continue
        for doc in yaml.safe_load_all(text):
            if doc:
                doc.setdefault("metadata", {}).setdefault("annotations", {})
                doc["__template__"] = path
                docs.append(doc)
    return docs


def strip(doc: Doc) -> Doc:
    clean = {k: v for k, v in doc.items() if k != "__template__"}
    if not clean["metadata"]["annotations"]:
        clean["metadata"] = {k: v for k, v in clean["metadata"].items() if k != "annotations"}
    return clean


def of_kind(docs: list[Doc], kind: str) -> list[Doc]:
    return [d for d in docs if d["kind"] == kind]


def one(docs: list[Doc], kind: str) -> Doc:
    found = of_kind(docs, kind)
    assert len(found) == 1, f"expected one {kind}, got {len(found)}"
    return found[0]


def container(docs: list[Doc]) -> Doc:
    containers = one(docs, "Deployment")["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    result: Doc = containers[0]
    return result


def env_refs(docs: list[Doc]) -> dict[str, tuple[str, str]]:
    """Env var name -> (Secret name, key) for every secretKeyRef."""
    return {
        e["name"]: (e["valueFrom"]["secretKeyRef"]["name"], e["valueFrom"]["secretKeyRef"]["key"])
        for e in container(docs).get("env", [])
        if "secretKeyRef" in e.get("valueFrom", {})
    }


SECRET_ENV = ("REDIS_URL", "BAOHUANG_API_KEYS", "BAOHUANG_TOKEN_SECRET")


@pytest.fixture(scope="session")
def default_docs(chart: Any, yaml: ModuleType) -> list[Doc]:
    return render(chart, yaml)


@pytest.fixture(scope="session")
def production_docs(chart: Any, yaml: ModuleType, production_values: dict[str, Any]) -> list[Doc]:
    return render(chart, yaml, production_values)


@pytest.fixture(params=["default", "production"])
def docs(request: pytest.FixtureRequest) -> list[Doc]:
    result: list[Doc] = request.getfixturevalue(f"{request.param}_docs")
    return result


# ------------------------------------------------------------- lint and Kubernetes schemas


def lint(helm: ModuleType, capfd: pytest.CaptureFixture[str], values: Any) -> tuple[Any, str]:
    """`helm lint --strict` and what it logged.

    In lint mode Helm turns a template's `fail` or `required` into a log line on stderr
    instead of an error, so those lines count as findings here.
    """
    capfd.readouterr()
    report = helm.lint(
        CHART, values, strict=True, namespace=NAMESPACE, kube_version=f"v{KUBE_VERSION}"
    )
    logged = capfd.readouterr().err
    return report, logged


@pytest.mark.parametrize("which", ["default", "production"])
def test_helm_lint_is_clean(
    helm: ModuleType,
    capfd: pytest.CaptureFixture[str],
    which: str,
    production_values: dict[str, Any],
) -> None:
    values = production_values if which == "production" else None
    report, logged = lint(helm, capfd, values)
    problems = [m for m in report["messages"] if m["severity"] >= 2] + report["errors"]
    assert report["total_charts_linted"] == 1
    assert not problems, json.dumps(report, indent=2)
    assert "funcMap" not in logged, logged


def test_lint_reports_a_template_fail(helm: ModuleType, capfd: pytest.CaptureFixture[str]) -> None:
    """Guards the test above: a `fail` in lint mode is only logged, and must be seen."""
    _, logged = lint(helm, capfd, {"redis": {"url": ""}})
    assert "funcMap fail" in logged and "embedded in-memory store" in logged, logged


def test_every_manifest_is_valid_kubernetes(
    docs: list[Doc], kubernetes_validate: ModuleType
) -> None:
    unknown_kinds = []
    for doc in docs:
        try:
            kubernetes_validate.validate(strip(doc), KUBE_VERSION, strict=True)
        except kubernetes_validate.SchemaNotFoundError:
            unknown_kinds.append(doc["kind"])
        except kubernetes_validate.ValidationError as error:
            path = ".".join(str(p) for p in error.path)
            pytest.fail(
                f"{doc['__template__']}: {doc['kind']} invalid for Kubernetes "
                f"{error.version} at {path or '<root>'}: {error.message}"
            )
    # CRD kinds carry no upstream schema; the ServiceMonitor is checked field by field below, the
    # PrometheusRule in test_observability.py (and by promtool).
    assert set(unknown_kinds) <= {"ServiceMonitor", "PrometheusRule"}, unknown_kinds


def test_kubernetes_validation_is_strict(
    default_docs: list[Doc], kubernetes_validate: ModuleType
) -> None:
    """Guards the test above: an unknown field or a wrong type must be refused."""
    deployment = strip(copy.deepcopy(one(default_docs, "Deployment")))
    deployment["spec"]["template"]["spec"]["containers"][0]["livenessProbes"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, KUBE_VERSION, strict=True)
    deployment = strip(copy.deepcopy(one(default_docs, "Deployment")))
    deployment["spec"]["replicas"] = "two"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, KUBE_VERSION, strict=True)


# --------------------------------------------------------------------------- Deployment


def test_probes(docs: list[Doc]) -> None:
    c = container(docs)
    assert c["ports"] == [
        {"name": "http", "containerPort": 8000, "protocol": "TCP"},
        {"name": "probes", "containerPort": 8081, "protocol": "TCP"},
    ]
    # The probes on a port of their own, which no client of the service's port can starve.
    assert {"name": "BAOHUANG_PROBE_PORT", "value": "8081"} in c["env"]
    assert c["startupProbe"]["httpGet"] == {"path": "/healthz", "port": "probes"}
    assert c["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "probes"}
    assert c["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "probes"}
    # The startup probe gives a slow start room before liveness may restart the pod.
    startup = c["startupProbe"]
    assert startup["periodSeconds"] * startup["failureThreshold"] >= 30


def test_probes_on_the_service_port_without_a_probe_port(chart: Any, yaml: ModuleType) -> None:
    c = container(render(chart, yaml, {"probePort": None}))
    assert c["ports"] == [{"name": "http", "containerPort": 8000, "protocol": "TCP"}]
    assert not any(e["name"] == "BAOHUANG_PROBE_PORT" for e in c["env"])
    assert c["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert c["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}


def test_runs_the_image_entrypoint_with_one_worker(docs: list[Doc]) -> None:
    c = container(docs)
    assert "command" not in c, "the image's ENTRYPOINT (tini -- baohuang) must stay"
    assert c["args"] == ["serve", "--host", "0.0.0.0", "--port", "8000"]
    assert not any("worker" in a for a in c["args"])


def test_security_context(docs: list[Doc]) -> None:
    pod = one(docs, "Deployment")["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] == UID
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod["automountServiceAccountToken"] is False
    sc = container(docs)["securityContext"]
    assert sc["runAsNonRoot"] is True and sc["runAsUser"] == UID
    assert sc["readOnlyRootFilesystem"] is True
    assert sc["allowPrivilegeEscalation"] is False
    assert sc["capabilities"]["drop"] == ["ALL"] and not sc["capabilities"].get("add")
    assert sc["seccompProfile"] == {"type": "RuntimeDefault"}
    # The only writable path under a read-only root.
    mounts = {m["mountPath"]: m["name"] for m in container(docs)["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert "emptyDir" in volumes[mounts["/tmp"]]


def test_resources(docs: list[Doc]) -> None:
    resources = container(docs)["resources"]
    for kind in ("requests", "limits"):
        assert {"cpu", "memory"} <= set(resources[kind]), resources


def test_spread_across_nodes(docs: list[Doc]) -> None:
    pod = one(docs, "Deployment")["spec"]["template"]["spec"]
    selector = one(docs, "Deployment")["spec"]["selector"]["matchLabels"]
    constraints = {c["topologyKey"]: c for c in pod["topologySpreadConstraints"]}
    hostname = constraints["kubernetes.io/hostname"]
    assert hostname["whenUnsatisfiable"] == "ScheduleAnyway"  # soft: never blocks scheduling
    assert hostname["labelSelector"]["matchLabels"] == selector


def test_default_release(default_docs: list[Doc]) -> None:
    kinds = sorted(d["kind"] for d in default_docs)
    assert kinds == sorted(
        [
            "ConfigMap",
            "Deployment",
            "Pod",
            "PodDisruptionBudget",
            "Secret",
            "Service",
            "ServiceAccount",
        ]
    )
    assert one(default_docs, "Deployment")["spec"]["replicas"] >= 2
    test_pod = one(default_docs, "Pod")
    assert test_pod["metadata"]["annotations"]["helm.sh/hook"] == "test"


def test_service_targets_the_pods(docs: list[Doc]) -> None:
    service = one(docs, "Service")
    template_labels = one(docs, "Deployment")["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= template_labels.items()
    assert service["spec"]["ports"][0]["targetPort"] == "http"


# ------------------------------------------------------------------ config and secrets


def decoded(secret: Doc) -> dict[str, str]:
    return {k: base64.b64decode(v).decode() for k, v in secret.get("data", {}).items()}


def settings_map(docs: list[Doc]) -> Doc:
    """The ConfigMap the pods read their settings from (not the Grafana dashboard's)."""
    (config,) = [d for d in of_kind(docs, "ConfigMap") if d["metadata"]["name"] == FULLNAME]
    return config


CONFIG_ENV = {
    "TABLE_TTL_SECONDS",
    "LOG_LEVEL",
    "REDIS_MODE",
    "REDIS_WAIT_TIMEOUT_MS",
    "BAOHUANG_PLAY_PAGE",
    "BAOHUANG_BOT_DELAY_SECONDS",
    "LOG_FORMAT",
    "BAOHUANG_ACCESS_LOG",
    "BAOHUANG_RATE_LIMIT",
    "BAOHUANG_RATE_LIMIT_STATELESS",
    "BAOHUANG_WEBHOOK_ALLOW_PRIVATE",
    "BAOHUANG_WEBHOOK_CONCURRENCY",
    "BAOHUANG_WEBHOOK_TIMEOUT_SECONDS",
    "BAOHUANG_RATE_LIMIT_AUTH_FAILURES",
    "BAOHUANG_IDEMPOTENCY_KEYS",
    "BAOHUANG_DEALS_KEPT",
    "BAOHUANG_GC_THRESHOLDS",
    "FORWARDED_ALLOW_IPS",
    "BAOHUANG_MAX_STREAMS_PER_CREDENTIAL",
    "BAOHUANG_MAX_STREAMS_PER_TABLE",
    "BAOHUANG_MAX_STREAMS_PER_ADDRESS",
    "BAOHUANG_STREAM_RESERVE",
    "BAOHUANG_CORS_ORIGINS",
    "BAOHUANG_WORKERS",
    "BAOHUANG_SHUTDOWN_SECONDS",
    "BAOHUANG_SUGGEST_THREADS",
    "BAOHUANG_SUGGEST_PER_CALLER",
}


def test_config_map_wiring(docs: list[Doc]) -> None:
    config = settings_map(docs)
    assert set(config["data"]) == CONFIG_ENV
    assert config["data"]["REDIS_MODE"] == "standalone"
    assert int(config["data"]["TABLE_TTL_SECONDS"]) > 0
    assert config["data"]["BAOHUANG_PLAY_PAGE"] == "on"
    assert config["data"]["BAOHUANG_BOT_DELAY_SECONDS"] == "1"
    sources = container(docs)["envFrom"]
    assert {"configMapRef": {"name": config["metadata"]["name"]}} in sources
    annotations = one(docs, "Deployment")["spec"]["template"]["metadata"]["annotations"]
    assert {"checksum/config", "checksum/secret"} <= set(annotations)


def test_default_secret_wiring(default_docs: list[Doc]) -> None:
    secret = one(default_docs, "Secret")
    values = decoded(secret)
    refs = env_refs(default_docs)
    assert set(SECRET_ENV) <= set(refs)
    for name in SECRET_ENV:
        secret_name, key = refs[name]
        assert secret_name == secret["metadata"]["name"] == FULLNAME
        assert key in values, f"{name} reads key {key}, absent from the Secret"
    assert values[refs["REDIS_URL"][1]] == "redis://redis:6379/0"  # external by default
    assert values[refs["BAOHUANG_API_KEYS"][1]] == ""
    assert len(values[refs["BAOHUANG_TOKEN_SECRET"][1]]) >= 32  # generated, shared by all pods


def test_values_reach_the_secret(chart: Any, yaml: ModuleType) -> None:
    docs = render(
        chart,
        yaml,
        {
            "redis": {"url": "rediss://default:pw@cache.example.com:6380/0"},
            "auth": {"apiKeys": ["key-one", "key-two"], "tokenSecret": "s3cret-for-seat-tokens"},
            "config": {
                "tableTtlSeconds": 600,
                "logLevel": "debug",
                "playPage": False,
                "webhookAllowPrivate": True,
                "webhookConcurrency": 4,
                "webhookTimeoutSeconds": 2.5,
                "corsOrigins": ["https://play.example", "http://localhost:5173"],
                "botDelaySeconds": 0.25,
                "workers": 2,
                "suggestions": {"threads": 3, "perCaller": 1},
            },
        },
    )
    values = decoded(one(docs, "Secret"))
    refs = env_refs(docs)
    assert values[refs["REDIS_URL"][1]] == "rediss://default:pw@cache.example.com:6380/0"
    assert values[refs["BAOHUANG_API_KEYS"][1]] == "key-one,key-two"
    assert values[refs["BAOHUANG_TOKEN_SECRET"][1]] == "s3cret-for-seat-tokens"
    assert settings_map(docs)["data"] == {
        "TABLE_TTL_SECONDS": "600",
        "LOG_LEVEL": "DEBUG",
        "REDIS_MODE": "standalone",
        "REDIS_WAIT_TIMEOUT_MS": "500",
        "BAOHUANG_PLAY_PAGE": "off",
        "BAOHUANG_BOT_DELAY_SECONDS": "0.25",
        "LOG_FORMAT": "json",
        "BAOHUANG_ACCESS_LOG": "on",
        "BAOHUANG_RATE_LIMIT": "",
        "BAOHUANG_RATE_LIMIT_STATELESS": "",
        "BAOHUANG_WEBHOOK_ALLOW_PRIVATE": "true",
        "BAOHUANG_WEBHOOK_CONCURRENCY": "4",
        "BAOHUANG_WEBHOOK_TIMEOUT_SECONDS": "2.5",
        "BAOHUANG_RATE_LIMIT_AUTH_FAILURES": "60/minute",
        "BAOHUANG_IDEMPOTENCY_KEYS": "1024",
        "BAOHUANG_DEALS_KEPT": "32",
        "BAOHUANG_GC_THRESHOLDS": "50000,20,10",
        "FORWARDED_ALLOW_IPS": "127.0.0.1,::1",
        "BAOHUANG_MAX_STREAMS_PER_CREDENTIAL": "32",
        "BAOHUANG_MAX_STREAMS_PER_TABLE": "256",
        "BAOHUANG_MAX_STREAMS_PER_ADDRESS": "64",
        "BAOHUANG_STREAM_RESERVE": "128",
        "BAOHUANG_CORS_ORIGINS": "https://play.example,http://localhost:5173",
        "BAOHUANG_WORKERS": "2",
        "BAOHUANG_SHUTDOWN_SECONDS": "10",
        "BAOHUANG_SUGGEST_THREADS": "3",
        "BAOHUANG_SUGGEST_PER_CALLER": "1",
    }
    settings = Settings.from_env(settings_map(docs)["data"])
    assert (settings.workers, settings.suggest_threads, settings.suggest_per_caller) == (2, 3, 1)
    assert settings.webhook_allow_private is True
    assert (settings.webhook_concurrency, settings.webhook_timeout_seconds) == (4, 2.5)
    # What the chart renders is what the service accepts.
    assert settings.cors_origins == ("https://play.example", "http://localhost:5173")


def _service_environment(docs: list[Doc]) -> dict[str, str]:
    """The environment a pod gets from the ConfigMap and the chart's Secret (as kubelet builds
    it: an optional key that is absent leaves its variable unset)."""
    env = dict(settings_map(docs)["data"])
    secrets = {s["metadata"]["name"]: decoded(s) for s in of_kind(docs, "Secret")}
    for entry in container(docs).get("env", []):
        ref = entry.get("valueFrom", {}).get("secretKeyRef")
        if ref is not None and ref["key"] in secrets.get(ref["name"], {}):
            env[entry["name"]] = secrets[ref["name"]][ref["key"]]
    return env


@pytest.mark.parametrize(
    ("redis", "expected"),
    [
        (
            {
                "url": "rediss://clustercfg.tables.abc123.use1.cache.amazonaws.com:6379",
                "mode": "cluster",
                "username": "baohuang",
                "password": "acl-pw",
                "tlsCaFile": "/etc/baohuang/redis-ca/ca.crt",
            },
            {
                "REDIS_MODE": "cluster",
                "REDIS_USERNAME": "baohuang",
                "REDIS_PASSWORD": "acl-pw",
                "REDIS_TLS_CA_FILE": "/etc/baohuang/redis-ca/ca.crt",
            },
        ),
        (
            {
                "url": "rediss+sentinel://sentinel-0.redis:26379,sentinel-1.redis:26379/0",
                "mode": "sentinel",
                "sentinelService": "tables",
                "password": "data-pw",
                "sentinelPassword": "sentinel-pw",
                "waitReplicas": 2,
                "waitTimeoutMs": 250,
            },
            {
                "REDIS_MODE": "sentinel",
                "REDIS_SENTINEL_SERVICE": "tables",
                "REDIS_PASSWORD": "data-pw",
                "REDIS_SENTINEL_PASSWORD": "sentinel-pw",
                "REDIS_WAIT_REPLICAS": "2",
                "REDIS_WAIT_TIMEOUT_MS": "250",
            },
        ),
    ],
    ids=["cluster", "sentinel"],
)
def test_redis_modes_reach_the_service(
    chart: Any,
    yaml: ModuleType,
    kubernetes_validate: ModuleType,
    redis: dict[str, Any],
    expected: dict[str, str],
) -> None:
    """What the chart renders is what the service reads and accepts (Settings.from_env)."""
    from baohuang.http.settings import Settings

    docs = render(chart, yaml, {"redis": redis})
    kubernetes_validate.validate(strip(one(docs, "Deployment")), KUBE_VERSION, strict=True)
    env = _service_environment(docs)
    assert expected.items() <= env.items()
    assert "acl-pw" not in str(settings_map(docs)), "a password in the ConfigMap"
    assert "sentinel-pw" not in str(settings_map(docs)), "a password in the ConfigMap"
    config = Settings.from_env(env).redis_config()
    assert config is not None and config.mode == redis["mode"] and config.url == redis["url"]
    optional = [
        e
        for e in container(docs)["env"]
        if e["name"] in ("REDIS_PASSWORD", "REDIS_SENTINEL_PASSWORD")
    ]
    assert [e["valueFrom"]["secretKeyRef"]["optional"] for e in optional] == [True, True]


def test_redis_passwords_from_an_existing_secret(production_docs: list[Doc]) -> None:
    refs = env_refs(production_docs)
    assert refs["REDIS_PASSWORD"] == ("baohuang-rules-prod", "redis-password")
    assert refs["REDIS_SENTINEL_PASSWORD"] == ("baohuang-rules-prod", "redis-sentinel-password")


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"redis": {"mode": "sentinel", "url": "redis+sentinel://s:26379/0"}}, "sentinelService"),
        ({"redis": {"mode": "cluster", "url": ""}, "replicaCount": 1}, "needs redis.url"),
        ({"existingSecret": "prod", "redis": {"password": "pw"}}, "put them in that Secret"),
    ],
)
def test_contradictory_redis_values_fail_to_render(
    chart: Any, yaml: ModuleType, helm: ModuleType, values: dict[str, Any], message: str
) -> None:
    with pytest.raises(helm.HelmRenderError, match=message):
        render(chart, yaml, values)


def test_existing_secret_replaces_the_charts(production_docs: list[Doc]) -> None:
    assert of_kind(production_docs, "Secret") == []
    refs = env_refs(production_docs)
    assert refs["REDIS_URL"] == ("baohuang-rules-prod", "redis-url")
    assert refs["BAOHUANG_API_KEYS"] == ("baohuang-rules-prod", "api-keys")
    assert refs["BAOHUANG_TOKEN_SECRET"] == ("baohuang-rules-prod", "token-secret")


def test_redis_existing_secret_like_argo_helm_external_redis(chart: Any, yaml: ModuleType) -> None:
    docs = render(
        chart, yaml, {"redis": {"existingSecret": "managed-redis", "existingSecretKey": "url"}}
    )
    refs = env_refs(docs)
    assert refs["REDIS_URL"] == ("managed-redis", "url")
    secret = one(docs, "Secret")  # still carries the auth keys, no longer the URL
    assert set(decoded(secret)) == {"api-keys", "token-secret"}
    assert refs["BAOHUANG_TOKEN_SECRET"] == (secret["metadata"]["name"], "token-secret")


def test_private_ca_for_a_tls_redis(
    chart: Any, yaml: ModuleType, kubernetes_validate: ModuleType
) -> None:
    """The docs/deploy.md recipe: a CA from a Secret, named in the rediss:// URL."""
    url = "rediss://default:pw@10.0.0.3:6378/0?ssl_ca_certs=/etc/baohuang/redis-ca/ca.crt"
    docs = render(
        chart,
        yaml,
        {
            "redis": {"url": url},
            "extraVolumes": [{"name": "redis-ca", "secret": {"secretName": "redis-server-ca"}}],
            "extraVolumeMounts": [
                {"name": "redis-ca", "mountPath": "/etc/baohuang/redis-ca", "readOnly": True}
            ],
        },
    )
    kubernetes_validate.validate(strip(one(docs, "Deployment")), KUBE_VERSION, strict=True)
    mounts = {m["mountPath"] for m in container(docs)["volumeMounts"]}
    assert {"/tmp", "/etc/baohuang/redis-ca"} <= mounts
    assert decoded(one(docs, "Secret"))["redis-url"] == url


def test_checksum_follows_the_config(chart: Any, yaml: ModuleType) -> None:
    def checksums(values: dict[str, Any] | None) -> dict[str, str]:
        annotations = one(render(chart, yaml, values), "Deployment")["spec"]["template"]
        return {
            k: v
            for k, v in annotations["metadata"]["annotations"].items()
            if k.startswith("checksum/")
        }

    base = checksums(None)
    assert checksums(None) == base, "a generated token secret must not roll the pods"
    assert (
        checksums({"config": {"logLevel": "DEBUG", "tableTtlSeconds": 86400}})["checksum/config"]
        != base["checksum/config"]
    )
    assert (
        checksums({"redis": {"url": "rediss://other:6380/0"}})["checksum/secret"]
        != base["checksum/secret"]
    )


def test_embedded_store_only_with_one_replica(
    chart: Any, yaml: ModuleType, helm: ModuleType
) -> None:
    with pytest.raises(helm.HelmRenderError, match="embedded in-memory store"):
        render(chart, yaml, {"redis": {"url": ""}})
    with pytest.raises(helm.HelmRenderError, match="embedded in-memory store"):
        render(
            chart, yaml, {"redis": {"url": ""}, "replicaCount": 1, "autoscaling": {"enabled": True}}
        )
    with pytest.raises(helm.HelmRenderError, match=r"config.workers > 1"):
        render(chart, yaml, {"redis": {"url": ""}, "replicaCount": 1, "config": {"workers": 2}})
    docs = render(chart, yaml, {"redis": {"url": ""}, "replicaCount": 1})
    assert decoded(one(docs, "Secret"))["redis-url"] == ""
    assert of_kind(docs, "PodDisruptionBudget") == []  # one pod: a PDB would block drains


# ------------------------------------------------ production: HPA, PDB, ServiceMonitor


def test_replicas_and_hpa(
    default_docs: list[Doc], production_docs: list[Doc], production_values: dict[str, Any]
) -> None:
    assert of_kind(default_docs, "HorizontalPodAutoscaler") == []
    hpa = one(production_docs, "HorizontalPodAutoscaler")
    deployment = one(production_docs, "Deployment")
    assert "replicas" not in deployment["spec"], "the HPA owns the replica count"
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": deployment["metadata"]["name"],
    }
    assert hpa["spec"]["minReplicas"] >= 2
    assert hpa["spec"]["minReplicas"] == production_values["autoscaling"]["minReplicas"]
    metrics = {m["resource"]["name"] for m in hpa["spec"]["metrics"]}
    assert "cpu" in metrics


def test_pod_disruption_budget(docs: list[Doc]) -> None:
    pdb = one(docs, "PodDisruptionBudget")
    deployment = one(docs, "Deployment")
    assert pdb["spec"]["selector"] == deployment["spec"]["selector"]
    assert ("minAvailable" in pdb["spec"]) != ("maxUnavailable" in pdb["spec"])


def test_service_monitor_only_when_enabled(
    default_docs: list[Doc], production_docs: list[Doc]
) -> None:
    assert of_kind(default_docs, "ServiceMonitor") == []
    monitor = one(production_docs, "ServiceMonitor")
    service = one(production_docs, "Service")
    assert monitor["apiVersion"] == "monitoring.coreos.com/v1"
    assert monitor["metadata"]["labels"]["release"] == "kube-prometheus-stack"
    assert (
        monitor["spec"]["selector"]["matchLabels"].items() <= service["metadata"]["labels"].items()
    )
    assert monitor["spec"]["namespaceSelector"] == {"matchNames": [NAMESPACE]}
    (endpoint,) = monitor["spec"]["endpoints"]
    assert endpoint["port"] in {p["name"] for p in service["spec"]["ports"]}
    assert endpoint["path"] == "/metrics"
    assert set(endpoint) <= {"port", "path", "scheme", "interval", "scrapeTimeout"}


def test_production_resources_and_image(
    production_docs: list[Doc], production_values: dict[str, Any]
) -> None:
    c = container(production_docs)
    assert c["resources"] == production_values["resources"]
    assert c["image"] == "registry.example.com/games/baohuang-rules:0.1.0"
    ingress = one(production_docs, "Ingress")
    assert ingress["spec"]["tls"][0]["hosts"] == ["baohuang.example.com"]


# --------------------------------------------------------------------- values.schema.json


@pytest.mark.parametrize(
    "values",
    [
        {"bogus": 1},
        {"redis": {"host": "redis.example.com"}},
        {"metrics": {"serviceMonitor": {"enable": True}}},
        {"probes": {"liveness": {"path": "/"}}},
        {"redis": {"url": "http://redis:6379"}},
        {"redis": {"mode": "replicated"}},
        {"redis": {"waitReplicas": -1}},
        {"redis": {"waitTimeoutMs": 0}},
        {"redis": {"tlsCaFile": "ca.crt"}},
        {"redis": {"url": "redis+sentinels://s:26379"}},
        {"auth": {"apiKeys": "a,b"}},
        {"replicaCount": 0},
        {"config": {"corsOrigins": "https://play.example"}},
        {"config": {"corsOrigins": ["https://play.example/"]}},
    ],
    ids=lambda v: json.dumps(v),
)
def test_schema_rejects_unknown_or_bad_values(
    chart: Any, yaml: ModuleType, helm: ModuleType, values: dict[str, Any]
) -> None:
    with pytest.raises(helm.HelmValuesError):
        render(chart, yaml, values)


def test_schema_is_closed_at_every_level_it_defines() -> None:
    schema = json.loads((CHART / "values.schema.json").read_text())
    open_levels: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            if "properties" in node and node.get("additionalProperties") is not False:
                open_levels.append(where or "<root>")
            for key, child in node.items():
                walk(child, f"{where}.{key}" if where else key)
        elif isinstance(node, list):
            for index, child in enumerate(node):
                walk(child, f"{where}[{index}]")

    walk(schema, "")
    assert schema["additionalProperties"] is False
    assert open_levels == [], f"object levels without additionalProperties: false: {open_levels}"


def test_values_files_match_the_schema(
    chart: Any, helm: ModuleType, production_values: dict[str, Any]
) -> None:
    chart.validate_schema(chart.values)
    chart.validate_schema(production_values)
    # Every key of values.yaml is described (the schema documents the whole surface).
    schema = json.loads((CHART / "values.schema.json").read_text())
    assert set(chart.values) <= set(schema["properties"])
