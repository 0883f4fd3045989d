#!/usr/bin/env python3
"""redis-server instructions per timer for the cluster's write_multi.lua calls, counted by valgrind (callgrind).

On a shared, noisy machine CPU time per operation swings by tens of percent between runs of one build; the count of
instructions redis-server executes does not (the same run twice differs by well under 1 %). This counts them for the
calls a cluster node makes per event-loop turn: a create call (createAbsent sections), a touch call (updateAll
sections) and a firing call (fire sections), with the turn's timers spread over --partitions partitions (a section
per partition, as WriteGroup sends them) or all in one. Each timer is created, then touched (or not), then fired once
and removed; every partition keeps one far timer of the topic, so its count never drops to 0, as in a loaded
partition. Columns: create alone; create and touch; create and fire.

The scripts come from a resource directory (default: this checkout's store-redis); --against REF also measures the
scripts of a git ref in the same run, so the two are compared on one redis-server. The write_multi body is put together
as Script.multiBody() does, and a turn's sections go as WriteGroup sends them (see lean_scripts; kept in step by
hand: this file is a benchmark, not a test).

Last, one trim.lua call (the firing log's trim, every 10 s per partition) on a log with nothing old enough to go, and
one trim_deliveries.lua call (the callbacks' delivery records' trim, every 10 s per partition) on 20,000 finished
deliveries, all recent and under the retained count (nothing goes).

Usage: bench/redis/script_cost.py [--turns 300] [--per-turn 8] [--partitions 256,1] [--against HEAD~1] [--trims-only]
Needs: valgrind (apt-get install valgrind), redis-server, python3; run from the repository root.
"""
import argparse, glob, os, socket, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = 'store-redis/src/main/resources/io/tickwheel/store/redis/'
SECTION_FILES = ["put.lua", "create_absent.lua", "update.lua", "update_all.lua", "remove.lua", "fire.lua"]


def multi_body(d):
    def res(f):
        with open(os.path.join(d, f)) as fh:
            return fh.read()
    counts = res('counts.lua')
    if os.path.exists(os.path.join(d, 'sections.lua')):    # and the shared parts of the sections once
        counts += res('fire_one.lua') + ''.join(res(f) for f in ('update_one.lua', 'create_group.lua', 'lone.lua',
                                                                 'lone_fire.lua')
                                                if os.path.exists(os.path.join(d, f))) + res('sections.lua')
    if 'tc_reset' in counts:        # counts.lua once, each section resets it
        b = counts + "local write_one = {}\n"
        for f in SECTION_FILES:
            b += "write_one['" + f[:-4] + "'] = function(KEYS, ARGV)\ntc_reset()\n" + res(f) + "\nend\n"
    else:                           # earlier layout: counts.lua inside every section
        b = "local write_one = {}\n"
        for f in SECTION_FILES:
            b += "write_one['" + f[:-4] + "'] = function(KEYS, ARGV)\n" + counts + res(f) + "\nend\n"
    return b + res('write_multi.lua')


class Conn:
    def __init__(self, port):
        self.s = socket.create_connection(('127.0.0.1', port))
        self.f = self.s.makefile('rb')

    def call(self, *args):
        out = [b'*%d\r\n' % len(args)]
        for a in args:
            a = a if isinstance(a, bytes) else str(a).encode()
            out.append(b'$%d\r\n%s\r\n' % (len(a), a))
        self.s.sendall(b''.join(out))
        return self.read()

    def read(self):
        line = self.f.readline()
        t, r = line[:1], line[1:-2]
        if t == b'-':
            raise RuntimeError(r.decode())
        if t in (b'+', b':'):
            return r.decode()
        if t == b'$':
            n = int(r)
            return None if n < 0 else self.f.read(n + 2)[:-2]
        if t == b'*':
            n = int(r)
            return None if n < 0 else [self.read() for _ in range(n)]
        raise RuntimeError('unexpected reply %r' % line)


def hexdue(d):
    return '%016x' % (d ^ (1 << 63))


def pk(p):
    return '{tw:p:%d}:' % p


def create_keys(p):
    return [pk(p) + x for x in ('timers', 'due', 'topic-counts', 'topics', 'lease')]


def fire_keys(p):
    return [pk(p) + x for x in ('timers', 'due', 'seq', 'log', 'dlv', 'dlv:pending', 'dlv:all', 'topic-counts',
                                'topics', 'lease')]


