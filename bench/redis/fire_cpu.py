#!/usr/bin/env python3
"""redis-server CPU time per recorded firing against how many firings a call carries, with and without shared keys.

script_cost.py counts instructions; this times them. A redis-server of its own (no valgrind, no persistence), the
scripts of this checkout sent as WriteGroup sends a turn (script_cost.py's sections): every firing's timer is
created first, then the firings are recorded, --per-call a call, spread over --partitions partitions (a section per
partition in the call) or all in one (--partitions 1: every firing of a call shares one section and one set of keys,
the best a layout that shares keys between partitions could do). Prints the server's CPU (/proc utime + stime) over
the firing calls only, per firing. One client connection, calls one after the other: the CPU per call of a node's
connection under load (its syscalls and protocol) is in it once per call, as in a cluster.

Usage: bench/redis/fire_cpu.py [--per-call 3,32,1000] [--partitions 1,256] [--firings 60000]
Needs: redis-server, python3; run from the repository root.
"""
import argparse, os, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_cost as sc  # noqa: E402


def cpu_s(pid):
    f = open('/proc/%d/stat' % pid).read().rsplit(')', 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf('SC_CLK_TCK')


def run(c, pid, body, lean_s, parts, per_call, firings):
    c.call('FLUSHALL')
    sha = c.call('SCRIPT', 'LOAD', body)
    lean = (lean_s[0], c.call('SCRIPT', 'LOAD', lean_s[1]), lean_s[2]) if lean_s else None
    now = int(time.time() * 1000)
    for p in range(parts):
        c.call('HSET', sc.pk(p) + 'lease', 'epoch', '1', 'exp', str(now + 3_600_000))
        sc.multi(c, sha, [sc.create_section(p, ['far%d' % p], now + 10 ** 9, now)])
    calls = max(1, firings // per_call)
    plan = []
    for t in range(calls):
        by = sc.turn(t, per_call, parts)
        plan.append(by)
        sc.send(c, sha, lean, [sc.create_section(p, ids, now + t, now) for p, ids in by.items()])
    c0 = cpu_s(pid)
    for t, by in enumerate(plan):
        sc.send(c, sha, lean, [sc.fire_section(p, ids, now + t) for p, ids in by.items()])
    c1 = cpu_s(pid)
    left = sum(int(c.call('HLEN', sc.pk(p) + 'timers')) for p in range(parts))
    if left != parts:
        sys.exit('%d timers left after the firings, expected the %d far ones' % (left, parts))
    return (c1 - c0) * 1e6 / (calls * per_call)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--per-call', default='3,32,1000')
    ap.add_argument('--partitions', default='1,256')
    ap.add_argument('--firings', type=int, default=60000)
    a = ap.parse_args()
    d = os.path.join(sc.ROOT, sc.SCRIPTS)
    body, lean_s = sc.multi_body(d), sc.lean_scripts(d)
    tmp = tempfile.mkdtemp()
    proc, c = sc.start_redis(tmp, valgrind=False)
    try:
        print('redis-server CPU per recorded firing (µs), %d firings a row; %s' % (
            a.firings, c.call('INFO', 'server').decode().split('redis_version:')[1].split()[0]))
        print('%-10s %s' % ('per-call', ' '.join('%14s' % ('partitions ' + p) for p in a.partitions.split(','))))
        for n in (int(x) for x in a.per_call.split(',')):
            row = [run(c, proc.pid, body, lean_s, int(p), n, a.firings) for p in a.partitions.split(',')]
            print('%-10d %s' % (n, ' '.join('%14.2f' % v for v in row)), flush=True)
    finally:
        proc.kill()


if __name__ == '__main__':
    main()
