#!/usr/bin/python3
"""Recompute raidlab compare's statistics outside raidlab.

verdict-check.py COMPARE_JSON RECORD...: from the records' own figures
(ok runs, tests neither too fast nor interrupted, one figure per run and
test key: the mean of that run's tests under the key), recompute for every
cell the mean, the sample sd and the 95% confidence interval of the
geometric mean (Student's t on the logs of the figures, exponentiated:
figures are above 0, and so must the interval be), and against the baseline row Welch's t, its df, the
two-sided p-value and Fieller's 95% interval of the change in percent,
then check each against what `raidlab compare --json` printed. The t
distribution is integrated here numerically (Simpson's rule on the density
from math.lgamma), a method independent of raidlab's incomplete beta.
Prints one line per checked cell; exits 1 on the first mismatch.
"""
import json
import math
import sys


def t_pdf(x, df):
    c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) \
        - 0.5 * math.log(df * math.pi)
    return math.exp(c - (df + 1) / 2 * math.log1p(x * x / df))


def t_cdf(t, df, steps=20000):
    """P(T <= t): 1/2 plus the integral of the density from 0 to t."""
    a = abs(t)
    # Past 1 the integral runs on u = 1/x, over (1/a, 1]: a heavy tail
    # (df near 1) gets as many points as the body.
    if a <= 1:
        lo = simpson(lambda x: t_pdf(x, df), 0, a, steps)
    else:
        lo = simpson(lambda x: t_pdf(x, df), 0, 1, steps) + \
            simpson(lambda u: t_pdf(1 / u, df) / (u * u), 1 / a, 1, steps)
    return 0.5 + lo if t >= 0 else 0.5 - lo


def simpson(f, a, b, n):
    if b <= a:
        return 0.0
    h = (b - a) / n
    s = f(a) + f(b)
    for i in range(1, n):
        s += (4 if i % 2 else 2) * f(a + i * h)
    return s * h / 3


def t_quantile(p, df):
    lo, hi = 0.0, 1e3
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_cdf(mid, df, 4000) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def figures(records):
    """{(record, variant, workload, key): [one figure per run]}"""
    out = {}
    for r, path in enumerate(records, 1):
        with open(path) as f:
            rec = json.load(f)
        for run in rec["runs"]:
            if run.get("status") != "ok":
                continue
            per = {}
            for t in run.get("tests", []):
                if t.get("too_fast") or t.get("interrupted"):
                    continue
                per.setdefault(t["key"], []).append(t["value"])
            for key, v in per.items():
                k = (r, run["variant"]["name"], run["workload"]["name"], key)
                out.setdefault(k, []).append(sum(v) / len(v))
    return out


def close(a, b, rel=1e-6, what=""):
    if a is None or b is None:
        if a is None and b is None:
            return
        sys.exit("mismatch %s: %r against %r" % (what, a, b))
    if abs(a - b) > rel * max(1.0, abs(a), abs(b)):
        sys.exit("mismatch %s: %r against %r" % (what, a, b))


def describe(v):
    n = len(v)
    m = sum(v) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1)) if n > 1 else 0
    return n, m, sd


def main():
    cmp_json = json.load(open(sys.argv[1]))
    figs = figures(sys.argv[2:])
    checked = 0
    for test in cmp_json["tests"]:
        rows = test["rows"]
        base = next((r for r in rows if r["baseline"]), None)
        for row in rows:
            key = (row["record"], row["variant"], test["workload"],
                   test["key"])
            v = figs.get(key, [])
            if row["n"] == 0 or row["interrupted"] or row["too_fast"]:
                continue
            what = "%s %s %s" % (test["workload"], test["key"],
                                 row["variant"])
            if len(v) != row["n"]:
                sys.exit("%s: %d figures in the record, n = %d" %
                         (what, len(v), row["n"]))
            n, m, sd = describe(v)
            close(m, row["mean"], 1e-9, what + " mean")
            close(sd, row["sd"], 1e-9, what + " sd")
            if n >= 2 and min(v) > 0:
                _, ml, sl = describe([math.log(x) for x in v])
                h = t_quantile(0.975, n - 1) * sl / math.sqrt(n)
                close(math.exp(ml - h), row["ci_lo"], 1e-6, what + " ci_lo")
                close(math.exp(ml + h), row["ci_hi"], 1e-6, what + " ci_hi")
            elif n >= 2:
                close(None, row["ci_lo"], 0, what + " ci_lo")
            if base is None or row is base or base["n"] < 2 or n < 2:
                continue
            bkey = (base["record"], base["variant"], test["workload"],
                    test["key"])
            na, ma, sa = describe(figs[bkey])
            va, vb = sa * sa / na, sd * sd / n
            if va + vb == 0:
                continue
            t = (m - ma) / math.sqrt(va + vb)
            df = (va + vb) ** 2 / (
                (va * va / (na - 1) if va else 0) +
                (vb * vb / (n - 1) if vb else 0))
            p = 2 * (1 - t_cdf(abs(t), df))
            close(df, row["df"], 1e-6, what + " df")
            close(p, row["p"], 1e-5, what + " p")
            # Fieller: (m - r ma)^2 = q^2 (vb + r^2 va)
            q = t_quantile(0.975, df)
            A = ma * ma - q * q * va
            if A > 0:
                disc = ma * ma * vb + m * m * va - q * q * va * vb
                r = math.sqrt(max(disc, 0)) * q
                lo, hi = (ma * m - r) / A, (ma * m + r) / A
                # raidlab cuts the interval at -100% (stats.h): a rate
                # cannot fall by more than all of it.
                lo, hi = max(lo, 0.0), max(hi, 0.0)
                close((lo - 1) * 100, row["pct_lo"], 1e-5, what + " pct_lo")
                close((hi - 1) * 100, row["pct_hi"], 1e-5, what + " pct_hi")
            sig = p < 0.05
            if n >= 3 and na >= 3:
                expect = ("no_difference" if not sig else
                          row["verdict"] if row["verdict"] in
                          ("better", "worse") else "a change")
                if row["verdict"] != expect:
                    sys.exit("%s: verdict %s, p = %g" %
                             (what, row["verdict"], p))
            print("ok %s: n %d/%d p %.6g %s" % (what, na, n, p,
                                                row["verdict"]))
            checked += 1
    print("checked %d cells against the baseline" % checked)


main()
