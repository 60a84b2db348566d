/*
 * microsynth switch: builds and checks opponent switches (docs/switch.md).
 * `build` plays the opening against every known opponent in both seats up
 * to the switch cycle, records what the switch sees there, writes the
 * switch with the case programs inline, then plays it to the end against
 * the same opponents as a check.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/bots.h"
#include "microsynth/match.h"
#include "microsynth/microrts.h"
#include "microsynth/rts_dsl.h"
#include "microsynth/buf.h"
#include "cli.h"
#include "edition.h"

#define CMD "switch build"
#define MAX_CASES 16

void cmd_switch_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth switch build --map MAP --cycle K --before FILE [--default FILE]\n"
		"                               --case BOT=FILE [--case BOT=FILE ...] [--radius R]\n"
		"                               [--utt 1|2|3] [--conflict 1|2|3] [--edition 2022|2023]\n"
		"                               [--max-cycles N] -o OUT\n\n"
		"An opponent switch plays the --before program until cycle K, then compares what it\n"
		"sees of the enemy (units per type, resources, units near ours, our unit count) with\n"
		"what it saw against each known opponent BOT (a native bot) at that cycle, and plays\n"
		"the nearest case's program (a program made after the same opening, `synth --prefix\n"
		"FILE --switch-cycle K`), or --default (else the --before program) when none lies\n"
		"within the radius (default: half the least distance between cases of different\n"
		"programs). `build` records the cases in both seats, writes OUT (programs inline;\n"
		"play it as switch:OUT), then plays it against every BOT in both seats to the end\n"
		"(--max-cycles, default 5000). Last line:\n"
		"cases=N collisions=C min_distance=D radius=R wins=W draws=D losses=L\n");
}

/* A file's text onto b, ending in a newline. */
static int read_text(const char *path, ms_buf *b)
{
	size_t n;
	char *t = cli_read_text(CMD, path, &n);
	int rc = !t || ms_buf_append(b, t, n) || (n && t[n - 1] != '\n' && ms_buf_append(b, "\n", 1)) ? -1 : 0;
	free(t);
	return rc;
}

typedef struct sw_args {
	const char *map, *before, *dflt, *out;
	const char *bot[MAX_CASES], *file[MAX_CASES];
	int n;
	long cycle, utt, conflict, max_cycles;
	double radius;
	int edition;
} sw_args;

/* One native match of switch text `text` (seat) against `bot`; *choice and f[] from the switch. */
static int play_one(ms_ctx *ctx, const ms_rts_utt *utt, const sw_args *a, const char *path, const char *text,
		    const char *bot, int seat, int cycles, int *winner, int *end, char *choice, size_t csize,
		    double f[MS_RTS_SWITCH_FEATURES])
{
	ms_rts_state *s = NULL;
	ms_bot *b[2] = { NULL, NULL };
	const char *label = NULL;
	int rc;

	if ((rc = ms_rts_state_load_map(ctx, &s, utt, path, 0)))
		goto done;
	if ((rc = ms_rts_switch_bot_new(ctx, &b[seat], "switch", text, strlen(text), utt, 0)) ||
	    (rc = ms_bot_make(ctx, &b[1 - seat], bot, utt, 0)))
		goto done;
	for (int p = 0; p < 2; p++)
		if ((rc = ms_bot_set_edition(b[p], a->edition)) || (rc = ms_bot_reset(b[p])))
			goto done;
	if ((rc = ms_bot_play(ctx, s, b, cycles, 0, NULL, winner)))
		goto done;
	*end = ms_rts_state_time(s);
	rc = ms_rts_switch_bot_choice(b[seat], &label, f);
	snprintf(choice, csize, "%s", rc == MS_OK && label ? label : "-");
	rc = rc == MS_ENOTFOUND ? MS_OK : rc;
done:
	ms_bot_free(b[0]);
	ms_bot_free(b[1]);
	ms_rts_state_free(s);
	return rc;
}

