/*
 * Helpers the microsynth subcommands share: usage errors and option values,
 * the clock, file lists, the harness cache, microsynth-harness.jar and
 * running its Java runners. No command calls into another command's file.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "core/vec.h"
#include "cli.h"
#include "kit/proc.h"

int cli_is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

typedef struct paths {
	char **v;
	size_t n;
	int cap;
} paths;

static int add_path(paths *p, const char *s)
{
	if (ms_vec_grow(NULL, (void **)&p->v, &p->cap, (long long)p->n + 1, sizeof *p->v) < 0)
		return -1;
	p->v[p->n] = strdup(s);
	return p->v[p->n++] ? 0 : -1;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collects files under `path` ending in one of two suffixes, in a stable
 * (sorted) order; a path named directly is taken whatever its name. */
static int collect(paths *out, const char *path, int top, const char *suf1, const char *suf2)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	paths sub = { 0 };
	int rc = 0;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "microsynth: %s: no such file or directory\n", path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (top || has_suffix(path, suf1) || has_suffix(path, suf2))
			return add_path(out, path);
		return 0;
	}
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "microsynth: %s: cannot read directory\n", path);
		return -1;
	}
	while ((e = readdir(d))) {
		char buf[4096];
		if (e->d_name[0] == '.')
			continue;
		snprintf(buf, sizeof(buf), "%s/%s", path, e->d_name);
		if (add_path(&sub, buf)) {
			rc = -1;
			break;
		}
	}
	closedir(d);
	qsort(sub.v, sub.n, sizeof(*sub.v), cmp_str);
	for (size_t i = 0; i < sub.n; i++) {
		if (rc == 0)
			rc = collect(out, sub.v[i], 0, suf1, suf2);
		free(sub.v[i]);
	}
	free(sub.v);
	return rc;
}

