/*
 * The JVM the benchmarks compare against: one `java` child with the
 * harness's class path (microrts.jar, the bots' jars, a TMA build the user
 * named) and this project's runners, its stdout on a pipe. Shared by
 * `bench engine`, `bench bots` and `bench fair`, as is the name of the map
 * a trace belongs to.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "kit/proc.h"

/*
 * Starts `java -cp <tools jar>:microrts.jar CLASS ARGS...` with its stdout
 * on a pipe; returns the read end, or NULL (with a message) on failure.
 */
FILE *bench_java_open(const char *main_class, const char *const *extra, int nextra, pid_t *pid)
{
	char dir[4096], jar[4200], cp[16384];
	static const proc_io io = { .out = PROC_PIPE };
	const char **args;
	FILE *in;
	int fd, rc, n = 0;

	if (cli_harness_dir(dir, sizeof(dir)) || cli_find_tools_jar(jar, sizeof(jar))) {
		fprintf(stderr, "microsynth bench: needs the harness (tools/setup.sh) and microsynth-harness.jar\n");
		return NULL;
	}
	/* Coac.jar after microrts.jar (the flat arrangement, docs/harness.md) for ai.coac.CoacAI; mayariBot.mayari;
	 * a TMA jar the user built ($MICROSYNTH_TMA, docs/harness.md section 11) last */
	const char *tma = getenv("MICROSYNTH_TMA");
	struct stat st;
	int tma_dir = tma && *tma && stat(tma, &st) == 0 && S_ISDIR(st.st_mode);
	snprintf(cp, sizeof(cp), "%s:%s/microrts.jar:%s/lib/bots/Coac.jar:%s/lib/bots/mayariBot.jar%s%s%s", jar, dir,
		 dir, dir, tma && *tma ? ":" : "", tma && *tma ? tma : "", tma_dir ? "/*" : "");
	args = calloc((size_t)nextra + 5, sizeof(*args));
	if (!args)
		return NULL;
	args[n++] = "java";
	args[n++] = "-cp";
	args[n++] = cp;
	args[n++] = main_class;
	for (int i = 0; i < nextra; i++)
		args[n++] = extra[i];
	args[n] = NULL;
	rc = proc_spawn((char *const *)args, &io, pid, &fd);
	free(args);
	if (rc) {
		fprintf(stderr, "microsynth bench: cannot start java: %s\n", strerror(errno));
		return NULL;
	}
	in = fdopen(fd, "r");
	if (!in) {
		close(fd);
		proc_kill(*pid);
	}
	return in;
}

/* Closes the pipe and waits; 0 when the JVM exited cleanly. */
int bench_java_close(FILE *in, pid_t pid)
{
	if (in)
		fclose(in);
	return proc_wait(pid, -1) == 0 ? 0 : -1;
}

void bench_trace_map(const char *path, char *out, size_t size)
{
	const char *p = strstr(path, "/traces/");

	snprintf(out, size, "%s", p ? p + 8 : path);
	for (int k = 0; k < 2; k++) { /* drop the file and the bot's folder */
		char *slash = strrchr(out, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	if (!*out)
		snprintf(out, size, "%s", path);
}
