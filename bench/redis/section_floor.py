#!/usr/bin/env python3
"""Where a lone firing's redis-server instructions go, counted by valgrind (callgrind): the floor of a firing record.

A cluster node at 10,000 firings/s over 256 partitions records about one firing per partition per turn, so nearly
every firing is a section of its own (bench/redis/script_cost.py, 256 partitions). The store sends a call of such
sections only as lone_multi.lua, without write_multi.lua's section frame; this takes a write_multi.lua call of them
apart (what the frame costs), each step a variant of this checkout's scripts measured on one redis-server:

  full          8 firings a call, each its own partition's section (script_cost.py's create+fire less its create)
  no fire body  the same with fire.lua's lone path returning at once: the call, the arguments, write_multi's
                section frame (argument tables, the lease read, pcall, the reply)
  no sections   write_multi returning at once: the call and its arguments only
  no XADD       the full call without the firing's log entry (what one stream entry costs)

and, apart, an EVALSHA of `return 1` with 1 and with 171 arguments: what one argument costs Redis (parsed, made a
Lua string, collected). Per firing, the differences give: the call and its arguments, the section frame, the body
(its redis.calls and Lua), and the XADD.

Usage: bench/redis/section_floor.py [--turns 300]
Needs: valgrind, redis-server, python3; run from the repository root (hold /tmp/tickwheel-measure.lock: valgrind
counts do not depend on the machine's load, but its CPU use disturbs other measurements).
"""
import argparse, os, shutil, subprocess, sys, tempfile

import script_cost as sc

PER_CALL = 8
PARTS = 256


def variant(src, dst, file, old, new):
    """A copy of the script directory `src` in `dst` with `old` replaced by `new` in `file` (which must hold it)."""
    shutil.copytree(src, dst)
    p = os.path.join(dst, file)
    with open(p) as fh:
        s = fh.read()
    if old not in s:
        sys.exit('%s no longer holds the text this variant replaces: %r' % (file, old[:60]))
    with open(p, 'w') as fh:
        fh.write(s.replace(old, new, 1))
    return dst


def lone_firings(c, vpid, body, turns):
    """Instructions per firing: script_cost's create+fire less its create, PER_CALL firings a call, each its own
    partition's section."""
    return (sc.measure(c, vpid, body, PARTS, PER_CALL, turns, 'fire')
            - sc.measure(c, vpid, body, PARTS, PER_CALL, turns, None))


def per_argument(c, vpid, calls=300):
    sha = c.call('SCRIPT', 'LOAD', 'return 1')

    def run(n):
        args = ['{tw:p:%d}:timers' % i for i in range(n)]

        def work():
            for _ in range(calls):
                c.call('EVALSHA', sha, 0, *args)
        return sc.instructions(vpid, work) / calls
    one, many = run(1), run(171)
    return one, (many - one) / 170


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--turns', type=int, default=300)
    a = ap.parse_args()
    src = os.path.join(sc.ROOT, sc.SCRIPTS)
    tmp = tempfile.mkdtemp(prefix='tickwheel-section-floor.')
    no_body = variant(src, os.path.join(tmp, 'no-body'), 'fire.lua', "if n == 1 then\n",
                      "if n == 1 then\n  do return {0, '', ''} end\n")
    no_sections = variant(src, os.path.join(tmp, 'no-sections'), 'write_multi.lua', "local t = redis.call('TIME')",
                          "do return {} end\nlocal t = redis.call('TIME')")
    no_xadd = variant(src, os.path.join(tmp, 'no-xadd'), 'fire_one.lua',
                      "    redis.call('XADD', log, string.format('%d-0', seq), 'f', A[o + 4], 't', t, 'p', pseg)\n"
                      "    if A[o + 7]", "    if A[o + 7]")
    v, c = sc.start_redis(tmp)
    try:
        base, arg = per_argument(c, v.pid)
        r = {}
        for name, d in (('full', src), ('no fire body', no_body), ('no sections', no_sections),
                        ('no XADD', no_xadd)):
            r[name] = lone_firings(c, v.pid, sc.multi_body(d), a.turns)
        print('redis-server instructions (valgrind), %d calls of %d lone firings, %d partitions; %s' % (
            a.turns, PER_CALL, PARTS, subprocess.run(['redis-server', '--version'], capture_output=True,
                                                     text=True).stdout.split(' ')[2]))
        print('EVALSHA of "return 1": %.0f with one argument, %.0f per further argument' % (base, arg))
        for name in r:
            print('%-14s %9.0f per firing' % (name, r[name]))
        print('per firing: call and arguments %.0f, section frame %.0f, fire body %.0f (its XADD %.0f)' % (
            r['no sections'], r['no fire body'] - r['no sections'], r['full'] - r['no fire body'],
            r['full'] - r['no XADD']))
    finally:
        v.terminate()
        v.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
