/*
 * microsynth bench synth --mpi: one evaluation-budgeted synthesis run with
 * 1, 2, 4 ... ranks side by side (1 rank: this binary alone; more: under
 * mpirun), each the same command, so the search time, evaluations per
 * second and rank 0's account of the messages compare directly. Every run
 * must write the same program: a difference is a determinism bug. Its
 * usage is in `microsynth bench --help` (tools/microrts/cmd_bench.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "kit/proc.h"

#define CMD "bench synth --mpi"
#define MAX_RUNS 8
#define PATH_LEN 4200

#ifdef MS_HAVE_MPI
static const int have_mpi = 1;
#else
static const int have_mpi = 0; /* mpirun would run the whole synthesis on every rank */
#endif

static const char *const default_args[] = { "--game", "microrts", "--map", "16x16/basesWorkers16x16A.xml",
					     "--opponent", "WorkerRush", "--opponent", "LightRush", "--algo", "sa",
					     "--neighbours", "4", "--evals", "600", "--seed", "4", "--no-harness" };

/* What one run measured. */
typedef struct mpi_run {
	int ranks;
	double search_s, evals;
	long long tasks;      /* tasks the ranks > 0 evaluated (0 alone) */
	double bytes, trip, eval, comm; /* per task */
	char prog[PATH_LEN], out[PATH_LEN], err[PATH_LEN], csv[PATH_LEN], pj[PATH_LEN];
} mpi_run;

typedef struct bench_opts {
	int ranks[MAX_RUNS], n_ranks;
	long threads;
	const char *mpirun, *dir;
	char **args; /* the synthesis options */
	int n_args;
	int timed;   /* --time among them: programs may differ */
} bench_opts;

/* "1,2,4" into o->ranks. */
static int parse_ranks(bench_opts *o, const char *v)
{
	o->n_ranks = 0;
	for (const char *p = v; *p;) {
		char *end;
		long r = strtol(p, &end, 10);
		if (end == p || r < 1 || r > 1024 || (*end && *end != ',') || o->n_ranks == MAX_RUNS)
			return cli_usage_error(CMD, "--ranks '%s': up to %d numbers 1 to 1024, comma-separated", v,
					       MAX_RUNS);
		o->ranks[o->n_ranks++] = (int)r;
		p = *end ? end + 1 : end;
	}
	return o->n_ranks ? CLI_OK : cli_usage_error(CMD, "--ranks is empty");
}

static int parse_opts(int argc, char **argv, bench_opts *o)
{
	*o = (bench_opts){ .ranks = { 1, 2, 4 }, .n_ranks = 3, .threads = 1, .mpirun = "mpirun" };
	o->args = (char **)default_args;
	o->n_args = (int)(sizeof default_args / sizeof *default_args);
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--mpi"))
			continue;
		if (!strcmp(a, "--")) {
			o->args = argv + i + 1;
			o->n_args = argc - i - 1;
			break;
		}
		if (!v)
			return cli_usage_error(CMD, "'%s' is not an option or lacks its value", a);
		i++;
		if (!strcmp(a, "--ranks") && parse_ranks(o, v))
			return CLI_USAGE;
		else if (!strcmp(a, "--threads") && cli_parse_int(CMD, a, v, 1, 256, &o->threads))
			return CLI_USAGE;
		else if (!strcmp(a, "--mpirun"))
			o->mpirun = v;
		else if (!strcmp(a, "--dir"))
			o->dir = v;
		else if (strcmp(a, "--ranks") && strcmp(a, "--threads"))
			return cli_usage_error(CMD, "unknown option '%s'", a);
	}
	for (int i = 0; i < o->n_args; i++)
		o->timed |= !strcmp(o->args[i], "--time");
	return CLI_OK;
}

/* Runs argv with stdout and stderr into files; the exit status (-1 when it could not start). */
static int spawn(char **argv, const char *out, const char *err)
{
	const proc_io io = { .out = PROC_FILE, .out_path = out, .err = PROC_FILE, .err_path = err };
	pid_t pid;

	if (proc_spawn(argv, &io, &pid, NULL)) {
		fprintf(stderr, "microsynth %s: cannot run %s: %s\n", CMD, argv[0], strerror(errno));
		return -1;
	}
	return proc_wait(pid, -1);
}

