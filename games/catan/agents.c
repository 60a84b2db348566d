/* Catan agents by name, and games between them with the thesis's metrics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "microsynth/spec.h"
#include "catan_internal.h"
#include "catan_agents.h"

enum { AG_RANDOM, AG_SIMPLE, AG_SEARCH, AG_ALPHABETA };

struct ms_catan_agent {
	ms_ctx *ctx; /* its allocator: ms_catan_agent_free needs no context */
	int kind;
	uint64_t rng;
	ms_catan_simple_options simple;
	catan__search search;
	catan__alphabeta ab;
};

int catan__turns_after_setup(const ms_catan_state *s)
{
	int t = s->turns - 2 * (s->n - 1);
	return t > 0 ? t : 0;
}

static int parse_simple(ms_ctx *ctx, const char *spec, ms_catan_simple_options *o)
{
	ms_catan_simple_options_init(o, MS_CATAN_SIMPLE_OPTIONS_VERSION);
	for (const char *p = strchr(spec, ':'); p; p = strchr(p + 1, ':')) {
		size_t len = strcspn(p + 1, ":");
		if (len == 5 && !strncmp(p + 1, "-port", 5))
			o->port_clause = 0;
		else if (len == 4 && !strncmp(p + 1, "-yop", 4))
			o->yop_lumber_bug = 0;
		else if (len == 5 && !strncmp(p + 1, "-army", 5))
			o->army_blocks_cards = 0;
		else if (len == 7 && !strncmp(p + 1, "-knight", 7))
			o->forced_knight = 0;
		else
			return ms_ctx_error(ctx, MS_EINVAL, "catan agent '%s': unknown simple option '%.*s'", spec, (int)len,
					    p + 1);
	}
	return MS_OK;
}

typedef struct search_spec {
	long n;
	double c;
	int preselect, rule, discard_samples;
} search_spec;

/* mcts:N[:mean][:all][:onehalf] and uct:N[:c][:all][:onehalf]. `all` is the
 * thesis code's preSelect = False; `mean` ranks children by mean Q (TC2 from
 * 2016-12-08 on) instead of the Q sum its MCTS experiments ran with;
 * `onehalf` gives a discard node one random half instead of 100. */
static int parse_search(ms_ctx *ctx, const char *spec, search_spec *o)
{
	char *end;
	int is_uct = spec[0] == 'u', have_c = 0;
	const char *p = strchr(spec, ':');
	o->c = 1.0;
	o->preselect = 1;
	o->rule = is_uct ? MS_MCTS_UCB1 : MS_MCTS_MAX_SUM;
	o->discard_samples = CATAN_DISCARD_SAMPLES;
	o->n = strtol(p + 1, &end, 10);
	if (end == p + 1 || o->n < 1 || o->n > 100000000)
		return ms_ctx_error(ctx, MS_EINVAL, "catan agent '%s': needs a playout count from 1, e.g. uct:1000",
				    spec);
	while (*end == ':') {
		const char *t = end + 1;
		size_t len = strcspn(t, ":");
		end = (char *)t + len;
		if (len == 3 && !strncmp(t, "all", 3)) {
			o->preselect = 0;
		} else if (len == 7 && !strncmp(t, "onehalf", 7)) {
			o->discard_samples = 1;
		} else if (len == 4 && !strncmp(t, "mean", 4) && !is_uct) {
			o->rule = MS_MCTS_MAX_CHILD;
		} else if (is_uct && !have_c) {
			char *e;
			o->c = strtod(t, &e);
			if (e != end || o->c < 0)
				return ms_ctx_error(ctx, MS_EINVAL, "catan agent '%s': bad exploration constant '%.*s'",
						    spec, (int)len, t);
			have_c = 1;
		} else {
			return ms_ctx_error(ctx, MS_EINVAL, "catan agent '%s': unknown option '%.*s'", spec, (int)len, t);
		}
	}
	if (*end)
		return ms_ctx_error(ctx, MS_EINVAL, "catan agent '%s': unexpected '%s'", spec, end);
	return MS_OK;
}

