/*
 * The MicroRTS synthesis problem's construction (rts_synth.h): the options
 * checked, maps and opponents loaded, the oracle's matches played, the
 * fingerprint made.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/hash.h"
#include "core/internal.h"
#include "games/microrts/synth/rts_synth_internal.h"
#include "games/microrts/synth/rts_ascore.h"
#include "core/opts.h"

/* ---- construction --------------------------------------------------------------- */

static int is_native(const char *spec)
{
	return ms_bot_spec_native(spec);
}

void ms_rts_synth_free(ms_rts_synth *rs)
{
	if (!rs)
		return;
	for (int i = 0; rs->maps && i < rs->n_maps; i++)
		ms_ctx_mfree(rs->ctx, rs->maps[i]);
	for (int i = 0; rs->opp && i < rs->n_opp; i++) {
		ms_ctx_mfree(rs->ctx, rs->opp[i].spec);
		ms_dsl_prog_free(rs->opp[i].prog);
	}
	ms_ctx_mfree(rs->ctx, rs->maps);
	ms_ctx_mfree(rs->ctx, rs->states);
	ms_ctx_mfree(rs->ctx, rs->opp);
	ms_ctx_mfree(rs->ctx, rs->fingerprint);
	ms_ctx_mfree(rs->ctx, rs->max_cycles);
	ms_ctx_mfree(rs->ctx, rs->harness_jar);
	ms_ctx_mfree(rs->ctx, rs->harness_dir);
	ms_ctx_mfree(rs->ctx, rs->oracle);
	ms_ctx_mfree(rs->ctx, rs->c_opp);
	ms_dsl_prog_free(rs->prefix);
	ms_ctx_mfree(rs->ctx, rs->oracle_f);
	rts_ascore_free(rs->ascore);
	ms_ctx_mfree(rs->ctx, rs->fc);
	rts_reach_memo_free(rs->memo);
	if (rs->fc_mu_ok)
		pthread_mutex_destroy(&rs->fc_mu);
	ms_dsl_grammar_free(rs->g);
	ms_ctx_mfree(rs->ctx, rs);
}

static char *dup_or_null(ms_ctx *ctx, const char *s, int *rc)
{
	char *d;
	if (!s)
		return NULL;
	if (!(d = ms_ctx_strdup(ctx, s)))
		*rc = MS_ENOMEM;
	return d;
}

/*
 * The oracle's matches against the C opponent on every map and seat: their
 * outcome features when O needs them (the C score or the tie-break), their
 * decisions for A unless a data set file gave those.
 */
static int record_oracle(ms_rts_synth *rs)
{
	ms_ctx *ctx = rs->ctx;
	int rc = MS_OK, need_o = rs->c_score == MS_RTS_C_SCORE_O || rs->tiebreak == MS_RTS_TIEBREAK_O;
	int record_a = rs->c_score == MS_RTS_C_SCORE_A && !rs->ascore;

	if (!(rs->oracle_f = ms_ctx_calloc(ctx, (size_t)rs->n_maps * 2 * N_FEATURES, sizeof(double))))
		return ms_ctx_error(ctx, MS_ENOMEM, "microrts problem: out of memory");
	if (record_a &&
	    (rc = rts_ascore_new(ctx, rs->n_maps * 2, rs->states ? ms_rts_state_utt(rs->states[0]) : NULL, rs->utt,
				 rs->conflict, &rs->ascore)))
		return rc;
	for (int i = 0; rc == MS_OK && i < rs->n_maps; i++) {
		ms_match *m = NULL;
		if ((rc = rts_synth_open_match(rs, ctx, i, 0, &m)))
			break;
		for (int seat = 0; rc == MS_OK && seat < 2; seat++) {
			ms_match_player pl[2];
			ms_match_result res;
			rts_observer ob;
			pl[seat] = ms_match_player_spec(rs->oracle);
			pl[1 - seat] = ms_match_player_spec(rs->c_opp);
			rts_observer_start(&ob, ms_match_initial_state(m), seat);
			if (need_o && (rc = ms_match_play_observed(m, pl, rts_observe, &ob, &res)) == MS_OK)
				memcpy(rs->oracle_f + (size_t)(i * 2 + seat) * N_FEATURES, ob.f, sizeof ob.f);
			/* A: its decisions recorded (the same match once more when O observed it too) */
			if (rc == MS_OK && record_a)
				rc = rts_ascore_record(rs->ascore, m, i * 2 + seat, seat, pl[seat], pl[1 - seat]);
			if (rc != MS_OK)
				rc = ms_ctx_error(ctx, rc, "oracle %s vs %s on %s: %s", rs->oracle, rs->c_opp, rs->maps[i],
						  ms_ctx_last_error(ctx));
		}
		ms_match_free(m);
	}
	if (rc == MS_OK && record_a && rts_ascore_actions(rs->ascore, -1) == 0)
		rc = ms_ctx_error(ctx, MS_EINVAL, "--score A: the oracle %s issued no action against %s: nothing to compare",
				  rs->oracle, rs->c_opp);
	return rc;
}

