"""A JupyterHub class, measured: N simulated learners run lessons through a real hub's API.

    python scripts/hub_class.py --learners 20          # what `make bench-hub N=20` runs
    python scripts/hub_class.py --learners 2 --lessons 04

What runs (nothing is mocked): JupyterHub (``hub/jupyterhub_config.py``) behind
configurable-http-proxy from npm (``hub/package.json``, installed by ``make hub-setup``), with
JupyterHub's DummyAuthenticator and SimpleLocalProcessSpawner (every learner's server runs as
this user, in its own home folder under a temporary directory). The servers run from the learner
image of ``hub/values.yaml`` as ``scripts/hub_image.py`` lays it out here: the repository at
/srv/on-the-wire, not in the home, and each learner's home starts empty, as a Zero to JupyterHub
volume does. The server starts as ``singleuser.cmd`` says (``hub/start``, then
``jupyterhub-singleuser``). All learners act at once, as a class does when the instructor says
"go":

1. each gets its own API token (the runner's service token asks the hub for it; no token is
   ever printed or written to a file);
2. each starts its server (``POST /hub/api/users/NAME/server``) and waits until it is ready
   (``hub/start`` has pulled the course into ~/on-the-wire and written the learner copies,
   ``student/NN_*.ipynb``, by then; a local git repository stands in for the public one);
3. each follows the nbgitpuller link, as its page does once open
   (``GET /user/NAME/git-pull/api?repo=...``), and checks that the page the link opens,
   ``on-the-wire/student/00_start_here.ipynb``, is there;
4. for each lesson, each opens its learner copy through the server's contents API, starts
   a kernel session and runs every code cell over the kernel websocket, in order, as "Run all"
   does. Then it closes the notebook and shuts its kernel down ("Close and Shut Down
   Notebook") and opens the next lesson; with --keep-kernels every kernel stays open to the end
   (a learner who never closes a tab), and the memory figures hold one kernel per lesson.

Measured per learner: memory (RSS of its server plus its kernels, sampled every second, peak;
PSS, which counts shared pages once, read just before each lesson stops its providers); CPU
seconds of its server and kernels; seconds from "start my server" to the server being ready,
to the first output and to the last cell's reply;
failures (a cell that raised, a timeout, an HTTP or websocket error); outputs that differ from
the learner copy's stored outputs after the suite's nbval sanitizing
(``tests/lessons/nbval_sanitize.cfg``);
where the first lesson's kernel imported ``helpers`` from, and a count by tiktoken there.

Stand-ins (each lesson starts its own on 127.0.0.1): every listening port of every
learner's kernels is sampled with the memory and no port may belong to two learners in the same
sample. Just before a lesson stops its providers, the runner asks the kernel for its running
providers (port, scenario, requests served), sends each of them one request carrying a marker
unique to that learner, and asks the kernel which markers its providers recorded: each learner's
providers must hold exactly its own markers, and every learner's providers must have served the
same number of requests (a request that reached another learner's provider would show in both).
"""

from __future__ import annotations

import argparse
import asyncio
import configparser
import contextlib
import json
import os
import platform
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hub_image  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HUB = ROOT / "hub"
PROXY = HUB / "node_modules" / ".bin" / "configurable-http-proxy"
LESSONS = {"04": "04_the_array_is_rebuilt", "11": "11_the_agent_loop"}
MARKER = "hub-class-marker"
SERVER_TRIES = 3  # "start my server" clicks before a learner gives up
RECONNECTS = 3  # like JupyterLab, try a closed kernel websocket again (with a pause)
CELL_TIMEOUT = 600.0  # seconds for one cell on a loaded machine (a failure, not a hang)

# Run inside the learner's kernel (names start with _ so the lesson's namespace is not touched).
PROBE_PROVIDERS = """\
import gc as _gc, json as _json
from standin.server import LocalProvider as _LP
print(_json.dumps([[_p.port, _p.scenario_name, len(_p.recorder)]
                  for _p in _gc.get_objects() if isinstance(_p, _LP) and _p.running]))
del _gc, _json, _LP
"""
# Where the course's code came from in the learner's kernel, and counting with tiktoken there.
PROBE_IMAGE = """\
import json as _json, os as _os, sys as _sys, helpers as _h, tiktoken as _t
print(_json.dumps({"helpers": _h.__file__, "python": _sys.executable, "cwd": _os.getcwd(),
                   "home": _os.path.expanduser("~"),
                   "tokens": _t.get_encoding("o200k_base").encode("On the Wire")}))
del _json, _os, _sys, _h, _t
"""
LANDING = "on-the-wire/student/00_start_here.ipynb"  # where docs/hosting.md's link lands
MARKER_PATTERN = MARKER + r"-[\w-]+"
PROBE_MARKERS = f"""\
import gc as _gc, json as _json, re as _re
from standin.server import LocalProvider as _LP
print(_json.dumps(sorted({{_m for _p in _gc.get_objects() if isinstance(_p, _LP) and _p.running
                         for _e in list(_p.recorder)
                         for _m in _re.findall({MARKER_PATTERN!r},
                                               _e.request_bytes.decode("utf-8", "replace"))}})))
del _gc, _json, _re, _LP
"""


