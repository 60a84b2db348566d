/*
 * The hosted JVM plays official matches from C. Arguments: the harness jar
 * (microsynth-harness.jar), the harness cache, a scratch directory. Skips
 * (exit 0 with "skipped:") when the harness is absent and CI is not set.
 *
 * Not a cmocka test: cmocka installs its own SIGSEGV handler around each
 * test, and the JVM takes SIGSEGV in normal operation (implicit null
 * checks), so under cmocka the VM dies at random. Plain checks instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int g_failed;
#define CHECK(c)                                                                              \
	do {                                                                                  \
		if (!(c)) {                                                                   \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
			g_failed++;                                                           \
			return;                                                               \
		}                                                                             \
	} while (0)
#define assert_int_equal(a, b) CHECK((long long)(a) == (long long)(b))
#define assert_true(c) CHECK(c)
#define assert_non_null(p) CHECK((p) != NULL)

#include "microsynth/common.h"
#include "microsynth/jvm.h"
#include "microsynth/microrts.h"
#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"

static const char *g_jar, *g_harness, *g_tmp, *g_program;

typedef struct fixture {
	ms_ctx *ctx;
	ms_jvm *jvm;
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	ms_jvm_options o = { .version = MS_JVM_OPTIONS_VERSION, .harness_jar = g_jar, .harness_dir = g_harness };
	if (!f || ms_ctx_new(&f->ctx, NULL) != MS_OK)
		return -1;
	if (ms_jvm_open(f->ctx, &f->jvm, &o) != 0) {
		fprintf(stderr, "ms_jvm_open: %s\n", ms_ctx_last_error(f->ctx));
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	ms_jvm_close(f->jvm);
	ms_ctx_free(f->ctx);
	free(f);
	return 0;
}

static ms_jvm_match_options rushes(void)
{
	ms_jvm_match_options m = { .version = MS_JVM_MATCH_OPTIONS_VERSION, .map = "8x8/basesWorkers8x8A.xml",
				.p0 = "WorkerRush", .p1 = "LightRush", .max_cycles = 3000 };
	return m;
}

/* WorkerRush beats LightRush on basesWorkers8x8A at cycle 205 in the jar. */
static void test_jvm__plays_an_official_match_and_writes_its_trace(void **state)
{
	fixture *f = *state;
	char trace[4096];
	ms_jvm_match_options m = rushes();
	ms_jvm_result r;
	ms_rts_trace *t;
	ms_rts_replay_result rr;

	snprintf(trace, sizeof trace, "%s/jvm-rushes.xml", g_tmp);
	m.trace = trace;
	assert_int_equal(ms_jvm_match(f->jvm, &m, &r), 0);
	assert_int_equal(r.winner, 0);
	assert_int_equal(r.cycles, 205);
	assert_int_equal(r.crashed, -1);
	/* the official trace replays in the native engine without divergence */
	assert_int_equal(ms_rts_trace_load(f->ctx, &t, trace), 0);
	assert_true(ms_rts_trace_entry_count(t) > 2);
	memset(&rr, 0, sizeof rr);
	assert_int_equal(ms_rts_trace_replay(f->ctx, t, &rr), 0);
	assert_int_equal(rr.divergent, 0);
	assert_int_equal(rr.cycles, 205);
	assert_int_equal(rr.winner, 0);
	ms_rts_trace_free(t);
}

/* The same VM serves many matches, and CoacAI, a competition bot, plays. */
static void test_jvm__serves_repeated_matches_against_coac(void **state)
{
	fixture *f = *state;
	ms_jvm_match_options m = rushes();
	ms_jvm_result r;

	m.p1 = "CoacAI";
	for (int i = 0; i < 2; i++) {
		assert_int_equal(ms_jvm_match(f->jvm, &m, &r), 0);
		assert_true(r.winner >= -1 && r.winner <= 1);
		assert_true(r.cycles > 0 && r.cycles <= 3000);
		assert_int_equal(r.crashed, -1);
	}
}

static void test_jvm__bad_settings_are_reported_not_fatal(void **state)
{
	fixture *f = *state;
	ms_jvm_match_options m = rushes();
	ms_jvm_result r;

	m.p1 = "NoSuchBot";
	assert_int_equal(ms_jvm_match(f->jvm, &m, &r), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "unknown AI class 'NoSuchBot'"));
	m = rushes();
	m.map = "no/such/map.xml";
	assert_int_equal(ms_jvm_match(f->jvm, &m, &r), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "no/such/map.xml"));
	/* and the VM still plays */
	m = rushes();
	assert_int_equal(ms_jvm_match(f->jvm, &m, &r), 0);
	assert_int_equal(r.cycles, 205);
}

/* Parses the test program into a fresh grammar and program on `ctx`. */
static int load_program(ms_ctx *ctx, ms_dsl_grammar **g, ms_dsl_prog **p)
{
	if (ms_rts_dsl_grammar_new(ctx, g, 0) || ms_dsl_prog_new(ctx, p, *g))
		return -1;
	return ms_rts_dsl_parse_file(*p, g_program, 0);
}