/* A's data set from a file (rts_ascore.h), its maps among the problem's; before the oracle plays. */
static int load_dataset(ms_rts_synth *rs, ms_ctx *ctx, const char *path)
{
	return rts_ascore_load(ctx, &rs->ascore, path, (const char *const *)rs->maps, rs->n_maps,
			       rs->states ? ms_rts_state_utt(rs->states[0]) : NULL, rs->utt, rs->conflict);
}

int ms_rts_synth_dataset_save(const ms_rts_synth *rs, const char *path)
{
	if (!rs->ascore)
		return ms_ctx_error(rs->ctx, MS_EINVAL, "data set %s: this problem has no action score A", path);
	return rts_ascore_save(rs->ascore, path, (const char *const *)rs->maps, rs->n_maps, rs->oracle, rs->c_opp);
}

/* The options every problem needs, before anything is built. */
static int check_options(ms_ctx *ctx, const ms_rts_synth_options *o)
{
	if (!o || o->version < 2 || o->version > MS_RTS_SYNTH_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: options missing or of an unknown version");
	if (o->version >= 4 && (o->match_memo < MS_RTS_MATCH_MEMO_ON || o->match_memo > MS_RTS_MATCH_MEMO_NO_REPLAY))
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: match memo mode %d (0..3)", o->match_memo);
	if (o->version >= 3 && o->states) {
		for (int i = 0; i < o->n_maps; i++)
			if (!o->states[i])
				return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: first state %d missing", i);
	}
	if (o->n_maps < 1 || (!o->maps && (o->version < 3 || !o->states)))
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: no map (--map)");
	if (o->n_opponents < 1 || (!o->opponents && (o->version < 6 || !o->players)))
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: no opponent (--opponent)");
	if (o->tiebreak == MS_RTS_TIEBREAK_O && !o->oracle)
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: breaking ties by O needs an oracle");
	if (o->tiebreak == MS_RTS_TIEBREAK_A && (o->version < 5 || o->c_score != MS_RTS_C_SCORE_A))
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: breaking ties by A needs the action score");
	if (o->tiebreak < MS_RTS_TIEBREAK_NONE || o->tiebreak > MS_RTS_TIEBREAK_A)
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: unknown tie-break %d", o->tiebreak);
	if (o->opponent_seeds < 0 || o->opponent_seeds > 1000)
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: --opponent-seeds %d (0..1000)", o->opponent_seeds);
	if (o->max_cycles < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: --max-cycles %d", o->max_cycles);
	if (o->version >= 5 && (o->c_score < MS_RTS_C_SCORE_O || o->c_score > MS_RTS_C_SCORE_A))
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: unknown cloning score %d", o->c_score);
	if (o->version >= 5 && o->c_score == MS_RTS_C_SCORE_A && !o->oracle && !o->dataset)
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: the action score A needs an oracle or a data set");
	if (o->version >= 5 && o->dataset && o->c_score != MS_RTS_C_SCORE_A)
		return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: a data set is for the action score A");
	return MS_OK;
}

/* Each map, opened once (it must load now, not in the middle of a search), with its cycle limit. */
static int add_maps(ms_rts_synth *rs, ms_ctx *ctx, const ms_rts_synth_options *o)
{
	int rc;
	for (int i = 0; i < o->n_maps; i++) {
		ms_match *m = NULL;
		int w, h;
		char name[32];
		const char *given = o->maps ? o->maps[i] : NULL;
		if (!given && rs->states) {
			snprintf(name, sizeof name, "state%d", i);
			given = name;
		}
		if (!given || !(rs->maps[i] = ms_ctx_strdup(ctx, given)))
			return ms_ctx_error(ctx, MS_EINVAL, "microrts problem: map %d missing or out of memory", i);
		rs->max_cycles[i] = 1; /* probe: open_match only needs the map */
		if ((rc = rts_synth_open_match(rs, ctx, i, 0, &m)))
			return ms_ctx_error(ctx, rc, "--map %s: %s", rs->maps[i], ms_ctx_last_error(ctx));
		ms_match_map_size(m, &w, &h);
		ms_match_free(m);
		rs->max_cycles[i] = o->max_cycles ? o->max_cycles : ms_match_competition_cycles(w, h);
	}
	return MS_OK;
}

/* A program opponent's text (program:FILE or program-text:TEXT) parsed into o->prog, as a program bot
 * parses it (the same reader, names and errors). */
static int parse_program_opponent(ms_rts_synth *rs, ms_ctx *ctx, rts_opponent *o)
{
	const char *arg;
	char *text = NULL;
	size_t len;
	int rc, inline_text = !strcmp(ms_bot_spec_form(o->spec, &arg), "program-text");
	if (!inline_text && (rc = ms_read_text_file(ctx, &text, &len, arg, "program file")))
		return rc;
	if ((rc = ms_dsl_prog_new(ctx, &o->prog, rs->g)) == MS_OK)
		rc = inline_text ? ms_rts_dsl_parse(o->prog, "program text", arg, strlen(arg), 0)
				 : ms_rts_dsl_parse(o->prog, arg, text, len, 0);
	ms_ctx_mfree(ctx, text);
	return rc;
}

/* A program opponent given in memory: copied, and its bot built once now as a spec's would be. */
static int add_program_opponent(ms_rts_synth *rs, ms_ctx *ctx, int i, const ms_dsl_prog *prog)
{
	rts_opponent *op = &rs->opp[i];
	ms_rts_utt *utt = NULL;
	ms_bot *b = NULL;
	int rc = ms_dsl_prog_clone(&op->prog, prog);
	if (rc == MS_OK && (rc = ms_rts_utt_new(ctx, &utt, rs->utt, rs->conflict)) == MS_OK)
		rc = ms_rts_dsl_bot_new(ctx, &b, op->prog, utt, 0);
	ms_bot_free(b);
	ms_rts_utt_free(utt);
	if (rc)
		return ms_ctx_error(ctx, rc, "--opponent %d (a program in memory): %s", i + 1, ms_ctx_last_error(ctx));
	return MS_OK;
}

/* Opponent i as given: a spec (`opponents`, or a player's) or a program in memory (*prog). */
static const char *opponent_given(const ms_rts_synth_options *o, int i, const ms_dsl_prog **prog)
{
	const ms_match_player *pl = o->version >= 6 && o->players ? &o->players[i] : NULL;
	*prog = pl && !pl->spec ? pl->program : NULL;
	return pl ? pl->spec : o->opponents[i];
}

/* Each opponent: a native one (or a program) built once now; *java: one of them is a Java class. */
static int add_opponents(ms_rts_synth *rs, ms_ctx *ctx, const ms_rts_synth_options *o, int *java)
{
	int rc;
	for (int i = 0; i < o->n_opponents; i++) {
		const ms_dsl_prog *prog;
		const char *spec = opponent_given(o, i, &prog);
		rts_opponent *op = &rs->opp[i];
		if (prog) {
			if ((rc = add_program_opponent(rs, ctx, i, prog)))
				return rc;
			continue;
		}
		if (!spec || !*spec)
			return ms_ctx_error(ctx, MS_EINVAL, "--opponent %d: empty", i + 1);
		if (!(op->spec = ms_ctx_strdup(ctx, spec)))
			return ms_ctx_error(ctx, MS_ENOMEM, "microrts problem: out of memory");
		op->java = !is_native(spec);
		*java |= op->java;
		if (op->java && rs->states)
			return ms_ctx_error(ctx, MS_EINVAL, "--opponent %s: not a native bot or a program (a game from a "
					    "state in memory plays native opponents only)", spec);
		if (!op->java) {
			/* a native opponent (or program) must build now, not in the middle of a search;
			 * a program is parsed once, and its bot built from what was parsed */
			const char *arg, *form = ms_bot_spec_form(spec, &arg);
			int program = form && (!strcmp(form, "program") || !strcmp(form, "program-text"));
			ms_rts_utt *utt = NULL;
			ms_bot *b = NULL;
			rc = program ? parse_program_opponent(rs, ctx, op) : MS_OK;
			if (rc == MS_OK && (rc = ms_rts_utt_new(ctx, &utt, rs->utt, rs->conflict)) == MS_OK)
				rc = program ? ms_rts_dsl_bot_new(ctx, &b, op->prog, utt, 0) : ms_bot_make(ctx, &b, spec, utt, 0);
			ms_bot_free(b);
			ms_rts_utt_free(utt);
			if (rc)
				return ms_ctx_error(ctx, rc, "--opponent %s: %s", spec, ms_ctx_last_error(ctx));
		} else if (strchr(spec, ' ') || strchr(spec, ':')) {
			return ms_ctx_error(ctx, MS_EINVAL, "--opponent %s: not a native bot, a program or a Java class name",
					    spec);
		}
	}
	return MS_OK;
}

/* The oracle's C opponent (the first native opponent, else WorkerRush) and its recorded matches. */
static int add_oracle(ms_rts_synth *rs, ms_ctx *ctx, const ms_rts_synth_options *o)
{
	const char *c = o->c_opponent;
	for (int i = 0; !c && i < rs->n_opp; i++)
		if (!rs->opp[i].java)
			c = rs->opp[i].spec;
	if (!(rs->c_opp = ms_ctx_strdup(ctx, c ? c : "WorkerRush")))
		return ms_ctx_error(ctx, MS_ENOMEM, "microrts problem: out of memory");
	if (!is_native(rs->oracle) || !is_native(rs->c_opp))
		return ms_ctx_error(ctx, MS_EINVAL,
				    "--oracle %s / C opponent %s: the O score plays natively (a native bot or program:FILE)",
				    rs->oracle, rs->c_opp);
	return record_oracle(rs);
}

/*
 * The settings a checkpoint must agree with, whole (the opponents may be
 * long program texts); a switch case's opening enters as its hash.
 */
/* FNV-1a of what a first state holds (size, terrain, stocks, units): a map given in memory enters the
 * fingerprint by its content, as a map file enters by its name. */
static uint64_t state_digest(const ms_rts_state *s)
{
	int w = ms_rts_state_width(s), h = ms_rts_state_height(s);
	uint64_t d = ms_fnv1a_step(ms_fnv1a_step(MS_FNV_OFFSET, (uint64_t)w), (uint64_t)h);
	ms_rts_unit u;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			d = ms_fnv1a_step(d, (uint64_t)ms_rts_state_terrain(s, x, y));
	d = ms_fnv1a_step(ms_fnv1a_step(d, (uint64_t)ms_rts_state_resources(s, 0)), (uint64_t)ms_rts_state_resources(s, 1));
	for (int i = 0, n = ms_rts_state_unit_count(s); i < n; i++) {
		if (ms_rts_state_unit(s, i, &u))
			continue;
		uint64_t v[] = { (uint64_t)u.type, (uint64_t)(u.player + 1), (uint64_t)u.x, (uint64_t)u.y,
				 (uint64_t)u.resources, (uint64_t)u.hitpoints };
		for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
			d = ms_fnv1a_step(d, v[k]);
	}
	return d;
}

static int make_fingerprint(ms_rts_synth *rs, ms_ctx *ctx, const ms_rts_synth_options *o)
{
	ms_buf b;
	int rc;
	ms_buf_init(&b, ctx);
	rc = ms_buf_printf(&b, "utt %d conflict %d edition %d tiebreak %d maps", rs->utt, rs->conflict, rs->edition,
			   rs->tiebreak);
	for (int i = 0; rc >= 0 && i < rs->n_maps; i++)
		rc = rs->states ? ms_buf_printf(&b, " %s=%016llx:%d", rs->maps[i],
						(unsigned long long)state_digest(rs->states[i]), rs->max_cycles[i])
				: ms_buf_printf(&b, " %s:%d", rs->maps[i], rs->max_cycles[i]);
	/* a program opponent enters as its hash: the same program from a file or inline is the same problem */
	for (int i = 0; rc >= 0 && i < rs->n_opp; i++)
		rc = rs->opp[i].prog ? ms_buf_printf(&b, " vs program %016llx", (unsigned long long)ms_dsl_hash(rs->opp[i].prog))
				     : ms_buf_printf(&b, " vs %s", rs->opp[i].spec);
	if (rc >= 0 && rs->oracle)
		rc = ms_buf_printf(&b, " oracle %s c_vs %s%s", rs->oracle, rs->c_opp,
				   rs->c_score == MS_RTS_C_SCORE_A ? " c_score A" : "");
	if (rc >= 0 && o->version >= 5 && o->dataset)
		rc = ms_buf_printf(&b, " c_score A dataset %s", o->dataset);
	if (rc >= 0 && o->prefix)
		rc = ms_buf_printf(&b, " prefix %016llx until %d", (unsigned long long)ms_dsl_hash(o->prefix),
				   o->switch_cycle);
	if (rc >= 0 && rs->opp_seeds >= 2)
		rc = ms_buf_printf(&b, " opponent_seeds %d", rs->opp_seeds);
	if (rc < 0) {
		ms_buf_dispose(&b);
		return rc;
	}
	rs->fingerprint = ms_buf_detach(&b);
	return MS_OK;
}


int ms_rts_synth_new(ms_ctx *ctx, ms_rts_synth **out, const ms_rts_synth_options *o)
{
	ms_rts_synth *rs;
	int rc = MS_OK, java = 0;

	*out = NULL;
	if ((rc = check_options(ctx, o)))
		return rc;
	if ((rs = ms_ctx_calloc(ctx, 1, sizeof *rs))) {
		atomic_init(&rs->f_crashes, 0);
		atomic_init(&rs->f_timeouts, 0);
		atomic_init(&rs->f_errors, 0);
	}
	if (!rs)
		return ms_ctx_error(ctx, MS_ENOMEM, "microrts problem: out of memory");
	rs->ctx = ctx;
	rs->n_maps = o->n_maps;
	rs->n_opp = o->n_opponents;
	rs->utt = o->utt ? o->utt : 2;
	rs->conflict = o->conflict ? o->conflict : 1;
	rs->edition = o->edition;
	rs->opp_seeds = o->opponent_seeds;
	rs->tiebreak = o->tiebreak;
	rs->maps = ms_ctx_calloc(ctx, (size_t)o->n_maps, sizeof *rs->maps);
	rs->max_cycles = ms_ctx_calloc(ctx, (size_t)o->n_maps, sizeof *rs->max_cycles);
	rs->opp = ms_ctx_calloc(ctx, (size_t)o->n_opponents, sizeof *rs->opp);
	rs->harness_jar = dup_or_null(ctx, o->harness_jar, &rc);
	rs->harness_dir = dup_or_null(ctx, o->harness_dir, &rc);
	rs->java_hang_ms = o->java_hang_ms;
	if (o->version >= 3 && o->states) {
		if (!(rs->states = ms_ctx_calloc(ctx, (size_t)o->n_maps, sizeof *rs->states))) {
			rc = ms_ctx_error(ctx, MS_ENOMEM, "microrts problem: out of memory");
			goto fail;
		}
		memcpy(rs->states, o->states, (size_t)o->n_maps * sizeof *rs->states);
	}
	rs->oracle = dup_or_null(ctx, o->oracle, &rc);
	rs->c_score = o->version >= 5 ? o->c_score : MS_RTS_C_SCORE_O;
	rs->fc = ms_ctx_calloc(ctx, FCACHE_SLOTS, sizeof *rs->fc);
	rs->fc_mu_ok = pthread_mutex_init(&rs->fc_mu, NULL) == 0;
	if (!rs->maps || !rs->max_cycles || !rs->opp || rc || !rs->fc || !rs->fc_mu_ok) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "microrts problem: out of memory");
		goto fail;
	}
	if ((rc = ms_rts_dsl_grammar_new(ctx, &rs->g, 0)) || (rc = add_maps(rs, ctx, o)) ||
	    (rc = add_opponents(rs, ctx, o, &java)))
		goto fail;
	if (o->prefix && (java || o->switch_cycle < 0)) {
		rc = ms_ctx_error(ctx, MS_EINVAL, java ? "microrts problem: a switch case (--prefix) plays native opponents only"
						       : "microrts problem: --switch-cycle %d", o->switch_cycle);
		goto fail;
	}
	if (java && rs->states) {
		rc = ms_ctx_error(ctx, MS_EINVAL, "microrts problem: games from a state in memory play native opponents only");
		goto fail;
	}
	if (java && !rs->harness_jar) {
		rc = ms_ctx_error(ctx, MS_EINVAL, "microrts problem: Java opponents need microsynth-harness.jar");
		goto fail;
	}
	if (o->version >= 5 && o->dataset && (rc = load_dataset(rs, ctx, o->dataset)))
		goto fail;
	if (rs->oracle && (rc = add_oracle(rs, ctx, o)))
		goto fail;
	rs->eps = O_TOTAL / (2.0 * rs->n_maps * rs->n_opp);
	rs->for_prod = ms_dsl_prod_find(rs->g, "For_S");
	rs->s_nt = ms_dsl_nt_find(rs->g, "S");
	if (rs->for_prod < 0 || rs->s_nt < 0) {
		rc = ms_ctx_error(ctx, MS_ERROR, "microrts problem: the DSL grammar has no For_S or S");
		goto fail;
	}
	if (o->prefix) {
		/* a case of a switch: the opening it follows is part of the problem */
		if ((rc = ms_dsl_prog_clone(&rs->prefix, o->prefix)))
			goto fail;
		rs->switch_cycle = o->switch_cycle;
	}
	if ((rc = make_fingerprint(rs, ctx, o)))
		goto fail;
	int memo = o->version >= 4 ? o->match_memo : MS_RTS_MATCH_MEMO_ON;
	if (memo != MS_RTS_MATCH_MEMO_OFF &&
	    (rc = rts_reach_memo_new(ctx, &rs->memo,
				     (rs->n_opp + 1) * 2 * rs->n_maps * (rs->opp_seeds > 1 ? rs->opp_seeds : 1),
				     MATCH_MEMO_WAYS)))
		goto fail;
	rs->memo_check = memo == MS_RTS_MATCH_MEMO_CHECK;
	rs->memo_replay = memo != MS_RTS_MATCH_MEMO_NO_REPLAY;
	rts_synth_fill_problem(rs);
	*out = rs;
	return MS_OK;
fail:
	ms_rts_synth_free(rs);
	return rc;
}

