#!/bin/sh
# untar makes about as many system calls per archive entry as GNU tar
# on the same archive: counted with strace -c (every thread), for an
# archive of N entries and one of 2N, so that the fixed start-up costs
# of either program cancel out. It catches a check that walks every
# path (an lstat per component) creeping back: per entry raidlab must
# stay within GNU tar's total and make one openat and hardly any stat.
# No root needed (a plain directory; neither side restores owners).
. "${top_srcdir:-.}/tests/system/lib.sh"

need_cmd strace tar awk
# LeakSanitizer cannot run under ptrace; leaks are the unit tests' job.
ASAN_OPTIONS=detect_leaks=0
export ASAN_OPTIONS

# tree DIR FROM TO: files FROM..TO-1 of a kernel-like tree in DIR, 25 a
# directory, 1 in 100 a symlink (half of them with "../", which GNU tar
# defers too), sizes 100 bytes to 20 KiB.
tree() {
	awk -v d="$1" -v from="$2" -v to="$3" 'BEGIN {
		for (i = from; i < to; i++) {
			dir = sprintf("%s/d%03d", d, int(i / 25))
			if (i % 25 == 0)
				system("mkdir -p " dir)
			f = sprintf("%s/f%05d.c", dir, i)
			if (i % 100 == 99) {
				t = i % 200 == 99 ? "../d000/f00000.c" : "f00000.c"
				system("ln -s " t " " f)
				continue
			}
			n = 100 + (i * 7919) % 20380
			line = sprintf("%0127d\n", i)
			s = ""
			for (k = 0; k * 128 < n; k++)
				s = s line
			printf "%s", s > f
			close(f)
		}
	}' || fail "making the tree"
}

mkdir -p "$TEST_TMP/src" "$TEST_TMP/t"
tree "$TEST_TMP/src" 0 1500
tar cf "$TEST_TMP/small.tar" -C "$TEST_TMP/src" . || fail "tar cf small"
tree "$TEST_TMP/src" 1500 3000
tar cf "$TEST_TMP/big.tar" -C "$TEST_TMP/src" . || fail "tar cf big"
n_small=$(tar tf "$TEST_TMP/small.tar" | wc -l)
n_big=$(tar tf "$TEST_TMP/big.tar" | wc -l)

# count OUT SYSCALL: calls of SYSCALL ("total": all) in strace -c's OUT.
count() {
	awk -v s="$2" '$NF == s && $4 ~ /^[0-9]+$/ { n = $4 } END { print n + 0 }' "$1"
}

# peer TAR / ours TAR: strace -c of the extraction into a fresh directory.
peer() {
	rm -rf "$TEST_TMP/t/peer" && mkdir "$TEST_TMP/t/peer"
	strace -f -c -o "$TEST_TMP/peer.$1" \
	    tar xf "$TEST_TMP/$1.tar" -C "$TEST_TMP/t/peer" ||
		fail "GNU tar xf $1.tar under strace"
	rm -rf "$TEST_TMP/t/peer"
}
ours() {
	cat >"$TEST_TMP/lab.cfg" <<LAB
name = "sc";
cache = "keep";
variants = ( { name = "dir"; directory = "$TEST_TMP/t"; } );
workloads = ( { type = "untar"; tarball = "$TEST_TMP/$1.tar";
    sync = false; keep = true; } );
LAB
	strace -f -c -o "$TEST_TMP/ours.$1" "$RAIDLAB" run "$TEST_TMP/lab.cfg" \
	    --results "$TEST_TMP/res" >"$TEST_TMP/out" 2>"$TEST_TMP/err" ||
		{ cat "$TEST_TMP/err" >&2; fail "raidlab run $1.tar under strace"; }
	# Kept: removing the tree (a stat per entry) is no part of tar xf.
	rm -rf "$TEST_TMP/t"/raidlab-untar.*
}

for a in small big; do
	peer $a
	ours $a
done

# per WHO SYSCALL: calls per entry, big minus small.
per() {
	awk -v b="$(count "$TEST_TMP/$1.big" "$2")" \
	    -v s="$(count "$TEST_TMP/$1.small" "$2")" \
	    -v n="$((n_big - n_small))" 'BEGIN { printf "%.2f", (b - s) / n }'
}

for s in total openat newfstatat close read write pwrite64 fchmod \
    utimensat; do
	printf 'untar-syscalls: %-10s per entry: raidlab %5s  GNU tar %5s\n' \
	    "$s" "$(per ours $s)" "$(per peer $s)"
done

# le WHAT A B: fail unless A <= B.
le() {
	awk -v a="$2" -v b="$3" 'BEGIN { exit !(a <= b) }' ||
		fail "$1: $2 > $3"
}
le "system calls per entry, raidlab vs GNU tar" \
    "$(per ours total)" "$(per peer total)"
le "openat per entry" "$(per ours openat)" 1.05
le "stat calls per entry (a path walk)" "$(per ours newfstatat)" 0.10
exit 0
