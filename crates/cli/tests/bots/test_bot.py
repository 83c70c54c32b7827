#!/usr/bin/env python3
"""A small TBP bot for testing front ends: it plays random legal moves, or misbehaves on purpose.

Usage: test_bot.py MODE [N]

    random        answer every suggest with all plain hard drops of the current piece, shuffled
                  (the front end plays the first its move generator accepts)
    crash N       play randomly, then exit at the N-th suggest
    hang N        play randomly, then never answer the N-th suggest (and ignore stop and quit)
    illegal N     play randomly, then answer the N-th suggest with a move off the board
    junk N        play randomly, then print a line that is not JSON at the N-th suggest
    wrong N       play randomly, then answer the N-th suggest with a piece not in the queue
    slow N        play randomly, answering every suggest N ms late

The rotation centre and cell offsets are those of the protocol's frame (SRS, y up).
"""
import json
import random
import sys
import time

NORTH = {
    "I": [(-1, 0), (0, 0), (1, 0), (2, 0)],
    "O": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "T": [(-1, 0), (0, 0), (1, 0), (0, 1)],
    "L": [(-1, 0), (0, 0), (1, 0), (1, 1)],
    "J": [(-1, 0), (0, 0), (1, 0), (-1, 1)],
    "S": [(-1, 0), (0, 0), (0, 1), (1, 1)],
    "Z": [(-1, 1), (0, 1), (0, 0), (1, 0)],
}
ORIENTATIONS = ["north", "east", "south", "west"]


def cells(piece, orientation, x, y):
    out = []
    for dx, dy in NORTH[piece]:
        for _ in range(ORIENTATIONS.index(orientation)):
            dx, dy = dy, -dx  # a clockwise turn
        out.append((x + dx, y + dy))
    return out


def fits(board, cs):
    return all(0 <= cx < 10 and 0 <= cy < 40 and not board[cy][cx] for cx, cy in cs)


def drops(board, piece):
    """Every hard drop of `piece` a plain route reaches from its spawn position (4, 19), or one
    row higher when that is taken: a turn in place (a half turn through east or west), shifts
    along the spawn row, a hard drop. Each is a legal move; none at all when the piece cannot
    spawn. (orientation, x, y)"""
    spawn = next((y for y in (19, 20) if fits(board, cells(piece, "north", 4, y))), None)
    if spawn is None:
        return []
    out = []
    for o in ORIENTATIONS:
        if not fits(board, cells(piece, o, 4, spawn)):
            continue
        if o == "south" and not any(fits(board, cells(piece, t, 4, spawn)) for t in ("east", "west")):
            continue
        for x in range(-2, 12):
            step = 1 if x >= 4 else -1
            if not all(fits(board, cells(piece, o, sx, spawn)) for sx in range(4, x + step, step)):
                continue
            y = spawn
            while fits(board, cells(piece, o, x, y - 1)):
                y -= 1
            out.append((o, x, y))
    return out


def place(board, piece, orientation, x, y):
    for cx, cy in cells(piece, orientation, x, y):
        if 0 <= cx < 10 and 0 <= cy < 40:
            board[cy][cx] = True
    kept = [row for row in board if not all(row)]
    return kept + [[False] * 10 for _ in range(40 - len(kept))]


def move(piece, o, x, y):
    return {"location": {"type": piece, "orientation": o, "x": x, "y": y}, "spin": "none"}


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "random"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    rng = random.Random(7)
    board = [[False] * 10 for _ in range(40)]
    queue, hold = [], None
    asked = 0

    def say(msg):
        print(json.dumps(msg) if not isinstance(msg, str) else msg, flush=True)

    say({"type": "info", "name": "test bot", "version": "1", "author": "tetris-tt", "features": []})
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "rules":
            say({"type": "ready"})
        elif kind == "start":
            rows = msg["board"]
            board = [[cell is not None for cell in row] for row in rows]
            board += [[False] * 10 for _ in range(40 - len(board))]
            queue, hold = list(msg["queue"]), msg.get("hold")
        elif kind == "new_piece":
            queue.append(msg["piece"])
        elif kind == "play":
            loc = msg["move"]["location"]
            piece = loc["type"]
            if piece != queue[0]:
                if hold is None:
                    hold = queue.pop(0)
                else:
                    hold, queue[0] = queue[0], hold
            queue.pop(0)
            board = place(board, piece, loc["orientation"], loc["x"], loc["y"])
        elif kind == "suggest":
            asked += 1
            piece = queue[0]
            if mode not in ("random", "slow") and asked == n:
                if mode == "crash":
                    sys.exit(3)
                if mode == "hang":
                    while True:
                        time.sleep(60)
                if mode == "illegal":
                    say({"type": "suggestion", "moves": [move(piece, "north", 30, 30)]})
                    continue
                if mode == "junk":
                    say("thinking... done")
                    continue
                if mode == "wrong":
                    other = next(p for p in "IOTLJSZ" if p != piece and p != hold and p not in queue[1:2])
                    say({"type": "suggestion", "moves": [move(other, "north", 4, 20)]})
                    continue
            if mode == "slow":
                time.sleep(n / 1000)
            options = drops(board, piece)
            rng.shuffle(options)
            say({"type": "suggestion", "moves": [move(piece, o, x, y) for o, x, y in options]})
        elif kind == "stop":
            board, queue, hold = [[False] * 10 for _ in range(40)], [], None
        elif kind == "quit":
            return


if __name__ == "__main__":
    main()