const ms_synth_problem *ms_rts_synth_problem(const ms_rts_synth *rs)
{
	return &rs->pb;
}

const ms_dsl_grammar *ms_rts_synth_grammar(const ms_rts_synth *rs)
{
	return rs->g;
}

int ms_rts_synth_max_cycles(const ms_rts_synth *rs, int map)
{
	return map >= 0 && map < rs->n_maps ? rs->max_cycles[map] : 0;
}

void ms_rts_synth_fault_counts(const ms_rts_synth *rs, ms_rts_synth_faults *out)
{
	/* the counters only grow; reading them needs no lock */
	out->crashes = atomic_load(&((ms_rts_synth *)rs)->f_crashes);
	out->timeouts = atomic_load(&((ms_rts_synth *)rs)->f_timeouts);
	out->errors = atomic_load(&((ms_rts_synth *)rs)->f_errors);
}

void ms_rts_synth_memo_counts(const ms_rts_synth *rs, ms_rts_synth_memo_stats *out)
{
	rts_reach_counts k = { 0, 0, 0, 0 };
	if (rs->memo)
		rts_reach_get_counts(rs->memo, &k);
	out->lookups = k.lookups;
	out->hits = k.hits;
	out->replays = k.replays;
	out->replay_hits = k.replay_hits;
}

const char *ms_rts_synth_fingerprint(const ms_rts_synth *rs)
{
	return rs->fingerprint;
}

int ms_rts_synth_options_init(ms_rts_synth_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_RTS_SYNTH_OPTIONS_VERSION);
}
