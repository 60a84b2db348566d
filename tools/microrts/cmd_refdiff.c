/*
 * microsynth refdiff RECORDING...: the DSL interpreter, decision by
 * decision, against the reference interpreter (AIs.Interpreter of LLD's
 * Synthesis2 on its MicroRTS fork, LS1.jar), on matches the reference
 * played and java/dslref recorded (docs/dsl-reference.md).
 *
 * The fork's engine is not the official one (GameState.free, its Train and
 * Harvest, ...), so nothing is simulated here: every recorded state is fed,
 * in cycle order, to the same interpreter objects, as a bot that had played
 * the match would see them (the layer's memory from decision to decision,
 * kept cells and region labels, evolves as in a match). Two interpreters
 * decide on each state: the shipped one (default options: the skips of
 * loops that cannot act, repeated views, decisions with no unit free) and a
 * plain one (every loop, every decision, every path search run in full).
 * Both must issue the reference's unit actions (same pairs, same order,
 * same actions); the plain one's abstract-action map must also be the
 * reference's (same units, order, kinds, targets, sites, preferences), and
 * where the reference threw both must fail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/microrts.h"
#include "microsynth/rts_dsl.h"
#include "microsynth/rts_import.h"
#include "cli.h"
#include "core/vec.h"
#include "recording.h"

#define RF_MAX_PAIRS 4096

typedef struct rf_stats {
	long matches, decisions, mismatches, errors, actions, abstract;
	int shown;
} rf_stats;

/* One recording being compared. */
typedef struct rf_replay {
	ms_ctx *ctx;
	const char *path;
	rf_stats *st;
	int lineno, seat, shown_here, cut;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_dsl_grammar *g;
	ms_dsl_prog *prog;
	ms_rts_dsl_interp *it[2]; /* shipped, plain */
	ms_rts_pair *rec, *mine;
	int np, have_p, have_x;
	int64_t *ids; /* unit ids of the state being rebuilt, in list order */
	int cap_ids;
	ms_buf x, text, msg;
} rf_replay;

static const char *const rf_names[2] = { "shipped", "plain" };

/* ---- the state of an S line -------------------------------------------- */

/* "T:P:UT", or "5:X:Y" for attacks. */
static int rf_parse_action(const char *tok, ms_rts_action *a)
{
	int t, p, q;

	if (sscanf(tok, "%d:%d:%d", &t, &p, &q) != 3)
		return -1;
	a->type = t;
	a->parameter = t == MS_RTS_ATTACK ? -1 : p;
	a->unit_type = t == MS_RTS_ATTACK ? -1 : q;
	a->x = t == MS_RTS_ATTACK ? p : -1;
	a->y = t == MS_RTS_ATTACK ? q : -1;
	return 0;
}

static int rf_unit_index(const rf_replay *r, int n, int64_t id)
{
	for (int i = 0; i < n; i++)
		if (r->ids[i] == id)
			return i;
	return -1;
}

/* Rebuilds r->s from "S TIME R0 R1 U N UNIT... A M ASSIGNMENT..." (modified in place); a CLI code. */
static int rf_state(rf_replay *r, char *line)
{
	char *save = NULL, *tok = strtok_r(line, " ", &save);
	long v[5];
	int n, m;

	for (int k = 0; k < 5; k++) {
		tok = strtok_r(NULL, " ", &save);
		if (!tok || (k == 3 ? strcmp(tok, "U") != 0 : sscanf(tok, "%ld", &v[k]) != 1))
			goto bad;
	}
	n = (int)v[4];
	if (n < 0 || ms_vec_grow(r->ctx, (void **)&r->ids, &r->cap_ids, n, sizeof(*r->ids)) < 0 ||
	    ms_rts_state_reset_dynamic(r->ctx, r->s, (int)v[0], (int)v[1], (int)v[2]))
		goto bad;
	for (int i = 0; i < n; i++) {
		ms_rts_unit u;
		long long id;
		if (!(tok = strtok_r(NULL, " ", &save)) ||
		    sscanf(tok, "%lld,%d,%d,%d,%d,%d,%d", &id, &u.type, &u.player, &u.x, &u.y, &u.resources,
			   &u.hitpoints) != 7)
			goto bad;
		u.id = r->ids[i] = id;
		if (ms_rts_state_add_unit(r->ctx, r->s, &u, NULL))
			goto bad;
	}
	if (!(tok = strtok_r(NULL, " ", &save)) || strcmp(tok, "A") || !(tok = strtok_r(NULL, " ", &save)) ||
	    sscanf(tok, "%d", &m) != 1)
		goto bad;
	for (int i = 0; i < m; i++) {
		long long id;
		int issued, at;
		ms_rts_action a;
		if (!(tok = strtok_r(NULL, " ", &save)) || sscanf(tok, "%lld,%d,", &id, &issued) != 2 ||
		    !(tok = strchr(strchr(tok, ',') + 1, ',')) || rf_parse_action(tok + 1, &a) ||
		    (at = rf_unit_index(r, n, id)) < 0 || ms_rts_state_add_pending(r->ctx, r->s, at, issued, &a))
			goto bad;
	}
	return CLI_OK;
bad:
	fprintf(stderr, "microsynth refdiff: %s:%d: bad state line%s%s\n", r->path, r->lineno,
		ms_ctx_last_error(r->ctx)[0] ? ": " : "", ms_ctx_last_error(r->ctx));
	return CLI_USAGE;
}