double cli_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double cli_thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cli_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double cli_median(double *v, int n)
{
	if (n <= 0)
		return 0;
	qsort(v, (size_t)n, sizeof *v, cli_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int cli_collect_files(char ***out, size_t *n, int argc, char **argv, int first, const char *suf1,
		      const char *suf2)
{
	paths files = { 0 };

	for (int i = first; i < argc; i++) {
		if (collect(&files, argv[i], 1, suf1, suf2)) {
			for (size_t k = 0; k < files.n; k++)
				free(files.v[k]);
			free(files.v);
			return -1;
		}
	}
	*out = files.v;
	*n = files.n;
	return 0;
}


/* The map as a path, else in the harness cache as given, else under maps/. */
int cli_resolve_map(const char *map, char *out, size_t size)
{
	char dir[4096];

	if (cli_is_file(map)) {
		snprintf(out, size, "%s", map);
		return 0;
	}
	if (cli_harness_dir(dir, sizeof(dir)))
		return -1;
	if ((size_t)snprintf(out, size, "%s/%s", dir, map) < size && cli_is_file(out))
		return 0;
	if ((size_t)snprintf(out, size, "%s/maps/%s", dir, map) < size && cli_is_file(out))
		return 0;
	return -1;
}

int cli_harness_dir(char *out, size_t size)
{
	const char *env = getenv("MICROSYNTH_HARNESS");
	const char *home = getenv("HOME");
	int n;

	if (env && *env)
		n = snprintf(out, size, "%s", env);
	else if (home && *home)
		n = snprintf(out, size, "%s/.cache/microsynth/harness", home);
	else
		return -1;
	return n > 0 && (size_t)n < size ? 0 : -1;
}

int cli_exe_dir(char *out, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", out, size - 1);
	char *slash;

	if (n <= 0 || (size_t)n >= size - 1)
		return -1;
	out[n] = '\0';
	slash = strrchr(out, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

int cli_shared_path(const char *sub, char *out, size_t size)
{
	static const char *const rel[] = { "/../../../shared/", "/../../shared/" };
	const char *env = getenv("MS_SHARED_DIR");
	char exe[4096], first[4096] = "";
	struct stat st;

	if (env && *env) {
		snprintf(first, sizeof first, "%s/%s", env, sub);
		if (!stat(first, &st)) {
			snprintf(out, size, "%s", first);
			return 0;
		}
	}
	if (!cli_exe_dir(exe, sizeof exe)) {
		for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
			snprintf(out, size, "%s%s%s", exe, rel[i], sub);
			if (!stat(out, &st))
				return 0;
			if (!*first)
				snprintf(first, sizeof first, "%s", out);
		}
	}
	snprintf(out, size, "%s", first);
	return -1;
}

int cli_find_tools_jar(char *out, size_t size)
{
	const char *env = getenv("MICROSYNTH_JAVA_DIR");
	char dir[4096];
	/* Build tree (bin/ beside java/), then an install prefix. */
	static const char *const rel[] = { "/../java/microsynth-harness.jar",
					   "/../share/microsynth/microsynth-harness.jar" };

	if (env && *env) {
		snprintf(out, size, "%s/microsynth-harness.jar", env);
		return cli_is_file(out) ? 0 : -1;
	}
	if (cli_exe_dir(dir, sizeof(dir)))
		return -1;
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(out, size, "%s%s", dir, rel[i]);
		if (cli_is_file(out))
			return 0;
	}
	return -1;
}

int cli_run_java(const char *cmd, const char *main_class, const char *const *extra, int nextra, int headless)
{
	char dir[4096], jar[4200];
	const char *java_home = getenv("JAVA_HOME");
	char java[4200] = "java";
	const char **args;
	int n = 0, rc;
	pid_t pid;

	if (cli_harness_dir(dir, sizeof(dir)))
		return cli_usage_error(cmd, "set MICROSYNTH_HARNESS or HOME");
	snprintf(jar, sizeof(jar), "%s/microrts.jar", dir);
	if (!cli_is_file(jar)) {
		fprintf(stderr, "microsynth %s: no harness in %s; run tools/setup.sh\n", cmd, dir);
		return CLI_USAGE;
	}
	if (cli_find_tools_jar(jar, sizeof(jar))) {
		fprintf(stderr, "microsynth %s: microsynth-harness.jar not found beside this binary "
				"(build with -DMS_JAVA=ON or set MICROSYNTH_JAVA_DIR)\n", cmd);
		return CLI_USAGE;
	}
	if (java_home && *java_home)
		snprintf(java, sizeof(java), "%s/bin/java", java_home);
	args = calloc((size_t)nextra + 8, sizeof(*args));
	if (!args)
		return CLI_FAIL;
	args[n++] = java;
	args[n++] = headless ? "-Djava.awt.headless=true" : "-Djava.awt.headless=false";
	args[n++] = "-cp";
	args[n++] = jar;
	args[n++] = main_class;
	args[n++] = "--harness";
	args[n++] = dir;
	for (int i = 0; i < nextra; i++)
		args[n++] = extra[i];
	args[n] = NULL;
	if (proc_spawn((char *const *)args, NULL, &pid, NULL)) {
		fprintf(stderr, "microsynth %s: cannot run %s: %s\n", cmd, args[0], strerror(errno));
		free(args);
		return CLI_FAIL;
	}
	free(args);
	rc = proc_wait(pid, -1);
	return rc < 0 || rc >= 128 ? CLI_FAIL : rc;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "microsynth%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'microsynth %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
	return CLI_USAGE;
}

char *cli_read_text(const char *cmd, const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *t = NULL;
	long n = -1;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n > (16L << 20) || fseek(f, 0, SEEK_SET) ||
	    !(t = malloc((size_t)n + 1)) || fread(t, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "microsynth %s: cannot read %s%s\n", cmd, path, n > (16L << 20) ? " (over 16 MiB)" : "");
		free(t);
		t = NULL;
	} else {
		t[n] = 0;
		if (len)
			*len = (size_t)n;
	}
	if (f)
		fclose(f);
	return t;
}

int cli_parse_int(const char *cmd, const char *opt, const char *val, long min, long max, long *out)
{
	char *end;
	long v;

	if (!val || !*val) {
		cli_usage_error(cmd, "%s needs a value", opt);
		return -1;
	}
	v = strtol(val, &end, 10);
	if (*end || v < min || v > max) {
		cli_usage_error(cmd, "%s: '%s' is not an integer in [%ld, %ld]", opt, val, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_parse_real(const char *cmd, const char *opt, const char *val, double min, double max, int open_min,
		   double *out)
{
	char *end;
	double v;

	if (!val || !*val) {
		cli_usage_error(cmd, "%s needs a value", opt);
		return -1;
	}
	errno = 0;
	v = strtod(val, &end);
	if (end == val || *end || errno || !(open_min ? v > min : v >= min) || !(v <= max)) {
		cli_usage_error(cmd, "%s: '%s' is not a number in %c%g, %g]", opt, val, open_min ? '(' : '[', min, max);
		return -1;
	}
	*out = v;
	return 0;
}
