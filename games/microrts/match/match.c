/*
 * The match interface: one call plays a match on the native engine or in the
 * official Java engine (the hosted JVM), with native bots, programs in memory
 * or Java classes as players.
 *
 * Native: the map is loaded once per context; each match starts from a copy
 * of that state, seeded as the official Match runner seeds its static
 * generators (seed * 1000003 + k), so `microsynth play` and this give the
 * same match; or it starts from a state given in memory (opts.initial), the
 * only form a build without map files (MS_NO_FILE_IO: the drop-in bot's
 * library, which links no libxml2 or libzip) offers. Official: a program crosses into the JVM once per match as its
 * exact-tree (salve) text behind "program-text:", which the drop-in bot
 * parses once at construction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "microsynth/match.h"
#include "microsynth/jrandom.h"
#include "microsynth/jvm.h"
#include "microsynth/rts_dsl.h"
#include "core/internal.h"
#include "core/opts.h"

struct ms_match {
	ms_ctx *ctx;
	ms_match_options o;
	char *map;               /* resolved map path */
	char *harness_jar, *harness_dir;
	/* native */
	ms_rts_utt *utt;         /* owned; NULL when the table is the given state's */
	const ms_rts_utt *table; /* the table matches are played with */
	ms_rts_state *initial;   /* as loaded, or a copy of opts.initial */
	ms_rts_state *s;         /* the match being played, then its end */
	int played;
	int stochastic;          /* bots draw where the Java ones draw unseeded numbers */
	ms_memo *memo;           /* the players' path answers (made at the first native match) */
	/* official */
	ms_jvm *jvm;
};

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The map as given, else inside the harness (as given, then under maps/). */
static int resolve_map(ms_match *m, const char *map)
{
	const char *dir = m->o.harness_dir ? m->o.harness_dir : getenv("MICROSYNTH_HARNESS");
	const char *home = getenv("HOME");
	char base[4096], path[8192];

	if (is_file(map))
		return (m->map = ms_ctx_strdup(m->ctx, map)) ? MS_OK : MS_ENOMEM;
	if (dir && *dir)
		snprintf(base, sizeof(base), "%s", dir);
	else if (home && *home)
		snprintf(base, sizeof(base), "%s/.cache/microsynth/harness", home);
	else
		base[0] = 0;
	if (base[0]) {
		snprintf(path, sizeof(path), "%s/%s", base, map);
		if (!is_file(path))
			snprintf(path, sizeof(path), "%s/maps/%s", base, map);
		if (is_file(path))
			return (m->map = ms_ctx_strdup(m->ctx, path)) ? MS_OK : MS_ENOMEM;
	}
	return ms_ctx_error(m->ctx, MS_ENOTFOUND, "map '%s' not found (as a path or in the harness%s%s)", map,
			    base[0] ? " at " : "", base);
}

