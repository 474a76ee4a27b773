"""The README keeps working: its links, the commands it names, and the output it pastes.

The README pastes what `make lab`, `make test` and `python -m helpers serve` print, trimmed
(a line `...` stands for the lines left out; a line ending in ` ...` is cut short). Each pasted
line is checked against the code that prints it (the Makefile, our scripts, the stand-in's
banner, the installed pip, JupyterLab and pytest), without running the slow commands.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
from pathlib import Path

import pytest

# the repository root, however deep this file sits in tests/
ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md")), ROOT / "standin" / "README.md"]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE = re.compile(r"```.*?```|`[^`\n]+`", re.S)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor a Markdown page has: one per heading (GitHub numbers repeats -1, -2...)."""
    found: set[str] = set()
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        slug, n = _slug(heading), 1
        while slug in found:
            slug, n = f"{_slug(heading)}-{n}", n + 1
        found.add(slug)
    return found


def code_spans(page: Path) -> list[str]:
    return CODE.findall(page.read_text(encoding="utf-8"))


def blocks(page: Path) -> dict[str, list[str]]:
    """The README's console blocks, by the command on their first line (`$ ...`)."""
    found = {}
    for block in re.findall(r"```console\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
        first, *rest = block.rstrip("\n").split("\n")
        found[first.removeprefix("$ ")] = rest
    return found


def test_the_readme_is_read_in_five_minutes():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 170, f"{len(lines)} lines: move the detail to docs/"


def test_every_relative_link_and_anchor_resolves():
    broken = []
    for page in PAGES:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if target.startswith(("http:", "https:", "mailto:")):
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(ROOT)} -> {target}"
            if not file.exists():
                broken.append(f"{where}: no such file")
            elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                broken.append(f"{where}: no such heading")
    assert broken == []


def test_the_anchor_rule_is_githubs():
    assert _slug("Windows, or by hand") == "windows-or-by-hand"
    assert _slug("What `make test` installs and runs") == "what-make-test-installs-and-runs"
    assert _slug("Binder (a quick demo, no accounts)") == "binder-a-quick-demo-no-accounts"
    fixture = "Your own code: `capture()` and the `on_the_wire` fixture"
    assert _slug(fixture) == "your-own-code-capture-and-the-on_the_wire-fixture"


def test_every_docs_page_is_in_the_docs_index():
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    pages = [p.name for p in sorted((ROOT / "docs").glob("*.md")) if p.name != "README.md"]
    assert [p for p in pages if f"]({p})" not in index] == []
    assert "](docs/README.md)" in README.read_text(encoding="utf-8")


def test_every_make_target_named_is_in_the_makefile():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][a-z0-9-]*):", makefile, re.M))
    named = {
        (page.relative_to(ROOT).as_posix(), target)
        for page in PAGES
        for span in code_spans(page)
        for target in re.findall(r"(?<![\w./-])make ([a-z][a-z0-9-]*)", span)
    }
    assert {"lab", "test", "update"} <= {t for p, t in named if p == "README.md"}
    assert sorted((p, t) for p, t in named if t not in targets) == []


def _parser() -> argparse.ArgumentParser:
    from standin.cli import build_parser

    return build_parser()


def test_every_command_line_named_is_a_real_subcommand():
    (sub,) = [a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)]
    named = {
        (page.relative_to(ROOT).as_posix(), command)
        for page in PAGES
        for span in code_spans(page)
        for command in re.findall(r"python -m (?:helpers|standin) ([a-z][a-z0-9-]*)", span)
    }
    assert ("README.md", "serve") in named
    assert sorted((p, c) for p, c in named if c not in sub.choices) == []
    # and every subcommand is documented: in the command-line page and the stand-in's file table
    assert {c for p, c in named if p == "docs/command-line.md"} == set(sub.choices)
    standin = (ROOT / "standin" / "README.md").read_text(encoding="utf-8")
    row = next(line for line in standin.splitlines() if line.startswith("| `cli/` |"))
    assert set(re.findall(r"`([a-z]+)`", row.split(":", 1)[1])) == set(sub.choices)


def test_the_readme_names_the_real_default_scenario():
    default = _parser().parse_args(["serve"]).scenario
    readme = README.read_text(encoding="utf-8")
    assert default == "general" and f"scenario '{default}'" in readme
    assert f"--scenario {default}|" in (ROOT / "standin" / "README.md").read_text(encoding="utf-8")


def test_commands_to_type_use_the_venv_make_lab_made():
    """`make` never activates `.venv`: a bare `python -m helpers` there is a ModuleNotFoundError."""
    typed = list(blocks(README))  # the README's `$ ...` lines
    command_line = (ROOT / "docs" / "command-line.md").read_text(encoding="utf-8")
    (sh,) = re.findall(r"```sh\n(.*?)```", command_line, re.S)
    typed += sh.strip().splitlines()
    assert [c for c in typed if not c.startswith(("make ", ".venv/bin/"))] == []


NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
NUMBERS += "fifteen sixteen seventeen eighteen nineteen twenty"


def _lesson_times() -> list[tuple[str, int, int]]:
    """(lesson, minutes, optional minutes) for each row of the lesson index's table."""
    index = (ROOT / "notebooks" / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d\d) \|.*\| (\d+) min(?: \(\+(\d+) optional\))? \|$", index, re.M)
    return [(lesson, int(minutes), int(extra or 0)) for lesson, minutes, extra in rows]


def test_the_readme_states_the_lesson_times_of_the_index():
    rows = _lesson_times()
    assert [lesson for lesson, _, _ in rows] == [p.name[:2] for p in LESSONS]
    extra = [(minutes, more) for _, minutes, more in rows if more]
    (plain,) = [(lesson, minutes) for lesson, minutes, more in rows if not more]  # the capstone
    words = NUMBERS.split()
    expected = (
        f"{words[len(rows)].capitalize()} notebooks: {words[len(extra)]} of "
        f"{min(m for m, _ in extra)}-{max(m for m, _ in extra)} minutes, each with an optional "
        f"part of {min(o for _, o in extra)}-{max(o for _, o in extra)} minutes more, and the "
        f"{plain[1]}-minute capstone (lesson {plain[0]}), with none"
    )
    assert expected in " ".join(README.read_text(encoding="utf-8").split())


def test_the_xfails_explained_are_the_ones_marked():
    from tests.support.published_counts import CASES

    testing = " ".join((ROOT / "docs" / "testing.md").read_text(encoding="utf-8").split())
    known = sum(bool(case.xfail) for case in CASES)
    assert f"{known} are published, API-verified OpenAI token counts" in testing
    total = known + 2  # and LiteLLM's Chat-shaped tool_choice, whole and streamed
    assert f"{total} xfailed: " in testing
    assert f"{total} xfailed (" in README.read_text(encoding="utf-8")


def test_the_live_key_named_is_lesson_11s_default():
    from standin.live_switch import KEYS, family

    lesson = (ROOT / "notebooks" / "11_the_agent_loop.ipynb").read_text(encoding="utf-8")
    (default,) = set(re.findall(r'wire_format = \\"([a-z-]+)\\"', lesson))
    readme = " ".join(README.read_text(encoding="utf-8").split())
    assert f"(`{KEYS[family(default)]}`, for the lesson's default format)" in readme


def test_every_folder_is_in_the_layout_and_the_readme_names_the_main_ones():
    """docs/layout.md maps every top-level folder of the repository; the README's block is a
    subset of it (its title says "main")."""
    layout = (ROOT / "docs" / "layout.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```\n(.*?)```", layout, re.S)[:1]
    mapped = set(re.findall(r"^([\w.-]+)/ ", block, re.M))
    parts = {"helpers", "standin", "course", "notebooks", "learner", "data", "tests", "docs"}
    folders = {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))}
    # what a build, a run or a test leaves behind is not part of the repository
    folders -= {"build", "site", "student", "test-artifacts"}
    folders -= {p.name for p in ROOT.glob("*.egg-info")}
    assert parts <= folders and sorted(folders - mapped) == []
    readme = README.read_text(encoding="utf-8")
    (main,) = re.findall(r"## The main folders\n\n```\n(.*?)```", readme, re.S)
    assert set(re.findall(r"^([\w.-]+)/ ", main, re.M)) <= mapped


def test_the_package_alone_lists_pyprojects_run_time_dependencies():
    import tomllib

    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = [Requirement(r).name for r in project["dependencies"]]
    setup = (ROOT / "docs" / "setup.md").read_text(encoding="utf-8")
    section = setup.split("## Just the package", 1)[1].split("\n## ", 1)[0]
    (listed,) = re.findall(r"only what they need at run time\s*\((.*?)\)", section, re.S)
    assert re.findall(r"`([\w.-]+)`", listed) == declared  # the same names, in pyproject's order


@pytest.mark.parametrize("module", ["helpers", "standin"])
def test_the_usage_line_spells_the_command_as_typed(module, capsys, monkeypatch):
    """`python -m standin --help` says `usage: python -m standin`, not the other spelling."""
    import runpy

    monkeypatch.setattr("sys.argv", [module, "--help"])
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(ROOT / module / "__main__.py"), run_name="__main__")
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: python -m {module} [-h] COMMAND")


# --- the pasted output is what the code prints --------------------------------------------------


