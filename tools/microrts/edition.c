/*
 * Which edition of the official bots a harness runs. The two builds are
 * told apart by their classes rather than by a version file, because a
 * user-built harness carries none: the markers are names the compiler
 * writes into the class files' constant pools (modified UTF-8, plain ASCII
 * here), so a byte search over the class is enough.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "cli.h"
#include "edition.h"
#include "microsynth/bots.h"

int edition_parse(const char *s)
{
	if (s && !strcmp(s, "2022"))
		return MS_PATH_EDITION_2022;
	if (s && !strcmp(s, "2023"))
		return MS_PATH_EDITION_2023;
	return -1;
}

const char *edition_name(int edition)
{
	return edition == MS_PATH_EDITION_2023 ? "2023" : "2022";
}

/* Reads entry `name` of the open zip; NULL when absent or unreadable. */
static char *read_entry(zip_t *za, const char *name, size_t *len)
{
	zip_stat_t st;
	zip_file_t *zf;
	char *buf;
	zip_int64_t got;

	if (zip_stat(za, name, 0, &st) || !(st.valid & ZIP_STAT_SIZE) || st.size > (64u << 20))
		return NULL;
	if (!(buf = malloc(st.size ? st.size : 1)))
		return NULL;
	if (!(zf = zip_fopen(za, name, 0))) {
		free(buf);
		return NULL;
	}
	got = zip_fread(zf, buf, st.size);
	zip_fclose(zf);
	if (got < 0 || (zip_uint64_t)got != st.size) {
		free(buf);
		return NULL;
	}
	*len = (size_t)st.size;
	return buf;
}

static int has_bytes(const char *buf, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = 0; i + n <= len; i++)
		if (buf[i] == needle[0] && !memcmp(buf + i, needle, n))
			return 1;
	return 0;
}

int edition_of_jar(const char *jar, int *edition, char *why, size_t why_size)
{
	/* the Nov 2023 A*: search and path read-out were split, adding this method */
	static const char astar[] = "ai/abstraction/pathfinding/AStarPathFinding.class", astar_mark[] = "runAStar";
	/* the May 2023 rules: the military rushes' worker behaviour needs the
	 * GameState to send idle workers to attack (2022: PhysicalGameState) */
	static const char light[] = "ai/abstraction/LightRush.class",
			  light_mark[] = "(Ljava/util/List;Lrts/Player;Lrts/GameState;)V";
	int zerr = 0, found = 0, newer = 0;
	zip_t *za = zip_open(jar, ZIP_RDONLY, &zerr);
	const char *names[2] = { astar, light }, *marks[2] = { astar_mark, light_mark };

	if (!za) {
		snprintf(why, why_size, "%s: cannot open as a jar (libzip error %d)", jar, zerr);
		return -1;
	}
	for (int k = 0; k < 2; k++) {
		size_t len = 0;
		char *buf = read_entry(za, names[k], &len);
		if (!buf)
			continue;
		found++;
		newer |= has_bytes(buf, len, marks[k]);
		free(buf);
	}
	zip_discard(za);
	if (!found) {
		snprintf(why, why_size, "%s: has neither %s nor %s", jar, astar, light);
		return -1;
	}
	*edition = newer ? MS_PATH_EDITION_2023 : MS_PATH_EDITION_2022;
	return 0;
}

int edition_of_harness(int *detected)
{
	char dir[4096], jar[4200], why[512];
	int e = MS_PATH_EDITION_2022;

	if (detected)
		*detected = 0;
	if (cli_harness_dir(dir, sizeof(dir)))
		return e;
	snprintf(jar, sizeof(jar), "%s/microrts.jar", dir);
	if (edition_of_jar(jar, &e, why, sizeof(why)))
		return MS_PATH_EDITION_2022;
	if (detected)
		*detected = 1;
	return e;
}

int edition_arg(const char *cmd, const char *value, int *edition)
{
	int e = edition_parse(value);

	if (e < 0)
		return cli_usage_error(cmd, "--edition needs 2022 or 2023, not '%s'", value ? value : "(nothing)");
	*edition = e;
	return 0;
}
