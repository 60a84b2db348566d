/*
 * The dashboard's other sources (tools/view/view_follow.c, view_session.c):
 * synth's --progress-json (the best program's W/D/L per opponent, the
 * budget and so the ETA), selfplay's --csv and its rewritten program file,
 * and --results DIR (league and evaluate tables and plots as pages), read
 * from files written here, without a network.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/json.h"
#include "view.h"
#include "follow_util.h"

static void put(const char *path, const char *text)
{
	unlink(path);
	append(path, text);
}

static double dnum(const cJSON *m, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(m, key);
	assert_true(cJSON_IsNumber(v));
	return v->valuedouble;
}

static const char *kind_of(const cJSON *m, int i)
{
	return cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(m, "files"), i), "kind")->valuestring;
}

static void test_view_follow__progress_gives_wdl_per_opponent_and_an_eta(void **state)
{
	char pj[64], ckpt[64], line[128];
	const char *files[] = { pj, ckpt };
	ms_ctx *ctx;
	view_follow *f;
	cJSON *m, *o;
	int changed;
	(void)state;

	snprintf(pj, sizeof(pj), "/tmp/view-dash-%ld.json", (long)getpid());
	snprintf(ckpt, sizeof(ckpt), "/tmp/view-dash-%ld.ckpt", (long)getpid());
	put(pj, "{\"progress\":1,\"game\":\"microrts\",\"algo\":\"sa\",\"seed\":1,\"budget_evals\":100,"
		"\"budget_seconds\":0.000,\"maps\":[\"m.xml\"],\"opponents\":[\"WorkerRush\",\"LightRush\"]}\n");
	put(ckpt, "microsynth-synth-checkpoint 1\nalgo sa\nbegin\n");
	/* 20 evaluations, one every 100 ms: 10 a second */
	for (int i = 0; i < 20; i++) {
		snprintf(line, sizeof(line), "e 00000000 %d P 1 0000000000000000 0 %d\n", i, 100 * (i + 1));
		append(ckpt, line);
	}
	assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
	assert_int_equal(view_follow_new(ctx, &f, files, 2), 0);
	m = poll_json(f, 1, &changed);
	assert_string_equal(kind_of(m, 0), "progress");
	assert_true(dnum(m, "budget_evals") == 100);
	assert_int_equal(cJSON_GetArraySize(o = cJSON_GetObjectItem(m, "opponents")), 2);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(o, 0), "w"))); /* no best yet */
	assert_true(dnum(m, "eta") > 7.9 && dnum(m, "eta") < 8.1); /* 80 evaluations left at 10 a second */
	cJSON_Delete(m);
	append(pj, "{\"t\":1.500,\"evals\":15,\"fraction\":0.15,\"best\":0.625,\"vs\":[[2,0,0],[0,1,1]]}\n");
	append(pj, "{\"t\":1.9,\"evals\":19,\"fr"); /* a half line waits */
	m = poll_json(f, 0, &changed);
	assert_true(changed);
	o = cJSON_GetArrayItem(cJSON_GetObjectItem(m, "opponents"), 1);
	assert_string_equal(cJSON_GetObjectItem(o, "name")->valuestring, "LightRush");
	assert_true(dnum(o, "w") == 0 && dnum(o, "d") == 1 && dnum(o, "l") == 1);
	assert_true(dnum(cJSON_GetArrayItem(cJSON_GetObjectItem(m, "opponents"), 0), "w") == 2);
	assert_true(dnum(m, "best") == 0.625);
	cJSON_Delete(m);
	append(pj, "action\":0.19,\"best\":0.75,\"vs\":[[2,0,0],null]}\n");
	m = poll_json(f, 0, &changed);
	o = cJSON_GetArrayItem(cJSON_GetObjectItem(m, "opponents"), 1);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(o, "w"))); /* a failed scoring: unknown, not zero */
	assert_true(dnum(m, "fraction") == 0.19);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(m, "ranks")), 0); /* no MPI: no ranks */
	cJSON_Delete(m);
	/* under MPI (synth_progress.c): each serving rank's tasks and seconds evaluating */
	append(pj, "{\"t\":2.5,\"evals\":25,\"fraction\":0.25,\"best\":0.8,\"vs\":[[2,0,0],[1,1,0]],"
		   "\"ranks\":[[1,12,1.250],[2,9,0.875]]}\n");
	m = poll_json(f, 0, &changed);
	o = cJSON_GetObjectItem(m, "ranks");
	assert_int_equal(cJSON_GetArraySize(o), 2);
	assert_true(dnum(cJSON_GetArrayItem(o, 0), "rank") == 1 && dnum(cJSON_GetArrayItem(o, 0), "tasks") == 12);
	assert_true(dnum(cJSON_GetArrayItem(o, 1), "rank") == 2 && dnum(cJSON_GetArrayItem(o, 1), "eval_s") == 0.875);
	cJSON_Delete(m);
	view_follow_free(f);
	/* a time budget: the ETA is what is left of it */
	put(pj, "{\"progress\":1,\"budget_evals\":0,\"budget_seconds\":60,\"opponents\":[\"WorkerRush\"]}\n"
		"{\"t\":20,\"evals\":5,\"best\":1,\"vs\":[[2,0,0]]}\n");
	assert_int_equal(view_follow_new(ctx, &f, files, 1), 0);
	m = poll_json(f, 1, &changed);
	assert_true(dnum(m, "eta") == 40);
	cJSON_Delete(m);
	view_follow_free(f);
	ms_ctx_free(ctx);
	unlink(pj);
	unlink(ckpt);
}

