"""Run a document's shell examples as written, and compare what they print with the document.

A document's examples are its fenced ``sh`` (or ``bash``, ``shell``) blocks, in order, in one
bash session (``set -eo pipefail``), in a scratch directory, in a network namespace of its own
(``unshare --net``: ``localhost:8000`` and ``6379`` are the document's, whatever else runs on
the machine). The scratch directory stands for the repository's root after README.md's install:
this environment's scripts are in its ``.venv/bin`` (``.venv/bin/baohuang``), and only there, as
in a newcomer's shell, so an example that calls a bare ``baohuang`` fails here as it would there.
When no block of a document starts ``baohuang serve``, the service is started for it as
README.md's first command starts it (``.venv/bin/baohuang serve``: 127.0.0.1:8000, no Redis, no
keys).

A block preceded by ``<!-- not run: REASON -->`` is not run; the reason is required. A block
preceded by ``<!-- run by tests/ship/test_image.py -->`` builds or runs the image: the image test
runs those (thorough profile), at the repository's root, with ``docker`` standing for podman and
a ``redis-server`` on the namespace's port 6379, as "a Redis on this machine". A block
followed directly by a ``json`` or ``text`` block is compared with it:

* ``json``: each line (or the whole block) is a JSON document; the block prints as many, and
  each holds the expected one: every key shown with the value shown (recursively; lists with as
  many items), keys not shown may be there too (ids and request ids), ``"…"`` is any value and
  ``…`` in a string any text;
* ``text``: every line shown is printed, in that order; ``…`` in a line stands for any text,
  and a line that is JSON compares as above.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELLS = {"sh", "bash", "shell"}
ANY = "…"

_FENCE = re.compile(r"^([ \t]*)```([\w-]*)[^\n]*\n(.*?)^\1```[ \t]*$", re.M | re.S)
_NOT_RUN = re.compile(r"<!--\s*not run:\s*(?P<reason>.*?)\s*-->\s*$", re.S)
_BY_IMAGE_TEST = re.compile(r"<!--\s*run by tests/ship/test_image\.py\s*-->\s*$")


@dataclass(frozen=True)
class Block:
    document: str
    line: int
    code: str
    expected: str | None  # the output block after it
    expected_kind: str | None  # "json" or "text"
    not_run: str | None  # the reason, when marked
    image: bool  # run by the image test, not the docs test


def blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    fences = list(_FENCE.finditer(text))
    found = []
    for index, fence in enumerate(fences):
        if fence.group(2) not in SHELLS:
            continue
        before = text[: fence.start()].rstrip()
        marker = _NOT_RUN.search(before[-400:]) if before.endswith("-->") else None
        image = bool(_BY_IMAGE_TEST.search(before[-100:]))
        expected = kind = None
        if index + 1 < len(fences):
            after = fences[index + 1]
            between = text[fence.end() : after.start()]
            if not between.strip() and after.group(2) in ("json", "text"):
                expected, kind = textwrap.dedent(after.group(3)), after.group(2)
        found.append(
            Block(
                document=str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path),
                line=text.count("\n", 0, fence.start()) + 1,
                code=textwrap.dedent(fence.group(3)),
                expected=expected,
                expected_kind=kind,
                not_run=marker.group("reason") if marker else None,
                image=image,
            )
        )
    return found


# ----------------------------------------------------------------------------- comparing


def holds(actual: Any, expected: Any, where: str = "$") -> list[str]:
    """Where ``actual`` differs from ``expected`` (see the module docstring): empty if it holds."""
    if expected == ANY:
        return []
    if isinstance(expected, str) and ANY in expected and isinstance(actual, str):
        if re.fullmatch(".*".join(re.escape(part) for part in expected.split(ANY)), actual, re.S):
            return []
        return [f"{where}: expected {json.dumps(expected, ensure_ascii=False)}, got "
                f"{json.dumps(actual, ensure_ascii=False)}"]  # fmt: skip
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {json.dumps(actual, ensure_ascii=False)}"]
        wrong = []
        for key, value in expected.items():
            if key not in actual:
                wrong.append(f"{where}.{key}: missing")
            else:
                wrong += holds(actual[key], value, f"{where}.{key}")
        return wrong
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{where}: expected {json.dumps(expected, ensure_ascii=False)}, got "
                    f"{json.dumps(actual, ensure_ascii=False)}"]  # fmt: skip
        return [w for i, (a, e) in enumerate(zip(actual, expected, strict=True))
                for w in holds(a, e, f"{where}[{i}]")]  # fmt: skip
    if actual != expected or type(actual) is not type(expected):
        return [f"{where}: expected {json.dumps(expected, ensure_ascii=False)}, got "
                f"{json.dumps(actual, ensure_ascii=False)}"]  # fmt: skip
    return []


def _json_documents(text: str) -> list[Any]:
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def _line_matches(actual: str, expected: str) -> bool:
    try:
        wanted = json.loads(expected)
    except json.JSONDecodeError:
        pattern = ".*".join(re.escape(part) for part in expected.split(ANY))
        return re.fullmatch(pattern, actual.rstrip("\r")) is not None
    try:
        return not holds(json.loads(actual), wanted)
    except json.JSONDecodeError:
        return False


def differences(block: Block, output: str) -> list[str]:
    """How the printed ``output`` differs from the block's expected output."""
    if block.expected is None:
        return []
    if block.expected_kind == "json":
        try:
            actual = _json_documents(output)
        except json.JSONDecodeError:
            return [f"printed no JSON: {output!r}"]
        expected = _json_documents(block.expected)
        if len(actual) != len(expected):
            return [f"printed {len(actual)} JSON documents, the document shows {len(expected)}"]
        return [w for a, e in zip(actual, expected, strict=True) for w in holds(a, e)]
    lines = output.splitlines()
    position = 0
    for wanted in block.expected.splitlines():
        while position < len(lines) and not _line_matches(lines[position], wanted):
            position += 1
        if position == len(lines):
            return [f"no line (in order) matches: {wanted}"]
        position += 1
    return []


