#!/usr/bin/env python3
"""Redis's own time per created timer, by command (INFO commandstats), for single creates as a cluster node sends them.

script_cost.py counts instructions, which do not see what a command waits for in memory: a create's ZADD into its
partition's due index and HSETNX into its timers hash each look their member up in a hash table and (ZADD) walk a
skip list, one cache and TLB miss after another once the keys outgrow the caches. This times them instead, on a
redis-server of its own: --calls calls of --per-call single creates (each in its own partition, one lone section per
create, as WriteGroup sends a turn of single POSTs to the owner) over --partitions partitions, due times increasing as
a steady load's are; the first half fills, the second is measured. Wall time inside Redis: run it on a quiet machine
(hold /tmp/tickwheel-measure.lock), and compare with `bench/cluster/throughput.sh --commandstats`, the same account
taken under a real cluster's load.

Each line: command, calls per create, microseconds per create, microseconds per call. A command a script issues is
counted on its own and inside the script's evalsha as well.

Usage: bench/redis/command_time.py [--partitions 256] [--per-call 10] [--calls 20000]
Needs: redis-server, python3; run from the repository root.
"""
import argparse, os, random, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_cost as sc  # noqa: E402  (its Conn, start_redis, scripts and sections)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--partitions', type=int, default=256)
    ap.add_argument('--per-call', type=int, default=10)
    ap.add_argument('--calls', type=int, default=20000)
    a = ap.parse_args()
    if a.partitions < 1 or a.per_call < 1 or a.calls < 2:
        sys.exit('--partitions and --per-call must be >= 1, --calls >= 2')
    d = os.path.join(sc.ROOT, sc.SCRIPTS)
    tmp = tempfile.mkdtemp(prefix='tickwheel-command-time.')
    proc, c = sc.start_redis(tmp, valgrind=False)
    try:
        sha = c.call('SCRIPT', 'LOAD', sc.multi_body(d))
        kind, lean_body, groups = sc.lean_scripts(d)
        lean = (kind, c.call('SCRIPT', 'LOAD', lean_body), groups)
        now = int(time.time() * 1000)
        for p in range(a.partitions):
            c.call('HSET', sc.pk(p) + 'lease', 'epoch', '1', 'exp', str(now + 3_600_000))
        rnd = random.Random(1)
        made = [0]

        def call():
            sections = []
            for _ in range(a.per_call):
                made[0] += 1
                k = made[0]
                # ids as bench/wrk/post.lua makes them; due in 1 h, later with every create
                ident = 'b1796033445-%09d-0-%d-%d' % (rnd.randrange(10 ** 9), k, rnd.randrange(30))
                sections.append(sc.create_section(rnd.randrange(a.partitions), [ident], now + 3_600_000 + k // 20,
                                                  now))
            sc.send(c, sha, lean, sections)

        for _ in range(a.calls // 2):
            call()
        c.call('CONFIG', 'RESETSTAT')
        t0 = time.time()
        for _ in range(a.calls // 2):
            call()
        elapsed = time.time() - t0
        n = a.calls // 2 * a.per_call
        version = subprocess.run(['redis-server', '--version'], capture_output=True, text=True).stdout.split(' ')[2]
        print('redis-server %s, %d partitions, %d creates measured in calls of %d (after as many), %.0f creates/s' % (
            version, a.partitions, n, a.per_call, n / elapsed))
        print('%-12s %12s %12s %12s' % ('command', 'calls/create', 'us/create', 'us/call'))
        rows = []
        for line in c.call('INFO', 'commandstats').decode().split('\r\n'):
            if line.startswith('cmdstat_') and not line.startswith('cmdstat_config'):
                name, rest = line[8:].split(':', 1)
                f = dict(x.split('=') for x in rest.split(','))
                rows.append((int(f['usec']) / n, name, int(f['calls']) / n, float(f['usec_per_call'])))
        for us, name, calls, per in sorted(rows, reverse=True):
            print('%-12s %12.3f %12.2f %12.2f' % (name, calls, us, per))
        print('per partition: %s timers, due index %s (%s)' % (
            c.call('HLEN', sc.pk(0) + 'timers'), c.call('ZCARD', sc.pk(0) + 'due'),
            c.call('OBJECT', 'ENCODING', sc.pk(0) + 'due').decode()))
    finally:
        proc.kill()


if __name__ == '__main__':
    main()
