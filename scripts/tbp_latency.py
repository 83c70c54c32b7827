#!/usr/bin/env python3
"""Measures how fast `tetris-tt tbp` answers `suggest`, over pipes, as a front end sees it.

Plays a 7-bag game as a TBP front end would: start, then for every piece suggest -> play the
first move -> new_piece, waiting between the play and the next suggest as an arena does
(the line-clear and spawn delays). Prints the median, 90th percentile and worst answer
latency in milliseconds, and how many answers came from each width of the bot's background
search (its `move_info`). Not a test: latencies and widths depend on the machine and its load.

    cargo build --release -p cli
    python3 scripts/tbp_latency.py --pieces 300 --gap-ms 28 -- target/release/tetris-tt tbp

With `--input-ms`, the front end sends `play` first and the new piece that much later, as an
arena does when the piece locks after its inputs; for 16 ms frames (9 input frames, 7 spawn
frames): `--input-ms 147 --gap-ms 112`.
"""
import argparse
import json
import random
import statistics
import subprocess
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pieces", type=int, default=300)
    ap.add_argument("--gap-ms", type=float, default=28.0,
                    help="wait between a play and the next suggest (7 spawn frames of 4 ms)")
    ap.add_argument("--input-ms", type=float, default=None,
                    help="send play first, then the new piece this much later (the piece's "
                         "inputs), then wait --gap-ms")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("bot", nargs="+", help="the bot command, after --")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    bag = []

    def next_piece():
        if not bag:
            bag.extend(rng.sample("IOTLJSZ", 7))
        return bag.pop()

    p = subprocess.Popen(args.bot, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)

    def send(msg):
        p.stdin.write(json.dumps(msg) + "\n")
        p.stdin.flush()

    p.stdout.readline()  # info
    send({"type": "rules", "randomizer": "seven_bag"})
    p.stdout.readline()  # ready
    queue = [next_piece() for _ in range(6)]
    send({"type": "start", "hold": None, "queue": queue, "combo": 0, "back_to_back": False,
          "board": [[None] * 10 for _ in range(40)]})
    latencies = []
    widths = {}
    hold = None
    for _ in range(args.pieces):
        time.sleep(args.gap_ms / 1000)
        t = time.perf_counter()
        send({"type": "suggest"})
        answer = json.loads(p.stdout.readline())
        latencies.append((time.perf_counter() - t) * 1000)
        if not answer["moves"]:
            break
        extra = answer.get("move_info", {}).get("extra", "")
        if extra.startswith("width "):
            w = int(extra.split()[1])
            widths[w] = widths.get(w, 0) + 1
        move = answer["moves"][0]
        piece = move["location"]["type"]
        # What the front end's queue does: a hold swaps, or takes the next piece first.
        taken = 1
        if piece != queue[0]:
            if hold is None:
                taken = 2
            hold = queue[0]
        queue = queue[taken:]
        if args.input_ms is not None:
            send({"type": "play", "move": move})
            time.sleep(args.input_ms / 1000)
        for _ in range(taken):
            n = next_piece()
            queue.append(n)
            send({"type": "new_piece", "piece": n})
        if args.input_ms is None:
            send({"type": "play", "move": move})
    send({"type": "quit"})
    p.wait()
    latencies.sort()
    print(json.dumps({
        "answers": len(latencies),
        "median_ms": round(statistics.median(latencies), 3),
        "p90_ms": round(latencies[int(0.9 * (len(latencies) - 1))], 3),
        "max_ms": round(latencies[-1], 3),
        "widths": {str(w): widths[w] for w in sorted(widths)},
        "median_width": statistics.median_low(
            [w for w in sorted(widths) for _ in range(widths[w])]) if widths else None,
    }))


if __name__ == "__main__":
    main()