/* A small file's text (NULL when unreadable); the caller frees it. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	long n;

	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (s = malloc((size_t)n + 1)))
		s[fread(s, 1, (size_t)n, f)] = 0;
	if (f)
		fclose(f);
	return s;
}

/* The search's seconds and Psi evaluations from the CSV log's last line (elapsed,psi,c,evals_psi,...). */
static int read_csv(mpi_run *r)
{
	char *s = slurp(r->csv), *end = NULL;
	int ok = 0;
	if (s) {
		size_t n = strlen(s);
		while (n > 0 && s[n - 1] == '\n')
			s[--n] = 0;
		char *line = strrchr(s, '\n'), *p;
		line = line ? line + 1 : s;
		r->search_s = strtod(line, &end);
		p = end != line ? line : NULL;
		for (int k = 0; k < 3 && p && (p = strchr(p, ',')); k++)
			p++;
		if (p) {
			r->evals = strtod(p, &end);
			ok = end != p;
		}
	}
	free(s);
	return ok ? 0 : -1;
}

/* Rank 0's closing line on stderr (absent with one rank). */
static void read_mpi_line(mpi_run *r)
{
	char *s = slurp(r->err);
	const char *m = s ? strstr(s, "MPI: ") : NULL;
	int size, last, slots, most;
	if (!m || sscanf(m,
			 "MPI: %d ranks; ranks 1-%d evaluated %lld tasks in %d slots, at most %d at once on one rank; "
			 "per task %lf bytes, %lf us round trip, %lf us evaluating, %lf us communicating",
			 &size, &last, &r->tasks, &slots, &most, &r->bytes, &r->trip, &r->eval, &r->comm) != 9)
		r->tasks = -1;
	free(s);
}

/* The program file's text but for the lines that differ between equal runs (command line, elapsed time). */
static char *program_text(const char *path)
{
	char *s = slurp(path);
	if (!s)
		return NULL;
	char *w = s;
	for (char *line = s; *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
		int skip = !strncmp(line, "# command: ", 11);
		for (size_t i = 0; !skip && i + 7 <= len; i++)
			skip = !strncmp(line + i, "elapsed", 7);
		if (!skip) {
			memmove(w, line, len);
			w += len;
		}
		line += len;
	}
	*w = 0;
	return s;
}

/* One run with r->ranks ranks; 0, or -1 after saying why. */
static int run_one(const bench_opts *o, const char *exe, mpi_run *r)
{
	char np[16], threads[16];
	char **argv = calloc((size_t)o->n_args + 20, sizeof *argv);
	int n = 0;
	if (!argv)
		return -1;
	snprintf(np, sizeof np, "%d", r->ranks);
	snprintf(threads, sizeof threads, "%ld", o->threads);
	if (r->ranks > 1) {
		argv[n++] = (char *)o->mpirun;
		argv[n++] = "--oversubscribe";
		argv[n++] = "-np";
		argv[n++] = np;
	}
	argv[n++] = (char *)exe;
	argv[n++] = "synth";
	for (int i = 0; i < o->n_args; i++)
		argv[n++] = o->args[i];
	char *tail[] = { "--threads", threads, "--no-progress", "--csv", r->csv, "-o", r->prog, "--progress-json", r->pj };
	for (size_t i = 0; i < sizeof tail / sizeof *tail; i++)
		argv[n++] = tail[i];
	int rc = spawn(argv, r->out, r->err);
	free(argv);
	if (rc != 0) {
		char *err = slurp(r->err);
		fprintf(stderr, "microsynth %s: %d ranks: %s exited with %d%s%s\n", CMD, r->ranks,
			r->ranks > 1 ? o->mpirun : "microsynth synth", rc, err && *err ? ":\n" : "", err ? err : "");
		free(err);
		return -1;
	}
	if (read_csv(r) < 0) {
		fprintf(stderr, "microsynth %s: %d ranks: no evaluations in the CSV log %s\n", CMD, r->ranks, r->csv);
		return -1;
	}
	r->tasks = 0;
	if (r->ranks > 1)
		read_mpi_line(r);
	if (r->tasks < 0) {
		fprintf(stderr, "microsynth %s: %d ranks: rank 0 did not account for the other ranks "
				"(a microsynth without MPI under %s?)\n", CMD, r->ranks, o->mpirun);
		return -1;
	}
	return 0;
}

/* One row of the table; per evaluation: the tasks that travelled over the evaluations. */
static void print_row(const mpi_run *r, const mpi_run *first, long threads)
{
	double eps = r->search_s > 0 ? r->evals / r->search_s : 0, eps1 = first->search_s > 0 ? first->evals / first->search_s : 0;
	printf("%d %ld %.3f %.0f %.1f %.2f", r->ranks, threads, r->search_s, r->evals, eps, eps1 > 0 ? eps / eps1 : 0);
	if (r->ranks > 1 && r->evals > 0) {
		double per = (double)r->tasks / r->evals;
		printf(" %lld %.0f %.1f %.1f %.1f %.0f %.1f\n", r->tasks, r->bytes, r->trip, r->eval, r->comm,
		       r->bytes * per, r->comm * per);
	} else {
		printf(" - - - - - - -\n");
	}
	fflush(stdout);
}

