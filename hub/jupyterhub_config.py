"""A JupyterHub for a simulated class on one machine (scripts/hub_class.py starts it).

Not a production set-up: DummyAuthenticator lets any name in and SimpleLocalProcessSpawner
runs every learner's server as the hub's own user with no isolation (both are JupyterHub's own
testing classes). What it keeps real: JupyterHub itself, configurable-http-proxy from npm in
front of it, one `jupyterhub-singleuser` JupyterLab server per learner in its own home folder,
and the kernels those servers start. Everything listens on 127.0.0.1 only.

The runner passes its choices in environment variables (the token never appears in a file or
on a command line): ON_THE_WIRE_HUB_DIR (state, logs, homes), ON_THE_WIRE_HUB_PORTS (public,
proxy API, hub: three free ports), ON_THE_WIRE_HUB_PROXY (the configurable-http-proxy program),
ON_THE_WIRE_HUB_SINGLEUSER (the jupyterhub-singleuser program of the environment to use) and
ON_THE_WIRE_HUB_RUNNER_TOKEN (the runner's service token).
"""

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
c.Spawner.cmd = [os.environ["ON_THE_WIRE_HUB_SINGLEUSER"]]
c.Spawner.default_url = "/lab"
c.Spawner.ip = "127.0.0.1"
c.Spawner.start_timeout = 600  # 40 servers starting at once on 2 cores take a while
c.Spawner.http_timeout = 600
# JupyterLab refuses to run as root (containers, CI) unless told it is on purpose.
c.Spawner.args = ["--allow-root"] if os.geteuid() == 0 else []
# The tests' offline conditions reach the kernels: the IPython profile that blocks the network,
# no proxies, and the switch that makes any helpers subprocess block it too.
c.Spawner.env_keep.extend(  # added to JupyterHub's own list (PATH, LANG, ...)
    [
        "IPYTHONDIR",
        "ON_THE_WIRE_OFFLINE",
        "NO_PROXY",
        "no_proxy",
        "OPENBLAS_CORETYPE",
        "OPENBLAS_L2_SIZE",
    ]
)

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
