# Shared helpers for the shell system tests. Sourced, never run.
# A test that cannot run here exits 77 (automake's SKIP) with the reason.

set -u

: "${RAIDLAB:=raidlab}"

fail() {
	printf 'FAIL: %s\n' "$*" >&2
	exit 1
}

skip() {
	printf 'SKIP: %s\n' "$*" >&2
	exit 77
}

need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root (loop devices, mounts)"
}

need_cmd() {
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "needs $c"
	done
}

# need_scipy: PY, a python3 that has scipy (./setup installs python3-scipy
# for the system's python3, which need not be the first in PATH), or skip.
need_scipy() {
	for PY in /usr/bin/python3 python3; do
		"$PY" -c 'import scipy' >/dev/null 2>&1 && return 0
	done
	skip "needs python3 with scipy (./setup installs python3-scipy)"
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# expect_match WHAT TEXT REGEX
expect_match() {
	printf '%s' "$2" | grep -Eq -- "$3" || fail "$1: '$2' does not match /$3/"
}

# A private scratch directory, removed on exit together with every loop
# device and mount a test registered through the helpers below. The lists
# are newline-separated so that paths with spaces survive.
# Its physical path: the kernel, mountinfo and getcwd() report that one,
# and tests compare them with $TEST_TMP literally.
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/raidlab-test.XXXXXX")
TEST_TMP=$(cd "$TEST_TMP" && pwd -P)

# Results, recent labs and caches a test does not place itself go to its
# own directory, not to the user's home. NO_XDG runs a command with the
# defaults under $HOME instead.
XDG_DATA_HOME="$TEST_TMP/xdg/data"
XDG_STATE_HOME="$TEST_TMP/xdg/state"
XDG_CACHE_HOME="$TEST_TMP/xdg/cache"
export XDG_DATA_HOME XDG_STATE_HOME XDG_CACHE_HOME
NO_XDG="env -u XDG_DATA_HOME -u XDG_STATE_HOME -u XDG_CACHE_HOME"
TEST_MOUNTS=
NL='
'

# ab_lab FILE NAME REPEATS ENTRIES: a lab of two directory variants,
# alpha and beta ($TEST_TMP/a and $TEST_TMP/b), cache "keep" (no root
# needed), results in $TEST_TMP/results, and ENTRIES (text) inside its
# workloads list. The list's first entry is on line 12.
ab_lab() {
	cat >"$1" <<EOF
name = "$2";
repeats = $3;
cache = "keep";
results = "$TEST_TMP/results";
variants = (
  { name = "alpha"; directory = "$TEST_TMP/a"; },
  { name = "beta"; directory = "$TEST_TMP/b"; }
);
workloads = (
  $4
);
EOF
}

cleanup() {
	printf '%s\n' "$TEST_MOUNTS" | while IFS= read -r m; do
		[ -n "$m" ] || continue
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	# By backing file, never by name: a device this test released
	# itself may have been given to somebody else since.
	losetup -n -O NAME,BACK-FILE 2>/dev/null | while read -r _l _b; do
		case $_b in
		"$TEST_TMP"/*) losetup -d "$_l" 2>/dev/null ;;
		esac
	done
	for _n in $TEST_LOOPS_ADDED; do
		loop_ctl REMOVE "$_n" 2>/dev/null
	done
	rm -rf "$TEST_TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# undo_run STATE SCRATCH: what a raidlab run with a private state and
# scratch directory may have left, undone (for a test's exit trap): the
# mounts under STATE (innermost first), then the loop devices over the
# files in SCRATCH (forgotten by btrfs first).
undo_run() {
	findmnt -rn -o TARGET | grep "^$1/" | sort -r |
	    while IFS= read -r _m; do
		umount "$_m" 2>/dev/null || umount -l "$_m" 2>/dev/null
	done
	for _f in "$2"/*.img; do
		[ -e "$_f" ] || continue
		losetup -j "$_f" | cut -d: -f1 | while IFS= read -r _d; do
			btrfs device scan --forget "$_d" >/dev/null 2>&1
			losetup -d "$_d"
		done
	done
}

# run_mounts STATE: the mounts under STATE, one a line.
run_mounts() {
	findmnt -rn -o TARGET | grep "^$1/" || true
}

# new_loop VAR SIZE: attach a loop device over a new sparse file in
# TEST_TMP (losetup -f, never a fixed number) and store its path in VAR.
# The exit trap detaches it by its backing file.
new_loop() {
	_f=$(mktemp "$TEST_TMP/disk.XXXXXX") || fail "mktemp"
	truncate -s "$2" "$_f" || fail "truncate $_f"
	_d=$(losetup -f --show "$_f") || fail "losetup -f --show $_f"
	eval "$1=\$_d"
}

# new_loop_apart VAR SIZE: as new_loop, on a loop device the test adds
# itself (loop-control) above every number in use, for a test that
# detaches and reattaches it: another process's `losetup -f` takes the
# lowest free number, so it does not take this one meanwhile. The exit
# trap removes the device again.
TEST_LOOPS_ADDED=
loop_ctl() { # ADD|REMOVE N: the loop-control ioctl; prints its answer
	python3 -c '
import errno, fcntl, glob, os, re, sys
fd = os.open("/dev/loop-control", os.O_RDWR)
if sys.argv[1] == "REMOVE":
    fcntl.ioctl(fd, 0x4C81, int(sys.argv[2]))
    sys.exit(0)
used = [int(re.search(r"(\d+)$", p).group(1))
        for p in glob.glob("/sys/block/loop[0-9]*")]
n = max(used + [0]) + 64
while True:
    try:
        print(fcntl.ioctl(fd, 0x4C80, n))
        break
    except OSError as e:
        if e.errno != errno.EEXIST:
            raise
        n += 1' "$@"
}
new_loop_apart() {
	_f=$(mktemp "$TEST_TMP/disk.XXXXXX") || fail "mktemp"
	truncate -s "$2" "$_f" || fail "truncate $_f"
	_n=$(loop_ctl ADD) || fail "cannot add a loop device"
	TEST_LOOPS_ADDED="$TEST_LOOPS_ADDED $_n"
	[ -b "/dev/loop$_n" ] || mknod "/dev/loop$_n" b 7 "$_n" ||
		fail "mknod /dev/loop$_n"
	losetup "/dev/loop$_n" "$_f" || fail "losetup /dev/loop$_n $_f"
	eval "$1=/dev/loop\$_n"
}

# do_mount DEV DIR [OPTS]: mount, and unmount on exit (innermost first).
do_mount() {
	mkdir -p "$2"
	mount ${3:+-o "$3"} "$1" "$2" || fail "mount $1 $2"
	TEST_MOUNTS="$2$NL$TEST_MOUNTS"
}
