#!/usr/bin/env python3
"""noderate.py NODES SFENFILE ENGINE... : nodes per CPU-second of each engine on the
positions after 40, 60 and 80 moves of each game (one engine process each, go nodes NODES).
CPU is the engine process's utime+stime from /proc, from the first go to the last bestmove."""
import os, subprocess, sys
def cpu(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
def send(p, s): p.stdin.write(s + "\n"); p.stdin.flush()
def wait(p, w):
    last = None
    while True:
        l = p.stdout.readline()
        if not l: raise SystemExit("engine ended")
        if l.startswith("info") and " nodes " in l: last = l
        if l.split()[:1] == [w]: return last
def run(spec, poss, n):
    path, *opts = spec.split(",")
    p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    send(p, "usi"); wait(p, "usiok")
    for o in opts:
        k, v = o.split("=", 1); send(p, "setoption name %s value %s" % (k, v))
    send(p, "setoption name USI_Hash value 64"); send(p, "isready"); wait(p, "readyok")
    nodes = 0; t0 = cpu(p.pid)
    for pos in poss:
        send(p, "usinewgame"); send(p, "position " + pos); send(p, "isready"); wait(p, "readyok")
        send(p, "go nodes %d" % n)
        info = wait(p, "bestmove").split()
        nodes += int(info[info.index("nodes") + 1])
    t = cpu(p.pid) - t0
    send(p, "quit"); p.wait()
    return nodes, t
n = int(sys.argv[1]); poss = []
for g in open(sys.argv[2]):
    mv = g.split()
    i = mv.index("moves")
    for k in (40, 60, 80):
        if len(mv) > i + k: poss.append(" ".join(mv[: i + 1 + k]))
for spec in sys.argv[3:]:
    nodes, t = run(spec, poss, n)
    print("%s\t%d positions\t%d nodes\t%.2f cpu-s\t%.0f nodes/cpu-s\tload %s" % (spec, len(poss), nodes, t, nodes / t, open("/proc/loadavg").read().split()[0]), flush=True)
