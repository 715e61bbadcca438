/*
 * Python's random.Random (pyrand.h): MT19937 with Python's seeding and
 * sampling. Any thread, one struct pyrand per thread.
 */
#include "config.h"

#include "pyrand.h"

#define MT_M 397
#define MT_UPPER 0x80000000u
#define MT_LOWER 0x7fffffffu

static void
init_genrand(struct pyrand *p, uint32_t s)
{
	unsigned i;

	p->mt[0] = s;
	for (i = 1; i < PYRAND_N; i++)
		p->mt[i] =
		    1812433253u * (p->mt[i - 1] ^ (p->mt[i - 1] >> 30)) + i;
	p->i = PYRAND_N;
}

/* init_by_array: the key mixed into the state seeded with 19650218. */
static void
init_by_array(struct pyrand *p, const uint32_t *key, unsigned len)
{
	unsigned i = 1, j = 0, k;
	uint32_t *mt = p->mt;

	init_genrand(p, 19650218u);
	for (k = PYRAND_N > len ? PYRAND_N : len; k > 0; k--) {
		mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) +
		    key[j] + j;
		i++;
		j++;
		if (i >= PYRAND_N) {
			mt[0] = mt[PYRAND_N - 1];
			i = 1;
		}
		if (j >= len)
			j = 0;
	}
	for (k = PYRAND_N - 1; k > 0; k--) {
		mt[i] =
		    (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) -
		    i;
		i++;
		if (i >= PYRAND_N) {
			mt[0] = mt[PYRAND_N - 1];
			i = 1;
		}
	}
	mt[0] = MT_UPPER; /* a state that is not all zeros */
}

void
pyrand_seed(struct pyrand *p, uint64_t seed)
{
	/* Python: the integer's 32-bit words, low first; 0 is one word. */
	uint32_t key[2] = { (uint32_t)seed, (uint32_t)(seed >> 32) };

	init_by_array(p, key, key[1] != 0 ? 2 : 1);
}

static void
regenerate(struct pyrand *p)
{
	uint32_t *mt = p->mt, y;
	unsigned k;

	for (k = 0; k < PYRAND_N; k++) {
		y = (mt[k] & MT_UPPER) | (mt[(k + 1) % PYRAND_N] & MT_LOWER);
		mt[k] = mt[(k + MT_M) % PYRAND_N] ^ (y >> 1) ^
		    ((y & 1u) ? 0x9908b0dfu : 0u);
	}
	p->i = 0;
}

uint32_t
pyrand_u32(struct pyrand *p)
{
	uint32_t y;

	if (p->i >= PYRAND_N)
		regenerate(p);
	y = p->mt[p->i++];
	y ^= y >> 11;
	y ^= (y << 7) & 0x9d2c5680u;
	y ^= (y << 15) & 0xefc60000u;
	y ^= y >> 18;
	return y;
}

uint64_t
pyrand_bits(struct pyrand *p, unsigned k)
{
	uint64_t lo;

	if (k <= 32)
		return pyrand_u32(p) >> (32 - k);
	lo = pyrand_u32(p);
	return lo | (uint64_t)(pyrand_u32(p) >> (64 - k)) << 32;
}

double
pyrand_random(struct pyrand *p)
{
	uint32_t a = pyrand_u32(p) >> 5, b = pyrand_u32(p) >> 6;

	return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

uint64_t
pyrand_below(struct pyrand *p, uint64_t n)
{
	unsigned k = 0;
	uint64_t r;

	/* Python uses n's bit length, not n - 1's: n = 1 draws too. */
	for (r = n; r != 0; r >>= 1)
		k++;
	do
		r = pyrand_bits(p, k);
	while (r >= n);
	return r;
}

int64_t
pyrand_randint(struct pyrand *p, int64_t a, int64_t b)
{
	return a + (int64_t)pyrand_below(p, (uint64_t)(b - a) + 1);
}

void
pyrand_shuffle(struct pyrand *p, uint32_t *v, size_t n)
{
	size_t i, j;
	uint32_t t;

	for (i = n; i-- > 1;) {
		j = (size_t)pyrand_below(p, (uint64_t)i + 1);
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}
