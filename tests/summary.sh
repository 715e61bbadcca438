#!/bin/sh
# Print one line "tests: N passed, N failed, N skipped" for a finished
# make check in the build tree DIR (default .): a Criterion binary counts
# its own tests (its "Synthesis" line), any other test counts as one.
dir=${1:-.}
pass=0 fail=0 skip=0
for trs in $(find "$dir" -name 'raidlab-[0-9]*' -prune -o -name '*.trs' -print); do
	log=${trs%.trs}.log
	res=$(sed -n 's/^:test-result: //p' "$trs" | head -1)
	syn=$(grep -a 'Synthesis: Tested:' "$log" 2>/dev/null | tail -1)
	if [ -n "$syn" ]; then
		p=$(printf '%s' "$syn" | sed -n 's/.*Passing: \([0-9]*\).*/\1/p')
		f=$(printf '%s' "$syn" | sed -n 's/.*Failing: \([0-9]*\).*/\1/p')
		c=$(printf '%s' "$syn" | sed -n 's/.*Crashing: \([0-9]*\).*/\1/p')
		pass=$((pass + ${p:-0}))
		fail=$((fail + ${f:-0} + ${c:-0}))
		# A binary that died before its synthesis still failed.
		[ "$res" = PASS ] || [ "${f:-0}${c:-0}" != 00 ] || fail=$((fail + 1))
		continue
	fi
	case $res in
	PASS|XFAIL) pass=$((pass + 1)) ;;
	SKIP) skip=$((skip + 1)) ;;
	*) fail=$((fail + 1)) ;;
	esac
done
echo "tests: $pass passed, $fail failed, $skip skipped"
