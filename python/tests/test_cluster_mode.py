"""A cluster started the way docs/cluster.md says (``ray start --head``), joined with
``--address auto``: the runner ships the binary and itself in the job's runtime environment, and
the match is the match played here. The head is started in a process group of its own and
killed with it, so no other Ray instance on the machine is touched."""

import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time

from test_cluster import MATCH, games_of


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(current: pathlib.Path) -> bool:
    """Whether the head recorded in ``current`` (HOST:PORT) takes connections."""
    host, port = current.read_text().strip().rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=1).close()
        return True
    except OSError:
        return False


def test_a_cluster_started_with_ray_start_plays_the_match_played_here(binary, scratch):
    ray = pathlib.Path(sys.executable).parent / "ray"
    port = free_port()
    # `ray start` records its cluster for `--address auto`; put back what was there.
    current = pathlib.Path("/tmp/ray/ray_current_cluster")
    before = current.read_bytes() if current.exists() else None
    # Without this checkout on its path: the workers get the package from the runtime environment.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "RAY_ADDRESS")}
    head = subprocess.Popen(
        [str(ray), "start", "--head", "--block", f"--port={port}",
         "--num-cpus=2", "--include-dashboard=false"],
        preexec_fn=os.setpgrp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=scratch,
    )
    try:
        # The head names itself by the machine's address, and records it for `--address auto`.
        deadline = time.time() + 60
        while not (current.exists() and current.read_text().strip().endswith(f":{port}") and listening(current)):
            assert time.time() < deadline, "the head did not start within a minute"
            assert head.poll() is None, "ray start exited"
            time.sleep(1)
        here = subprocess.run([binary, "versus", *MATCH, "--games", "6"], cwd=scratch, capture_output=True, text=True)
        package_parent = str(pathlib.Path(__file__).resolve().parents[1])
        there = subprocess.run(
            [sys.executable, "-m", "tetris_tt_cluster", "--address", "auto", "--binary", binary,
             "versus", *MATCH, "--games", "6"],
            cwd=scratch, capture_output=True, text=True, timeout=300,
            env=dict(env, PYTHONPATH=package_parent),
        )
        assert there.returncode == 0, there.stderr
        assert games_of(there.stdout) == games_of(here.stdout)
        assert json.loads(there.stdout)["games"] == 6
    finally:
        os.killpg(head.pid, signal.SIGKILL)
        head.wait()
        if before is None:
            current.unlink(missing_ok=True)
        else:
            current.write_bytes(before)
