/* Private layout of searches (native/synth only). */
#ifndef MS_SYNTH_INTERNAL_H
#define MS_SYNTH_INTERNAL_H

#include "microsynth/synth.h"

#include "core/buf.h"
#include "core/vec.h"

/* Internal outcomes of an evaluation request, besides negative errors. */
enum syn_outcome {
	SYN_OK = 0,
	SYN_STOP = 1, /* the search ends: budget spent, time up, or the progress callback said so */
	SYN_PHASE = 2 /* the current phase (a sketch run) has spent its own budget */
};

/* Why a search ended (ms_synth.stop_reason). */
enum syn_stop_reason {
	SYN_STOP_NONE = 0,
	SYN_STOP_BUDGET = 1,    /* evaluations or time spent */
	SYN_STOP_CALLBACK = 2,  /* the progress callback asked */
	SYN_STOP_EXHAUSTED = 3  /* no fresh program left to evaluate */
};

/* What a listener hears of every fresh score (replayed or live, not cache
 * hits), in index order; a negative return stops the search with that error. */
typedef int (*syn_listener_fn)(void *ud, const ms_dsl_prog *p, int kind, double score, int failed);
#define SYN_MAX_LISTENERS 4

/* Version-2 fields of a problem, read safely from version-1 problems too. */
static inline int syn_problem_opponents(const ms_synth_problem *pb)
{
	return pb->version >= 2 ? pb->n_opponents : 0;
}
static inline int (*syn_problem_eval_vs(const ms_synth_problem *pb))(void *, void *, ms_ctx *, const ms_dsl_prog *,
									  int, int, int, uint64_t, double *, double *)
{
	return pb->version >= 2 ? pb->eval_vs : NULL;
}
/* Version-3 fields: features (0 when absent). */
static inline int syn_problem_features(const ms_synth_problem *pb)
{
	return pb->version >= 3 && pb->features && pb->feature_values ? pb->n_features : 0;
}
/* Version-4 field: the static check (NULL when absent). */
static inline int (*syn_problem_check(const ms_synth_problem *pb))(void *, const ms_dsl_prog *)
{
	return pb->version >= 4 ? pb->check : NULL;
}
static inline int syn_problem_version_ok(const ms_synth_problem *pb)
{
	return pb->version >= 1 && pb->version <= MS_SYNTH_PROBLEM_VERSION;
}
/* The evaluator's population: its size, numbers and weights. */
int syn_eval_population(const ms_synth_eval *ev, const int **ids, const double **weights);

/* ---- program -> score cache (UCT's, and SA's on request) ---- */

typedef struct syn_cache {
	ms_ctx *ctx;
	uint64_t *hash;   /* 0 marks an empty slot (real hashes of 0 are stored as 1) */
	int64_t *off;     /* into pool */
	int32_t *len;
	double *score;
	size_t cap, n;
	ms_dsl_sym *pool;
	size_t pool_n, pool_cap;
} syn_cache;

void syn_cache_init(syn_cache *c, ms_ctx *ctx);
void syn_cache_dispose(syn_cache *c);
/* 1 and *score when `p` is cached, else 0. */
int syn_cache_get(const syn_cache *c, const ms_dsl_prog *p, double *score);
int syn_cache_put(syn_cache *c, const ms_dsl_prog *p, double score);

/* ---- checkpoint log ---- */

typedef struct syn_record {
	uint64_t hash;
	double score;
	int64_t ms; /* elapsed milliseconds when it was recorded */
	int kind, failed;
} syn_record;

typedef struct syn_event {
	long long index; /* evaluations done when the phase's time ran out */
	long long checks; /* budget checks since the last evaluation at that moment */
	int64_t ms;
	int phase_id;
} syn_event;

typedef struct syn_log {
	FILE *f;
	char *path;
	MS_VEC(syn_record) rec;
	MS_VEC(syn_event) evt;
	int next_evt;
	int sync;
} syn_log;

/* ---- the search ---- */

struct ms_synth {
	ms_ctx *ctx;
	const ms_synth_problem *pb;
	ms_synth_options o;
	int start_nt;
	ms_synth_eval *ev;
	ms_jrandom rng;
	int ran;

	/* counters */
	long long next_index;       /* evaluations requested so far (both kinds): the next one's index */
	long long evals[2], hits, replayed;
	long long pending[2];       /* live evaluations gathered in the current batch, not yet accounted */
	long long checks;           /* budget checks since the last evaluation index was taken */
	long long idle;             /* UCT iterations since the last evaluation index was taken */
	int stop_asked;             /* the progress callback asked to stop */

