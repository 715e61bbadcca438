#!/bin/bash
# How `raidlab check` grows with the size of a lab (issue 10: 20 000
# workloads took 1.25 s, 100 000 more than 60 s). For each N in SIZES it
# writes a lab of N workloads and a lab of N variants and times, median
# of R runs, `raidlab check --quiet` (load and check) and `raidlab check`
# (the same, then the normalized lab written out: what a save costs).
# There is no peer doing this work: the goal is linear growth, so the
# table shows milliseconds per 1000 entries and how the time grew from
# the first size against how the size grew. No root needed.
#   RAIDLAB=/tmp/rel/raidlab SIZES="20000 100000" R=3 bench/lab-check.sh
set -u

RAIDLAB=${RAIDLAB:-raidlab}
SIZES=${SIZES:-20000 100000}
R=${R:-3}
me=lab-check.sh

command -v "$RAIDLAB" >/dev/null 2>&1 || { echo "$me: needs $RAIDLAB" >&2; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/raidlab-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# gen KIND N FILE: a lab of N workloads (one directory variant) or of N
# directory variants (one workload), one entry a line. Short entries: a
# lab file may hold 4 MiB.
gen() {
	awk -v kind="$1" -v n="$2" 'BEGIN {
		print "name = \"big\";"
		if (kind == "workloads") {
			print "variants = ( { name = \"d\"; directory = \"/var/tmp/x\"; } );"
			print "workloads = ("
			for (i = 0; i < n; i++)
				printf "{name=\"w%d\";type=\"fio\";}%s\n", i, i + 1 < n ? "," : ""
			print ");"
		} else {
			print "variants = ("
			for (i = 0; i < n; i++)
				printf "{name=\"v%d\";directory=\"/x\";}%s\n", i, i + 1 < n ? "," : ""
			print ");"
			print "workloads = ( { type = \"fio\"; } );"
		}
	}' >"$3"
}

# secs ARGS...: the median wall time of R runs of raidlab ARGS, seconds.
secs() {
	local i s e
	for i in $(seq "$R"); do
		s=${EPOCHREALTIME/[.,]/}
		"$RAIDLAB" "$@" >/dev/null || { echo "$me: raidlab $* failed" >&2; exit 1; }
		e=${EPOCHREALTIME/[.,]/}
		echo $((e - s))
	done | sort -n | awk '{ v[NR] = $1 }
	    END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
	    printf "%.3f\n", m / 1e6 }'
}

printf '%-9s | %7s | %8s | %8s | %11s | %11s | %6s\n' lab entries \
    'check -q' check 'ms/1000 -q' 'ms/1000' 'growth (size)'
printf '%s\n' '----------|---------|----------|----------|-------------|-------------|-------'
for kind in workloads variants; do
	first_n= first_t=
	for n in $SIZES; do
		gen "$kind" "$n" "$tmp/lab.cfg"
		q=$(secs check --quiet "$tmp/lab.cfg") || exit 1
		f=$(secs check "$tmp/lab.cfg") || exit 1
		[ -n "$first_n" ] || { first_n=$n; first_t=$q; }
		awk -v k="$kind" -v n="$n" -v q="$q" -v f="$f" -v n0="$first_n" \
		    -v t0="$first_t" 'BEGIN {
			g = t0 > 0 ? q / t0 : 0
			printf "%-9s | %7d | %8.3f | %8.3f | %11.2f | %11.2f | %5.2fx (size %.2fx)\n",
			    k, n, q, f, q * 1e6 / n, f * 1e6 / n, g, n / n0 }'
	done
done
