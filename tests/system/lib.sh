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
# device and mount a test registered through the helpers below. The lists
# are newline-separated so that paths with spaces survive.
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/raidlab-test.XXXXXX")
TEST_LOOPS=
TEST_MOUNTS=
NL='
'

cleanup() {
	printf '%s\n' "$TEST_MOUNTS" | while IFS= read -r m; do
		[ -n "$m" ] || continue
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	printf '%s\n' "$TEST_LOOPS" | while IFS= read -r l; do
		[ -n "$l" ] && losetup -d "$l" 2>/dev/null
	done
	rm -rf "$TEST_TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# new_loop VAR SIZE: attach a loop device over a new sparse file (losetup
# -f, never a fixed number) and store its path in VAR. Not for use inside
# $(...): the device must be recorded in this shell to be released.
new_loop() {
	_f=$(mktemp "$TEST_TMP/disk.XXXXXX") || fail "mktemp"
	truncate -s "$2" "$_f" || fail "truncate $_f"
	_d=$(losetup -f --show "$_f") || fail "losetup -f --show $_f"
	TEST_LOOPS="$TEST_LOOPS$NL$_d"
	eval "$1=\$_d"
}

# do_mount DEV DIR [OPTS]: mount, and unmount on exit (innermost first).
do_mount() {
	mkdir -p "$2"
	mount ${3:+-o "$3"} "$1" "$2" || fail "mount $1 $2"
	TEST_MOUNTS="$2$NL$TEST_MOUNTS"
}
