#!/usr/bin/python3
"""Recompute raidlab compare's statistics and verdicts outside raidlab.

verdict-check.py COMPARE_JSON RECORD...: from the records' own figures
(ok runs, tests neither too fast nor interrupted, one figure per run and
test key: the mean of that run's tests under the key; for an array
variant's run also its write amplification, the bytes its bottom devices
wrote over its tests' bytes_written), recompute for every
cell the mean, the sample sd and the 95% confidence interval of the
geometric mean (Student's t on the logs of the figures, exponentiated:
figures are above 0, and so must the interval be); against the baseline
row, by the comparison's test (the JSON's "test"):
  log    Welch's t-test on the logarithms (scipy.stats.ttest_ind), the
         change exp(d) - 1 and its interval exp(d -/+ t se) - 1;
  welch  Welch's t-test on the figures, Fieller's interval of the ratio;
  rank   Mann-Whitney U (scipy.stats.mannwhitneyu, exact without ties up
         to 400 pairs, else asymptotic), the Hodges-Lehmann shift of the
         logarithms and, when exact, Moses' interval from U's distribution
         counted here;
then the family: Benjamini-Hochberg q-values over every judged cell (n >= 3
a side, not both exact), the level the intervals are shown at (1 - max(r,
1) 5% / m), each cell's interval at that level, the 90% interval of TOST
and the verdict: better or worse when q < 5% (by the direction the unit
says), the same when the 90% interval lies inside +-equivalence, else
can't tell; and the smallest change the log test could show at 80% power.
Each is checked against what `raidlab compare --json` printed. Prints one
line per checked cell; exits 1 on the first mismatch.
"""
import json
import math
import sys

import numpy as np
from scipy import stats

ALPHA = 0.05
POWER = 0.80


def wamp(run):
    """{key: ratio} of an array variant's run: the bytes its bottom devices
    wrote over the bytes its tests wrote. md arrays are not counted (their
    members are), nor a device beside members (it holds them); journal and
    log devices are, and split out when there is one."""
    series = run.get("series") or {}
    members = series.get("members") or []
    wrote = sum(t.get("bytes_written", 0) for t in run.get("tests", []))
    if run["variant"].get("kind") != "array" or series.get("dropped") or \
            not members or wrote == 0 or \
            any(t.get("interrupted") or t.get("stalled")
                for t in run.get("tests", [])):
        return {}
    have = any(m.get("role") == "member" for m in members)
    part = {"member": "wamp_members", "journal": "wamp_journal",
            "log": "wamp_log"}
    dev = {}
    for m in members:
        role = m.get("role")
        if role == "array" or (role not in part and have):
            continue
        key = part.get(role, "wamp_members")
        dev[key] = dev.get(key, 0) + sum(m["write_bytes"])
    if not dev:
        return {}
    out = {"wamp": sum(dev.values()) / wrote}
    if "wamp_journal" in dev or "wamp_log" in dev:
        out.update({k: b / wrote for k, b in dev.items()})
    return out


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
            for key, w in wamp(run).items():
                per[key] = [w]
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


def welch_df(va, na, vb, nb):
    """Welch-Satterthwaite from the variances of the two means."""
    den = (va * va / (na - 1) if va else 0) + (vb * vb / (nb - 1) if vb else 0)
    return (va + vb) ** 2 / den if den else float("inf")


def crit(conf, df):
    return stats.t.ppf(1 - (1 - conf) / 2, df)


def log_test(a, b, conf):
    """p, df, change %, (lo %, hi %) at conf, and the 90% interval."""
    la, lb = np.log(a), np.log(b)
    va, vb = np.var(la, ddof=1) / len(la), np.var(lb, ddof=1) / len(lb)
    d = lb.mean() - la.mean()
    p = stats.ttest_ind(lb, la, equal_var=False).pvalue
    df = welch_df(va, len(la), vb, len(lb))
    se = math.sqrt(va + vb)

    def ci(c):
        h = crit(c, df) * se
        return (math.expm1(d - h) * 100, math.expm1(d + h) * 100)

    return p, df, math.expm1(d) * 100, ci(conf), ci(1 - 2 * ALPHA)


