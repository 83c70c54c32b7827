"""A match or tuning run on Ray gives the results of the same command on one machine, bit for
bit, at any number of workers, and survives lost workers and bad batches.

The in-process tests share one local Ray instance and name the binary by its path
(``node_binary``, as on a cluster whose nodes all have it); the command-line test starts its
own Ray instance and ships the binary in the job's runtime environment. Faults are made by
small wrapper scripts around the real binary, each firing once (a directory made with mkdir
marks that it fired).
"""

import io
import json
import os
import pathlib
import stat
import subprocess
import sys

import pytest

from tetris_tt_cluster import BadBatch, Options, check_batch, run, slices

MATCH = ["--a", "a.json", "--b", "b.json", "--rules-file", "rules.json", "--json"]
WALL = ("wall_seconds", "games_per_minute", "speed_vs_real_time", "resumed")


def plain(binary, args):
    """tetris-tt's own output for ``args`` (run in the current directory)."""
    out = subprocess.run([binary, *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def cluster(binary, command, args, node_binary=None, **kw):
    """The runner's exit status, output and standard error for ``command args``."""
    out, err = io.StringIO(), io.StringIO()
    code = run(command, args, Options(binary=binary, node_binary=node_binary or binary, **kw), out, err)
    return code, out.getvalue(), err.getvalue()


def games_of(summary):
    """A summary without what depends on the wall clock."""
    v = json.loads(summary)
    for k in WALL:
        v.pop(k, None)
    return v


def wrapper(directory, binary, name, fault):
    """A script that runs ``fault`` (shell) the first time it is asked for a batch, and is
    ``binary`` otherwise."""
    path = pathlib.Path(directory) / name
    mark = pathlib.Path(directory) / f"{name}.fired"
    path.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = batch ] && mkdir "{mark}" 2>/dev/null; then\n{fault}\nfi\n'
        f'exec "{binary}" "$@"\n'
    )
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.mark.parametrize("workers", [1, 2, 4])
def test_a_match_on_ray_is_the_match_played_here(binary, local_ray, scratch, monkeypatch, workers):
    monkeypatch.chdir(scratch)
    here = plain(binary, ["versus"] + MATCH + ["--games", "8", "--checkpoint", "here.jsonl"])
    code, out, err = cluster(binary, "versus", MATCH + ["--games", "8", "--checkpoint", "there.jsonl"], workers=workers)
    assert code == 0, err
    assert games_of(out) == games_of(here)
    assert (scratch / "there.jsonl").read_bytes() == (scratch / "here.jsonl").read_bytes()


def test_a_resumed_match_on_ray_asks_only_for_the_games_it_lacks(binary, local_ray, scratch, monkeypatch):
    monkeypatch.chdir(scratch)
    code, _, err = cluster(binary, "versus", MATCH + ["--games", "4", "--checkpoint", "m.jsonl"], workers=2)
    assert code == 0, err
    # The first four games are not played again: a binary that cannot play them would fail.
    spy, spy_log = scratch / "spy", scratch / "spy.log"
    spy.write_text(f'#!/bin/sh\necho "$@" >> "{spy_log}"\nexec "{binary}" "$@"\n')
    spy.chmod(0o755)
    code, out, err = cluster(binary, "versus", MATCH + ["--games", "8", "--checkpoint", "m.jsonl"], node_binary=str(spy),
                             workers=2, pairs_per_task=2)
    assert code == 0, err
    played = sorted(line.split("--first ")[1].split()[0] for line in spy_log.read_text().splitlines())
    assert played == ["4"], played
    whole = plain(binary, ["versus"] + MATCH + ["--games", "8"])
    assert games_of(out) == games_of(whole)


