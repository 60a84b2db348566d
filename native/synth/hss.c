/*
 * Hierarchical synthesis search (Aleixo's dissertation, 4.5; its bandit,
 * 2.2.2): a search over behavioural feature vectors chooses where a local
 * search (SA) over programs starts.
 *
 * Each iteration: two-phase naive sampling picks a vector V (explore with
 * probability eps0: every feature's value from its own local bandit,
 * eps_l-greedy, and V joins the global bandit; else a known vector from
 * the global bandit, eps_g-greedy); SA runs `hss_passes` passes from the
 * library program whose F(p) is nearest V (L1; ties to the higher Psi,
 * then the older); every program those passes scored (the hook below sees
 * them in index order) gets its features measured and updates the local
 * bandits of its values and the global arm F(p) with its Psi, then joins
 * the library. All means are multiplied by gamma before each iteration's
 * updates, so recent scores weigh more (the dissertation's decay).
 *
 * Determinism: features of p are measured with a seed drawn from the
 * search seed and p's hash, on the caller's thread; every choice uses the
 * search's generator, so a search budgeted by evaluations gives the same
 * program for any thread count, and a checkpoint replay rebuilds the
 * bandits and the library exactly (features are recomputed, not logged).
 *
 * Transfer (4.5.2): with `hss_library`, the library is read at the start
 * and rewritten when the search ends by its budget. The checkpoint header
 * records the library's digest, so a resume against another library is
 * refused.
 *
 * Library file: "microsynth-hss-library 1", "grammar NAME", "features N",
 * then one program per line: its Psi, its N feature values, its token form.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "core/hash.h"
#include "synth_internal.h"

#define LIB_MAGIC "microsynth-hss-library 1"
/* "hss_feat" in ASCII: mixed into the search's seed so the feature games draw apart from its Psi games. */
#define FEATURE_SEED_TAG UINT64_C(0x6873735f66656174)

/* A bandit arm: the decayed mean of the scores it saw and their count. */
typedef struct arm {
	double mean, count;
} arm;

/* A library program: its hash (for lookup) and its best Psi; its features are lib_f[i * nf ...]. */
typedef struct lib_entry {
	ms_dsl_prog *prog;
	uint64_t hash;
	double u;
} lib_entry;

/* A program scored during the current SA step (a copy), with its Psi. */
typedef struct pending {
	ms_dsl_prog *prog;
	double u;
} pending;

typedef struct hss {
	ms_synth *s;
	int nf;                 /* features */
	const int *K;           /* values per feature */
	int *loff;              /* local arm of (j, v): loff[j] + v */
	arm *local;
	int n_local;

	/* the global bandit: vectors met (nf values each, in gvec) and their arms */
	MS_VEC(arm) garm;
	MS_VEC(int) gvec;

	/* the library */
	MS_VEC(lib_entry) lib;
	MS_VEC(int) lib_f;

	/* programs scored during the current SA step, from the hook */
	MS_VEC(pending) pend;
	int opponent;           /* F(p) is measured against it */
	int *scratch;           /* one feature vector */

	/* confirmation: the iteration's best single score, and the champion's mean over 1 + confirm scores */
	ms_dsl_prog *it_best, *champ;
	double it_best_u, champ_mean;
} hss;

/* Index of the library entry equal to p, or -1. */
static int lib_find(const hss *h, const ms_dsl_prog *p, uint64_t hash)
{
	for (int i = 0; i < h->lib.n; i++)
		if (h->lib.v[i].hash == hash && ms_dsl_equal(h->lib.v[i].prog, p))
			return i;
	return -1;
}

/* Adds p (copied) with features f and score u; an equal program keeps the higher score. */
static int lib_add(hss *h, const ms_dsl_prog *p, const int *f, double u)
{
	uint64_t hash = ms_dsl_hash(p);
	int i = lib_find(h, p, hash), rc;
	if (i >= 0) {
		if (u > h->lib.v[i].u)
			h->lib.v[i].u = u;
		return 0;
	}
	ms_ctx *ctx = h->s->ctx;
	int n = h->lib.n;
	if ((rc = ms_vec_reserve(ctx, &h->lib_f, (long long)(n + 1) * h->nf)) < 0 ||
	    (rc = ms_vec_reserve(ctx, &h->lib, n + 1)) < 0)
		return rc;
	lib_entry *e = &h->lib.v[n];
	if ((rc = ms_dsl_prog_clone(&e->prog, p)) < 0)
		return rc;
	memcpy(&h->lib_f.v[(size_t)n * (size_t)h->nf], f, sizeof *f * (size_t)h->nf);
	e->u = u;
	e->hash = hash;
	h->lib.n++;
	h->lib_f.n = h->lib.n * h->nf;
	return 0;
}

