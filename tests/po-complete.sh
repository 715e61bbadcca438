#!/bin/sh
# The German translation is whole, so that no string reaches a German
# user in English by oversight:
#  - every file of src/ and ui/ that marks a string (_(, N_(, ngettext()
#    is in po/POTFILES.in, and every file listed there exists;
#  - every message xgettext finds in them today is in po/de.po,
#    translated and not fuzzy (msgcmp), and po/de.po compiles with its
#    formats checked (msgfmt -c);
#  - every paragraph of the man pages today is in po/man/de.po,
#    translated and not fuzzy (po4a-updatepo on a copy).
# When it fails: `make update-po`, then translate what it lists.
#
# po-complete.sh [ROOT]: check ROOT (default $top_srcdir, else .). Run by
# make check.
set -u
root=${1:-${top_srcdir:-.}}
cd "$root" || exit 1
for c in xgettext msgcmp msgfmt msgattrib; do
	command -v "$c" >/dev/null 2>&1 || { echo "SKIP: needs $c" >&2; exit 77; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/raidlab-po.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bad=0
fail() {
	printf 'FAIL: %s\n' "$*" >&2
	bad=1
}

# The list against the tree: xgettext over every source file says which
# have messages (a marker in a comment is none).
opts=$(sed -n 's/^XGETTEXT_OPTIONS *= *//p' po/Makevars)
grep -v '^#' po/POTFILES.in | sed '/^$/d' | sort >"$tmp/listed"
find src ui -name '*.[ch]' | sort >"$tmp/all"
# shellcheck disable=SC2086 # the options are words
xgettext $opts --language=C --from-code=UTF-8 -o "$tmp/all.pot" \
	-f "$tmp/all" 2>/dev/null || fail "xgettext over src/ and ui/"
sed -n 's/^#: //p' "$tmp/all.pot" | tr ' ' '\n' | sed 's/:[0-9]*$//' |
	sort -u >"$tmp/marking"
for f in $(comm -13 "$tmp/listed" "$tmp/marking"); do
	fail "$f has messages but is not in po/POTFILES.in"
done
while read -r f; do
	[ -f "$f" ] || fail "po/POTFILES.in lists $f, which does not exist"
done <"$tmp/listed"

# The messages of today (those xgettext found above, with po/Makevars'
# options) against the catalogue.
if ! msgcmp po/de.po "$tmp/all.pot" 2>"$tmp/msgcmp"; then
	sed 's/^/  /' "$tmp/msgcmp" | head -n 40 >&2
	fail "po/de.po lacks the messages above (or leaves them untranslated or fuzzy): run make update-po and translate them"
fi
msgfmt -c -o /dev/null po/de.po 2>"$tmp/msgfmt" || {
	cat "$tmp/msgfmt" >&2
	fail "po/de.po does not compile (msgfmt -c)"
}
n=$(msgattrib --only-fuzzy --no-obsolete po/de.po | grep -c '^msgid ' || true)
[ "$n" = 0 ] || fail "po/de.po has $n fuzzy entries"

# The man pages, with po4a as make update-po runs it.
if command -v po4a-updatepo >/dev/null 2>&1; then
	cp po/man/de.po "$tmp/man.po"
	po4a-updatepo -f man -M UTF-8 -m data/raidlab.1 \
		-m data/raidlab.lab.5 -p "$tmp/man.po" >"$tmp/po4a" 2>&1 || {
		cat "$tmp/po4a" >&2
		fail "po4a-updatepo on the man pages"
	}
	for what in --untranslated --only-fuzzy; do
		msgattrib $what --no-obsolete "$tmp/man.po" >"$tmp/left"
		n=$(grep -c '^msgid ' "$tmp/left" || true)
		[ "$n" = 0 ] && continue
		sed -n '/^msgid /,/^msgstr/p' "$tmp/left" | head -n 30 >&2
		fail "po/man/de.po: $((n - 1)) paragraph(s) of the man pages left ${what#--}: run make update-po and translate them"
	done
else
	echo "po-complete: no po4a-updatepo: the man pages were not checked" >&2
fi
exit $bad
