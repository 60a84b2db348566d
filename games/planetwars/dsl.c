/*
 * Planet Wars as a third game of the synthesis core (planetwars_synth.h):
 * a grammar of gain expressions, their evaluation inside the forecasting
 * bot, and the problem (Psi against the original forecasting bot, one
 * shard per map, both seats). Nothing here is known to native/synth: the
 * problem is the same ms_synth_problem Can't Stop and MicroRTS hand it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/planetwars/pw_internal.h"
#include "microsynth/planetwars_synth.h"
#include "core/hash.h"
#include "core/opts.h"

enum {
	OP_ROOT, OP_ADD, OP_SUB, OP_MUL, OP_MAX, OP_IF_ENEMY, OP_WRAP,
	OP_RESIDUE, OP_GROWTH, OP_DIST, OP_HORIZON, OP_LEFT, OP_SHIPS, OP_SPARE, OP_F1, OP_F2, OP_F3,
	OP_CONST_HALF, OP_CONST_1, OP_CONST_2, OP_CONST_5, OP_CONST_10, OP_CONST_M1
};

enum { NT_S, NT_E, NT_F, NT_K };

static const ms_dsl_prod_def prods[] = {
	{ "gain", "gain = $0", "E", OP_ROOT, 1, 0 },
	{ "add", "($0 + $1)", "E E", OP_ADD, 1, 0 },
	{ "sub", "($0 - $1)", "E E", OP_SUB, 1, 0 },
	{ "mul", "($0 * $1)", "E E", OP_MUL, 1, 0 },
	{ "max", "max($0, $1)", "E E", OP_MAX, 1, 0 },
	{ "if_enemy", "(enemy ? $0 : $1)", "E E", OP_IF_ENEMY, 1, 0 },
	{ "feature", "$0", "F", OP_WRAP, 0, 2 },
	{ "constant", "$0", "K", OP_WRAP, 0, 1 },
	{ "residue", "residue", NULL, OP_RESIDUE, 1, 0 },
	{ "growth", "growth", NULL, OP_GROWTH, 1, 0 },
	{ "dist", "dist", NULL, OP_DIST, 1, 0 },
	{ "horizon", "horizon", NULL, OP_HORIZON, 1, 0 },
	{ "left", "(horizon - dist)", NULL, OP_LEFT, 1, 0 },
	{ "ships", "ships", NULL, OP_SHIPS, 1, 0 },
	{ "spare", "spare", NULL, OP_SPARE, 1, 0 },
	{ "f1", "f1", NULL, OP_F1, 1, 0 },
	{ "f2", "f2", NULL, OP_F2, 1, 0 },
	{ "f3", "f3", NULL, OP_F3, 1, 0 },
	{ "half", "0.5", NULL, OP_CONST_HALF, 1, 0 },
	{ "one", "1", NULL, OP_CONST_1, 1, 0 },
	{ "two", "2", NULL, OP_CONST_2, 1, 0 },
	{ "five", "5", NULL, OP_CONST_5, 1, 0 },
	{ "ten", "10", NULL, OP_CONST_10, 1, 0 },
	{ "minus_one", "-1", NULL, OP_CONST_M1, 1, 0 },
};

static const ms_dsl_nt_def nts[] = {
	{ "S", "gain" },
	{ "E", "add sub mul max if_enemy feature constant" },
	{ "F", "residue growth dist horizon left ships spare f1 f2 f3" },
	{ "K", "half one two five ten minus_one" },
};

int ms_pw_dsl_grammar_new(ms_ctx *ctx, ms_dsl_grammar **out)
{
	ms_dsl_grammar_def def = { MS_DSL_GRAMMAR_DEF_VERSION, "planetwars-gain", prods,
				   (int)(sizeof prods / sizeof prods[0]), nts, (int)(sizeof nts / sizeof nts[0]), NT_S };
	return ms_dsl_grammar_new(ctx, out, &def);
}

const char *ms_pw_dsl_original_tokens(void)
{
	return "gain sub mul feature left feature growth feature residue";
}

typedef struct prog_gain {
	const ms_dsl_prog *prog;
	const ms_dsl_sym *sym;
	const ms_dsl_grammar *g;
} prog_gain;

static double eval_node(const prog_gain *pg, int i, const pw_gain_in *in)
{
	int op = ms_dsl_prod_op(pg->g, pg->sym[i]);
	switch (op) {
	case OP_ROOT:
	case OP_WRAP:
		return eval_node(pg, i + 1, in);
	case OP_ADD:
	case OP_SUB:
	case OP_MUL:
	case OP_MAX:
	case OP_IF_ENEMY: {
		int b = ms_dsl_child(pg->prog, i, 1);
		if (op == OP_IF_ENEMY)
			return in->enemy ? eval_node(pg, i + 1, in) : eval_node(pg, b, in);
		double x = eval_node(pg, i + 1, in), y = eval_node(pg, b, in);
		return op == OP_ADD ? x + y : op == OP_SUB ? x - y : op == OP_MUL ? x * y : x > y ? x : y;
	}
	case OP_RESIDUE: return in->residue;
	case OP_GROWTH: return in->growth;
	case OP_DIST: return in->dist;
	case OP_HORIZON: return in->horizon;
	case OP_LEFT: return in->horizon - in->dist;
	case OP_SHIPS: return in->ships;
	case OP_SPARE: return in->spare;
	case OP_F1: return in->f1;
	case OP_F2: return in->f2;
	case OP_F3: return in->f3;
	case OP_CONST_HALF: return 0.5;
	case OP_CONST_1: return 1;
	case OP_CONST_2: return 2;
	case OP_CONST_5: return 5;
	case OP_CONST_10: return 10;
	default: return -1;
	}
}

static double prog_gain_fn(void *ud, const pw_gain_in *in)
{
	const prog_gain *pg = ud;
	double v = eval_node(pg, 0, in);
	return isnan(v) ? -INFINITY : v; /* NaN never wins: comparisons with it are false anyway; be explicit */
}