# --- the pieces a run needs ----------------------------------------------------------------------


def proxy_program() -> Path:
    """configurable-http-proxy as `make hub-setup` installed it (npm ci into hub/node_modules)."""
    if not PROXY.exists():
        raise SystemExit(f"{PROXY.relative_to(ROOT)} is missing: run `make hub-setup` first")
    return PROXY


def versions() -> dict[str, str]:
    from importlib.metadata import version

    lock = json.loads((HUB / "package-lock.json").read_text())
    return {
        "jupyterhub": version("jupyterhub"),
        "jupyterlab": version("jupyterlab"),
        "configurable-http-proxy": lock["packages"]["node_modules/configurable-http-proxy"][
            "version"
        ],
        "python": platform.python_version(),
    }


def free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def sanitizers() -> list[tuple[re.Pattern[str], str]]:
    """The suite's nbval sanitizing rules, so outputs are compared as nbval compares them."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(ROOT / "tests" / "lessons" / "nbval_sanitize.cfg")
    return [(re.compile(parser[s]["regex"]), parser[s]["replace"]) for s in parser.sections()]


def comparable(outputs: list[dict[str, Any]], rules: list[tuple[re.Pattern[str], str]]) -> str:
    """Outputs as nbval compares them: text of streams and reprs, no images or widget ids."""
    parts: list[str] = []
    streams: dict[str, str] = {}
    for out in outputs:
        kind = out.get("output_type")
        if kind == "stream":
            streams[out["name"]] = streams.get(out["name"], "") + _text(out["text"])
        elif kind in ("execute_result", "display_data"):
            for mime, value in sorted(out.get("data", {}).items()):
                if mime.startswith("image/") or mime.endswith("widget-view+json"):
                    continue
                parts.append(f"{mime}: {_text(value)}")
        elif kind == "error":
            parts.append(f"error: {out.get('ename')}: {out.get('evalue')}")
    text = "\n".join([*(f"{k}: {v}" for k, v in sorted(streams.items())), *parts])
    for pattern, replace in rules:
        text = pattern.sub(replace, text)
    return text


def first_difference(got: str, stored: str) -> str:
    """The first line that differs, both ways, short enough for a table."""
    pairs = zip(got.splitlines() + [""], stored.splitlines() + [""], strict=False)
    line, (new, old) = next((n, p) for n, p in enumerate(pairs) if p[0] != p[1])
    return f"line {line + 1}: got {new[:70]!r}, stored {old[:70]!r}"


def code_cells(lesson: str) -> list[dict[str, Any]]:
    """The code cells of a lesson's learner copy: what "Run all" runs."""
    notebook = json.loads(learner_copies()[f"{LESSONS[lesson]}.ipynb"])
    return [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]


