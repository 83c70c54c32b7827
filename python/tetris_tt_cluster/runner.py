"""The runner: a dispatching ``tetris-tt`` command on this machine, its games as Ray tasks.

``tetris-tt versus --dispatch`` and ``tetris-tt tune --dispatch`` do everything a match or a
tuning run does (rules, SPRT, checkpoint, summary, SPSA state, log, plot) except play the
games: each request for games is one JSON line on their standard output, and the games come
back on their standard input, in order. This module answers those requests. It cuts each one
into slices of game pairs, plays every slice as a Ray task (``tetris-tt batch --spec``),
checks what comes back, and hands the games to the command in game order. So the results are
the command's own, bit for bit, whatever the number of workers: the games depend only on the
match and their numbers.

A slice that fails (the worker or its node lost, ``batch`` exiting with an error, or output
that is not exactly the slice's games) is reported on standard error and played again, up to
``attempts`` times; nothing it printed is merged. When a slice fails every time, the command
is told no more games are coming: it stops with a one-line error, and its checkpoint keeps
every game merged before, so the run resumes where it stopped.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import IO, Optional

import ray

REQUEST_KEY = "tetris_tt_request"

#: Tasks are told apart from the caller's own errors by this prefix.
PREFIX = "tetris-tt-cluster"


class UsageError(Exception):
    """Options that cannot run (a missing binary, a bad number)."""


class BadBatch(Exception):
    """A slice's batch that did not return exactly its games."""


