"""Binder / repo2docker: the configuration in binder/ resolves against the base image, offline.

repo2docker's Python 3.11 image is a conda environment pinned by a published lock file (a copy
is in tests/repo/fixtures/repo2docker/, with its source). repo2docker then runs
``pip install -r binder/requirements.txt`` in that same environment. pip upgrades what our
requirements and constraints pin and leaves every other package of the image as it is, so the
result is: the image's packages, overridden by our pinned closure. These tests build that
environment on paper and check every package's requirements against it, the way ``pip check``
would in the built image. The same check on the root requirements.txt finds the known conflict
(Notebook 7.4 needs jupyterlab <4.5), so it is not vacuous.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "repo" / "fixtures" / "repo2docker"
BINDER = ROOT / "binder"

# conda-forge names that differ from the PyPI name of the same Python package.
CONDA_TO_PYPI = {
    "nbconvert-core": "nbconvert",
    "brotli-python": "brotli",
    "jupyterhub-base": "jupyterhub",
    "python-fastjsonschema": "fastjsonschema",
}
# The base image's platform: linux-64, CPython 3.11.
LINUX_311 = {
    "os_name": "posix",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
    "python_version": "3.11",
    "python_full_version": "3.11.14",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
}


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def base_image() -> dict[str, str]:
    """{package: version} of the Python packages in repo2docker's Python 3.11 lock file."""
    packages = {}
    for line in (FIXTURES / "environment.py-3.11-linux-64.lock").read_text().splitlines():
        if not line.startswith("https://"):
            continue
        file = re.sub(r"\.(conda|tar\.bz2)$", "", line.split("#")[0].rsplit("/", 1)[1])
        name, version, build = file.rsplit("-", 2)
        # Python packages have builds named py*; h* builds are metapackages or C libraries.
        if build.startswith("py") and name not in ("python", "python_abi"):
            packages[norm(CONDA_TO_PYPI.get(name, name))] = version
    return packages


def constraint_pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate(LINUX_311):
                pins[norm(requirement.name)] = next(iter(requirement.specifier)).version
    return pins


def top_level(requirements_file: Path) -> list[Requirement]:
    """The requirements a file names; ``-e .`` stands for the package's own dependencies,
    ``-r FILE`` for that file's."""
    import tomllib

    found = []
    for line in requirements_file.read_text().splitlines():
        line = line.split("#")[0].strip()
        if not line or line.startswith("-c"):
            continue
        if line.startswith("-r"):
            found += top_level(requirements_file.parent / line.removeprefix("-r").strip())
        elif line == "-e .":
            project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
            found += [Requirement(r) for r in project["dependencies"]]
        else:
            found.append(Requirement(line))
    return found


def _applies(requirement: Requirement, extras: set[str]) -> bool:
    marker = requirement.marker
    return marker is None or any(marker.evaluate({**LINUX_311, "extra": e}) for e in extras)


@cache
def published_requires() -> dict[str, dict]:
    """The base image's packages' own metadata (version, requires_dist), from the fixture."""
    published = json.loads((FIXTURES / "base-requires.json").read_text())["packages"]
    return {norm(name): info for name, info in published.items()}


def requires_of(name: str) -> list[str]:
    """A pinned package's requirements: from the running environment, or, for a package the
    image's Python 3.11 needs and this Python does not (``overrides``, which jupyter_server
    needs only below 3.12), from the image's published metadata at the same pinned version."""
    key, pins = norm(name), constraint_pins()
    try:
        dist = distribution(name)
    except PackageNotFoundError:
        info = published_requires().get(key)
        assert info, f"{name} is not installed here and not in the image's metadata"
        assert info["version"] == pins[key], f"the image's {name} is {info['version']}"
        return list(info["requires_dist"])
    assert dist.version == pins[key], f"test environment has {name} {dist.version}"
    return list(dist.requires or [])


def our_closure(requirements_file: Path) -> dict[str, set[str]]:
    """Everything pip installs for ``requirements_file``: {package: extras asked for}."""
    closure: dict[str, set[str]] = {}
    stack = [(r.name, set(r.extras)) for r in top_level(requirements_file)]
    while stack:
        name, extras = stack.pop()
        key = norm(name)
        if key in closure and extras <= closure[key]:
            continue
        closure.setdefault(key, {""}).update(extras)
        for text in requires_of(name):
            requirement = Requirement(text)
            if _applies(requirement, closure[key]):
                stack.append((requirement.name, set(requirement.extras)))
    return closure