def learner_copies() -> dict[str, str]:
    """The learner copies as ``make lab`` writes them into student/ (not tracked by git)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import make_student

    return make_student.expected_copies(ROOT / "notebooks")


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


# --- what one learner does -----------------------------------------------------------------------


@dataclass
class Learner:
    name: str
    marker_suffix: str = field(default_factory=lambda: secrets.token_hex(3))
    started: float = 0.0
    ready: float | None = None
    pulled: float | None = None
    first_output: float | None = None
    last_cell: float | None = None
    pid: int | None = None
    failures: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    cells_run: int = 0
    cells_compared: int = 0
    providers: dict[str, list[list[Any]]] = field(default_factory=dict)  # lesson -> probes
    markers_sent: set[str] = field(default_factory=set)
    markers_seen: set[str] = field(default_factory=set)
    image: dict[str, Any] = field(default_factory=dict)  # PROBE_IMAGE's answer (probe_image)
    rss_peak: int = 0
    server_rss_peak: int = 0
    pss_peak: int = 0
    cpu_by_pid: dict[int, float] = field(default_factory=dict)
    kernels: int = 0
    reconnects: int = 0  # kernel websockets closed by the server before the kernel answered
    server_retries: int = 0  # servers that failed to start and were asked for again

    @property
    def cpu_seconds(self) -> float:
        """CPU time of its server and every kernel it ran (closed ones as last sampled)."""
        return sum(self.cpu_by_pid.values())

    def marker(self, port: int) -> str:
        return f"{MARKER}-{self.name}-{self.marker_suffix}-{port}"


class KernelDied(ConnectionError):
    """The server reported the kernel restarting or dead while a request was waiting."""


class Kernel:
    """One kernel over the server's websocket (the channel protocol JupyterLab's default speaks)."""

    def __init__(self, connection: Any, session: str) -> None:
        self.connection = connection
        self.session = session

    async def request(
        self, msg_type: str, content: dict[str, Any], on_output: Any = None
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        msg_id = uuid.uuid4().hex
        message = {
            "header": {
                "msg_id": msg_id,
                "msg_type": msg_type,
                "session": self.session,
                "username": "learner",
                "version": "5.3",
                "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            },
            "parent_header": {},
            "metadata": {},
            "content": content,
            "channel": "shell",
            "buffers": [],
        }
        await self.connection.write_message(json.dumps(message))
        reply: dict[str, Any] | None = None
        idle = False
        outputs: list[dict[str, Any]] = []
        deadline = time.monotonic() + CELL_TIMEOUT
        while reply is None or not idle:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{msg_type}: no reply within {CELL_TIMEOUT:.0f} s")
            raw = await asyncio.wait_for(self.connection.read_message(), left)
            if raw is None:
                raise ConnectionError("the kernel websocket closed")
            if not isinstance(raw, str):
                continue  # binary frames carry widget buffers; nothing here compares them
            msg = json.loads(raw)
            kind = msg.get("msg_type") or msg["header"]["msg_type"]
            state = msg.get("content", {}).get("execution_state")
            if kind == "status" and state in ("restarting", "dead"):
                # what JupyterLab shows as "Kernel Restarting" / "Kernel Dead": this cell's reply
                # never comes (the server says so with no parent, hence before the filter)
                raise KernelDied(f"{msg_type}: the kernel is {state}")
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            if msg.get("channel") == "shell" and kind.endswith("_reply"):
                reply = msg["content"]
            elif kind == "status" and msg["content"].get("execution_state") == "idle":
                idle = True
            elif kind == "clear_output":
                outputs.clear()
            elif kind in ("stream", "display_data", "execute_result", "error"):
                outputs.append({"output_type": kind, **msg["content"]})
                if on_output is not None:
                    on_output()
        return reply, outputs

    async def run(
        self, code: str, on_output: Any = None
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        return await self.request(
            "execute_request",
            {
                "code": code,
                "silent": False,
                "store_history": True,
                "user_expressions": {},
                "allow_stdin": False,
                "stop_on_error": True,
            },
            on_output,
        )


async def open_kernel(base: str, token: str, path: str) -> tuple[Kernel, dict[str, Any], int]:
    """Open a notebook and its kernel: the notebook, the kernel, how many reconnects it took."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import WebSocketClosedError, websocket_connect

    async with _client(base, token) as client:
        notebook = await _ok(client.get(f"api/contents/{path}", params={"content": "1"}))
        session = await _ok(
            client.post(
                "api/sessions",
                json={
                    "path": path,
                    "name": Path(path).name,
                    "type": "notebook",
                    "kernel": {"name": "python3"},
                },
            )
        )
    ws_url = base.replace("http://", "ws://") + (
        f"api/kernels/{session['kernel']['id']}/channels?session_id={session['id']}"
    )
    request = HTTPRequest(
        ws_url, headers={"Authorization": f"token {token}"}, request_timeout=CELL_TIMEOUT
    )
    # JupyterLab reconnects when the server closes a kernel's websocket before the kernel has
    # answered (a server under load does); so does a learner here, and the run counts it.
    for attempt in range(RECONNECTS + 1):
        try:
            connection = await websocket_connect(request, max_message_size=256 * 1024 * 1024)
            kernel = Kernel(connection, session["id"])
            await kernel.request("kernel_info_request", {})
            return kernel, notebook["content"], attempt
        except (ConnectionError, WebSocketClosedError):
            if attempt == RECONNECTS:
                raise
            await asyncio.sleep(2 * (attempt + 1))
    raise AssertionError("unreachable")


def _client(base: str, token: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=base,
        headers={"Authorization": f"token {token}"},
        timeout=httpx.Timeout(CELL_TIMEOUT),
        trust_env=False,
    )


async def _ok(response_coroutine: Any) -> Any:
    response = await response_coroutine
    if response.status_code >= 400:
        raise RuntimeError(
            f"{response.request.method} {response.request.url.path}: HTTP {response.status_code}"
        )
    return response.json() if response.content else None


