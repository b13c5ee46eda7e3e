#!/usr/bin/env python3
"""timeuse.py: how much of a byoyomi search is spent in iterations that never report.

Usage: timeuse.py BYOYOMI_MS SFENFILE ENGINE[,OPTION=VALUE...] [ENGINE...]

SFENFILE holds one game a line ("startpos moves ..."); the positions are
those after 40, 60 and 80 moves of each game long enough. For each
position, each engine (in turn, one process each) gets usinewgame,
position, isready, then "go btime 0 wtime 0 byoyomi B". From the write of
go, the script times every line read: an iteration's report is an info
line with a pv and without lowerbound/upperbound (a finished iteration);
a partial report is one with lowerbound (what an unfinished iteration
found). Per engine it prints the thinking time, the time after the last
finished iteration's report (unreported), and the time after the last
report of either kind, summed over the positions and as fractions, with
the median per position.
"""
import statistics
import subprocess
import sys
import time


def start(spec):
    path, *opts = spec.split(",")
    p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    send(p, "usi")
    wait(p, "usiok")
    for o in opts:
        name, value = o.split("=", 1)
        send(p, "setoption name %s value %s" % (name, value))
    send(p, "isready")
    wait(p, "readyok")
    return p


def send(p, line):
    p.stdin.write(line + "\n")
    p.stdin.flush()


def wait(p, word):
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("engine ended")
        if line.split()[:1] == [word]:
            return line


def think(p, pos, byoyomi):
    send(p, "usinewgame")
    send(p, "position " + pos)
    send(p, "isready")
    wait(p, "readyok")
    t0 = time.monotonic()
    send(p, "go btime 0 wtime 0 byoyomi %d" % byoyomi)
    last_exact = last_any = 0.0
    while True:
        line = p.stdout.readline()
        t = time.monotonic() - t0
        if not line:
            raise SystemExit("engine ended")
        w = line.split()
        if w[:1] == ["bestmove"]:
            return t, t - last_exact, t - last_any
        if w[:1] == ["info"] and "pv" in w:
            last_any = t
            if "lowerbound" not in w and "upperbound" not in w:
                last_exact = t


def main():
    byoyomi = int(sys.argv[1])
    games = [l.strip() for l in open(sys.argv[2]) if l.strip()]
    engines = sys.argv[3:]
    positions = []
    for g in games:
        w = g.split()
        moves = w[w.index("moves") + 1:] if "moves" in w else []
        for n in (40, 60, 80):
            if len(moves) > n + 2:
                positions.append(" ".join(w[:w.index("moves") + 1] + moves[:n]))
    procs = [start(e) for e in engines]
    res = [[] for _ in engines]
    for pos in positions:
        for i, p in enumerate(procs):
            res[i].append(think(p, pos, byoyomi))
    for e, p, r in zip(engines, procs, res):
        send(p, "quit")
        tot = sum(x[0] for x in r)
        unrep = sum(x[1] for x in r)
        unused = sum(x[2] for x in r)
        print("%s: %d positions, byoyomi %d ms: thinking %.2f s; after the last finished iteration %.2f s (%.1f%%, "
              "median %.3f s); after the last report of any kind %.2f s (%.1f%%, median %.3f s)" % (
                  e, len(r), byoyomi, tot, unrep, 100 * unrep / tot, statistics.median(x[1] for x in r),
                  unused, 100 * unused / tot, statistics.median(x[2] for x in r)))


if __name__ == "__main__":
    main()