def test_an_sprt_on_ray_stops_where_the_match_played_here_stops(binary, local_ray, scratch, monkeypatch):
    monkeypatch.chdir(scratch)
    args = ["--a", "a.json", "--b", "weak.json", "--rules-file", "long.json", "--json",
            "--games", "400", "--sprt=-50,50", "--alpha", "0.2", "--beta", "0.2"]
    here = games_of(plain(binary, ["versus", *args]))
    assert here["games"] < 400 and here["sprt"]["verdict"] != "continue", "the test must decide early"
    code, out, err = cluster(binary, "versus", args, workers=4)
    assert code == 0, err
    assert games_of(out) == here


def test_a_lost_worker_and_a_killed_batch_are_played_again(binary, local_ray, scratch, monkeypatch):
    monkeypatch.chdir(scratch)
    here = plain(binary, ["versus"] + MATCH + ["--games", "6", "--checkpoint", "here.jsonl"])
    # The Ray worker running the task dies (its batch's parent process is killed).
    lost = wrapper(scratch, binary, "lose-worker", "kill -9 $PPID; sleep 10; exit 1")
    code, out, err = cluster(binary, "versus", MATCH + ["--games", "6", "--checkpoint", "lost.jsonl"],
                             node_binary=lost, workers=2)
    assert code == 0, err
    assert "the worker running them was lost; playing them again (attempt 2 of 3)" in err, err
    assert games_of(out) == games_of(here)
    assert (scratch / "lost.jsonl").read_bytes() == (scratch / "here.jsonl").read_bytes()
    # The batch itself is killed.
    killed = wrapper(scratch, binary, "kill-batch", "kill -9 $$")
    code, out, err = cluster(binary, "versus", MATCH + ["--games", "6"], node_binary=killed, workers=2)
    assert code == 0, err
    assert "exited with status -9" in err and "playing them again" in err, err
    assert games_of(out) == games_of(here)


def test_a_batch_that_prints_something_else_is_reported_and_never_merged(binary, local_ray, scratch, monkeypatch):
    monkeypatch.chdir(scratch)
    here = plain(binary, ["versus"] + MATCH + ["--games", "6", "--checkpoint", "here.jsonl"])
    junk = wrapper(scratch, binary, "junk", f'"{binary}" "$@" | sed "1s/^/x/"; exit 0')
    code, out, err = cluster(binary, "versus", MATCH + ["--games", "6", "--checkpoint", "junk.jsonl"],
                             node_binary=junk, workers=2)
    assert code == 0, err
    assert "line 1 is not JSON" in err and "playing them again" in err, err
    assert games_of(out) == games_of(here)
    assert (scratch / "junk.jsonl").read_bytes() == (scratch / "here.jsonl").read_bytes()


def test_a_slice_that_always_fails_stops_the_run_with_its_games_kept(binary, local_ray, scratch, monkeypatch, capfd):
    monkeypatch.chdir(scratch)
    # Games 0-1 play; every later batch fails.
    failing = scratch / "failing"
    failing.write_text(
        '#!/bin/sh\ncase "$*" in *"--first 0 "*) ;; *) echo "no games today" >&2; exit 3;; esac\n'
        f'exec "{binary}" "$@"\n'
    )
    failing.chmod(0o755)
    code, out, err = cluster(binary, "versus", MATCH + ["--games", "6", "--checkpoint", "cut.jsonl"],
                             node_binary=str(failing), workers=1, attempts=2)
    assert code != 0
    assert "games 2-3: tetris-tt batch exited with status 3: no games today; failed 2 times, stopping" in err, err
    # The command's own error (its standard error is the runner's).
    command_err = capfd.readouterr().err
    assert "tetris-tt: the runner closed its answers before game 2" in command_err, command_err
    assert out == ""
    assert len((scratch / "cut.jsonl").read_text().splitlines()) == 1 + 2
    # The match resumes from what was kept, to the match played here.
    resumed = plain(binary, ["versus"] + MATCH + ["--games", "6", "--checkpoint", "cut.jsonl"])
    assert games_of(resumed) == games_of(plain(binary, ["versus"] + MATCH + ["--games", "6"]))