async def run_learner(
    learner: Learner,
    hub_url: str,
    token: str,
    lessons: list[str],
    rules: list[tuple[re.Pattern[str], str]],
    repository: Path,
    keep_kernels: bool = False,
) -> None:
    learner.started = time.monotonic()

    def first_output() -> None:
        if learner.first_output is None:
            learner.first_output = time.monotonic() - learner.started

    async with _client(hub_url, token) as hub:
        for _ in range(SERVER_TRIES):
            if await start_server(hub, learner.name):
                break
            learner.server_retries += 1  # a learner sees "Spawn failed" and clicks start again
        else:
            raise RuntimeError(f"the server did not start in {SERVER_TRIES} tries (hub log)")
    learner.ready = time.monotonic() - learner.started
    base = f"{hub_url}user/{learner.name}/"
    await pull_course(base, token, repository)
    learner.pulled = time.monotonic() - learner.started
    async with _client(base, token) as server:  # the page the link opens: the learner copy
        await _ok(server.get(f"api/contents/{LANDING}", params={"content": "0"}))
    kernels = []
    for lesson in lessons:
        path = f"on-the-wire/student/{LESSONS[lesson]}.ipynb"
        kernel, notebook, reconnects = await open_kernel(base, token, path)
        learner.reconnects += reconnects
        kernels.append(kernel)
        learner.kernels += 1
        cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
        for index, cell in enumerate(cells):
            source = "".join(cell["source"])
            last = index == len(cells) - 1
            if ".stop()" in source and lesson not in learner.providers:
                await check_providers(learner, lesson, kernel)
            reply, outputs = await kernel.run(source, on_output=first_output)
            learner.cells_run += 1
            if reply.get("status") != "ok":
                learner.failures.append(
                    f"{lesson} cell {index}: {reply.get('ename')}: {reply.get('evalue')}"
                )
                break
            tags = cell.get("metadata", {}).get("tags", [])
            if cell.get("outputs") and "nbval-ignore-output" not in tags:
                learner.cells_compared += 1
                got, stored = comparable(outputs, rules), comparable(cell["outputs"], rules)
                if got != stored:
                    learner.mismatches.append(
                        f"{lesson} cell {index}: {first_difference(got, stored)}"
                    )
            if last and lesson not in learner.providers:
                await check_providers(learner, lesson, kernel)
        if not keep_kernels:  # "Close and Shut Down Notebook" before the next lesson
            kernel.connection.close()
            async with _client(base, token) as server:
                await _ok(server.delete(f"api/sessions/{kernel.session}"))
    learner.last_cell = time.monotonic() - learner.started
    for kernel in kernels:
        kernel.connection.close()


async def probe_image(learner: Learner, base: str, token: str, lesson: str) -> None:
    """After the class: a kernel beside the first lesson says where the course came from.

    Run once the sampling has stopped, so its memory and CPU stay out of the measured figures
    (loading tiktoken's o200k_base alone adds tens of MiB to a kernel).
    """
    kernel, _, _ = await open_kernel(base, token, f"on-the-wire/student/{LESSONS[lesson]}.ipynb")
    try:
        _, outputs = await kernel.run(PROBE_IMAGE)
        learner.image = json.loads(_stdout(outputs))
    finally:
        kernel.connection.close()
        async with _client(base, token) as server:
            await _ok(server.delete(f"api/sessions/{kernel.session}"))


async def start_server(hub: httpx.AsyncClient, name: str) -> bool:
    """Ask the hub for the learner's server and wait: True once ready, False if it failed."""
    reply = await hub.post(f"hub/api/users/{name}/server")
    if reply.status_code not in (201, 202):
        raise RuntimeError(f"starting the server: HTTP {reply.status_code}")
    while True:
        model = await _ok(hub.get(f"hub/api/users/{name}"))
        server = model.get("servers", {}).get("")
        if server and server.get("ready"):
            return True
        if not server or not server.get("pending"):
            return False
        await asyncio.sleep(0.5)


async def check_providers(learner: Learner, lesson: str, kernel: Kernel) -> None:
    """Ask the kernel for its providers, send each a marked request, check what they recorded."""
    await asyncio.to_thread(read_pss, learner)  # the lesson's state is all there now
    _, outputs = await kernel.run(PROBE_PROVIDERS)
    providers = json.loads(_stdout(outputs) or "[]")
    learner.providers[lesson] = providers
    async with httpx.AsyncClient(timeout=60, trust_env=False) as client:
        for port, _scenario, _count in providers:
            marker = learner.marker(port)
            learner.markers_sent.add(marker)
            await client.post(
                f"http://127.0.0.1:{port}/v1/chat/completions",
                json={"model": "gpt-4o", "messages": [{"role": "user", "content": marker}]},
            )
    _, outputs = await kernel.run(PROBE_MARKERS)
    learner.markers_seen |= set(json.loads(_stdout(outputs) or "[]"))


def _stdout(outputs: list[dict[str, Any]]) -> str:
    errors = [o for o in outputs if o["output_type"] == "error"]
    if errors:
        raise RuntimeError(f"probe failed: {errors[0].get('ename')}: {errors[0].get('evalue')}")
    return "".join(_text(o["text"]) for o in outputs if o["output_type"] == "stream").strip()


# --- watching memory and ports -------------------------------------------------------------------


