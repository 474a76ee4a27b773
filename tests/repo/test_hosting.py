"""What hosting a class needs from the repository, checked here (Binder, repo2docker, JupyterHub).

repo2docker reads its configuration from ``binder/`` (``runtime.txt``, ``requirements.txt``,
which installs the ``helpers`` package editable, and ``postBuild``); tests/repo/test_binder.py
checks that it resolves against the base image. The last tests simulate a plain copy of ``helpers``
(no data inside) run from the repository, and one run from elsewhere.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _requirements(name: str) -> list[str]:
    lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_runtime_asks_for_python_311_or_newer():
    match = re.fullmatch(r"python-3\.(\d+)", (ROOT / "binder" / "runtime.txt").read_text().strip())
    assert match and int(match.group(1)) >= 11


def test_post_build_is_an_executable_script_that_writes_the_lab_settings():
    post_build = ROOT / "binder" / "postBuild"
    assert os.access(post_build, os.X_OK)
    text = post_build.read_text()
    assert text.startswith("#!/") and "scripts/lab_settings.py" in text


def test_every_requirement_is_pinned_and_the_package_installs_itself():
    lines = _requirements("requirements.txt")
    assert "-e ." in lines and "-c constraints.txt" in lines
    packages = [line for line in lines if not line.startswith("-")]
    assert packages and all(re.fullmatch(r"[A-Za-z0-9_.\-\[\]]+==[\w.]+", p) for p in packages)
    assert all("==" in p for p in _requirements("constraints.txt"))


def test_lab_settings_start_the_kernel_without_asking(tmp_path):
    subprocess.run([sys.executable, "scripts/lab_settings.py", str(tmp_path)], cwd=ROOT, check=True)
    text = (tmp_path / "share/jupyter/lab/settings/overrides.json").read_text()
    assert '"autoStartDefaultKernel": true' in text and '"fetchNews": "false"' in text


def test_a_non_editable_install_still_finds_the_data_from_the_notebooks_folder(tmp_path):
    site = tmp_path / "site-packages"
    shutil.copytree(
        ROOT / "helpers", site / "helpers", ignore=shutil.ignore_patterns("__pycache__")
    )
    script = (
        "import helpers.examples as p, helpers.examples.sundry as s;"
        "print(p.DATA.parent == p.Path.cwd().parent, len(s.TOOLS))"
    )
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop("ON_THE_WIRE_ROOT", None)
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT / "notebooks",
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split() == ["True", "9"]


def test_outside_the_repository_the_error_says_what_to_do(tmp_path):
    site = tmp_path / "site-packages"
    shutil.copytree(
        ROOT / "helpers", site / "helpers", ignore=shutil.ignore_patterns("__pycache__")
    )
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop("ON_THE_WIRE_ROOT", None)
    out = subprocess.run(
        [sys.executable, "-c", "import helpers.examples"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0 and "set ON_THE_WIRE_ROOT" in out.stderr
    assert "Traceback" in out.stderr  # an import error; the last line says what to do


def test_a_wrong_on_the_wire_root_is_named_not_ignored(tmp_path):
    env = dict(os.environ, ON_THE_WIRE_ROOT=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", "import helpers.examples"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0
    assert f"ON_THE_WIRE_ROOT={tmp_path} is not a checkout" in out.stderr.splitlines()[-1]


# --- Zero to JupyterHub: the learner image with a home volume, and hub/start --------------------

sys.path.insert(0, str(ROOT / "scripts"))

import hub_class  # noqa: E402
import hub_image  # noqa: E402

COUNT = (
    "import helpers, tiktoken, json; o200k = tiktoken.get_encoding('o200k_base');"
    "print(json.dumps([helpers.__file__, o200k.encode('On the Wire')]))"
)


def _in_image(image: hub_image.Image, home: Path, code: str) -> subprocess.CompletedProcess:
    """Run ``code`` with the image's Python as a learner's kernel would: in the home, offline."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ON_THE_WIRE_ROOT")}
    env.update(HOME=str(home), ON_THE_WIRE_OFFLINE="1", XDG_CACHE_HOME=str(home / ".cache"))
    return subprocess.run(
        [str(image.python), "-c", code], cwd=home, env=env, capture_output=True, text=True
    )


@pytest.fixture(scope="module")
def images(tmp_path_factory) -> dict[str, hub_image.Image]:
    """The learner image in its two layouts, built side by side (a build is mostly pip, on one
    core): ``"srv"``, the repository in /srv/on-the-wire as hub/values.yaml has it, and
    ``"home"``, the repository in the home, repo2docker's default."""
    from concurrent.futures import ThreadPoolExecutor

    folder = tmp_path_factory.mktemp("images")
    layouts = {"srv": hub_image.IMAGE_REPO, "home": hub_image.IMAGE_HOME}
    with ThreadPoolExecutor(max_workers=2) as pool:
        built = {
            n: pool.submit(hub_image.build, folder / n, repo_dir=r) for n, r in layouts.items()
        }
        return {name: future.result() for name, future in built.items()}


def test_the_hub_image_keeps_the_course_importable_under_an_empty_home_volume(images):
    import tiktoken

    image = images["srv"]  # the repository in /srv/on-the-wire
    home = image.path(hub_image.IMAGE_HOME)
    assert list(home.iterdir()) == []  # the volume: nothing of the image shows there
    out = _in_image(image, home, COUNT)
    assert out.returncode == 0, out.stderr[-800:]
    where, tokens = json.loads(out.stdout)
    assert Path(where).is_relative_to(image.path(hub_image.IMAGE_REPO))
    assert tokens == tiktoken.get_encoding("o200k_base").encode("On the Wire")
    values = (ROOT / "hub" / "values.yaml").read_text(encoding="utf-8")
    assert f"--target-repo-dir {hub_image.IMAGE_REPO}" in values  # the image it describes