@pytest.mark.parametrize("workers", [1, 2, 4])
def test_a_tuning_step_on_ray_is_the_step_played_here(binary, local_ray, scratch, monkeypatch, workers):
    monkeypatch.chdir(scratch)
    args = lambda run_dir: ["--engine", "a.json", "--rules-file", "rules.json", "--steps", "2", "--pairs", "3",
                            "--params", "holes,height", "--dir", run_dir]
    here = plain(binary, ["tune", *args("here")])
    code, out, err = cluster(binary, "tune", args("there"), workers=workers)
    assert code == 0, err
    assert out == here
    for name in ("checkpoint.json", "weights.svg"):
        assert (scratch / "there" / name).read_bytes() == (scratch / "here" / name).read_bytes(), name

    def log(run_dir):
        lines = [json.loads(line) for line in (scratch / run_dir / "log.jsonl").read_text().splitlines()]
        for line in lines:
            line.pop("seconds")
        return lines

    assert log("there") == log("here")
    # And it resumes on Ray from the files written here.
    plain(binary, ["tune", *args("here")])
    code, _, err = cluster(binary, "tune", args("there"), workers=2)
    assert code == 0, err
    assert (scratch / "there" / "checkpoint.json").read_bytes() == (scratch / "here" / "checkpoint.json").read_bytes()


def test_the_command_line_ships_the_binary_and_prints_the_summary(binary, scratch):
    here = subprocess.run([binary, "versus", *MATCH, "--games", "4"], cwd=scratch, capture_output=True, text=True)
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(__file__).resolve().parents[1]))
    there = subprocess.run(
        [sys.executable, "-m", "tetris_tt_cluster", "--binary", binary, "--workers", "2", "versus", *MATCH, "--games", "4"],
        cwd=scratch, capture_output=True, text=True, env=env, timeout=300,
    )
    assert there.returncode == 0, there.stderr
    assert games_of(there.stdout) == games_of(here.stdout)
    # Bad options are one line and status 2.
    for bad, says in ([["--binary", binary, "--workers", "0", "versus"], "workers must be"],
                      [["--binary", "/no/such/tetris-tt", "versus"], "not an executable file"],
                      [["play"], "invalid choice"],
                      # The command's own bad argument, before any Ray instance starts.
                      [["--binary", binary, "versus", "--bogus"], "unexpected argument '--bogus'"]):
        r = subprocess.run([sys.executable, "-m", "tetris_tt_cluster", *bad], cwd=scratch, capture_output=True,
                           text=True, env=env, timeout=60)
        assert r.returncode == 2, (bad, r.stderr)
        assert says in r.stderr, (bad, r.stderr)


def test_slices_are_whole_pairs_counted_from_game_zero():
    assert slices(0, 6, 2) == [(0, 2), (2, 2), (4, 2)]
    assert slices(3, 6, 4) == [(3, 1), (4, 4), (8, 1)]
    assert slices(5, 1, 2) == [(5, 1)]


def test_a_batch_is_checked_line_by_line():
    good = '{"index": 4, "sides": []}\n{"index": 5, "sides": []}\n'
    assert check_batch((0, good, ""), 4, 2) == good.splitlines()
    for result, says in [((1, "", "oops\nboom\n"), "status 1: boom"),
                         ((0, good, ""), "is game 4, not game 6"),
                         ((0, good.splitlines()[0] + "\n", ""), "printed 1 lines for 2 games"),
                         ((0, "{\n" + good.splitlines()[1] + "\n", ""), "line 1 is not JSON"),
                         ((0, '[1]\n{"index": 5, "sides": []}\n', ""), "line 1 is not a game record")]:
        first = 6 if "not game 6" in says else 4
        with pytest.raises(BadBatch, match=says.replace("(", r"\(")):
            check_batch(result, first, 2)
