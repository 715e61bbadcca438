#!/bin/sh
# What the command line says, taken at its word: `raidlab disks` on a pipe
# shows whole columns (as lsblk does) and fits a terminal only on a
# terminal; a mounted device that cannot be probed still shows its
# filesystem type; every command's usage line names every option its
# parser takes; `raidlab run -n` does not call a lab whose variants will fail a
# lab whose checks all passed. Root only (loop devices and a mount).
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd losetup mkfs.ext4 script stty awk

# A loop device on a long path (the MODEL column shows it), mounted on a
# long path (the REASON column says it): longer than 80 columns together.
long="$TEST_TMP/a-backing-file-directory-whose-name-goes-on-and-on"
mkdir -p "$long" || fail "mkdir $long"
img="$long/disk-image-with-a-long-name.img"
truncate -s 64M "$img" || fail "truncate $img"
dev=$(losetup -f --show "$img") || fail "losetup $img"
mkfs.ext4 -q "$dev" || fail "mkfs.ext4 $dev"
mdir="$TEST_TMP/a-mount-point-with-a-name-long-enough-to-be-cut-on-80"
do_mount "$dev" "$mdir"

# On a pipe: never cut; the whole backing file and mount point.
out=$(LC_ALL=C "$RAIDLAB" disks "$dev") || fail "raidlab disks $dev"
line=$(printf '%s\n' "$out" | grep "^${dev#/dev/} ")
case $line in
*"$img"*) ;;
*) fail "piped MODEL cut: $line" ;;
esac
case $line in
*"mounted on $mdir"*) ;;
*) fail "piped REASON cut: $line" ;;
esac
expect_eq "no ellipsis on a pipe" \
    "$(printf '%s\n' "$out" | grep -c '~')" 0
out=$(LC_ALL=C.UTF-8 "$RAIDLAB" disks "$dev") || fail "disks (UTF-8)"
expect_eq "no UTF-8 ellipsis on a pipe" \
    "$(printf '%s\n' "$out" | grep -c '…')" 0

# On a terminal 60 columns wide: fitted, so cut.
out=$(LC_ALL=C script -qec "stty cols 60; '$RAIDLAB' disks '$dev'" \
    /dev/null | tr -d '\r') || fail "raidlab disks on a terminal"
expect_match "tty table" "$out" "^NAME +SIZE"
wide=$(printf '%s\n' "$out" | awk 'length($0) > 60' | grep -c .)
expect_eq "tty lines over 60 columns" "$wide" 0

# Unprobed (as nobody, who cannot open it) the mounted device still says
# ext4, from mountinfo, not a bare "?".
if command -v setpriv >/dev/null 2>&1 &&
    ! setpriv --reuid=65534 --regid=65534 --clear-groups \
    sh -c "test -r '$dev'" 2>/dev/null; then
	out=$(LC_ALL=C setpriv --reuid=65534 --regid=65534 --clear-groups \
	    "$RAIDLAB" disks "$dev") || fail "disks as nobody"
	expect_match "unprobed mounted fstype" "$out" \
	    "^${dev#/dev/} .* ext4 +busy +mounted on"
	json=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
	    "$RAIDLAB" disks --json "$dev") || fail "disks --json as nobody"
	expect_match "mount_fstype in JSON" "$json" '"mount_fstype": "ext4"'
fi

# Every command's usage line names each option its parser takes, by its
# letter (alone, or in a cluster such as [-ajn]) or its long name: the
# Options block of --help is made from the table the parser reads
# (struct cli_opt), so it lists exactly what the parser takes.
for cmd in $("$RAIDLAB" --help | awk '/^  [a-z]/ {print $1}'); do
	help=$("$RAIDLAB" "$cmd" --help) || fail "$cmd --help: exit status $?"
	usage=$(printf '%s\n' "$help" | head -n 1)
	opts=$(printf '%s\n' "$help" |
	    awk '/^Options:/ {on = 1; next} on && /^$/ {exit}
		on && /^ +-/ {print $1, $2}')
	[ -n "$opts" ] || fail "$cmd --help lists no options"
	while read -r a b; do
		case $a in
		-h,) continue ;;
		-?,) c=${a%,}; c=${c#-}; long=${b%%=*} ;;
		*) c=; long=${a%%=*} ;;
		esac
		case $usage in
		*"$long"[]\ =\|]*) continue ;;
		esac
		if [ -n "$c" ]; then
			case $usage in
			*"-$c "* | *"-$c]"* | *"-$c|"* | *"|-$c"*) continue ;;
			esac
			printf '%s\n' "$usage" | grep -Eq "\[-[a-zA-Z]*$c[a-zA-Z]*\]" &&
				continue
		fi
		fail "$cmd usage lacks ${c:+-$c or }$long: $usage"
	done <<EOF_OPTS
$opts
EOF_OPTS
done

# run -n on a lab whose md variants cannot build here: the last word
# says so; exit status 0 (nothing is refused: see raidlab(1)).
if [ ! -e /proc/mdstat ]; then
	"$RAIDLAB" run -n "$top_srcdir/data/labs/seed-000-bitmap-xfs-log.cfg" \
	    >/dev/null 2>"$TEST_TMP/err"
	expect_eq "dry run exit status" "$?" 0
	last=$(tail -n 1 "$TEST_TMP/err")
	case $last in
	*"every check passed"*) fail "dry run says all passed: $last" ;;
	esac
	expect_match "dry run counts the failing" "$last" \
	    "[0-9]+ of [0-9]+ variants will fail"
	# and a lab of directories builds nothing: nothing will fail
	"$RAIDLAB" run -n "$top_srcdir/data/labs/quick.cfg" \
	    >/dev/null 2>"$TEST_TMP/err"
	expect_eq "dry run of quick: exit status" "$?" 0
	expect_match "dry run of quick: the last word" \
	    "$(tail -n 1 "$TEST_TMP/err")" "every check passed"
fi
exit 0
