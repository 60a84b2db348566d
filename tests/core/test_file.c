#include "support/testutil.h"

#include <stdio.h>
#include <zlib.h>

#include "core/buf.h"
#include "core/file.h"

static const char text[] = "{\"a\":1}\nsecond line\n";

static void test_file__gzip_and_plain_files_read_alike(void **state)
{
	ms_ctx *ctx;
	char *got;
	size_t len;
	gzFile g = gzopen("test_file.txt.gz", "wb");
	FILE *f = fopen("test_file.txt", "wb");

	(void)state;
	assert_non_null(g);
	assert_non_null(f);
	assert_int_equal(gzwrite(g, text, sizeof text - 1), (int)(sizeof text - 1));
	gzclose(g);
	fputs(text, f);
	fclose(f);
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_read_file(ctx, "test_file.txt.gz", "recording", 1 << 20, &got, &len), MS_OK);
	assert_int_equal(len, sizeof text - 1);
	assert_string_equal(got, text);
	ms_ctx_mfree(ctx, got);
	assert_int_equal(ms_read_file(ctx, "test_file.txt", "recording", 1 << 20, &got, &len), MS_OK);
	assert_string_equal(got, text);
	ms_ctx_mfree(ctx, got);
	assert_int_equal(ms_read_text_file(ctx, &got, &len, "test_file.txt", "recording"), MS_OK);
	assert_string_equal(got, text);
	ms_ctx_mfree(ctx, got);
	/* over the bound, once uncompressed */
	assert_int_equal(ms_read_file(ctx, "test_file.txt.gz", "recording", 8, &got, &len), MS_ERANGE);
	assert_null(got);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "recording test_file.txt.gz"));
	remove("test_file.txt.gz");
	remove("test_file.txt");
	ms_ctx_free(ctx);
}

static void test_file__missing_and_damaged_files_are_named_errors(void **state)
{
	ms_ctx *ctx;
	char *got;
	size_t len;
	FILE *f = fopen("test_file_bad.gz", "wb");

	(void)state;
	assert_non_null(f);
	/* a gzip header, then garbage */
	static const char bad[] = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage that does not inflate";
	assert_int_equal(fwrite(bad, 1, sizeof bad - 1, f), sizeof bad - 1);
	fclose(f);
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_read_file(ctx, "no/such/file.gz", "recording", 1 << 20, &got, &len), MS_EIO);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "recording no/such/file.gz: cannot open"));
	assert_int_equal(ms_read_file(ctx, "test_file_bad.gz", "recording", 1 << 20, &got, &len), MS_EIO);
	assert_null(got);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "recording test_file_bad.gz: read error"));
	remove("test_file_bad.gz");
	ms_ctx_free(ctx);
}

/* A gzip file cut before its trailer inflates to the whole text, but its
 * checksum was never checked: refused as `gzip -t` refuses it. */
static void test_file__gzip_without_its_trailer_is_refused(void **state)
{
	ms_ctx *ctx;
	char *got, buf[256];
	size_t len, n;
	gzFile g = gzopen("test_file_cut.gz", "wb");
	FILE *f;

	(void)state;
	assert_non_null(g);
	assert_int_equal(gzwrite(g, text, sizeof text - 1), (int)(sizeof text - 1));
	gzclose(g);
	assert_non_null(f = fopen("test_file_cut.gz", "rb"));
	n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	assert_true(n > 8 && n < sizeof buf);
	assert_non_null(f = fopen("test_file_cut.gz", "wb"));
	assert_int_equal(fwrite(buf, 1, n - 8, f), n - 8); /* CRC-32 and length gone */
	fclose(f);
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_read_file(ctx, "test_file_cut.gz", "recording", 1 << 20, &got, &len), MS_EIO);
	assert_null(got);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "recording test_file_cut.gz: read error (the gzip stream ends early"));
	remove("test_file_cut.gz");
	ms_ctx_free(ctx);
}

/* Lines of any length, without their newline or CR; 0 at the end. */
static void test_file__lines_of_any_length_are_read_whole(void **state)
{
	ms_ctx *ctx;
	ms_buf b;
	FILE *f = tmpfile();

	(void)state;
	assert_non_null(f);
	for (int i = 0; i < 10000; i++)
		fputc('x', f);
	fputs("\r\n\nlast", f);
	rewind(f);
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ms_buf_init(&b, ctx);
	assert_int_equal(ms_buf_read_line(&b, f), 1);
	assert_int_equal(b.len, 10000);
	assert_int_equal(strspn(b.data, "x"), 10000);
	assert_int_equal(ms_buf_read_line(&b, f), 1);
	assert_string_equal(b.data, "");
	assert_int_equal(ms_buf_read_line(&b, f), 1);
	assert_string_equal(b.data, "last");
	assert_int_equal(ms_buf_read_line(&b, f), 0);
	ms_buf_dispose(&b);
	fclose(f);
	ms_ctx_free(ctx);
}