def conflicts(requirements_file: Path) -> list[str]:
    """What ``pip check`` would report in the image built with ``requirements_file``."""
    base = base_image()
    ours = our_closure(requirements_file)
    pins = constraint_pins()
    environment = {**base, **{name: pins[name] for name in ours}}
    published = published_requires()

    def requires(name: str) -> list[Requirement]:
        if name in ours:
            return [Requirement(t) for t in requires_of(name)]
        info = published.get(name)
        assert info and info["version"] == environment[name], f"no metadata for {name}"
        return [Requirement(t) for t in info["requires_dist"]]

    extras = {name: {""} | ours.get(name, set()) for name in environment}
    changed = True
    while changed:  # extras asked for by any package (e.g. jsonschema[format-nongpl])
        changed = False
        for name in environment:
            for requirement in requires(name):
                dep = norm(requirement.name)
                wanted = set(requirement.extras)
                applies = dep in extras and _applies(requirement, extras[name])
                if applies and not wanted <= extras[dep]:
                    extras[dep] |= wanted
                    changed = True
    found = []
    for name in sorted(environment):
        for requirement in requires(name):
            if not _applies(requirement, extras[name]):
                continue
            dep = norm(requirement.name)
            if dep not in environment:
                found.append(f"{name} {environment[name]} needs {requirement}: not installed")
            elif not requirement.specifier.contains(environment[dep], prereleases=True):
                found.append(
                    f"{name} {environment[name]} needs {requirement}, gets {environment[dep]}"
                )
    return found


def test_binder_requirements_resolve_against_the_python_311_base_image():
    assert conflicts(BINDER / "requirements.txt") == []


def test_the_check_finds_the_known_conflict_of_the_root_requirements():
    found = conflicts(ROOT / "requirements.txt")
    assert "notebook 7.4.7 needs jupyterlab<4.5,>=4.4.9, gets 4.6.6" in found


def test_the_kernel_side_matches_the_lessons_environment():
    """Same pins as requirements.txt (the lessons' set) for everything but JupyterLab."""
    root = {norm(r.name): r for r in top_level(ROOT / "requirements.txt")}
    binder = {norm(r.name): r for r in top_level(BINDER / "requirements.txt")}
    for name, requirement in binder.items():
        if name in root and "==" in str(root[name].specifier):
            assert requirement.specifier == root[name].specifier, name
    assert set(root) - set(binder) == {"jupyterlab"}


def test_binder_settings_match_the_base_image_and_install_the_package_editable():
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.11"
    assert base_image()["ipykernel"]  # the lock really is the Python 3.11 image
    lines = [line.strip() for line in (BINDER / "requirements.txt").read_text().splitlines()]
    assert "-e ." in lines and "-c ../constraints.txt" in lines
    assert not (ROOT / "runtime.txt").exists() and not (ROOT / "postBuild").exists()


def test_binder_keeps_the_image_server_side():
    """JupyterLab, Notebook and the server stay as the image pins them (versions differ from
    requirements.txt only there, where nothing a lesson prints comes from)."""
    closure = our_closure(BINDER / "requirements.txt")
    server = {"jupyterlab", "notebook", "jupyter-server", "jupyterlab-server", "nbconvert"}
    assert not set(closure) & server


def test_post_build_adds_nbgitpuller_without_moving_the_image():
    """The image hands lessons out with nbgitpuller (docs/hosting.md): postBuild installs the
    version requirements.txt pins, with --no-deps, so every requirement it has must already be
    met by the base image's own packages."""
    tools = top_level(ROOT / "requirements-test.txt")
    pin = next(r for r in tools if norm(r.name) == "nbgitpuller")
    version = next(iter(pin.specifier)).version
    script = (BINDER / "postBuild").read_text()
    assert f"pip install --no-cache-dir --no-deps nbgitpuller=={version}" in script
    base = base_image()
    assert distribution("nbgitpuller").version == version
    for text in distribution("nbgitpuller").requires or []:
        requirement = Requirement(text)
        if requirement.marker is None or requirement.marker.evaluate(LINUX_311):
            name = norm(requirement.name)
            assert name in base and requirement.specifier.contains(base[name]), text