def record(due, now):
    return '1 0 %s bench once fire 0 0 0 %d\nP{"n":1}' % (hexdue(due), now)


def create_section(p, ids, due, now):
    args = [1, 'bench', '0', len(ids)] + ids + [x for i in ids for x in (0, hexdue(due) + i)] \
        + [x for i in ids for x in (i, record(due, now))]
    ks = create_keys(p)
    return ks, ['create_absent', '1', len(ks) - 1, len(args)] + args


def touch_section(p, ids, due, now):
    args = []
    for i in ids:
        args += [i, '1', hexdue(due + 1) + i, record(due + 1, now).split('\n')[0]]
    ks = create_keys(p)
    # as RedisTimers.updateAll sends it: one item as update.lua, more as update_all.lua (same argument layout); a ref
    # given with --against is measured the same way, whatever its Java side sent
    name = 'update' if len(ids) == 1 else 'update_all'
    return ks, [name, '1', len(ks) - 1, len(args)] + args


def fire_section(p, ids, due):
    args = []
    for i in ids:
        args += [i, '1', '0', '1 %d %d %s' % (due, due, i), '', '', '']
    ks = fire_keys(p)
    return ks, ['fire', '1', len(ks) - 1, len(args)] + args


def lean_scripts(d):
    """How WriteGroup sends a turn's small sections with the scripts in d: ('lone', body of fire_multi.lua, whether a
    create of one topic's timers is a lone section) when lone.lua exists (lone sections inside write_multi.lua; a call
    of lone firing records only as fire_multi.lua), ('fire', body of fire_multi.lua, False) for scripts of 2026-11-29
    before it (a call of firing records of at most four requests each as fire_multi.lua, epoch first), None for older
    ones."""
    def body(files):
        return ''.join(open(os.path.join(d, f)).read() for f in files)
    if os.path.exists(os.path.join(d, 'lone_fire.lua')):     # fire_multi.lua defines the lone firing only
        return 'lone', body(('counts.lua', 'fire_one.lua', 'lone_fire.lua', 'sections.lua', 'fire_multi.lua')), True
    if os.path.exists(os.path.join(d, 'lone.lua')):
        return 'lone', body(tuple(f for f in ('counts.lua', 'fire_one.lua', 'update_one.lua', 'create_group.lua',
                                              'lone.lua', 'sections.lua', 'fire_multi.lua')
                                  if os.path.exists(os.path.join(d, f)))), \
            os.path.exists(os.path.join(d, 'create_group.lua'))
    if os.path.exists(os.path.join(d, 'fire_multi.lua')):
        return 'fire', body(('counts.lua', 'fire_one.lua', 'sections.lua', 'fire_multi.lua')), False
    return None


