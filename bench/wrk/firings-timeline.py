#!/usr/bin/env python3
"""Where a run's lateness sits in time: reads the CSV the load tool writes with LOAD_FIRINGS_CSV=FILE
(dueAt,firedAt,receivedAt per firing received, ms) and prints, per bucket of due time, how many firings were due,
the mean and max of firedAt - dueAt (the server's decision) and of receivedAt - firedAt (recording, publication and
the socket), and the max of receivedAt - dueAt.

    bench/wrk/firings-timeline.py FILE [--last N] [--bucket-ms 100]

--last N keeps the last N firings received (e.g. the heartbeat's measured keys, after the warm-up's)."""
import argparse
import collections

ap = argparse.ArgumentParser()
ap.add_argument("file")
ap.add_argument("--last", type=int, default=0)
ap.add_argument("--bucket-ms", type=int, default=100)
a = ap.parse_args()
rows = []
with open(a.file) as f:
    for line in f:
        p = line.strip().split(",")
        if len(p) == 3 and p[0].isdigit():
            rows.append(tuple(int(x) for x in p))
if a.last:
    rows = rows[-a.last:]
if not rows:
    raise SystemExit("no firings in " + a.file)
d0 = min(r[0] for r in rows)
b = collections.defaultdict(lambda: [0, 0, 0, 0, 0, 0])
for due, fired, received in rows:
    x = b[(due - d0) // a.bucket_ms]
    x[0] += 1
    x[1] += fired - due
    x[2] = max(x[2], fired - due)
    x[3] += received - fired
    x[4] = max(x[4], received - fired)
    x[5] = max(x[5], received - due)
print(f"{len(rows)} firings, due over {max(r[0] for r in rows) - d0} ms, last received "
      f"{max(r[2] for r in rows) - d0} ms after the first due time")
print(f"{'due +ms':>8} {'n':>7} {'decided mean/max':>17} {'delivered mean/max':>19} {'late max':>9}")
for k in sorted(b):
    n, ds, dm, vs, vm, lm = b[k]
    print(f"{k * a.bucket_ms:>8} {n:>7} {ds / n:>9.1f} /{dm:>6} {vs / n:>10.1f} /{vm:>7} {lm:>9}")
