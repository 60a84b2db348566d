/*
 * Replays tests/core/jrandom_vectors.txt, written by JRandomVectors.java on
 * a real JVM: each line is an operation on the current generator and the
 * value java.util.Random returned, or a StrictMath.log input and result.
 */
#include "support/testutil.h"

#include <inttypes.h>
#include <stdio.h>

#include "microsynth/jrandom.h"
#include "core/strictmath.h"

static const char *vectors_path;

static uint64_t bits_of_double(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof(u));
	return u;
}

static uint32_t bits_of_float(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	return u;
}

static void test_jrandom__matches_java_util_random_vectors(void **state)
{
	FILE *f = fopen(vectors_path, "r");
	char line[512];
	ms_jrandom r;
	int lineno = 0, checked = 0, have = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char op[16];
		long long a = 0, b = 0;
		unsigned long long h = 0;

		lineno++;
		if (sscanf(line, "%15s", op) != 1)
			continue;
		if (!strcmp(op, "seed") || !strcmp(op, "setseed")) {
			assert_int_equal(sscanf(line, "%*s %lld", &a), 1);
			if (!strcmp(op, "seed"))
				ms_jrandom_init(&r, a);
			else
				ms_jrandom_set_seed(&r, a);
			have = 1;
			continue;
		}
		assert_true(have);
		if (!strcmp(op, "int")) {
			assert_int_equal(sscanf(line, "%*s %lld", &a), 1);
			assert_int_equal(ms_jrandom_next_int(&r), a);
		} else if (!strcmp(op, "intb")) {
			int32_t v;
			assert_int_equal(sscanf(line, "%*s %lld %lld", &a, &b), 2);
			assert_int_equal(ms_jrandom_next_int_bounded(&r, (int32_t)a, &v), MS_OK);
			if (v != b)
				fail_msg("line %d: nextInt(%lld) = %d, Java %lld", lineno, a, v, b);
		} else if (!strcmp(op, "long")) {
			assert_int_equal(sscanf(line, "%*s %lld", &a), 1);
			assert_true(ms_jrandom_next_long(&r) == a);
		} else if (!strcmp(op, "double") || !strcmp(op, "gauss")) {
			assert_int_equal(sscanf(line, "%*s %llx", &h), 1);
			double d = op[0] == 'd' ? ms_jrandom_next_double(&r) : ms_jrandom_next_gaussian(&r);
			if (bits_of_double(d) != h)
				fail_msg("line %d: %s = %a (%016" PRIx64 "), Java %016llx", lineno, op, d,
					 bits_of_double(d), h);
		} else if (!strcmp(op, "log")) {
			unsigned long long in;
			double x, got;
			assert_int_equal(sscanf(line, "%*s %llx %llx", &in, &h), 2);
			memcpy(&x, &in, sizeof(x));
			got = ms_strict_log(x);
			if (bits_of_double(got) != h)
				fail_msg("line %d: StrictMath.log(%a) = %016llx, here %016" PRIx64, lineno, x, h,
					 bits_of_double(got));
		} else if (!strcmp(op, "float")) {
			assert_int_equal(sscanf(line, "%*s %llx", &h), 1);
			assert_int_equal(bits_of_float(ms_jrandom_next_float(&r)), (uint32_t)h);
		} else if (!strcmp(op, "bool")) {
			assert_int_equal(sscanf(line, "%*s %lld", &a), 1);
			assert_int_equal(ms_jrandom_next_boolean(&r), (int)a);
		} else if (!strcmp(op, "bytes")) {
			uint8_t got[64];
			int n, off;
			const char *p = line + 6;
			assert_int_equal(sscanf(p, "%d%n", &n, &off), 1);
			assert_true(n > 0 && n <= 64);
			ms_jrandom_next_bytes(&r, got, (size_t)n);
			p += off;
			for (int i = 0; i < n; i++) {
				unsigned v;
				assert_int_equal(sscanf(p, "%u%n", &v, &off), 1);
				p += off;
				assert_int_equal(got[i], v);
			}
		} else {
			fail_msg("line %d: unknown op '%s'", lineno, op);
		}
		checked++;
	}
	fclose(f);
	/* Guard against an empty or truncated vector file passing vacuously. */
	assert_true(checked > 5500);
}

static void test_jrandom__bad_bound_is_an_error_and_draws_nothing(void **state)
{
	ms_jrandom r, copy;
	int32_t v = 77;

	(void)state;
	ms_jrandom_init(&r, 5);
	copy = r;
	assert_int_equal(ms_jrandom_next_int_bounded(&r, 0, &v), MS_ERANGE);
	assert_int_equal(ms_jrandom_next_int_bounded(&r, -3, &v), MS_ERANGE);
	assert_int_equal(v, 77);
	assert_memory_equal(&r, &copy, sizeof(r));
}

static void test_jrandom__clone_by_copy_replays_the_same_stream(void **state)
{
	ms_jrandom r, c;

	(void)state;
	ms_jrandom_init(&r, 99);
	ms_jrandom_next_gaussian(&r); /* leaves a pending Gaussian */
	c = r;
	for (int i = 0; i < 100; i++)
		assert_true(ms_jrandom_next_gaussian(&r) == ms_jrandom_next_gaussian(&c));
}

/* Match's seeding: new Random(seed * 1000003 + k) with Java's wrapping long, and the state it starts from. */
static void test_jrandom__match_seed_wraps_like_java_and_scrambles_like_init(void **state)
{
	ms_jrandom r;
	(void)state;

	assert_true(ms_jrandom_match_seed(5, MS_MATCH_RNG_SAMPLER) == 5000018);
	assert_true(ms_jrandom_match_seed(-7, MS_MATCH_RNG_UNITACTION) == -7000019);
	/* Long.MAX_VALUE * 1000003L + 1 in Java */
	assert_true(ms_jrandom_match_seed(INT64_MAX, MS_MATCH_RNG_GAMESTATE) == INT64_C(9223372036853775806));
	for (int64_t seed = -3; seed <= 3; seed++) {
		ms_jrandom_init(&r, seed * 977);
		assert_true((uint64_t)ms_jrandom_scramble(seed * 977) == r.seed);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jrandom__matches_java_util_random_vectors),
		cmocka_unit_test(test_jrandom__bad_bound_is_an_error_and_draws_nothing),
		cmocka_unit_test(test_jrandom__clone_by_copy_replays_the_same_stream),
		cmocka_unit_test(test_jrandom__match_seed_wraps_like_java_and_scrambles_like_init),
	};
	if (argc < 2) {
		fprintf(stderr, "usage: %s jrandom_vectors.txt\n", argv[0]);
		return 2;
	}
	vectors_path = argv[1];
	return cmocka_run_group_tests_name("core_jrandom", tests, NULL, NULL);
}
