/*
 * Random programs and the local-search neighbourhood. Games with their own
 * sampling rules (MicroRTS's size budget) install samplers per
 * non-terminal; everything else uses the default below.
 */
#include "dsl_internal.h"
#include "core/opts.h"

struct ms_dsl_gen {
	ms_dsl_prog *p;
	ms_jrandom *rng;
	ms_dsl_gen_options opts;
	int start; /* p->n when generation began, for the node cap */
};

ms_jrandom *ms_dsl_gen_rng(ms_dsl_gen *gen) { return gen->rng; }
const ms_dsl_grammar *ms_dsl_gen_grammar(ms_dsl_gen *gen) { return gen->p->g; }

int ms_dsl_gen_emit(ms_dsl_gen *gen, ms_dsl_sym sym)
{
	if (gen->p->n - gen->start >= gen->opts.max_nodes)
		return ms_ctx_error(gen->p->ctx, MS_ERANGE, "program generation: more than %d nodes",
				    gen->opts.max_nodes);
	return ms_dsl_prog_push(gen->p, sym);
}

static int draw(ms_dsl_gen *gen, int bound, int *out)
{
	int32_t v;
	int rc = ms_jrandom_next_int_bounded(gen->rng, bound, &v);
	if (rc < 0)
		return ms_ctx_error(gen->p->ctx, rc, "program generation: bad bound %d", bound);
	*out = v;
	return 0;
}

int ms_dsl_gen_default(ms_dsl_gen *gen, int nt, int budget, int depth)
{
	const ms_dsl_grammar *g = gen->p->g;
	const dsl_nt *d = &g->nts[nt];
	const uint16_t *set = d->alts;
	int n = d->n_alts;
	if (depth >= gen->opts.max_depth) {
		if (d->n_leaves)
			set = d->leaves, n = d->n_leaves;
		else if (d->n_unary)
			set = d->unary, n = d->n_unary;
	}
	int total = 0;
	for (int a = 0; a < n; a++)
		total += g->prods[set[a]].weight;
	int r, rc = draw(gen, total, &r);
	if (rc < 0)
		return rc;
	int a = 0;
	while (r >= g->prods[set[a]].weight)
		r -= g->prods[set[a++]].weight;
	const dsl_prod *prod = &g->prods[set[a]];
	if ((rc = ms_dsl_gen_emit(gen, set[a])) < 0)
		return rc;
	for (int k = 0; k < prod->arity; k++)
		if ((rc = ms_dsl_gen_sample(gen, prod->child[k], budget, depth + 1)) < 0)
			return rc;
	return 0;
}

int ms_dsl_gen_sample(ms_dsl_gen *gen, int nt, int budget, int depth)
{
	const dsl_nt *d = &gen->p->g->nts[nt];
	if (depth > 4096)
		return ms_ctx_error(gen->p->ctx, MS_ERANGE, "program generation: deeper than 4096");
	if (d->sampler)
		return d->sampler(gen, nt, budget, depth, d->user);
	return ms_dsl_gen_default(gen, nt, budget, depth);
}

static void gen_init(ms_dsl_gen *gen, ms_dsl_prog *p, ms_jrandom *rng, const ms_dsl_gen_options *opts)
{
	gen->p = p;
	gen->rng = rng;
	if (opts && opts->version == MS_DSL_GEN_OPTIONS_VERSION)
		gen->opts = *opts;
	else
		gen->opts = (ms_dsl_gen_options){ .version = MS_DSL_GEN_OPTIONS_VERSION };
	if (gen->opts.max_depth <= 0)
		gen->opts.max_depth = 4;
	if (gen->opts.max_nodes <= 0)
		gen->opts.max_nodes = 10000;
	gen->start = p->n;
}

int ms_dsl_generate(ms_dsl_prog *p, int nt, ms_jrandom *rng, const ms_dsl_gen_options *opts)
{
	if (opts && opts->version != MS_DSL_GEN_OPTIONS_VERSION)
		return ms_ctx_error(p->ctx, MS_EINVAL, "program generation: unknown options version");
	if (nt < 0 || nt >= p->g->n_nts)
		return ms_ctx_error(p->ctx, MS_EINVAL, "program generation: no non-terminal %d", nt);
	ms_dsl_prog_clear(p);
	ms_dsl_gen gen;
	gen_init(&gen, p, rng, opts);
	int rc = ms_dsl_gen_sample(&gen, nt, gen.opts.budget, 0);
	if (rc == 0)
		rc = ms_dsl_prog_finish(p, nt);
	if (rc < 0)
		ms_dsl_prog_clear(p);
	return rc;
}

int ms_dsl_regenerate(ms_dsl_prog *p, int i, ms_jrandom *rng, const ms_dsl_gen_options *opts)
{
	if (p->nt < 0 || i < 0 || i >= p->n)
		return ms_ctx_error(p->ctx, MS_EINVAL, "program regenerate: node %d of an unfinished or shorter program",
				    i);
	ms_dsl_prog *sub;
	int rc = ms_dsl_prog_new(p->ctx, &sub, p->g);
	if (rc < 0)
		return rc;
	if ((rc = ms_dsl_generate(sub, ms_dsl_node_nt(p, i), rng, opts)) == 0)
		rc = ms_dsl_replace(p, i, sub, 0);
	ms_dsl_prog_free(sub);
	return rc;
}

int ms_dsl_mutate(ms_dsl_prog *p, ms_jrandom *rng, const ms_dsl_gen_options *opts, int all_nodes, int *at)
{
	if (p->nt < 0)
		return ms_ctx_error(p->ctx, MS_EINVAL, "program mutate: program not finished");
	int n = 0;
	for (int i = 0; i < p->n; i++)
		n += all_nodes || ms_dsl_is_hole(p->node[i]) || p->g->prods[p->node[i]].size > 0;
	if (n == 0)
		return ms_ctx_error(p->ctx, MS_EINVAL, "program mutate: no node may be mutated");
	int32_t r;
	int rc = ms_jrandom_next_int_bounded(rng, n, &r);
	if (rc < 0)
		return ms_ctx_error(p->ctx, rc, "program mutate: bad bound");
	int i = 0;
	for (;; i++)
		if ((all_nodes || ms_dsl_is_hole(p->node[i]) || p->g->prods[p->node[i]].size > 0) && r-- == 0)
			break;
	if (at)
		*at = i;
	return ms_dsl_regenerate(p, i, rng, opts);
}

int ms_dsl_gen_options_init(ms_dsl_gen_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_DSL_GEN_OPTIONS_VERSION);
}
