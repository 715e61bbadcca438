#!/bin/bash
# How often a verdict claims a difference that is not there: L labs of
# two identical directory variants on one filesystem (smallfiles, N files,
# R repeats each), once with order = "grouped" and once "interleaved",
# the labs of both orders alternating. A 95% verdict should call a
# difference in about 1 lab in 20 when the variants are the same; more
# than that is drift or a position effect landing on one variant. Prints
# per order the labs that called a difference and the p-values.
#   RAIDLAB=/path/to/raidlab L=20 N=2000 R=5 DIR=/var/tmp bench/same-dirs.sh
set -u

RAIDLAB=${RAIDLAB:-raidlab}
L=${L:-20}
N=${N:-2000}
R=${R:-5}
DIR=${DIR:-/var/tmp}

for c in jq "$RAIDLAB"; do
	command -v "$c" >/dev/null 2>&1 || { echo "same-dirs.sh: needs $c" >&2; exit 77; }
done
tmp=$(mktemp -d "$DIR/rl-same.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

lab() { # ORDER
	cat >"$tmp/$1.cfg" <<EOF
name = "same-$1";
repeats = $R;
order = "$1";
cache = "keep";
results = "$tmp/res-$1";
variants = (
  { name = "one"; directory = "$tmp/a"; },
  { name = "two"; directory = "$tmp/b"; }
);
workloads = ( { name = "small"; type = "smallfiles"; count = $N; } );
EOF
}

declare -A diff ps
for o in grouped interleaved; do lab "$o"; diff[$o]=0; ps[$o]=; done
for i in $(seq "$L"); do
	for o in grouped interleaved; do
		rm -rf "$tmp/res-$o"
		"$RAIDLAB" run "$tmp/$o.cfg" >/dev/null 2>&1 || { echo "run failed" >&2; exit 1; }
		j=$("$RAIDLAB" compare --json "$tmp"/res-$o/*.json)
		v=$(jq -r '.tests[0].rows[1].verdict' <<<"$j")
		p=$(jq -r '.tests[0].rows[1].p' <<<"$j")
		case $v in better | worse) diff[$o]=$((diff[$o] + 1)) ;; esac
		ps[$o]="${ps[$o]} $(printf '%.3f' "$p")"
	done
done
for o in grouped interleaved; do
	printf '%-12s %2d of %d labs called a difference (p:%s)\n' "$o" \
		"${diff[$o]}" "$L" "${ps[$o]}"
done