class Sampler(threading.Thread):
    """Every second: RSS of each learner's server and kernels, and its kernels' listening ports."""

    def __init__(self, learners: list[Learner], interval: float = 1.0) -> None:
        super().__init__(daemon=True, name="hub-class-sampler")
        self.learners = learners
        self.interval = interval
        self.stop_event = threading.Event()
        self.samples = 0
        self.collisions: list[str] = []
        self.ports_seen: set[tuple[str, int]] = set()

    def run(self) -> None:
        while not self.stop_event.wait(self.interval):
            self.sample()

    def sample(self) -> None:
        kernel_of: dict[int, str] = {}  # kernel pid -> learner
        for learner in self.learners:
            if learner.pid is None:
                continue
            try:
                server = psutil.Process(learner.pid)
                children = server.children(recursive=True)
                server_rss = server.memory_info().rss
            except psutil.Error:
                continue
            rss = server_rss
            for process in [server, *children]:
                with contextlib.suppress(psutil.Error):
                    times = process.cpu_times()
                    learner.cpu_by_pid[process.pid] = times.user + times.system
                    if process is not server:
                        rss += process.memory_info().rss
                        kernel_of[process.pid] = learner.name
            learner.rss_peak = max(learner.rss_peak, rss)
            learner.server_rss_peak = max(learner.server_rss_peak, server_rss)
        # one read of the machine's socket table per sample (cheaper than one per process)
        owner: dict[int, str] = {}
        for conn in psutil.net_connections(kind="tcp"):
            name = kernel_of.get(conn.pid or -1)
            if name is None or conn.status != psutil.CONN_LISTEN:
                continue
            port = conn.laddr.port
            self.ports_seen.add((name, port))
            if owner.setdefault(port, name) != name:
                self.collisions.append(f"port {port}: {owner[port]} and {name}")
        self.samples += 1


def read_pss(learner: Learner) -> None:
    """PSS (shared pages counted once) of the learner's server and kernels; keeps the peak."""
    if learner.pid is None:
        return
    total = 0
    with contextlib.suppress(psutil.Error):
        server = psutil.Process(learner.pid)
        for process in [server, *server.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):
                total += process.memory_full_info().pss
    learner.pss_peak = max(learner.pss_peak, total)


# --- the hub -------------------------------------------------------------------------------------


