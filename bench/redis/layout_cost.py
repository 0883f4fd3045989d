#!/usr/bin/env python3
"""Redis memory and redis-server work per pending timer: the store's layout beside a bucketed alternative.

The store keeps, per pending timer, one field of the `timers` hash (id -> record) and one member of the `due` sorted
set (16 hex digits of the due time + id). Each is an entry of a large hash table or skip list, with Redis's
per-entry overhead (dict entry, two sds strings, skip-list node). Redis stores small hashes and sorted sets
(<= 128 entries of <= 64 bytes, its defaults) as listpacks, a few bytes per entry. The alternative measured here
spreads the same data over small keys so that they stay listpacks:
  - records in 131,071 hashes chosen by a hash of the id (`t:B`),
  - the due index in one sorted set per second of due time (`d:SECOND`), plus a sorted set of the seconds that have
    timers (`dk`), to range over them in order.

Part 1 fills a private redis-server with --timers timers of each layout (generated inside Redis by a Lua script:
ids and records shaped like the load tool's `--scale` fill, due over the next 48 h) and prints `used_memory` per
timer. Part 2 counts the instructions redis-server executes (valgrind callgrind; they repeat within 1-2 % on a noisy
machine, where CPU time does not) per timer created by a create-if-absent script of 1,000 timers per call, written
for each layout as the store would have to: the store's layout reads, adds and sets a chunk of timers with one
variadic command each; the bucketed one needs one read, one write and one index write per timer, as nearly every
timer of a batch falls in a key of its own.

Usage: bench/redis/layout_cost.py [--timers 10000000] [--calls 100]
Needs: redis-server, valgrind (apt-get install valgrind), python3; run from the repository root.
"""
import argparse, os, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import script_cost  # noqa: E402  (its RESP connection and callgrind counter)

# KEYS[1] prefix; ARGV: first index, count, timers in all, base due (ms), now (ms). Builds ids "r1k2a-sp-I" and
# records as TimerRecord writes a plain once timer of topic loadtool without payload (the due time's 16 hex digits
# without TimerRecord's sign flip: the same length).
COMMON = r"""
local p = KEYS[1]
local first, count, total, base, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]),
  tonumber(ARGV[5])
local SPREAD = 172800000 - 600000
local function due_of(i)
  return base + math.floor(i * SPREAD / total)
end
local function record(h)
  return '1 0 ' .. h .. ' loadtool 0 0 0 0 1 ' .. now .. '\nN'
end
-- the store's layout: timers staged in set (HSET arguments) and add (ZADD arguments), written by flush
local set, add = {}, {}
local function stage(id, due)
  local h = string.format('%016x', due)
  set[#set + 1] = id
  set[#set + 1] = record(h)
  add[#add + 1] = 0
  add[#add + 1] = h .. id
end
local function flush()
  if #set > 0 then
    redis.call('ZADD', p .. 'due', unpack(add))
    redis.call('HSET', p .. 'timers', unpack(set))
    set, add = {}, {}
  end
end
-- the small keys: a record in its id's hash, the due member in its second's sorted set, the second in the index
local function bucket(id)
  local h = 0
  local b = {string.byte(id, 1, -1)}
  for i = 1, #b do
    h = (h * 257 + b[i]) % 131071
  end
  return h
end
local function put_small(rk, id, due)
  local h = string.format('%016x', due)
  redis.call('HSET', rk, id, record(h))
  local sec = tostring(math.floor(due / 1000))
  if redis.call('ZADD', p .. 'd:' .. sec, 0, h .. id) == 1 and redis.call('ZCARD', p .. 'd:' .. sec) == 1 then
    redis.call('ZADD', p .. 'dk', 0, sec)
  end
end
"""

FILL = {
    'store': COMMON + r"""
for i = first, first + count - 1 do
  stage('r1k2a-sp-' .. i, due_of(i))
  if #set >= 2000 then
    flush()
  end
end
flush()
return count
""",
    'buckets': COMMON + r"""
for i = first, first + count - 1 do
  local id = 'r1k2a-sp-' .. i
  put_small(p .. 't:' .. bucket(id), id, due_of(i))
end
return count
""",
}

# create-if-absent of ARGV[2] timers from ARGV[1] (the same shape), as each layout would run it
CREATE = {
    'store': COMMON + r"""
local ids = {}
for i = first, first + count - 1 do
  ids[#ids + 1] = 'r1k2a-sn-' .. i
end
local olds = redis.call('HMGET', p .. 'timers', unpack(ids))
for j = 1, #ids do
  if not olds[j] then
    stage(ids[j], due_of(first + j - 1))
  end
end
local n = #set / 2
flush()
redis.call('HINCRBY', p .. 'topic-counts', 'loadtool', n)
return n
""",
    'buckets': COMMON + r"""
local n = 0
for i = first, first + count - 1 do
  local id = 'r1k2a-sn-' .. i
  local rk = p .. 't:' .. bucket(id)
  if redis.call('HEXISTS', rk, id) == 0 then
    put_small(rk, id, due_of(i))
    n = n + 1
  end
end
redis.call('HINCRBY', p .. 'topic-counts', 'loadtool', n)
return n
""",
}


def fill(c, layout, total, now, step=10000):
    sha = c.call('SCRIPT', 'LOAD', FILL[layout])
    for first in range(0, total, step):
        c.call('EVALSHA', sha, 1, '{tw}:', first, min(step, total - first), total, now + 600000, now)


def used_memory(c):
    info = c.call('INFO', 'memory').decode()
    return int(next(l for l in info.splitlines() if l.startswith('used_memory:')).split(':')[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--timers', type=int, default=10_000_000)
    ap.add_argument('--calls', type=int, default=100)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix='tickwheel-layout-cost.')
    now = int(time.time() * 1000)
    print('%s; %d timers due over 48 h, ids like r1k2a-sp-1234567, records of ~50 bytes' % (
        subprocess.run(['redis-server', '--version'], capture_output=True, text=True).stdout.split(' ')[2],
        a.timers))
    mem = {}
    proc, c = script_cost.start_redis(tmp, valgrind=False)
    try:
        for layout in FILL:
            c.call('FLUSHALL')
            before = used_memory(c)
            fill(c, layout, a.timers, now)
            mem[layout] = (used_memory(c) - before) / a.timers
    finally:
        proc.terminate()
        proc.wait()
    cost = {}
    proc, c = script_cost.start_redis(tmp)
    try:
        for layout in CREATE:
            c.call('FLUSHALL')
            fill(c, layout, 100_000, now)
            sha = c.call('SCRIPT', 'LOAD', CREATE[layout])

            def work():
                for k in range(a.calls):
                    c.call('EVALSHA', sha, 1, '{tw}:', k * 1000, 1000, a.calls * 1000, now + 600000, now)
            cost[layout] = script_cost.instructions(proc.pid, work) / (a.calls * 1000)
    finally:
        proc.terminate()
        proc.wait()
    print('%-10s %22s %34s' % ('layout', 'used_memory B/timer', 'instructions per created timer'))
    for layout in FILL:
        print('%-10s %22.1f %34.0f' % (layout, mem[layout], cost[layout]))
    print('buckets / store: memory %.2fx, instructions %.2fx' % (
        mem['buckets'] / mem['store'], cost['buckets'] / cost['store']))


if __name__ == '__main__':
    main()
