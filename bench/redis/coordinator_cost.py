#!/usr/bin/env python3
"""redis-server CPU of the cluster coordinator's periodic lease calls, sent two ways.

A node renews the leases it holds (every lease/4) and reads every partition's lease (every second, for its view of
the owners). On a standalone Redis each can be one command per partition, pipelined, or one script over all the
partitions. This measures, on a private redis-server, the redis-server CPU time (utime + stime from /proc) of:
  renew   85 leases (a third of 256 partitions): 85 lease_renew.lua calls, pipelined, against one
          lease_renew_all.lua call;
  view    256 leases: 256 HMGETs, pipelined, against the same HMGETs inside one Lua script.
Each figure is the CPU per round (µs), over --rounds rounds of --reps repetitions.

Usage: bench/redis/coordinator_cost.py [--rounds 3] [--reps 2000]
Needs: redis-server, python3; run from the repository root.
"""
import argparse, os, socket, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
COORD = os.path.join(ROOT, 'store-redis/src/main/resources/io/tickwheel/store/redis/coordination/')
VIEW_SCRIPT = """local out = {}
for i = 1, #KEYS do
  local l = redis.call('HMGET', KEYS[i], 'node', 'epoch', 'exp')
  out[3 * i - 2] = l[1]
  out[3 * i - 1] = l[2]
  out[3 * i] = l[3]
end
return out"""


def enc(*args):
    out = [b'*%d\r\n' % len(args)]
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out.append(b'$%d\r\n%s\r\n' % (len(a), a))
    return b''.join(out)


class Conn:
    def __init__(self, port):
        self.s = socket.create_connection(('127.0.0.1', port))
        self.f = self.s.makefile('rb')

    def send(self, data, replies):
        self.s.sendall(data)
        return [self.read() for _ in range(replies)][-1]

    def read(self):
        line = self.f.readline()
        t, r = line[:1], line[1:-2]
        if t == b'*':
            return [self.read() for _ in range(max(int(r), 0))]
        if t == b'$':
            n = int(r)
            return None if n < 0 else self.f.read(n + 2)[:-2]
        if t == b'-':
            raise RuntimeError(r.decode())
        return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--reps', type=int, default=2000)
    a = ap.parse_args()
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    redis = subprocess.Popen(['redis-server', '--port', str(port), '--bind', '127.0.0.1', '--save', '',
                              '--appendonly', 'no'], stdout=subprocess.DEVNULL)
    tck = os.sysconf('SC_CLK_TCK')

    def cpu():
        v = open('/proc/%d/stat' % redis.pid).read().split()
        return int(v[13]) + int(v[14])

    try:
        c = None
        for _ in range(100):
            try:
                c = Conn(port)
                c.send(enc('PING'), 1)
                break
            except OSError:
                time.sleep(0.05)
        if c is None:
            sys.exit('redis-server did not answer on port %d' % port)
        holder, epoch = 'n1/instance', '1795832703263'
        keys = ['{tw:p:%d}:lease' % p for p in range(256)]
        far = str(int(time.time() * 1000) + 10 ** 9)
        c.send(b''.join(enc('HSET', k, 'node', holder, 'epoch', epoch, 'exp', far) for k in keys), len(keys))
        with open(COORD + 'lease_renew.lua') as fh:
            one = c.send(enc('SCRIPT', 'LOAD', fh.read()), 1).decode()
        with open(COORD + 'lease_renew_all.lua') as fh:
            renew_all = c.send(enc('SCRIPT', 'LOAD', fh.read()), 1).decode()
        view = c.send(enc('SCRIPT', 'LOAD', VIEW_SCRIPT), 1).decode()
        held = keys[:85]
        # a long lease, so that every renewal succeeds and writes
        renew_pipe = b''.join(enc('EVALSHA', one, 1, k, holder, epoch, 10 ** 9) for k in held)
        renew_script = enc('EVALSHA', renew_all, len(held), *held, holder, 10 ** 9, *([epoch] * len(held)))
        view_pipe = b''.join(enc('HMGET', k, 'node', 'epoch', 'exp') for k in keys)
        view_script = enc('EVALSHA', view, len(keys), *keys)
        cases = [('renew 85 leases', renew_pipe, len(held), renew_script),
                 ('read 256 leases', view_pipe, len(keys), view_script)]

        def per_round(data, replies):
            c0 = cpu()
            for _ in range(a.reps):
                c.send(data, replies)
            return (cpu() - c0) * 1e6 / tck / a.reps

        print('redis-server CPU per round, µs (%d repetitions per figure)' % a.reps)
        print('%-6s %-16s %22s %18s' % ('round', 'call', 'one command each', 'one script'))
        for r in range(1, a.rounds + 1):
            for name, pipe, n, script in cases:
                print('%-6d %-16s %22.0f %18.0f' % (r, name, per_round(pipe, n), per_round(script, 1)))
    finally:
        redis.terminate()
        redis.wait()


if __name__ == '__main__':
    main()