static ms_match_options match_opts(int backend)
{
	ms_match_options o = { .version = MS_MATCH_OPTIONS_VERSION, .backend = backend, .map = "8x8/basesWorkers8x8A.xml",
			    .max_cycles = 3000, .harness_jar = g_jar, .harness_dir = g_harness };
	return o;
}

/*
 * A program handed over from memory plays in the official engine exactly as
 * the same program read from its file by the drop-in bot, in both seats, and
 * exactly as the native backend plays it (same winner, same cycle).
 */
static void test_match__program_from_memory_plays_alike_on_both_backends(void **state)
{
	fixture *f = *state;
	ms_dsl_grammar *g = NULL;
	ms_dsl_prog *p = NULL;
	ms_match *off = NULL, *nat = NULL;
	ms_match_options oo = match_opts(MS_MATCH_OFFICIAL), no = match_opts(MS_MATCH_NATIVE);
	char file_spec[4200];
	int ok = 0;

	snprintf(file_spec, sizeof file_spec, "program:%s", g_program);
	if (load_program(f->ctx, &g, &p) || ms_match_new(f->ctx, &off, &oo) || ms_match_new(f->ctx, &nat, &no)) {
		fprintf(stderr, "setup: %s\n", ms_ctx_last_error(f->ctx));
		goto done;
	}
	for (int seat = 0; seat < 2; seat++) {
		ms_match_player mem[2], nat_p[2];
		ms_match_result a, b, c;
		ms_jvm_match_options jm = rushes();
		ms_jvm_result r;

		mem[seat] = ms_match_player_program(p);
		mem[1 - seat] = ms_match_player_spec("WorkerRush");
		nat_p[seat] = ms_match_player_program(p);
		nat_p[1 - seat] = ms_match_player_spec("WorkerRush");
		if (ms_match_play(off, mem, NULL, &a) || ms_match_play(nat, nat_p, NULL, &c)) {
			fprintf(stderr, "play: %s\n", ms_ctx_last_error(f->ctx));
			goto done;
		}
		jm.p0 = seat == 0 ? file_spec : "WorkerRush";
		jm.p1 = seat == 0 ? "WorkerRush" : file_spec;
		jm.seeded = 1;
		if (ms_jvm_match(f->jvm, &jm, &r)) {
			fprintf(stderr, "jvm: %s\n", ms_ctx_last_error(f->ctx));
			goto done;
		}
		b.winner = r.winner;
		b.cycles = r.cycles;
		printf("seat %d: memory winner=%d cycles=%d, file winner=%d cycles=%d, native winner=%d cycles=%d\n",
		       seat, a.winner, a.cycles, b.winner, b.cycles, c.winner, c.cycles);
		if (a.winner != b.winner || a.cycles != b.cycles || a.crashed != -1 || a.winner != c.winner ||
		    a.cycles != c.cycles)
			goto done;
	}
	ok = 1;
done:
	ms_match_free(off);
	ms_match_free(nat);
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
	CHECK(ok);
}

static void test_jvm__a_missing_jar_is_a_clear_error(void **state)
{
	ms_ctx *ctx;
	ms_jvm *j;
	ms_jvm_options o = { .version = MS_JVM_OPTIONS_VERSION, .harness_jar = "/no/such/microsynth-harness.jar" };
	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_jvm_open(ctx, &j, &o), MS_ENOTFOUND);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "/no/such/microsynth-harness.jar"));
	ms_ctx_free(ctx);
}

int main(int argc, char **argv)
{
	struct stat st;
	char mr[4096];
	if (argc != 5)
		return fprintf(stderr, "usage: test_jvm HARNESS_JAR HARNESS_DIR TMP PROGRAM\n"), 2;
	g_program = argv[4];
	g_jar = argv[1];
	g_harness = argv[2];
	g_tmp = argv[3];
	snprintf(mr, sizeof mr, "%s/microrts.jar", g_harness);
	if (stat(mr, &st) != 0 || stat(g_jar, &st) != 0) {
		if (getenv("CI"))
			return fprintf(stderr, "%s or %s is absent but CI is set\n", mr, g_jar), 1;
		printf("skipped: %s or %s is absent (run tools/setup.sh)\n", mr, g_jar);
		return 0;
	}
	void (*tests[])(void **) = { test_jvm__plays_an_official_match_and_writes_its_trace,
				     test_jvm__serves_repeated_matches_against_coac,
				     test_jvm__bad_settings_are_reported_not_fatal,
				     test_match__program_from_memory_plays_alike_on_both_backends };
	const char *names[] = { "plays_an_official_match_and_writes_its_trace", "serves_repeated_matches_against_coac",
				"bad_settings_are_reported_not_fatal", "program_from_memory_plays_alike_on_both_backends" };
	for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
		void *fx = NULL;
		int before = g_failed;
		if (setup(&fx) != 0) {
			fprintf(stderr, "test_jvm__%s: setup failed\n", names[i]);
			return 1;
		}
		tests[i](&fx);
		teardown(&fx);
		printf("%s test_jvm__%s\n", g_failed == before ? "ok" : "FAILED", names[i]);
	}
	int before = g_failed;
	test_jvm__a_missing_jar_is_a_clear_error(NULL);
	printf("%s test_jvm__a_missing_jar_is_a_clear_error\n", g_failed == before ? "ok" : "FAILED");
	return g_failed ? 1 : 0;
}
