/*
 * The GGP player without HTTP (games/gdl/ggp*.c): messages read as
 * ggp-base writes them, moves printed in its compact form, and a player
 * whose worker is busy still answering at the deadline.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "core/pool.h"
#include "games/gdl/gdl_ggp.h"

static ms_ggp_msg parse_ok(const char *text)
{
	ms_ggp_msg m;
	char err[200];
	int rc = ms_gdl_ggp_parse(text, strlen(text), &m, err, sizeof err);
	if (rc)
		fail_msg("'%s' refused: %s", text, err);
	return m;
}

static void expect_refused(const char *text, const char *why)
{
	ms_ggp_msg m;
	char err[200];
	assert_int_equal(ms_gdl_ggp_parse(text, strlen(text), &m, err, sizeof err), MS_EPARSE);
	if (!strstr(err, why))
		fail_msg("'%s': '%s' does not say '%s'", text, err, why);
}

static int span_is(const ms_ggp_span *s, const char *text)
{
	return s->n == strlen(text) && !memcmp(s->s, text, s->n);
}

static void test_gdl_ggp__reads_every_message_as_ggp_base_writes_it(void **state)
{
	(void)state;
	assert_int_equal(parse_ok("( INFO )").type, MS_GGP_INFO);
	assert_int_equal(parse_ok("(info)").type, MS_GGP_INFO);
	ms_ggp_msg m = parse_ok("( START match.1 xPlayer ( ( role xPlayer ) ( role oPlayer ) ) 30 5.5)");
	assert_int_equal(m.type, MS_GGP_START);
	assert_true(span_is(&m.id, "match.1") && span_is(&m.role, "xPlayer"));
	assert_true(span_is(&m.rules, " ( role xPlayer ) ( role oPlayer ) "));
	assert_true(m.start_clock == 30 && m.play_clock == 5.5);
	m = parse_ok("( PLAY match.1 NIL )");
	assert_true(m.type == MS_GGP_PLAY && span_is(&m.moves, "NIL") && !m.moves.list);
	m = parse_ok("( PLAY match.1 (( mark 1 1 ) noop ) )");
	assert_true(m.moves.list && span_is(&m.moves, "(( mark 1 1 ) noop )"));
	assert_int_equal(parse_ok("(stop m (noop noop))").type, MS_GGP_STOP);
	assert_int_equal(parse_ok("(ABORT m)").type, MS_GGP_ABORT);
	m = parse_ok("(PREVIEW ((role a)) 10)");
	assert_true(m.type == MS_GGP_PREVIEW && m.start_clock == 10 && span_is(&m.rules, "(role a)"));
	/* comments and line breaks, as a KIF file would have them */
	m = parse_ok("(PLAY m ; a comment with a ( paren\n\t NIL)\r\n");
	assert_true(span_is(&m.moves, "NIL"));
}

static void test_gdl_ggp__refuses_bad_messages_saying_why(void **state)
{
	(void)state;
	expect_refused("", "empty message");
	expect_refused("hello", "not one parenthesised message");
	expect_refused("(INFO) (INFO)", "not one parenthesised message");
	expect_refused("(PLAY m NIL", "unbalanced");
	expect_refused("(PLAY m NIL))", "unbalanced");
	expect_refused("()", "no command word");
	expect_refused("((PLAY) m)", "no command word");
	expect_refused("(DANCE m)", "unknown command 'DANCE'");
	expect_refused("(START m r rules 1 2)", "START needs");
	expect_refused("(START m r ((role r)) soon 2)", "clocks must be numbers");
	expect_refused("(START m r ((role r)) -1 2)", "clocks must be numbers");
	expect_refused("(PLAY m)", "PLAY needs");
	expect_refused("(PLAY (m) NIL)", "PLAY needs");
	expect_refused("(STOP m a b)", "STOP needs");
	expect_refused("(ABORT)", "ABORT needs");
	expect_refused("(INFO x)", "INFO takes no arguments");
}