def test_with_the_repository_in_the_home_a_volume_hides_the_course(images, tmp_path):
    image = images["home"]  # repo2docker's default
    home = image.path(hub_image.IMAGE_HOME)
    assert _in_image(image, home, COUNT).returncode == 0  # the image alone works
    home.rename(tmp_path / "hidden")  # the learner's volume is mounted over /home/jovyan
    home.mkdir()
    out = _in_image(image, home, COUNT)
    assert out.returncode != 0 and "No module named 'helpers'" in out.stderr


def _start(home: Path, repository: str, *command: str) -> subprocess.CompletedProcess:
    """``hub/start`` as a learner's server runs it (started in the image's working folder)."""
    env = dict(os.environ, HOME=str(home), ON_THE_WIRE_REPO=repository, ON_THE_WIRE_BRANCH="main")
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env["PATH"]])
    return subprocess.run(
        [str(ROOT / "hub" / "start"), *command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _retitle(notebook: Path, title: str) -> None:
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    nb["cells"][0]["source"] = [title + "\n"]
    notebook.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def test_hub_start_pulls_the_course_writes_the_learner_copies_and_keeps_learner_work(tmp_path):
    course = hub_class.course_repository(tmp_path / "course")
    home = tmp_path / "home"
    home.mkdir()
    first = _start(home, course.as_uri(), "pwd")
    assert first.returncode == 0, first.stderr[-800:]
    assert first.stdout.splitlines()[-1] == str(home)  # the server starts in the home
    student = home / "on-the-wire" / "student"
    lessons = sorted(p.name for p in (course / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert sorted(p.name for p in student.glob("*.ipynb")) == lessons
    copies = hub_class.learner_copies()  # what make_student.py writes: exercises blank
    assert (student / "00_start_here.ipynb").read_text(encoding="utf-8") == copies[lessons[0]]

    _retitle(student / "00_start_here.ipynb", "# my notes")  # a learner's work
    for name in ("00_start_here.ipynb", "01_one_request.ipynb"):  # the series is updated
        _retitle(course / "notebooks" / name, "# 2027 edition")
    git = ["git", "-C", str(course), "-c", "user.name=c", "-c", "user.email=c@localhost"]
    subprocess.run([*git, "commit", "-qam", "update"], check=True)
    again = _start(home, course.as_uri(), "true")
    assert again.returncode == 0, again.stderr[-800:]
    pulled = home / "on-the-wire"
    assert "2027 edition" in (pulled / "notebooks" / "01_one_request.ipynb").read_text()
    from make_student import expected_copies  # scripts/ of this checkout, on the lessons pulled

    refreshed = expected_copies(course / "notebooks")["01_one_request.ipynb"]
    assert "2027 edition" in refreshed
    assert (student / "01_one_request.ipynb").read_text(encoding="utf-8") == refreshed
    assert "# my notes" in (student / "00_start_here.ipynb").read_text()  # kept
    status = subprocess.run(
        ["git", "-C", str(pulled), "status", "--porcelain"], capture_output=True, text=True
    )
    assert status.stdout == ""  # student/ is not tracked: no pull ever has to merge it


def test_hub_start_starts_the_server_even_when_the_course_cannot_be_pulled(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    out = _start(home, (tmp_path / "no-such-repository").as_uri(), "echo", "server started")
    assert out.returncode == 0 and out.stdout.splitlines()[-1] == "server started"
    assert "on-the-wire: could not pull" in out.stderr


def test_the_hub_culls_idle_kernels_as_the_kubernetes_values_do(tmp_path, monkeypatch):
    """hub/jupyterhub_config.py hands learners' servers culling options Jupyter Server accepts.

    The options are parsed by a real ServerApp and read back from a MappingKernelManager (a
    misspelt option would leave the default, 0: never cull); they match hub/values.yaml's.
    """
    import yaml
    from jupyter_server.serverapp import ServerApp
    from jupyter_server.services.kernels.kernelmanager import MappingKernelManager
    from traitlets.config.loader import PyFileConfigLoader

    for name, value in {
        "ON_THE_WIRE_HUB_DIR": str(tmp_path),
        "ON_THE_WIRE_HUB_PORTS": "1,2,3",
        "ON_THE_WIRE_HUB_PROXY": "proxy",
        "ON_THE_WIRE_HUB_CMD": '["jupyterhub-singleuser"]',
        "ON_THE_WIRE_HUB_LEARNER_ENV": "{}",
        "ON_THE_WIRE_HUB_RUNNER_TOKEN": "not-a-token",
    }.items():
        monkeypatch.setenv(name, value)
    hub = PyFileConfigLoader("jupyterhub_config.py", path=str(ROOT / "hub")).load_config()
    args = [a for a in hub.Spawner.args if a != "--allow-root"]
    server = ServerApp()
    server.parse_command_line(args)
    kernels = MappingKernelManager(config=server.config)
    values = yaml.safe_load((ROOT / "hub" / "values.yaml").read_text(encoding="utf-8"))
    culling = values["singleuser"]["extraFiles"]["kernel-culling"]["data"]["MappingKernelManager"]
    assert kernels.cull_idle_timeout == culling["cull_idle_timeout"] == 20 * 60
    assert kernels.cull_interval == culling["cull_interval"] > 0
    assert kernels.cull_connected is culling["cull_connected"] is True
    assert kernels.cull_busy is False  # a running cell is never culled
