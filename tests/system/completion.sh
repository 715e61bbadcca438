#!/bin/bash
# The bash completion (data/bash-completion/raidlab) against the real
# binary, sourced alone and again after bash-completion's own helpers:
# it is registered for raidlab, and its function, driven with COMP_WORDS
# and COMP_CWORD split as readline splits them, offers exactly what is
# computed here from elsewhere: the commands and options from --help, the
# presets and user labs from their directories, the variants and
# workloads from the lab files by a parser of this test's own
# (python3), result files and devices from the file system. Then the
# plumbing it asks, `raidlab complete`: a lab that does not load says
# file:line, exits 2 and prints no name. No root needed.
. "${top_srcdir:-.}/tests/system/lib.sh"
need_cmd python3
script="$top_srcdir/data/bash-completion/raidlab"
labs="$RAIDLAB_DATADIR/labs"

# The names of a lab's variants or workloads ($2), a line each, as
# libconfig nests them: each entry's name, else its type.
lab_names() {
	python3 - "$1" "$2" <<'EOF'
import re, sys
t = re.sub(r'#[^\n]*|//[^\n]*', '', open(sys.argv[1]).read())
m = re.search(r'^%s\s*=\s*\(' % sys.argv[2], t, re.M)
depth, key, entry = 0, None, {}
for tok in re.findall(r'"[^"]*"|[{}()=;,\[\]]|[A-Za-z_][A-Za-z0-9_.]*',
                      t[m.end():]):
    if tok in '{[(':
        depth += 1
    elif tok in '}])':
        if depth == 0:
            break
        depth -= 1
        if depth == 0:
            print(entry.get('name', entry.get('type')))
            entry = {}
    elif depth == 1 and tok.startswith('"') and key:
        entry.setdefault(key, tok[1:-1])
        key = None
    elif depth == 1 and tok not in '=;,':
        key = tok
EOF
}

# Sorted words, one line.
set_of() {
	tr ' ' '\n' | sed '/^$/d' | LC_ALL=C sort -u | tr '\n' ' '
}

# comp WORD...: COMPREPLY for the last word, the words given as readline
# splits them ("=" and ":" are words of their own), as a set.
comp() {
	COMP_WORDS=("$RAIDLAB" "$@")
	COMP_CWORD=$#
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_raidlab raidlab "${COMP_WORDS[COMP_CWORD]}" \
	    "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | set_of
}

# compmid CWORD WORD...: as comp, for word CWORD (1: the first after
# raidlab) with words after it.
compmid() {
	local c=$1
	shift
	COMP_WORDS=("$RAIDLAB" "$@")
	COMP_CWORD=$c
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_raidlab raidlab "${COMP_WORDS[c]}" "${COMP_WORDS[c - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | set_of
}

# The fixtures: an empty working directory, labs of the user's own (one
# shadowing a preset), result files, a lab that does not load.
export XDG_CONFIG_HOME="$TEST_TMP/config"
mkdir -p "$XDG_CONFIG_HOME/raidlab/labs" "$TEST_TMP/cwd" \
    "$TEST_TMP/res/sub.d"
cp "$labs/quick.cfg" "$XDG_CONFIG_HOME/raidlab/labs/quick.cfg"
cp "$labs/quick.cfg" "$XDG_CONFIG_HOME/raidlab/labs/qmine.cfg"
: >"$TEST_TMP/res/a.json"
: >"$TEST_TMP/res/b.json"
: >"$TEST_TMP/res/c.txt"
printf 'name = "broken";\nrepeats = 3;\nvariants = (\n  { name = "x" \n);\n' \
    >"$TEST_TMP/broken.cfg"
cd "$TEST_TMP/cwd" || exit 99

