"""``tetris-tt-cluster``: a tetris-tt match or tuning run with its games on a Ray cluster."""

from __future__ import annotations

import argparse
import os
import shutil
import sys

from .runner import PREFIX, Options, UsageError, run

EXAMPLES = """examples:
  tetris-tt-cluster --binary target/release/tetris-tt versus --b old.json --games 400 --sprt 0,10 --checkpoint m.jsonl
  tetris-tt-cluster --address auto tune --steps 100 --pairs 64 --dir tune-run
Everything after the command is tetris-tt's own arguments (see tetris-tt versus --help)."""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="tetris-tt-cluster",
        allow_abbrev=False,
        description="Run tetris-tt versus or tune with their games played as Ray tasks: the same results as on one machine.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--binary", metavar="PATH",
                   help="tetris-tt on this machine, shipped to the workers (default: $TETRIS_TT, or tetris-tt on PATH)")
    p.add_argument("--node-binary", metavar="PATH",
                   help="a path to the same tetris-tt build that every node has (nothing is shipped)")
    p.add_argument("--address", metavar="ADDR",
                   help="the Ray cluster: auto, HOST:PORT or ray://HOST:10001 (default: a Ray instance on this machine)")
    p.add_argument("--workers", type=int, metavar="N", help="tasks at once (default: the cluster's CPUs)")
    p.add_argument("--pairs-per-task", type=int, default=1, metavar="K", help="game pairs per task (default 1)")
    p.add_argument("--cpus-per-task", type=int, default=1, metavar="C",
                   help="CPUs a task asks for; its batch plays that many games at once (default 1)")
    p.add_argument("--attempts", type=int, default=3, metavar="A",
                   help="times a slice of games is tried before the run stops (default 3)")
    p.add_argument("command", choices=COMMANDS, help="the tetris-tt command; every argument after it is its own")
    return p


COMMANDS = ["versus", "tune"]


def main(argv: list | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # The runner's options come before the command, tetris-tt's after it, untouched.
    at = next((i for i, word in enumerate(argv) if word in COMMANDS), len(argv))
    a = parser().parse_args(argv[: at + 1])
    a.args = argv[at + 1 :]
    binary = a.binary or os.environ.get("TETRIS_TT") or shutil.which("tetris-tt")
    if binary is None:
        print(f"{PREFIX}: no tetris-tt binary: give --binary PATH (cargo build --release -p cli builds target/release/tetris-tt)",
              file=sys.stderr)
        return 2
    options = Options(
        binary=binary,
        node_binary=a.node_binary,
        address=a.address,
        workers=a.workers,
        pairs_per_task=a.pairs_per_task,
        cpus_per_task=a.cpus_per_task,
        attempts=a.attempts,
    )
    try:
        return run(a.command, a.args, options)
    except UsageError as e:
        print(f"{PREFIX}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PREFIX}: interrupted; the command's checkpoint keeps the games merged so far", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
