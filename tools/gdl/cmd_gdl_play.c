/*
 * microsynth gdl play: matches between UCT and random players on a GDL rule
 * set (issue 26). Player K is --pK; without --swap it plays role K, with
 * --swap the seats rotate by one role every game, so every player plays
 * every role equally often over a multiple of the role count.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/gdl.h"
#include "microsynth/mcts.h"
#include "cli.h"
#include "gdl_common.h"

#define CMD "gdl"

/* a seat's player: 0 none yet, else MS_GDL_PLAYER_* */
enum { AGENT_NONE = 0 };

typedef struct play_args {
	const char *kif;
	int agent[MS_MCTS_MAX_PLAYERS];
	long games;
	long seed;
	int swap, verbose, ci;
	gdl_load_opts load;
	double seconds; /* --time: per UCT move, in chunks of --sims; 0: --sims once */
	gdl_agent_opts ag;
} play_args;

typedef struct player {
	int agent;
	ms_gdl_player *p;
	double goal_sum, goal_sq;
	long wins;
} player;

/* --pK AGENT; returns 1 if argv[i] is such an option, -1 (reported) if bad. */
static int parse_agent(play_args *a, const char *opt, const char *val)
{
	char *end;
	if (strncmp(opt, "--p", 3) || opt[3] < '0' || opt[3] > '9')
		return 0;
	long k = strtol(opt + 3, &end, 10);
	if (*end)
		return 0;
	if (k >= MS_MCTS_MAX_PLAYERS) {
		cli_usage_error(CMD, "%s: at most %d players", opt, MS_MCTS_MAX_PLAYERS);
		return -1;
	}
	if (!val) {
		cli_usage_error(CMD, "%s needs an agent (uct or random)", opt);
		return -1;
	}
	if ((a->agent[k] = ms_gdl_player_kind(val)) > 0)
		return 1;
	a->agent[k] = AGENT_NONE;
	cli_usage_error(CMD, "%s: unknown agent '%s' (uct, guct, sguct or random)", opt, val);
	return -1;
}

/* Options that take a number; returns 1 if handled, -1 (reported) if bad, 0 if not one of them. */
static int parse_number(play_args *a, const char *opt, const char *val)
{
	long v;
	if (!strcmp(opt, "--games") || !strcmp(opt, "--sims") || !strcmp(opt, "--seed")) {
		if (!val)
			return cli_usage_error(CMD, "%s needs a value", opt), -1;
		if (cli_parse_int(CMD, opt, val, strcmp(opt, "--seed") ? 1 : 0, 2147483647L, &v))
			return -1;
		if (!strcmp(opt, "--games"))
			a->games = v;
		else if (!strcmp(opt, "--sims"))
			a->ag.uo.simulations = v;
		else
			a->seed = v;
		return 1;
	}
	if (!strcmp(opt, "--time")) {
		char *end;
		if (!val)
			return cli_usage_error(CMD, "%s needs a value", opt), -1;
		a->seconds = strtod(val, &end);
		if (end == val || *end || !isfinite(a->seconds) || a->seconds < 1e-6)
			return cli_usage_error(CMD, "%s: '%s' is not a number >= %g", opt, val, 1e-6), -1;
		return 1;
	}
	return gdl_agent_option(&a->ag, opt, val);
}