def lone_section(ks, a, groups):
    """A section (its keys, and write_multi.lua's name, epoch, k, n, args) as WriteGroup sends it with lone.lua: a
    create of one timer, a touch or a firing record of at most four requests as a lone section (tag, epoch,
    arguments), and with groups (create_group.lua) a create of one topic's timers too; anything else unchanged."""
    name, epoch, args = a[0], a[1], a[4:]
    if name == 'fire' and len(args) <= 4 * 7:
        return ks, [len(args) // 7, epoch] + args
    if name == 'create_absent' and len(args) == 9:
        return ks, ['c', epoch, args[1], args[2], args[4], args[6], args[8]]
    if name == 'create_absent' and str(args[0]) == '1' and groups:
        return ks, ['g', epoch] + args[1:]
    if name == 'update' and len(args) == 4:
        return ks, ['u', epoch] + args
    return ks, a


def send(c, sha, lean, sections):
    """One call of `sections` as WriteGroup sends it; lean: (kind, sha of fire_multi.lua, groups) as lean_scripts
    says, or None."""
    few_firings = len(sections) > 1 and all(a[0] == 'fire' and len(a) - 4 <= 4 * 7 for ks, a in sections)
    if lean and few_firings:
        head = (lambda a: [(len(a) - 4) // 7, a[1]]) if lean[0] == 'lone' else (lambda a: [a[1], (len(a) - 4) // 7])
        multi(c, lean[1], [(ks, head(a) + a[4:]) for ks, a in sections])
    elif lean and lean[0] == 'lone':
        multi(c, sha, [lone_section(ks, a, lean[2]) for ks, a in sections])
    else:
        multi(c, sha, sections)


def multi(c, sha, sections):
    keys, argv = [], [len(sections)]
    for ks, a in sections:
        keys += ks
        argv += a
    r = c.call('EVALSHA', sha, len(keys), *keys, *argv)
    # per section {status, reply} (scripts before the flat reply), or status, reply, status, reply, ...
    for status in ([x[0] for x in r] if r and isinstance(r[0], list) else r[0::2]):
        if status != b'OK':
            raise RuntimeError(status.decode())


def instructions(vpid, work):
    """Instructions redis-server executed during work(), from a callgrind dump."""
    subprocess.run(['callgrind_control', '-z', str(vpid)], capture_output=True, check=True)
    work()
    before = set(glob.glob(OUT + '*'))
    subprocess.run(['callgrind_control', '--dump=m', str(vpid)], capture_output=True, check=True)
    for _ in range(100):
        new = set(glob.glob(OUT + '*')) - before
        if new:
            break
        time.sleep(0.1)
    f = max(new, key=os.path.getmtime)
    for _ in range(50):
        with open(f) as fh:
            for line in fh:
                if line.startswith('summary:'):
                    return int(line.split()[1])
        time.sleep(0.1)
    raise RuntimeError('no summary in ' + f)


def turn(t, per_turn, parts):
    """Turn t's timer ids ('t<t>_<i>') by partition: spread over every partition when there are no more than per_turn,
    else one partition each, scattered."""
    by = {}
    for i in range(per_turn):
        by.setdefault(i % parts if parts <= per_turn else (t * per_turn + i) * 7919 % parts, []) \
            .append('t%d_%d' % (t, i))
    return by


def measure(c, vpid, body, parts, per_turn, turns, then, lean_script=None):
    """Instructions per timer, a turn's sections sent as WriteGroup sends them (lean_script: see lean_scripts)."""
    c.call('FLUSHALL')
    sha = c.call('SCRIPT', 'LOAD', body)
    lean = (lean_script[0], c.call('SCRIPT', 'LOAD', lean_script[1]), lean_script[2]) if lean_script else None
    now = int(time.time() * 1000)
    for p in range(parts):
        c.call('HSET', pk(p) + 'lease', 'epoch', '1', 'exp', str(now + 3_600_000))
        multi(c, sha, [create_section(p, ['far%d' % p], now + 10 ** 9, now)])

    def work():
        for t in range(turns):
            by = turn(t, per_turn, parts)
            due = now + t
            send(c, sha, lean, [create_section(p, ids, due, now) for p, ids in by.items()])
            if then == 'touch':
                send(c, sha, lean, [touch_section(p, ids, due, now) for p, ids in by.items()])
            elif then == 'fire':
                send(c, sha, lean, [fire_section(p, ids, due) for p, ids in by.items()])
    return instructions(vpid, work) / (turns * per_turn)


def trim_cost(c, vpid, body, entries=2000, calls=50):
    """Instructions of one trim.lua call on a log of `entries` recent firings (7-day retention: nothing goes)."""
    c.call('FLUSHALL')
    now = int(time.time() * 1000)
    for i in range(1, entries + 1):
        c.call('XADD', 'log', '%d-0' % i, 'f', '1 %d %d t%d' % (now, now, i), 't', 'bench', 'p', 'P{"n":1}')
    sha = c.call('SCRIPT', 'LOAD', body)

    def work():
        for _ in range(calls):
            c.call('EVALSHA', sha, 1, 'log', 100000, now - 7 * 86_400_000, 100000)
    return instructions(vpid, work) / calls


def trim_deliveries_cost(c, vpid, body, finished=20000, calls=20):
    """Instructions of one trim_deliveries.lua call on `finished` recent finished deliveries (nothing goes)."""
    c.call('FLUSHALL')
    now = int(time.time() * 1000)
    for i in range(1, finished + 1):
        rec = ('{"seq":%d,"state":"%s","firing":{"seq":%d,"id":"t%d","topic":"bench","firing":1,"dueAt":%d,'
               '"firedAt":%d,"payload":{"n":%d}},"callback":{"url":"https://hooks.example.com/t"},"attempts":[{"n":1,'
               '"at":%d,"status":200,"ms":3}],"updatedAt":%d}') % (i, 'succeeded' if i % 7 else 'dead', i, i, now,
                                                                 now, i, now, now)
        c.call('HSET', 'dlv', i, rec)
        c.call('ZADD', 'dlv:succeeded' if i % 7 else 'dlv:dead', i, i)
        c.call('ZADD', 'dlv:all', i, i)
    sha = c.call('SCRIPT', 'LOAD', body)
    keys = ['dlv', 'dlv:succeeded', 'dlv:dead', 'dlv:all'] + (['dlv:trim-at'] if 'KEYS[5]' in body else [])
    # RedisDeliveries' budgets of each version: 10,000 read from the head; 1,000 by count and 100 by age from a cursor
    budgets = [1000, 100] if 'KEYS[5]' in body else [10000]

    def work():
        for _ in range(calls):
            c.call('EVALSHA', sha, len(keys), *keys, 100000, now - 7 * 86_400_000, *budgets)
    return instructions(vpid, work) / calls


def start_redis(tmp, valgrind=True):
    """A redis-server on a free loopback port (no persistence, its files in `tmp`), under valgrind's callgrind unless
    `valgrind` is false (its dumps in `tmp`, read by instructions()), and a connection to it once it answers:
    (process, Conn)."""
    global OUT
    OUT = os.path.join(tmp, 'callgrind.out')
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    cmd = ['redis-server', '--port', str(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
           '--dir', tmp]
    if valgrind:
        cmd = ['valgrind', '--tool=callgrind', '--callgrind-out-file=' + OUT] + cmd
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            c = Conn(port)
            c.call('PING')
            return proc, c
        except (OSError, RuntimeError):
            time.sleep(0.1)
    proc.kill()
    sys.exit('redis-server did not answer on port %d' % port)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--turns', type=int, default=300)
    ap.add_argument('--per-turn', type=int, default=8)
    ap.add_argument('--partitions', default='256,1')
    ap.add_argument('--against', help='a git ref whose scripts are measured too, in the same run')
    ap.add_argument('--trims-only', action='store_true', help='measure the two trim scripts only')
    a = ap.parse_args()
    dirs = [('this checkout', os.path.join(ROOT, SCRIPTS))]
    tmp = tempfile.mkdtemp(prefix='tickwheel-script-cost.')
    if a.against:
        ref = os.path.join(tmp, 'ref')
        os.makedirs(ref)
        arch = subprocess.run(['git', '-C', ROOT, 'archive', a.against, SCRIPTS], capture_output=True, check=True)
        subprocess.run(['tar', '-x', '-C', ref], input=arch.stdout, check=True)
        dirs.insert(0, (a.against, os.path.join(ref, SCRIPTS)))
    bodies = [(name, multi_body(d), lean_scripts(d)) for name, d in dirs]
    v, c = start_redis(tmp)
    try:
        print('redis-server instructions per timer (valgrind), %d turns of %d timers; %s' % (
            a.turns, a.per_turn, subprocess.run(['redis-server', '--version'], capture_output=True,
                                                text=True).stdout.split(' ')[2]))
        print('%-12s %-16s %14s %14s %14s' % ('partitions', 'scripts', 'create', 'create+touch', 'create+fire'))
        for parts in ([] if a.trims_only else [int(x) for x in a.partitions.split(',')]):
            for name, body, lean in bodies:
                cr = measure(c, v.pid, body, parts, a.per_turn, a.turns, None, lean)
                touch = measure(c, v.pid, body, parts, a.per_turn, a.turns, 'touch', lean)
                fire = measure(c, v.pid, body, parts, a.per_turn, a.turns, 'fire', lean)
                print('%-12d %-16s %14.0f %14.0f %14.0f' % (parts, name, cr, touch, fire))
        print('trim.lua, one call on a 2,000-entry firing log with nothing to trim (instructions per call):')
        for name, d in dirs:
            with open(os.path.join(d, 'trim.lua')) as fh:
                print('%-29s %14.0f' % (name, trim_cost(c, v.pid, fh.read())))
        print('trim_deliveries.lua, one call on 20,000 recent finished deliveries (instructions per call):')
        for name, d in dirs:
            with open(os.path.join(d, 'trim_deliveries.lua')) as fh:
                print('%-29s %14.0f' % (name, trim_deliveries_cost(c, v.pid, fh.read())))
    finally:
        v.terminate()
        v.wait()


if __name__ == '__main__':
    main()
