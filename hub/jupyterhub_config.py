"""A JupyterHub for a simulated class on one machine (scripts/hub_class.py starts it).

Not a production set-up: DummyAuthenticator lets any name in and SimpleLocalProcessSpawner
runs every learner's server as the hub's own user with no isolation (both are JupyterHub's own
testing classes). What it keeps real: JupyterHub itself, configurable-http-proxy from npm in
front of it, one `jupyterhub-singleuser` JupyterLab server per learner in its own home folder,
and the kernels those servers start. Everything listens on 127.0.0.1 only.

The runner passes its choices in environment variables (the token never appears in a file or
on a command line): ON_THE_WIRE_HUB_DIR (state, logs, homes), ON_THE_WIRE_HUB_PORTS (public,
proxy API, hub: three free ports), ON_THE_WIRE_HUB_PROXY (the configurable-http-proxy program),
ON_THE_WIRE_HUB_CMD (a learner server's command, JSON: hub/values.yaml's singleuser.cmd as it
applies to the image the runner laid out, scripts/hub_image.py), ON_THE_WIRE_HUB_LEARNER_ENV
(JSON: singleuser.extraEnv and the image's PATH) and ON_THE_WIRE_HUB_RUNNER_TOKEN (the runner's
service token).
"""

import json
import os
from pathlib import Path

c = get_config()  # noqa: F821 (JupyterHub defines it when it reads this file)

state = Path(os.environ["ON_THE_WIRE_HUB_DIR"])
public, proxy_api, hub_port = (int(p) for p in os.environ["ON_THE_WIRE_HUB_PORTS"].split(","))

c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = public
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = hub_port
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(state / "jupyterhub.pid")
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True
c.JupyterHub.concurrent_spawn_limit = 200  # a class clicks "start" at once; 100 is the default
c.JupyterHub.active_server_limit = 0

c.ConfigurableHTTPProxy.command = [os.environ["ON_THE_WIRE_HUB_PROXY"]]
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{proxy_api}"
c.ConfigurableHTTPProxy.should_start = True

c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True

c.JupyterHub.spawner_class = "simple"  # jupyterhub.spawner.SimpleLocalProcessSpawner
c.SimpleLocalProcessSpawner.home_dir_template = str(state / "home" / "{username}")
# hub/start (pull the course, write the learner copies), then jupyterhub-singleuser of the image
c.Spawner.cmd = json.loads(os.environ["ON_THE_WIRE_HUB_CMD"])
c.Spawner.default_url = "/lab"
c.Spawner.ip = "127.0.0.1"
c.Spawner.start_timeout = 600  # 40 servers starting at once on 2 cores take a while
c.Spawner.http_timeout = 300


def fixed_port(spawner):
    """Each learner's server on its own port, below Linux's ephemeral range (32768-60999).

    By default the hub picks a free ephemeral port and the server binds it seconds later;
    meanwhile any socket bound to port 0 (a kernel's, a stand-in's, anyone's) can take
    it. Measured with 40 learners: another process's socket answered on a learner's port and
    the hub waited on it until its timeout. Ports no bind(0) hands out cannot be taken so.
    """
    spawner.port = 20000 + spawner.user.id


c.Spawner.pre_spawn_hook = fixed_port
# JupyterLab refuses to run as root (containers, CI) unless told it is on purpose.
c.Spawner.args = ["--allow-root"] if os.geteuid() == 0 else []
# Kernels talk to their server over Unix sockets, not TCP ports of 127.0.0.1. With TCP, every
# kernel of every learner picks 5 free ports, releases them and binds them again a few seconds
# later; 40 learners starting kernels at once on one machine measured "Address already in use"
# and kernels that died after 5 restarts (docs/hosting.md, "Sizing"). ipc removes the race.
transport = os.environ.get("ON_THE_WIRE_HUB_KERNEL_TRANSPORT", "ipc")
c.Spawner.args.append(f"--KernelManager.transport={transport}")
# Idle kernels give their memory back. A learner keeps every lesson's notebook open and each
# kept kernel holds 170-260 MiB (one learner at lesson 11 with four open: about 956 MiB,
# docs/hosting.md, "Sizing"). A kernel idle for 20 minutes (no cell running, none run since) is
# shut down, even with its tab still open: longer than any pause inside a lesson (a break
# included), so a kernel in use is never culled; a busy kernel is never idle. Checked every 5
# minutes. The same values as hub/values.yaml's kernel-culling file.
CULL_KERNELS = {"cull_idle_timeout": 1200, "cull_interval": 300, "cull_connected": True}
c.Spawner.args += [f"--MappingKernelManager.{k}={v}" for k, v in CULL_KERNELS.items()]
# A Unix socket's path must stay under 108 bytes and a kernel's adds 49 to its runtime folder,
# which under the learner's home here would be too long: a short one per learner instead.
c.Spawner.environment = {
    "JUPYTER_RUNTIME_DIR": lambda spawner: f"{state}/rt/{spawner.user.name}",
    **json.loads(os.environ["ON_THE_WIRE_HUB_LEARNER_ENV"]),
}
# The tests' offline conditions reach the kernels: no proxies, and the switch that makes any
# helpers subprocess block the network (the runner puts the IPython profile that blocks it in
# each learner's own ~/.ipython: one shared IPython folder made 40 kernels write one history
# database, and IPython printed "database is locked" into learners' outputs). Otherwise
# JupyterHub's own list, less PYTHONPATH, VIRTUAL_ENV and the conda variables: a learner's
# server gets its packages from the image alone, as in a pod (a PYTHONPATH pointing at a
# checkout would hide an image that cannot import the course).
c.Spawner.env_keep = [
    "JUPYTERHUB_SINGLEUSER_APP",
    "PATH",
    "LANG",
    "LC_ALL",
    "ON_THE_WIRE_OFFLINE",
    "NO_PROXY",
    "no_proxy",
    "OPENBLAS_CORETYPE",
    "OPENBLAS_L2_SIZE",
]

c.JupyterHub.services = [
    {"name": "class-runner", "api_token": os.environ["ON_THE_WIRE_HUB_RUNNER_TOKEN"]}
]
c.JupyterHub.load_roles = [
    {
        "name": "class-runner",
        "services": ["class-runner"],
        # create learners, hand each one its own token, read where its server runs (pid)
        "scopes": ["admin:users", "admin:servers", "tokens", "admin:server_state"],
    }
]