/* ---- comparing a decision ------------------------------------------------ */

/* The abstract-action map as the recorder writes an X line's entries. */
static void rf_abstract(const ms_rts_dsl_interp *it, ms_buf *b)
{
	int n;
	const ms_rts_dsl_assignment *as = ms_rts_dsl_assignments(it, &n);

	b->len = 0;
	ms_buf_printf(b, "%d", n);
	for (int i = 0; i < n; i++) {
		const ms_rts_dsl_assignment *a = &as[i];
		ms_buf_printf(b, " %lld:", (long long)a->unit);
		switch (a->kind) {
		case MS_RTS_DSL_AA_MOVE:
			ms_buf_printf(b, "M:%d:%d", a->x, a->y);
			break;
		case MS_RTS_DSL_AA_ATTACK:
			ms_buf_printf(b, "A:%lld", (long long)a->target);
			break;
		case MS_RTS_DSL_AA_HARVEST:
			ms_buf_printf(b, "H:%lld:%lld", (long long)a->target, (long long)a->base);
			break;
		case MS_RTS_DSL_AA_BUILD:
			ms_buf_printf(b, "B:%d:%d:%d", a->unit_type, a->x, a->y);
			break;
		case MS_RTS_DSL_AA_TRAIN:
			ms_buf_printf(b, "T:%d:%d", a->unit_type, a->pref);
			break;
		default:
			ms_buf_printf(b, "I");
		}
	}
}

static void rf_put(ms_buf *b, const ms_rts_pair *p, int n)
{
	for (int i = 0; i < n; i++) {
		ms_buf_printf(b, " %lld,%d,%d,%d,%d,%d,%d,", (long long)p[i].unit.id, p[i].unit.type, p[i].unit.player,
			      p[i].unit.x, p[i].unit.y, p[i].unit.resources, p[i].unit.hitpoints);
		rec_put_action(b, &p[i].action);
	}
}

/* The pairs as the recorder prints them, so equal text is an equal action. */
static int rf_same_pairs(rf_replay *r, const ms_rts_pair *mine, int n)
{
	ms_buf *a = &r->text, *b = &r->msg;

	a->len = b->len = 0;
	ms_buf_printf(a, "%d", n);
	rf_put(a, mine, n);
	ms_buf_printf(b, "%d", r->np);
	rf_put(b, r->rec, r->np);
	return a->len == b->len && !memcmp(a->data, b->data, a->len);
}

/* Prints a differing decision (at most 3 per recording, 12 in all). */
static void rf_show(rf_replay *r, const char *what, const char *native, const char *recorded)
{
	if (r->shown_here++ >= 3 || r->st->shown++ >= 12)
		return;
	printf("%s:%d: time %d player %d: %s\n  native:    %s\n  reference: %s\n", r->path, r->lineno,
	       ms_rts_state_time(r->s), r->seat, what, native, recorded);
}

/* Interpreter k's decision on the current state against the recorded one;
 * `threw`: the reference threw here. 1 when it differs. */