int ms_match_new(ms_ctx *ctx, ms_match **out, const ms_match_options *opts)
{
	ms_match *m;
	int rc = MS_OK;

	*out = NULL;
	if (!opts || opts->version < 2 || opts->version > MS_MATCH_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_match_new: options version %d (expected 2..%d)",
				    opts ? opts->version : -1, MS_MATCH_OPTIONS_VERSION);
	const ms_rts_state *given = opts->version >= 3 ? opts->initial : NULL;
	if (!opts->map && !given)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_match_new: no map");
	if (given && opts->backend != MS_MATCH_NATIVE)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_match_new: a state in memory plays on the native backend only");
	if (opts->backend != MS_MATCH_NATIVE && opts->backend != MS_MATCH_OFFICIAL)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_match_new: unknown backend %d", opts->backend);
	if (opts->utt < 0 || opts->utt > 3 || opts->conflict < 0 || opts->conflict > 3 || opts->max_cycles < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "ms_match_new: unit type table %d, conflict policy %d or "
				    "max cycles %d out of range", opts->utt, opts->conflict, opts->max_cycles);
	if (opts->memo_bits > MS_MEMO_MAX_BITS || (opts->memo_bits > 0 && opts->memo_bits < MS_MEMO_MIN_BITS))
		return ms_ctx_error(ctx, MS_ERANGE, "ms_match_new: memo table of 2^%d entries: bits outside [%d, %d]",
				    opts->memo_bits, MS_MEMO_MIN_BITS, MS_MEMO_MAX_BITS);
	if (!(m = ms_ctx_calloc(ctx, 1, sizeof(*m))))
		return ms_ctx_error(ctx, MS_ENOMEM, "ms_match_new: out of memory");
	m->ctx = ctx;
	m->o = *opts;
	if (!m->o.utt)
		m->o.utt = 2;
	if (!m->o.conflict)
		m->o.conflict = 1;
	if (!m->o.max_cycles)
		m->o.max_cycles = 5000;
	if ((opts->harness_jar && !(m->harness_jar = ms_ctx_strdup(ctx, opts->harness_jar))) ||
	    (opts->harness_dir && !(m->harness_dir = ms_ctx_strdup(ctx, opts->harness_dir)))) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "ms_match_new: out of memory");
		goto fail;
	}
	m->o.harness_jar = m->harness_jar;
	m->o.harness_dir = m->harness_dir;
	m->o.map = NULL;
	m->o.initial = NULL;
	if (given) {
		m->table = ms_rts_state_utt(given);
		if ((opts->map && !(m->map = ms_ctx_strdup(ctx, opts->map))) ||
		    (rc = ms_rts_state_clone(ctx, &m->initial, given)) || (rc = ms_rts_state_clone(ctx, &m->s, given))) {
			rc = rc ? rc : ms_ctx_error(ctx, MS_ENOMEM, "ms_match_new: out of memory");
			goto fail;
		}
		ms_match_seed_state(m->initial, m->o.seed);
	} else if (m->o.backend == MS_MATCH_NATIVE) {
#ifdef MS_NO_FILE_IO
		rc = ms_ctx_error(ctx, MS_EUNSUPPORTED, "ms_match_new: this build reads no map files (map '%s'); "
				  "give the first state in memory", opts->map);
		goto fail;
#else
		if ((rc = resolve_map(m, opts->map)) || (rc = ms_rts_utt_new(ctx, &m->utt, m->o.utt, m->o.conflict)) ||
		    (rc = ms_rts_state_load_map(ctx, &m->initial, m->utt, m->map, m->o.seed)) ||
		    (rc = ms_rts_state_clone(ctx, &m->s, m->initial)))
			goto fail;
		m->table = m->utt;
		ms_match_seed_state(m->initial, m->o.seed);
#endif
	} else {
		if ((rc = resolve_map(m, opts->map)))
			goto fail;
#ifdef MS_HAVE_JVM
		static const char *const quiet[] = { "-Dmicrosynth.quiet=true" };
		ms_jvm_options jo = { .version = MS_JVM_OPTIONS_VERSION, .harness_jar = m->harness_jar,
				   .harness_dir = m->harness_dir, .vm_options = quiet,
				   .n_vm_options = m->o.jvm_verbose ? 0 : 1 };
		if (!m->harness_jar) {
			rc = ms_ctx_error(ctx, MS_EINVAL, "ms_match_new: the official backend needs harness_jar "
					  "(microsynth-harness.jar)");
			goto fail;
		}
		if ((rc = ms_jvm_open(ctx, &m->jvm, &jo)))
			goto fail;
#else
		rc = ms_ctx_error(ctx, MS_EUNSUPPORTED, "ms_match_new: this build has no hosted JVM (no JDK headers)");
		goto fail;
#endif
	}
	*out = m;
	return MS_OK;
fail:
	ms_match_free(m);
	return rc;
}

