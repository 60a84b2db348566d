#include "support/testutil.h"

#include "microsynth/spec.h"

/* A game's table: the form first, then what the game keeps with it. */
typedef struct form_row {
	ms_spec_form f;
	int kind;
} form_row;

static const form_row rows[] = {
	{ { "random", MS_SPEC_NONE, NULL, NULL }, 10 },
	{ { "simple", MS_SPEC_OPTIONAL, "simple[:-port]", NULL }, 11 },
	{ { "program", MS_SPEC_NEEDED, NULL, NULL }, 12 },
	{ { "program-text", MS_SPEC_NEEDED, NULL, NULL }, 13 },
};

static int find(const char *spec, const char **arg)
{
	return ms_spec_find(rows, 4, sizeof rows[0], spec, arg);
}

static void test_spec__the_name_picks_the_form_and_the_rest_is_the_argument(void **state)
{
	const char *arg = "x";

	(void)state;
	assert_int_equal(find("random", &arg), 0);
	assert_null(arg);
	assert_int_equal(find("simple", &arg), 1);
	assert_null(arg);
	assert_int_equal(find("simple:-port:-yop", &arg), 1);
	assert_string_equal(arg, "-port:-yop");
	assert_int_equal(find("program:dir/a:b.ms", &arg), 2); /* colons after the first stay in the argument */
	assert_string_equal(arg, "dir/a:b.ms");
	assert_int_equal(rows[find("program-text:for(Unit u){u.idle()}", &arg)].kind, 13);
	assert_string_equal(arg, "for(Unit u){u.idle()}");
	assert_int_equal(find("program:", &arg), 2); /* an empty argument is the game's to refuse */
	assert_string_equal(arg, "");
}

static void test_spec__a_missing_or_unexpected_argument_and_an_unknown_name_are_told_apart(void **state)
{
	const char *arg = "x";

	(void)state;
	assert_int_equal(find("program", &arg), -2);
	assert_null(arg);
	assert_int_equal(find("random:3", &arg), -2);
	assert_int_equal(find("prog:x", &arg), -1); /* a prefix of a name is not the name */
	assert_int_equal(find("programs:x", &arg), -1);
	assert_int_equal(find("", &arg), -1);
	assert_int_equal(find(NULL, &arg), -1);
	assert_null(arg);
}

static void test_spec__the_list_of_forms_is_written_from_the_rows(void **state)
{
	char out[64], small[12];

	(void)state;
	assert_int_equal(ms_spec_list(out, sizeof out, rows, 3, sizeof rows[0], ", ", " or "), 33);
	assert_string_equal(out, "random, simple[:-port] or program"); /* a usage where given, else the name */
	assert_int_equal(ms_spec_list(out, sizeof out, rows, 2, sizeof rows[0], ", ", NULL), 22);
	assert_string_equal(out, "random, simple[:-port]");
	assert_int_equal(ms_spec_list(small, sizeof small, rows, 3, sizeof rows[0], ", ", NULL), 31);
	assert_string_equal(small, "random, sim"); /* cut as snprintf cuts, the whole length returned */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec__the_name_picks_the_form_and_the_rest_is_the_argument),
		cmocka_unit_test(test_spec__a_missing_or_unexpected_argument_and_an_unknown_name_are_told_apart),
		cmocka_unit_test(test_spec__the_list_of_forms_is_written_from_the_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
