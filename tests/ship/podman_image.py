"""Build the image with Debian's podman, on a stand-in base made with debootstrap.

Base images cannot be pulled on these machines, but Debian's packages can be installed. The
Dockerfile's ``FROM`` (``python:3.11.17-slim-bookworm``) is stood in for by a Debian bookworm
``minbase`` with Debian's python3.11 (``python`` linked to it, as the official image has it),
the machine's CA bundle and pip settings copied in (the build's pip must reach the index the way
this machine's does), tagged with the ``FROM`` name. The base is made once and kept as a tarball
under ``/var/cache/baohuang-rules`` (``BAOHUANG_IMAGE_CACHE``), so a CI run pays for debootstrap
only the first time; podman's own storage keeps the imported base and the build's layers.

podman runs with ``runc`` (crun refuses this machine's hybrid cgroups), ``cgroupfs`` and no
default ulimits, from a containers.conf of our own (``CONTAINERS_CONF``): the machine's podman
configuration is never changed.

``python tests/ship/podman_image.py`` makes the base and builds the image by hand.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("BAOHUANG_IMAGE_CACHE", "/var/cache/baohuang-rules"))
SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
# debootstrap resolves Depends but not the virtual python3.11-distutils: name what venv needs.
PACKAGES = (
    "python3.11", "python3.11-venv", "python3", "python3-distutils", "python3-lib2to3",
    "python3-pip-whl", "python3-setuptools-whl", "ca-certificates",
)  # fmt: skip
TOOLS = ("podman", "runc", "slirp4netns", "debootstrap")
IMAGE = "localhost/baohuang-rules:test"
CONTAINERS_CONF = """\
[containers]
default_ulimits = []

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
"""
# The pip settings of this machine that a build inside the image needs too (a path-valued one,
# like PIP_FIND_LINKS, names the host's disk and stays out).
_PIP_SETTINGS = ("PIP_CERT", "PIP_DEFAULT_TIMEOUT", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL",
                 "PIP_TRUSTED_HOST", "PIP_DISABLE_PIP_VERSION_CHECK")  # fmt: skip


def missing_tools() -> list[str]:
    return [tool for tool in TOOLS if shutil.which(tool) is None]


def base_name() -> str:
    """The Dockerfile's base image, as a fully qualified name podman finds without pulling."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    match = re.search(r"^FROM\s+(\S+)\s+AS\s+base\s*$", text, re.M | re.I)
    assert match, "the Dockerfile has no `FROM <image> AS base`"
    name = match.group(1).split("@")[0]
    return name if "/" in name else f"docker.io/library/{name}"


def environment(workdir: Path) -> dict[str, str]:
    """podman's environment: our containers.conf, nothing of the machine's changed."""
    conf = workdir / "containers.conf"
    conf.write_text(CONTAINERS_CONF, encoding="utf-8")
    return {**os.environ, "CONTAINERS_CONF": str(conf)}


def podman(env: dict[str, str], *args: str, timeout: float = 60, check: bool = True) -> str:
    result = subprocess.run(
        ["podman", *args], env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    if check and result.returncode != 0:
        raise RuntimeError(f"podman {' '.join(args)}: exit {result.returncode}\n{result.stderr}")
    return result.stdout


def _tarball() -> Path:
    key = hashlib.sha256(" ".join((SUITE, MIRROR, *PACKAGES)).encode()).hexdigest()[:12]
    return CACHE / f"stand-in-{SUITE}-python3.11-{key}.tar"


def _make_rootfs(rootfs: Path) -> None:
    subprocess.run(
        ["debootstrap", "--variant=minbase", f"--include={','.join(PACKAGES)}", SUITE,
         str(rootfs), MIRROR],
        check=True, capture_output=True, timeout=900,
    )  # fmt: skip
    (rootfs / "usr/bin/python").unlink(missing_ok=True)
    (rootfs / "usr/bin/python").symlink_to("python3.11")
    bundle = Path(os.environ.get("PIP_CERT") or "/etc/ssl/certs/ca-certificates.crt")
    if bundle.is_file():
        target = rootfs / bundle.relative_to("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(bundle, target)
    if Path("/etc/pip.conf").is_file():
        shutil.copyfile("/etc/pip.conf", rootfs / "etc/pip.conf")
    if Path("/etc/xdg/pip").is_dir():
        shutil.copytree("/etc/xdg/pip", rootfs / "etc/xdg/pip", dirs_exist_ok=True)
    for leftover in (rootfs / "var/cache/apt/archives").glob("*.deb"):
        leftover.unlink()


def ensure_base(env: dict[str, str], log: list[str]) -> None:
    """The stand-in base under the Dockerfile's ``FROM`` name: in podman's storage already, or
    imported from the cached tarball, or made with debootstrap (and cached) first."""
    name = base_name()
    if subprocess.run(["podman", "image", "exists", name], env=env, check=False).returncode == 0:
        log.append(f"base {name}: in podman's storage")
        return
    tarball = _tarball()
    if not tarball.is_file():
        started = time.monotonic()
        CACHE.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=CACHE) as scratch:
            rootfs = Path(scratch) / "rootfs"
            _make_rootfs(rootfs)
            partial = Path(scratch) / "base.tar"
            subprocess.run(["tar", "-C", str(rootfs), "-cf", str(partial), "."], check=True)
            partial.replace(tarball)  # whole or not at all: a killed run leaves no half cache
        log.append(f"base: debootstrap took {time.monotonic() - started:.0f} s")
    changes = [f"ENV {key}={os.environ[key]}" for key in _PIP_SETTINGS if os.environ.get(key)]
    changes += ["ENV LANG=C.UTF-8", 'CMD ["python3"]']
    args = [arg for change in changes for arg in ("--change", change)]
    podman(env, "import", *args, str(tarball), name, timeout=300)
    log.append(f"base {name}: imported from {tarball}")


def build(env: dict[str, str], log: list[str]) -> str:
    """The image from the repository's Dockerfile, never pulling (the base is the stand-in)."""
    ensure_base(env, log)
    started = time.monotonic()
    podman(
        env, "build", "--format", "docker", "--network", "host", "--pull=never",
        "-t", IMAGE, str(ROOT), timeout=900,
    )  # fmt: skip
    log.append(f"build: {time.monotonic() - started:.0f} s")
    return IMAGE


if __name__ == "__main__":
    if missing_tools():
        sys.exit(
            f"missing: {', '.join(missing_tools())} (apt-get install podman runc slirp4netns debootstrap)"
        )
    notes: list[str] = []
    with tempfile.TemporaryDirectory() as work:
        print(build(environment(Path(work)), notes))
    print("\n".join(notes))