void ms_match_free(ms_match *m)
{
	if (!m)
		return;
#ifdef MS_HAVE_JVM
	ms_jvm_close(m->jvm);
#endif
	ms_memo_free(m->memo);
	ms_rts_state_free(m->s);
	ms_rts_state_free(m->initial);
	ms_rts_utt_free(m->utt);
	ms_ctx_mfree(m->ctx, m->map);
	ms_ctx_mfree(m->ctx, m->harness_jar);
	ms_ctx_mfree(m->ctx, m->harness_dir);
	ms_ctx_mfree(m->ctx, m);
}

void ms_match_seed_state(ms_rts_state *s, int64_t seed)
{
	ms_rts_state_set_rng(s, MS_RTS_RNG_CONFLICT, ms_jrandom_scramble(ms_jrandom_match_seed(seed, MS_MATCH_RNG_GAMESTATE)));
	ms_rts_state_set_rng(s, MS_RTS_RNG_DAMAGE, ms_jrandom_scramble(ms_jrandom_match_seed(seed, MS_MATCH_RNG_UNITACTION)));
}

int ms_match_reseed(ms_match *m, int64_t seed, int stochastic)
{
	if (!m)
		return MS_EINVAL;
	m->o.seed = seed;
	m->stochastic = stochastic != 0;
	if (m->initial)
		ms_match_seed_state(m->initial, seed);
	return MS_OK;
}

static int check_player(ms_match *m, const ms_match_player *p, int i)
{
	if (!p->spec == !p->program)
		return ms_ctx_error(m->ctx, MS_EINVAL, "match: player %d needs exactly one of a spec and a program",
				    i);
	if (p->prefix && !p->program)
		return ms_ctx_error(m->ctx, MS_EINVAL, "match: player %d has a prefix but no program", i);
	if (p->prefix && m->o.backend == MS_MATCH_OFFICIAL)
		return ms_ctx_error(m->ctx, MS_EUNSUPPORTED,
				    "match: player %d: a program after a prefix plays on the native backend only", i);
	if (p->reach && (p->prefix || m->o.backend == MS_MATCH_OFFICIAL))
		return ms_ctx_error(m->ctx, MS_EUNSUPPORTED,
				    "match: player %d: reach marks come from a native match of a program alone", i);
	return MS_OK;
}

void ms_match_memo_stats(const ms_match *m, ms_memo_stats *out)
{
	ms_memo_get_stats(m ? m->memo : NULL, out);
}

/*
 * The match context's memo table, made at its first use; NULL without one.
 * By default it grows with the map, 2^8 entries a cell between 2^14 and
 * 2^20 (64x64: 32 MiB): a bigger map's games hold more distinct searches.
 */
static int memo_table(ms_match *m, ms_memo **out)
{
	int rc;

	if (m->o.memo_bits >= 0 && !m->memo) {
		unsigned bits = (unsigned)m->o.memo_bits;
		if (!bits) {
			long cells = (long)ms_rts_state_width(m->initial) * ms_rts_state_height(m->initial);
			for (bits = 8; bits < 20 && (1L << (bits - 8)) < cells; bits++)
				;
			bits = bits < 14 ? 14 : bits;
		}
		if ((rc = ms_memo_new(m->ctx, &m->memo, bits)))
			return rc;
	}
	*out = m->memo;
	return MS_OK;
}

/* A program player's bot, with the match context's memo table; a decision
 * past the loop budget loses the match, so that a search's pathological
 * mutant costs one decision, not a whole match of them. */
static int program_bot(ms_match *m, ms_bot **out, const ms_dsl_prog *p, uint8_t *reach, int64_t seed)
{
	ms_rts_dsl_options o = { .version = MS_RTS_DSL_OPTIONS_VERSION, .reach = reach, .cut_fails = 1 };
	int rc;

	if ((rc = memo_table(m, &o.path_memo)))
		return rc;
	return ms_rts_dsl_bot_new_options(m->ctx, out, p, m->table, seed, &o);
}