/* After a failed append the buffer ignores the rest; finish reports the first failure once. */
static void test_file__buffer_errors_are_sticky_until_finish(void **state)
{
	ms_test_alloc t = {0};
	ms_allocator al;
	ms_ctx *ctx = ms_test_ctx_with(&t, &al);
	ms_buf b;
	char *out = (char *)1, big[200];

	(void)state;
	assert_non_null(ctx);
	long live0 = t.live;
	memset(big, 'y', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	ms_buf_init(&b, ctx);
	assert_int_equal(ms_buf_puts(&b, "ok "), MS_OK);
	assert_int_equal(ms_buf_printf(&b, "%d", 42), MS_OK);
	assert_int_equal(ms_buf_finish(&b, &out), MS_OK);
	assert_string_equal(out, "ok 42");
	ms_ctx_mfree(ctx, out);
	assert_int_equal(ms_buf_status(&b), MS_OK);
	ms_buf_puts(&b, "a");
	t.fail_at = t.calls + 1; /* the next growth fails */
	assert_int_equal(ms_buf_puts(&b, big), MS_ENOMEM);
	t.fail_at = 0;
	/* memory is back, yet every later append is refused with the first status */
	assert_int_equal(ms_buf_puts(&b, "b"), MS_ENOMEM);
	assert_int_equal(ms_buf_printf(&b, "%s", "c"), MS_ENOMEM);
	assert_int_equal(ms_buf_append(&b, "d", 1), MS_ENOMEM);
	assert_int_equal(ms_buf_status(&b), MS_ENOMEM);
	assert_string_equal(b.data, "a");
	assert_int_equal(ms_buf_finish(&b, &out), MS_ENOMEM);
	assert_null(out);
	/* finished, the buffer is empty and usable again */
	assert_int_equal(ms_buf_status(&b), MS_OK);
	assert_int_equal(ms_buf_puts(&b, "again"), MS_OK);
	assert_int_equal(ms_buf_finish(&b, &out), MS_OK);
	assert_string_equal(out, "again");
	ms_ctx_mfree(ctx, out);
	assert_int_equal(t.live, live0); /* nothing left behind */
	ms_ctx_free(ctx);
}

/* Blank and comment lines are passed over but counted; a long line is refused by name and number. */
static void test_file__content_lines_skip_blanks_and_comments(void **state)
{
	static const char lines[] = "# head\n\n  \t\r\nfirst 1\r\n   # indented comment\n\tsecond #not a comment\nlast";
	ms_ctx *ctx;
	size_t at = 0;
	int line = 0;
	char buf[32];

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_text_next_content_line(ctx, "t", lines, sizeof lines - 1, &at, &line, buf, sizeof buf), 1);
	assert_string_equal(buf, "first 1");
	assert_int_equal(line, 4);
	assert_int_equal(ms_text_next_content_line(ctx, "t", lines, sizeof lines - 1, &at, &line, buf, sizeof buf), 1);
	assert_string_equal(buf, "\tsecond #not a comment");
	assert_int_equal(line, 6);
	assert_int_equal(ms_text_next_content_line(ctx, "t", lines, sizeof lines - 1, &at, &line, buf, sizeof buf), 1);
	assert_string_equal(buf, "last");
	assert_int_equal(line, 7);
	assert_int_equal(ms_text_next_content_line(ctx, "t", lines, sizeof lines - 1, &at, &line, buf, sizeof buf), 0);
	assert_int_equal(line, 7);

	/* 8 characters do not fit 8 bytes with the NUL; 7 do */
	at = 0;
	line = 0;
	assert_int_equal(ms_text_next_content_line(ctx, "map.sw", "1234567\n12345678\n", 17, &at, &line, buf, 8), 1);
	assert_string_equal(buf, "1234567");
	assert_int_equal(ms_text_next_content_line(ctx, "map.sw", "1234567\n12345678\n", 17, &at, &line, buf, 8),
			 MS_EPARSE);
	assert_string_equal(ms_ctx_last_error(ctx), "map.sw: line 2: longer than 7 characters");
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file__gzip_and_plain_files_read_alike),
		cmocka_unit_test(test_file__missing_and_damaged_files_are_named_errors),
		cmocka_unit_test(test_file__gzip_without_its_trailer_is_refused),
		cmocka_unit_test(test_file__lines_of_any_length_are_read_whole),
		cmocka_unit_test(test_file__buffer_errors_are_sticky_until_finish),
		cmocka_unit_test(test_file__content_lines_skip_blanks_and_comments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