/* A new agent of `kind`, its generator seeded (every maker starts so). */
static int agent_begin(ms_ctx *ctx, ms_catan_agent **a, int kind, uint64_t seed)
{
	if (!(*a = ms_ctx_calloc(ctx, 1, sizeof **a)))
		return ms_ctx_error(ctx, MS_ENOMEM, "catan agent: out of memory");
	(*a)->ctx = ctx;
	(*a)->kind = kind;
	(*a)->rng = seed;
	ms_catan_simple_options_init(&(*a)->simple, MS_CATAN_SIMPLE_OPTIONS_VERSION);
	return MS_OK;
}

/* The maker's end: the agent handed over, or freed when rc says it failed. */
static int agent_end(ms_ctx *ctx, ms_catan_agent **out, ms_catan_agent *a, int rc)
{
	if (rc < 0) {
		ms_catan_agent_free(a);
		return rc;
	}
	*out = a;
	return MS_OK;
}

static int make_random(ms_ctx *ctx, ms_catan_agent **out, const char *spec, const char *arg, uint64_t seed)
{
	ms_catan_agent *a;
	int rc = agent_begin(ctx, &a, AG_RANDOM, seed);
	(void)spec, (void)arg;
	return rc < 0 ? rc : agent_end(ctx, out, a, MS_OK);
}

/* The parsers read the whole spec (their messages quote it). */
static int make_simple(ms_ctx *ctx, ms_catan_agent **out, const char *spec, const char *arg, uint64_t seed)
{
	ms_catan_agent *a;
	int rc = agent_begin(ctx, &a, AG_SIMPLE, seed);
	(void)arg;
	return rc < 0 ? rc : agent_end(ctx, out, a, parse_simple(ctx, spec, &a->simple));
}

static int make_search(ms_ctx *ctx, ms_catan_agent **out, const char *spec, const char *arg, uint64_t seed)
{
	ms_catan_agent *a;
	search_spec o;
	int rc = agent_begin(ctx, &a, AG_SEARCH, seed);
	(void)arg;
	if (rc < 0)
		return rc;
	if ((rc = parse_search(ctx, spec, &o)) == MS_OK)
		rc = catan__search_init(ctx, &a->search, o.n, o.rule, o.c, seed);
	a->search.preselect = o.preselect;
	a->search.discard_samples = o.discard_samples;
	return agent_end(ctx, out, a, rc);
}

static int make_alphabeta(ms_ctx *ctx, ms_catan_agent **out, const char *spec, const char *arg, uint64_t seed)
{
	ms_catan_agent *a;
	char *end = NULL;
	int rc = agent_begin(ctx, &a, AG_ALPHABETA, seed);
	if (rc < 0)
		return rc;
	a->ab.ctx = ctx;
	a->ab.rng = seed;
	a->ab.depth = arg ? (int)strtol(arg, &end, 10) : 2;
	a->ab.node_limit = 20000;
	ms_catan_simple_options_init(&a->ab.simple, MS_CATAN_SIMPLE_OPTIONS_VERSION);
	if ((end && *end) || a->ab.depth < 1 || a->ab.depth > 8)
		rc = ms_ctx_error(ctx, MS_EINVAL, "catan agent '%s': depth must be 1-8", spec);
	return agent_end(ctx, out, a, rc);
}

/* The agent table (microsynth/spec.h). */
static const ms_catan_agent_row agent_rows[] = {
	{ { "random", MS_SPEC_NONE, NULL, "uniform over the legal actions" }, make_random },
	{ { "simple", MS_SPEC_OPTIONAL, "simple", "the thesis's Simple agent; :-port :-yop :-army :-knight drop a quirk" },
	  make_simple },
	{ { "mcts", MS_SPEC_NEEDED, "mcts:N[:mean][:all][:onehalf]",
	    "the thesis's MCTS, N playouts; children ranked by Q sum (mean: by mean Q)" },
	  make_search },
	{ { "uct", MS_SPEC_NEEDED, "uct:N[:c][:all][:onehalf]", "UCT, N playouts, exploration c (1)" }, make_search },
	{ { "alphabeta", MS_SPEC_OPTIONAL, "alphabeta[:d]", "alpha-beta to depth d (2), 2 players" }, make_alphabeta },
};
enum { N_AGENT_ROWS = (int)(sizeof agent_rows / sizeof agent_rows[0]) };

