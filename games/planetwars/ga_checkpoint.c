/*
 * The GA's checkpoint file: the population at the start of a generation
 * and the random state that generation starts from, so a run resumed from
 * it plays exactly the games the uninterrupted run would.
 *
 *     # comment lines anywhere
 *     generation G
 *     population P
 *     rng a b c d
 *     P lines of MS_PW_FORECAST_PARAMS numbers (%.17g: they read back exactly)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/planetwars/pw_internal.h"
#include "core/buf.h"

int ms_pw_ga_checkpoint_write(ms_ctx *ctx, const char *path, int gen, int population, const double *pop,
			      const uint64_t rng[4])
{
	char tmp[4200];
	if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
		return ms_ctx_error(ctx, MS_EINVAL, "GA checkpoint %s: path too long", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return ms_ctx_error(ctx, MS_EIO, "GA checkpoint %s: %s", tmp, strerror(errno));
	fprintf(f, "# microsynth planetwars GA checkpoint: the population at the start of generation %d\n", gen);
	fprintf(f, "generation %d\npopulation %d\nrng %llu %llu %llu %llu\n", gen, population,
		(unsigned long long)rng[0], (unsigned long long)rng[1], (unsigned long long)rng[2],
		(unsigned long long)rng[3]);
	for (int i = 0; i < population; i++)
		for (int k = 0; k < MS_PW_FORECAST_PARAMS; k++)
			fprintf(f, "%.17g%c", pop[i * MS_PW_FORECAST_PARAMS + k], k == MS_PW_FORECAST_PARAMS - 1 ? '\n' : ' ');
	int bad = ferror(f);
	bad |= fclose(f);
	/* written whole, then renamed: a run killed while writing leaves the previous checkpoint intact */
	if (bad || rename(tmp, path)) {
		remove(tmp);
		return ms_ctx_error(ctx, MS_EIO, "GA checkpoint %s: write failed", path);
	}
	return MS_OK;
}

/* The header line at [s, e) into the checkpoint's fields; 1 if it is one, 0 if not. */
static int header_line(const char *s, const char *e, int *gen, int *p, unsigned long long r[4], int *have_rng)
{
	char line[256], tail;
	size_t n = (size_t)(e - s);
	if (n >= sizeof line)
		return 0;
	memcpy(line, s, n);
	line[n] = 0;
	if (sscanf(line, "generation %d %c", gen, &tail) == 1 || sscanf(line, "population %d %c", p, &tail) == 1)
		return 1;
	if (sscanf(line, "rng %llu %llu %llu %llu %c", &r[0], &r[1], &r[2], &r[3], &tail) == 4)
		return *have_rng = 1;
	return 0;
}

/* One row of parameters at [s, e) into row; 0 or the position of the bad number (1-based). */
static int param_row(const char *s, const char *e, double *row)
{
	char buf[2048];
	size_t n = (size_t)(e - s);
	if (n >= sizeof buf)
		return 1;
	memcpy(buf, s, n);
	buf[n] = 0;
	char *c = buf;
	for (int k = 0; k < MS_PW_FORECAST_PARAMS; k++) {
		char *end;
		errno = 0;
		row[k] = strtod(c, &end);
		if (end == c || errno || !isfinite(row[k]) || (*end && *end != ' ' && *end != '\t'))
			return k + 1;
		c = end;
	}
	while (*c == ' ' || *c == '\t')
		c++;
	return *c ? MS_PW_FORECAST_PARAMS + 1 : 0;
}

/* The rows go to scratch, so on an error the caller's population is untouched. */
static int parse(ms_ctx *ctx, const char *text, size_t len, const char *what, int population, int *gen, double *pop,
		 uint64_t rng[4])
{
	size_t at = 0, ls, le;
	int line = 0, rows = 0, g = -1, p = -1, have_rng = 0;
	unsigned long long r[4] = { 0, 0, 0, 0 };

	while (ms_text_next_line(text, len, &at, &ls, &le)) {
		line++;
		if (le == ls || text[ls] == '#')
			continue;
		if (rows == 0 && header_line(text + ls, text + le, &g, &p, r, &have_rng))
			continue;
		if (g < 0 || p < 0 || !have_rng)
			return ms_ctx_error(ctx, MS_EPARSE, "GA checkpoint %s:%d: expected 'generation G', 'population P' "
					    "and 'rng a b c d' (G >= 0) before the parameters", what, line);
		if (p != population)
			return ms_ctx_error(ctx, MS_EINVAL, "GA checkpoint %s:%d: not a checkpoint of a population of %d (it "
					    "holds %d)", what, line, population, p);
		if (rows == population)
			return ms_ctx_error(ctx, MS_EPARSE, "GA checkpoint %s:%d: more than %d rows of parameters", what,
					    line, population);
		int bad = param_row(text + ls, text + le, pop + (size_t)rows * MS_PW_FORECAST_PARAMS);
		if (bad)
			return ms_ctx_error(ctx, MS_EPARSE, "GA checkpoint %s:%d: number %d of the row is %s (a row is %d "
					    "finite numbers)", what, line, bad,
					    bad > MS_PW_FORECAST_PARAMS ? "one too many" : "missing or malformed",
					    MS_PW_FORECAST_PARAMS);
		rows++;
	}
	if (rows != population)
		return ms_ctx_error(ctx, MS_EPARSE, "GA checkpoint %s: %d rows of parameters, not %d", what, rows,
				    population);
	*gen = g;
	for (int i = 0; i < 4; i++)
		rng[i] = r[i];
	return MS_OK;
}

int ms_pw_ga_checkpoint_parse(ms_ctx *ctx, const char *text, size_t len, const char *what, int population,
			      int *gen, double *pop, uint64_t rng[4])
{
	size_t n = (size_t)(population > 0 ? population : 1) * MS_PW_FORECAST_PARAMS;
	double *rows = ms_ctx_malloc(ctx, n * sizeof *rows);
	uint64_t r[4];
	int g;
	if (!rows)
		return ms_ctx_error(ctx, MS_ENOMEM, "GA checkpoint %s: out of memory", what);
	int rc = parse(ctx, text, len, what, population, &g, rows, r);
	if (rc == MS_OK) {
		memcpy(pop, rows, n * sizeof *rows);
		memcpy(rng, r, sizeof r);
		*gen = g;
	}
	ms_ctx_mfree(ctx, rows);
	return rc;
}

int ms_pw_ga_checkpoint_load(ms_ctx *ctx, const char *path, int population, int *gen, double *pop, uint64_t rng[4])
{
	char *text;
	size_t len;
	int rc = ms_read_text_file(ctx, &text, &len, path, "GA checkpoint");
	if (rc)
		return rc;
	rc = ms_pw_ga_checkpoint_parse(ctx, text, len, path, population, gen, pop, rng);
	ms_ctx_mfree(ctx, text);
	return rc;
}