class Hub:
    """JupyterHub + configurable-http-proxy in a temporary folder, stopped and removed on exit."""

    def __init__(self, learners: int, kernel_transport: str = "ipc") -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="on-the-wire-hub-"))
        self.token = secrets.token_hex(32)  # the runner's service token: never printed
        self.public, proxy_api, hub_port = free_ports(3)
        self.url = f"http://127.0.0.1:{self.public}/"
        self.log_path = self.dir / "hub.log"
        bin_dir = str(Path(sys.executable).parent)
        self.env = {
            **os.environ,
            "PATH": os.pathsep.join([bin_dir, os.environ.get("PATH", "")]),
            "ON_THE_WIRE_HUB_DIR": str(self.dir),
            "ON_THE_WIRE_HUB_PORTS": f"{self.public},{proxy_api},{hub_port}",
            "ON_THE_WIRE_HUB_PROXY": str(proxy_program()),
            "ON_THE_WIRE_HUB_RUNNER_TOKEN": self.token,
            "ON_THE_WIRE_HUB_KERNEL_TRANSPORT": kernel_transport,
        }
        self.process: subprocess.Popen[bytes] | None = None
        self.learners = learners

    def start(self) -> None:
        """Lay out the course and the image, then start the hub and wait until it answers."""
        self.course = course_repository(self.dir / "course")
        self.image = hub_image.build(self.dir / "image")
        command, environment = learner_server(self.image, self.course)
        self.env["ON_THE_WIRE_HUB_CMD"] = json.dumps(command)
        self.env["ON_THE_WIRE_HUB_LEARNER_ENV"] = json.dumps(environment)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [
                    str(Path(sys.executable).parent / "jupyterhub"),
                    "-f",
                    str(HUB / "jupyterhub_config.py"),
                ],
                cwd=self.dir,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterHub exited at start:\n{self.log_tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}hub/api/", timeout=5, trust_env=False).is_success:
                    return
            time.sleep(0.5)
        raise RuntimeError(f"JupyterHub did not answer within 180 s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 30) -> str:
        """The end of the hub's log, with the runner's token redacted (it should never appear)."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.replace(self.token, "<redacted>").splitlines()[-lines:])

    def client(self) -> httpx.AsyncClient:
        return _client(self.url, self.token)

    def usage(self) -> tuple[int, float]:
        """RSS (bytes) and CPU seconds of the hub and its proxy (not the learners' servers)."""
        rss, cpu = 0, 0.0
        if self.process is None:
            return rss, cpu
        with contextlib.suppress(psutil.Error):
            hub = psutil.Process(self.process.pid)
            for process in [hub, *hub.children()]:
                if "jupyterhub-singleuser" in " ".join(process.cmdline()):
                    continue
                rss += process.memory_info().rss
                times = process.cpu_times()
                cpu += times.user + times.system
        return rss, cpu

    def stop(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(psutil.Error):
            family = [psutil.Process(self.process.pid)]
            family += family[0].children(recursive=True)
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGTERM)  # the hub stops the servers and the proxy
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
        gone, alive = psutil.wait_procs(family, timeout=20)
        for process in alive:  # only processes this run started
            with contextlib.suppress(psutil.Error):
                process.kill()

    def remove(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def course_repository(folder: Path) -> Path:
    """A git repository holding the series as its public repository does, on branch main.

    It stands in for that repository (no network here): each learner's server pulls it when it
    starts (``hub/start``) and again when the nbgitpuller link is followed. It is built from
    the files as they are in this checkout, committed or not; like the public repository it
    has no ``student/`` (each learner's server writes its own).
    """
    hub_image.copy_checkout(folder)
    git = ["git", "-C", str(folder), "-c", "user.name=course", "-c", "user.email=course@localhost"]
    for command in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "course"]):
        subprocess.run([*git, *command], check=True, capture_output=True)
    return folder


def learner_server(image: hub_image.Image, course: Path) -> tuple[list[str], dict[str, str]]:
    """``singleuser.cmd`` and ``singleuser.extraEnv`` of hub/values.yaml, applied to this image.

    The image's paths point into its folder here, the course comes from the local stand-in of
    the public repository, and the image's programs come first (``Image.learner_environment``).
    """
    import yaml

    values = yaml.safe_load((HUB / "values.yaml").read_text(encoding="utf-8"))["singleuser"]
    command = [str(image.path(part)) if part.startswith("/") else part for part in values["cmd"]]
    environment = dict(values.get("extraEnv") or {})
    if "ON_THE_WIRE_REPO" not in environment:
        raise SystemExit("hub/values.yaml: singleuser.extraEnv has no ON_THE_WIRE_REPO")
    environment["ON_THE_WIRE_REPO"] = course.as_uri()
    return command, {**environment, **image.learner_environment()}


async def pull_course(base: str, token: str, repository: Path) -> None:
    """What an nbgitpuller link does once its page is open: GET git-pull/api, read the stream."""
    params = {"repo": repository.as_uri(), "branch": "main", "targetpath": "on-the-wire"}
    async with (
        _client(base, token) as server,
        server.stream("GET", "git-pull/api", params=params) as response,
    ):
        if response.status_code != 200:
            raise RuntimeError(f"nbgitpuller: HTTP {response.status_code}")
        async for line in response.aiter_lines():
            if not line.startswith("data:"):
                continue
            event = json.loads(line.removeprefix("data:"))
            if event.get("phase") == "finished":
                return
            if event.get("phase") == "error":
                raise RuntimeError(f"nbgitpuller: {event.get('message', '')[:200]}")
    raise RuntimeError("nbgitpuller: the stream ended before 'finished'")


async def run_class(
    count: int, lessons: list[str], hub: Hub, keep_kernels: bool = False, probe: bool = False
) -> tuple[list[Learner], Sampler, list[str]]:
    learners = [Learner(f"learner{i:02d}") for i in range(1, count + 1)]
    repository = hub.course
    profile = os.environ.get("IPYTHONDIR")  # the offline profile (netguard) the tests use
    for learner in learners:  # each learner's kernels get their own copy in ~/.ipython
        if profile:
            shutil.copytree(profile, hub.dir / "home" / learner.name / ".ipython")
    rules = sanitizers()
    sampler = Sampler(learners)
    async with hub.client() as admin:
        await _ok(admin.post("hub/api/users", json={"usernames": [x.name for x in learners]}))
        tokens = {}
        for learner in learners:
            made = await _ok(
                admin.post(
                    f"hub/api/users/{learner.name}/tokens",
                    json={"note": "simulated learner", "expires_in": 7200},
                )
            )
            tokens[learner.name] = made["token"]

        async def find_pid(learner: Learner) -> None:
            """The server's process id, from the spawner's state (again if it started anew)."""
            while learner.last_cell is None and not learner.failures:
                if learner.pid is None or not psutil.pid_exists(learner.pid):
                    model = await _ok(admin.get(f"hub/api/users/{learner.name}"))
                    state = (model.get("servers", {}).get("") or {}).get("state") or {}
                    learner.pid = state.get("pid") or None
                await asyncio.sleep(0.5)

        async def one(learner: Learner) -> None:
            watcher = asyncio.create_task(find_pid(learner))
            try:
                await run_learner(
                    learner, hub.url, tokens[learner.name], lessons, rules, repository, keep_kernels
                )
            except Exception as error:  # one learner's failure is a result, not the end of the run
                learner.failures.append(f"{type(error).__name__}: {error}"[:300])
            finally:
                watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await watcher

        sampler.start()
        try:
            await asyncio.gather(*(one(learner) for learner in learners))
            sampler.sample()
        finally:
            sampler.stop_event.set()
            sampler.join()
        for learner in learners if probe else []:
            if not learner.failures:
                base = f"{hub.url}user/{learner.name}/"
                try:
                    await probe_image(learner, base, tokens[learner.name], lessons[0])
                except Exception as error:  # a result, like any learner's failure
                    learner.failures.append(f"probe: {type(error).__name__}: {error}"[:300])
    for learner in learners:
        read_pss(learner)
    return learners, sampler, [hub.token, *tokens.values()]


# --- the report ----------------------------------------------------------------------------------


@dataclass
class Result:
    learners: list[Learner]
    lessons: list[str]
    collisions: list[str]
    samples: int
    ports_seen: set[tuple[str, int]]
    hub_rss: int
    hub_cpu: float
    tokens_in_log: int  # how many of the run's API tokens the hub's log shows: must be 0
    wall: float
    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float]
    versions: dict[str, str]
    keep_kernels: bool = False
    kernel_transport: str = "ipc"
    runner_cpu: float = 0.0  # this process: the simulated browsers and the sampling

    @property
    def failures(self) -> list[str]:
        return [f"{x.name}: {f}" for x in self.learners for f in x.failures]

    @property
    def mismatches(self) -> list[str]:
        return [f"{x.name}: {m}" for x in self.learners for m in x.mismatches]

    def provider_problems(self) -> list[str]:
        problems = list(self.collisions)
        for x in self.learners:
            if x.failures:
                continue
            if x.markers_seen != x.markers_sent:
                problems.append(
                    f"{x.name}: its providers recorded {len(x.markers_seen & x.markers_sent)} of "
                    f"{len(x.markers_sent)} own markers and {len(x.markers_seen - x.markers_sent)}"
                    " foreign ones"
                )
        traffic = {
            x.name: {k: sorted((s, n) for _, s, n in v) for k, v in x.providers.items()}
            for x in self.learners
            if not x.failures
        }
        if len({json.dumps(t, sort_keys=True) for t in traffic.values()}) > 1:
            problems.append(f"requests served per provider differ between learners: {traffic}")
        return problems

    def provider_ports(self) -> int:
        """Distinct ports the probes reported (a port freed by a stopped provider may return)."""
        return len({p for x in self.learners for v in x.providers.values() for p, _, _ in v})

    def providers(self) -> int:
        return sum(len(v) for x in self.learners for v in x.providers.values())

    def traffic(self) -> str:
        clean = next((x for x in self.learners if not x.failures), None)
        if clean is None:
            return "none"
        return "; ".join(
            f"{lesson}: " + ", ".join(f"{s} {n}" for _, s, n in sorted(v, key=lambda r: r[1]))
            for lesson, v in clean.providers.items()
        )


