/* The JSettlers client's engine side (games/catan/jsettlers.c): coordinates
 * as a JSettlers 2.7 server numbers them, snapshots rebuilt into states and
 * answers in JSettlers's terms. No server is needed: the board and the node
 * list below were sent by one (tools/catan_jsettlers.py --trace). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "microsynth/catan.h"
#include <cjson/cJSON.h>

static const char layout[] =
	"1014|g1,50,6,10,6,6,3,1,1,10,36,2,5,1,4,6,6,4,3,4,5,2,83,33,5,2,3,3,6,6,4,5,0,12,21,6,12,6,-1,-1,-1,-1,-1,3,"
	"5,2,-1,-1,0,7,1,8,-1,-1,4,6,8,4,9,-1,-1,1,2,3,6,-1,-1,5,7,-1,-1,-1,-1,-1,-1,183";

/* The server's SOCPotentialSettlements at the start of that game: every land node. */
static const int server_nodes[54] = { 131, 133, 135, 137, 139, 141, 148, 150, 152, 154, 156, 35,  37,  165,
				      39,  167, 169, 171, 173, 50,  52,  54,  182, 56,  184, 186, 188, 67,
				      69,  71,  199, 73,  201, 203, 205, 82,  84,  86,  88,  216, 90,  218,
				      220, 99,  101, 103, 105, 107, 114, 116, 118, 120, 122, 124 };

/* Runs the engine side on `lines` and returns its answers, one cJSON per line. */
static int serve(const char *agent, const char *lines, cJSON **out, int max, char *err, size_t errlen)
{
	ms_ctx *ctx = NULL;
	FILE *in = tmpfile(), *o = tmpfile();
	char buf[8192];
	int n = 0;
	assert_non_null(in);
	assert_non_null(o);
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	fputs(lines, in);
	rewind(in);
	int rc = ms_catan_js_serve(ctx, agent, 7, in, o);
	if (err)
		snprintf(err, errlen, "%s", rc < 0 ? ms_ctx_last_error(ctx) : "");
	rewind(o);
	while (n < max && fgets(buf, sizeof buf, o))
		out[n++] = cJSON_Parse(buf);
	fclose(in);
	fclose(o);
	ms_ctx_free(ctx);
	return rc < 0 ? rc : n;
}