	/* best programs */
	ms_dsl_prog *best[2];
	double best_score[2];
	int improved;
	int own_best;               /* the algorithm sets the best Psi (syn_set_best), not its luckiest score */

	/* the current phase */
	int phase;                  /* MS_SYNTH_PHASE_* */
	int phase_id;               /* which sketch run, for time events */
	long long c_limit;          /* evals[C] must stay below it (0: none) */
	double phase_deadline;      /* elapsed seconds (0: none) */
	long long sketch_c_budget;  /* resolved sketch budget in C evaluations (0: none) */
	double sketch_seconds;      /* resolved sketch budget in seconds (0: none) */

	/* time */
	double t_start;             /* monotonic clock when live evaluation began */
	double t_offset;            /* elapsed seconds already spent before that */
	int stop_reason;            /* enum syn_stop_reason */

	syn_log log;
	FILE *csv;
	syn_cache cache[2];
	char *header;               /* the checkpoint's settings lines */

	/* listeners (the algorithm's, whoever runs the search), called in the order they joined */
	struct {
		syn_listener_fn fn;
		void *ud;
	} listen[SYN_MAX_LISTENERS];
	int n_listen;

	/* batch scratch: per live evaluation (the evaluator takes programs and seeds as two arrays) */
	MS_VEC(const ms_dsl_prog *) batch;
	MS_VEC(uint64_t) seeds;
	MS_VEC(int) slot;           /* which request each live evaluation answers */
	MS_VEC(uint8_t) fresh;      /* per request: 1 if it took an evaluation index (not a cache hit) */

	ms_dsl_prog *mut_parent;    /* local mutation's copy of the program it edits (made on first use) */
};

/* ---- services (services.c): what algorithms call, one way ---- */

/* Adds a listener (0, or MS_ERANGE past SYN_MAX_LISTENERS); removes it again. */
int syn_listen(ms_synth *s, syn_listener_fn fn, void *ud);
void syn_unlisten(ms_synth *s, syn_listener_fn fn, void *ud);
/* Monotonic seconds. */
/* Called when replay ends: live time continues from the log's last time. */
void syn_start_live_clock(ms_synth *s);
/* The problem's generation options (NULL: dsl.h defaults). */
const ms_dsl_gen_options *syn_gen_opts(const ms_synth *s);
/* One CSV line of the current bests. */
int syn_csv_line(ms_synth *s, double elapsed);
/*
 * The search's best Psi is `p` with `score`, from now on set only this way:
 * for algorithms whose best is not their luckiest single score. A CSV line.
 */
int syn_set_best(ms_synth *s, const ms_dsl_prog *p, double score);
/* Elapsed seconds of the search (from the log while replaying). */
double syn_elapsed(ms_synth *s);
int syn_replaying(const ms_synth *s);

/*
 * Scores progs[0..n) of `kind` (from the cache when `use_cache`). Returns
 * 0 when all were scored, SYN_STOP or SYN_PHASE (then *n_done, a prefix,
 * got scores), or a negative error.
 */
int syn_eval(ms_synth *s, ms_dsl_prog *const *progs, int n, int kind, int use_cache, double *scores,
	     int *n_done);
/*
 * As syn_eval without the cache, program i scored on seeds[i] instead of
 * its evaluation index's seed: two programs given one seed play the same
 * matches (paired comparisons). Each score still takes an evaluation
 * index, so budgets, logs and replays count it as any other.
 */
int syn_eval_seeded(ms_synth *s, ms_dsl_prog *const *progs, int n, int kind, const uint64_t *seeds, double *scores,
		    int *n_done);
/* One program. */
int syn_eval1(ms_synth *s, ms_dsl_prog *p, int kind, int use_cache, double *score);
/* The budget check alone (for loops that may not evaluate): 0, SYN_STOP or SYN_PHASE. */
int syn_check(ms_synth *s, int kind);
/* An iteration without evaluation: 0, or SYN_PHASE / SYN_STOP once the space looks exhausted. */
#define SYN_IDLE_MAX 200000
int syn_idle(ms_synth *s);

/* Phases: set before a sketch run or the BR search. */
void syn_phase(ms_synth *s, int phase, int phase_id, long long c_limit, double deadline);

/* Programs of the search's grammar. */
int syn_prog_new(ms_synth *s, ms_dsl_prog **out);
int syn_generate(ms_synth *s, ms_dsl_prog *p);
/* rc of a problem's `hook` (generate, mutate) that filled p: an error unless p is a whole program. */
int syn_problem_gave(ms_synth *s, int rc, const ms_dsl_prog *p, const char *hook);
/* A neighbour of p, in place, as ms_synth_options.mutation says (mutate.c). */
int syn_mutate(ms_synth *s, ms_dsl_prog *p);
/* Uniform double in [0, 1). */
double syn_uniform(ms_synth *s);
int syn_below(ms_synth *s, int n);