static int rf_one(rf_replay *r, int k, int threw)
{
	int n = 0, rc = ms_rts_dsl_decide(r->it[k], r->seat, r->s, r->mine, RF_MAX_PAIRS, &n);
	char what[64];

	if (threw || rc == MS_EILLEGAL) {
		if (threw && rc == MS_EILLEGAL)
			return 0;
		snprintf(what, sizeof(what), "%s interpreter %s", rf_names[k], threw ? "did not fail" : "failed");
		rf_show(r, what, rc ? ms_ctx_last_error(r->ctx) : "(decided)", threw ? "threw" : "(decided)");
		return 1;
	}
	if (rc) {
		fprintf(stderr, "microsynth refdiff: %s:%d: %s\n", r->path, r->lineno, ms_ctx_last_error(r->ctx));
		return -1;
	}
	if (!rf_same_pairs(r, r->mine, n)) {
		snprintf(what, sizeof(what), "unit actions (%s interpreter)", rf_names[k]);
		rf_show(r, what, r->text.data, r->msg.data);
		return 1;
	}
	if (k == 1 && r->have_x) {
		rf_abstract(r->it[1], &r->text);
		r->st->abstract++;
		if (strcmp(r->text.data, r->x.data + 2)) {
			rf_show(r, "abstract actions", r->text.data, r->x.data + 2);
			return 1;
		}
	}
	return 0;
}

/* The program's decision of this cycle; a CLI code. */
static int rf_decide(rf_replay *r, int threw)
{
	int differs = 0;

	if (!r->it[0]) {
		fprintf(stderr, "microsynth refdiff: %s:%d: no program line before the first cycle\n", r->path,
			r->lineno);
		return CLI_USAGE;
	}
	if (!threw && !r->have_p) {
		fprintf(stderr, "microsynth refdiff: %s:%d: no P line of player %d\n", r->path, r->lineno, r->seat);
		return CLI_USAGE;
	}
	for (int k = 0; k < 2; k++) {
		int d = rf_one(r, k, threw);
		if (d < 0)
			return CLI_FAIL;
		differs |= d;
	}
	r->st->decisions++;
	r->st->errors += threw;
	r->st->actions += threw ? 0 : r->np;
	r->st->mismatches += differs;
	r->have_p = r->have_x = 0;
	return CLI_OK;
}

/* ---- reading ------------------------------------------------------------- */

/* "program SEAT SALVE": LLD's tokens, read with the grammar that has inf. */
static int rf_program(rf_replay *r, const char *l)
{
	ms_rts_dsl_options plain;
	const char *salve = strchr(l + 8, ' ');

	if (sscanf(l + 8, "%d", &r->seat) != 1 || r->seat < 0 || r->seat > 1 || !salve) {
		fprintf(stderr, "microsynth refdiff: %s:%d: bad program line\n", r->path, r->lineno);
		return CLI_USAGE;
	}
	ms_rts_dsl_options_init(&plain, MS_RTS_DSL_OPTIONS_VERSION);
	plain.full_loops = plain.full_paths = plain.every_decision = 1;
	if (ms_rts_dsl_grammar_new(r->ctx, &r->g, MS_RTS_DSL_GRAMMAR_LLD) || ms_dsl_prog_new(r->ctx, &r->prog, r->g) ||
	    ms_rts_dsl_parse(r->prog, r->path, salve + 1, strlen(salve + 1), MS_RTS_DSL_PARSE_UNBOUND) ||
	    ms_rts_dsl_interp_new(r->ctx, &r->it[0], r->prog, 0, NULL) ||
	    ms_rts_dsl_interp_new(r->ctx, &r->it[1], r->prog, 0, &plain)) {
		fprintf(stderr, "microsynth refdiff: %s:%d: %s\n", r->path, r->lineno, ms_ctx_last_error(r->ctx));
		return CLI_USAGE;
	}
	r->st->matches++;
	return CLI_OK;
}

/* One line of the recording; a CLI code. */
static int rf_line(rf_replay *r, char *l)
{
	if (r->lineno == 1 && strcmp(l, "microsynth-recording 1")) {
		fprintf(stderr, "microsynth refdiff: %s: not a recording\n", r->path);
		return CLI_USAGE;
	} else if (!strncmp(l, "utt ", 4)) {
		int v, p;
		if (sscanf(l + 4, "%d %d", &v, &p) != 2 || ms_rts_utt_new(r->ctx, &r->utt, v, p))
			return CLI_USAGE;
	} else if (!strncmp(l, "program ", 8)) {
		return rf_program(r, l);
	} else if (!strncmp(l, "init ", 5)) {
		if (!r->utt || ms_rts_state_from_json(r->ctx, &r->s, r->utt, l + 5, strlen(l + 5), 0)) {
			fprintf(stderr, "microsynth refdiff: %s:%d: %s\n", r->path, r->lineno, ms_ctx_last_error(r->ctx));
			return CLI_USAGE;
		}
	} else if (!r->s) {
		return CLI_OK;
	} else if (l[0] == 'P' && l[1] == ' ' && atoi(l + 2) == r->seat) {
		ms_rts_pair *pairs[2] = { r->rec, r->rec };
		int np[2] = { 0, 0 };
		if (rec_parse_p(l, pairs, np, RF_MAX_PAIRS) < 0) {
			fprintf(stderr, "microsynth refdiff: %s:%d: bad pair list\n", r->path, r->lineno);
			return CLI_USAGE;
		}
		r->np = np[r->seat];
		r->have_p = 1;
	} else if (l[0] == 'X' && l[1] == ' ') {
		r->x.len = 0;
		r->have_x = ms_buf_puts(&r->x, l) == MS_OK;
	} else if (l[0] == 'E' && l[1] == ' ') {
		r->cut = 1;
		return rf_decide(r, 1);
	} else if (l[0] == 'S' && l[1] == ' ') {
		int rc = rf_decide(r, 0);
		return rc ? rc : rf_state(r, l);
	}
	return CLI_OK;
}

