#!/bin/sh
# raidlab cleanup trusts only a state directory and journals that nobody
# but the caller could have written: the directory the caller's own with
# mode 0700, each journal the caller's with mode 0600. A journal says what
# cleanup removes, so a forged one in a directory another user made first
# (RAIDLAB_STATE_DIR=/tmp/x) must not make root remove a file of its
# choice. Each case forges a journal line naming a precious file (with its
# real identity, so only the owner and mode checks can save it): cleanup
# refuses with a message naming the path, owner and mode, exits non-zero,
# and the file survives.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd id
nobody=$(id -u nobody 2>/dev/null) || skip "needs a user 'nobody'"

precious="$TEST_TMP/precious"
printf 'precious data\n' >"$precious"

# A pid that belongs to nobody now: a child that exited.
sh -c 'exit 0' &
dead=$!
wait "$dead"

# forge DIR: a journal of a dead raidlab naming $precious, in DIR.
forge() {
	_ino=$(stat -c %i "$precious")
	_dev=$(stat -c %d "$precious")
	cat >"$1/$dead.journal" <<EOF2
{"op":"open","pid":$dead,"start":1,"exe":"/usr/bin/raidlab","version":2}
{"op":"add","id":1,"kind":"file","name":"$precious"}
{"op":"created","id":1,"fdev":$_dev,"ino":$_ino}
EOF2
	chmod 600 "$1/$dead.journal"
}

# try WHAT DIR WANT: cleanup with state directory DIR is refused, names
# WANT in its message, exits non-zero and leaves $precious alone.
try() {
	out=$(RAIDLAB_STATE_DIR=$2 "$RAIDLAB" cleanup 2>&1)
	rc=$?
	[ -f "$precious" ] || fail "$1: cleanup removed $precious: $out"
	expect_eq "$1: $precious intact" "$(cat "$precious")" "precious data"
	[ "$rc" -ne 0 ] || fail "$1: cleanup exited 0: $out"
	expect_match "$1: the message" "$out" "$3"
}

# A state directory another user owns (made before root's first run).
d="$TEST_TMP/theirs"
mkdir "$d"
forge "$d"
chown -R nobody "$d"
chmod 700 "$d"
try "a directory of another user" "$d" \
    "state directory $d is owned by nobody \\(uid $nobody\\) with mode 0700: refused"
# root's own run does not take that directory either.
cat >"$TEST_TMP/lab.cfg" <<EOF2
name = "owner";
variants = ( { name = "s"; scratch = { count = 1; size = "64M";
  dir = "$TEST_TMP"; }; array = { engine = "single";
  devices = ["scratch:0"]; }; fs = { type = "ext4"; }; } );
workloads = ( { type = "smallfiles"; count = 10; size = "1K"; } );
EOF2
out=$(RAIDLAB_STATE_DIR=$d "$RAIDLAB" run "$TEST_TMP/lab.cfg" \
    --results "$TEST_TMP/res" 2>&1) && fail "a run used $d: $out"
expect_match "a run refuses $d" "$out" "state directory $d is owned by nobody"
[ -z "$(ls "$TEST_TMP"/raidlab-s-* 2>/dev/null)" ] ||
    fail "a run refused by its state directory made scratch files"

# Root's own directory, but open to others.
d="$TEST_TMP/open"
mkdir "$d"
chmod 1777 "$d"
forge "$d"
try "a directory open to others" "$d" \
    "state directory $d is owned by root \\(uid 0\\) with mode 1777: refused"

# Root's own directory, 0700, through a symbolic link.
d="$TEST_TMP/mine"
mkdir -m 700 "$d"
ln -s "$d" "$TEST_TMP/link"
forge "$d"
try "a state directory through a symbolic link" "$TEST_TMP/link" \
    "state directory $TEST_TMP/link is a symbolic link: refused"

# The right directory, a journal of another user in it.
chown nobody "$d/$dead.journal"
try "a journal of another user" "$d" \
    "state journal $d/$dead.journal is owned by nobody \\(uid $nobody\\) with mode 0600: refused"

# The right directory, root's journal, readable by others.
chown root "$d/$dead.journal"
chmod 644 "$d/$dead.journal"
try "a journal open to others" "$d" \
    "state journal $d/$dead.journal is owned by root \\(uid 0\\) with mode 0644: refused"

# Right owner and modes: then the journal is believed (it names the
# file with its identity), which is what the refusals above prevent.
chmod 600 "$d/$dead.journal"
out=$(RAIDLAB_STATE_DIR=$d "$RAIDLAB" cleanup 2>&1) ||
    fail "cleanup of a private state directory: exit status $?: $out"
expect_match "a private journal is acted on" "$out" "removed $precious"
exit 0