/* The global arm of vector v, added (mean 0, count 0) if new; its index or a negative error. */
static int global_arm(hss *h, const int *v)
{
	int n = h->garm.n, rc;
	for (int i = 0; i < n; i++)
		if (!memcmp(&h->gvec.v[(size_t)i * (size_t)h->nf], v, sizeof *v * (size_t)h->nf))
			return i;
	if ((rc = ms_vec_reserve(h->s->ctx, &h->gvec, (long long)(n + 1) * h->nf)) < 0 ||
	    (rc = ms_vec_reserve(h->s->ctx, &h->garm, n + 1)) < 0)
		return rc;
	memcpy(&h->gvec.v[(size_t)n * (size_t)h->nf], v, sizeof *v * (size_t)h->nf);
	h->gvec.n = (n + 1) * h->nf;
	h->garm.v[n] = (arm){0, 0};
	return h->garm.n++;
}

static void arm_update(arm *a, double u)
{
	a->count += 1;
	a->mean += (u - a->mean) / a->count;
}

/* The hook: keeps a copy of every Psi scored during the SA step. */
static int hss_hook(void *ud, const ms_dsl_prog *p, int kind, double score, int failed)
{
	hss *h = ud;
	if (kind != MS_SYNTH_PSI || failed)
		return 0;
	int rc = ms_vec_reserve(h->s->ctx, &h->pend, h->pend.n + 1);
	if (rc < 0 || (rc = ms_dsl_prog_clone(&h->pend.v[h->pend.n].prog, p)) < 0)
		return rc;
	h->pend.v[h->pend.n++].u = score;
	if (h->it_best_u < 0 || score > h->it_best_u) {
		if ((rc = ms_dsl_prog_copy(h->it_best, p)) < 0)
			return rc;
		h->it_best_u = score;
	}
	return 0;
}

/*
 * The iteration's best program, if its one score beats the champion's
 * mean, is scored `hss_confirm` more times (fresh evaluations, as any
 * other); it becomes the champion if its mean still does. A single
 * 1000-match score of the best of thousands of programs is optimistic;
 * the mean of a few is what the search reports at the end.
 */
static int confirm(hss *h)
{
	ms_synth *s = h->s;
	int k = s->o.hss_confirm, rc = 0, n = 1;
	if (k <= 0 || h->it_best_u < 0 || h->it_best_u <= h->champ_mean)
		return 0;
	double sum = h->it_best_u;
	for (int r = 0; r < k && rc == 0; r++) {
		double sc;
		if ((rc = syn_eval1(s, h->it_best, MS_SYNTH_PSI, 0, &sc)) == 0) {
			sum += sc;
			n++;
		}
	}
	if (rc < 0)
		return rc;
	if (n == 1 + k && sum / n > h->champ_mean) {
		int c = ms_dsl_prog_copy(h->champ, h->it_best);
		if (c < 0)
			return c;
		h->champ_mean = sum / n;
	}
	return rc;
}

/* Features of the pending programs; statistics and library updated; pending list emptied. */
static int absorb_pending(hss *h)
{
	ms_synth *s = h->s;
	int rc = 0;
	for (int i = 0; i < h->pend.n; i++) {
		const ms_dsl_prog *p = h->pend.v[i].prog;
		double u = h->pend.v[i].u;
		if (rc < 0)
			break;
		uint64_t seed = ms_synth_eval_seed(s->o.seed ^ FEATURE_SEED_TAG, ms_dsl_hash(p));
		int fr = ms_synth_eval_features(s->ev, p, h->opponent, seed, h->scratch);
		if (fr < 0) {
			rc = fr;
			break;
		}
		if (fr == MS_SYNTH_FAILED)
			continue;
		for (int j = 0; j < h->nf; j++) {
			arm_update(&h->local[h->loff[j] + h->scratch[j]], u);
		}
		int g = global_arm(h, h->scratch);
		if (g < 0) {
			rc = g;
			break;
		}
		arm_update(&h->garm.v[g], u);
		rc = lib_add(h, p, h->scratch, u);
	}
	for (int i = 0; i < h->pend.n; i++)
		ms_dsl_prog_free(h->pend.v[i].prog);
	h->pend.n = 0;
	return rc;
}