static int parse_play(play_args *a, int argc, char **argv)
{
	memset(a, 0, sizeof *a);
	a->games = 1;
	a->seed = 1;
	a->load.choose_seconds = MS_GDL_CHOOSE_SECONDS;
	gdl_agent_opts_default(&a->ag);
	for (int i = 2; i < argc; i++) {
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		int r;
		if ((r = parse_agent(a, argv[i], val)) != 0 || (r = parse_number(a, argv[i], val)) != 0 ||
		    (r = gdl_load_option(&a->load, argv[i], val)) != 0) {
			if (r < 0)
				return CLI_USAGE;
			i++;
		} else if (!strcmp(argv[i], "--swap")) {
			a->swap = 1;
		} else if (!strcmp(argv[i], "--fallback")) {
			a->load.fallback = 1;
		} else if (!strcmp(argv[i], "-v")) {
			a->verbose = 1;
		} else if (!strcmp(argv[i], "--ci")) {
			a->ci = 1;
		} else if (argv[i][0] == '-') {
			return cli_usage_error(CMD, "play: unknown option '%s'", argv[i]);
		} else if (a->kif) {
			return cli_usage_error(CMD, "play: one rule file only ('%s' and '%s')", a->kif, argv[i]);
		} else {
			a->kif = argv[i];
		}
	}
	if (!a->kif)
		return cli_usage_error(CMD, "play needs a rule file (KIF)");
	if (a->seconds > 0 && !a->ag.uo.keep_tree)
		return cli_usage_error(CMD, "play: --time needs --keep 1 (its chunks of --sims grow one tree)");
	return CLI_OK;
}

/* Every role needs a player and every player a role. */
static int check_players(const play_args *a, int nr)
{
	for (int k = 0; k < MS_MCTS_MAX_PLAYERS; k++) {
		if (k < nr && !a->agent[k])
			return cli_usage_error(CMD, "play: %s has %d role%s but no --p%d", a->kif, nr, nr == 1 ? "" : "s", k);
		if (k >= nr && a->agent[k])
			return cli_usage_error(CMD, "play: --p%d given but %s has %d role%s", k, a->kif, nr, nr == 1 ? "" : "s");
	}
	return CLI_OK;
}

/* Plays game `gi` with player k on role (k + shift) mod nr; goals by role into goals[]. */
static int play_game(ms_ctx *ctx, const ms_gdl *g, const play_args *a, player *pl, long gi, int *goals)
{
	int nr = ms_gdl_num_roles(g), shift = a->swap ? (int)(gi % nr) : 0, rc = MS_OK;
	size_t w = ms_gdl_state_words(g) ? ms_gdl_state_words(g) : 1;
	uint64_t *st = calloc(w, sizeof *st), *nx = calloc(w, sizeof *nx);
	ms_gdl_machine *mm = NULL;
	if (!st || !nx || (rc = ms_gdl_machine_new(ctx, &mm, g)) < 0) {
		rc = rc < 0 ? rc : ms_ctx_error(ctx, MS_ENOMEM, "out of memory");
		goto out;
	}
	for (int k = 0; k < nr; k++)
		if ((rc = ms_gdl_player_start(pl[k].p, ((uint64_t)a->seed << 32) ^ ((uint64_t)gi << 8) ^ (uint64_t)k)) < 0)
			goto out;
	ms_gdl_initial(g, st);
	for (;;) {
		int joint[MS_MCTS_MAX_PLAYERS];
		if ((rc = ms_gdl_machine_set(mm, st)) < 0)
			goto out;
		if (ms_gdl_terminal(mm))
			break;
		for (int k = 0; k < nr; k++) {
			int r = (k + shift) % nr;
			if ((rc = ms_gdl_player_move(pl[k].p, mm, st, r, &joint[r])) < 0)
				goto out;
		}
		if ((rc = ms_gdl_next(mm, joint, nx)) < 0)
			goto out;
		for (int k = 0; k < nr; k++)
			ms_gdl_player_played(pl[k].p, joint);
		memcpy(st, nx, w * sizeof *st);
	}
	for (int r = 0; r < nr && rc == MS_OK; r++)
		rc = ms_gdl_goal(mm, r, &goals[r]);
out:
	for (int k = 0; k < nr; k++)
		ms_gdl_player_end(pl[k].p);
	ms_gdl_machine_free(mm);
	free(st);
	free(nx);
	return rc;
}

/*
 * The analysis time, once per run: guct and sguct players build StatGUCT's
 * function (seeded by --seed and the player); sguct refines it on an
 * offline GUCT search of --sguct-sims simulations from the initial state.
 */
