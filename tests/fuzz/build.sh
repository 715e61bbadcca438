#!/bin/sh
# Build the libFuzzer targets: tests/fuzz/build.sh SRCDIR, run from the
# build directory by `make fuzz`, which passes the core library's sources
# and flags in FUZZ_SOURCES, FUZZ_CPPFLAGS, FUZZ_CFLAGS and FUZZ_LIBS.
# The core is normally built with gcc; libFuzzer needs clang's coverage
# instrumentation in every object it explores, so the core's sources are
# compiled again with clang into tests/fuzz/work/obj (only those that
# changed, or all when a header or the flags did) and linked with each
# tests/fuzz/fuzz-*.c into tests/fuzz/fuzz-*. Debian 12: clang-14 and
# libclang-rt-14-dev (the libFuzzer and sanitizer runtimes).
set -eu

srcdir=${1:?usage: build.sh SRCDIR}
cc=${FUZZ_CC:-clang}
jobs=${FUZZ_JOBS:-2}
obj=tests/fuzz/work/obj
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
# After the configured flags, so that these win: optimised enough to
# explore quickly, -Wno-error because a clang-only warning in the core is
# gcc CI's business, not a reason to skip fuzzing.
flags="$FUZZ_CPPFLAGS $FUZZ_CFLAGS -g -O1 -fno-omit-frame-pointer $san -Wno-error"

command -v "$cc" >/dev/null || {
	echo "build.sh: $cc not found (Debian packages: clang-14 libclang-rt-14-dev)" >&2
	exit 1; }
mkdir -p "$obj"

# A changed header or flag set rebuilds everything: no dependency
# tracking here, and a full build is a minute.
stamp=$obj/.flags
if [ "$(cat "$stamp" 2>/dev/null)" != "$cc $flags" ] ||
	[ -n "$(find "$srcdir/src" config.h -name '*.h' -newer "$stamp" 2>/dev/null)" ]; then
	rm -f "$obj"/*.o
	printf '%s' "$cc $flags" > "$stamp"
fi

# Sources and flags are split on blanks: no word holds one (make has
# removed its quoting).
todo=''
n=0
for s in $FUZZ_SOURCES; do
	case $s in *.c) ;; *) continue ;; esac
	o=$obj/$(basename "$s" .c).o
	if [ ! -f "$o" ] || [ "$srcdir/$s" -nt "$o" ]; then
		todo="$todo $s" n=$((n + 1))
	fi
done
if [ -n "$todo" ]; then
	echo "  CLANG    $n core sources -> $obj"
	# shellcheck disable=SC2086,SC2016
	printf '%s\n' $todo | CC=$cc FLAGS=$flags SRC=$srcdir OBJ=$obj \
		xargs -P "$jobs" -n 1 sh -c \
		'exec $CC $FLAGS -fsanitize=fuzzer-no-link -c "$SRC/$1" -o "$OBJ/$(basename "$1" .c).o"' sh
	rm -f "$obj/libcore.a"
fi
[ -f "$obj/libcore.a" ] || ar rcs "$obj/libcore.a" "$obj"/*.o

# The gcc-built library stays out: its objects have no coverage.
libs=
for l in $FUZZ_LIBS; do
	[ "$l" = libraidlab.a ] || libs="$libs $l"
done
for t in lab record import; do
	echo "  CCLD     tests/fuzz/fuzz-$t"
	# shellcheck disable=SC2086
	$cc $flags -fsanitize=fuzzer "$srcdir/tests/fuzz/fuzz-$t.c" \
		"$obj/libcore.a" $libs -o "tests/fuzz/fuzz-$t"
done