/* The best visited arm among [first, first + n) (first among equals), or -1 if none was visited. */
static int best_arm(const arm *a, int first, int n)
{
	int best = -1;
	for (int i = first; i < first + n; i++)
		if (a[i].count > 0 && (best < 0 || a[i].mean > a[best].mean))
			best = i;
	return best;
}

/* Two-phase naive sampling: the vector V of this iteration into v. */
static int sample_vector(hss *h, int iteration, int *v)
{
	ms_synth *s = h->s;
	const double *eps = iteration < s->o.hss_switch ? s->o.hss_eps1 : s->o.hss_eps2;
	int g = -1;
	if (h->garm.n > 0 && !(syn_uniform(s) < eps[0])) {
		/* exploit: a vector of the global bandit */
		if (syn_uniform(s) < eps[2])
			g = syn_below(s, h->garm.n);
		else
			g = best_arm(h->garm.v, 0, h->garm.n);
		if (g < 0)
			g = syn_below(s, h->garm.n);
		memcpy(v, &h->gvec.v[(size_t)g * (size_t)h->nf], sizeof *v * (size_t)h->nf);
		return 0;
	}
	/* explore: each value from its local bandit; the vector joins the global one */
	for (int j = 0; j < h->nf; j++) {
		int a = syn_uniform(s) < eps[1] ? -1 : best_arm(h->local, h->loff[j], h->K[j]);
		v[j] = a < 0 ? syn_below(s, h->K[j]) : a - h->loff[j];
	}
	g = global_arm(h, v);
	return g < 0 ? g : 0;
}

/* The library program nearest v (L1), ties to the higher score then the older; -1 if empty. */
static int nearest(const hss *h, const int *v)
{
	int best = -1;
	long bd = 0;
	for (int i = 0; i < h->lib.n; i++) {
		const int *f = &h->lib_f.v[(size_t)i * (size_t)h->nf];
		long d = 0;
		for (int j = 0; j < h->nf; j++)
			d += labs((long)f[j] - (long)v[j]);
		if (best < 0 || d < bd || (d == bd && h->lib.v[i].u > h->lib.v[best].u)) {
			best = i;
			bd = d;
		}
	}
	return best;
}

static void decay(hss *h)
{
	double g = h->s->o.hss_gamma;
	if (g >= 1)
		return;
	for (int i = 0; i < h->n_local; i++)
		h->local[i].mean *= g;
	for (int i = 0; i < h->garm.n; i++)
		h->garm.v[i].mean *= g;
}

/* ---- the library file ---- */

/* FNV-1a of the file's bytes into *digest; 0 if absent (*digest = 0), an error if unreadable. */
static int file_digest(ms_ctx *ctx, const char *path, uint64_t *digest)
{
	FILE *f = fopen(path, "rb");
	*digest = 0;
	if (!f)
		return errno == ENOENT ? 0 : ms_ctx_error(ctx, MS_EIO, "hss library %s: cannot open: %s", path, strerror(errno));
	uint64_t d = MS_FNV_OFFSET;
	int c;
	while ((c = getc(f)) != EOF)
		d = ms_fnv1a_step(d, (uint8_t)c);
	int bad = ferror(f);
	fclose(f);
	if (bad)
		return ms_ctx_error(ctx, MS_EIO, "hss library %s: read error", path);
	*digest = d ? d : 1;
	return 0;
}

/* ---- HSS's options: read by HSS only, so checked and recorded only for it ---- */

static void hss_defaults(ms_synth_options *o)
{
	o->hss_eps1[0] = 0.8;
	o->hss_eps1[1] = 0.5;
	o->hss_eps1[2] = 0.3;
	o->hss_eps2[0] = 0.3;
	o->hss_eps2[1] = 0.2;
	o->hss_eps2[2] = 0.05;
	o->hss_gamma = 0.95;
	o->hss_switch = 10;
	o->hss_passes = 1;
	o->hss_feature_opponent = -1;
	o->hss_confirm = 2;
}

