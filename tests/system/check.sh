#!/bin/sh
# raidlab check: exit 0 and the normalized lab on stdout for a valid lab;
# exit 2 and "file:line: field: reason" on stderr for a bad or unreadable
# one. No root needed.
. "${top_srcdir:-.}/tests/system/lib.sh"

good="$top_srcdir/data/labs/quick.cfg"
bad="$TESTDATA/labs/bad.cfg"

out=$("$RAIDLAB" check "$good" 2>"$TEST_TMP/err")
expect_eq "check on a good lab: exit status" "$?" 0
expect_eq "check on a good lab: stderr" "$(cat "$TEST_TMP/err")" ""
expect_match "check prints the normalized lab" "$out" '^# raidlab lab file'
expect_match "check prints the normalized lab" "$out" 'name = "quick";'

# The printed lab is itself a valid lab, and prints the same again.
printf '%s\n' "$out" >"$TEST_TMP/norm.cfg"
out2=$("$RAIDLAB" check "$TEST_TMP/norm.cfg") || fail "normalized lab fails check"
expect_eq "normalized lab is a fixed point" "$out2" "$out"

out=$("$RAIDLAB" check --quiet "$good")
expect_eq "check --quiet: exit status" "$?" 0
expect_eq "check --quiet prints nothing" "$out" ""

out=$("$RAIDLAB" check "$bad" 2>"$TEST_TMP/err")
expect_eq "check on a bad lab: exit status" "$?" 2
expect_eq "check on a bad lab: stdout" "$out" ""
expect_eq "check on a bad lab: message" "$(cat "$TEST_TMP/err")" \
	"$bad:9: variants.r5.array.chunck: unknown key; did you mean 'chunk'?"

"$RAIDLAB" check "$good" "$bad" >/dev/null 2>&1
expect_eq "one bad lab among several: exit status" "$?" 2

"$RAIDLAB" check "$TEST_TMP/missing.cfg" >/dev/null 2>"$TEST_TMP/err"
expect_eq "check on a missing file: exit status" "$?" 2
expect_match "check on a missing file: message" "$(cat "$TEST_TMP/err")" \
	"missing.cfg: cannot read: "

# A directory given as the lab: a message, not libconfig's scanner ending
# the process ("input in flex scanner failed"); a pipe is read whole.
mkdir "$TEST_TMP/adir"
"$RAIDLAB" check "$TEST_TMP/adir" >/dev/null 2>"$TEST_TMP/err"
expect_eq "check on a directory: exit status" "$?" 2
expect_eq "check on a directory: message" "$(cat "$TEST_TMP/err")" \
	"$TEST_TMP/adir: a directory, not a lab file"
cat "$good" | "$RAIDLAB" check --quiet /dev/stdin 2>"$TEST_TMP/err"
expect_eq "check from a pipe: exit status" "$?" 0

# Issue 10, defect 5: a 300-character variant name passed check and
# --dry-run, and a run wiped its member before mkdir failed on the mount
# point. Refused at load, with its line, by check and by run alike.
long=$(printf 'v%.0s' $(seq 300))
cat >"$TEST_TMP/long.cfg" <<EOF
name = "long";
variants = ( { name = "$long";
  scratch = { count = 1; size = "1G"; }; array = { engine = "single"; }; } );
workloads = ( { type = "smallfiles"; counts = [10]; } );
EOF
want="$TEST_TMP/long.cfg:2: variants[0].name: 'vvvvvvvvvvvvvvvvvvvvvvvv...' is 300 bytes long: a name has at most 64 (it becomes part of file and directory names)"
"$RAIDLAB" check "$TEST_TMP/long.cfg" >/dev/null 2>"$TEST_TMP/err"
expect_eq "300-byte variant name: exit status" "$?" 2
expect_eq "300-byte variant name: message" "$(cat "$TEST_TMP/err")" "$want"
"$RAIDLAB" run --dry-run "$TEST_TMP/long.cfg" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
expect_eq "300-byte variant name, run --dry-run: exit status" "$?" 2
expect_match "300-byte variant name, run --dry-run: message" \
	"$(cat "$TEST_TMP/err")" "variants\\[0\\]\\.name: 'v{24}\\.\\.\\.' is 300 bytes long"
expect_eq "300-byte variant name, run --dry-run: no plan" "$(cat "$TEST_TMP/out")" ""

# A scratch directory with a component longer than a file name can be:
# the run would fail creating the scratch files; check says so first.
comp=$(printf 'd%.0s' $(seq 256))
cat >"$TEST_TMP/longdir.cfg" <<EOF
name = "longdir";
variants = ( { name = "m"; array = { engine = "single"; };
  scratch = { count = 1; size = "1G"; dir = "/var/tmp/$comp"; }; } );
EOF
"$RAIDLAB" check "$TEST_TMP/longdir.cfg" >/dev/null 2>"$TEST_TMP/err"
expect_eq "256-byte scratch.dir component: exit status" "$?" 2
expect_eq "256-byte scratch.dir component: message" "$(cat "$TEST_TMP/err")" \
	"$TEST_TMP/longdir.cfg:3: variants.m.scratch.dir: 'dddddddddddddddddddddddd...' is a path component of 256 bytes: a file or directory name has at most 255 (NAME_MAX)"

# A lab is one file: an @include (of a file that holds valid settings)
# is refused with its line, as other load errors are.
printf 'repeats = 2;\n' >"$TEST_TMP/part.cfg"
{ echo 'name = "inc";'; echo 'variants = ( { name = "d"; directory = "/tmp"; } );'
  echo "@include \"$TEST_TMP/part.cfg\""; } >"$TEST_TMP/inc.cfg"
"$RAIDLAB" check "$TEST_TMP/inc.cfg" >/dev/null 2>"$TEST_TMP/err"
expect_eq "check on a lab with @include: exit status" "$?" 2
expect_eq "check on a lab with @include: message" "$(cat "$TEST_TMP/err")" \
	"$TEST_TMP/inc.cfg:3: @include: not allowed: a lab is one self-contained file (copy what \"$TEST_TMP/part.cfg\" holds into this one)"

"$RAIDLAB" check >/dev/null 2>&1
expect_eq "check without a file: exit status" "$?" 2

"$RAIDLAB" check --help >/dev/null || fail "check --help exits non-zero"
exit 0