static int parse_args(int argc, char **argv, sw_args *a)
{
	a->cycle = -1;
	a->utt = 2;
	a->conflict = 1;
	a->max_cycles = 5000;
	a->radius = -1;
	a->edition = -1;
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!v)
			return cli_usage_error(CMD, "%s needs a value", o);
		i++;
		if (!strcmp(o, "--map"))
			a->map = v;
		else if (!strcmp(o, "--before"))
			a->before = v;
		else if (!strcmp(o, "--default"))
			a->dflt = v;
		else if (!strcmp(o, "-o"))
			a->out = v;
		else if (!strcmp(o, "--case")) {
			const char *eq = strchr(v, '=');
			if (!eq || eq == v || !eq[1])
				return cli_usage_error(CMD, "--case: expected BOT=FILE, got '%s'", v);
			if (a->n == MAX_CASES)
				return cli_usage_error(CMD, "more than %d --case", MAX_CASES);
			a->bot[a->n] = strndup(v, (size_t)(eq - v));
			a->file[a->n++] = eq + 1;
			if (!a->bot[a->n - 1])
				return CLI_FAIL;
		} else if (!strcmp(o, "--radius")) {
			if (cli_parse_real(CMD, o, v, 0, 1e9, 0, &a->radius))
				return CLI_USAGE;
		} else if (!strcmp(o, "--edition")) {
			if (edition_arg(CMD, v, &a->edition))
				return CLI_USAGE;
		} else if (!strcmp(o, "--cycle")) {
			if (cli_parse_int(CMD, o, v, 1, 100000000L, &a->cycle))
				return CLI_USAGE;
		} else if (!strcmp(o, "--utt")) {
			if (cli_parse_int(CMD, o, v, 1, 3, &a->utt))
				return CLI_USAGE;
		} else if (!strcmp(o, "--conflict")) {
			if (cli_parse_int(CMD, o, v, 1, 3, &a->conflict))
				return CLI_USAGE;
		} else if (!strcmp(o, "--max-cycles")) {
			if (cli_parse_int(CMD, o, v, 1, 100000000L, &a->max_cycles))
				return CLI_USAGE;
		} else
			return cli_usage_error(CMD, "unknown option '%s'", o);
	}
	if (!a->map || a->cycle < 0 || !a->before || !a->n || !a->out)
		return cli_usage_error(CMD, "--map, --cycle, --before, --case and -o are required");
	for (int k = 0; k < a->n; k++)
		if (!ms_bot_for_java_class(a->bot[k]))
			return cli_usage_error(CMD, "--case: no native bot called '%s'", a->bot[k]);
	return 0;
}

/* The switch text: header, programs (before, default, each case file once), then `tail`. */
static int compose(const sw_args *a, const char *tail, double radius, ms_buf *b)
{
	int rc = ms_buf_printf(b, "microsynth-switch 1\ncycle %ld\n", a->cycle);
	if (!rc && radius >= 0)
		rc = ms_buf_printf(b, "radius %.6g\n", radius);
	rc = rc || ms_buf_puts(b, "program before\n") || read_text(a->before, b) || ms_buf_puts(b, "end\n");
	if (!rc && a->dflt)
		rc = ms_buf_puts(b, "program default\n") || read_text(a->dflt, b) || ms_buf_puts(b, "end\n");
	for (int k = 0; !rc && tail && k < a->n; k++)
		rc = ms_buf_printf(b, "program case%d\n", k) || read_text(a->file[k], b) || ms_buf_puts(b, "end\n");
	rc = rc || ms_buf_puts(b, "before before\n");
	if (!rc && a->dflt)
		rc = ms_buf_puts(b, "default default\n");
	if (!rc && tail)
		rc = ms_buf_puts(b, tail);
	return rc || ms_buf_append(b, "", 0) ? -1 : 0;
}

