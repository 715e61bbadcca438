#!/bin/sh
# The correction for many comparisons, on real figures: labs of identical
# variants must call a difference somewhere in at most 5% of them (issue
# 22), where uncorrected 95% verdicts call one in about 4 labs of 10.
#
# tests/data/aa-*.json are real records of bench/calibrate.sh (the first
# lab of each target, tmpfs and ext4 on a loop device: 3 identical
# directory variants, 5 interleaved repeats, smallfiles, bonnie and fio,
# 26-30 cells a lab), with their time series, latency histograms and
# stability list cut (no verdict reads them). Each is resampled into LABS
# synthetic A/A labs: its (variant, repeat) units, every workload's run of
# one variant in one round, are shuffled among the variants with a fixed
# seed, so that each lab's figures are real and the variants exchangeable
# (the null is true by construction), while the columns of a run keep the
# correlation they had. Every lab is compared with raidlab compare --json.
#   after:  a lab has a cell called better or worse;
#   before: a lab has a cell whose raw p is under 0.05.
# A right correction keeps each record's rate of "after" labs at 5% or
# less, so their count is at most Binomial(L, 0.05): the allowance is the
# smallest c with P(X > c) < 1e-3 (24 of 240 labs, 10%; P(X > 24) =
# 4.7e-4), which a right raidlab exceeds with a chance under 1 in 1000
# for a fixture and seed chosen at random (the seed is fixed: the outcome
# is the same every run). The uncorrected count must exceed c too: it is
# 104 of 240 here (3 corrected), and a build judging by the raw p fails.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_cmd python3

data=${TESTDATA:-${top_srcdir:-.}/tests/data}
LABS=${LABS:-120} # a fixture

python3 - "$TEST_TMP" "$LABS" "$data"/aa-*.json <<'EOF' ||
import copy, json, random, sys

out, per, fixtures = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
rng = random.Random(22)
n = 0
for path in fixtures:
    rec = json.load(open(path))
    units = {}
    for run in rec["runs"]:
        key = (run["variant"]["name"], run["repeat"])
        units.setdefault(key, {})[run["workload"]["name"]] = run["tests"]
    slots = sorted(units)
    works = set(units[slots[0]])
    if len(units) < 6 or any(set(units[s]) != works for s in slots):
        sys.exit("%s: not a whole A/A lab" % path)
    rec.pop("stability", None)  # the runner's, of the order recorded
    for _ in range(per):
        order = slots[:]
        rng.shuffle(order)
        src = dict(zip(slots, order))
        lab = copy.deepcopy(rec)
        for run in lab["runs"]:
            u = src[(run["variant"]["name"], run["repeat"])]
            run["tests"] = copy.deepcopy(units[u][run["workload"]["name"]])
        n += 1
        json.dump(lab, open("%s/lab-%04d.json" % (out, n), "w"))
EOF
	fail "python3: resampling the fixtures"

for f in "$TEST_TMP"/lab-*.json; do
	"$RAIDLAB" compare --json "$f" >"${f%.json}.cmp" 2>"$TEST_TMP/err" ||
		fail "compare --json $f: $(cat "$TEST_TMP/err")"
done

python3 - "$TEST_TMP"/lab-*.cmp <<'EOF' >"$TEST_TMP/count" ||
import json, math, sys

judged = {"better", "worse", "same", "unsure", "no_difference"}
labs = cells = before = after = cb = ca = 0
for path in sys.argv[1:]:
    c = [r for t in json.load(open(path))["tests"] for r in t["rows"]
         if not r["baseline"] and r["verdict"] in judged]
    b = sum(r["p"] is not None and r["p"] < 0.05 for r in c)
    a = sum(r["verdict"] in ("better", "worse") for r in c)
    labs += 1
    cells += len(c)
    cb += b
    ca += a
    before += b > 0
    after += a > 0
# the allowance: the smallest c with P(Binomial(labs, 0.05) > c) < 1e-3
tail, c = 1.0, -1
while tail >= 1e-3:
    c += 1
    tail -= math.comb(labs, c) * 0.05**c * 0.95**(labs - c)
print(labs, cells, cb, ca, before, after, c)
EOF
	fail "python3: counting"
read -r labs cells cb ca before after allow <"$TEST_TMP/count"
echo "$labs labs, $cells cells; raw p < 0.05: $cb cells, in $before labs;" \
	"better or worse: $ca cells, in $after labs; allowance $allow labs"
[ "$labs" -ge 200 ] || fail "only $labs labs"
[ "$cells" -ge $((labs * 15)) ] || fail "only $cells cells in $labs labs"
[ "$after" -le "$allow" ] ||
	fail "$after labs of $labs called a difference between identical variants (at most $allow at 5%)"
[ "$before" -gt "$allow" ] ||
	fail "uncorrected, only $before labs of $labs had p < 0.05: the check could not tell a missing correction"
exit 0