static void test_view_follow__selfplay_iterations_and_its_program_file(void **state)
{
	char csv[64], out[64];
	const char *files[] = { csv, out };
	ms_ctx *ctx;
	view_follow *f;
	cJSON *m, *it;
	int changed;
	(void)state;

	snprintf(csv, sizeof(csv), "/tmp/view-sp-%ld.csv", (long)getpid());
	snprintf(out, sizeof(out), "/tmp/view-sp-%ld.ms", (long)getpid());
	put(csv, "iteration,seconds,search_psi,vs_fixed,evals_psi,population\n0,1.500,0.750000,0.750000,40,fixed0:1\n");
	put(out, "# microsynth selfplay: iteration 0's best response\nfor(Unit u){\n\tu.attack(Closest)\n}\n");
	assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
	assert_int_equal(view_follow_new(ctx, &f, files, 2), 0);
	m = poll_json(f, 1, &changed);
	assert_string_equal(kind_of(m, 0), "selfplay");
	assert_string_equal(kind_of(m, 1), "program");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(m, "iterations")), 1);
	assert_string_equal(cJSON_GetObjectItem(m, "population")->valuestring, "fixed0:1");
	it = cJSON_GetArrayItem(cJSON_GetObjectItem(m, "outputs"), 0);
	assert_non_null(strstr(cJSON_GetObjectItem(it, "text")->valuestring, "iteration 0's"));
	cJSON_Delete(m);
	m = poll_json(f, 0, &changed);
	assert_false(changed);
	append(csv, "1,3.250,0.500000,0.625000,40,fixed0:1 iter0:1\n");
	/* the program file is rewritten (as selfplay does), not appended to */
	put(out, "# microsynth selfplay: iteration 1's best response\nfor(Unit u){\n\tu.harvest(50)\n}\n");
	m = poll_json(f, 0, &changed);
	assert_true(changed);
	it = cJSON_GetArrayItem(cJSON_GetObjectItem(m, "iterations"), 1);
	assert_true(cJSON_GetArrayItem(it, 0)->valuedouble == 1 && cJSON_GetArrayItem(it, 3)->valuedouble == 0.625);
	assert_string_equal(cJSON_GetObjectItem(m, "population")->valuestring, "fixed0:1 iter0:1");
	it = cJSON_GetArrayItem(cJSON_GetObjectItem(m, "outputs"), 0);
	assert_non_null(strstr(cJSON_GetObjectItem(it, "text")->valuestring, "iteration 1's"));
	cJSON_Delete(m);
	view_follow_free(f);
	ms_ctx_free(ctx);
	unlink(csv);
	unlink(out);
}