static int in_list(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

static char *with_layout(const char *snapshot)
{
	static char text[8192];
	snprintf(text, sizeof text, "{\"layout\":\"%s\"}\n%s\n", layout, snapshot);
	return text;
}

static void test_catan_jsettlers__nodes_are_the_servers_land_nodes(void **st)
{
	(void)st;
	cJSON *out[2] = { 0 }, *x;
	char line[2048];
	snprintf(line, sizeof line, "{\"layout\":\"%s\"}\n", layout);
	assert_int_equal(serve("simple", line, out, 2, NULL, 0), 1);
	cJSON *nodes = cJSON_GetObjectItem(out[0], "nodes");
	assert_int_equal(cJSON_GetArraySize(nodes), 54);
	int seen[256] = { 0 };
	cJSON_ArrayForEach(x, nodes)
	{
		assert_true(in_list(server_nodes, 54, x->valueint));
		assert_int_equal(seen[x->valueint]++, 0);
	}
	cJSON_Delete(out[0]);
}

#define EMPTY_PLAYER "{\"settlements\":[],\"cities\":[],\"roads\":[]}"

/* The layout line, then a snapshot: `head` fields, our seat 0 as `seat0`, three empty seats. */
static char *snapshot(const char *head, const char *seat0)
{
	static char text[2048];
	snprintf(text, sizeof text, "{%s,\"robber\":183,\"players\":[%s,%s,%s,%s]}", head, seat0, EMPTY_PLAYER,
		 EMPTY_PLAYER, EMPTY_PLAYER);
	return with_layout(text);
}

/* The answer of `agent` to a snapshot, which must be a `what`; the caller deletes it. */
static cJSON *answer_of(const char *agent, const char *lines, const char *what)
{
	cJSON *out[2] = { 0 };
	assert_int_equal(serve(agent, lines, out, 2, NULL, 0), 2);
	cJSON_Delete(out[0]);
	assert_string_equal(cJSON_GetObjectItem(out[1], "do")->valuestring, what);
	return out[1];
}

/* Setup: JSettlers's first player is seat 2 and we are seat 0, last of the round. */
static void test_catan_jsettlers__setup_places_on_a_land_node_then_a_road_beside_it(void **st)
{
	(void)st;
	char seat0[256], head[256];
	cJSON *a = answer_of("uct:50", snapshot("\"first\":2,\"me\":0,\"current\":0,\"state\":5", EMPTY_PLAYER),
			     "settlement");
	int node = cJSON_GetObjectItem(a, "coord")->valueint;
	assert_true(in_list(server_nodes, 54, node));
	cJSON_Delete(a);
	/* the road: an edge at that node (SOCBoard: edge e joins e and e+0x11, or e+0x01 and e+0x10) */
	snprintf(head, sizeof head, "\"first\":2,\"me\":0,\"current\":0,\"state\":6,\"last_settlement\":%d", node);
	snprintf(seat0, sizeof seat0, "{\"settlements\":[%d],\"cities\":[],\"roads\":[]}", node);
	a = answer_of("simple", snapshot(head, seat0), "road");
	int e = cJSON_GetObjectItem(a, "coord")->valueint;
	int odd = ((e & 0x0F) + (e >> 4)) % 2;
	assert_true(odd ? (node == e || node == e + 0x11) : (node == e + 0x01 || node == e + 0x10));
	cJSON_Delete(a);
}

/* A seven: we hold 9 (clay, ore, sheep, wheat, wood = 3, 0, 2, 4, 0) and must give 4 of them. */
static void test_catan_jsettlers__a_discard_gives_half_of_what_we_hold(void **st)
{
	(void)st;
	static const char *const agents[2] = { "simple", "uct:100" };
	static const int held[5] = { 3, 0, 2, 4, 0 };
	for (int i = 0; i < 2; i++) {
		cJSON *a = answer_of(agents[i],
				     snapshot("\"first\":1,\"me\":0,\"current\":3,\"state\":50,\"rolled\":1,\"turns\":12,"
					      "\"deck\":[10,2,2,2,5]",
					      "{\"settlements\":[131,90],\"cities\":[],\"roads\":[114,90],\"res\":[3,0,2,4,0]}"),
				     "discard");
		cJSON *res = cJSON_GetObjectItem(a, "res");
		int total = 0;
		for (int r = 0; r < 5; r++) {
			int k = cJSON_GetArrayItem(res, r)->valueint;
			assert_true(k >= 0 && k <= held[r]);
			total += k;
		}
		assert_int_equal(total, 4);
		cJSON_Delete(a);
	}
}

static void test_catan_jsettlers__bad_snapshots_are_named_errors(void **st)
{
	(void)st;
	cJSON *out[2] = { 0 };
	char err[256];
	assert_true(serve("simple", "{\"state\":5}\n", out, 2, err, sizeof err) < 0);
	assert_non_null(strstr(err, "before the board"));
	const char *lines = snapshot("\"first\":0,\"me\":0,\"current\":0,\"state\":20",
				     "{\"settlements\":[17],\"cities\":[],\"roads\":[]}");
	assert_true(serve("simple", lines, out, 2, err, sizeof err) < 0);
	assert_non_null(strstr(err, "settlements coordinate 17"));
	cJSON_Delete(out[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catan_jsettlers__nodes_are_the_servers_land_nodes),
		cmocka_unit_test(test_catan_jsettlers__setup_places_on_a_land_node_then_a_road_beside_it),
		cmocka_unit_test(test_catan_jsettlers__a_discard_gives_half_of_what_we_hold),
		cmocka_unit_test(test_catan_jsettlers__bad_snapshots_are_named_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
