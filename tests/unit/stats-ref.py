#!/usr/bin/env python3
# Reference figures for tests/unit/test-stats.c, from the definitions and
# nothing of raidlab's: Welch's t and Welch-Satterthwaite df, the two-sided
# p-value by integrating Student's t density (math.lgamma for its constant)
# with Simpson's rule, the 0.975 quantile by bisecting that integral, and
# Fieller's interval as the roots of its quadratic. No scipy needed.
import math


def t_pdf(x, df):
    c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - \
        0.5 * math.log(df * math.pi)
    return math.exp(c - (df + 1) / 2 * math.log1p(x * x / df))


def t_central(x, df, n=200000):
    """P(0 <= T <= x), Simpson's rule over n (even) intervals."""
    h = x / n
    s = t_pdf(0, df) + t_pdf(x, df)
    for i in range(1, n):
        s += (4 if i % 2 else 2) * t_pdf(i * h, df)
    return s * h / 3


def t_quantile975(df):
    lo, hi = 0.0, 50.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if 0.5 + t_central(mid, df, 20000) < 0.975:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mean_var(v):
    m = sum(v) / len(v)
    return m, sum((x - m) ** 2 for x in v) / (len(v) - 1)


a = [100.0, 102.0, 98.0, 101.0, 99.0]
b = [104.0, 109.0, 103.0, 108.0, 106.0, 110.0]
ma, va = mean_var(a)
mb, vb = mean_var(b)
A, B = va / len(a), vb / len(b)
t = (mb - ma) / math.sqrt(A + B)
df = (A + B) ** 2 / (A * A / (len(a) - 1) + B * B / (len(b) - 1))
p = 1 - 2 * t_central(abs(t), df)
tc = t_quantile975(df)
q = tc * tc
# (mb - r ma)^2 = q (B + r^2 A)  <=>  (ma^2 - qA) r^2 - 2 ma mb r + mb^2 - qB = 0
qa, qb, qc = ma * ma - q * A, -2 * ma * mb, mb * mb - q * B
d = math.sqrt(qb * qb - 4 * qa * qc)
r1, r2 = (-qb - d) / (2 * qa), (-qb + d) / (2 * qa)
print("ma %.10g va %.10g mb %.10g vb %.10g" % (ma, va, mb, vb))
print("t %.10g df %.10g p %.10g tcrit %.10g" % (t, df, p, tc))
print("pct %.10g pct_lo %.10g pct_hi %.10g" %
      ((mb / ma - 1) * 100, (r1 - 1) * 100, (r2 - 1) * 100))
