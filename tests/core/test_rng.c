#include "support/testutil.h"

#include "microsynth/rng.h"

/* SplitMix64's published first outputs from a zero state (Vigna's splitmix64.c). */
static void test_rng__next_is_splitmix64(void **state)
{
	uint64_t s = 0;

	(void)state;
	assert_true(ms_rng_next(&s) == UINT64_C(0xe220a8397b1dcdaf));
	assert_true(ms_rng_next(&s) == UINT64_C(0x6e789e6aa1b965f4));
	assert_true(ms_rng_next(&s) == UINT64_C(0x06c45d188009454f));
}

static void test_rng__draws_stay_in_range_and_repeat_from_the_same_seed(void **state)
{
	uint64_t a = 42, b = 42;
	long seen[7] = {0};

	(void)state;
	for (int i = 0; i < 7000; i++) {
		uint32_t k = ms_rng_below(&a, 7);
		assert_true(k < 7);
		assert_int_equal(k, ms_rng_below(&b, 7));
		seen[k]++;
	}
	for (int k = 0; k < 7; k++) /* about 1000 each; a stuck or skewed draw falls far outside */
		assert_in_range(seen[k], 850, 1150);
	assert_int_equal(ms_rng_below(&a, 1), 0);
	for (int i = 0; i < 1000; i++) {
		double u = ms_rng_unit(&a);
		assert_true(u >= 0.0 && u < 1.0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng__next_is_splitmix64),
		cmocka_unit_test(test_rng__draws_stay_in_range_and_repeat_from_the_same_seed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