def welch_test(a, b, conf):
    na, ma, sa = describe(a)
    nb, mb, sb = describe(b)
    va, vb = sa * sa / na, sb * sb / nb
    df = welch_df(va, na, vb, nb)
    p = stats.ttest_ind(b, a, equal_var=False).pvalue

    def fieller(c):
        # (mb - r ma)^2 = q^2 (vb + r^2 va)
        q = crit(c, df)
        A = ma * ma - q * q * va
        if A <= 0:
            return (None, None)
        disc = ma * ma * vb + mb * mb * va - q * q * va * vb
        r = math.sqrt(max(disc, 0)) * q
        # raidlab cuts the interval at -100% (stats.h): a rate cannot
        # fall by more than all of it.
        lo, hi = max((ma * mb - r) / A, 0.0), max((ma * mb + r) / A, 0.0)
        return ((lo - 1) * 100, (hi - 1) * 100)

    return p, df, (mb - ma) / ma * 100, fieller(conf), \
        fieller(1 - 2 * ALPHA)


def u_counts(m, n):
    """The number of arrangements of m against n ranks with each U."""
    f = {}

    def count(i, j):
        if (i, j) in f:
            return f[(i, j)]
        if i == 0 or j == 0:
            r = [1]
        else:
            # the largest value is one of the i (it beats all j) or not
            r1, r0 = count(i - 1, j), count(i, j - 1)
            r = [0] * (i * j + 1)
            for u, c in enumerate(r1):
                r[u + j] += c
            for u, c in enumerate(r0):
                r[u] += c
        f[(i, j)] = r
        return r

    return count(m, n)


def rank_test(a, b, conf):
    na, nb = len(a), len(b)
    exact = len(set(a) | set(b)) == na + nb and na * nb <= 400
    p = stats.mannwhitneyu(b, a, alternative="two-sided",
                           method="exact" if exact else "asymptotic").pvalue
    d = sorted(math.log(y) - math.log(x) for x in a for y in b)
    hl = float(np.median(d))

    def moses(c):
        if not exact:
            return None
        cnt = u_counts(na, nb)
        total = float(sum(cnt))
        k, cum = 0, 0.0
        # k - 1 = the largest u with P(U <= u) <= (1 - c) / 2
        for u, x in enumerate(cnt):
            cum += x
            if cum / total > (1 - c) / 2 + 1e-12:
                break
            k = u + 1
        if k < 1:
            return (None, None)
        return (math.expm1(d[k - 1]) * 100, math.expm1(d[len(d) - k]) * 100)

    return p, None, math.expm1(hl) * 100, moses(conf), \
        moses(1 - 2 * ALPHA)


