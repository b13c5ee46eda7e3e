#!/usr/bin/env python3
"""usilog.py: run a USI engine behind a proxy that logs its dialogue, and read both engines' scores back.

Usage:
  usilog.py LOGDIR CMD [ARGS...]      run CMD, copying every line both ways to LOGDIR/<time>-<pid>.log
  usilog.py --scores OURLOG THEIRLOG  per game and ply, the mover's last score (Black's view), depth, nodes, pv

As an engine of rpshogi match: cmd=usilog.py arg=LOGDIR arg=ENGINE (the match
records keep only the nodes of each move). Lines written to the engine are
logged with "> ", lines read from it with "< ". --scores splits each log at
usinewgame (one process plays the games in order) and pairs the two logs'
games in order; a mate score is printed as +-30000.
"""
import os
import subprocess
import sys
import threading
import time


def proxy(logdir, cmd):
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    log = open(os.path.join(logdir, "%d-%d.log" % (int(time.time()), os.getpid())), "a", buffering=1)
    lock = threading.Lock()

    def out():
        for line in p.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            with lock:
                log.write("< " + line)
        sys.stdout.close()

    t = threading.Thread(target=out, daemon=True)
    t.start()
    try:
        for line in sys.stdin:
            with lock:
                log.write("> " + line)
            p.stdin.write(line)
            p.stdin.flush()
    except (BrokenPipeError, ValueError):
        pass
    try:
        p.stdin.close()
    except BrokenPipeError:
        pass
    p.wait()
    t.join(1)
    return p.returncode


def parse(path):
    games, pos, last = [], None, None
    for line in open(path):
        d, l = line[:1], line[2:].strip()
        w = l.split()
        if d == ">" and w[:1] == ["usinewgame"]:
            games.append({})
        elif d == ">" and w[:1] == ["position"]:
            pos = l
        elif d == "<" and w[:1] == ["info"] and "score" in w:
            last = w
        elif d == "<" and w[:1] == ["bestmove"] and games and pos:
            ws = pos.split()
            n = len(ws) - ws.index("moves") - 1 if "moves" in ws else 0
            black = (ws[1] == "startpos" or ws[ws.index("sfen") + 2] == "b") == (n % 2 == 0)
            e = dict(sc=None, dep="", nodes="", move=w[1], pv="", black=black)
            if last:
                i = last.index("score")
                kind, v = last[i + 1], last[i + 2]
                sc = int(v) if kind == "cp" else (-30000 if v.startswith("-") else 30000)
                e["sc"] = sc if black else -sc
                for k in ("depth", "nodes"):
                    if k in last:
                        e[k[:3] if k == "depth" else k] = last[last.index(k) + 1]
                if "pv" in last:
                    e["pv"] = " ".join(last[last.index("pv") + 1:][:10])
            games[-1][n] = e
            last = None
    return games


def scores(ours, theirs):
    for g, (a, b) in enumerate(zip(parse(ours), parse(theirs)), 1):
        print("=== game", g)
        for n in sorted(set(a) | set(b)):
            e, who = (a[n], "ours  ") if n in a else (b[n], "theirs")
            print("%3d %s %s %-6s %6s d=%-3s n=%-7s pv=%s" % (
                n + 1, "B" if e["black"] else "W", who, e["move"], e["sc"], e["dep"], e["nodes"], e["pv"]))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--scores":
        scores(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 3:
        sys.exit(proxy(sys.argv[1], sys.argv[2:]))
    else:
        sys.exit(__doc__)
