/*
 * microsynth harness: where the official MicroRTS harness is cached, and
 * microsynth match: one official headless match through the Java runner.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

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

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
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
		return is_file(out) ? 0 : -1;
	}
	if (cli_exe_dir(dir, sizeof(dir)))
		return -1;
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(out, size, "%s%s", dir, rel[i]);
		if (is_file(out))
			return 0;
	}
	return -1;
}

void cmd_harness_usage(FILE *out)
{
	fprintf(out, "Usage: microsynth harness\n\n"
		     "Prints where the official harness is cached ($MICROSYNTH_HARNESS or\n"
		     "~/.cache/microsynth/harness) and what tools/setup.sh recorded about it.\n"
		     "Last line: harness=DIR version=V ok=0|1. Exit 1 when it is missing.\n");
}

int cmd_harness(int argc, char **argv)
{
	char dir[4096], path[4200], line[512];
	char version[64] = "unknown";
	FILE *f;
	int ok;

	if (argc > 1)
		return cli_usage_error("harness", "unexpected argument '%s'", argv[1]);
	if (cli_harness_dir(dir, sizeof(dir)))
		return cli_usage_error("harness", "set MICROSYNTH_HARNESS or HOME");
	snprintf(path, sizeof(path), "%s/microrts.jar", dir);
	ok = is_file(path);
	snprintf(path, sizeof(path), "%s/HARNESS", dir);
	f = fopen(path, "r");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			fputs(line, stdout);
			if (!strncmp(line, "version=", 8)) {
				size_t k = strcspn(line + 8, "\r\n");
				if (k >= sizeof(version))
					k = sizeof(version) - 1;
				memcpy(version, line + 8, k);
				version[k] = '\0';
			}
		}
		fclose(f);
	} else {
		ok = 0;
	}
	if (!ok)
		fprintf(stderr, "microsynth harness: no harness in %s; run tools/setup.sh\n", dir);
	printf("harness=%s version=%s ok=%d\n", dir, version, ok);
	return ok ? CLI_OK : CLI_FAIL;
}

static int has_opt(int argc, char **argv, const char *opt)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], opt))
			return 1;
	return 0;
}

void cmd_match_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth match [--map MAP] [--p0 AI] [--p1 AI] [--utt 1|2|3]\n"
		"                        [--max-cycles N] [--conflict 1|2|3] [--partially-observable]\n\n"
		"Plays one official headless match in the Java harness (microrts.jar)\n"
		"through ai.microsynth.harness.Match. MAP is a path or a name inside the\n"
		"harness maps/ (default 8x8/basesWorkers8x8A.xml); AI is a Java class,\n"
		"short names allowed (default WorkerRush vs LightRush).\n"
		"Last line: winner=W cycles=C (W: 0, 1, or -1 for a draw).\n");
}

int cmd_match(int argc, char **argv)
{
	char dir[4096], jar[4200], cp[16384];
	const char *java_home = getenv("JAVA_HOME");
	char java[4200] = "java";
	const char *args[64];
	int n = 0, status;
	pid_t pid;

	/* Validate here so usage errors do not cost a JVM start. */
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		long v;
		if (!strcmp(o, "--partially-observable"))
			continue;
		if (strcmp(o, "--map") && strcmp(o, "--p0") && strcmp(o, "--p1") && strcmp(o, "--utt") &&
		    strcmp(o, "--max-cycles") && strcmp(o, "--conflict"))
			return cli_usage_error("match", "unknown option '%s'", o);
		if (i + 1 >= argc)
			return cli_usage_error("match", "%s needs a value", o);
		if (!strcmp(o, "--max-cycles") && cli_parse_int("match", o, argv[i + 1], 1, 100000000, &v))
			return CLI_USAGE;
		if (!strcmp(o, "--utt") && cli_parse_int("match", o, argv[i + 1], 1, 3, &v))
			return CLI_USAGE;
		if (!strcmp(o, "--conflict") && cli_parse_int("match", o, argv[i + 1], 1, 3, &v))
			return CLI_USAGE;
		i++;
	}
	if (argc > 40)
		return cli_usage_error("match", "too many arguments");
	if (cli_harness_dir(dir, sizeof(dir)))
		return cli_usage_error("match", "set MICROSYNTH_HARNESS or HOME");
	snprintf(jar, sizeof(jar), "%s/microrts.jar", dir);
	if (!is_file(jar)) {
		fprintf(stderr, "microsynth match: no harness in %s; run tools/setup.sh\n", dir);
		return CLI_USAGE;
	}
	if (cli_find_tools_jar(jar, sizeof(jar))) {
		fprintf(stderr, "microsynth match: microsynth-harness.jar not found beside this binary "
				"(build with -DMS_JAVA=ON or set MICROSYNTH_JAVA_DIR)\n");
		return CLI_USAGE;
	}
	if (java_home && *java_home)
		snprintf(java, sizeof(java), "%s/bin/java", java_home);
	/* The runner builds its own class loader from the harness: microrts.jar
	 * first, then the bot jars in gym-microrts order (docs/harness.md). */
	snprintf(cp, sizeof(cp), "%s", jar);
	args[n++] = java;
	args[n++] = "-Djava.awt.headless=true";
	args[n++] = "-cp";
	args[n++] = cp;
	args[n++] = "ai.microsynth.harness.Match";
	args[n++] = "--harness";
	args[n++] = dir;
	for (int i = 1; i < argc; i++)
		args[n++] = argv[i];
	/* The small default of the README's main job. */
	if (!has_opt(argc, argv, "--map")) {
		args[n++] = "--map";
		args[n++] = "8x8/basesWorkers8x8A.xml";
	}
	if (!has_opt(argc, argv, "--p0")) {
		args[n++] = "--p0";
		args[n++] = "WorkerRush";
	}
	if (!has_opt(argc, argv, "--p1")) {
		args[n++] = "--p1";
		args[n++] = "LightRush";
	}
	args[n] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "microsynth match: fork: %s\n", strerror(errno));
		return CLI_FAIL;
	}
	if (pid == 0) {
		execvp(args[0], (char *const *)args);
		fprintf(stderr, "microsynth match: cannot run %s: %s\n", args[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return CLI_FAIL;
	if (WIFEXITED(status))
		return WEXITSTATUS(status) == 127 ? CLI_FAIL : WEXITSTATUS(status);
	return CLI_FAIL;
}
