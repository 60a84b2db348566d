/*
 * microsynth package: what a MicroRTS competition submission needs, in one
 * folder: the drop-in jar (bot class, native library and shipped programs
 * inside), a README naming the class and its constructors, and a copy of
 * the program index so a reader can see which maps have their own program.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zip.h>

#include "cli.h"

void cmd_package_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth package -o DIR [--jar FILE] [--force]\n\n"
		"Writes a competition submission into DIR: microsynth.jar (the drop-in bot\n"
		"ai.microsynth.MicrosynthAI with its native library and the shipped programs),\n"
		"README.md (the class, its constructors, how a harness loads it, what the\n"
		"programs index says) and index.txt (that index). The jar is the one built\n"
		"beside this binary, or $MICROSYNTH_JAR, or --jar FILE; it is checked to hold\n"
		"the bot class, a native library and programs/index.txt. DIR must be empty or\n"
		"absent unless --force. Last line:\n"
		"package=DIR/microsynth.jar bytes=B map_keys=K near=N trained=T\n");
}

/* microsynth.jar: --jar, $MICROSYNTH_JAR, else beside the runners' jar. */
static int find_jar(const char *given, char *out, size_t size)
{
	const char *env = getenv("MICROSYNTH_JAR");
	char tools[4200];

	if (given) {
		snprintf(out, size, "%s", given);
		return cli_is_file(out) ? 0 : -1;
	}
	if (env && *env) {
		snprintf(out, size, "%s", env);
		return cli_is_file(out) ? 0 : -1;
	}
	if (cli_find_tools_jar(tools, sizeof(tools)))
		return -1;
	char *slash = strrchr(tools, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	snprintf(out, size, "%s/microsynth.jar", tools);
	return cli_is_file(out) ? 0 : -1;
}

/* Reads one entry of an open archive into a NUL-terminated buffer. */
static char *read_entry(zip_t *z, const char *name, size_t *len)
{
	zip_stat_t st;
	zip_file_t *f;
	char *buf;

	if (zip_stat(z, name, 0, &st) || !(st.valid & ZIP_STAT_SIZE) || st.size > (64u << 20))
		return NULL;
	if (!(f = zip_fopen(z, name, 0)))
		return NULL;
	buf = malloc((size_t)st.size + 1);
	if (buf && zip_fread(f, buf, st.size) != (zip_int64_t)st.size) {
		free(buf);
		buf = NULL;
	}
	zip_fclose(f);
	if (buf) {
		buf[st.size] = '\0';
		*len = (size_t)st.size;
	}
	return buf;
}

static int has_entry(zip_t *z, const char *name)
{
	return zip_name_locate(z, name, 0) >= 0;
}

static int dir_is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return 0;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

static int write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	if (fwrite(data, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

/* Counts the index's lines by key kind, and lists its programs. */
typedef struct {
	int keys, near, trained;
	char def[256];
} index_facts;

static void read_index(const char *text, index_facts *f, FILE *list)
{
	char line[2048];
	const char *p = text;

	memset(f, 0, sizeof(*f));
	snprintf(f->def, sizeof(f->def), "LightRush (no default line)");
	while (*p) {
		size_t n = strcspn(p, "\n");
		size_t m = n < sizeof(line) - 1 ? n : sizeof(line) - 1;
		memcpy(line, p, m);
		line[m] = '\0';
		p += n + (p[n] == '\n');
		char *hash = strchr(line, '#');
		char *comment = hash ? hash + 1 : NULL;
		if (hash)
			*hash = '\0';
		char *key = strtok(line, " \t\r");
		char *rest = key ? strtok(NULL, "\r") : NULL;
		if (!key)
			continue;
		while (rest && (*rest == ' ' || *rest == '\t'))
			rest++;
		for (size_t k = rest ? strlen(rest) : 0; k > 0 && (rest[k - 1] == ' ' || rest[k - 1] == '\t'); k--)
			rest[k - 1] = '\0';
		if (!strcmp(key, "default") && rest) {
			snprintf(f->def, sizeof(f->def), "%s", rest);
		} else if (!strncmp(key, "m:", 2) || !strncmp(key, "t:", 2)) {
			f->keys++;
			if (!strncmp(key, "m:", 2) && list)
				fprintf(list, "| `%s` | %s |\n", comment ? comment + strspn(comment, " ") : key, rest ? rest : "");
		} else if (!strcmp(key, "near")) {
			f->near++;
		} else if (!strcmp(key, "trained")) {
			f->trained++;
		}
	}
}

/* Checks that jar is the drop-in jar (bot class, index, a native library) and reads its index; a CLI code. */
static int package_jar_index(const char *jar, char **index, size_t *index_len)
{
	int zerr = 0;
	zip_t *z = zip_open(jar, ZIP_RDONLY, &zerr);
	if (!z) {
		fprintf(stderr, "microsynth package: %s: not a readable jar (libzip error %d)\n", jar, zerr);
		return CLI_USAGE;
	}
	static const char *const need[] = { "ai/microsynth/MicrosynthAI.class", "programs/index.txt" };
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!has_entry(z, need[i])) {
			fprintf(stderr, "microsynth package: %s has no %s; is it the drop-in jar?\n", jar, need[i]);
			zip_close(z);
			return CLI_USAGE;
		}
	int libs = 0;
	for (zip_int64_t i = 0, n = zip_get_num_entries(z, 0); i < n; i++) {
		const char *name = zip_get_name(z, (zip_uint64_t)i, 0);
		if (name && !strncmp(name, "native/", 7) && strstr(name, ".so"))
			libs++;
	}
	if (!libs) {
		fprintf(stderr, "microsynth package: %s holds no native library (native/*/lib*.so)\n", jar);
		zip_close(z);
		return CLI_USAGE;
	}
	*index = read_entry(z, "programs/index.txt", index_len);
	zip_close(z);
	if (!*index) {
		fprintf(stderr, "microsynth package: cannot read programs/index.txt from %s\n", jar);
		return CLI_FAIL;
	}
	return CLI_OK;
}

/* DIR created if absent, and empty unless force; a CLI code. */
static int package_dir(const char *dir, int force)
{
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "microsynth package: cannot create %s: %s\n", dir, strerror(errno));
		return CLI_USAGE;
	}
	if (!force && !dir_is_empty(dir)) {
		fprintf(stderr, "microsynth package: %s is not empty (use --force to overwrite)\n", dir);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* The whole jar file into *bytes (malloc'd); a CLI code. */
static int package_read_jar(const char *jar, char **bytes, size_t *len)
{
	FILE *in = fopen(jar, "rb");
	*bytes = NULL;
	if (!in || fseek(in, 0, SEEK_END) || (*len = (size_t)ftell(in), fseek(in, 0, SEEK_SET))) {
		fprintf(stderr, "microsynth package: cannot read %s\n", jar);
		if (in)
			fclose(in);
		return CLI_FAIL;
	}
	*bytes = malloc(*len ? *len : 1);
	if (!*bytes || fread(*bytes, 1, *len, in) != *len) {
		fclose(in);
		free(*bytes);
		*bytes = NULL;
		fprintf(stderr, "microsynth package: cannot read %s\n", jar);
		return CLI_FAIL;
	}
	fclose(in);
	return CLI_OK;
}

/* README: the class, constructors, loading, and the index's map list; -1 if it cannot be written. */
static int package_readme(const char *path, const index_facts *f, const char *table)
{
	FILE *r = fopen(path, "w");
	if (!r)
		return -1;
	fprintf(r,
		"# microsynth: a MicroRTS bot playing synthesized programs\n\n"
		"- **Jar:** `microsynth.jar` (put it in the harness's `lib/bots/`, or on the class path).\n"
		"- **Class:** `ai.microsynth.MicrosynthAI` (extends `ai.core.AIWithComputationBudget`).\n"
		"- **Constructor:** `MicrosynthAI(UnitTypeTable utt)`, as tournaments call it; it plays `auto`:\n"
		"  the program the index below names for the map, recognised by fingerprint. On a map the index\n"
		"  does not name, the `unseen` portfolio: the program of the most similar known map (`near`\n"
		"  lines: size, bases, workers, resource fields, distance between bases, walls) opens while\n"
		"  slices of the decisions simulate every shipped program against the native field; from the\n"
		"  identification cycle on it plays the one that did best against the opponent it sees.\n"
		"  Without an `unseen` line, the nearest map's program; else the `default` line.\n"
		"  Also `MicrosynthAI(UnitTypeTable utt, String spec)` (a spec: `auto`, a native bot name,\n"
		"  or `program:FILE`) and `MicrosynthAI(UnitTypeTable, String, int timeBudget, int iterationsBudget)`.\n"
		"- **Platform:** the jar carries its native library for Linux x86-64 (it needs only the C\n"
		"  runtime); a JRE and the MicroRTS jar are all else it needs. Decisions take well under a\n"
		"  millisecond, except on unseen maps, where each decision spends the portfolio's\n"
		"  `budget-ms` on simulation until its simulated games are done (no threads are started).\n"
		"- **Failures:** the bot never throws from `getAction`; a failed decision is an empty action,\n"
		"  reported once on stderr and counted in `statisticsString()`.\n\n"
		"Example, the official tournament code or `rts.MicroRTS` with\n"
		"`java -cp \"microrts.jar:lib/bots/*\" ...` and `AI1=ai.microsynth.MicrosynthAI`.\n\n"
		"## Programs (index.txt)\n\n"
		"Default: %s. Maps with their own program: %d keys (`m:` full, `t:` terrain), %d `near`\n"
		"lines for unseen maps, %d `trained` lines (maps some synthesis run used).\n\n"
		"| map | plays |\n|---|---|\n%s",
		f->def, f->keys, f->near, f->trained, table);
	return fclose(r) ? -1 : 0;
}

/* Writes the jar, the index and the README into dir, and prints the summary line; a CLI code. */
static int package_write(const char *dir, const char *jar, const char *index, size_t index_len)
{
	char path[4400], *jar_bytes;
	size_t jar_len = 0;
	int rc = package_read_jar(jar, &jar_bytes, &jar_len);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/microsynth.jar", dir);
	int werr = write_file(path, jar_bytes, jar_len);
	free(jar_bytes);
	snprintf(path, sizeof(path), "%s/index.txt", dir);
	werr |= write_file(path, index, index_len);

	char *table = NULL;
	size_t table_len = 0;
	FILE *tf = open_memstream(&table, &table_len);
	index_facts facts;
	read_index(index, &facts, tf);
	if (tf)
		fclose(tf);
	snprintf(path, sizeof(path), "%s/README.md", dir);
	if (package_readme(path, &facts, table ? table : ""))
		werr = -1;
	free(table);
	if (werr) {
		fprintf(stderr, "microsynth package: cannot write into %s: %s\n", dir, strerror(errno));
		return CLI_FAIL;
	}
	printf("package=%s/microsynth.jar bytes=%zu map_keys=%d near=%d trained=%d\n", dir, jar_len, facts.keys,
	       facts.near, facts.trained);
	return CLI_OK;
}

int cmd_package(int argc, char **argv)
{
	const char *dir = NULL, *jar_opt = NULL;
	int force = 0, rc;
	char jar[4400], *index = NULL;
	size_t index_len = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--jar") && i + 1 < argc)
			jar_opt = argv[++i];
		else if (!strcmp(argv[i], "--force"))
			force = 1;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cmd_package_usage(stdout);
			return CLI_OK;
		} else
			return cli_usage_error("package", "unknown option or missing value: '%s'", argv[i]);
	}
	if (!dir)
		return cli_usage_error("package", "-o DIR is required");
	if (find_jar(jar_opt, jar, sizeof(jar))) {
		fprintf(stderr, "microsynth package: microsynth.jar not found (%s); build with -DMS_JAVA=ON, "
				"or give --jar FILE or $MICROSYNTH_JAR\n", jar_opt ? jar_opt : "beside the runners' jar");
		return CLI_USAGE;
	}
	if ((rc = package_jar_index(jar, &index, &index_len)))
		return rc;
	if (!(rc = package_dir(dir, force)))
		rc = package_write(dir, jar, index, index_len);
	free(index);
	return rc;
}
