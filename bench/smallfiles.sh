#!/bin/bash
# smallfiles against its peers, on the same target in the same run:
#   raidlab run (smallfiles: N files of SIZE, one write each, one directory,
#     no fsync, no final sync),
#   fs_mark -S 0 (no sync) with the same count, size and write size,
#   a minimal C open/write/close loop: the syscall floor.
# Each is run R times per target, in an order that flips every round, and
# the median files/s is compared. Targets: a tmpfs, a directory on the root filesystem, and
# ext4 on a loop device. Root only (tmpfs and loop); releases exactly the
# loop device it made. Use an optimised raidlab without sanitizers:
#   RAIDLAB=/path/to/raidlab N=20000 R=5 bench/smallfiles.sh
set -u

RAIDLAB=${RAIDLAB:-raidlab}
N=${N:-20000}
SIZE=${SIZE:-4096}
R=${R:-5}

[ "$(id -u)" = 0 ] || { echo "smallfiles.sh: needs root" >&2; exit 77; }
for c in fs_mark cc losetup mkfs.ext4 jq "$RAIDLAB"; do
	command -v "$c" >/dev/null 2>&1 || { echo "smallfiles.sh: needs $c" >&2; exit 77; }
done

# fs_mark refuses directory paths of 40 bytes or more.
tmp=$(mktemp -d /var/tmp/rlb.XXXXXX)
loop=
mounts=
cleanup() {
	for m in $mounts; do umount "$m"; done
	[ -n "$loop" ] && losetup -d "$loop"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The floor: create, one write, close; files/s on stdout.
cat >"$tmp/floor.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
	long n = atol(argv[2]), size = atol(argv[3]), i;
	char *buf = calloc(1, size ? size : 1), path[4096];
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/f%07ld", argv[1], i);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, buf, size) != size || close(fd) < 0) { perror(path); return 1; }
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.1f\n", n / ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9));
	return 0;
}
EOF
cc -O2 -o "$tmp/floor" "$tmp/floor.c" || exit 1

cat >"$tmp/lab.cfg" <<EOF
name = "bench-smallfiles";
cache = "keep";
variants = ( { name = "t"; directory = "$tmp"; } );
workloads = ( { name = "sf"; type = "smallfiles"; count = $N;
  size = "$SIZE"; write_size = "$SIZE"; dirs = 1; fsync = false;
  sync = false; } );
EOF

run_raidlab() {
	"$RAIDLAB" run "$tmp/lab.cfg" --target "$1" --results "$tmp/results" --json 2>/dev/null |
	    jq -r '.runs[0].tests[0].value'
}

run_fsmark() {
	local d="$1/fsmark"
	mkdir -p "$d"
	# -l: fs_mark's log goes to the current directory (the source tree)
	# unless told; ours is removed with the rest.
	fs_mark -d "$d" -n "$N" -s "$SIZE" -w "$SIZE" -S 0 -L 1 -t 1 \
	    -l "$tmp/fs_log.txt" 2>/dev/null |
	    awk '/^ *[0-9]+ +[0-9]+ +[0-9]+/ { print $4 }'
	rm -rf "$d"
}

run_floor() {
	local d="$1/floor"
	mkdir -p "$d"
	"$tmp/floor" "$d" "$N" "$SIZE"
	rm -rf "$d"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

bench_target() {
	local name=$1 dir=$2 i
	: >"$tmp/r" ; : >"$tmp/f" ; : >"$tmp/c"
	# The order flips every round: a filesystem whose create cost drifts
	# from run to run must not always favour the same tool.
	for i in $(seq "$R"); do
		if [ $((i % 2)) = 1 ]; then
			sync; run_raidlab "$dir" >>"$tmp/r"
			sync; run_fsmark "$dir" >>"$tmp/f"
			sync; run_floor "$dir" >>"$tmp/c"
		else
			sync; run_floor "$dir" >>"$tmp/c"
			sync; run_fsmark "$dir" >>"$tmp/f"
			sync; run_raidlab "$dir" >>"$tmp/r"
		fi
	done
	local r f c
	r=$(median <"$tmp/r"); f=$(median <"$tmp/f"); c=$(median <"$tmp/c")
	awk -v n="$name" -v r="$r" -v f="$f" -v c="$c" 'BEGIN {
	    printf "| %-12s | %10.0f | %10.0f | %10.0f | %6.2f | %6.2f |\n",
	    n, r, f, c, r / f, r / c }'
}

mkdir -p "$tmp/tmpfs" "$tmp/root" "$tmp/ext4"
mount -t tmpfs -o size=1g raidlab-bench "$tmp/tmpfs" && mounts="$tmp/tmpfs"
truncate -s 2G "$tmp/ext4.img"
loop=$(losetup -f --show "$tmp/ext4.img") || exit 1
mkfs.ext4 -q "$loop" && mount "$loop" "$tmp/ext4" && mounts="$tmp/ext4 $mounts"

printf '%d files of %d bytes, one write each, one directory, no sync; median of %d runs (files/s)\n\n' "$N" "$SIZE" "$R"
printf '| target       |    raidlab |    fs_mark |  C floor | r/fs_mark | r/floor |\n'
printf '|--------------|------------|------------|------------|--------|--------|\n'
bench_target tmpfs "$tmp/tmpfs"
bench_target "root fs" "$tmp/root"
bench_target "ext4 loop" "$tmp/ext4"