/* ---- algorithms (algos.c: the table; sa.c, uct.c: the searches) ---- */

/* One row of the algorithm table. */
typedef struct syn_algo {
	int id;                    /* ms_synth_algo */
	const char *name;          /* as ms_synth_algo_name gives it */
	int needs_c;               /* 1: the problem must define a cloning score */
	int (*run)(ms_synth *s);   /* 0 or SYN_STOP when done, or a negative error */
	void (*setup)(ms_synth *s); /* settings derived from the options at ms_synth_new (NULL: none) */
} syn_algo;

/* The table's row of `algo`, or NULL. */
const syn_algo *syn_algo_get(int algo);

/*
 * A family of search options (SA's, UCT's, sketch learning's, HSS's), owned
 * by the file of the algorithms that read them: its defaults, its check
 * (which may look at o->algo: HSS's fields matter to HSS only), and its
 * checkpoint header lines, in the settings block (`header`) and after the
 * population line (`trailer`). ms_synth_options keeps every family's fields so
 * the public layout stays one versioned struct.
 */
typedef struct syn_opts_part {
	void (*defaults)(ms_synth_options *o);
	int (*check)(ms_ctx *ctx, const ms_synth_problem *pb, const ms_synth_options *o);
	int (*header)(ms_synth *s, ms_buf *b);
	int (*trailer)(ms_synth *s, ms_buf *b);
	const ms_synth_knob *knobs; /* the family's settings by name (synth.h), n_knobs of them */
	size_t n_knobs;
} syn_opts_part;

/* A knob's algorithm mask bit. */
#define SYN_ALGO(a) (1u << (a))

extern const syn_opts_part syn_sa_part, syn_uct_part, syn_sketch_part, syn_hss_part, syn_race_part,
	syn_mutation_part;

/* Bytes of ms_synth_options that a struct of `version` holds (mutate.c): later fields lie past its end. */
size_t syn_options_size(unsigned int version);

/* Every family in the table's order (algos.c). */
void syn_opts_defaults(ms_synth_options *o);
int syn_opts_check(ms_ctx *ctx, const ms_synth_problem *pb, const ms_synth_options *o);
int syn_opts_header(ms_synth *s, ms_buf *b, int trailer);
/* Sketch learning's budgets (sketch_c_budget, sketch_seconds) for sketch-sa and sketch-uct. */
void syn_setup_sketch_sa(ms_synth *s);
void syn_setup_sketch_uct(ms_synth *s);

/*
 * SA as a step other algorithms reuse (a best response in self-play, a
 * local search from a library program): annealing passes on `kind` from
 * `start` (NULL: a random program) until `max_passes` (0: no limit) or the
 * budget or phase ends, each pass restarting as `restart` (SYN_SA_RESTART_*).
 * The best program of these passes goes to `best` (may be NULL) and its
 * score to *best_score (-1 when nothing was scored). Returns 0 (SYN_PHASE
 * is taken as the end of the step), SYN_STOP, or a negative error.
 */
enum { SYN_SA_RESTART_START, SYN_SA_RESTART_BEST, SYN_SA_RESTART_PASS, SYN_SA_RESTART_GLOBAL_PSI };
int syn_sa_step(ms_synth *s, int kind, const ms_dsl_prog *start, int max_passes, int restart, ms_dsl_prog *best,
		double *best_score);

/* Run functions of the table's rows. Return 0 or SYN_STOP when done, or a negative error. */
int syn_run_sa(ms_synth *s);
int syn_run_sketch_sa(ms_synth *s);
int syn_run_random(ms_synth *s);
int syn_run_uct(ms_synth *s);
int syn_run_sketch_uct(ms_synth *s);
int syn_run_hss(ms_synth *s);
int syn_run_race(ms_synth *s);
/* The checkpoint header's HSS line (appended to `header` by search.c): settings and library digest. */

/* Checkpoint log (ckpt.c). */
int syn_log_open(ms_synth *s);
int syn_log_append_eval(ms_synth *s, long long index, const ms_dsl_prog *p, int kind, double score, int failed,
			int improved);
int syn_log_append_event(ms_synth *s, long long index, long long checks, int phase_id);
void syn_log_free(ms_ctx *ctx, syn_log *l);

#endif