def bh(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    q = [0.0] * m
    best = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        best = min(best, p[i] * m / rank)
        q[i] = best
    return q


def mde(a, b):
    """The log test's smallest change at 80% power, from the CVs."""
    na, ma, sa = describe(a)
    nb, mb, sb = describe(b)
    va = math.log1p((sa / ma) ** 2) / na
    vb = math.log1p((sb / mb) ** 2) / nb
    df = welch_df(va, na, vb, nb)
    s = math.sqrt(va + vb)
    return math.expm1((crit(0.95, df) + stats.t.ppf(POWER, df)) * s) * 100


def check_sample(row, v, what):
    n, m, sd = describe(v)
    close(m, row["mean"], 1e-9, what + " mean")
    close(sd, row["sd"], 1e-9, what + " sd")
    if n >= 2 and min(v) > 0:
        _, ml, sl = describe([math.log(x) for x in v])
        h = crit(0.95, n - 1) * sl / math.sqrt(n)
        close(math.exp(ml - h), row["ci_lo"], 1e-6, what + " ci_lo")
        close(math.exp(ml + h), row["ci_hi"], 1e-6, what + " ci_hi")
    elif n >= 2:
        close(None, row["ci_lo"], 0, what + " ci_lo")


def main():
    cmp_json = json.load(open(sys.argv[1]))
    figs = figures(sys.argv[2:])
    test = cmp_json["test"]
    method = cmp_json["method"]
    margin = method["equivalence"]
    # pass 1: every cell's sample, and the judged ones' tests
    judged = []
    for col in cmp_json["tests"]:
        rows = col["rows"]
        base = next((r for r in rows if r["baseline"]), None)
        for row in rows:
            key = (row["record"], row["variant"], col["workload"], col["key"])
            v = figs.get(key, [])
            if row["n"] == 0 or row["interrupted"] or row["too_fast"]:
                continue
            what = "%s %s %s" % (col["workload"], col["key"], row["variant"])
            if len(v) != row["n"]:
                sys.exit("%s: %d figures in the record, n = %d" %
                         (what, len(v), row["n"]))
            check_sample(row, v, what)
            if base is None or row is base or base["n"] < 3 or \
                    row["n"] < 3 or base["interrupted"] or base["too_fast"]:
                if row["verdict"] in ("better", "worse", "same", "unsure"):
                    sys.exit("%s: judged with n %d" % (what, row["n"]))
                continue
            a = figs[(base["record"], base["variant"], col["workload"],
                      col["key"])]
            if len(set(a)) == 1 and len(set(v)) == 1 and a[0] != v[0]:
                expect = "exact"
                if row["verdict"] != expect:
                    sys.exit("%s: verdict %s, not exact" %
                             (what, row["verdict"]))
                continue
            t = test if min(a) > 0 and min(v) > 0 else "welch"
            judged.append((what, col, row, a, v, t))
    # the family
    if len(judged) != method["family"]:
        sys.exit("family: %d judged cells here, %d in the JSON" %
                 (len(judged), method["family"]))
    done = []
    for what, col, row, a, v, t in judged:
        fn = {"log": log_test, "welch": welch_test, "rank": rank_test}[t]
        done.append(fn(a, v, 0.95))
    q = bh([d[0] for d in done])
    r = sum(1 for x in q if x < ALPHA)
    m = len(judged)
    conf = 1 - max(r, 1) * ALPHA / m if m else 0.95
    if m:
        close(conf, method["conf"], 1e-12, "the intervals' level")
    close(r, method["rejected"], 0, "rejected")
    for (what, col, row, a, v, t), d, qi in zip(judged, done, q):
        fn = {"log": log_test, "welch": welch_test, "rank": rank_test}[t]
        p, df, change, ci, eq = fn(a, v, conf)
        close(p, row["p"], 1e-6, what + " p")
        if df is not None:
            close(df, row["df"], 1e-6, what + " df")
        close(qi, row["q"], 1e-6, what + " q")
        close(change, row["change"], 1e-6, what + " change")
        if ci is None:
            # asymptotic rank interval: it must hold the shift
            if not (row["pct_lo"] <= change <= row["pct_hi"]):
                sys.exit("%s: the interval %r..%r misses %r" %
                         (what, row["pct_lo"], row["pct_hi"], change))
        else:
            close(ci[0], row["pct_lo"], 1e-5, what + " pct_lo")
            close(ci[1], row["pct_hi"], 1e-5, what + " pct_hi")
        if eq is not None:
            close(eq[0], row["eq_lo"], 1e-5, what + " eq_lo")
            close(eq[1], row["eq_hi"], 1e-5, what + " eq_hi")
        lo, hi = row["eq_lo"], row["eq_hi"]
        same = lo is not None and hi is not None and \
            -margin < lo and hi < margin
        if qi < ALPHA:
            up = change > 0
            expect = "better" if up != col["lower_better"] else "worse"
        else:
            expect = "same" if same else "unsure"
        if row["verdict"] != expect:
            sys.exit("%s: verdict %s, want %s (p %g, q %g, 90%% CI %r..%r)"
                     % (what, row["verdict"], expect, p, qi, lo, hi))
        if t == "log" and len(set(a)) > 1 and len(set(v)) > 1:
            close(mde(a, v), row["mde"], 1e-6, what + " mde")
        if expect == "unsure" and row["settle"] is not None and \
                row["settle"] < 3:
            sys.exit("%s: settle %r" % (what, row["settle"]))
        # a shown interval excludes 0% exactly where the verdict differs
        if row["pct_lo"] is not None and row["pct_hi"] is not None and \
                t != "rank":
            apart = row["pct_lo"] > 0 or row["pct_hi"] < 0
            if apart != (expect in ("better", "worse")):
                sys.exit("%s: interval %r..%r against verdict %s" %
                         (what, row["pct_lo"], row["pct_hi"], expect))
        print("ok %s: %s n %d/%d p %.6g q %.6g %s" %
              (what, t, len(a), len(v), p, qi, row["verdict"]))
    print("checked %d cells against the baseline" % len(judged))


main()