typedef struct prog_bot {
	ms_pw_bot inner;
	prog_gain pg;
	ms_dsl_prog *own_prog;  /* program:FILE: the program read, and its grammar, the bot's own */
	ms_dsl_grammar *own_g;
} prog_bot;

static int prog_turn(ms_ctx *ctx, void *ud, const ms_pw_state *v, ms_pw_orders *out)
{
	prog_bot *b = ud;
	return b->inner.turn(ctx, b->inner.ud, v, out);
}

static void prog_release(ms_ctx *ctx, void *ud)
{
	prog_bot *b = ud;
	ms_pw_bot_release(ctx, &b->inner);
	ms_dsl_prog_free(b->own_prog);
	ms_dsl_grammar_free(b->own_g);
	ms_ctx_mfree(ctx, b);
}

int ms_pw_bot_program(ms_ctx *ctx, ms_pw_bot *out, const ms_dsl_prog *prog)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(prog);
	if (strcmp(ms_dsl_grammar_name(g), "planetwars-gain") || ms_dsl_prog_nt(prog) != NT_S ||
	    ms_dsl_hole_count(prog) > 0)
		return ms_ctx_error(ctx, MS_EINVAL, "planetwars: a bot needs a whole program of the planetwars-gain grammar");
	prog_bot *b = ms_ctx_calloc(ctx, 1, sizeof *b);
	if (!b)
		return ms_ctx_error(ctx, MS_ENOMEM, "planetwars: out of memory");
	b->pg = (prog_gain){ prog, ms_dsl_prog_nodes(prog), g };
	int rc = pw_forecast_new_gain(ctx, &b->inner, prog_gain_fn, &b->pg, "program");
	if (rc) {
		ms_ctx_mfree(ctx, b);
		return rc;
	}
	*out = (ms_pw_bot){ "program", b, prog_turn, prog_release };
	return MS_OK;
}

