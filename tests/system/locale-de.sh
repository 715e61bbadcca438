#!/bin/sh
# German, end to end: po/de.po compiled as an installed catalogue would
# be, a de_DE.UTF-8 locale made with localedef into a private LOCPATH (the
# machine's own locales stay as they are), and raidlab under
# LANG=de_DE.UTF-8. Its help, a lab's refusal naming file:line:field, a
# plural chosen by count (one round, five rounds) and the TUI's first
# screen must speak the catalogue's German. Each expected line is looked
# up in the catalogue with gettext(1) and must differ from the English,
# so that an English fallback fails the test; a few words are checked
# literally too, so that a catalogue of the wrong language fails it.
. "${top_srcdir:-.}/tests/system/lib.sh"

need_cmd localedef msgfmt gettext ngettext
[ -d /usr/share/i18n/locales ] ||
	skip "needs Debian's locales package (the locale sources)"
po="$top_srcdir/po/de.po"
[ -f "$po" ] || fail "no $po"

# The locale, made as locale-gen would make it, into the test's own dir.
LOCPATH="$TEST_TMP/locale"
mkdir -p "$LOCPATH" "$TEST_TMP/share/locale/de/LC_MESSAGES"
localedef -i de_DE -f UTF-8 "$LOCPATH/de_DE.UTF-8" 2>"$TEST_TMP/localedef.err" ||
	fail "localedef de_DE.UTF-8: $(cat "$TEST_TMP/localedef.err")"
msgfmt -c -o "$TEST_TMP/share/locale/de/LC_MESSAGES/raidlab.mo" "$po" ||
	fail "msgfmt -c $po"
RAIDLAB_LOCALEDIR="$TEST_TMP/share/locale"
export LOCPATH RAIDLAB_LOCALEDIR

# de ARGS: raidlab in German. en ARGS: the same in the C locale.
de() {
	env -u LC_ALL -u LC_MESSAGES -u LANGUAGE LANG=de_DE.UTF-8 "$RAIDLAB" "$@"
}
en() {
	env -u LANG -u LC_MESSAGES -u LANGUAGE LC_ALL=C "$RAIDLAB" "$@"
}
# de_tr MSGID: the catalogue's German for MSGID (de_trn MSGID PLURAL N:
# its form for N), or a failure when it has none.
de_tr() {
	_t=$(LC_ALL=de_DE.UTF-8 TEXTDOMAINDIR="$RAIDLAB_LOCALEDIR" \
		gettext -e -d raidlab -- "$1")
	[ "$_t" != "$1" ] || fail "the catalogue has no German for '$1'"
	printf '%s' "$_t"
}
de_trn() {
	_t=$(LC_ALL=de_DE.UTF-8 TEXTDOMAINDIR="$RAIDLAB_LOCALEDIR" \
		ngettext -e -d raidlab -- "$1" "$2" "$3")
	[ "$_t" != "$1" ] && [ "$_t" != "$2" ] ||
		fail "the catalogue has no German for '$1' ($3)"
	printf '%s' "$_t"
}
# de_tr_same MSGID: the same, for a message that may read alike.
de_tr_same() {
	LC_ALL=de_DE.UTF-8 TEXTDOMAINDIR="$RAIDLAB_LOCALEDIR" \
		gettext -e -d raidlab -- "$1"
}
# has WHAT TEXT LINE: TEXT has LINE as a whole line, literally.
has() {
	printf '%s\n' "$2" | grep -Fxq -- "$3" ||
		fail "$1: no line '$3' in: $2"
}

# The help: a command's summary as the catalogue says, its heading in
# German, and the English only in the C locale.
out=$(de --help) || fail "raidlab --help in German exited non-zero"
has "help" "$out" \
	"      $(de_tr "list disks and whether each is free, has data or busy")"
has "help: German" "$out" "Befehle:"
en_out=$(en --help)
has "help in C" "$en_out" "Commands:"
[ "$out" != "$en_out" ] || fail "help: the same text in German and in C"

# A lab with a mistake: file:line: field: the reason, in German (its
# format filled in as raidlab fills it), exit status 2, as in English.
out=$(de check "$TESTDATA/labs/bad.cfg" 2>&1)
expect_eq "bad lab: exit status" "$?" 2
# shellcheck disable=SC2059 # the catalogue's format, as raidlab uses it
why=$(printf -- "$(de_tr "unknown key; did you mean '%s'?")" chunk)
has "bad lab" "$out" \
	"$TESTDATA/labs/bad.cfg:9: variants.r5.array.chunck: $why"
expect_match "bad lab: German" "$why" 'Schlüssel'

# Plural forms: one round, and five, after the workload's heading.
one=$(de_trn ", %zu run --\n" ", %zu runs --\n" 1)
five=$(de_trn ", %zu run --\n" ", %zu runs --\n" 5)
[ "$one" != "$five" ] || fail "plural: one form for 1 and for 5: '$one'"
# The catalogue's formats as raidlab fills them (sh's printf has no z).
fill() {
	_f=$(printf '%s' "$1" | sed 's/%zu/%d/g')
	shift
	# shellcheck disable=SC2059
	printf -- "$_f" "$@"
}
head=$(fill "$(de_tr_same "-- %s (%s)")" small smallfiles)
out=$(de show "$TESTDATA/records/fixture-v1.json") || fail "show in German"
has "plural 1" "$out" "$head$(fill "$one" 1)"
out=$(de show "$TESTDATA/aa-ext4.json") || fail "show in German"
has "plural 5" "$out" "$head$(fill "$five" 5)"
# Numbers are written alike in every language (a decimal point, as in
# the lab files and the records), so that what a German user pastes
# reads the same.
nums() { printf '%s\n' "$1" | grep -Eo '[0-9]+[.,][0-9]+' | sort; }
en_out=$(en show "$TESTDATA/aa-ext4.json")
expect_eq "numbers in German and in C" "$(nums "$out")" "$(nums "$en_out")"

# The text report is a mail in ASCII: German letters as German writes
# them without ("ü" as "ue"), none lost to a "?".
out=$(de report "$TESTDATA/aa-ext4.json" "$TESTDATA/aa-tmpfs.json") ||
	fail "report in German"
has "report" "$out" "$(de_tr "Per test:")"
if printf '%s\n' "$out" | LC_ALL=C grep -n '[^ -~]' >&2; then
	fail "report: the lines above are not ASCII"
fi
if printf '%s\n' "$out" | grep -En '[[:alpha:]]\?[[:alpha:]]' >&2; then
	fail "report: a letter became '?' in the lines above"
fi
expect_match "report: umlauts spelt out" "$out" '[a-z](ae|oe|ue)[a-z]'
if printf '%s\n' "$out" | awk 'length > 72' | grep . >&2; then
	fail "report: the lines above are wider than 72 columns"
fi

# The TUI's first screen: its status bar as the catalogue says, umlauts
# drawn as such (a UTF-8 locale and ncursesw).
. "$top_srcdir/tests/tui/lib.sh"
TUI_ENV="LC_ALL=de_DE.UTF-8 LOCPATH='$LOCPATH' RAIDLAB_LOCALEDIR='$RAIDLAB_LOCALEDIR'"
tui_start quick
tui_wait_for "^ 1 $(de_tr "Disks")"
tui_wait_for "F1 $(de_tr "help")"
tui_keys F1
tui_wait_for "$(de_tr "select a device")"
tui_keys Escape
tui_wait_gone "$(de_tr "select a device")"
tui_keys q
expect_eq "tui: exit status" "$(tui_wait_exit)" 0
tui_check_stderr
