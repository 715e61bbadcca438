#!/bin/sh
# A guest root for the md test VM built from another Debian release's
# packages (tests/system/md-vm.sh's second md generation): the release's
# kernel (linux-image-amd64's image) and the tools mkinitrd.sh copies
# (busybox-static, bash, mdadm, e2fsprogs, xfsprogs, btrfs-progs,
# util-linux, mount, kmod, coreutils) with the libraries they depend on,
# fetched with apt-get download and unpacked with dpkg-deb -x.
#
# usage: debian-root.sh SUITE CACHE
# Prints the root's directory (CACHE/SUITE/root-KEY) on stdout. apt runs
# on a private sources list and state under CACHE/SUITE/apt, on the
# mirror this host's apt uses: the host's apt configuration is never
# changed. The .debs stay in CACHE/SUITE/debs; the root is keyed by the
# .debs (names with versions, and SHA256) and this script, so a second
# run downloads and unpacks nothing. When the archive cannot be reached
# the last root built is used if there is one; otherwise the exit
# status is 77 with the reason on stderr. Other failures exit 1. The
# first run downloads ~150 MB and takes about a minute. Root only (the
# cache is shared by the checkouts of this machine, under a lock).
set -eu

[ $# -eq 2 ] || { echo "usage: $0 SUITE CACHE" >&2; exit 2; }
suite=$1
dir=$2/$suite
me=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

# What the guest needs by name; their libraries follow from Depends.
want="linux-image-amd64 busybox-static bash mdadm e2fsprogs xfsprogs
btrfs-progs util-linux mount kmod coreutils libc6"

die() {
	echo "$0: $*" >&2
	exit 1
}

mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" \
	"$dir/debs" || die "cannot make $dir"
exec 9>"$dir/lock"
flock 9

# The host's Debian mirror (deb822 or one-line sources), first found.
mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
	awk '/^URIs:/ && $2 ~ "/debian/?$" { print $2; exit }')