static int prepare(ms_ctx *ctx, const ms_gdl *g, const play_args *a, player *p, int k)
{
	gdl_agent_opts o = a->ag;
	o.seconds = a->seconds;
	return ms_gdl_player_new(ctx, &p->p, g, p->agent, &o, ((uint64_t)a->seed << 16) ^ (uint64_t)k ^ 0x5ca1ab1eull);
}

/* Goals by role to player k's score and win (strictly above every other player; alone: 100). */
static void score(const ms_gdl *g, const play_args *a, player *pl, long gi, const int *goals)
{
	int nr = ms_gdl_num_roles(g), shift = a->swap ? (int)(gi % nr) : 0;
	if (a->verbose)
		printf("game=%ld", gi);
	for (int k = 0; k < nr; k++) {
		int mine = goals[(k + shift) % nr], win = nr > 1 || mine == 100;
		for (int j = 0; j < nr; j++)
			if (j != k && goals[(j + shift) % nr] >= mine)
				win = 0;
		pl[k].goal_sum += mine, pl[k].goal_sq += (double)mine * mine;
		pl[k].wins += win;
		if (a->verbose)
			printf(" p%d=%s:%d", k, ms_gdl_role_name(g, (k + shift) % nr), mine);
	}
	if (a->verbose)
		printf("\n");
}

int cmd_gdl_play(int argc, char **argv)
{
	play_args a;
	int rc = parse_play(&a, argc, argv);
	if (rc)
		return rc;
	ms_ctx *ctx;
	if (ms_ctx_new(&ctx, NULL))
		return CLI_FAIL;
	ms_gdl *g = gdl_load_rules(ctx, a.kif, &a.load);
	if (!g) {
		ms_ctx_free(ctx);
		return CLI_USAGE;
	}
	int nr = ms_gdl_num_roles(g);
	player pl[MS_MCTS_MAX_PLAYERS];
	memset(pl, 0, sizeof pl);
	if ((rc = check_players(&a, nr)) == CLI_OK) {
		for (int k = 0; k < nr; k++) {
			pl[k].agent = a.agent[k];
			if (rc == CLI_OK && prepare(ctx, g, &a, &pl[k], k) < 0) {
				fprintf(stderr, "microsynth gdl: play: %s: player %d (%s): %s\n", a.kif, k,
					ms_gdl_player_name(pl[k].agent), ms_ctx_last_error(ctx));
				rc = CLI_FAIL;
			}
		}
		for (long gi = 0; rc == CLI_OK && gi < a.games; gi++) {
			int goals[MS_MCTS_MAX_PLAYERS];
			if (play_game(ctx, g, &a, pl, gi, goals) < 0) {
				fprintf(stderr, "microsynth gdl: play: %s: game %ld: %s\n", a.kif, gi, ms_ctx_last_error(ctx));
				rc = CLI_FAIL;
				break;
			}
			score(g, &a, pl, gi, goals);
		}
	}
	if (rc == CLI_OK) {
		printf("games=%ld", a.games);
		for (int k = 0; k < nr; k++) {
			double n = (double)a.games, m = pl[k].goal_sum / n;
			printf(" mean_goal_%d=%.2f wins_%d=%ld", k, m, k, pl[k].wins);
			if (a.ci) /* normal approximation: 1.96 standard errors of the mean (sample variance) */
				printf(" ci95_%d=%.2f", k,
				       n > 1 ? 1.96 * sqrt(fmax(0.0, (pl[k].goal_sq - n * m * m) / (n - 1)) / n) : 0.0);
		}
		printf("\n");
	}
	for (int k = 0; k < MS_MCTS_MAX_PLAYERS; k++)
		ms_gdl_player_free(pl[k].p);
	ms_gdl_free(g);
	ms_ctx_free(ctx);
	return rc;
}
