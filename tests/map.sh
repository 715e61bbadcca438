#!/bin/sh
# ARCHITECTURE.md against the tree, so that the map cannot drift from
# what it maps:
#  - every path in backticks exists: `dir/` a folder, `src/lab` a module
#    (src/lab.c, .h or src/lab-*), `src/wl-*` a glob matching something,
#    `configure.ac` a top-level file; a path containing NAME is a file
#    still to write and is skipped;
#  - every `name()` is defined in src/ or ui/ (a line starting "name("),
#    every `name[]` is a table defined there;
#  - every folder of the tree is named as `folder/` in "## Codemap";
#  - every module (tests/include-cycles.sh's: a folder's files sharing
#    the name's first word) is in a row of the table in "## Layers", and
#    every #include in src/ and ui/ goes to a module of the same row or
#    of one further down;
#  - no file in src/ includes a curses, form or menu header.
# The folders are git's (tracked or not ignored) when ROOT is a
# checkout, else those found (a dist tree), leaving out what autotools
# and the build make.
#
# map.sh [ROOT]: check ROOT (default $top_srcdir, else .). Without ROOT
# it first proves on a tree of its own that it fails, so that it cannot
# pass by finding nothing. Run by make check.
set -u

# What stdin has in backticks, a span a line (a span may wrap).
ticks() {
	awk 'BEGIN { RS = "\001" } {
		gsub(/\n/, " ")
		n = split($0, a, "`")
		for (i = 2; i <= n; i += 2)
			print a[i]
	}'
}

# The lines of section $1 of file $2.
section() {
	awk -v h="## $1" '$0 == h { on = 1; next } /^## / { on = 0 } on' "$2"
}

# The folders of the tree in the working directory, a line each.
folders() {
	if [ -e .git ] && git rev-parse --show-toplevel >/dev/null 2>&1; then
		# Tracked, and new files git does not ignore: a folder being
		# added counts before its first commit.
		git ls-files --cached --others --exclude-standard |
			sed -n 's|/[^/]*$||p'
	else
		find . -type d | sed 's|^\./||'
	fi | awk -F/ '
	$1 ~ /^(\.|\.git|autom4te\.cache|build-aux|m4|_build|_inst)$/ { next }
	$1 ~ /^raidlab-[0-9]/ || $0 ~ /^tests\/fuzz\/work/ { next }
	{
		p = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^\./ && $i != ".ci")
				next	# .deps, .libs and other hidden ones
			p = p (i > 1 ? "/" : "") $i
			print p
		}
	}' | LC_ALL=C sort -u
}

