/*
 * microsynth botdiff --p0 BOT --p1 BOT RECORDING...: decision identity of
 * the native scripted bots with the official Java bots. Each recording is
 * replayed as `microsynth diff` replays it; at every cycle, before the
 * recorded actions are issued, the native bot of each seat whose recorded
 * Java class it reproduces decides on the native state (the view of that
 * seat when the match was partially observable), and its action must
 * equal the recorded P line: same pairs, same order, same actions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "microsynth/match.h"
#include "microsynth/bots.h"
#include "microsynth/jrandom.h"
#include "microsynth/microrts.h"
#include "cli.h"
#include "edition.h"
#include "recording.h"

#define BD_MAX_PAIRS 4096

typedef struct bd_stats {
	long matches, decisions, mismatches;
	int shown;
	long random, random_differ; /* decisions the Java bot drew at random; of those, differing */
	long clock, clock_differ;   /* decisions under the Java bot's wall-clock budget (mayari); differing */
	int list_random;            /* --list-random: print each of them */
} bd_stats;

static void bd_put(ms_buf *b, const ms_rts_pair *p)
{
	ms_buf_printf(b, " %lld,%d,%d,%d,%d,%d,%d,", (long long)p->unit.id, p->unit.type, p->unit.player, p->unit.x,
		      p->unit.y, p->unit.resources, p->unit.hitpoints);
	rec_put_action(b, &p->action);
}

/* Pairs compared as the recorder prints them (unit fields and action). */
static int bd_same(const ms_rts_pair *a, const ms_rts_pair *b)
{
	const ms_rts_unit *u = &a->unit, *v = &b->unit;
	const ms_rts_action *x = &a->action, *y = &b->action;

	if (u->id != v->id || u->type != v->type || u->player != v->player || u->x != v->x || u->y != v->y ||
	    u->resources != v->resources || u->hitpoints != v->hitpoints || x->type != y->type)
		return 0;
	if (x->type == MS_RTS_ATTACK)
		return x->x == y->x && x->y == y->y;
	return x->parameter == y->parameter && x->unit_type == y->unit_type;
}

/* The job seed on a match line: "match NAME MAP UTT CONFLICT P0 P1 MAX SEED ..." */
static int64_t match_seed(const char *l)
{
	long long v = 0;
	const char *p = l;

	for (int k = 0; k < 8 && p; k++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p || sscanf(p, "%lld", &v) != 1)
		return 0;
	return (int64_t)v;
}

/* The Java class of seat `p` named on the match line ("p0=CLASS"). */
static void bd_class(const char *match, int p, char *out, size_t size)
{
	char key[5] = { ' ', 'p', (char)('0' + p), '=', 0 };
	const char *at = strstr(match, key);

	out[0] = '\0';
	if (at)
		snprintf(out, size, "%.*s", (int)strcspn(at + 4, " "), at + 4);
}

/* One recording being replayed. */
typedef struct bd_replay {
	ms_ctx *ctx;
	const char *path;
	const char *const *want; /* native bot asked for each seat, or NULL */
	int edition;
	bd_stats *st;
	int lineno, po, shown_here;
	int64_t seed;
	char cls[2][256]; /* recorded Java class of each seat */
	ms_rts_utt *utt;
	ms_rts_state *s, *view;
	ms_bot *bot[2];
	ms_rts_pair *rec[2], *mine;
	int np[2];
	ms_buf msg;
} bd_replay;

/* The "init" line: the initial state and the native bots of the seats asked for; a CLI code. */
static int bd_init(bd_replay *r, const char *json)
{
	ms_ctx *ctx = r->ctx;
	int rc = CLI_OK;
	if (!r->utt || ms_rts_state_from_json(ctx, &r->s, r->utt, json, strlen(json), 0) ||
	    (r->po && ms_rts_state_clone(ctx, &r->view, r->s))) {
		fprintf(stderr, "microsynth botdiff: %s:%d: %s\n", r->path, r->lineno, ms_ctx_last_error(ctx));
		return CLI_USAGE;
	}
	for (int p = 0; p < 2; p++) {
		const char *native = ms_bot_for_java_class(r->cls[p]);
		if (!r->want[p] || !native || strcasecmp(native, r->want[p]))
			continue;
		/* The recorder seeds util.Sampler's generator as `match --seed` does. */
		if (ms_bot_make(ctx, &r->bot[p], native, r->utt, ms_jrandom_match_seed(r->seed, MS_MATCH_RNG_SAMPLER)) ||
		    ms_bot_set_edition(r->bot[p], r->edition)) {
			fprintf(stderr, "microsynth botdiff: %s\n", ms_ctx_last_error(ctx));
			rc = CLI_USAGE;
		}
	}
	if (r->bot[0] || r->bot[1])
		r->st->matches++;
	return rc;
}

