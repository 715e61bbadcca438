/*
 * pyrand against the real thing: python3's random module, run here with
 * the same seeds and the same calls, must print exactly what pyrand
 * computes (raw outputs, getrandbits of every width, random() in hex,
 * randbelow, randint and shuffle). python3 is in ./setup's packages.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "measure/pyrand.h"

/* What python3 -c script prints (no shell); fails the test otherwise. */
static char *
python(const char *script)
{
	struct strbuf b;
	char buf[65536];
	int fd[2], st;
	ssize_t n;
	pid_t pid;

	cr_assert_eq(pipe(fd), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execlp("python3", "python3", "-c", script, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	strbuf_init(&b);
	while ((n = read(fd[0], buf, sizeof buf)) > 0)
		strbuf_printf(&b, "%.*s", (int)n, buf);
	close(fd[0]);
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) != 127,
	    "python3 not found (./setup installs python3-minimal)");
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	    "python3 failed on:\n%s", script);
	return strbuf_take(&b);
}

static void
same(const char *script, const struct strbuf *c)
{
	char *py = python(script);
	size_t i = 0;

	while (py[i] != '\0' && py[i] == c->s[i])
		i++;
	cr_assert(py[i] == c->s[i],
	    "differs at byte %zu: python '%.60s', "
	    "pyrand '%.60s'",
	    i, py + i, c->s + i);
	free(py);
}

static const uint64_t seeds[] = { 555, 0, 1, 4294967295u, 4294967301u,
	12345678901234u };

Test(pyrand, raw_outputs_match_python_for_every_seed_form)
{
	struct pyrand p;
	struct strbuf c;
	char script[512];

	for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
		/* 2000 outputs: past one regeneration of the 624 words. */
		snprintf(script, sizeof script,
		    "import random\nr = random.Random(%" PRIu64 ")\n"
		    "print(' '.join(str(r.getrandbits(32)) "
		    "for _ in range(2000)))\n",
		    seeds[s]);
		strbuf_init(&c);
		pyrand_seed(&p, seeds[s]);
		for (int i = 0; i < 2000; i++)
			strbuf_printf(&c, "%s%" PRIu32, i ? " " : "",
			    pyrand_u32(&p));
		strbuf_add(&c, "\n");
		same(script, &c);
		strbuf_done(&c);
	}
}

Test(pyrand, getrandbits_and_random_match_python)
{
	struct pyrand p;
	struct strbuf c;

	strbuf_init(&c);
	pyrand_seed(&p, 555);
	for (unsigned k = 1; k <= 64; k++)
		strbuf_printf(&c, "%" PRIu64 "\n", pyrand_bits(&p, k));
	/* random() * 2^53 is an integer: compared exactly, no formatting. */
	for (int i = 0; i < 500; i++)
		strbuf_printf(&c, "%" PRIu64 "\n",
		    (uint64_t)(pyrand_random(&p) * 9007199254740992.0));
	same("import random\nr = random.Random(555)\n"
	     "for k in range(1, 65): print(r.getrandbits(k))\n"
	     "for i in range(500): print(int(r.random() * 2**53))\n",
	    &c);
	strbuf_done(&c);
}

/*
 * compilebench's calls, interleaved as it makes them: randbelow (its
 * choice()), randint(0, 3), randint(100, 100000), and a shuffle; widths
 * that reject often (n just past a power of two) and n = 1.
 */
Test(pyrand, randbelow_randint_and_shuffle_match_python)
{
	static const uint64_t ns[] = { 1, 2, 3, 4, 5, 7, 9, 17, 65, 1000, 99901,
		4294967297u, 1ULL << 63 };
	uint32_t v[3263];
	struct pyrand p;
	struct strbuf c;

	strbuf_init(&c);
	pyrand_seed(&p, 555);
	for (int i = 0; i < 300; i++) {
		/* In Python's order (C leaves argument order open). */
		uint64_t a = pyrand_below(&p, ns[i % (sizeof ns / sizeof *ns)]);
		int64_t b = pyrand_randint(&p, 0, 3);
		int64_t d = pyrand_randint(&p, 100, 100000);

		strbuf_printf(&c, "%" PRIu64 " %" PRId64 " %" PRId64 "\n", a, b,
		    d);
	}
	for (uint32_t i = 0; i < 3263; i++)
		v[i] = i;
	pyrand_shuffle(&p, v, 3263);
	for (size_t i = 0; i < 3263; i++)
		strbuf_printf(&c, "%s%" PRIu32, i ? " " : "", v[i]);
	strbuf_printf(&c, "\n%" PRIu32 "\n", pyrand_u32(&p));
	same("import random\nr = random.Random(555)\n"
	     "ns = [1, 2, 3, 4, 5, 7, 9, 17, 65, 1000, 99901, 4294967297,"
	     " 2**63]\n"
	     "for i in range(300):\n"
	     "    a = r.randrange(ns[i % len(ns)])\n"
	     "    b = r.randint(0, 3)\n"
	     "    print(a, b, r.randint(100, 100000))\n"
	     "v = list(range(3263))\nr.shuffle(v)\n"
	     "print(' '.join(map(str, v)))\nprint(r.getrandbits(32))\n",
	    &c);
	strbuf_done(&c);
}