def _stats(values: list[float]) -> tuple[float, float, float]:
    if not values:
        return (float("nan"),) * 3
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return statistics.median(ordered), p90, ordered[-1]


def table(result: Result) -> str:
    mib = 1024 * 1024
    x = result.learners
    cores = psutil.cpu_count() or 1
    total = psutil.virtual_memory().total
    done = [v for v in x if v.last_cell is not None]
    rows = [
        ("server ready (s)", [v.ready for v in x if v.ready is not None]),
        ("course pulled by nbgitpuller (s)", [v.pulled for v in x if v.pulled is not None]),
        ("first output (s)", [v.first_output for v in x if v.first_output is not None]),
        ("last cell (s)", [v.last_cell for v in done]),
        ("memory per learner: RSS peak (MiB)", [v.rss_peak / mib for v in x if v.rss_peak]),
        ("  of which its server (MiB)", [v.server_rss_peak / mib for v in x if v.rss_peak]),
        ("memory per learner: PSS peak (MiB)", [v.pss_peak / mib for v in x if v.pss_peak]),
        ("CPU seconds per learner", [v.cpu_seconds for v in x if v.cpu_seconds]),
        ("  of which its server", [v.cpu_by_pid.get(v.pid, 0.0) for v in x if v.cpu_seconds]),
    ]
    v_ = result.versions
    load = " ".join(f"{n:.2f}" for n in result.load_before)
    load_after = " ".join(f"{n:.2f}" for n in result.load_after)
    lines = [
        f"JupyterHub class: {len(x)} learners, lessons {' '.join(result.lessons)} (every cell, "
        f"learner copies), all at once; each lesson's kernel "
        + ("kept open to the end" if result.keep_kernels else "shut down before the next lesson")
        + f"; kernels reached over {result.kernel_transport}",
        f"  JupyterHub {v_['jupyterhub']}, configurable-http-proxy {v_['configurable-http-proxy']}"
        f", JupyterLab {v_['jupyterlab']}, Python {v_['python']}; {cores} cores, "
        f"{total / 1024**3:.1f} GiB; load average before {load}, after {load_after}",
        f"  {'':<40} {'median':>9} {'p90':>9} {'max':>9}",
    ]
    for label, values in rows:
        median, p90, top = _stats(values)
        lines.append(f"  {label:<40} {median:>9.1f} {p90:>9.1f} {top:>9.1f}")
    hub_line = f"hub + proxy: RSS {result.hub_rss / mib:.0f} MiB, CPU {result.hub_cpu:.1f} s"
    total_rss = sum(v.rss_peak for v in x) / mib
    total_cpu = sum(v.cpu_seconds for v in x) + result.hub_cpu
    lines += [
        f"  {hub_line}; whole class: RSS {total_rss + result.hub_rss / mib:.0f} MiB, "
        f"CPU {total_cpu:.0f} s in {result.wall:.0f} s of wall time; the runner (simulated "
        f"browsers, sampling) used {result.runner_cpu:.0f} CPU s of the same cores",
        f"  failures: {len(result.failures)}; servers started again after a failed start: "
        f"{sum(v.server_retries for v in x)}; kernel websockets reconnected: "
        f"{sum(v.reconnects for v in x)}; cells run: {sum(v.cells_run for v in x)}; outputs "
        f"differing from the stored ones: {len(result.mismatches)} of "
        f"{sum(v.cells_compared for v in x)} compared",
        f"  stand-ins: {result.providers()} started ({result.provider_ports()} distinct "
        f"ports), requests served "
        f"({result.traffic()}); listening ports of kernels sampled {result.samples} times, "
        f"{len(result.collisions)} shared between learners; markers back at their own learner: "
        f"{sum(len(v.markers_seen & v.markers_sent) for v in x)} of "
        f"{sum(len(v.markers_sent) for v in x)}; API tokens in the hub's log: "
        f"{result.tokens_in_log}",
    ]
    for problem in [*result.failures, *result.mismatches, *result.provider_problems()][:20]:
        lines.append(f"  ! {problem}")
    return "\n".join(lines)


