# Set-up shared by the benchmarks that drop the page cache and make their
# own targets (a tmpfs, ext4 on a loop device): compilebench.sh and
# untar.sh. Sourced after the script sets `me` (its name, for messages),
# never run. Root only, like the scripts.

# bench_need_root WHY: skip (exit 77) unless root; WHY says what for.
bench_need_root() {
	[ "$(id -u)" = 0 ] || { echo "$me: needs root ($1)" >&2; exit 77; }
}

# bench_need CMD...: skip (exit 77) unless every CMD is on PATH.
bench_need() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || { echo "$me: needs $c" >&2; exit 77; }
	done
}

# bench_dirs NAME: $tmp under /var/tmp (images, labs, results) and $shm
# under /dev/shm (what must cost no disk I/O to read), both
# raidlab-NAME.XXXXXX. On exit the mount $mnt and the loop device $loop,
# when set, are released and both directories removed.
bench_dirs() {
	tmp='' shm='' mnt='' loop=''
	trap cleanup EXIT
	trap 'exit 130' INT TERM
	tmp=$(mktemp -d "/var/tmp/raidlab-$1.XXXXXX") || exit 1
	shm=$(mktemp -d "/dev/shm/raidlab-$1.XXXXXX") || exit 1
}

# release: unmount $mnt and detach $loop, those this script made.
release() {
	if [ -n "$mnt" ]; then
		umount "$mnt" || umount -l "$mnt"
		mnt=
	fi
	if [ -n "$loop" ]; then
		losetup -d "$loop"
		loop=
	fi
}

cleanup() {
	release
	rm -rf "$tmp" "$shm"
}

# drop: write back, then empty the page cache.
drop() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}
