#!/usr/bin/python3
"""Which test should decide a verdict: Welch, Welch on logs, or ranks.

Simulates pairs of samples shaped like storage figures and asks raidlab's
own statistics (through the stats-scipy program's --filter mode, which
calls src/figures/stats*.c) for each test's verdict at 95%:
  lognormal   sigma 0.05 (a quiet disk), 0.25, 1 (a noisy one)
  warming     lognormal sigma 0.1, each repeat with chance 0.3 served
              from a warm cache: 2 to 5 times faster
  pareto      a heavy tail, 1 + Pareto(alpha 1.5) (infinite variance)
at n = 3, 5 and 10 repeats a side. b is a's distribution times 1 + change.
Prints per shape and n, for welch / log / rank: the false-positive rate
with no change, and the power (a "different" verdict in the right
direction) at +5%, +20% and +100%. Then it checks the power figures:
samples drawn at stats_mde()'s change and stats_n_settle()'s repeats
should be told apart about 80% of the time.

With --record, it also resamples recorded figures (raidlab result
records, one pool per variant and test): two samples of n drawn without
replacement from one pool (no change: false positives), the same with the
second times 1.2 (+20% on real noise), and n from each of two variants'
pools (the recorded change itself).

  make tests/unit/stats-scipy        # in the build tree
  bench/verdict-tests.py [--probe PROBE] [--record RESULT.json...]
PROBE defaults to tests/unit/stats-scipy under the current directory.
Environment: R (simulated pairs per cell, default 2000), SEED (default 22).
Needs python3-numpy; runs in about a minute on 2 cores.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

R = int(os.environ.get("R", 2000))
rng = np.random.default_rng(int(os.environ.get("SEED", 22)))
TESTS = ["welch", "log", "rank"]
CHANGES = [0, 5, 20, 100]
NS = [3, 5, 10]


def shape(name, size):
    if name.startswith("lognormal"):
        return rng.lognormal(0, float(name.split()[1]), size)
    if name == "warming":
        v = rng.lognormal(0, 0.1, size)
        warm = rng.uniform(0, 1, size) < 0.3
        return np.where(warm, v * rng.uniform(2, 5, size), v)
    return 1 + rng.pareto(1.5, size)


SHAPES = ["lognormal 0.05", "lognormal 0.25", "lognormal 1", "warming",
          "pareto"]


def ask(probe, requests):
    out = subprocess.run([probe, "--filter"], input="\n".join(requests) +
                         "\n", capture_output=True, text=True, check=True)
    return [line.split() for line in out.stdout.splitlines()]


def fmt(v):
    return " ".join("%.9g" % x for x in v)


def verdict_table(probe):
    reqs, cells = [], []
    for sh in SHAPES:
        for n in NS:
            for ch in CHANGES:
                a = shape(sh, (R, n))
                b = shape(sh, (R, n)) * (1 + ch / 100)
                for t in TESTS:
                    cells.append((sh, n, ch, t))
                    for i in range(R):
                        reqs.append("cmp %s 0.95 %s / %s" %
                                    (t, fmt(a[i]), fmt(b[i])))
    got = ask(probe, reqs)
    rate = {}
    for k, cell in enumerate(cells):
        ch = cell[2]
        hits = 0
        for w in got[k * R:(k + 1) * R]:
            # kind 2 is STATS_DIFFERENT; with a change, in its direction
            if w[0] == "2" and (ch == 0 or float(w[6]) > 0):
                hits += 1
        rate[cell] = 100.0 * hits / R
    print("False positives with no change, and power at +5%%, +20%%, "
          "+100%%: %% of %d simulated pairs called \"different\" at 95%%,"
          " as welch / log / rank" % R)
    print()
    print("| shape | n | no change | +5% | +20% | +100% |")
    print("|---|--:|--:|--:|--:|--:|")
    for sh in SHAPES:
        for n in NS:
            row = ["%s" % sh, "%d" % n]
            for ch in CHANGES:
                row.append(" / ".join("%.1f" % rate[(sh, n, ch, t)]
                                      for t in TESTS))
            print("| " + " | ".join(row) + " |")
    print()


def power_check(probe):
    """Draw lognormal samples with a given cv at the change stats_mde()
    names (and at the repeats stats_n_settle() names) and count how often
    each test tells them apart: about 80% is the promise."""
    reqs, plan = [], []
    for t in TESTS:
        for cv in (0.05, 0.2, 0.5):
            for n in (5, 10):
                reqs.append("mde %s %r %r %d %d 0.95 0.8" % (t, cv, cv, n, n))
                plan.append(("mde", t, cv, n, None))
        for cv, pct in ((0.1, 10), (0.3, -25)):
            reqs.append("settle %s %r %r %r 2 0.95 0.8 1000" % (t, cv, cv,
                                                                 pct))
            plan.append(("settle", t, cv, None, pct))
        reqs.append("settle %s 0.01 0.01 0.5 2 0.95 0.8 1000" % t)
        plan.append(("tost", t, 0.01, None, 0.5))
    answers = [float(w[0]) for w in ask(probe, reqs)]
    sims, rows = [], []
    for (what, t, cv, n, pct), ans in zip(plan, answers):
        if what == "mde":
            pct = ans
        else:
            n = int(ans)
        sigma = np.sqrt(np.log1p(cv * cv))
        a = rng.lognormal(0, sigma, (R, n))
        b = rng.lognormal(0, sigma, (R, n)) * (1 + pct / 100)
        for i in range(R):
            if what == "tost":
                sims.append("eq %s 0.05 2 %s / %s" % (t, fmt(a[i]),
                                                       fmt(b[i])))
            else:
                sims.append("cmp %s 0.95 %s / %s" % (t, fmt(a[i]),
                                                      fmt(b[i])))
        rows.append((what, t, cv, n, pct))
    got = ask(probe, sims)
    print("Power as stated: lognormal samples of this cv, at the change "
          "stats_mde() gives for n (mde), or at the n stats_n_settle() "
          "gives for the change (settle: told from 0; tost: shown within "
          "+-2%%); %% of %d pairs settled, the promise being 80%%" % R)
    print()
    print("| test | figure | cv | n | change | settled |")
    print("|---|---|--:|--:|--:|--:|")
    for k, (what, t, cv, n, pct) in enumerate(rows):
        res = got[k * R:(k + 1) * R]
        if what == "tost":
            ok = sum(1 for w in res if w[0] == "1")
        else:
            ok = sum(1 for w in res if w[0] == "2" and
                     (float(w[6]) > 0) == (pct > 0))
        print("| %s | %s | %.2f | %d | %+.1f%% | %.1f%% |" %
              (t, what, cv, n, pct, 100.0 * ok / R))
    print()


def pools_of(paths):
    """{(variant, test key): [figures]} of the ok runs of the records."""
    pools = {}
    for path in paths:
        with open(path) as f:
            rec = json.load(f)
        for run in rec.get("runs", []):
            if run.get("status") != "ok":
                continue
            for t in run.get("tests", []):
                v = t.get("value")
                if isinstance(v, (int, float)) and v > 0:
                    key = (run["variant"]["name"], t["key"])
                    pools.setdefault(key, []).append(float(v))
    return pools


def recorded_table(probe, paths):
    pools = pools_of(paths)
    reqs, cells = [], []
    for (var, key), pool in sorted(pools.items()):
        pool = np.array(pool)
        for n in NS:
            if len(pool) < 2 * n:
                continue
            for ch in (0, 20):
                for i in range(R):
                    d = rng.choice(pool, 2 * n, replace=False)
                    a, b = d[:n], d[n:] * (1 + ch / 100)
                    for t in TESTS:
                        reqs.append("cmp %s 0.95 %s / %s" %
                                    (t, fmt(a), fmt(b)))
                cells.append(("%s %s (%d figures, cv %.2f)" %
                              (var, key, len(pool),
                               np.std(pool, ddof=1) / np.mean(pool)),
                              n, "+%d%%" % ch if ch else "no change"))
    # Each pair of variants with the same test: the recorded change.
    keys = sorted(pools)
    for i, (va, ka) in enumerate(keys):
        for vb, kb in keys[i + 1:]:
            if ka != kb:
                continue
            pa, pb = np.array(pools[(va, ka)]), np.array(pools[(vb, kb)])
            for n in NS:
                if min(len(pa), len(pb)) < n:
                    continue
                for _ in range(R):
                    a = rng.choice(pa, n, replace=False)
                    b = rng.choice(pb, n, replace=False)
                    for t in TESTS:
                        reqs.append("cmp %s 0.95 %s / %s" %
                                    (t, fmt(a), fmt(b)))
                cells.append(("%s against %s, %s" % (vb, va, ka), n,
                              "recorded %+.1f%%" %
                              ((np.exp(np.log(pb).mean() -
                                       np.log(pa).mean()) - 1) * 100)))
    if not cells:
        print("verdict-tests.py: no pool of 6 or more figures in the "
              "records", file=sys.stderr)
        return
    got = ask(probe, reqs)
    print("Resampled recorded figures: %% of %d draws called "
          "\"different\" at 95%%, as welch / log / rank" % R)
    print()
    print("| figures | n | change | called different |")
    print("|---|--:|---|--:|")
    k = 0
    for name, n, what in cells:
        hits = [0, 0, 0]
        for i in range(R):
            for j in range(len(TESTS)):
                if got[k][0] == "2":
                    hits[j] += 1
                k += 1
        print("| %s | %d | %s | %s |" % (name, n, what, " / ".join(
            "%.1f" % (100.0 * h / R) for h in hits)))
    print()


def main():
    ap = argparse.ArgumentParser(description="Which test should decide a "
                                 "verdict (see the top of this script).")
    ap.add_argument("--probe", default=os.environ.get(
        "STATS_PROBE", "tests/unit/stats-scipy"))
    ap.add_argument("--record", nargs="*", default=[])
    args = ap.parse_args()
    if not os.access(args.probe, os.X_OK):
        print("verdict-tests.py: no %s (make tests/unit/stats-scipy)" %
              args.probe, file=sys.stderr)
        return 77
    verdict_table(args.probe)
    power_check(args.probe)
    if args.record:
        recorded_table(args.probe, args.record)
    return 0


if __name__ == "__main__":
    sys.exit(main())