static int rf_line_cb(void *user, char *l)
{
	return rf_line(user, l);
}

static int rf_one_file(ms_ctx *ctx, const char *path, void *user)
{
	int rc = CLI_FAIL;

	rf_replay r = { .ctx = ctx, .path = path, .st = user, .seat = -1 };
	r.rec = ms_ctx_calloc(ctx, RF_MAX_PAIRS, sizeof(ms_rts_pair));
	r.mine = ms_ctx_calloc(ctx, RF_MAX_PAIRS, sizeof(ms_rts_pair));
	ms_buf_init(&r.x, ctx);
	ms_buf_init(&r.text, ctx);
	ms_buf_init(&r.msg, ctx);
	if (r.rec && r.mine)
		rc = rec_for_each_line(ctx, "refdiff", path, &r.lineno, rf_line_cb, &r);
	if (rc == CLI_OK && (!r.s || !r.it[0])) {
		fprintf(stderr, "microsynth refdiff: %s: no %s\n", path, !r.s ? "initial state" : "program line");
		rc = CLI_USAGE;
	}
	for (int k = 0; k < 2; k++)
		ms_rts_dsl_interp_free(r.it[k]);
	ms_dsl_prog_free(r.prog);
	ms_dsl_grammar_free(r.g);
	ms_buf_dispose(&r.x);
	ms_buf_dispose(&r.text);
	ms_buf_dispose(&r.msg);
	ms_rts_state_free(r.s);
	ms_rts_utt_free(r.utt);
	ms_ctx_mfree(ctx, r.ids);
	ms_ctx_mfree(ctx, r.rec);
	ms_ctx_mfree(ctx, r.mine);
	return rc;
}

void cmd_refdiff_usage(FILE *out)
{
	fprintf(out, "Usage: microsynth refdiff RECORDING...\n\n"
		     "The DSL interpreter decision by decision against the reference interpreter\n"
		     "(LLD Synthesis2's AIs.Interpreter on its MicroRTS fork, LS1.jar), on matches\n"
		     "the reference played, recorded by java/dslref (docs/dsl-reference.md; a\n"
		     "RECORDING may be a folder of *.rec.gz). Every recorded state is fed in cycle\n"
		     "order to the same interpreters (nothing is simulated: the fork's engine is not\n"
		     "the official one); the shipped interpreter and a plain one (every loop, decision\n"
		     "and path search in full) must issue the recorded unit actions, the plain one's\n"
		     "abstract actions must be the recorded ones, and both must fail where the\n"
		     "reference threw. Prints the first differing decisions, then\n"
		     "  actions=A abstract=X errors=E (unit actions, abstract-action maps, throws compared)\n"
		     "and last matches=N decisions=D mismatches=M (exit 1 if M > 0).\n");
}

int cmd_refdiff(int argc, char **argv)
{
	rf_stats st = { 0 };
	int rc;

	if (argc < 2)
		return cli_usage_error("refdiff", "no recording given");
	if (argv[1][0] == '-' && argv[1][1])
		return cli_usage_error("refdiff", "unknown option '%s'", argv[1]);
	rc = rec_for_each_file(argc, argv, 1, rf_one_file, &st);
	printf("actions=%ld abstract=%ld errors=%ld\n", st.actions, st.abstract, st.errors);
	printf("matches=%ld decisions=%ld mismatches=%ld\n", st.matches, st.decisions, st.mismatches);
	if (rc)
		return rc;
	return st.mismatches ? CLI_FAIL : CLI_OK;
}
