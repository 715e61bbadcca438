#!/bin/sh
# No include cycle between modules, so that the layers keep pointing one
# way. A module is a folder's files that share the name's first word:
# the folder and the file name up to its first '-' (src/lab/lab-check-
# array.c and src/lab/lab.h are src/lab/lab; ui/tui/tui-run-draw.c is
# ui/tui/tui; a header is in the module its name says, so
# src/measure/engine-int.h is src/measure/engine). A module depends on
# another when one of its files includes (#include "x.h") a header of the
# other, found as the compiler finds it: in the including file's folder
# ("lab-int.h"), else under src/ or ui/ ("base/xalloc.h"). Any cycle of
# such dependencies fails, printed with the includes that make each step
# of it.
#
# include-cycles.sh [ROOT]: check ROOT (default $top_srcdir, else .).
# Without ROOT it first proves on a tree of its own that it sees a cycle,
# so that it cannot pass by finding nothing. Run by make check and by
# .ci/run.
set -u

cycles() {
	(cd "$1" && find src ui -name '*.[ch]' 2>/dev/null | LC_ALL=C sort |
		while IFS= read -r f; do
			sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
				while IFS= read -r inc; do
					printf '%s %s\n' "$f" "$inc"
				done
			printf '%s\n' "$f"
		done) | LC_ALL=C awk '
	function module(path,   dir, base) {
		dir = path; sub(/\/[^\/]*$/, "", dir)
		base = path; sub(/^.*\//, "", base)
		sub(/\.[ch]$/, "", base); sub(/-.*/, "", base)
		return dir "/" base
	}
	# The depth-first walk: a module met again while on the path closes
	# a cycle; it is printed once, from where it starts.
	function walk(m,   k, n, i, to, cyc) {
		state[m] = 1
		path[++depth] = m
		n = split(edges[m], to, " ")
		for (k = 1; k <= n; k++) {
			if (state[to[k]] == 1) {
				cyc = ""
				for (i = 1; i <= depth; i++)
					if (path[i] == to[k])
						break
				for (; i <= depth; i++)
					cyc = cyc "  " path[i] " -> " \
					    (i < depth ? path[i + 1] : to[k]) \
					    "  (" why[path[i], i < depth ? path[i + 1] : to[k]] ")\n"
				printf "include cycle:\n%s", cyc
				found++
			} else if (state[to[k]] == 0)
				walk(to[k])
		}
		depth--
		state[m] = 2
	}
	NF == 1 { files[$1] = 1; next }
	{ inc[++ninc] = $0 }
	END {
		for (i = 1; i <= ninc; i++) {
			split(inc[i], p, " ")
			here = p[1]; sub(/\/[^\/]*$/, "", here)
			target = (here "/" p[2]) in files ? here "/" p[2] : \
			    ("src/" p[2]) in files ? "src/" p[2] : \
			    ("ui/" p[2]) in files ? "ui/" p[2] : ""
			if (target == "")
				continue	# config.h, a system or a test header
			a = module(p[1]); b = module(target)
			if (a == b)
				continue
			if (!((a, b) in why)) {
				edges[a] = edges[a] " " b
				why[a, b] = p[1] " includes " p[2]
			}
		}
		for (f in files)
			mods[module(f)] = 1
		for (m in mods)
			if (state[m] == 0)
				walk(m)
		exit (found > 0)
	}'
}

if [ $# -eq 0 ]; then
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/raidlab-cycles.XXXXXX") || exit 99
	trap 'rm -rf "$tmp"' EXIT
	# src/x/a -> src/x/b (a bare include, found beside a.h, not the
	# src/y/b.h of the same name) -> src/y/c -> src/x/a again.
	mkdir -p "$tmp/src/x" "$tmp/src/y" "$tmp/ui"
	printf '#include "b.h"\n' >"$tmp/src/x/a.h"
	printf '#include "y/c.h"\n' >"$tmp/src/x/b.h"
	: >"$tmp/src/y/b.h"
	: >"$tmp/src/y/c.h"
	printf '#include "c.h"\n#include "x/a.h"\n' >"$tmp/src/y/c-x.c"
	printf '#include "x/a.h"\n' >"$tmp/ui/d.c"
	if cycles "$tmp" >"$tmp/out"; then
		echo "FAIL: include-cycles.sh sees no cycle src/x/a -> src/x/b -> src/y/c" >&2
		exit 1
	fi
	grep -q 'src/x/a.h includes b.h' "$tmp/out" &&
		grep -q 'src/y/c-x.c includes x/a.h' "$tmp/out" || {
		cat "$tmp/out" >&2
		echo "FAIL: include-cycles.sh does not name the include" >&2
		exit 1
	}
	set -- "${top_srcdir:-.}"
fi
if ! out=$(cycles "$1"); then
	printf '%s\n' "$out" >&2
	exit 1
fi
[ -d "$1/src" ] || { echo "FAIL: no $1/src" >&2; exit 1; }
exit 0