# ------------------------------------------------------------------------------ running


@dataclass
class Outcome:
    block: Block
    ran: bool
    status: int | None
    output: str


def _wait_for_service(port: int) -> str:
    return (
        f"for _ in $(seq 100); do curl -sf localhost:{port}/healthz >/dev/null && break; "
        "sleep 0.1; done\n"
    )


DOCKER_SHIM = """#!/bin/sh
# docker, as the documents say it, on this machine's podman (tests/ship/podman_image.py): a
# build never pulls (the base is the stand-in) and keeps Docker's image format (HEALTHCHECK).
if [ "$1" = build ]; then
    shift
    exec podman build --pull=never --format docker "$@"
fi
exec podman "$@"
"""


def _without(path: str, bin_dir: Path) -> str:
    """``PATH`` without ``bin_dir`` (this environment's scripts, when it is activated)."""
    return os.pathsep.join(
        entry for entry in path.split(os.pathsep) if entry and Path(entry) != bin_dir
    )


def run_document(
    path: Path,
    bin_dir: Path,
    timeout: float = 300,
    *,
    image: bool = False,
    env: dict[str, str] | None = None,
) -> list[Outcome]:
    """Run ``path``'s blocks (see the module docstring); one outcome per shell block. ``image``:
    the blocks the image test runs (and only those), with ``env`` (podman's)."""
    found = blocks(path)
    chosen = [block.not_run is None and block.image == image for block in found]
    runnable = [block for block, run in zip(found, chosen, strict=True) if run]
    with tempfile.TemporaryDirectory(prefix="docs-run-") as scratch:
        work = Path(scratch)
        script = ["set -eo pipefail", "ip link set lo up", f"cd {work}"]
        if image:
            (work / ".bin").mkdir()
            (work / ".bin/docker").write_text(DOCKER_SHIM, encoding="utf-8")
            (work / ".bin/docker").chmod(0o755)
            script += [
                f'export PATH="{work}/.bin:$PATH"',
                "redis-server --port 6379 --bind 127.0.0.1 --save '' --appendonly no "
                f"--daemonize yes --dir {work} --pidfile {work}/.redis.pid > /dev/null",
                f"cd {ROOT}",
            ]
        else:  # the repository's root after README's install: the scripts in .venv/bin only
            (work / ".venv").mkdir()
            (work / ".venv" / "bin").symlink_to(bin_dir, target_is_directory=True)
            if not any("baohuang serve" in block.code for block in runnable):
                script += [".venv/bin/baohuang serve > .service.log 2>&1 &"]
                script += [_wait_for_service(8000)]
        for number, block in enumerate(found):
            if not chosen[number]:
                continue
            (work / f".block{number}.sh").write_text(block.code, encoding="utf-8")
            script.append(
                f"echo {number} > {work}/.current\n"
                f"source {work}/.block{number}.sh > {work}/.out{number} 2>&1\n"
                f"echo 0 > {work}/.status{number}"
            )
        (work / ".script.sh").write_text("\n".join(script) + "\n", encoding="utf-8")
        base = env if env is not None else dict(os.environ)
        search = base.get("PATH", "")
        environment = {
            **base,
            # The image test's blocks run the image's tools; the documents' run .venv/bin's.
            "PATH": f"{bin_dir}:{search}" if image else _without(search, bin_dir),
            "HOME": str(work),
            "PYTHONUNBUFFERED": "1",
        }
        environment.pop("REDIS_URL", None)  # the documents' services choose their own store
        # A network namespace of its own; without root, in a user namespace that maps us to it.
        user = [] if os.geteuid() == 0 else ["--user", "--map-root-user"]
        process = subprocess.Popen(
            ["unshare", *user, "--net", "--fork", "--kill-child", "bash", str(work / ".script.sh")],
            cwd=work, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        try:
            shell_output, _ = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            shell_output, _ = process.communicate()
        finally:
            with contextlib.suppress(ProcessLookupError):  # whatever the blocks left running
                os.killpg(process.pid, signal.SIGTERM)
        if image and (work / ".redis.pid").exists():  # the namespace's redis-server, ours
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int((work / ".redis.pid").read_text().strip()), signal.SIGTERM)
        outcomes = []
        for number, block in enumerate(found):
            out = work / f".out{number}"
            status = 0 if (work / f".status{number}").exists() else None
            printed = out.read_text(encoding="utf-8", errors="replace") if out.exists() else ""
            if status is None and out.exists():
                printed += f"\n[the block failed; the shell said: {shell_output.decode()[-2000:]}]"
            outcomes.append(Outcome(block, chosen[number], status, printed))
        return outcomes


def tools_missing() -> list[str]:
    return [tool for tool in ("unshare", "ip", "curl", "jq") if shutil.which(tool) is None]


if __name__ == "__main__":
    for document in sys.argv[1:] or [str(p) for p in DOCUMENTS]:
        for outcome in run_document(Path(document).resolve(), Path(sys.executable).parent):
            block = outcome.block
            state = "not run" if not outcome.ran else ("ok" if outcome.status == 0 else "FAILED")
            problems = differences(block, outcome.output) if outcome.status == 0 else []
            print(f"{block.document}:{block.line}: {state} {'; '.join(problems)}")
            if outcome.ran and (outcome.status != 0 or problems):
                print(outcome.output)
