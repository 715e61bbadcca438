#!/usr/bin/python3
"""Check raidlab's robust verdicts against scipy on many random samples.

stats-scipy.py PROBE: draws ~500 pairs of samples (lognormal with sigma
0.05..1, a cache-warming mixture, heavy-tailed Pareto, figures rounded
into ties; 2 to 60 repeats a side and a few of 150, so that both the exact
and the asymptotic U are reached), sends each to `PROBE --filter` (the
stats-scipy program, which calls raidlab's stats functions) and
recomputes every answer here:
  welch  t and p by scipy.stats.ttest_ind(equal_var=False), se
  log    the same on ln(figures), df, the interval exp(d -/+ t se) - 1
  rank   U and p by scipy.stats.mannwhitneyu (method "exact" without ties
         and up to 400 pairs, else "asymptotic" with the continuity
         correction), the Hodges-Lehmann shift as numpy's median of the
         pairwise log differences, Moses's bounds as order statistics with
         k from U's null distribution counted by the recurrence over the
         largest figure (or its normal approximation past 400 pairs)
  eq     TOST: both one-sided p-values (scipy's t) below alpha, against
         raidlab's equivalence, for each test
  bh, holm, fcr, mde, settle, geo    from their definitions with scipy's t
Prints one line per family and every mismatch; exits 0, 1 on a mismatch,
77 when scipy is missing (the test is then skipped).
"""
import functools
import math
import subprocess
import sys
import warnings

try:
    import numpy as np
    from scipy import optimize, stats
except ImportError:
    print("stats-scipy: SKIP: needs python3-scipy")
    sys.exit(77)


def tq(p, df):
    """t's quantile: scipy's t.ppf is off by up to 1e-10 relative (its
    own t.sf at the result says so), so two Newton steps on t.sf follow."""
    x = stats.t.ppf(p, df)
    for _ in range(2):
        x += (stats.t.sf(x, df) - (1 - p)) / stats.t.pdf(x, df)
    return x

# Near-equal samples make scipy warn of cancellation; the figures compared
# are the check.
warnings.filterwarnings("ignore", category=RuntimeWarning)
RANK_EXACT_MAX = 400
CONF = 0.95
rng = np.random.default_rng(2022)
bad = []
count = {}


def close(got, want, rel=1e-9, ab=1e-12):
    if isinstance(want, float) and math.isnan(want):
        return math.isnan(got)
    if math.isinf(want):
        return got == want
    return abs(got - want) <= max(ab, rel * abs(want))


def check(family, what, got, want, **tol):
    count[family] = count.get(family, 0) + 1
    if not close(got, want, **tol):
        bad.append("%s: %s: raidlab %.17g, scipy %.17g" %
                   (family, what, got, want))


# ---------------------------------------------------------------- samples

def draw(kind, n):
    if kind == "lognormal":
        return rng.lognormal(5, rng.uniform(0.05, 1), n)
    if kind == "warming":
        v = rng.lognormal(5, 0.1, n)
        v[0] *= rng.uniform(2, 20)
        return v
    if kind == "pareto":
        return (rng.pareto(rng.uniform(1.1, 3), n) + 1) * 100
    # ties: small integers
    return rng.integers(1, rng.integers(3, 12), n).astype(float)


def cases():
    kinds = ["lognormal", "warming", "pareto", "ties"]
    for i in range(500):
        kind = kinds[i % 4]
        if i % 50 == 49:
            na, nb = rng.integers(100, 160, 2)
        elif i % 5 == 0:
            na, nb = rng.integers(2, 5, 2)
        else:
            na, nb = rng.integers(2, 40, 2)
        a = draw(kind, na)
        b = draw(kind, nb) * rng.choice([1, 1, 1.05, 1.3, 3])
        # 7 significant figures, as records print them
        yield kind, [float("%.7g" % x) for x in a], \
            [float("%.7g" % x) for x in b]


# ---------------------------------------------------------------- references

def welch_parts(la, lb):
    A, B = np.var(la, ddof=1) / len(la), np.var(lb, ddof=1) / len(lb)
    se = math.sqrt(A + B)
    df = (A + B) ** 2 / (A * A / (len(la) - 1) + B * B / (len(lb) - 1)) \
        if se > 0 else float("nan")
    return np.mean(lb) - np.mean(la), se, df


