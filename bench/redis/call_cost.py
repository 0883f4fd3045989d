#!/usr/bin/env python3
"""redis-server instructions per command issued from a Lua script, beside the same command sent as its own request.

A firing record, a create or a touch in the cluster's scripts is a handful of redis.call()s; this says what one costs,
so a script's count of calls can be turned into a floor for its cost. Each line: one script of --iterations
iterations doing one command each (EVALSHA, counted by valgrind's callgrind as script_cost.py counts), divided by the
iterations: the command's own work plus redis.call()'s (argument objects, the command's checks and dispatch, its reply
turned into Lua values). 'loop' is the loop alone. Last, a plain HGET per request and an EVALSHA of `return 1` per
request: what a request costs around its command.

Usage: bench/redis/call_cost.py [--iterations 2000]
Needs: valgrind (apt-get install valgrind), redis-server, python3; run from the repository root.
"""
import argparse, os, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_cost  # noqa: E402  (its Conn, start_redis and instructions)

# name -> Lua body run n times; KEYS: h (a hash of 2,000 fields of 60 bytes), c (a hash), n (a counter), x (a stream),
# z (a sorted set); c, n, x and z emptied before each script that adds (HSETNX, ZADD, INCR, XADD), so the removals
# after HSETNX and ZADD find what they remove
SCRIPTS = [
    ('loop', "local x = ARGV[1]"),
    ('TIME', "redis.call('TIME')"),
    ('INCR', "redis.call('INCR', KEYS[3])"),
    ('HGET', "redis.call('HGET', KEYS[1], 'f' .. (i % 2000))"),
    ('HINCRBY', "redis.call('HINCRBY', KEYS[2], 'a', 1)"),
    ('HSETNX', "redis.call('HSETNX', KEYS[2], 'k' .. i, 'v')"),
    ('HDEL', "redis.call('HDEL', KEYS[2], 'k' .. i)"),
    ('ZADD', "redis.call('ZADD', KEYS[5], 0, 'm' .. i)"),
    ('ZREM', "redis.call('ZREM', KEYS[5], 'm' .. i)"),
    ('XADD', "redis.call('XADD', KEYS[4], string.format('%d-0', i), 'f', '1 2 3 abc', 't', 'bench', 'p', 'P{\"n\":1}')"),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--iterations', type=int, default=2000)
    a = ap.parse_args()
    n = a.iterations
    tmp = tempfile.mkdtemp(prefix='tickwheel-callcost.')
    proc, c = script_cost.start_redis(tmp)
    try:
        for i in range(2000):
            c.call('HSET', 'h', 'f%d' % i, 'x' * 60)
        print('redis-server instructions, %d iterations a script' % n)
        for name, line in SCRIPTS:
            if name in ('HSETNX', 'ZADD', 'INCR', 'XADD'):    # the removals after them find what they remove
                c.call('DEL', 'c', 'n', 'x', 'z')
            sha = c.call('SCRIPT', 'LOAD', 'for i = 1, %d do %s end' % (n, line))
            ins = script_cost.instructions(proc.pid, lambda: c.call('EVALSHA', sha, 5, 'h', 'c', 'n', 'x', 'z'))
            print('%-32s %8.0f' % ('redis.call ' + name if name != 'loop' else 'loop alone', ins / n))

        def plain():
            for i in range(n):
                c.call('HGET', 'h', 'f%d' % (i % 2000))
        print('%-32s %8.0f' % ('HGET, a request of its own', script_cost.instructions(proc.pid, plain) / n))
        sha = c.call('SCRIPT', 'LOAD', 'return 1')

        def evals():
            for _ in range(n):
                c.call('EVALSHA', sha, 0)
        print('%-32s %8.0f' % ('EVALSHA of return 1', script_cost.instructions(proc.pid, evals) / n))
    finally:
        proc.kill()


if __name__ == '__main__':
    main()