int ms_pw_dsl_load(ms_ctx *ctx, ms_dsl_prog *prog, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return ms_ctx_error(ctx, MS_EIO, "%s: cannot open: %s", path, strerror(errno));
	char line[8192], text[8192] = "";
	size_t n = 0;
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#')
			continue;
		size_t l = strlen(line);
		if (n + l + 1 >= sizeof text) {
			fclose(f);
			return ms_ctx_error(ctx, MS_EINVAL, "%s: program longer than %zu bytes", path, sizeof text - 1);
		}
		for (size_t i = 0; i < l; i++)
			text[n++] = line[i] == '\n' || line[i] == '\r' || line[i] == '\t' ? ' ' : line[i];
	}
	fclose(f);
	text[n] = 0;
	/* the token form takes single separators: squeeze blanks */
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (text[i] != ' ' || (k > 0 && text[k - 1] != ' '))
			text[k++] = text[i];
	while (k > 0 && text[k - 1] == ' ')
		k--;
	text[k] = 0;
	int rc = ms_dsl_parse_tokens(prog, text, k, ' ', NT_S);
	if (rc) {
		char msg[512];
		snprintf(msg, sizeof msg, "%s", ms_ctx_last_error(ms_dsl_prog_ctx(prog)));
		return ms_ctx_error(ctx, rc, "%s: %s", path, msg);
	}
	return MS_OK;
}

/* ---- the problem ---- */

struct ms_pw_synth {
	ms_ctx *ctx;
	ms_pw_synth_options o;
	double opponent[MS_PW_FORECAST_PARAMS];
	ms_dsl_grammar *g;
	ms_synth_problem pb;
	char fingerprint[512];
};

static int pw_eval(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *prog, int kind, int shard, uint64_t seed,
		   double *sum, double *weight)
{
	const ms_pw_synth *s = user;
	if (kind != MS_SYNTH_PSI)
		return ms_ctx_error(ctx, MS_EINVAL, "planetwars synth: no cloning score (C) is defined");
	if (shard < 0 || shard >= s->o.nmaps)
		return ms_ctx_error(ctx, MS_EINVAL, "planetwars synth: shard %d of %d maps", shard, s->o.nmaps);
	double score = 0;
	for (int seat = 0; seat < 2; seat++) {
		ms_pw_bot me, opp;
		ms_pw_result r;
		int rc = ms_pw_bot_program(ctx, &me, prog);
		if (rc)
			return rc;
		if ((rc = ms_pw_bot_forecast(ctx, &opp, s->opponent))) {
			ms_pw_bot_release(ctx, &me);
			return rc;
		}
		rc = seat == 0 ? ms_pw_play(ctx, s->o.maps[shard], &me, &opp, s->o.max_turns, NULL, NULL, &r)
			       : ms_pw_play(ctx, s->o.maps[shard], &opp, &me, s->o.max_turns, NULL, NULL, &r);
		ms_pw_bot_release(ctx, &me);
		ms_pw_bot_release(ctx, &opp);
		if (rc)
			return rc;
		int mine = seat == 0 ? 1 : 2;
		score += r.winner == mine ? 1 : r.winner == 0 ? 0.5 : 0;
	}
	*sum = score;
	*weight = 2;
	return 0;
}

int ms_pw_synth_new(ms_ctx *ctx, ms_pw_synth **out, const ms_pw_synth_options *o)
{
	*out = NULL;
	if (!o || o->version != MS_PW_SYNTH_OPTIONS_VERSION || !o->maps || o->nmaps < 1 || o->max_turns < 1)
		return ms_ctx_error(ctx, MS_EINVAL, "planetwars synth: bad options (version, maps, max turns)");
	ms_pw_synth *s = ms_ctx_calloc(ctx, 1, sizeof *s);
	if (!s)
		return ms_ctx_error(ctx, MS_ENOMEM, "planetwars synth: out of memory");
	s->ctx = ctx;
	s->o = *o;
	memcpy(s->opponent, o->opponent ? o->opponent : ms_pw_forecast_original(), sizeof s->opponent);
	int rc = ms_pw_dsl_grammar_new(ctx, &s->g);
	if (rc) {
		ms_ctx_mfree(ctx, s);
		return rc;
	}
	uint64_t h = MS_FNV_OFFSET;
	for (int i = 0; i < MS_PW_FORECAST_PARAMS; i++) {
		char b[40];
		snprintf(b, sizeof b, "%.17g,", s->opponent[i]);
		h = ms_fnv1a_str(h, b);
	}
	snprintf(s->fingerprint, sizeof s->fingerprint,
		 "planetwars-gain psi=forecast opponent=%016llx maps=%s nmaps=%d max_turns=%d seats=2",
		 (unsigned long long)h, o->maps_label ? o->maps_label : "?", o->nmaps, o->max_turns);
	s->pb.version = MS_SYNTH_PROBLEM_VERSION;
	s->pb.name = "planetwars";
	s->pb.fingerprint = s->fingerprint;
	s->pb.grammar = s->g;
	s->pb.start = NT_S;
	s->pb.gen.version = MS_DSL_GEN_OPTIONS_VERSION;
	s->pb.gen.max_depth = 4;
	s->pb.shards[0] = o->nmaps;
	s->pb.shards[1] = 1;
	s->pb.has_c = 0;
	s->pb.user = s;
	s->pb.eval = pw_eval;
	*out = s;
	return MS_OK;
}