int cmd_switch(int argc, char **argv)
{
	sw_args a;
	char path[4096], choice[64];
	ms_ctx *ctx = NULL;
	ms_rts_utt *utt = NULL;
	ms_buf probe, cases, full;
	double f[MAX_CASES][2][MS_RTS_SWITCH_FEATURES];
	int seen[MAX_CASES][2];
	int rc, ret = CLI_FAIL, collisions = 0, w = 0, d = 0, l = 0;
	double least = HUGE_VAL, radius;

	if (argc < 2 || strcmp(argv[1], "build"))
		return cli_usage_error("switch", "expected 'switch build'");
	memset(&a, 0, sizeof a);
	if ((rc = parse_args(argc, argv, &a)))
		return rc;
	if (cli_resolve_map(a.map, path, sizeof path))
		return cli_usage_error(CMD, "map '%s' not found (as a path or in the harness cache)", a.map);
	if (a.edition < 0)
		a.edition = edition_of_harness(NULL);
	if (ms_ctx_new(&ctx, NULL))
		return CLI_FAIL;
	ms_buf_init(&probe, ctx);
	ms_buf_init(&cases, ctx);
	ms_buf_init(&full, ctx);
	if (ms_rts_utt_new(ctx, &utt, (int)a.utt, (int)a.conflict) || compose(&a, NULL, -1, &probe)) {
		fprintf(stderr, "%s: %s\n", CMD, ms_ctx_last_error(ctx));
		goto done;
	}
	/* what the opening sees of each opponent at the switch cycle */
	for (int k = 0; k < a.n; k++)
		for (int seat = 0; seat < 2; seat++) {
			int winner, end;
			if (play_one(ctx, utt, &a, path, probe.data, a.bot[k], seat, (int)a.cycle + 1, &winner, &end,
				     choice, sizeof choice, f[k][seat])) {
				fprintf(stderr, "%s: %s: %s\n", CMD, a.bot[k], ms_ctx_last_error(ctx));
				goto done;
			}
			seen[k][seat] = strcmp(choice, "-") != 0;
			printf("seen %s seat %d:", a.bot[k], seat);
			if (!seen[k][seat])
				printf(" game over at cycle %d, before the switch\n", end);
			for (int j = 0; seen[k][seat] && j < MS_RTS_SWITCH_FEATURES; j++)
				printf(" %g", f[k][seat][j]);
			if (seen[k][seat])
				printf("\n");
		}
	for (int seat = 0; seat < 2; seat++)
		for (int i = 0; i < a.n; i++)
			for (int j = i + 1; j < a.n; j++) {
				double dist;
				if (!seen[i][seat] || !seen[j][seat] || !strcmp(a.file[i], a.file[j]))
					continue;
				dist = ms_rts_switch_distance(f[i][seat], f[j][seat]);
				if (dist == 0) {
					collisions++;
					printf("collision: seat %d cannot tell %s from %s at cycle %ld\n", seat, a.bot[i],
					       a.bot[j], a.cycle);
				} else if (dist < least)
					least = dist;
			}
	radius = a.radius >= 0 ? a.radius : isinf(least) ? 1e9 : least / 2;
	for (int k = 0; k < a.n; k++)
		for (int seat = 0; seat < 2; seat++) {
			if (!seen[k][seat])
				continue;
			if (ms_buf_printf(&cases, "case %s %d", a.bot[k], seat))
				goto done;
			for (int j = 0; j < MS_RTS_SWITCH_FEATURES; j++)
				if (ms_buf_printf(&cases, " %g", f[k][seat][j]))
					goto done;
			if (ms_buf_printf(&cases, " case%d\n", k))
				goto done;
		}
	if (ms_buf_append(&cases, "", 0) || compose(&a, cases.data, radius, &full)) {
		fprintf(stderr, "%s: out of memory or unreadable program\n", CMD);
		goto done;
	}
	{
		FILE *o = fopen(a.out, "wb");
		if (!o || fprintf(o, "# microsynth switch build: map %s, cycle %ld\n", a.map, a.cycle) < 0 ||
		    fputs(full.data, o) < 0 || fclose(o)) {
			fprintf(stderr, "%s: cannot write %s\n", CMD, a.out);
			goto done;
		}
	}
	/* the check: the whole switch against every known opponent */
	for (int k = 0; k < a.n; k++)
		for (int seat = 0; seat < 2; seat++) {
			int winner, end;
			double g[MS_RTS_SWITCH_FEATURES];
			if (play_one(ctx, utt, &a, path, full.data, a.bot[k], seat, (int)a.max_cycles, &winner, &end,
				     choice, sizeof choice, g)) {
				fprintf(stderr, "%s: %s: %s\n", CMD, a.bot[k], ms_ctx_last_error(ctx));
				goto done;
			}
			w += winner == seat;
			d += winner < 0;
			l += winner == 1 - seat;
			printf("check %s seat %d: case %s, winner=%d cycles=%d\n", a.bot[k], seat, choice, winner, end);
		}
	printf("cases=%d collisions=%d min_distance=%g radius=%g wins=%d draws=%d losses=%d\n", a.n, collisions,
	       isinf(least) ? -1.0 : least, radius, w, d, l);
	ret = collisions ? 1 : CLI_OK;
done:
	for (int k = 0; k < a.n; k++)
		free((char *)a.bot[k]);
	ms_buf_dispose(&probe);
	ms_buf_dispose(&cases);
	ms_buf_dispose(&full);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return ret;
}
