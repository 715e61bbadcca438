#!/bin/sh
# A run whose record cannot be written (root; read-only bind mounts of
# the test's own directories):
#  - `-o /proc/x`, or a default results directory ($XDG_DATA_HOME) on a
#    read-only mount, is refused before anything is made: exit non-zero,
#    a message naming the path, the variant's directory never created,
#    the hook never run;
#  - a results directory that turns read-only during the run (the hook
#    remounts it) loses the final record: exit non-zero, and the run says
#    the record was not saved instead of "record saved to".
# All of them used to run, lose the record and exit 0.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd jq mount umount

# ro_bind DIR: DIR made read-only by a bind mount over itself.
ro_bind() {
	mkdir -p "$1"
	do_mount "$1" "$1" bind
	mount -o remount,bind,ro "$1" || fail "remount,bind,ro $1"
}

cat >"$TEST_TMP/lab.cfg" <<LAB
name = "res"; cache = "keep";
variants = ( { name = "v"; directory = "$TEST_TMP/v"; } );
workloads = (
  { name = "tiny"; type = "smallfiles"; count = 20; size = "1K"; sync = false; }
);
LAB
printf '#!/bin/sh\ntouch "%s/hook-ran"\n' "$TEST_TMP" >"$TEST_TMP/hook"
chmod +x "$TEST_TMP/hook"

# refused WHAT OUT: the run was refused before anything was made.
refused() {
	[ ! -e "$TEST_TMP/v" ] || fail "$1: the variant's directory was made"
	[ ! -e "$TEST_TMP/hook-ran" ] || fail "$1: the hook ran"
}

# ---------------------------------------------------------------- -o /proc/x
"$RAIDLAB" run "$TEST_TMP/lab.cfg" -o /proc/x --hook "$TEST_TMP/hook" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err" &&
	fail "-o /proc/x: exit 0"
refused "-o /proc/x"
expect_match "-o /proc/x: the path is named" "$(cat "$TEST_TMP/err")" \
	'/proc/x: cannot create the results directory'

# ---------------------------------------------------------------- XDG_DATA_HOME
ro_bind "$XDG_DATA_HOME"
"$RAIDLAB" run "$TEST_TMP/lab.cfg" --hook "$TEST_TMP/hook" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err" &&
	fail "read-only XDG_DATA_HOME: exit 0"
refused "read-only XDG_DATA_HOME"
expect_match "read-only XDG_DATA_HOME: the path is named" \
	"$(cat "$TEST_TMP/err")" "$XDG_DATA_HOME/raidlab/results: "

# ---------------------------------------------------------------- lost at the end
res="$TEST_TMP/res"
mkdir -p "$res"
do_mount "$res" "$res" bind
printf '#!/bin/sh\nmount -o remount,bind,ro "%s"\n' "$res" >"$TEST_TMP/hook"
"$RAIDLAB" run "$TEST_TMP/lab.cfg" -o "$res" --hook "$TEST_TMP/hook" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
[ "$rc" -ne 0 ] || fail "lost record: exit 0: $(cat "$TEST_TMP/err")"
err=$(cat "$TEST_TMP/err")
expect_match "lost record: said" "$err" 'record of this run was not saved'
printf '%s' "$err" | grep -q 'record saved to' &&
	fail "lost record: said saved: $err"
# What is there is the record as the run started, not as it ended.
expect_eq "lost record: the file on disk" \
	"$(jq -r .status "$res"/res-*.json)" running
exit 0