# Every path, function and table the map names must exist.
check_names() {
	while IFS= read -r t; do
		case $t in
		*NAME* | /* | *[!A-Za-z0-9._*/-]*) ;;
		*/* | *.ac | *.am | *.md | .clang-format)
			npaths=$((npaths + 1))
			found=
			for f in $t $t.c $t.h $t-*; do
				[ -e "$f" ] && { found=1; break; }
			done
			case $t in */) [ -d "$t" ] || found= ;; esac
			[ -n "$found" ] || {
				echo "map: \`$t\` names nothing in the tree" >&2
				bad=1
			} ;;
		esac
		case $t in
		_\(\) | N_\(\)) ;;
		*[!a-z0-9_]*\(\) | *[!a-z0-9_]*\[\]) ;;
		*\(\))
			grep -q "^${t%??}(" src/*.c ui/*.c 2>/dev/null || {
				echo "map: \`$t\` is defined nowhere in src/ or ui/" >&2
				bad=1
			} ;;
		*\[\])
			grep -q "[ *]${t%??}\[\] = " src/*.c ui/*.c 2>/dev/null || {
				echo "map: table \`$t\` is defined nowhere in src/ or ui/" >&2
				bad=1
			} ;;
		esac
	done <<EOF
$1
EOF
}

# Every module in a row of the layers ($1), every include downwards.
check_layers() {
	find src ui -name '*.[ch]' 2>/dev/null | LC_ALL=C sort |
		while IFS= read -r f; do
			printf 'F %s\n' "$f"
			sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
				while IFS= read -r inc; do
					printf 'I %s %s\n' "$f" "$inc"
				done
		done | LC_ALL=C awk -v layers="$1" '
	function module(path,   dir, base) {
		dir = path; sub(/\/[^\/]*$/, "", dir)
		base = path; sub(/^.*\//, "", base)
		sub(/\.[ch]$/, "", base); sub(/-.*/, "", base)
		return dir "/" base
	}
	BEGIN {
		n = split(layers, line, "\n")
		for (i = 1; i <= n; i++) {
			if (line[i] !~ /^\|/)
				continue
			l = line[i]; row = 0
			while (match(l, /`(src|ui)\/[a-z0-9]+`/)) {
				if (!row)
					row = ++rows
				rank[substr(l, RSTART + 1, RLENGTH - 2)] = row
				l = substr(l, RSTART + RLENGTH)
			}
		}
	}
	$1 == "F" { files[$2] = 1; nf++; next }
	{ inc[++ninc] = $0 }
	END {
		for (f in files)
			if (!(module(f) in rank) && !(module(f) in said)) {
				printf "map: module %s (%s) is in no row of ## Layers\n",
				    module(f), f > "/dev/stderr"
				said[module(f)] = bad = 1
			}
		for (i = 1; i <= ninc; i++) {
			split(inc[i], p, " ")
			t = ("src/" p[3]) in files ? "src/" p[3] : \
			    ("ui/" p[3]) in files ? "ui/" p[3] : ""
			a = module(p[2]); b = module(t)
			if (t != "" && (a in rank) && (b in rank) &&
			    rank[b] < rank[a]) {
				printf "map: %s includes %s, but %s is above %s in ## Layers\n",
				    p[2], p[3], b, a > "/dev/stderr"
				bad = 1
			}
		}
		if (nf == 0 || rows == 0) {
			print "map: no module or no layer found" > "/dev/stderr"
			bad = 1
		}
		exit bad
	}'
}

check() {
	doc=$1 bad=0 npaths=0 nfolders=0
	[ -f "$doc" ] || { echo "FAIL: no $doc" >&2; return 1; }
	names=$(ticks <"$doc" | LC_ALL=C sort -u)
	codemap=$(section Codemap "$doc" | ticks)
	layers=$(section Layers "$doc")
	cd "$2" || return 1

	check_names "$names"
	for d in $(folders); do
		nfolders=$((nfolders + 1))
		printf '%s\n' "$codemap" | grep -qxF "$d/" || {
			echo "map: folder $d/ is not in ## Codemap" >&2
			bad=1
		}
	done
	check_layers "$layers" || bad=1
	if grep -l -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(n?curses|ncursesw/[a-z]+|form|menu|panel)\.h>' \
	    src/*.[ch] 2>/dev/null >&2; then
		echo "map: the files above include curses in src/" >&2
		bad=1
	fi
	[ "$npaths" -gt 0 ] && [ "$nfolders" -gt 0 ] || {
		echo "map: nothing checked ($npaths paths, $nfolders folders)" >&2
		bad=1
	}
	return $bad
}

if [ $# -eq 0 ]; then
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/raidlab-map.XXXXXX") || exit 99
	trap 'rm -rf "$tmp"' EXIT
	mkdir "$tmp/src" "$tmp/ui" "$tmp/extra"
	printf '#include "b.h"\n' >"$tmp/src/b-x.c"
	printf '#include "b.h"\n' >"$tmp/src/a.c"
	: >"$tmp/src/b.h"
	printf '#include <curses.h>\n' >"$tmp/src/c.c"
	cat >"$tmp/doc" <<'EOF'
## Layers
| `src/b` `src/c` |
| `src/a` |
## Codemap
`src/` `ui/` `src/gone.c` `nothing()` `src/b`
EOF
	if (check "$tmp/doc" "$tmp") 2>"$tmp/out"; then
		echo "FAIL: map.sh passes a map that is wrong" >&2
		exit 1
	fi
	for want in '`src/gone.c` names nothing' 'folder extra/' \
	    '`nothing()` is defined nowhere' 'src/a.c includes b.h' \
	    'include curses'; do
		grep -qF "$want" "$tmp/out" || {
			cat "$tmp/out" >&2
			echo "FAIL: map.sh does not say: $want" >&2
			exit 1
		}
	done
	set -- "${top_srcdir:-.}"
fi
check "$1/ARCHITECTURE.md" "$1"