const ms_synth_problem *ms_pw_synth_problem(const ms_pw_synth *s) { return &s->pb; }
const ms_dsl_grammar *ms_pw_synth_grammar(const ms_pw_synth *s) { return s->g; }

void ms_pw_synth_free(ms_pw_synth *s)
{
	if (!s)
		return;
	ms_dsl_grammar_free(s->g);
	ms_ctx_mfree(s->ctx, s);
}

static const char *const final_field[MS_PW_FINAL_FIELD] = { "Forecast", "BullyBot", "DualBot", "ProspectorBot",
							     "RageBot", "RandomBot" };

const char *const *ms_pw_final_field(void)
{
	return final_field;
}

/* One game of prog against field bot o on `map` seeded `m`, in seat 1 or 2; its wdl row updated. */
static int final_game(ms_ctx *ctx, const ms_dsl_prog *prog, const ms_pw_state *map, int o, int m, int seat,
		      int wdl[3])
{
	ms_pw_bot me, them;
	ms_pw_result res;
	int rc = ms_pw_bot_program(ctx, &me, prog);
	if (rc)
		return rc;
	if ((rc = ms_pw_bot_by_name(ctx, &them, final_field[o], (uint64_t)m))) {
		ms_pw_bot_release(ctx, &me);
		return rc;
	}
	const ms_pw_bot *p1 = seat == 2 ? &them : &me, *p2 = seat == 2 ? &me : &them;
	rc = ms_pw_play(ctx, map, p1, p2, MS_PW_MAX_TURNS, NULL, NULL, &res);
	ms_pw_bot_release(ctx, &me);
	ms_pw_bot_release(ctx, &them);
	if (!rc)
		wdl[res.winner == seat ? 0 : res.winner == 0 ? 1 : 2]++;
	return rc;
}

int ms_pw_synth_final(ms_ctx *ctx, const ms_dsl_prog *prog, const ms_pw_state *const *maps, int n,
		      int wdl[MS_PW_FINAL_FIELD][3])
{
	if (!prog || (n > 0 && !maps) || n < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "planetwars final check: no program or maps");
	for (int o = 0; o < MS_PW_FINAL_FIELD; o++)
		for (int m = 0; m < n; m++)
			for (int seat = 1; seat <= 2; seat++) {
				int rc = final_game(ctx, prog, maps[m], o, m, seat, wdl[o]);
				if (rc)
					return rc;
			}
	return MS_OK;
}

int ms_pw_synth_options_init(ms_pw_synth_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_PW_SYNTH_OPTIONS_VERSION);
}

/* ---- a program file as an agent (Planet Wars' agent table, bots.c) ---- */

int pw_program_file_bot(ms_ctx *ctx, ms_pw_bot *out, const char *path)
{
	ms_dsl_grammar *g = NULL;
	ms_dsl_prog *prog = NULL;
	int rc = ms_pw_dsl_grammar_new(ctx, &g);
	if (!rc)
		rc = ms_dsl_prog_new(ctx, &prog, g);
	if (!rc)
		rc = ms_pw_dsl_load(ctx, prog, path);
	if (!rc)
		rc = ms_pw_bot_program(ctx, out, prog);
	if (rc) {
		ms_dsl_prog_free(prog);
		ms_dsl_grammar_free(g);
		return rc;
	}
	((prog_bot *)out->ud)->own_prog = prog;
	((prog_bot *)out->ud)->own_g = g;
	return MS_OK;
}