@functools.lru_cache(maxsize=None)
def u_null(m, n):
    """Counts of U over every arrangement of m and n distinct figures: the
    largest is either one of the m (beating all n) or one of the n."""
    if m == 0 or n == 0:
        return (1,)
    c = [0] * (m * n + 1)
    for u, k in enumerate(u_null(m - 1, n)):
        c[u + n] += k
    for u, k in enumerate(u_null(m, n - 1)):
        c[u] += k
    return tuple(c)


def moses_k(na, nb, conf):
    N = na * nb
    tail = (1 - conf) / 2
    if N <= RANK_EXACT_MAX:
        cnt = u_null(min(na, nb), max(na, nb))
        total, cum, k = sum(cnt), 0, 0
        while k < N // 2 and cum + cnt[k] <= tail * total * (1 + 1e-9):
            cum += cnt[k]
            k += 1
        return k
    sd = math.sqrt(N * (na + nb + 1) / 12)
    return max(0, math.floor(N / 2 - stats.norm.ppf(1 - tail) * sd + 0.5))


def ref_rank(a, b, conf):
    a, b = np.array(a), np.array(b)
    ties = len(np.unique(np.concatenate([a, b]))) < len(a) + len(b)
    N = len(a) * len(b)
    exact = not ties and N <= RANK_EXACT_MAX
    r = stats.mannwhitneyu(b, a, method="exact" if exact else "asymptotic",
                           use_continuity=True, alternative="two-sided")
    d = np.sort(np.subtract.outer(np.log(b), np.log(a)).ravel())
    k = moses_k(len(a), len(b), conf)
    lo = math.expm1(d[k - 1]) * 100 if k > 0 else float("nan")
    hi = math.expm1(d[N - k]) * 100 if k > 0 else float("nan")
    return r.statistic, r.pvalue, float(np.median(d)), lo, hi, exact


# ---------------------------------------------------------------- the probe

