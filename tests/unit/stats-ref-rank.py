#!/usr/bin/python3
# Reference figures for the robust tests of tests/unit/test-stats.c, from
# scipy and numpy and from first principles, nothing of raidlab's: Welch
# on raw and on log figures (scipy.stats.ttest_ind, equal_var=False),
# Mann-Whitney U (scipy.stats.mannwhitneyu, exact and asymptotic), the
# Hodges-Lehmann shift (numpy median of the pairwise log differences),
# Moses's interval (order statistics, k from U's null distribution counted
# by enumerating every split of the pooled ranks), the multiple-test
# adjustments (by their definitions), and the power figures (scipy's t).
import itertools
import math

import numpy as np
from scipy import optimize, stats


def tq(p, df):
    """t's quantile: scipy's t.ppf is off by up to 1e-10 relative (its
    own t.sf at the result says so), so two Newton steps on t.sf follow."""
    x = stats.t.ppf(p, df)
    for _ in range(2):
        x += (stats.t.sf(x, df) - (1 - p)) / stats.t.pdf(x, df)
    return x

CONF = 0.95


def log_welch(a, b, conf=CONF):
    la, lb = np.log(a), np.log(b)
    r = stats.ttest_ind(lb, la, equal_var=False)
    A, B = la.var(ddof=1) / len(la), lb.var(ddof=1) / len(lb)
    se = math.sqrt(A + B)
    df = (A + B) ** 2 / (A * A / (len(la) - 1) + B * B / (len(lb) - 1))
    d = lb.mean() - la.mean()
    h = tq((1 + conf) / 2, df) * se
    return d, r.statistic, df, r.pvalue, math.expm1(d) * 100, \
        math.expm1(d - h) * 100, math.expm1(d + h) * 100, se


def u_null(m, n):
    """Counts of U = 0..mn over every choice of ranks for the m side."""
    cnt = [0] * (m * n + 1)
    for pick in itertools.combinations(range(m + n), m):
        # U of the m side: for each of its ranks, the others below it.
        cnt[sum(r - i for i, r in enumerate(pick))] += 1
    return cnt


def moses(a, b, conf=CONF):
    d = np.sort(np.subtract.outer(np.log(b), np.log(a)).ravel())
    cnt = u_null(len(a), len(b))
    total, tail, cum, k = sum(cnt), (1 - conf) / 2, 0, 0
    while cum + cnt[k] <= tail * total * (1 + 1e-9):
        cum += cnt[k]
        k += 1
    if k == 0:
        return float("nan"), float("nan"), k
    return math.expm1(d[k - 1]) * 100, math.expm1(d[len(d) - k]) * 100, k


def hl(a, b):
    return float(np.median(np.subtract.outer(np.log(b), np.log(a))))


def show(name, vals):
    print(name, " ".join("%.12g" % v for v in vals))


# The case: tmpfs (a) against ext4 (b), smallfiles with fsync.
A = [5890, 9235, 14505, 41925, 60120]
B = [187, 208, 227, 244, 279.5]
print("issue a: mean %.6g sd %.6g; b: mean %.6g sd %.6g" %
      (np.mean(A), np.std(A, ddof=1), np.mean(B), np.std(B, ddof=1)))
w = stats.ttest_ind(B, A, equal_var=False)
show("issue welch t p", [w.statistic, w.pvalue])
show("issue log d t df p pct lo hi se", log_welch(A, B))
m = stats.mannwhitneyu(B, A, method="exact")
show("issue rank U p hl", [m.statistic, m.pvalue, hl(A, B)])
show("issue moses lo hi k", moses(A, B))

# Exact U without ties, 6 against 7, overlapping.
A2 = [10.2, 11.9, 9.7, 12.4, 10.8, 13.1]
B2 = [11.5, 13.8, 12.9, 14.6, 12.2, 15.3, 13.4]
m = stats.mannwhitneyu(B2, A2, method="exact")
show("exact U p hl", [m.statistic, m.pvalue, hl(A2, B2)])
show("exact moses lo hi k", moses(A2, B2))
show("exact moses90 lo hi k", moses(A2, B2, 0.90))
show("exact log d t df p pct lo hi se", log_welch(A2, B2))

