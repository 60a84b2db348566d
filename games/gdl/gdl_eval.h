/* Private to games/gdl: StatGUCT's features (features.c), the functions built
 * from them (stat.c) and their refinement by SGUCT (sguct.c). */
#ifndef MS_GDL_EVAL_H
#define MS_GDL_EVAL_H

#include "gdl_internal.h"

/*
 * Candidate features. A pattern is a fluent symbol with each argument either
 * a constant of its domain or `?` (key: sym, arity, then a term id or -1 per
 * argument); its value in a state is the number of true fluents it matches.
 * A feature is a pattern, or pattern fa minus pattern fb (fb >= 0).
 */
typedef struct gdl_featset {
	const ms_gdl *g;
	int npat;
	gdl_ivec key, key_off;   /* per pattern: offset of its key in key */
	int *pf_off, *pf;        /* per pattern: the fluents it matches */
	int *fp_off, *fp;        /* per fluent: the patterns that match it */
	long nfeat;
	int *fa, *fb;
} gdl_featset;

int gdl_featset_build(ms_ctx *ctx, const ms_gdl *g, int differences, long max_features, gdl_featset **out);
void gdl_featset_free(ms_ctx *ctx, gdl_featset *fs);
/* Every pattern's count in `state` into cnt[npat]. */
void gdl_featset_counts(const gdl_featset *fs, const uint64_t *state, int *cnt);
/* Feature i's value in a state directly (without all the counts). */
int gdl_feat_value(const gdl_featset *fs, long i, const uint64_t *state);
int gdl_feat_text(const gdl_featset *fs, long i, char *buf, size_t size);

static inline int gdl_feat_from_counts(const gdl_featset *fs, long i, const int *cnt)
{
	return cnt[fs->fa[i]] - (fs->fb[i] >= 0 ? cnt[fs->fb[i]] : 0);
}

/* A ranked candidate: stability, correlation and rank score min(S, |corr|). */
typedef struct gdl_cand {
	long feat;
	double s, corr, score;
} gdl_cand;

/* One role's function: sum w[i] * feature feat[i] + c; cand: the ranked
 * candidates beyond those kept, from which SGUCT draws new features. */
typedef struct gdl_rolefn {
	int n, cap_feat, cap_w;
	long *feat;
	double *w;
	double c;
	gdl_cand *cand;
	int ncand;
} gdl_rolefn;

struct ms_gdl_eval {
	ms_ctx *ctx;
	const ms_gdl *g;
	gdl_featset *fs;
	int borrowed; /* a clone: fs belongs to the original */
	int nr;
	gdl_rolefn *fn;
};

/* Sets fn's terms to n features and weights (growing its arrays). */
int gdl_rolefn_set(ms_ctx *ctx, gdl_rolefn *fn, const long *feat, const double *w, int n);

#endif
