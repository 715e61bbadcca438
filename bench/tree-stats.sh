#!/bin/sh
# The shape of the tree in a tarball, from GNU tar's listing (tar tvf),
# one column per tarball, side by side: the figures the synthetic tree's
# generator (src/measure/tree.c) is held to. Any compression GNU tar reads; no
# root, nothing extracted, only POSIX sh, awk and sort.
#   bench/tree-stats.sh /usr/src/linux-source-6.1.tar.xz untar-tree-v2-....tar
# A FILE named LIST:FILE is already such a listing (tar tvf > FILE).
# Definitions (src/measure/tree.c and tests/unit/test-tree.c use the same):
#   depth    path components, the top directory being 1 ("linux/a/b.c": 3)
#   files    regular-file entries ("-"), hard links ("h") not included
#   exec     files with any x bit; empty: files of 0 bytes
#   pNN      nearest rank: the value at rank ceil(NN/100 * n), sorted
#   pNN/p50  a quantile of the file sizes over their median (the shape,
#            whatever the total)
#   files/dir, subdirs/dir  regular files and directories right in each
#            directory (every directory counted, empty ones too)
#   path_max the longest path in bytes, without a trailing "/"
set -u

me=tree-stats.sh
[ $# -ge 1 ] || { echo "usage: $me TARBALL..." >&2; exit 2; }
command -v tar >/dev/null 2>&1 || { echo "$me: needs GNU tar" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tree-stats.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# stats TARBALL: "key value" lines, in a fixed order.
stats() {
	case $1 in
	LIST:*) cp "${1#LIST:}" "$tmp/list" || return 1 ;;
	*) LC_ALL=C tar --numeric-owner --quoting-style=literal -tvf "$1" \
	    >"$tmp/list" || { echo "$me: $1: tar cannot list it" >&2; return 1; } ;;
	esac
	# Pass 1: one "kind value" line per fact, and the counts.
	LC_ALL=C awk -v out="$tmp/facts" '
	function ncomp(p,   n, i) {
		n = 1
		for (i = 1; i <= length(p); i++)
			if (substr(p, i, 1) == "/")
				n++
		return n
	}
	function parent(p) {
		if (sub(/\/[^\/]*$/, "", p))
			return p
		return ""
	}
	{
		t = substr($1, 1, 1)
		perm = $1
		size = $3
		name = $0
		sub(/^[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ /, "", name)
		if (t == "l")
			sub(/ -> .*$/, "", name)
		else if (t == "h")
			sub(/ link to .*$/, "", name)
		sub(/\/$/, "", name)
		d = ncomp(name)
		if (d > depth_max)
			depth_max = d
		if (length(name) > path_max)
			path_max = length(name)
		up = parent(name)
		if (t == "d") {
			dirs++
			if (d >= 10)
				dirs_deep++
			isdir[name] = 1
			if (up != "")
				sub_of[up]++
		} else if (t == "-") {
			files++
			bytes += size
			if (size == 0)
				empty++
			if (perm ~ /x/)
				exec++
			if (d >= 10)
				files_deep++
			files_of[up]++
			at_depth[d < 12 ? d : 12]++
			print "size", size > out
		} else if (t == "l") {
			symlinks++
		} else if (t == "h") {
			hardlinks++
		} else {
			other++
		}
	}
	function pct(a, b) { return b ? sprintf("%.2f", 100 * a / b) : "0.00" }
	END {
		for (p in isdir) {
			print "fpd", files_of[p] + 0 > out
			print "spd", sub_of[p] + 0 > out
		}
		close(out)
		printf "dirs %d\nfiles %d\nsymlinks %d\nhardlinks %d\nother %d\n",
		    dirs, files, symlinks, hardlinks, other
		printf "bytes %.0f\nmean_size %.0f\n", bytes, (files ? bytes / files : 0)
		printf "symlink_per_10k_files %.1f\n", (files ? 1e4 * symlinks / files : 0)
		printf "hardlink_per_10k_files %.1f\n", (files ? 1e4 * hardlinks / files : 0)
		printf "empty_pct %s\nexec_pct %s\n", pct(empty, files), pct(exec, files)
		printf "files_per_dir_mean %.2f\n", (dirs ? files / dirs : 0)
		printf "depth_max %d\n", depth_max
		printf "dirs_depth10+_pct %s\nfiles_depth10+_pct %s\n", \
		    pct(dirs_deep, dirs), pct(files_deep, files)
		for (i = 2; i <= 12; i++)
			printf "files_at_depth%d%s_pct %s\n", i, i == 12 ? "+" : "", \
			    pct(at_depth[i], files)
		printf "path_max %d\n", path_max
	}' "$tmp/list" || return 1
	# Pass 2: the distributions, sorted.
	LC_ALL=C sort -k1,1 -k2,2n "$tmp/facts" | LC_ALL=C awk -v mean="$(
	    LC_ALL=C awk '$1 ~ /^-/ { s += $3; n++ } END { printf "%.6f", n ? s / n : 1 }' "$tmp/list")" '
	function q(k, f,   r) {
		r = int(f * n[k] / 100)
		if (r < f * n[k] / 100)
			r++
		if (r < 1)
			r = 1
		return v[k, r]
	}
	{ n[$1]++; v[$1, n[$1]] = $2 }
	$1 == "size" {
		b = 0
		for (x = $2; x >= 1; x = int(x / 4))
			b++
		bucket[b]++
	}
	$1 == "fpd" && $2 == 0 { fpd0++ }
	$1 == "spd" && $2 == 0 { spd0++ }
	END {
		split("10 25 50 75 90 99", qs, " ")
		for (i = 1; i <= 6; i++)
			printf "size_p%s %d\n", qs[i], q("size", qs[i])
		printf "size_max %d\n", (n["size"] ? v["size", n["size"]] : 0)
		# The shape whatever the total: over the median (robust:
		# a few huge files move the mean of a small tree a lot).
		med = q("size", 50)
		for (i = 1; i <= 6; i++)
			if (i != 3)
				printf "size_p%s/p50 %.3f\n", qs[i], \
				    (med > 0 ? q("size", qs[i]) / med : 0)
		printf "size_mean/p50 %.3f\n", (med > 0 ? mean / med : 0)
		# Powers of four: [0], [1,4), [4,16) ... [4^k, 4^(k+1)).
		split("0 1 4 16 64 256 1K 4K 16K 64K 256K 1M 4M", lo, " ")
		for (i = 0; i <= 12; i++)
			printf "size_%s+_pct %.2f\n", lo[i + 1], \
			    (n["size"] ? 100 * bucket[i] / n["size"] : 0)
		printf "dirs_without_files_pct %.2f\n", (n["fpd"] ? 100 * fpd0 / n["fpd"] : 0)
		for (i = 3; i <= 6; i++)
			printf "files_per_dir_p%s %d\n", qs[i], q("fpd", qs[i])
		printf "files_per_dir_max %d\n", (n["fpd"] ? v["fpd", n["fpd"]] : 0)
		printf "dirs_without_subdirs_pct %.2f\n", (n["spd"] ? 100 * spd0 / n["spd"] : 0)
		for (i = 5; i <= 6; i++)
			printf "subdirs_per_dir_p%s %d\n", qs[i], q("spd", qs[i])
		printf "subdirs_per_dir_max %d\n", (n["spd"] ? v["spd", n["spd"]] : 0)
	}'
}

i=0
for tb in "$@"; do
	i=$((i + 1))
	stats "$tb" >"$tmp/col$i" || exit 1
done
# Side by side: the key, then each tarball's value (same keys, same order).
{
	printf 'tarball'
	for tb in "$@"; do printf ' %s' "$(basename "$tb")"; done
	printf '\n'
	j=1 cols=
	while [ "$j" -le "$i" ]; do cols="$cols $tmp/col$j"; j=$((j + 1)); done
	# shellcheck disable=SC2086
	paste -d' ' $cols | awk '{ printf "%s", $1
		for (k = 2; k <= NF; k += 2) printf " %s", $k
		printf "\n" }'
} | awk '{ w = length($1) > w ? length($1) : w; l[NR] = $0 }
	END { for (r = 1; r <= NR; r++) { nf = split(l[r], f, " ")
		printf "%-" w "s", f[1]
		for (k = 2; k <= nf; k++) printf " %16s", f[k]
		printf "\n" } }'