# Ties: the normal approximation with the tie and continuity corrections.
A3 = [5, 5, 6, 7, 7, 7, 8, 9]
B3 = [6, 7, 8, 8, 9, 9, 10]
m = stats.mannwhitneyu(B3, A3, method="asymptotic", use_continuity=True)
show("ties U p hl", [m.statistic, m.pvalue, hl(A3, B3)])

# Large: 25 against 20 (500 pairs, past the exact limit), no ties.
rng = np.random.default_rng(22)
A4 = np.round(rng.lognormal(3, 0.4, 25), 6)
B4 = np.round(rng.lognormal(3.3, 0.4, 20), 6)
print("large a", " ".join("%.6f" % v for v in A4))
print("large b", " ".join("%.6f" % v for v in B4))
m = stats.mannwhitneyu(B4, A4, method="asymptotic", use_continuity=True)
show("large U p hl", [m.statistic, m.pvalue, hl(A4, B4)])
# Moses by the normal: k = floor(N/2 - z sd + 1/2).
N = len(A4) * len(B4)
k = math.floor(N / 2 - stats.norm.ppf(0.975) *
               math.sqrt(N * (len(A4) + len(B4) + 1) / 12) + 0.5)
d = np.sort(np.subtract.outer(np.log(B4), np.log(A4)).ravel())
show("large moses lo hi k", [math.expm1(d[k - 1]) * 100,
                             math.expm1(d[N - k]) * 100, k])

# Adjustments by their definitions.
P = [0.01, 0.04, 0.03, 0.5, 0.002, 0.2]
order = sorted(range(len(P)), key=lambda i: P[i])
mm = len(P)
bh = [0.0] * mm
run = 1.0
for r in range(mm, 0, -1):
    run = min(run, P[order[r - 1]] * mm / r)
    bh[order[r - 1]] = run
holm = [0.0] * mm
run = 0.0
for r in range(mm):
    run = max(run, min(1, P[order[r]] * (mm - r)))
    holm[order[r]] = run
show("bh", bh)
show("holm", holm)

# Power: log test, cv 0.1 and 0.15, 5 and 6 repeats.
va, vb = math.log1p(0.1 ** 2) / 5, math.log1p(0.15 ** 2) / 6
s = math.sqrt(va + vb)
df = (va + vb) ** 2 / (va * va / 4 + vb * vb / 5)
k = tq(0.975, df) + tq(0.8, df)


def welch_gap(x, cva=0.1, cvb=0.15, na=5, nb=6):
    """x less the rise Welch's test needs at x: the variant's spread grows
    with its mean, (1 + x) cvb, and df with it."""
    wa, wb = cva ** 2 / na, (1 + x) ** 2 * cvb ** 2 / nb
    wdf = (wa + wb) ** 2 / (wa * wa / (na - 1) + wb * wb / (nb - 1))
    return x - (tq(0.975, wdf) + tq(0.8, wdf)) * math.sqrt(wa + wb)


show("mde log welch rank", [math.expm1(k * s) * 100,
                            optimize.brentq(welch_gap, 0, 10,
                                            xtol=1e-15) * 100,
                            math.expm1(k * s * math.sqrt(math.pi / 3)) * 100])

# Repeats to settle, by searching n: a change of 10% against 0 (cv 0.1,
# log test), and 0.5% shown inside +-2% (TOST at 5% a side, the sum of the
# two one-sided powers less 1).
def log_s(cv, n):
    v = math.log1p(cv * cv) / n
    return math.sqrt(2 * v), 2 * n - 2


def settles_diff(n):
    s, df = log_s(0.1, n)
    return tq(0.975, df) + tq(0.8, df) <= \
        math.log1p(0.1) / s


def settles_tost(n):
    s, df = log_s(0.1, n)
    d, lo, hi = math.log1p(0.005), math.log1p(-0.02), math.log1p(0.02)
    t1 = tq(0.95, df)
    return stats.t.cdf((hi - d) / s - t1, df) + \
        stats.t.cdf((d - lo) / s - t1, df) - 1 >= 0.8


print("settle diff tost", next(n for n in range(3, 10000) if settles_diff(n)),
      next(n for n in range(3, 10000) if settles_tost(n)))