def measure(
    count: int,
    lessons: list[str],
    keep: bool = False,
    keep_kernels: bool = False,
    kernel_transport: str = "ipc",
    probe: bool = False,
) -> Result:
    """Start a hub, run the class, stop everything; the numbers as a :class:`Result`.

    With ``probe``, each learner's server is asked afterwards where its kernel imports the
    course from and to count with tiktoken (``Learner.image``).
    """
    load_before = os.getloadavg()
    me = psutil.Process()
    runner_before = sum(me.cpu_times()[:2])
    hub = Hub(count, kernel_transport)
    started = time.monotonic()
    try:
        hub.start()
        learners, sampler, tokens = asyncio.run(run_class(count, lessons, hub, keep_kernels, probe))
        hub_rss, hub_cpu = hub.usage()
        if any(v.failures for v in learners):
            print(f"hub log (end):\n{hub.log_tail()}", file=sys.stderr)
    finally:
        hub.stop()
        log = hub.log_path.read_text(errors="replace") if hub.log_path.exists() else ""
        if keep:
            print(f"kept: {hub.dir}", file=sys.stderr)
        else:
            hub.remove()
    return Result(
        learners,
        lessons,
        sampler.collisions,
        sampler.samples,
        sampler.ports_seen,
        hub_rss,
        hub_cpu,
        sum(token in log for token in tokens),
        time.monotonic() - started,
        load_before,
        os.getloadavg(),
        versions(),
        keep_kernels,
        kernel_transport,
        sum(me.cpu_times()[:2]) - runner_before,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", "-n", type=int, default=20)
    parser.add_argument("--lessons", nargs="+", default=list(LESSONS), choices=list(LESSONS))
    parser.add_argument("--json", type=Path, help="also write the per-learner numbers here")
    parser.add_argument("--keep", action="store_true", help="keep the hub's folder (logs, homes)")
    parser.add_argument(
        "--keep-kernels",
        action="store_true",
        help="leave each lesson's kernel running (default: shut it down before the next lesson)",
    )
    parser.add_argument(
        "--kernel-transport",
        choices=["ipc", "tcp"],
        default="ipc",
        help="how kernels talk to their server: ipc (Unix sockets, the default here) or tcp "
        "(Jupyter's default: 5 ports of 127.0.0.1 per kernel, which can collide under load)",
    )
    args = parser.parse_args(argv)
    if args.learners < 1:
        parser.error("--learners must be at least 1")
    from standin.netguard import block_network, offline_test_environment

    # The class runs offline, as the tests do: only 127.0.0.1 is reachable from here and from
    # every learner's kernel (an IPython profile that blocks the network), no API key is seen.
    ipython_dir = Path(tempfile.mkdtemp(prefix="on-the-wire-hub-ipython-"))
    offline_test_environment(ipython_dir)
    block_network()
    print(f"starting JupyterHub and {args.learners} learners...", file=sys.stderr)
    try:
        result = measure(
            args.learners,
            args.lessons,
            keep=args.keep,
            keep_kernels=args.keep_kernels,
            kernel_transport=args.kernel_transport,
        )
    finally:
        shutil.rmtree(ipython_dir, ignore_errors=True)
    print(table(result))
    if args.json:
        rows = [
            {k: v for k, v in vars(x).items() if k not in ("markers_sent", "markers_seen")}
            for x in result.learners
        ]
        args.json.write_text(json.dumps(rows, indent=1, default=str))
    bad = result.failures or result.mismatches or result.provider_problems()
    bad = bad or result.tokens_in_log
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