static int play_native(ms_match *m, const ms_match_player players[2], const char *trace, const ms_bot_hooks *h,
		       ms_match_result *res)
{
	ms_ctx *ctx = m->ctx;
	ms_bot *bot[2] = { NULL, NULL };
	ms_rts_trace_writer *tw = NULL;
	int64_t bot_seed = ms_jrandom_match_seed(m->o.seed, MS_MATCH_RNG_SAMPLER);
	ms_memo *memo = NULL;
	int rc = MS_OK;

	res->winner = res->crashed = res->timed_out = -1;
	res->cycles = 0;
	if ((rc = ms_rts_state_copy(m->s, m->initial)))
		return rc;
	for (int p = 0; p < 2; p++) {
		if (players[p].prefix)
			rc = ms_rts_prefix_bot_new(ctx, &bot[p], players[p].prefix, players[p].switch_cycle,
						   players[p].program, m->table, bot_seed);
		else if (players[p].program)
			rc = program_bot(m, &bot[p], players[p].program, players[p].reach, bot_seed);
		else if (!(rc = ms_bot_make(ctx, &bot[p], players[p].spec, m->table, bot_seed)) &&
			 !(rc = memo_table(m, &memo)))
			rc = ms_bot_set_memo(bot[p], memo);
		if (rc || (rc = ms_bot_set_edition(bot[p], m->o.edition)) ||
		    (rc = ms_bot_set_stochastic(bot[p], m->stochastic)) || (rc = ms_bot_reset(bot[p])))
			goto done;
	}
#ifdef MS_NO_FILE_IO
	if (trace) {
		rc = ms_ctx_error(ctx, MS_EUNSUPPORTED, "ms_match_play: this build writes no trace files");
		goto done;
	}
#else
	if (trace && (rc = ms_rts_trace_writer_new(ctx, &tw, m->s)))
		goto done;
#endif
	if ((rc = ms_bot_play_hooked(ctx, m->s, bot, m->o.max_cycles, m->o.partially_observable, tw, NULL, h))) {
		/* scored as the harness scores a crash: the failing player loses */
		int failed = bot[0]->failures ? 0 : bot[1]->failures ? 1 : -1;
		res->crashed = failed;
		res->winner = failed < 0 ? -1 : 1 - failed;
		res->cycles = ms_rts_state_time(m->s);
		res->timed_out = -1;
		goto done;
	}
#ifndef MS_NO_FILE_IO
	if (tw && (rc = ms_rts_trace_writer_finish(tw, m->s, trace)))
		goto done;
#endif
	m->played = 1;
	res->winner = ms_rts_winner(m->s);
	res->cycles = ms_rts_state_time(m->s);
	res->crashed = -1;
	res->timed_out = -1;
done:
	ms_rts_trace_writer_free(tw);
	ms_bot_free(bot[0]);
	ms_bot_free(bot[1]);
	return rc;
}

