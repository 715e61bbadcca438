#!/bin/sh
# Where presets are found. The built binary, run from the build tree with
# no RAIDLAB_DATADIR (as a developer runs ./raidlab before make install),
# finds the source tree's data/labs, also in a VPATH build (make
# distcheck's _build); RAIDLAB_DATADIR wins over it; a copy of the same
# binary elsewhere (an installed one) looks only in the installed data
# directory and picks up no stray data/ lying next to it. No root needed.
. "${top_srcdir:-.}/tests/system/lib.sh"

# The preset's name line, through the lookup (not a path).
preset_name() {
	"$@" check quick 2>&1 | sed -n 's/^name = "\(.*\)";$/\1/p'
}

expect_eq "built binary, no RAIDLAB_DATADIR: loads quick" \
	"$(cd "$TEST_TMP" && preset_name env -u RAIDLAB_DATADIR "$RAIDLAB")" quick
(cd "$TEST_TMP" && env -u RAIDLAB_DATADIR "$RAIDLAB" check -q seed-001-xfs-log-bonnie) ||
	fail "built binary, no RAIDLAB_DATADIR: seed-001 does not load"

# The directory of the presets it found: the source tree's, not a copy.
src=$(cd "$top_srcdir" && pwd -P)
expect_eq "built binary: the source tree's presets" \
	"$(env -u RAIDLAB_DATADIR "$RAIDLAB" check "$src/data/labs/quick.cfg" | md5sum)" \
	"$(cd / && env -u RAIDLAB_DATADIR "$RAIDLAB" check quick | md5sum)"

# Through a symlink to it: still the build tree's binary.
ln -s "$RAIDLAB" "$TEST_TMP/rl"
expect_eq "a symlink to the built binary: loads quick" \
	"$(cd "$TEST_TMP" && preset_name env -u RAIDLAB_DATADIR "$TEST_TMP/rl")" quick

# RAIDLAB_DATADIR wins.
mkdir -p "$TEST_TMP/dd/labs"
sed 's/^name = "quick";/name = "from-datadir";/' "$src/data/labs/quick.cfg" \
    >"$TEST_TMP/dd/labs/quick.cfg"
expect_eq "RAIDLAB_DATADIR wins over the build tree" \
	"$(cd "$TEST_TMP" && preset_name env RAIDLAB_DATADIR="$TEST_TMP/dd" "$RAIDLAB")" \
	from-datadir

# A copy elsewhere, as installed, with stray presets beside it in every
# layout a lookup "next to the binary" could use.
mkdir -p "$TEST_TMP/inst/bin/data/labs" "$TEST_TMP/inst/data/labs" \
    "$TEST_TMP/inst/share/raidlab/labs"
cp "$RAIDLAB" "$TEST_TMP/inst/bin/raidlab"
for d in bin/data/labs data/labs share/raidlab/labs; do
	sed 's/^name = "quick";/name = "stray";/' "$src/data/labs/quick.cfg" \
	    >"$TEST_TMP/inst/$d/stray.cfg"
done
(cd "$TEST_TMP" && env -u RAIDLAB_DATADIR "$TEST_TMP/inst/bin/raidlab" \
    check stray) >"$TEST_TMP/out" 2>&1
expect_eq "installed copy: no stray preset (exit status)" "$?" 2
expect_match "installed copy: no stray preset (message)" \
	"$(cat "$TEST_TMP/out")" '^stray: cannot read: '
exit 0