const ms_catan_agent_row *ms_catan_agents(int *n)
{
	*n = N_AGENT_ROWS;
	return agent_rows;
}

int ms_catan_agent_new(ms_ctx *ctx, ms_catan_agent **out, const char *spec, uint64_t seed)
{
	const char *arg;
	char list[200];
	int form = ms_spec_find(agent_rows, N_AGENT_ROWS, sizeof agent_rows[0], spec, &arg);

	*out = NULL;
	if (form >= 0)
		return agent_rows[form].make(ctx, out, spec, arg, seed);
	ms_spec_list(list, sizeof list, agent_rows, N_AGENT_ROWS, sizeof agent_rows[0], ", ", NULL);
	return ms_ctx_error(ctx, MS_EINVAL, "catan agent '%s': unknown (%s)", spec, list);
}

void ms_catan_agent_free(ms_catan_agent *a)
{
	if (!a)
		return;
	ms_mcts_free(a->search.m);
	ms_ctx_mfree(a->ctx, a);
}

int ms_catan_agent_act(ms_ctx *ctx, ms_catan_agent *a, const ms_catan_state *s, ms_catan_action *out)
{
	ms_catan_action acts[MS_CATAN_MAX_ACTIONS];
	int n;
	switch (a->kind) {
	case AG_SIMPLE:
		ms_catan_simple_act(s, &a->simple, -1, &a->rng, out);
		return MS_OK;
	case AG_SEARCH:
		return catan__search_act(&a->search, s, out);
	case AG_ALPHABETA:
		return catan__alphabeta_act(&a->ab, s, out);
	default:
		n = ms_catan_legal(s, acts);
		if (n <= 0)
			return ms_ctx_error(ctx, MS_EILLEGAL, "catan: no legal action");
		*out = acts[ms_catan_rand(&a->rng, (uint32_t)n)];
		return MS_OK;
	}
}

void ms_catan_agent_counters(const ms_catan_agent *a, long *searches, long *nodes)
{
	*searches = a->kind == AG_SEARCH ? a->search.searches : a->ab.searches;
	*nodes = a->kind == AG_SEARCH ? a->search.nodes : a->ab.total_nodes;
}

int ms_catan_play(ms_ctx *ctx, const ms_catan_board *b, const ms_catan_rules *rules, int n, ms_catan_agent **agents,
		  uint64_t seed, ms_catan_result *out)
{
	ms_catan_state s;
	ms_catan_action a;
	uint64_t rng = seed;
	int rc;
	memset(out, 0, sizeof *out);
	if ((rc = ms_catan_init(ctx, &s, b, rules, n, NULL, &rng)) < 0)
		return rc;
	while (!ms_catan_over(&s)) {
		if ((rc = ms_catan_agent_act(ctx, agents[s.cur], &s, &a)) < 0)
			return rc;
		if ((rc = ms_catan_apply(ctx, &s, &a, &rng, NULL)) < 0)
			return ms_ctx_error(ctx, rc, "catan: seat %d's action failed: %s", s.cur, ms_ctx_last_error(ctx));
		out->steps++;
	}
	out->winner = s.winner;
	out->turns = catan__turns_after_setup(&s);
	for (int p = 0; p < n; p++) {
		out->vp[p] = s.p[p].actual_vp;
		out->roads[p] = 15 - s.p[p].roads_left;
		out->cities[p] = 4 - s.p[p].cities_left;
		out->settlements[p] = 5 - s.p[p].settlements_left - 0;
		out->knights[p] = s.p[p].played[MS_CATAN_KNIGHT];
		out->longest_road[p] = s.p[p].has_road;
		out->largest_army[p] = s.p[p].has_army;
	}
	return MS_OK;
}