def ask(probe, requests):
    out = subprocess.run([probe, "--filter"], input="\n".join(requests) +
                         "\n", capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    assert len(lines) == len(requests), out.stderr
    return [[float(w) if w not in ("log", "welch", "rank") else w
             for w in line.split()] for line in lines]


def fmt(v):
    return " ".join("%.17g" % x for x in v)


def main(probe):
    tests = ["welch", "log", "rank"]
    reqs, meta = [], []
    for kind, a, b in cases():
        for t in tests:
            reqs.append("cmp %s %r %s / %s" % (t, CONF, fmt(a), fmt(b)))
            meta.append(("cmp", t, kind, a, b, None))
            m = float(rng.choice([2, 5, 10, 30]))
            reqs.append("eq %s 0.05 %r %s / %s" % (t, m, fmt(a), fmt(b)))
            meta.append(("eq", t, kind, a, b, m))
    for i in range(100):
        n = int(rng.integers(1, 30))
        p = rng.uniform(0, 1, n) ** rng.uniform(1, 6)
        p[rng.uniform(0, 1, n) < 0.1] = float("nan")
        for v in ("bh", "holm"):
            reqs.append("%s %s" % (v, fmt(p)))
            meta.append((v, None, None, p, None, None))
    for i in range(100):
        t = tests[i % 3]
        cva, cvb = rng.uniform(0.005, 0.8, 2)
        na, nb = (int(x) for x in rng.integers(2, 30, 2))
        reqs.append("mde %s %r %r %d %d 0.95 0.8" % (t, cva, cvb, na, nb))
        meta.append(("mde", t, None, (cva, cvb, na, nb), None, None))
        pct = float(rng.choice([-30, -8, -3, -1, 0.5, 1.5, 4, 12, 40]))
        reqs.append("settle %s %r %r %r 2 0.95 0.8 400" % (t, cva / 4,
                                                            cvb / 4, pct))
        meta.append(("settle", t, None, (cva / 4, cvb / 4, pct), None, None))
    for i in range(50):
        k = int(rng.integers(1, 12))
        lr, se = rng.normal(0, 0.2, k), rng.uniform(0, 0.1, k)
        df = rng.uniform(2, 40, k)
        df[rng.uniform(0, 1, k) < 0.3] = float("nan")
        reqs.append("geo 0.95 %s / %s / %s" % (fmt(lr), fmt(se), fmt(df)))
        meta.append(("geo", None, None, (lr, se, df), None, None))
    for i in range(80):
        k = int(rng.integers(2, 31))
        lr = rng.normal(rng.normal(0, 0.1), rng.uniform(0.001, 0.2), k)
        se = rng.uniform(0.002, 0.1, k)
        df = rng.uniform(2, 40, k)
        df[rng.uniform(0, 1, k) < 0.2] = float("nan")
        conf = float(rng.choice([0.9, 0.95, 0.99]))
        reqs.append("meta %r %s / %s / %s" % (conf, fmt(lr), fmt(se),
                                             fmt(df)))
        meta.append(("meta", None, None, (lr, se, df, conf), None, None))
    for m in range(0, 40, 3):
        for r in range(0, m + 1, 4):
            reqs.append("fcr %d %d 0.05" % (m, r))
            meta.append(("fcr", None, None, (m, r), None, None))

    for got, (verb, t, kind, a, b, extra) in zip(ask(probe, reqs), meta):
        globals()["check_" + verb](got, t, kind, a, b, extra)
    for f in sorted(count):
        print("stats-scipy: %-12s %5d figures compared" % (f, count[f]))
    for line in bad[:40]:
        print("MISMATCH", line)
    if bad:
        print("stats-scipy: %d mismatches" % len(bad))
        return 1
    print("stats-scipy: every figure agrees with scipy")
    return 0


# ---------------------------------------------------------------- checks

def check_cmp(got, t, kind, a, b, _):
    kind_, test, diff, tt, df, p, pct, lo, hi, se = got
    fam = "%s/%s" % (t, kind)
    if test != t:
        bad.append("%s: test %s" % (fam, test))
    if t == "rank":
        u, pr, hl, mlo, mhi, exact = ref_rank(a, b, CONF)
        fam += "/exact" if exact else "/normal"
        check(fam, "U", tt, u)
        check(fam, "p", p, pr)
        check(fam, "shift", diff, hl)
        check(fam, "moses lo", lo, mlo)
        check(fam, "moses hi", hi, mhi)
        if se < 0 or math.isnan(se):
            bad.append("%s: se %r" % (fam, se))
        return
    fa, fb = np.array(a), np.array(b)
    if t == "log":
        fa, fb = np.log(fa), np.log(fb)
    d, sse, sdf = welch_parts(fa, fb)
    r = stats.ttest_ind(fb, fa, equal_var=False)
    check(fam, "diff", diff, d, ab=1e-9)
    check(fam, "se", se, sse)
    if sse == 0:
        return
    check(fam, "t", tt, r.statistic, rel=1e-8)
    check(fam, "df", df, sdf)
    check(fam, "p", p, r.pvalue, rel=1e-8, ab=1e-14)
    if t == "log":
        h = tq((1 + CONF) / 2, sdf) * sse
        check(fam, "pct", pct, math.expm1(d) * 100)
        check(fam, "lo", lo, math.expm1(d - h) * 100, ab=1e-9)
        check(fam, "hi", hi, math.expm1(d + h) * 100, ab=1e-9)
        if not lo > -100:
            bad.append("%s: interval at %r" % (fam, lo))
    want_kind = 2 if r.pvalue < 1 - CONF else 1
    if abs(r.pvalue - (1 - CONF)) > 1e-9 and kind_ != want_kind:
        bad.append("%s: kind %d at p %r" % (fam, kind_, r.pvalue))


def tost_p(t, a, b, m):
    """The larger of the two one-sided p-values of the change against the
    margins -m% and +m%."""
    a, b = np.array(a), np.array(b)
    if t == "log":
        la, lb = np.log(a), np.log(b)
        d, se, df = welch_parts(la, lb)
        if se == 0:
            return 0.0 if abs(math.expm1(d)) * 100 < m else 1.0
        p1 = stats.t.sf((d - math.log1p(-m / 100)) / se, df)
        p2 = stats.t.cdf((d - math.log1p(m / 100)) / se, df)
        return max(p1, p2)
    # Welch's ratio: H0 r = mb/ma at a margin; t = (mb - r ma) / sqrt(B
    # + r^2 A) against Welch's df, the test Fieller's interval inverts.
    A, B = np.var(a, ddof=1) / len(a), np.var(b, ddof=1) / len(b)
    _, se, df = welch_parts(a, b)
    ma, mb = np.mean(a), np.mean(b)
    if se == 0:
        return 0.0 if abs(mb / ma - 1) * 100 < m else 1.0
    r1, r2 = 1 - m / 100, 1 + m / 100
    p1 = stats.t.sf((mb - r1 * ma) / math.sqrt(B + r1 * r1 * A), df)
    p2 = stats.t.cdf((mb - r2 * ma) / math.sqrt(B + r2 * r2 * A), df)
    return max(p1, p2)


def check_eq(got, t, kind, a, b, m):
    eq, lo, hi = got
    fam = "eq-%s" % t
    count[fam] = count.get(fam, 0) + 1
    if t == "rank":
        _, _, _, mlo, mhi, _ = ref_rank(a, b, 0.90)
        want = mlo > -m and mhi < m
        check(fam, "lo", lo, mlo)
    else:
        p = tost_p(t, a, b, m)
        if abs(p - 0.05) < 1e-9:
            return
        want = p < 0.05
    if bool(eq) != want:
        bad.append("%s/%s: equivalent %d, want %d (margin %g, n %d %d)" %
                   (fam, kind, eq, want, m, len(a), len(b)))


def check_bh(got, _t, _k, p, _b, _e):
    m = int(got[0])
    ok = [i for i in range(len(p)) if not math.isnan(p[i])]
    check("bh", "m", m, float(len(ok)))
    if hasattr(stats, "false_discovery_control") and ok:
        q = stats.false_discovery_control(p[ok])
    else:
        order = sorted(ok, key=lambda i: p[i])
        q, run = {}, 1.0
        for r in range(len(order), 0, -1):
            run = min(run, p[order[r - 1]] * len(order) / r)
            q[order[r - 1]] = run
        q = [q[i] for i in ok]
    for j, i in enumerate(ok):
        check("bh", "q", got[1 + i], float(q[j]), rel=1e-12)
    for i in range(len(p)):
        if math.isnan(p[i]) and not math.isnan(got[1 + i]):
            bad.append("bh: q of a NAN p")


def check_holm(got, _t, _k, p, _b, _e):
    ok = [i for i in range(len(p)) if not math.isnan(p[i])]
    order = sorted(ok, key=lambda i: p[i])
    run = 0.0
    for r, i in enumerate(order):
        run = max(run, min(1.0, p[i] * (len(order) - r)))
        check("holm", "q", got[1 + i], run, rel=1e-12)


def check_fcr(got, _t, _k, mr, _b, _e):
    m, r = mr
    check("fcr", "conf", got[0], 0.95 if m == 0 else
          1 - max(r, 1) * 0.05 / m, rel=1e-15)


def power_se(t, cva, cvb, na, nb, x=0.0):
    """The se of a change x and its df; Welch's variant spreads with its
    mean."""
    if t == "welch":
        A, B = cva * cva / na, (1 + x) ** 2 * cvb * cvb / nb
    else:
        A, B = math.log1p(cva * cva) / na, math.log1p(cvb * cvb) / nb
    s = math.sqrt(A + B) * (math.sqrt(math.pi / 3) if t == "rank" else 1)
    return s, (A + B) ** 2 / (A * A / (na - 1) + B * B / (nb - 1))


def check_mde(got, t, _k, x, _b, _e):
    cva, cvb, na, nb = x
    if t == "welch":
        # The smallest root of x = k(df(x)) se(x), found on a grid then
        # by Brent's method; none when the grid never crosses.
        def gap(v):
            s, df = power_se(t, cva, cvb, na, nb, v)
            return v - (tq(0.975, df) + tq(0.8, df)) * s
        grid = [0.0] + list(np.geomspace(1e-3, 1e4, 200))
        want = float("inf")
        for lo, hi in zip(grid, grid[1:]):
            if gap(hi) >= 0:
                want = optimize.brentq(gap, lo, hi, xtol=1e-14) * 100
                break
        check("mde-" + t, "mde", got[0], want, rel=1e-8)
        return
    s, df = power_se(t, cva, cvb, na, nb)
    k = tq(0.975, df) + tq(0.8, df)
    want = math.expm1(k * s) * 100
    check("mde-" + t, "mde", got[0], want, rel=1e-8)


def check_settle(got, t, _k, x, _b, _e):
    cva, cvb, pct = x
    m = 2.0
    scale = (lambda v: v / 100) if t == "welch" else \
        (lambda v: math.log1p(v / 100))
    d, lo, hi = scale(pct), scale(-m), scale(m)

    def settles(n):
        s, df = power_se(t, cva, cvb, n, n, d if t == "welch" else 0.0)
        if abs(pct) >= m:
            return tq(0.975, df) + tq(0.8, df) <= \
                abs(d) / s
        t1 = tq(0.95, df)
        return stats.t.cdf((hi - d) / s - t1, df) + \
            stats.t.cdf((d - lo) / s - t1, df) - 1 >= 0.8
    # Both conditions get easier as n grows: bisect [3, 400].
    if settles(3):
        want = 3
    elif not settles(400):
        want = 0
    else:
        below, want = 3, 400
        while want - below > 1:
            mid = (below + want) // 2
            below, want = (below, mid) if settles(mid) else (mid, want)
    check("settle-" + t, "n", got[0], float(want), rel=0)


def check_geo(got, _t, _k, x, _b, _e):
    lr, se, df = x
    k = len(lr)
    m = float(np.mean(lr))
    s2 = float(np.sum(se ** 2))
    s4 = sum(v ** 4 / f for v, f in zip(se, df) if not math.isnan(f))
    dfs = s2 * s2 / s4 if s4 > 0 else float("inf")
    tc = tq(0.975, dfs) if s4 > 0 else stats.norm.ppf(0.975)
    h = tc * math.sqrt(s2) / k
    check("geo", "gm", got[0], math.exp(m), rel=1e-12)
    check("geo", "lo", got[1], math.exp(m - h), rel=1e-9)
    check("geo", "hi", got[2], math.exp(m + h), rel=1e-9)



def check_meta(got, _t, _k, x, _b, _e):
    """The hosts' combination: the between-host half from scipy's
    one-sample t-test of the log-ratios (its p and interval), the
    within-host half and Cochran's Q, I^2 and DerSimonian-Laird's tau^2
    from their definitions."""
    lr, se, df, conf = x
    k = len(lr)
    m = float(np.mean(lr))
    one = stats.ttest_1samp(lr, 0.0)
    b_lo, b_hi = one.confidence_interval(conf)
    hb = (b_hi - b_lo) / 2
    s2 = float(np.sum(se ** 2))
    s4 = sum(v ** 4 / f for v, f in zip(se, df) if not math.isnan(f))
    dfw = s2 * s2 / s4 if s4 > 0 else float("inf")
    sew = math.sqrt(s2) / k
    if math.isinf(dfw):
        hw = stats.norm.ppf((1 + conf) / 2) * sew
        pw = 2 * stats.norm.sf(abs(m) / sew)
    else:
        hw = tq((1 + conf) / 2, dfw) * sew
        pw = 2 * stats.t.sf(abs(m) / sew, dfw)
    w = 1 / se ** 2
    fe = float(np.sum(w * lr) / np.sum(w))
    q = float(np.sum(w * (lr - fe) ** 2))
    i2 = max(0.0, (q - (k - 1)) / q) * 100 if q > 0 else 0.0
    tau2 = max(0.0, (q - (k - 1)) / (np.sum(w) - np.sum(w ** 2) /
                                     np.sum(w)))
    check("meta", "mean", got[0], m, rel=1e-12)
    check("meta", "p", got[3], max(one.pvalue, pw), rel=1e-7, ab=1e-14)
    # an end near 0 cancels: its error is the half-width's
    h = max(hb, hw)
    check("meta", "lo", got[4], m - h, rel=1e-8, ab=1e-8 * h)
    check("meta", "hi", got[5], m + h, rel=1e-8, ab=1e-8 * h)
    check("meta", "between", got[6], 1.0 if hb >= hw else 0.0, rel=0)
    check("meta", "se_between", got[7], float(stats.sem(lr)), rel=1e-10)
    check("meta", "se_within", got[8], sew, rel=1e-12)
    check("meta", "q_stat", got[10], q, rel=1e-9)
    check("meta", "i2", got[11], i2, rel=1e-9, ab=1e-9)
    check("meta", "tau2", got[12], tau2, rel=1e-8, ab=1e-15)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else
                  "tests/unit/stats-scipy"))
