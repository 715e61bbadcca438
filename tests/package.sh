#!/bin/sh
# The Debian package, built, linted, installed, used and purged, as CI
# runs it (.ci/run) and a developer can by hand:
#   tests/package.sh build OUTDIR   build raidlab_*.deb from a clean
#                                   export of the tree into OUTDIR, then
#                                   lintian on it (any user; needs the
#                                   Build-Depends and lintian)
#   tests/package.sh check DEB      as root: install DEB, run the
#                                   installed raidlab on every installed
#                                   preset, find its man pages, purge
#                                   it and check that none of it remains
#   tests/package.sh                both, in a temporary directory
# The build happens in a copy, never in the tree, so an in-tree build
# (CI's ASan one) is left as it was. Not run by make check: it installs
# a package on the machine.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "package: $*" >&2; exit 1; }

purge() {
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq raidlab >/dev/null
}

build() {
	out=$1
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	# The package's upstream version is configure.ac's, so that the
	# two cannot drift apart.
	want=$(sed -n 's/^AC_INIT(\[raidlab\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
	have=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
	[ "${have%-*}" = "$want" ] ||
		die "debian/changelog says $have, configure.ac $want"

	tmp=$(mktemp -d "${TMPDIR:-/tmp}/raidlab-deb.XXXXXX")
	src=$tmp/raidlab-$want
	mkdir "$src"
	# What git tracks or would track: the tree as committed plus the
	# changes being made, without build products.
	git -C "$top" rev-parse --git-dir >/dev/null 2>&1 ||
		die "build needs a git checkout (it exports what git tracks)"
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		tar cf - --null --no-recursion --ignore-failed-read -T - 2>/dev/null) |
		tar xf - -C "$src"
	(cd "$src" && dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1 || {
		tail -n 60 "$tmp/build.log"; rm -rf "$tmp"; die "dpkg-buildpackage failed"; }
	grep -E '^(# (PASS|SKIP|FAIL|ERROR):|dpkg-deb: building)' "$tmp/build.log" || true
	cp "$tmp"/*.deb "$tmp"/*.changes "$tmp"/*.buildinfo "$out"/
	rm -rf "$tmp"

	# The .changes brings the .deb and the .buildinfo with it. Info tags
	# are shown, errors and warnings fail (or are overridden with a
	# reason in debian/raidlab.lintian-overrides).
	lintian --fail-on error,warning --display-info "$out"/raidlab_*_"$(dpkg --print-architecture)".changes ||
		die "lintian: see above"
	echo "package: built $(ls "$out"/raidlab_*.deb)"
}

check() {
	deb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	[ "$(id -u)" = 0 ] || die "check installs a package: run it as root"
	! dpkg-query -W -f='${Status}' raidlab 2>/dev/null | grep -q 'ok installed' ||
		die "raidlab is installed already; purge it first (apt-get purge raidlab)"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/raidlab-pkgcheck.XXXXXX")
	purged=
	# However the checks end, the machine is left without the package.
	trap '[ -n "$purged" ] || purge; rm -rf "$tmp"' EXIT

	# Recommends are left out: the checks below need none of them, and
	# the purge then leaves the machine as it was.
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "$deb" >/dev/null
	dpkg -L raidlab >"$tmp/files"
	: >"$tmp/dirs"; : >"$tmp/plain"
	while IFS= read -r f; do
		[ "$f" != /. ] || continue
		[ -d "$f" ] && echo "$f" >>"$tmp/dirs" || echo "$f" >>"$tmp/plain"
	done <"$tmp/files"

	bad=0
	fail() { echo "FAIL: $*" >&2; bad=1; }
	# Only the installed files: no data directory from the environment,
	# no user labs shadowing a preset, nothing in the working directory.
	mkdir "$tmp/home"
	run() {
		(cd "$tmp/home" && env -u RAIDLAB_DATADIR HOME="$tmp/home" \
			XDG_CONFIG_HOME="$tmp/home/config" \
			XDG_DATA_HOME="$tmp/home/data" raidlab "$@")
	}
	[ "$(command -v raidlab)" = /usr/bin/raidlab ] || fail "raidlab is not /usr/bin/raidlab on PATH"
	v=$(dpkg-deb -f "$deb" Version)
	run --version | grep -qF "${v%-*}" || fail "raidlab --version does not say ${v%-*}"

	# Every preset, by name and by path: the same lab, valid (exit 3:
	# valid, but this machine could not run it, e.g. without md).
	n=0
	for cfg in /usr/share/raidlab/labs/*.cfg; do
		[ -e "$cfg" ] || break
		name=$(basename "$cfg" .cfg)
		n=$((n + 1))
		st=0; run check "$name" >"$tmp/by-name" 2>"$tmp/err" || st=$?
		case $st in 0 | 3) ;; *) cat "$tmp/err" >&2; fail "raidlab check $name: exit $st" ;; esac
		st=0; run check "$cfg" >"$tmp/by-path" 2>"$tmp/err" || st=$?
		case $st in 0 | 3) ;; *) cat "$tmp/err" >&2; fail "raidlab check $cfg: exit $st" ;; esac
		cmp -s "$tmp/by-name" "$tmp/by-path" ||
			fail "raidlab check $name is not the lab at $cfg"
		echo "ok: raidlab check $name (exit $st)"
	done
	[ "$n" -gt 0 ] || fail "no preset in /usr/share/raidlab/labs"
	# The default lab, as `raidlab run quick` would run it headless.
	run run quick --dry-run >/dev/null 2>"$tmp/err" || {
		cat "$tmp/err" >&2; fail "raidlab run quick --dry-run"; }
	for page in raidlab raidlab.lab; do
		if man -w "$page" >/dev/null 2>&1; then
			echo "ok: man -w $page"
		else
			fail "man -w $page finds nothing"
		fi
	done

	# The completion, the German catalogue and man pages, where Debian
	# keeps them, and working.
	for f in /usr/share/bash-completion/completions/raidlab \
		/usr/share/locale/de/LC_MESSAGES/raidlab.mo \
		/usr/share/man/de/man1/raidlab.1.gz \
		/usr/share/man/de/man5/raidlab.lab.5.gz; do
		if grep -qx "$f" "$tmp/files"; then
			echo "ok: $f"
		else
			fail "the package has no $f"
		fi
	done
	bash -c '. /usr/share/bash-completion/completions/raidlab &&
		complete -p raidlab' >/dev/null 2>&1 ||
		fail "the installed completion does not register for raidlab"
	case $(man -w -L de raidlab 2>/dev/null) in
	/usr/share/man/de/*) echo "ok: man -L de -w raidlab" ;;
	*) fail "man -L de -w raidlab does not find the German page" ;;
	esac
	[ "$(run complete variants quick)" = tmpdir ] ||
		fail "raidlab complete variants quick: not the preset's variant"

	purge
	purged=1
	case $(dpkg-query -W -f='${Status}' raidlab 2>/dev/null || true) in
	"" | *not-installed) ;;
	*) fail "raidlab is still known to dpkg after the purge" ;;
	esac
	while IFS= read -r f; do
		if [ -e "$f" ] || [ -L "$f" ]; then
			fail "left after the purge: $f"
		fi
	done <"$tmp/plain"
	# A directory that stays must belong to another package.
	while IFS= read -r d; do
		[ ! -d "$d" ] || dpkg-query -S "$d" >/dev/null 2>&1 ||
			fail "left after the purge, owned by no package: $d/"
	done <"$tmp/dirs"
	[ "$bad" = 0 ] || exit 1
	echo "package: installed, used and purged; $(wc -l <"$tmp/plain") files, none left"
}

case ${1:-} in
build) [ $# = 2 ] || die "usage: tests/package.sh build OUTDIR"; build "$2" ;;
check) [ $# = 2 ] || die "usage: tests/package.sh check DEB"; check "$2" ;;
"")
	work=$(mktemp -d "${TMPDIR:-/tmp}/raidlab-package.XXXXXX")
	build "$work"
	(check "$work"/raidlab_*.deb) || { rm -rf "$work"; exit 1; }
	rm -rf "$work"
	;;
*) die "usage: tests/package.sh [build OUTDIR | check DEB]" ;;
esac
