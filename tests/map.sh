#!/bin/sh
# ARCHITECTURE.md against the tree, so that the map cannot drift from
# what it maps:
#  - every path in backticks exists: `dir/` a folder, `src/lab/lab` a
#    module (src/lab/lab.c, .h or src/lab/lab-*), `src/measure/wl-*` a
#    glob matching something, `configure.ac` a top-level file; a path
#    containing NAME is a file still to write and is skipped;
#  - every `name()` is defined in src/ or ui/ (a line starting "name("),
#    every `name[]` is a table defined there;
#  - every folder of the tree is named as `folder/` in "## Codemap";
#  - the table in "## Layers" has a row per layer, its folder in the
#    second column and its modules (tests/include-cycles.sh's: a
#    folder's files sharing the name's first word) in the third: every
#    folder of src/ and ui/ with a source file is in a row, every module
#    is in its folder's row and every module there exists;
#  - every #include in src/ and ui/, found as the compiler finds it (in
#    the including file's folder, else under src/ or ui/), goes to a
#    folder of the same row or of one further down, and names a header
#    of its own folder bare ("lab-int.h", never "lab/lab-int.h");
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
	# autotools, make distcheck, and what the build makes in a dist
	# tree built in place: the German man pages (man/de), the package
	# (_deb)
	$1 ~ /^(\.|\.git|autom4te\.cache|build-aux|m4|_build|_inst|man|_deb)$/ { next }
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
			grep -rq --include='*.c' "^${t%??}(" src ui 2>/dev/null || {
				echo "map: \`$t\` is defined nowhere in src/ or ui/" >&2
				bad=1
			} ;;
		*\[\])
			grep -rq --include='*.c' "[ *]${t%??}\[\] = " src ui 2>/dev/null || {
				echo "map: table \`$t\` is defined nowhere in src/ or ui/" >&2
				bad=1
			} ;;
		esac
	done <<EOF
$1
EOF
}

# Every folder and module in a row of the layers ($1), every include
# downwards.
check_layers() {
	find src ui -name '*.[ch]' 2>/dev/null | LC_ALL=C sort |
		while IFS= read -r f; do
			printf 'F %s\n' "$f"
			sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
				while IFS= read -r inc; do
					printf 'I %s %s\n' "$f" "$inc"
				done
		done | LC_ALL=C awk -v layers="$1" '
	function folder(path) {
		sub(/\/[^\/]*$/, "", path)
		return path
	}
	function module(path,   base) {
		base = path; sub(/^.*\//, "", base)
		sub(/\.[ch]$/, "", base); sub(/-.*/, "", base)
		return folder(path) "/" base
	}
	# A row: | layer | `folder/` | `module` ... | what it holds |
	BEGIN {
		n = split(layers, line, "\n")
		for (i = 1; i <= n; i++) {
			if (split(line[i], col, "|") < 5 ||
			    col[3] !~ /^ *`(src|ui)(\/[a-z0-9]+)*\/` *$/)
				continue
			dir = col[3]; gsub(/[ `]/, "", dir); sub(/\/$/, "", dir)
			rank[dir] = ++rows
			l = col[4]
			while (match(l, /`[a-z0-9]+`/)) {
				listed[dir "/" substr(l, RSTART + 1, RLENGTH - 2)] = 1
				l = substr(l, RSTART + RLENGTH)
			}
		}
	}
	$1 == "F" { files[$2] = 1; mods[module($2)] = 1; nf++; next }
	{ inc[++ninc] = $0 }
	END {
		for (f in files) {
			d = folder(f); m = module(f)
			if (!(d in rank)) {
				if (!(d in said))
					printf "map: folder %s/ (%s) is in no row of ## Layers\n",
					    d, f > "/dev/stderr"
				said[d] = bad = 1
			} else if (!(m in listed) && !(m in said)) {
				printf "map: module %s (%s) is not in the row of %s/ in ## Layers\n",
				    m, f, d > "/dev/stderr"
				said[m] = bad = 1
			}
		}
		for (m in listed)
			if (!(m in mods)) {
				printf "map: module %s in ## Layers has no file\n",
				    m > "/dev/stderr"
				bad = 1
			}
		for (i = 1; i <= ninc; i++) {
			split(inc[i], p, " ")
			a = folder(p[2])
			t = (a "/" p[3]) in files ? a "/" p[3] : \
			    ("src/" p[3]) in files ? "src/" p[3] : \
			    ("ui/" p[3]) in files ? "ui/" p[3] : ""
			if (t == "")
				continue	# config.h, a system or a test header
			b = folder(t)
			if ((a in rank) && (b in rank) && rank[b] < rank[a]) {
				printf "map: %s includes %s, but %s/ is above %s/ in ## Layers\n",
				    p[2], p[3], b, a > "/dev/stderr"
				bad = 1
			}
			if (a == b && p[3] ~ /\//) {
				printf "map: %s includes %s: a header of its own folder is included bare\n",
				    p[2], p[3] > "/dev/stderr"
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
	if grep -rl --include='*.[ch]' -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(n?curses|ncursesw/[a-z]+|form|menu|panel)\.h>' \
	    src 2>/dev/null >&2; then
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
	mkdir -p "$tmp/src/x" "$tmp/src/y" "$tmp/src/z" "$tmp/ui" "$tmp/extra"
	printf '#include "b.h"\n#include "x/b.h"\n' >"$tmp/src/x/b-x.c"
	: >"$tmp/src/x/b.h"
	printf '#include <curses.h>\n' >"$tmp/src/x/c.c"
	: >"$tmp/src/x/d.c"
	printf '#include "x/b.h"\n' >"$tmp/src/y/a.c"
	: >"$tmp/src/z/e.c"
	cat >"$tmp/doc" <<'EOF'
## Layers
| layer | folder | modules | what |
|---|---|---|---|
| top | `src/x/` | `b` `c` `gone` | |
| below | `src/y/` | `a` | |
## Codemap
`src/` `src/x/` `src/y/` `src/z/` `ui/` `src/gone.c` `nothing()`
`src/x/b`
EOF
	if (check "$tmp/doc" "$tmp") 2>"$tmp/out"; then
		echo "FAIL: map.sh passes a map that is wrong" >&2
		exit 1
	fi
	for want in '`src/gone.c` names nothing' 'folder extra/' \
	    '`nothing()` is defined nowhere' 'src/y/a.c includes x/b.h' \
	    'src/x/b-x.c includes x/b.h: a header of its own folder' \
	    'folder src/z/ (src/z/e.c) is in no row' \
	    'module src/x/d (src/x/d.c) is not in the row of src/x/' \
	    'module src/x/gone in ## Layers has no file' \
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