static int hss_check(ms_ctx *ctx, const ms_synth_problem *pb, const ms_synth_options *o)
{
	if (o->algo != MS_SYNTH_HSS)
		return 0;
	if (syn_problem_features(pb) <= 0)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: hss needs behavioural features, and problem %s has none",
				    pb->name ? pb->name : "?");
	for (int i = 0; i < 3; i++)
		if (!(o->hss_eps1[i] >= 0 && o->hss_eps1[i] <= 1) || !(o->hss_eps2[i] >= 0 && o->hss_eps2[i] <= 1))
			return ms_ctx_error(ctx, MS_EINVAL, "search options: hss epsilons must be in [0, 1]");
	if (!(o->hss_gamma > 0 && o->hss_gamma <= 1) || o->hss_switch < 0 || o->hss_passes < 1 || o->hss_confirm < 0 ||
	    o->hss_confirm > 1000)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: hss needs 0 < gamma <= 1, switch >= 0, passes >= 1, confirm in 0..1000");
	if (o->hss_feature_opponent < -1 || o->hss_feature_opponent >= syn_problem_opponents(pb))
		return ms_ctx_error(ctx, MS_EINVAL, "search options: hss feature opponent %d: problem %s has %d opponents",
				    o->hss_feature_opponent, pb->name ? pb->name : "?", syn_problem_opponents(pb));
	if (o->hss_library && !*o->hss_library)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: empty hss library path");
	return 0;
}

/* After the population line: the settings and the library's digest (a resume against another library is refused). */
static int hss_trailer(ms_synth *s, ms_buf *b)
{
	const ms_synth_options *o = &s->o;
	uint64_t digest = 0;
	int rc;
	if (o->algo != MS_SYNTH_HSS)
		return 0;
	if (o->hss_library && (rc = file_digest(s->ctx, o->hss_library, &digest)) < 0)
		return rc;
	return ms_buf_printf(b, "hss %.17g %.17g %.17g %.17g %.17g %.17g %.17g %d %d %d %d library %016llx\n",
			     o->hss_eps1[0], o->hss_eps1[1], o->hss_eps1[2], o->hss_eps2[0], o->hss_eps2[1], o->hss_eps2[2],
			     o->hss_gamma, o->hss_switch, o->hss_passes, o->hss_feature_opponent, o->hss_confirm,
			     (unsigned long long)digest);
}

static const ms_synth_knob hss_knobs[] = {
	{ "--hss-library", MS_SYNTH_KNOB_STRING, 0, 0, 0, offsetof(ms_synth_options, hss_library),
	  SYN_ALGO(MS_SYNTH_HSS), NULL, "FILE",
	  "program library, read at the start if present and rewritten at the end" },
	{ "--hss-passes", MS_SYNTH_KNOB_INT, 1, 1000, 0, offsetof(ms_synth_options, hss_passes), SYN_ALGO(MS_SYNTH_HSS),
	  NULL, "N", "SA passes per iteration (1)" },
	{ "--hss-confirm", MS_SYNTH_KNOB_INT, 0, 1000, 0, offsetof(ms_synth_options, hss_confirm), SYN_ALGO(MS_SYNTH_HSS),
	  NULL, "N", "re-scorings of an iteration's best; the reported program is the best mean (2)" },
};

const syn_opts_part syn_hss_part = { hss_defaults, hss_check, NULL, hss_trailer, hss_knobs,
				     sizeof hss_knobs / sizeof *hss_knobs };