commands=$("$RAIDLAB" --help | awk '/^  [a-z]/ {print $1}' | set_of)
[ -n "$commands" ] || fail "raidlab --help lists no command"
# run's long options as --help prints them ("--yes-destroy=" ends in "=").
run_opts=$("$RAIDLAB" run --help |
    awk '/^Options:/ {on = 1; next} on && /^$/ {exit}
	on { for (i = 1; i <= NF; i++) if ($i ~ /^--/) {
		sub(/=.*/, "=", $i); print $i } }' | set_of)
expect_match "run --help lists --variant" "$run_opts" '--variant '
presets_q=$( (cd "$labs" && ls q*.cfg; cd "$XDG_CONFIG_HOME/raidlab/labs" &&
    ls q*.cfg) | sed 's/\.cfg$//' | set_of)
expect_eq "q presets and user labs" "$presets_q" "qmine quick "
seed=$labs/seed-000-bitmap-xfs-log.cfg
seed_vars=$(lab_names "$seed" variants | set_of)
quick_wls=$(lab_names "$labs/quick.cfg" workloads | set_of)
seeds=$(cd "$labs" && ls -d seed-* | sed "s|^|$labs/|" | set_of)
results=$(cd "$TEST_TMP/res" && ls -d ./*.json ./*/ | sed "s|^\./|$TEST_TMP/res/|; s|/$||" | set_of)
tests=$("$RAIDLAB" compare --help |
    sed -n 's/^ *-t, --test TEST *\([a-z, ]*\):.*/\1/p' | tr -d ',' |
    sed 's/ or / /' | set_of)
formats=$("$RAIDLAB" import --help |
    awk '/^Formats:/ {on = 1; next} on && NF {print $1}' | set_of)
# The loop devices now: other processes add and remove theirs at any
# time, so the listing is taken again beside each completion compared.
loops_now() {
	for f in /sys/class/block/loop*; do
		[ -b "/dev/${f##*/}" ] && echo "/dev/${f##*/}"
	done | set_of
}
loops=$(loops_now)

check_all() {
	local how=$1 cmd

	complete -p raidlab | grep -q -- '-F _raidlab raidlab$' ||
		fail "$how: complete -p raidlab: $(complete -p raidlab 2>&1)"
	expect_eq "$how: commands" "$(comp '')" "$commands"
	expect_eq "$how: commands from c" "$(comp c)" \
	    "$(printf '%s\n' $commands | grep '^c' | set_of)"
	expect_eq "$how: run's options" "$(comp run --)" "$run_opts"
	for cmd in $commands; do
		expect_eq "$how: $cmd's options" "$cmd:$(comp "$cmd" --)" \
		    "$(printf '%s' "$all_opts" | grep "^$cmd:")"
	done
	expect_eq "$how: a preset and a user lab" "$(comp run q)" "$presets_q"
	expect_eq "$how: lab files" "$(comp check "$labs/seed-")" "$seeds"
	expect_eq "$how: variants" "$(comp run "$seed" -v '')" "$seed_vars"
	expect_eq "$how: variants, --variant=" \
	    "$(comp plan "$seed" --variant = '')" "$seed_vars"
	expect_eq "$how: variants, lab after" \
	    "$(compmid 3 run -v '' "$seed")" "$seed_vars"
	expect_eq "$how: workloads of a preset by name" \
	    "$(comp run quick -k -w '')" "$quick_wls"
	expect_eq "$how: result files" "$(comp compare "$TEST_TMP/res/")" \
	    "$results"
	expect_eq "$how: result files after -t" \
	    "$(comp compare -t log "$TEST_TMP/res/")" "$results"
	expect_eq "$how: compare -t" "$(comp compare -t '')" "$tests"
	expect_eq "$how: import -f" "$(comp import -f '')" "$formats"
	expect_eq "$how: run -o" "$(comp run -o "$TEST_TMP/r")" "$TEST_TMP/res "
	expect_eq "$how: --disk scratch:" "$(comp run --disk s)" "scratch: "
	if [ -n "$loops" ]; then
		# a few tries: a listing equal before and after the completion
		# is one another process did not change meanwhile
		for _try in 1 2 3 4 5; do
			_before=$(loops_now)
			_got=$(comp run --disk scratch : 0 = /dev/loop)
			[ "$_before" = "$(loops_now)" ] && break
		done
		expect_eq "$how: --disk scratch:0=/dev/loop" "$_got" "$_before"
	fi
	expect_eq "$how: nothing after cleanup" "$(comp cleanup '')" ""
}

all_opts=
# Every command's options as completed are those its --help prints.
for cmd in $commands; do
	want=$("$RAIDLAB" "$cmd" --help |
	    awk '/^Options:/ {on = 1; next} on && /^$/ {exit}
		on { for (i = 1; i <= NF; i++) if ($i ~ /^--/) {
			sub(/=.*/, "=", $i); print $i } }' | set_of)
	all_opts="$all_opts$cmd:$want
"
done

# Alone, with no helper of bash-completion's loaded.
# shellcheck source=/dev/null
. "$script" || fail "sourcing $script"
check_all "alone"
# After bash-completion, as an interactive shell has it.
if [ -r /usr/share/bash-completion/bash_completion ]; then
	complete -r raidlab
	# shellcheck source=/dev/null
	. /usr/share/bash-completion/bash_completion
	. "$script"
	check_all "with bash-completion"
fi

# The plumbing: what `raidlab complete` prints for every preset, as this
# test's parser reads it; no file written, no root.
for f in "$labs"/*.cfg; do
	for k in variants workloads; do
		expect_eq "complete $k ${f##*/}" \
		    "$("$RAIDLAB" complete "$k" "$f" | tr '\n' ' ')" \
		    "$(lab_names "$f" "$k" | tr '\n' ' ')"
	done
done
expect_eq "raidlab complete: no file written" \
    "$(find "$TEST_TMP/xdg" "$XDG_CONFIG_HOME" -newer "$TEST_TMP/broken.cfg" 2>/dev/null)" ""

# A lab that does not load: file:line on stderr, exit 2, no name.
"$RAIDLAB" complete variants "$TEST_TMP/broken.cfg" >"$TEST_TMP/out" \
    2>"$TEST_TMP/err"
expect_eq "broken lab: exit status" "$?" 2
expect_eq "broken lab: no name printed" "$(cat "$TEST_TMP/out")" ""
expect_match "broken lab: file:line" "$(cat "$TEST_TMP/err")" \
    "^$TEST_TMP/broken.cfg:[0-9]+: "
expect_eq "broken lab: nothing offered" \
    "$(comp run "$TEST_TMP/broken.cfg" -v '')" ""
# Bad uses of the plumbing: a usage error, nothing on stdout.
for args in "" "nope" "variants" "options nope" "values run nope"; do
	# shellcheck disable=SC2086
	out=$("$RAIDLAB" complete $args 2>/dev/null)
	expect_eq "complete $args: exit status" "$?" 2
	expect_eq "complete $args: no output" "$out" ""
done
exit 0