[ -n "$mirror" ] || mirror=$(cat /etc/apt/sources.list \
	/etc/apt/sources.list.d/*.list 2>/dev/null |
	awk '$1 == "deb" && $2 ~ "/debian/?$" { print $2; exit }')
mirror=${mirror:-http://deb.debian.org/debian}
printf 'deb %s %s main\n' "$mirror" "$suite" >"$dir/apt/sources.list"

apt_opts="-q -o Dir::Etc::sourcelist=$dir/apt/sources.list
-o Dir::Etc::sourceparts=- -o Dir::State::Lists=$dir/apt/lists
-o Dir::Cache=$dir/apt/cache -o Dir::State::status=/dev/null
-o Dir::Cache::pkgcache=$dir/apt/cache/pkgcache.bin
-o Dir::Cache::srcpkgcache=$dir/apt/cache/srcpkgcache.bin
-o Debug::NoLocking=1 -o APT::Get::List-Cleanup=0
-o Acquire::Retries=2 -o Acquire::http::Timeout=20"
apt_get() {
	# shellcheck disable=SC2086
	apt-get $apt_opts "$@"
}
apt_cache() {
	# shellcheck disable=SC2086
	apt-cache $apt_opts "$@"
}

# The last root built: what an unreachable archive falls back to.
last() {
	r=$(cat "$dir/last" 2>/dev/null) || r=
	if [ -n "$r" ] && [ -f "$dir/$r/.done" ]; then
		echo "$0: $suite: $1; using the root built before ($r)" >&2
		echo "$dir/$r"
		exit 0
	fi
	echo "$1" >&2
	exit 77
}

if ! timeout 120 apt-get $apt_opts update >"$dir/apt/update.log" 2>&1 ||
	grep -q '^\(W\|E\): Failed to fetch' "$dir/apt/update.log"; then
	last "Debian's archive ($mirror, $suite) is unreachable: $(grep -m1 '^[WE]:' "$dir/apt/update.log")"
fi

# The names wanted, then level by level their Depends and Pre-Depends
# that are libraries (lib*, zlib*; the first of alternatives; virtual names are
# left out): not udev, systemd or debconf, which the guest does without.
# The kernel: what linux-image-amd64 depends on (its image package,
# linux-image-VERSION, or linux-binary-VERSION in some releases).
kimg=$(apt_cache depends linux-image-amd64 |
	awk '$1 == "Depends:" && $2 ~ /^linux-(image|binary)-/ { print $2; exit }')
[ -n "$kimg" ] || die "$suite: no kernel image behind linux-image-amd64"
pkgs=$(printf '%s\n' $want | sed "s/^linux-image-amd64\$/$kimg/" | sort -u)
new=$pkgs
while [ -n "$new" ]; do
	printf '%s\n' "$pkgs" >"$dir/apt/pkgs"
	# shellcheck disable=SC2086
	new=$(apt_cache depends --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances $new |
		awk '/^[^ ]/ { alt = 0; next }
		$1 ~ /^(Depends|PreDepends):$/ && !alt && $2 ~ /^(lib|zlib)/ { print $2 }
		{ alt = ($1 ~ /^\|/) }' | sed 's/:any$//' | sort -u |
		comm -23 - "$dir/apt/pkgs")
	pkgs=$(printf '%s\n%s\n' "$pkgs" "$new" | sed '/^$/d' | sort -u)
done

# Each package's file and SHA256 in the archive; download what the
# cache does not hold already (apt-get checks the hash it downloads).
: >"$dir/apt/manifest"
need=
# shellcheck disable=SC2086
apt_cache show --no-all-versions $pkgs | awk '
	/^Package:/ { p = $2 }
	/^Filename:/ { n = split($2, a, "/"); f[p] = a[n] }
	/^SHA256:/ { s[p] = $2 }
	END { for (p in f) print f[p], s[p] }' >"$dir/apt/manifest"
for p in $pkgs; do
	grep -q "^${p}_" "$dir/apt/manifest" || die "$suite: $p is not in the archive"
done
sort -o "$dir/apt/manifest" "$dir/apt/manifest"
while read -r f s; do
	[ -f "$dir/debs/$f" ] &&
		[ "$(sha256sum <"$dir/debs/$f" | cut -d' ' -f1)" = "$s" ] && continue
	need="$need ${f%%_*}"
done <"$dir/apt/manifest"
if [ -n "$need" ]; then
	echo "$0: $suite: downloading$need" >&2
	# shellcheck disable=SC2086
	(cd "$dir/debs" && timeout 900 apt-get $apt_opts download $need) \
		>"$dir/apt/download.log" 2>&1 ||
		last "$suite: apt-get download failed: $(grep -m1 '^[WE]:' "$dir/apt/download.log")"
	# apt-get's names carry the epoch (escaped), the archive's do not
	for f in "$dir"/debs/*%3a*; do
		[ -e "$f" ] && mv "$f" "$(printf '%s' "$f" | sed 's/_[0-9]*%3a/_/')"
	done
fi

key=$( (cat "$dir/apt/manifest" "$me") | cksum | cut -d' ' -f1)
root=root-$key
if [ ! -f "$dir/$root/.done" ]; then
	rm -rf "$dir"/root-* "$dir/.unpack"
	mkdir "$dir/.unpack"
	while read -r f s; do
		[ "$(sha256sum <"$dir/debs/$f" | cut -d' ' -f1)" = "$s" ] ||
			die "$suite: $f: wrong SHA256"
		dpkg-deb -x "$dir/debs/$f" "$dir/.unpack" || die "$suite: cannot unpack $f"
	done <"$dir/apt/manifest"
	# merged /usr, as an installed system has it, and the modules'
	# index that the kernel's postinst would make
	for l in bin sbin lib lib64; do
		[ -e "$dir/.unpack/$l" ] || ln -s "usr/$l" "$dir/.unpack/$l"
	done
	for m in "$dir"/.unpack/usr/lib/modules/*; do
		depmod -b "$dir/.unpack" "${m##*/}" || die "$suite: depmod ${m##*/} failed"
	done
	cp "$dir/apt/manifest" "$dir/.unpack/.manifest"
	touch "$dir/.unpack/.done"
	mv "$dir/.unpack" "$dir/$root"
fi
# the .debs of other versions are not needed again
for f in "$dir"/debs/*.deb; do
	grep -q "^${f##*/} " "$dir/apt/manifest" || rm -f "$f"
done
echo "$root" >"$dir/last"
echo "$dir/$root"