static void test_gdl_ggp__prints_terms_in_the_compact_form(void **state)
{
	char buf[64];
	const char *in = "(  mark\n 1\t1 ( x  y ) )";
	ms_ggp_span t = { in, strlen(in), 1 }, n = { "noop", 4, 0 };
	(void)state;
	assert_int_equal(ms_gdl_ggp_term_text(&t, buf, sizeof buf), strlen("(mark 1 1 (x y))"));
	assert_string_equal(buf, "(mark 1 1 (x y))");
	ms_gdl_ggp_term_text(&n, buf, sizeof buf);
	assert_string_equal(buf, "noop");
	assert_int_equal(ms_gdl_ggp_term_text(&t, buf, 5), strlen("(mark 1 1 (x y))")); /* the length it needs */
	assert_string_equal(buf, "(mar");
	const char *list = "( (a 1) b (c (d)) )";
	ms_ggp_span el[4], moves = { list, strlen(list), 1 };
	int k;
	assert_int_equal(ms_gdl_ggp_elements(&moves, el, 4, &k), MS_OK);
	assert_int_equal(k, 3);
	assert_true(span_is(&el[0], "(a 1)") && span_is(&el[1], "b") && span_is(&el[2], "(c (d))"));
}

/* ---- a player with one worker ------------------------------------------------ */

typedef struct late_case {
	ms_gdl_ggp *p;
	char start[64], play[64];
	double start_late, play_late; /* how far past its deadline each answer came */
	int ok;
} late_case;

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Polls the reply every millisecond until it has an answer; how late after its deadline it came. */
static double wait_answer(ms_gdl_ggp_reply *r, char *out, size_t size)
{
	const char *text = NULL;
	while (!ms_gdl_ggp_reply_take(r, mono(), &text))
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	snprintf(out, size, "%s", text);
	return mono() - ms_gdl_ggp_reply_deadline(r);
}

static const char trap[] = "(START t black ((role white) (role black) (init (step 1))"
			   " (<= (legal white left) (true (step 1))) (<= (legal white right) (true (step 1)))"
			   " (<= (legal black noop) (true (step 1))) (<= (next (step 2)) (true (step 1)))"
			   " (<= terminal (true (step 2))) (goal white 50) (goal black 50)) 0.02 0.02)";

/* Job 0 plays (on whichever thread), job 1 is the worker. */
static int late_job(void *ud, ms_ctx *ctx, long i, int worker)
{
	late_case *lc = ud;
	ms_gdl_ggp_reply *r = NULL;
	(void)ctx, (void)worker;
	if (i == 1)
		return ms_gdl_ggp_worker(lc->p);
	while (ms_gdl_ggp_free_workers(lc->p) < 1)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	/* a 20 ms start clock: the worker's speed probe alone takes 30 ms */
	if (!ms_gdl_ggp_handle(lc->p, trap, strlen(trap), mono(), &r)) {
		lc->start_late = wait_answer(r, lc->start, sizeof lc->start);
		ms_gdl_ggp_reply_release(r);
		if (!ms_gdl_ggp_handle(lc->p, "(PLAY t NIL)", 12, mono(), &r)) {
			lc->play_late = wait_answer(r, lc->play, sizeof lc->play);
			ms_gdl_ggp_reply_release(r);
			lc->ok = 1;
		}
	}
	ms_gdl_ggp_shutdown(lc->p);
	return MS_OK;
}

static void test_gdl_ggp__a_busy_worker_still_answers_by_the_deadline(void **state)
{
	ms_ctx *ctx;
	ms_gdl_ggp_options o;
	late_case lc = { 0 };
	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ms_gdl_ggp_options_init(&o, MS_GDL_GGP_OPTIONS_VERSION);
	assert_int_equal(ms_gdl_ggp_new(ctx, &o, &lc.p), MS_OK);
	assert_int_equal(ms_pool_for(ctx, 2, 2, late_job, &lc, NULL), MS_OK);
	ms_gdl_ggp_counts c;
	ms_gdl_ggp_counts_get(lc.p, &c);
	ms_gdl_ggp_free(lc.p);
	ms_ctx_free(ctx);
	assert_true(lc.ok);
	assert_string_equal(lc.start, "ready");
	/* black's only move, known to the deadline once the rules are loaded (before the probe ends) */
	if (strcmp(lc.play, "noop") && strcmp(lc.play, "nil"))
		fail_msg("PLAY answered '%s'", lc.play);
	assert_true(lc.start_late < 0.05 && lc.play_late < 0.05);
	assert_true(c.late >= 1 && c.matches == 1 && c.errors == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gdl_ggp__reads_every_message_as_ggp_base_writes_it),
		cmocka_unit_test(test_gdl_ggp__refuses_bad_messages_saying_why),
		cmocka_unit_test(test_gdl_ggp__prints_terms_in_the_compact_form),
		cmocka_unit_test(test_gdl_ggp__a_busy_worker_still_answers_by_the_deadline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
