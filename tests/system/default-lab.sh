#!/bin/sh
# The default lab works for every user of a host. Root runs `quick`, then
# an ordinary user (nobody, through setpriv) runs it too: both succeed,
# each in a directory of their own under /var/tmp, each with a record; a
# directory another user left gives a message naming its owner, with the
# lab's file, line and field, and nothing runs. Uses the built binary
# without RAIDLAB_DATADIR (the preset found next to it). Needs root for
# the change of user.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_root
need_cmd setpriv jq
id nobody >/dev/null 2>&1 || skip "needs a user nobody"

# nobody: its own home (setpriv leaves HOME and XDG_* as root's), no
# shared results, the built binary; TEST_TMP made searchable for it.
chmod 755 "$TEST_TMP"
mkdir -p "$TEST_TMP/home-nobody"
chown nobody "$TEST_TMP/home-nobody"
as_nobody() {
	(cd "$TEST_TMP/home-nobody" &&
	    setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    env -u RAIDLAB_DATADIR -u XDG_DATA_HOME -u XDG_STATE_HOME \
	    -u XDG_CACHE_HOME HOME="$TEST_TMP/home-nobody" USER=nobody "$@")
}
as_nobody "$RAIDLAB" --version >/dev/null 2>&1 ||
	skip "nobody cannot run $RAIDLAB (a build tree it cannot read)"

# The directories quick uses, per user; removed at the end when this test
# made them and they are empty again (rmdir: never anybody's files).
made=
for u in root nobody; do
	d=/var/tmp/raidlab-quick-$u
	if [ -e "$d" ]; then
		owner=$(stat -c %U "$d")
		[ "$owner" = "$u" ] || skip "$d exists and belongs to $owner"
	else
		made="$made $d"
	fi
done
trap 'for d in $made; do rmdir "$d" 2>/dev/null; done; cleanup' EXIT

expect_eq "plan quick as root: its own directory" \
	"$(cd "$TEST_TMP" && env -u RAIDLAB_DATADIR "$RAIDLAB" plan quick |
		grep '^# variant')" \
	"# variant tmpdir: the directory /var/tmp/raidlab-quick-root, nothing to build"
expect_eq "plan quick as nobody: its own directory" \
	"$(as_nobody "$RAIDLAB" plan quick | grep '^# variant')" \
	"# variant tmpdir: the directory /var/tmp/raidlab-quick-nobody, nothing to build"

(cd "$TEST_TMP" && env -u RAIDLAB_DATADIR "$RAIDLAB" run quick \
    --results "$TEST_TMP/res-root") >"$TEST_TMP/out" 2>&1
expect_eq "quick as root: exit status ($(tail -3 "$TEST_TMP/out"))" "$?" 0
expect_eq "quick as root: the directory is root's" \
	"$(stat -c %U /var/tmp/raidlab-quick-root)" root

as_nobody "$RAIDLAB" run quick >"$TEST_TMP/out" 2>&1
expect_eq "quick as nobody after root: exit status ($(tail -3 "$TEST_TMP/out"))" "$?" 0
grep -q 'Permission denied\|No runs recorded' "$TEST_TMP/out" &&
	fail "quick as nobody: $(cat "$TEST_TMP/out")"
rec=$(ls "$TEST_TMP"/home-nobody/.local/share/raidlab/results/quick-*.json)
[ -f "$rec" ] || fail "quick as nobody: no record in its home"
expect_eq "quick as nobody: every run ok" \
	"$(jq -r '[.runs[].status] | unique | join(",")' "$rec")" ok
expect_eq "quick as nobody: in its own directory" \
	"$(jq -r '[.runs[].target.path] | unique | join(",")' "$rec")" \
	/var/tmp/raidlab-quick-nobody
expect_eq "quick as nobody: the directory is nobody's" \
	"$(stat -c %U /var/tmp/raidlab-quick-nobody)" nobody

# A directory another user left: refused before anything runs, with its
# owner named and the lab's file, line and field.
mkdir "$TEST_TMP/left"
cat >"$TEST_TMP/left.cfg" <<LAB
name = "left";
cache = "keep";
variants = (
  { name = "dir"; directory = "$TEST_TMP/left"; }
);
workloads = ( { type = "smallfiles"; count = 10; } );
LAB
chmod 644 "$TEST_TMP/left.cfg"
as_nobody "$RAIDLAB" run "$TEST_TMP/left.cfg" >"$TEST_TMP/out" 2>&1
expect_eq "another user's directory: exit status" "$?" 3
expect_match "another user's directory: the message" "$(cat "$TEST_TMP/out")" \
	"$TEST_TMP/left.cfg:4: variants\.dir\.directory: $TEST_TMP/left belongs to root and is not writable by nobody"
[ -z "$(ls -A "$TEST_TMP/left")" ] || fail "another user's directory: written"

# The per-user name taken first by another user (anyone may make a
# directory in /var/tmp), even one anybody may write in: refused.
mkdir -m 1777 "$TEST_TMP/sq-nobody"
sed "s|directory = \"$TEST_TMP/left\"|directory = \"$TEST_TMP/sq-%u\"|" \
    "$TEST_TMP/left.cfg" >"$TEST_TMP/sq.cfg"
chmod 644 "$TEST_TMP/sq.cfg"
as_nobody "$RAIDLAB" run "$TEST_TMP/sq.cfg" >"$TEST_TMP/out" 2>&1
expect_eq "%u directory made by another user: exit status" "$?" 3
expect_match "%u directory made by another user: the message" \
	"$(cat "$TEST_TMP/out")" \
	"$TEST_TMP/sq.cfg:4: variants\.dir\.directory: $TEST_TMP/sq-nobody belongs to root, but %u makes it nobody's"
[ -z "$(ls -A "$TEST_TMP/sq-nobody")" ] || fail "%u directory: written"
exit 0
