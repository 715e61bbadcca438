/*
 * Python's random.Random, bit for bit, for the calls compilebench makes:
 * a Mersenne Twister (MT19937) seeded as Random(int) seeds it (init_by_array
 * over the integer's 32-bit words, least significant first), getrandbits,
 * random() (53 bits from two outputs), and randbelow, randint, choice and
 * shuffle, which all draw through randbelow's rejection sampling on
 * getrandbits(bit length of n). Written from the published algorithm
 * (Matsumoto and Nishimura's MT19937, and Python's documented seeding
 * and sampling); tests/unit/test-pyrand.c checks it against python3.
 *
 * No allocation, no global state: one struct pyrand per sequence, owned
 * by one thread.
 */
#ifndef RAIDLAB_PYRAND_H
#define RAIDLAB_PYRAND_H

#include <stddef.h>
#include <stdint.h>

#define PYRAND_N 624

struct pyrand {
	uint32_t mt[PYRAND_N];
	unsigned i; /* next output; PYRAND_N: regenerate first */
};

/* As random.Random(seed) (seed >= 0): the same sequence as Python's. */
void pyrand_seed(struct pyrand *p, uint64_t seed);

/* One raw 32-bit output of the generator. */
uint32_t pyrand_u32(struct pyrand *p);

/* getrandbits(k), 1 <= k <= 64: k random bits (the first output low). */
uint64_t pyrand_bits(struct pyrand *p, unsigned k);

/* random(): a double in [0, 1) from two outputs (a >> 5, b >> 6). */
double pyrand_random(struct pyrand *p);

/* _randbelow(n), n >= 1: uniform in [0, n), as Python draws it. */
uint64_t pyrand_below(struct pyrand *p, uint64_t n);

/* randint(a, b), a <= b: uniform in [a, b], as randrange(a, b + 1). */
int64_t pyrand_randint(struct pyrand *p, int64_t a, int64_t b);

/*
 * shuffle() of an array of n indices: for i from n - 1 down to 1, swap
 * v[i] with v[randbelow(i + 1)]. Draws exactly as Python's shuffle of
 * any list of n elements, whatever they hold.
 */
void pyrand_shuffle(struct pyrand *p, uint32_t *v, size_t n);

#endif