static int lib_load(hss *h, const char *path)
{
	ms_synth *s = h->s;
	FILE *f = fopen(path, "r");
	if (!f)
		return errno == ENOENT ? 0 : ms_ctx_error(s->ctx, MS_EIO, "hss library %s: cannot open: %s", path, strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long ln = 0;
	int rc = 0;
	ms_dsl_prog *p = NULL;
	if ((rc = syn_prog_new(s, &p)) < 0)
		goto out;
	while ((len = getline(&line, &cap, f)) >= 0) {
		ln++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (ln == 1) {
			if (strcmp(line, LIB_MAGIC) != 0) {
				rc = ms_ctx_error(s->ctx, MS_EPARSE, "hss library %s:1: not a library (expected '%s')", path, LIB_MAGIC);
				goto out;
			}
			continue;
		}
		if (ln == 2) {
			const char *g = ms_dsl_grammar_name(s->pb->grammar);
			if (strncmp(line, "grammar ", 8) != 0 || strcmp(line + 8, g) != 0) {
				rc = ms_ctx_error(s->ctx, MS_EPARSE, "hss library %s:2: expected 'grammar %s'", path, g);
				goto out;
			}
			continue;
		}
		if (ln == 3) {
			char *end;
			long nf = strncmp(line, "features ", 9) == 0 ? strtol(line + 9, &end, 10) : -1;
			if (nf != h->nf || *end) {
				rc = ms_ctx_error(s->ctx, MS_EPARSE, "hss library %s:3: expected 'features %d'", path, h->nf);
				goto out;
			}
			continue;
		}
		if (!*line || *line == '#')
			continue;
		char *at = line, *end;
		errno = 0;
		double u = strtod(at, &end);
		if (end == at || errno || !(u >= 0 && u <= 1e300)) {
			rc = ms_ctx_error(s->ctx, MS_EPARSE, "hss library %s:%ld: expected a score first", path, ln);
			goto out;
		}
		at = end;
		for (int j = 0; j < h->nf; j++) {
			long v = strtol(at, &end, 10);
			if (end == at || v < 0 || v >= h->K[j]) {
				rc = ms_ctx_error(s->ctx, MS_EPARSE, "hss library %s:%ld: feature %d missing or outside 0..%d",
						  path, ln, j, h->K[j] - 1);
				goto out;
			}
			h->scratch[j] = (int)v;
			at = end;
		}
		while (*at == ' ')
			at++;
		if ((rc = ms_dsl_parse_tokens(p, at, strlen(at), ' ', s->start_nt)) < 0) {
			rc = ms_ctx_error(s->ctx, MS_EPARSE, "hss library %s:%ld: %s", path, ln, ms_ctx_last_error(s->ctx));
			goto out;
		}
		if (ms_dsl_hole_count(p) > 0) {
			rc = ms_ctx_error(s->ctx, MS_EPARSE, "hss library %s:%ld: the program has holes", path, ln);
			goto out;
		}
		if ((rc = lib_add(h, p, h->scratch, u)) < 0)
			goto out;
	}
	if (ferror(f))
		rc = ms_ctx_error(s->ctx, MS_EIO, "hss library %s: read error", path);
	else if (ln < 3)
		rc = ms_ctx_error(s->ctx, MS_EPARSE, "hss library %s: incomplete header", path);
out:
	ms_dsl_prog_free(p);
	free(line);
	fclose(f);
	return rc;
}

/* Written to PATH.tmp, then renamed: a crash never leaves half a library. */
static int lib_save(hss *h, const char *path)
{
	ms_synth *s = h->s;
	size_t pl = strlen(path) + 8;
	char *tmp = ms_ctx_malloc(s->ctx, pl);
	if (!tmp)
		return ms_ctx_error(s->ctx, MS_ENOMEM, "hss: out of memory");
	snprintf(tmp, pl, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	int rc = 0;
	if (!f) {
		rc = ms_ctx_error(s->ctx, MS_EIO, "hss library %s: cannot write: %s", tmp, strerror(errno));
		ms_ctx_mfree(s->ctx, tmp);
		return rc;
	}
	fprintf(f, "%s\ngrammar %s\nfeatures %d\n", LIB_MAGIC, ms_dsl_grammar_name(s->pb->grammar), h->nf);
	for (int i = 0; rc == 0 && i < h->lib.n; i++) {
		char *tok = NULL;
		if ((rc = ms_dsl_print_tokens(h->lib.v[i].prog, ' ', &tok, NULL)) < 0)
			break;
		fprintf(f, "%.17g", h->lib.v[i].u);
		for (int j = 0; j < h->nf; j++)
			fprintf(f, " %d", h->lib_f.v[(size_t)i * (size_t)h->nf + (size_t)j]);
		fprintf(f, " %s\n", tok);
		ms_ctx_mfree(s->ctx, tok);
	}
	if (fclose(f) != 0 && rc == 0)
		rc = ms_ctx_error(s->ctx, MS_EIO, "hss library %s: write failed", tmp);
	if (rc == 0 && rename(tmp, path) != 0)
		rc = ms_ctx_error(s->ctx, MS_EIO, "hss library %s: cannot rename %s: %s", path, tmp, strerror(errno));
	if (rc < 0)
		remove(tmp);
	ms_ctx_mfree(s->ctx, tmp);
	return rc;
}

/* ---- the search ---- */

static void hss_free(hss *h)
{
	ms_ctx *ctx = h->s->ctx;
	for (int i = 0; i < h->lib.n; i++)
		ms_dsl_prog_free(h->lib.v[i].prog);
	for (int i = 0; i < h->pend.n; i++)
		ms_dsl_prog_free(h->pend.v[i].prog);
	ms_vec_dispose(ctx, &h->lib);
	ms_vec_dispose(ctx, &h->lib_f);
	ms_vec_dispose(ctx, &h->pend);
	ms_vec_dispose(ctx, &h->gvec);
	ms_vec_dispose(ctx, &h->garm);
	ms_ctx_mfree(ctx, h->loff);
	ms_ctx_mfree(ctx, h->local);
	ms_ctx_mfree(ctx, h->scratch);
	ms_dsl_prog_free(h->it_best);
	ms_dsl_prog_free(h->champ);
}

static int hss_init(hss *h, ms_synth *s)
{
	const ms_synth_problem *pb = s->pb;
	memset(h, 0, sizeof *h);
	h->s = s;
	h->nf = syn_problem_features(pb);
	h->K = pb->feature_values;
	h->opponent = s->o.hss_feature_opponent;
	if (h->opponent < 0 && syn_problem_opponents(pb) > 0) {
		const int *id;
		const double *w;
		h->opponent = syn_eval_population(s->ev, &id, &w) > 0 ? id[0] : 0;
	}
	h->loff = ms_ctx_calloc(s->ctx, (size_t)h->nf, sizeof *h->loff);
	h->scratch = ms_ctx_calloc(s->ctx, (size_t)h->nf, sizeof *h->scratch);
	if (!h->loff || !h->scratch)
		return ms_ctx_error(s->ctx, MS_ENOMEM, "hss: out of memory");
	for (int j = 0; j < h->nf; j++) {
		if (h->K[j] < 1 || h->K[j] > 1 << 20)
			return ms_ctx_error(s->ctx, MS_EINVAL, "hss: problem %s: feature %d has %d values",
					    pb->name ? pb->name : "?", j, h->K[j]);
		h->loff[j] = h->n_local;
		h->n_local += h->K[j];
	}
	h->it_best_u = h->champ_mean = -1;
	int rc = syn_prog_new(s, &h->it_best);
	if (rc < 0 || (rc = syn_prog_new(s, &h->champ)) < 0)
		return rc;
	h->local = ms_ctx_calloc(s->ctx, (size_t)h->n_local, sizeof *h->local);
	if (!h->local)
		return ms_ctx_error(s->ctx, MS_ENOMEM, "hss: out of memory");
	return 0;
}

int syn_run_hss(ms_synth *s)
{
	hss h;
	int rc = hss_init(&h, s);
	int *v = NULL;
	ms_dsl_prog *start = NULL;

	if (rc == 0 && s->o.hss_library)
		rc = lib_load(&h, s->o.hss_library);
	if (rc == 0 && !(v = ms_ctx_calloc(s->ctx, (size_t)h.nf, sizeof *v)))
		rc = ms_ctx_error(s->ctx, MS_ENOMEM, "hss: out of memory");
	if (rc == 0)
		rc = syn_prog_new(s, &start);
	syn_phase(s, MS_SYNTH_PHASE_SEARCH, 0, 0, 0);
	if (rc == 0)
		rc = syn_listen(s, hss_hook, &h);
	for (int it = 0; rc == 0; it++) {
		if ((rc = sample_vector(&h, it, v)) < 0)
			break;
		int from = nearest(&h, v);
		if (from >= 0 && (rc = ms_dsl_prog_copy(start, h.lib.v[from].prog)) < 0)
			break;
		rc = syn_sa_step(s, MS_SYNTH_PSI, from >= 0 ? start : NULL, s->o.hss_passes, SYN_SA_RESTART_PASS, NULL,
				 NULL);
		if (rc < 0)
			break;
		int ar;
		decay(&h);
		if ((ar = absorb_pending(&h)) < 0)
			rc = ar;
		if (rc == 0 && (rc = confirm(&h)) >= 0 && (ar = absorb_pending(&h)) < 0)
			rc = ar;
		h.it_best_u = -1;
	}
	/* the search reports its champion (the best mean), when confirmation is on and one was confirmed */
	if (rc >= 0 && h.champ_mean >= 0) {
		int c = ms_dsl_prog_copy(s->best[MS_SYNTH_PSI], h.champ);
		if (c < 0)
			rc = c;
		s->best_score[MS_SYNTH_PSI] = h.champ_mean;
	}
	syn_unlisten(s, hss_hook, &h);
	if (rc >= 0 && s->o.hss_library && s->stop_reason != SYN_STOP_CALLBACK) {
		int sr = lib_save(&h, s->o.hss_library);
		if (sr < 0)
			rc = sr;
	}
	ms_dsl_prog_free(start);
	ms_ctx_mfree(s->ctx, v);
	hss_free(&h);
	return rc;
}