#ifdef MS_HAVE_JVM
static int play_official(ms_match *m, const ms_match_player players[2], const char *trace, ms_match_result *res)
{
	static const char prefix[] = "program-text:";
	ms_jvm_match_options jm = { .version = MS_JVM_MATCH_OPTIONS_VERSION };
	ms_jvm_result jr;
	char *spec[2] = { NULL, NULL };
	const char *name[2];
	int rc = MS_OK;

	for (int p = 0; p < 2; p++) {
		char *text = NULL;
		size_t len = 0;
		if (!players[p].program) {
			/* a native bot's short name is its Java class's short name, which the harness resolves */
			name[p] = players[p].spec;
			continue;
		}
		if ((rc = ms_rts_dsl_print(players[p].program, MS_RTS_DSL_FORM_SALVE, &text, &len)))
			goto done;
		spec[p] = ms_ctx_malloc(m->ctx, sizeof(prefix) + len);
		if (!spec[p]) {
			ms_ctx_mfree(ms_dsl_prog_ctx(players[p].program), text);
			rc = ms_ctx_error(m->ctx, MS_ENOMEM, "match: out of memory");
			goto done;
		}
		memcpy(spec[p], prefix, sizeof(prefix) - 1);
		memcpy(spec[p] + sizeof(prefix) - 1, text, len + 1);
		ms_ctx_mfree(ms_dsl_prog_ctx(players[p].program), text);
		name[p] = spec[p];
	}
	jm.map = m->map;
	jm.p0 = name[0];
	jm.p1 = name[1];
	jm.utt = m->o.utt;
	jm.conflict = m->o.conflict;
	jm.max_cycles = m->o.max_cycles;
	jm.time_budget = m->o.time_budget;
	jm.hang_ms = m->o.hang_ms ? m->o.hang_ms : 10000;
	jm.partially_observable = m->o.partially_observable;
	jm.seeded = 1;
	jm.seed = m->o.seed;
	jm.trace = trace;
	if ((rc = ms_jvm_match(m->jvm, &jm, &jr)))
		goto done;
	res->winner = jr.winner;
	res->cycles = jr.cycles;
	res->crashed = jr.crashed;
	res->timed_out = jr.timed_out;
done:
	ms_ctx_mfree(m->ctx, spec[0]);
	ms_ctx_mfree(m->ctx, spec[1]);
	return rc;
}
#endif

int ms_match_play(ms_match *m, const ms_match_player players[2], const char *trace, ms_match_result *res)
{
	int rc;

	if ((rc = check_player(m, &players[0], 0)) || (rc = check_player(m, &players[1], 1)))
		return rc;
	if (m->o.backend == MS_MATCH_NATIVE)
		return play_native(m, players, trace, NULL, res);
#ifdef MS_HAVE_JVM
	return play_official(m, players, trace, res);
#else
	(void)trace;
	(void)res;
	return ms_ctx_error(m->ctx, MS_EUNSUPPORTED, "match: this build has no hosted JVM");
#endif
}

int ms_match_play_observed(ms_match *m, const ms_match_player players[2], ms_bot_observer observe, void *ud,
			   ms_match_result *res)
{
	ms_bot_hooks h = { observe, NULL, ud };
	return ms_match_play_hooked(m, players, &h, res);
}

int ms_match_play_hooked(ms_match *m, const ms_match_player players[2], const ms_bot_hooks *h, ms_match_result *res)
{
	int rc;

	if (m->o.backend != MS_MATCH_NATIVE)
		return ms_ctx_error(m->ctx, MS_EUNSUPPORTED, "match: observing cycles needs the native backend");
	if ((rc = check_player(m, &players[0], 0)) || (rc = check_player(m, &players[1], 1)))
		return rc;
	return play_native(m, players, NULL, h, res);
}

int ms_match_path_memo(ms_match *m, ms_memo **out)
{
	*out = NULL;
	if (m->o.backend != MS_MATCH_NATIVE)
		return ms_ctx_error(m->ctx, MS_EUNSUPPORTED, "match: the path memo belongs to the native backend");
	return memo_table(m, out);
}

const ms_rts_state *ms_match_initial_state(const ms_match *m)
{
	return m ? m->initial : NULL;
}

void ms_match_map_size(const ms_match *m, int *width, int *height)
{
	*width = m && m->initial ? ms_rts_state_width(m->initial) : 0;
	*height = m && m->initial ? ms_rts_state_height(m->initial) : 0;
}

const ms_rts_state *ms_match_final_state(const ms_match *m)
{
	return m && m->o.backend == MS_MATCH_NATIVE && m->played ? m->s : NULL;
}

const ms_rts_utt *ms_match_utt(const ms_match *m)
{
	return m ? m->table : NULL;
}

int ms_match_options_init(ms_match_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_MATCH_OPTIONS_VERSION);
}
