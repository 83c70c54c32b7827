"""tetris-tt matches and tuning runs with their games played on a Ray cluster.

``tetris-tt versus`` and ``tetris-tt tune`` run on this machine as usual (their rules, SPRT,
checkpoint, summary, SPSA state, log and plot are theirs), but with ``--dispatch`` they hand
their games out instead of playing them; this package plays them as Ray tasks, each a
``tetris-tt batch`` over a slice of game pairs, and hands them back in game order. Same options,
same results, bit for bit, on one worker or a rack of them.

    from tetris_tt_cluster import Options, run

    code = run("versus", ["--b", "old.json", "--games", "400", "--sprt", "0,10",
                          "--checkpoint", "m.jsonl"],
               Options(binary="target/release/tetris-tt", address="auto"))

From the shell: ``tetris-tt-cluster --address auto versus --b old.json --games 400``.
See docs/cluster.md for a cluster's set-up and the protocol.
"""

from .runner import BadBatch, Options, UsageError, check_batch, run, slices

__all__ = ["BadBatch", "Options", "UsageError", "check_batch", "run", "slices"]