int cmd_bench_synth_mpi(int argc, char **argv)
{
	bench_opts o;
	char dir[4096], exe[PATH_LEN];
	static mpi_run run[MAX_RUNS]; /* 4 paths each: too big for the stack */
	int rc = parse_opts(argc, argv, &o), same = 1;
	if (rc != CLI_OK)
		return rc;
	if (!have_mpi) {
		fprintf(stderr, "microsynth %s: this microsynth was built without MPI (install libopenmpi-dev, rebuild)\n",
			CMD);
		return CLI_FAIL;
	}
	if (cli_exe_dir(dir, sizeof dir) < 0) {
		fprintf(stderr, "microsynth %s: cannot find this binary's path\n", CMD);
		return CLI_FAIL;
	}
	snprintf(exe, sizeof exe, "%s/microsynth", dir);
	if (o.dir) {
		snprintf(dir, sizeof dir, "%s", o.dir);
	} else {
		const char *tmp = getenv("TMPDIR");
		snprintf(dir, sizeof dir, "%s/microsynth-bench-mpi-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(dir)) {
			fprintf(stderr, "microsynth %s: cannot make a directory %s: %s\n", CMD, dir, strerror(errno));
			return CLI_FAIL;
		}
	}
	/* Open MPI refuses root without these (containers and CI run as root); other MPIs ignore them */
	setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
	setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
	printf("ranks threads search_s evals evals_s speedup tasks_remote bytes_task us_task_trip us_task_eval "
	       "us_task_comm bytes_eval us_eval_comm\n");
	char *first = NULL;
	int done = 0, made = 0; /* runs ended well; runs that may have left files */
	for (; done < o.n_ranks; done++) {
		mpi_run *r = &run[done];
		memset(r, 0, sizeof *r);
		r->ranks = o.ranks[done];
		snprintf(r->prog, sizeof r->prog, "%s/run%d-ranks%d.ms", dir, done, r->ranks);
		snprintf(r->out, sizeof r->out, "%s/run%d-ranks%d.out", dir, done, r->ranks);
		snprintf(r->err, sizeof r->err, "%s/run%d-ranks%d.err", dir, done, r->ranks);
		snprintf(r->csv, sizeof r->csv, "%s/run%d-ranks%d.csv", dir, done, r->ranks);
		snprintf(r->pj, sizeof r->pj, "%s/run%d-ranks%d.progress.jsonl", dir, done, r->ranks);
		/* the run can be watched: microsynth view --follow CSV --follow PROGRESS (per rank's tasks) */
		fprintf(stderr, "microsynth %s: run %d, %d ranks: progress in %s and %s\n", CMD, done, r->ranks, r->csv,
			r->pj);
		made = done + 1;
		if (run_one(&o, exe, r) < 0) {
			rc = CLI_FAIL;
			break;
		}
		print_row(r, &run[0], o.threads);
		char *text = program_text(r->prog);
		same &= text && (!first || !strcmp(text, first));
		if (first)
			free(text);
		else
			first = text;
	}
	free(first);
	if (rc == CLI_OK) {
		const mpi_run *a = &run[0], *z = &run[done - 1];
		double sp = a->evals > 0 && z->search_s > 0 ? (z->evals / z->search_s) / (a->evals / a->search_s) : 0;
		printf("same_program=%s speedup=%.2f ranks=", same ? "yes" : "no", sp);
		for (int i = 0; i < o.n_ranks; i++)
			printf("%s%d", i ? "," : "", o.ranks[i]);
		printf(" threads=%ld\n", o.threads);
		if (!same && !o.timed) {
			fprintf(stderr, "microsynth %s: the runs wrote different programs (an evaluation budget must not)\n", CMD);
			rc = CLI_FAIL;
		}
	}
	if (!o.dir)
		for (int i = 0; i < made; i++) {
			const mpi_run *r = &run[i];
			const char *files[] = { r->prog, r->out, r->err, r->csv, r->pj };
			for (int k = 0; k < 5; k++)
				unlink(files[k]);
		}
	if (!o.dir && rmdir(dir) < 0)
		fprintf(stderr, "microsynth %s: %s left behind: %s\n", CMD, dir, strerror(errno));
	return rc;
}