/* ---- --results DIR ---------------------------------------------------------------- */

typedef struct page {
	char *last;
	int n, logged;
} page;

static int page_emit(void *ud, const char *msg, size_t len)
{
	page *p = ud;
	free(p->last);
	p->last = malloc(len + 1);
	memcpy(p->last, msg, len);
	p->last[len] = '\0';
	p->n++;
	return 0;
}

static void page_log(void *ud, const char *line)
{
	(void)line;
	((page *)ud)->logged++;
}

static cJSON *ask(view_session *s, page *p, const char *msg, const char *type)
{
	cJSON *m;
	assert_int_equal(view_session_handle(s, msg, strlen(msg)), 0);
	assert_non_null(m = cJSON_Parse(p->last));
	assert_string_equal(cJSON_GetObjectItem(m, "type")->valuestring, type);
	return m;
}

static void test_view_session__results_are_listed_and_sent_whole(void **state)
{
	char dir[] = "/tmp/view-results-XXXXXX", path[4200];
	page p = { 0 };
	view_config c = { 0 };
	view_session *s;
	cJSON *m;
	(void)state;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/league", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/league/ranking.csv", dir);
	put(path, "program,score\n\"a, b\",0.75\nc,0.25\n");
	snprintf(path, sizeof(path), "%s/heatmap.svg", dir);
	put(path, "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n");
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	put(path, "not offered\n");
	c.log = page_log;
	c.log_ud = &p;
	c.results_dir = dir;
	assert_int_equal(view_session_new(&s, &c, 1, page_emit, &p), 0);
	assert_int_equal(view_session_hello(s), 0);
	assert_non_null(strstr(p.last, "\"results\":[\"heatmap.svg\",\"league/ranking.csv\"]"));
	m = ask(s, &p, "{\"type\":\"result\",\"name\":\"league/ranking.csv\"}", "result");
	assert_string_equal(cJSON_GetObjectItem(m, "kind")->valuestring, "csv");
	assert_string_equal(cJSON_GetObjectItem(m, "text")->valuestring, "program,score\n\"a, b\",0.75\nc,0.25\n");
	cJSON_Delete(m);
	m = ask(s, &p, "{\"type\":\"result\",\"name\":\"heatmap.svg\"}", "result");
	assert_string_equal(cJSON_GetObjectItem(m, "kind")->valuestring, "svg");
	cJSON_Delete(m);
	/* outside the folder, another kind of file, a missing one: an error each, and the session goes on */
	cJSON_Delete(ask(s, &p, "{\"type\":\"result\",\"name\":\"../x.csv\"}", "error"));
	cJSON_Delete(ask(s, &p, "{\"type\":\"result\",\"name\":\"/etc/x.csv\"}", "error"));
	cJSON_Delete(ask(s, &p, "{\"type\":\"result\",\"name\":\"notes.txt\"}", "error"));
	cJSON_Delete(ask(s, &p, "{\"type\":\"result\",\"name\":\"gone.csv\"}", "error"));
	assert_int_equal(p.logged, 4);
	cJSON_Delete(ask(s, &p, "{\"type\":\"result\",\"name\":\"heatmap.svg\"}", "result"));
	view_session_free(s);
	free(p.last);
	snprintf(path, sizeof(path), "rm -r '%s'", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_view_follow__progress_gives_wdl_per_opponent_and_an_eta),
		cmocka_unit_test(test_view_follow__selfplay_iterations_and_its_program_file),
		cmocka_unit_test(test_view_session__results_are_listed_and_sent_whole),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