/* Prints a differing decision (at most 3 per recording, 10 in all). */
static void bd_show(bd_replay *r, int p, int n)
{
	if (r->shown_here++ >= 3 || r->st->shown++ >= 10)
		return;
	ms_buf *msg = &r->msg;
	msg->len = 0;
	ms_buf_printf(msg, "%s:%d: time %d player %d (%s):\n  native:  ", r->path, r->lineno, ms_rts_state_time(r->s), p,
		      r->bot[p]->ops->name);
	for (int i = 0; i < n; i++)
		bd_put(msg, &r->mine[i]);
	ms_buf_printf(msg, "\n  recorded:");
	for (int i = 0; i < r->np[p]; i++)
		bd_put(msg, &r->rec[p][i]);
	printf("%s\n", msg->data);
}

/* Seat p's native decision against the recorded one; -1 if the bot failed. */
static int bd_compare(bd_replay *r, int p)
{
	bd_stats *st = r->st;
	const ms_rts_state *seen = r->s;
	int n = 0, same;
	if (r->po) {
		ms_rts_state_observe(r->view, r->s, p);
		seen = r->view;
	}
	if (ms_bot_decide(r->bot[p], p, seen, r->mine, BD_MAX_PAIRS, &n)) {
		fprintf(stderr, "microsynth botdiff: %s:%d: %s\n", r->path, r->lineno, ms_ctx_last_error(r->ctx));
		return -1;
	}
	st->decisions++;
	same = n == r->np[p];
	for (int i = 0; same && i < n; i++)
		same = bd_same(&r->mine[i], &r->rec[p][i]);
	/* the Java bot drew from an unseeded generator: counted apart */
	if (r->bot[p]->random_moves) {
		st->random++;
		st->random_differ += !same;
		if (st->list_random)
			printf("%s: time %d player %d: random %s\n", r->path, ms_rts_state_time(r->s), p,
			       same ? "same" : "differs");
		return 0;
	}
	/* the Java bot's budget may have cut it: counted apart */
	if (r->bot[p]->clock_bound) {
		st->clock++;
		st->clock_differ += !same;
		if (!same && st->list_random)
			printf("%s: time %d player %d: clock-bound differs\n", r->path, ms_rts_state_time(r->s), p);
		return 0;
	}
	if (!same) {
		st->mismatches++;
		bd_show(r, p, n);
	}
	return 0;
}

/* An "S" line: both Java bots decided on the state before issuing the recorded actions; a CLI code. */
static int bd_step(bd_replay *r)
{
	ms_ctx *ctx = r->ctx;
	int gameover, rc = CLI_OK;
	for (int p = 0; p < 2; p++)
		if (r->bot[p] && bd_compare(r, p)) {
			rc = CLI_FAIL;
			break;
		}
	for (int p = 0; p < 2; p++) {
		if (r->np[p] && rec_issue(ctx, r->s, r->rec[p], r->np[p])) {
			fprintf(stderr, "microsynth botdiff: %s:%d: %s\n", r->path, r->lineno, ms_ctx_last_error(ctx));
			rc = CLI_USAGE;
		}
		r->np[p] = 0;
	}
	if (ms_rts_cycle(ctx, r->s, &gameover)) {
		fprintf(stderr, "microsynth botdiff: %s:%d: %s\n", r->path, r->lineno, ms_ctx_last_error(ctx));
		rc = CLI_FAIL;
	}
	return rc;
}

/* One line of the recording; a CLI code. */
static int bd_line(bd_replay *r, char *l)
{
	if (r->lineno == 1 && strcmp(l, "microsynth-recording 1")) {
		fprintf(stderr, "microsynth botdiff: %s: not a recording\n", r->path);
		return CLI_USAGE;
	} else if (!strncmp(l, "match ", 6)) {
		bd_class(l, 0, r->cls[0], sizeof(r->cls[0]));
		bd_class(l, 1, r->cls[1], sizeof(r->cls[1]));
		r->po = strstr(l, " po ") != NULL;
		r->seed = match_seed(l);
	} else if (!strncmp(l, "utt ", 4)) {
		int v, p;
		if (sscanf(l + 4, "%d %d", &v, &p) != 2 || ms_rts_utt_new(r->ctx, &r->utt, v, p))
			return CLI_USAGE;
	} else if (!strncmp(l, "init ", 5)) {
		return bd_init(r, l + 5);
	} else if (l[0] == 'R' && r->s) {
		if (rec_apply_r(r->s, l))
			return CLI_USAGE;
	} else if (l[0] == 'P' && r->s) {
		if (rec_parse_p(l, r->rec, r->np, BD_MAX_PAIRS) < 0) {
			fprintf(stderr, "microsynth botdiff: %s:%d: bad pair list\n", r->path, r->lineno);
			return CLI_USAGE;
		}
	} else if (l[0] == 'S' && r->s) {
		return bd_step(r);
	}
	return CLI_OK;
}