@dataclasses.dataclass
class Options:
    """How the games are handed out."""

    #: The ``tetris-tt`` binary on this machine: it runs the command, and unless
    #: ``node_binary`` is given it is shipped to every worker in the job's runtime
    #: environment (its ``working_dir``).
    binary: str
    #: A path to ``tetris-tt`` that every node already has (nothing is shipped then). It must
    #: be the same build as ``binary``: a match spec from another build is refused.
    node_binary: Optional[str] = None
    #: The Ray cluster to join (``auto``, ``HOST:PORT`` or ``ray://HOST:10001``); ``None``
    #: starts a Ray instance on this machine for the run (or uses the one this process has).
    address: Optional[str] = None
    #: Slices played at once; default: the cluster's CPUs divided by ``cpus_per_task``.
    workers: Optional[int] = None
    #: Game pairs per task.
    pairs_per_task: int = 1
    #: CPUs a task asks Ray for; its batch plays that many games at once.
    cpus_per_task: int = 1
    #: Times a slice is tried before the run stops.
    attempts: int = 3

    def check(self) -> None:
        """Raises UsageError for options that cannot run."""
        for name in ("pairs_per_task", "cpus_per_task", "attempts"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise UsageError(f"{name.replace('_', '-')} must be a whole number of at least 1, not {value!r}")
        if self.workers is not None and (not isinstance(self.workers, int) or self.workers < 1):
            raise UsageError(f"workers must be a whole number of at least 1, not {self.workers!r}")
        if not (os.path.isfile(self.binary) and os.access(self.binary, os.X_OK)):
            raise UsageError(f"{self.binary}: not an executable file (build it with cargo build --release -p cli)")


def _die_with_parent() -> None:
    """In the batch's process: be killed when the worker that started it dies (Linux), so a
    lost or cancelled worker leaves no game running."""
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    except OSError:
        pass


@ray.remote(max_retries=0)
def _play(spec: str, first: int, games: int, binary: str, threads: int) -> tuple:
    """Plays games ``first..first+games`` of the match ``spec`` with ``tetris-tt batch``;
    returns its exit status, standard output and the end of its standard error."""
    path = os.path.abspath(binary)
    if not os.access(path, os.X_OK):
        # A runtime environment's working_dir need not keep the executable bit.
        os.chmod(path, 0o755)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(spec)
    try:
        proc = subprocess.run(
            [path, "batch", "--spec", f.name, "--first", str(first), "--games", str(games),
             "--threads", str(threads)],
            capture_output=True,
            text=True,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )
    finally:
        os.unlink(f.name)
    return proc.returncode, proc.stdout, proc.stderr[-2000:]


def check_batch(result: tuple, first: int, games: int) -> list:
    """The game lines of a slice's batch, or BadBatch saying what is wrong with them."""
    code, out, err = result
    if code != 0:
        last = (err.strip().splitlines() or ["no message"])[-1]
        raise BadBatch(f"tetris-tt batch exited with status {code}: {last}")
    lines = out.splitlines()
    if len(lines) != games:
        raise BadBatch(f"tetris-tt batch printed {len(lines)} lines for {games} games")
    for i, line in enumerate(lines):
        try:
            record = json.loads(line)
        except ValueError:
            raise BadBatch(f"line {i + 1} is not JSON: {line[:60]!r}") from None
        if not isinstance(record, dict) or "sides" not in record:
            raise BadBatch(f"line {i + 1} is not a game record: {line[:60]!r}")
        if record.get("index") != first + i:
            raise BadBatch(f"line {i + 1} is game {record.get('index')!r}, not game {first + i}")
    return lines


def slices(first: int, games: int, per: int) -> list:
    """Games ``first..first+games`` cut at multiples of ``per`` (whole pairs, counted from
    game 0, so the cuts do not depend on where a resumed run starts)."""
    out = []
    start, end = first, first + games
    while start < end:
        cut = min(end, (start // per + 1) * per)
        out.append((start, cut - start))
        start = cut
    return out


class _Stopped(Exception):
    """The command stopped reading games (it has what it needs, or it failed)."""


class _Failed(Exception):
    """A slice failed every time it was tried."""


class Runner:
    """Answers one dispatching command's requests with Ray tasks."""

    def __init__(self, options: Options, err: IO[str], remote_binary: str):
        self.options = options
        self.err = err
        self.remote_binary = remote_binary
        if options.workers is not None:
            self.workers = options.workers
        else:
            cpus = int(ray.cluster_resources().get("CPU", 1))
            self.workers = max(1, cpus // options.cpus_per_task)

    def _submit(self, spec: str, piece: tuple):
        task = _play.options(num_cpus=self.options.cpus_per_task)
        return task.remote(spec, piece[0], piece[1], self.remote_binary, self.options.cpus_per_task)

    def say(self, text: str) -> None:
        print(f"{PREFIX}: {text}", file=self.err, flush=True)

    def serve(self, request: dict, proc: subprocess.Popen) -> None:
        """Plays the request's games and writes them to the command in order. Raises _Stopped
        when the command stops reading, _Failed when a slice fails every time."""
        spec = json.dumps(request["spec"])
        first, games = int(request["first"]), int(request["games"])
        pieces = slices(first, games, 2 * self.options.pairs_per_task)
        tries = [0] * len(pieces)
        pending: dict = {}
        done: dict = {}
        submitted = merged = 0
        try:
            while merged < len(pieces):
                while submitted < len(pieces) and len(pending) < self.workers:
                    pending[self._submit(spec, pieces[submitted])] = submitted
                    tries[submitted] += 1
                    submitted += 1
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
                if proc.poll() is not None:
                    raise _Stopped()
                for ref in ready:
                    i = pending.pop(ref)
                    start, count = pieces[i]
                    try:
                        done[i] = check_batch(ray.get(ref), start, count)
                    except (ray.exceptions.RayError, BadBatch) as e:
                        why = _reason(e)
                        name = f"games {start}-{start + count - 1}"
                        if tries[i] >= self.options.attempts:
                            self.say(f"{name}: {why}; failed {tries[i]} times, stopping")
                            raise _Failed() from None
                        self.say(f"{name}: {why}; playing them again (attempt {tries[i] + 1} of {self.options.attempts})")
                        pending[self._submit(spec, pieces[i])] = i
                        tries[i] += 1
                while merged in done:
                    text = "".join(line + "\n" for line in done.pop(merged))
                    try:
                        proc.stdin.write(text)
                        proc.stdin.flush()
                    except (BrokenPipeError, OSError):
                        raise _Stopped() from None
                    merged += 1
        finally:
            for ref in pending:
                # Not forced: the task is interrupted, and its batch killed with it.
                ray.cancel(ref)


def _reason(e: Exception) -> str:
    """One line for why a slice failed."""
    if isinstance(e, BadBatch):
        return str(e)
    if isinstance(e, ray.exceptions.WorkerCrashedError):
        return "the worker running them was lost"
    if isinstance(e, ray.exceptions.NodeDiedError):
        return "the node running them was lost"
    first = (str(e).strip().splitlines() or [type(e).__name__])[-1]
    return f"{type(e).__name__}: {first}"


def request_of(line: str) -> Optional[dict]:
    """The request a line of the command's output holds, if it is one."""
    if not line.startswith('{"' + REQUEST_KEY + '"'):
        return None
    try:
        return json.loads(line)[REQUEST_KEY]
    except (ValueError, KeyError, TypeError):
        return None


def start_ray(options: Options) -> tuple:
    """Joins the cluster at ``options.address``, or starts a Ray instance on this machine,
    with this package, and the binary unless ``node_binary`` is given, in the job's runtime
    environment. Returns
    the binary's path for the workers, whether Ray was started here, and the directory shipped
    (to remove at the end)."""
    if ray.is_initialized():
        if options.node_binary is None:
            raise UsageError(
                "Ray is already initialised in this process, so the binary cannot join its runtime environment: give node_binary, a path every node has"
            )
        return options.node_binary, False, None
    # This package travels in the job's runtime environment, so the workers need only Ray.
    shipped, env = None, {"py_modules": [os.path.dirname(os.path.abspath(__file__))]}
    if options.node_binary is None:
        # So does the binary: a directory Ray uploads once and unpacks on every node as the
        # tasks' working directory.
        shipped = tempfile.mkdtemp(prefix="tetris-tt-cluster-")
        shutil.copy2(options.binary, os.path.join(shipped, "tetris-tt"))
        env["working_dir"] = shipped
    quiet = dict(include_dashboard=False, logging_level="ERROR", log_to_driver=False, runtime_env=env)
    if options.address is None:
        cpus = (options.workers or os.cpu_count() or 1) * options.cpus_per_task
        # "local": a new instance, never a cluster a `ray start` on this machine left behind.
        ray.init(address="local", num_cpus=cpus, **quiet)
    else:
        ray.init(address=options.address, **quiet)
    return options.node_binary or "tetris-tt", True, shipped


def run(command: str, args: list, options: Options, out: IO[str] = sys.stdout, err: IO[str] = sys.stderr) -> int:
    """Runs ``tetris-tt COMMAND ARGS --dispatch`` with its games on Ray; returns the command's
    exit status. Its own output (the summary, the tuned weights) goes to ``out``."""
    if command not in ("versus", "tune"):
        raise UsageError(f"{command!r}: the commands that hand out games are versus and tune")
    options.check()
    if ray.is_initialized() and options.node_binary is None:
        raise UsageError(
            "Ray is already initialised in this process, so the binary cannot join its runtime environment: give node_binary, a path every node has"
        )
    # Ray starts at the first request: a command that fails on its arguments, or a resumed
    # match that has all its games, needs none.
    runner, started, shipped = None, False, None
    proc = subprocess.Popen(
        [options.binary, command, *args, "--dispatch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    try:
        for line in proc.stdout:
            request = request_of(line)
            if request is None:
                out.write(line)
                out.flush()
                continue
            if runner is None:
                remote_binary, started, shipped = start_ray(options)
                runner = Runner(options, err, remote_binary)
            try:
                runner.serve(request, proc)
            except _Stopped:
                pass
            except _Failed:
                # No more games are coming: the command says so and stops, keeping its
                # checkpoint.
                proc.stdin.close()
    finally:
        if not proc.stdin.closed:
            try:
                proc.stdin.close()
            except OSError:
                pass
        code = proc.wait()
        if started:
            ray.shutdown()
        if shipped:
            shutil.rmtree(shipped, ignore_errors=True)
    return code
