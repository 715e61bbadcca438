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

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# expect_match WHAT TEXT REGEX
expect_match() {
	printf '%s' "$2" | grep -Eq -- "$3" || fail "$1: '$2' does not match /$3/"
}

# A private scratch directory, removed on exit together with every loop
# device and mount a test registered through the helpers below.
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/raidlab-test.XXXXXX")
TEST_LOOPS=
TEST_MOUNTS=

cleanup() {
	for m in $TEST_MOUNTS; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	for l in $TEST_LOOPS; do
		losetup -d "$l" 2>/dev/null
	done
	rm -rf "$TEST_TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# new_loop SIZE: attach a loop device over a new sparse file (losetup -f,
# never a fixed number) and print its path.
new_loop() {
	f=$(mktemp "$TEST_TMP/disk.XXXXXX")
	truncate -s "$1" "$f" || fail "truncate $f"
	dev=$(losetup -f --show "$f") || fail "losetup -f --show $f"
	TEST_LOOPS="$TEST_LOOPS $dev"
	printf '%s\n' "$dev"
}

# do_mount DEV DIR [OPTS]
do_mount() {
	mkdir -p "$2"
	mount ${3:+-o "$3"} "$1" "$2" || fail "mount $1 $2"
	TEST_MOUNTS="$2 $TEST_MOUNTS"
}