/* What every recording of a run shares. */
typedef struct bd_run {
	const char *const *want;
	int edition;
	bd_stats *st;
} bd_run;

static int bd_line_cb(void *user, char *l)
{
	return bd_line(user, l);
}

static int bd_one(ms_ctx *ctx, const char *path, void *user)
{
	const bd_run *run = user;
	int rc;

	bd_replay r = { .ctx = ctx, .path = path, .want = run->want, .edition = run->edition, .st = run->st };
	r.rec[0] = calloc(BD_MAX_PAIRS, sizeof(ms_rts_pair));
	r.rec[1] = calloc(BD_MAX_PAIRS, sizeof(ms_rts_pair));
	r.mine = calloc(BD_MAX_PAIRS, sizeof(ms_rts_pair));
	ms_buf_init(&r.msg, ctx);
	rc = rec_for_each_line(ctx, "botdiff", path, &r.lineno, bd_line_cb, &r);
	if (rc == CLI_OK && !r.s) {
		fprintf(stderr, "microsynth botdiff: %s: no initial state\n", path);
		rc = CLI_USAGE;
	}
	ms_bot_free(r.bot[0]);
	ms_bot_free(r.bot[1]);
	ms_buf_dispose(&r.msg);
	ms_rts_state_free(r.view);
	ms_rts_state_free(r.s);
	ms_rts_utt_free(r.utt);
	free(r.rec[0]);
	free(r.rec[1]);
	free(r.mine);
	return rc;
}

void cmd_botdiff_usage(FILE *out)
{
	fprintf(out, "Usage: microsynth botdiff [--p0 BOT] [--p1 BOT] [--edition 2022|2023] [--list-random]\n"
		     "                         RECORDING...\n\n"
		     "Replays recordings of official matches (see `microsynth diff`) and, at\n"
		     "every cycle, asks the native bot named for a seat whose recorded Java\n"
		     "class it reproduces for its action on the native state; the action must\n"
		     "equal the recorded one (same pairs, order and actions). Seats whose class\n"
		     "differs are not checked. Bots: WorkerRush LightRush HeavyRush RangedRush\n"
		     "RandomBiasedAI RandomAI PassiveAI CoacAI mayari (RandomBiasedAI follows the seed\n"
		     "on the recording's match line; RandomAI cannot match: Java reseeds it from\n"
		     "the clock; CoacAI's decisions where the jar draws a move from an unseeded\n"
		     "generator are counted apart, on a line `random: decisions=R differ=X`;\n"
		     "--list-random prints each; mayari's decisions under its wall-clock budget\n"
		     "(maps 24+ wide with 24+ units) likewise on `clock: decisions=C differ=X`).\n"
		     "--edition: the edition of the official bots to reproduce (default: the\n"
		     "harness's, see `microsynth harness`). Last line: matches=N decisions=D\n"
		     "mismatches=M (exit 1 if M > 0).\n");
}

int cmd_botdiff(int argc, char **argv)
{
	const char *want[2] = { NULL, NULL };
	bd_stats st = { 0 };
	int rc, i = 1, edition = edition_of_harness(NULL);

	for (; i < argc && argv[i][0] == '-'; i += 2) {
		int p = !strcmp(argv[i], "--p0") ? 0 : !strcmp(argv[i], "--p1") ? 1 : -1;
		if (!strcmp(argv[i], "--list-random")) {
			st.list_random = 1;
			i--;
			continue;
		}
		if (!strcmp(argv[i], "--edition")) {
			if (edition_arg("botdiff", i + 1 < argc ? argv[i + 1] : NULL, &edition))
				return CLI_USAGE;
			continue;
		}
		if (p < 0)
			return cli_usage_error("botdiff", "unknown option '%s'", argv[i]);
		if (i + 1 >= argc)
			return cli_usage_error("botdiff", "%s needs a bot name", argv[i]);
		if (!ms_bot_for_java_class(argv[i + 1]))
			return cli_usage_error("botdiff", "no native bot called '%s'", argv[i + 1]);
		want[p] = argv[i + 1];
	}
	if (!want[0] && !want[1])
		return cli_usage_error("botdiff", "name a bot with --p0 or --p1");
	if (i >= argc)
		return cli_usage_error("botdiff", "no recording given");
	bd_run run = { .want = want, .edition = edition, .st = &st };
	rc = rec_for_each_file(argc, argv, i, bd_one, &run);
	if (st.random)
		printf("random: decisions=%ld differ=%ld (the Java bot drew a move from an unseeded generator)\n",
		       st.random, st.random_differ);
	if (st.clock)
		printf("clock: decisions=%ld differ=%ld (the Java bot ran under its wall-clock budget)\n", st.clock,
		       st.clock_differ);
	printf("matches=%ld decisions=%ld mismatches=%ld\n", st.matches, st.decisions, st.mismatches);
	if (rc)
		return rc;
	return st.mismatches ? CLI_FAIL : CLI_OK;
}
