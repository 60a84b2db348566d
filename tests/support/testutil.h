/* Helpers shared by the cmocka tests. */
#ifndef MS_TESTUTIL_H
#define MS_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "microsynth/common.h"

/* An allocator that counts live blocks and fails the Nth allocation
 * (fail_at = 0: never), as Lua's ltests debug allocator does. */
typedef struct ms_test_alloc {
	long calls;
	long fail_at;
	long live;
} ms_test_alloc;

static inline void *ms_test_malloc(void *ud, size_t n)
{
	ms_test_alloc *t = ud;
	void *p;

	if (t->fail_at && ++t->calls == t->fail_at)
		return NULL;
	p = malloc(n);
	if (p)
		t->live++;
	return p;
}

static inline void *ms_test_realloc(void *ud, void *ptr, size_t n)
{
	ms_test_alloc *t = ud;
	void *p;

	if (t->fail_at && ++t->calls == t->fail_at)
		return NULL;
	p = realloc(ptr, n);
	if (p && !ptr)
		t->live++;
	return p;
}

static inline void ms_test_free(void *ud, void *ptr)
{
	ms_test_alloc *t = ud;

	if (ptr)
		t->live--;
	free(ptr);
}

static inline ms_ctx *ms_test_ctx_with(ms_test_alloc *t, ms_allocator *a)
{
	ms_ctx_options o;
	ms_ctx *ctx = NULL;

	a->malloc_fn = ms_test_malloc;
	a->realloc_fn = ms_test_realloc;
	a->free_fn = ms_test_free;
	a->ud = t;
	memset(&o, 0, sizeof(o));
	o.version = MS_CTX_OPTIONS_VERSION;
	o.allocator = a;
	if (ms_ctx_new(&ctx, &o) != MS_OK)
		return NULL;
	return ctx;
}

/* Path of reference data under ../shared, or NULL when it is absent. Tests
 * then skip, except under CI (env CI set), where they must fail. */
static inline const char *ms_test_shared(void)
{
	const char *p = getenv("MS_SHARED_DIR");

	return p && *p ? p : NULL;
}

#define MS_SKIP_OR_FAIL_WITHOUT_SHARED()                                            \
	do {                                                                        \
		if (!ms_test_shared()) {                                            \
			if (getenv("CI")) {                                         \
				fail_msg("../shared is absent but CI is set");      \
			}                                                           \
			print_message("skipped: ../shared reference data absent\n"); \
			skip();                                                     \
		}                                                                   \
	} while (0)

/* 1 if the harness's maps folder `dir` exists; else fails under CI, or says it skips and returns 0. */
static inline int ms_test_have_maps(const char *dir)
{
	struct stat st;
	if (dir && stat(dir, &st) == 0)
		return 1;
	if (getenv("CI"))
		fail_msg("the harness maps are absent but CI is set");
	print_message("skipped: harness maps absent (tools/setup.sh)\n");
	return 0;
}

/*
 * A w x h MicroRTS map without walls (malloc'd XML, NULL when out of memory; free it): player 0's
 * base at (0, 0) and `workers` workers of its own in rows of 8 from (0, 2),
 * player 1's base at (w - 1, 0) and one worker beside it. Nested loops over
 * a crowd cost the interpreter units^depth (the loop budget's tests).
 */
static inline char *ms_test_crowded_map(int w, int h, int workers)
{
	char *xml = malloc(512 + (size_t)w * (size_t)h + (size_t)(workers + 3) * 160), *q = xml;
	if (!xml)
		return NULL;
	q += sprintf(q, "<rts.PhysicalGameState width=\"%d\" height=\"%d\"><terrain>", w, h);
	memset(q, '0', (size_t)w * (size_t)h);
	q += w * h;
	q += sprintf(q, "</terrain><players><rts.Player ID=\"0\" resources=\"5\"></rts.Player>"
			"<rts.Player ID=\"1\" resources=\"5\"></rts.Player></players><units>");
	static const char unit[] = "<rts.units.Unit type=\"%s\" ID=\"%d\" player=\"%d\" x=\"%d\" y=\"%d\" "
				   "resources=\"0\" hitpoints=\"%d\"></rts.units.Unit>";
	q += sprintf(q, unit, "Base", 1, 0, 0, 0, 10);
	q += sprintf(q, unit, "Base", 2, 1, w - 1, 0, 10);
	q += sprintf(q, unit, "Worker", 3, 1, w - 2, 0, 1);
	for (int k = 0; k < workers; k++)
		q += sprintf(q, unit, "Worker", 10 + k, 0, k % 8, 2 + k / 8, 1);
	strcpy(q, "</units></rts.PhysicalGameState>");
	return xml;
}

#endif
