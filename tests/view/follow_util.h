/*
 * What the view's tests of `view --follow` share: writing a followed file
 * bit by bit as a running synthesis does, and one poll of the follower as
 * the JSON message the page gets. Include after cmocka.h and view.h.
 */
#ifndef MS_TESTS_VIEW_FOLLOW_UTIL_H
#define MS_TESTS_VIEW_FOLLOW_UTIL_H

#include <stdio.h>

#include "core/json.h"

static void append(const char *path, const char *text)
{
	FILE *f = fopen(path, "a");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* One poll; the message when *changed (the caller deletes it), else NULL. */
static cJSON *poll_json(view_follow *f, int force, int *changed)
{
	ms_ctx *ctx;
	ms_buf b;
	cJSON *m = NULL;
	assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
	ms_buf_init(&b, ctx);
	assert_int_equal(view_follow_poll(f, force, &b, changed), 0);
	if (*changed)
		assert_non_null(m = cJSON_Parse(b.data));
	ms_buf_dispose(&b);
	ms_ctx_free(ctx);
	return m;
}

#endif
