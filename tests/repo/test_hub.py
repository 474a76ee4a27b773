"""A JupyterHub class, small: two learners run lesson 04 through a real hub's API.

The same runner as `make bench-hub` (scripts/hub_class.py): JupyterHub from PyPI,
configurable-http-proxy from npm (hub/node_modules, installed by `make hub-setup`), the dummy
authenticator and the local-process spawner. The servers run from the learner image of
hub/values.yaml as scripts/hub_image.py lays it out (the repository outside the home) and each
learner's home starts empty, as a Zero to JupyterHub volume. Each learner starts its own
JupyterLab server (hub/start pulls the course and writes the learner copies first, from a local
git repository standing in for the public one), follows the nbgitpuller link, opens its learner
copy of lesson 04 through the contents API and runs every code cell over the kernel websocket.
The benchmark measures 20 and 40 learners; here the run must simply be right: no failure,
every stored output reproduced, each learner's stand-in its own, the course's code
taken from the image and not from the (empty) home.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import hub_class  # noqa: E402

from tests.support.background import Background  # noqa: E402


def run_class() -> hub_class.Result:
    """The class: a hub, two learners, lesson 04, each server probed afterwards."""
    return hub_class.measure(2, ["04"], probe=True)


PREPARED = Background("hub")


@pytest.fixture(scope="module")
def result() -> hub_class.Result:
    """The class's result. Usually already under way: the root conftest starts ``run_class`` in
    a background thread as soon as the session knows this module will run (the hub and the
    learners' servers run in subprocesses of their own, mostly waiting on spawns)."""
    if not hub_class.PROXY.exists():
        if shutil.which("npm") is None:
            pytest.skip("no npm here: configurable-http-proxy cannot be installed (Node.js 20+)")
        pytest.fail("configurable-http-proxy is not installed: run `make hub-setup`")
    return PREPARED.result() if PREPARED.started else run_class()


def test_every_learner_runs_every_cell_without_a_failure(result):
    assert result.failures == []
    cells = sum(1 for c in hub_class.code_cells("04"))
    assert [x.cells_run for x in result.learners] == [cells, cells]
    for learner in result.learners:
        assert 0 < learner.ready <= learner.pulled <= learner.first_output <= learner.last_cell


def test_every_stored_output_comes_back_the_same(result):
    assert result.mismatches == []
    kept = [  # what the learner copy keeps: outputs above the first exercise, no reveal's
        c
        for c in hub_class.code_cells("04")
        if c.get("outputs") and "nbval-ignore-output" not in c.get("metadata", {}).get("tags", [])
    ]
    assert len(kept) >= 3
    assert [x.cells_compared for x in result.learners] == [len(kept), len(kept)]


def test_each_learner_talks_to_its_own_local_providers(result):
    assert result.provider_problems() == []
    for learner in result.learners:
        scenarios = sorted(s for _, s, _ in learner.providers["04"])
        assert scenarios == ["crash-triage", "sundry"]
        assert len(learner.markers_sent) == 2 and learner.markers_seen == learner.markers_sent
    assert result.providers() == 4
    assert result.samples > 0 and result.collisions == []


def test_memory_and_cpu_are_measured_and_no_token_is_logged(result):
    for learner in result.learners:
        assert learner.rss_peak > learner.server_rss_peak > 50 * 1024 * 1024
        assert learner.pss_peak > 0 and learner.cpu_seconds > 0
    assert result.hub_rss > 0
    assert result.tokens_in_log == 0
    assert "failures: 0" in hub_class.table(result)


def test_outputs_are_compared_as_nbval_compares_them():
    rules = hub_class.sanitizers()
    stored = [{"output_type": "stream", "name": "stdout", "text": ["url http://127.0.0.1:4000\n"]}]
    same = [{"output_type": "stream", "name": "stdout", "text": "url http://127.0.0.1:5123\n"}]
    other = [{"output_type": "stream", "name": "stdout", "text": "url http://127.0.0.1:5123!\n"}]
    assert hub_class.comparable(same, rules) == hub_class.comparable(stored, rules)
    assert hub_class.comparable(other, rules) != hub_class.comparable(stored, rules)
    picture = {"output_type": "display_data", "data": {"image/png": "AAAA", "text/plain": "Fig"}}
    changed = {"output_type": "display_data", "data": {"image/png": "BBBB", "text/plain": "Fig"}}
    assert hub_class.comparable([picture], rules) == hub_class.comparable([changed], rules)


def _bytes(spec: str) -> int:
    """A Zero to JupyterHub memory figure ("512M", "1G": powers of 1024, as KubeSpawner reads)."""
    units = {"K": 1024, "M": 1024**2, "G": 1024**3}
    return int(float(spec[:-1]) * units[spec[-1]]) if spec[-1] in units else int(spec)


def test_the_kubernetes_values_hold_what_a_learner_measured(result):
    import yaml

    values = yaml.safe_load((ROOT / "hub" / "values.yaml").read_text(encoding="utf-8"))
    memory = values["singleuser"]["memory"]
    guarantee, limit = _bytes(memory["guarantee"]), _bytes(memory["limit"])
    peak = max(learner.rss_peak for learner in result.learners)  # a server + lesson 04's kernel
    kernel = max(learner.rss_peak - learner.server_rss_peak for learner in result.learners)
    assert peak < guarantee < limit
    assert peak + 2 * kernel < limit  # three notebooks open fit under the limit
    assert "UNTESTED ON A CLUSTER" in (ROOT / "hub" / "values.yaml").read_text(encoding="utf-8")


def test_the_course_runs_from_the_image_with_an_empty_home_and_lands_on_learner_copies(result):
    """Every learner's home started empty (a volume); the code came from the image's repository.

    The landing page of the link (``student/00_start_here.ipynb``) was found by every learner
    (the run fails otherwise): ``hub/start`` wrote the copies before the server started.
    """
    import tiktoken

    tokens = tiktoken.get_encoding("o200k_base").encode("On the Wire")
    for learner in result.learners:
        probe = learner.image
        home = Path(probe["home"])
        assert Path(probe["helpers"]).parts[-3:] == ("on-the-wire", "helpers", "__init__.py")
        assert "srv" in Path(probe["helpers"]).parts and not Path(probe["helpers"]).is_relative_to(
            home
        )
        assert not Path(probe["helpers"]).is_relative_to(ROOT)  # not this checkout's package
        assert Path(probe["cwd"]) == home / "on-the-wire" / "student"
        assert probe["tokens"] == tokens  # counted offline in the learner's kernel