def _make_prints() -> set[str]:
    """Every line `make` prints for a recipe line: the line itself, or for `@...` what it echoes."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    printed = set()
    for line in re.findall(r"^\t(.+)$", makefile, re.M):
        line = line.replace("$(BIN)", ".venv/bin").replace("$(VENV)", ".venv")
        if line.startswith("@"):
            printed.update(re.findall(r'echo "([^"]*)"', line))
        else:
            printed.add(line)
    return printed


def _installed_source(module: str) -> str:
    return Path(importlib.util.find_spec(module).origin).read_text(encoding="utf-8")


def _pinned() -> dict[str, str]:
    text = (ROOT / "constraints.txt").read_text(encoding="utf-8")
    return {n.lower().replace("_", "-"): v for n, v in re.findall(r"^([\w.-]+)==(\S+)", text, re.M)}


def _check_line(line: str, make: set[str]) -> str | None:
    """Why a pasted output line is not what the code prints, or None when it is."""
    if line in make:
        return None
    if line.startswith("Successfully installed "):
        assert "Successfully installed" in _installed_source("pip._internal.commands.install")
        pins = _pinned()
        for package in line.removeprefix("Successfully installed ").removesuffix(" ...").split():
            name, version = package.rsplit("-", 1)
            if pins.get(name.lower()) != version:
                return f"{package} is not pinned in constraints.txt"
        return None
    if line.startswith("student/: "):
        source = (ROOT / "scripts" / "make_student.py").read_text(encoding="utf-8")
        found = re.fullmatch(
            r"student/: (\d+) learner notebook\(s\) written, and 1 file\(s\) to edit "
            r"\((\S+)\), 0 already up to date",
            line,
        )
        ok = found and int(found.group(1)) == len(LESSONS)
        ok = ok and (ROOT / "notebooks" / found.group(2)).is_file()
        ok = ok and "learner notebook(s) written{also}, " in source
        return None if ok else "not what scripts/make_student.py prints on a first run"
    if line.strip() == "Or copy and paste one of these URLs:":
        found = "Or copy and paste one of these URLs:" in _installed_source(
            "jupyter_server.serverapp"
        )
        return None if found else "not in jupyter_server"
    url = re.fullmatch(
        r"\s+http://localhost:8888(/lab/tree/student/00_start_here\.ipynb)\?token=\.\.\.", line
    )
    if url:
        makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
        ok = "LESSON_URL = /lab/tree/$(1)/00_start_here.ipynb" in makefile
        return None if ok and "$(call LESSON_URL,student)" in makefile else "not make lab's URL"
    if re.fullmatch(r"=+ test session starts =+", line):
        return None if "test session starts" in _installed_source("_pytest.terminal") else "pytest?"
    return "printed by nothing the test knows"


@pytest.mark.parametrize("command", ["make lab NO_BROWSER=1", "make test"])
def test_the_pasted_make_output_is_what_the_code_prints(command):
    pasted = blocks(README)[command]
    make = _make_prints()
    wrong = {line: why for line in pasted if line != "..." and (why := _check_line(line, make))}
    assert wrong == {}
    assert pasted.count("...") >= 1  # trimmed, and says so


def test_the_pasted_serve_banner_is_what_serve_prints():
    from standin.cli.serve import banner
    from standin.server import LocalProvider

    (command,) = [c for c in blocks(README) if c.startswith(".venv/bin/python -m helpers serve")]
    port = _parser().parse_args(command.split()[3:]).port
    pasted = [line for line in blocks(README)[command] if line != "..."]
    with LocalProvider("general") as p:  # in-process, on a free port of 127.0.0.1
        printed = banner(p).replace(f":{p.port}", f":{port}").split("\n")
    assert pasted == printed[: len(pasted)]


def test_the_own_code_example_runs_against_the_stand_in():
    """The README's client call, as pasted, against the stand-in in-process (its port swapped
    for the free one the stand-in got): the model name it gives is served, not a 404."""
    from standin.server import LocalProvider

    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Point your own code at it") :].split("\n## ", 1)[0]
    (code,) = re.findall(r"```python\n(.*?)```", section, re.S)
    (model,) = re.findall(r'model="([^"]+)"', code)
    assert model != "general"  # a scenario, not a model name: the provider's 404
    (command,) = [c for c in blocks(README) if " -m helpers serve" in c]
    url = f"http://127.0.0.1:{_parser().parse_args(command.split()[3:]).port}/v1"
    assert f'base_url="{url}"' in code  # the port the serve command above starts on
    *body, last = code.strip().splitlines()
    namespace: dict = {}
    with LocalProvider("general") as p:
        exec("\n".join(body).replace(url, p.base_url("openai")), namespace)
        answer = eval(last, namespace)
    assert answer.model == model and answer.choices[0].message.content
