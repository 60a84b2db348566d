/*
 * The checkpoint: a text log of every evaluation, appended one line at a
 * time (a kill can only damage the last line, which a resume drops).
 *
 *   microsynth-synth-checkpoint 1
 *   <settings lines: problem, fingerprint, grammar, algorithm, seed, ...>
 *   begin
 *   e CRC INDEX KIND HASH SCOREBITS FAILED MS     one per evaluation, in index order
 *   b CRC INDEX KIND TOKENS...                    the new best program of KIND, in token form
 *   t CRC INDEX CHECKS PHASE MS                   a sketch run's time share ran out there
 *
 * KIND is P (Psi) or C; HASH is ms_dsl_hash of the program (checked on
 * replay); SCOREBITS the IEEE-754 bits of the score, so a replay makes the
 * very same decisions; MS the elapsed milliseconds. CRC is FNV-1a (32
 * bits) of the rest of the line. The header is written to a temporary
 * file and renamed into place, so the file is never seen half-made.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "synth_internal.h"
#include "core/hash.h"

#define MAGIC "microsynth-synth-checkpoint 1\n"

static uint32_t fnv32(const char *s, size_t n)
{
	return ms_fnv1a32_bytes(s, n);
}

void syn_log_free(ms_ctx *ctx, syn_log *l)
{
	if (l->f)
		fclose(l->f);
	ms_vec_dispose(ctx, &l->rec);
	ms_vec_dispose(ctx, &l->evt);
	ms_ctx_mfree(ctx, l->path);
	memset(l, 0, sizeof *l);
}

static int write_line(ms_synth *s, char tag, const char *payload)
{
	syn_log *l = &s->log;
	uint32_t crc = fnv32(payload, strlen(payload));
	if (fprintf(l->f, "%c %08" PRIx32 " %s\n", tag, crc, payload) < 0)
		return ms_ctx_error(s->ctx, MS_EIO, "checkpoint %s: write failed: %s", l->path, strerror(errno));
	return 0;
}

static int flush(ms_synth *s)
{
	syn_log *l = &s->log;
	if (fflush(l->f) != 0 || ferror(l->f))
		return ms_ctx_error(s->ctx, MS_EIO, "checkpoint %s: write failed: %s", l->path, strerror(errno));
	if (l->sync && fdatasync(fileno(l->f)) != 0)
		return ms_ctx_error(s->ctx, MS_EIO, "checkpoint %s: fdatasync failed: %s", l->path, strerror(errno));
	return 0;
}

static int64_t elapsed_ms(ms_synth *s)
{
	return (int64_t)(syn_elapsed(s) * 1000.0 + 0.5);
}

int syn_log_append_eval(ms_synth *s, long long index, const ms_dsl_prog *p, int kind, double score, int failed,
			int improved)
{
	char line[160];
	uint64_t bits;
	memcpy(&bits, &score, sizeof bits);
	snprintf(line, sizeof line, "%lld %c %016" PRIx64 " %016" PRIx64 " %d %" PRId64, index,
		 kind == MS_SYNTH_PSI ? 'P' : 'C', ms_dsl_hash(p), bits, failed ? 1 : 0, elapsed_ms(s));
	int rc = write_line(s, 'e', line);
	if (rc == 0 && improved) {
		char *tok = NULL;
		size_t tl = 0;
		if ((rc = ms_dsl_print_tokens(p, ' ', &tok, &tl)) < 0)
			return rc;
		char *b = ms_ctx_malloc(s->ctx, tl + 48);
		if (!b) {
			ms_ctx_mfree(s->ctx, tok);
			return ms_ctx_error(s->ctx, MS_ENOMEM, "checkpoint: out of memory");
		}
		snprintf(b, tl + 48, "%lld %c %s", index, kind == MS_SYNTH_PSI ? 'P' : 'C', tok);
		for (char *c = b; *c; c++)
			if (*c == '\n' || *c == '\r')
				*c = ' ';
		rc = write_line(s, 'b', b);
		ms_ctx_mfree(s->ctx, b);
		ms_ctx_mfree(s->ctx, tok);
	}
	return rc < 0 ? rc : flush(s);
}

int syn_log_append_event(ms_synth *s, long long index, long long checks, int phase_id)
{
	char line[128];
	snprintf(line, sizeof line, "%lld %lld %d %" PRId64, index, checks, phase_id, elapsed_ms(s));
	int rc = write_line(s, 't', line);
	return rc < 0 ? rc : flush(s);
}

static int push_record(ms_ctx *ctx, syn_log *l, const syn_record *r)
{
	syn_record *slot = ms_vec_push(ctx, &l->rec);
	if (!slot)
		return ms_ctx_error(ctx, MS_ENOMEM, "checkpoint: out of memory");
	*slot = *r;
	return 0;
}

static int push_event(ms_ctx *ctx, syn_log *l, const syn_event *e)
{
	syn_event *slot = ms_vec_push(ctx, &l->evt);
	if (!slot)
		return ms_ctx_error(ctx, MS_ENOMEM, "checkpoint: out of memory");
	*slot = *e;
	return 0;
}

/* Parses one record line (without its newline); 1 if it is damaged. */
static int parse_line(ms_synth *s, char *line, size_t n, int lineno)
{
	syn_log *l = &s->log;
	char tag;
	uint32_t crc;
	int off = 0;
	if (n < 12 || sscanf(line, "%c %8" SCNx32 " %n", &tag, &crc, &off) != 2 || off != 11)
		return 1;
	if (fnv32(line + off, n - (size_t)off) != crc)
		return 1;
	if (tag == 'e') {
		long long idx;
		char k;
		uint64_t hash, bits;
		int failed;
		int64_t ms;
		if (sscanf(line + off, "%lld %c %" SCNx64 " %" SCNx64 " %d %" SCNd64, &idx, &k, &hash, &bits, &failed, &ms) != 6 ||
		    (k != 'P' && k != 'C'))
			return ms_ctx_error(s->ctx, MS_EPARSE, "checkpoint %s: line %d: malformed evaluation record", l->path,
					    lineno);
		if (idx != l->rec.n)
			return ms_ctx_error(s->ctx, MS_EPARSE, "checkpoint %s: line %d: evaluation %lld where %lld was expected",
					    l->path, lineno, idx, (long long)l->rec.n);
		syn_record r = { hash, 0, ms, k == 'P' ? MS_SYNTH_PSI : MS_SYNTH_C, failed != 0 };
		memcpy(&r.score, &bits, sizeof bits);
		return push_record(s->ctx, l, &r);
	}
	if (tag == 't') {
		syn_event e;
		int64_t ms;
		if (sscanf(line + off, "%lld %lld %d %" SCNd64, &e.index, &e.checks, &e.phase_id, &ms) != 4)
			return ms_ctx_error(s->ctx, MS_EPARSE, "checkpoint %s: line %d: malformed time record", l->path, lineno);
		e.ms = ms;
		if (l->evt.n > 0 && e.index < l->evt.v[l->evt.n - 1].index)
			return ms_ctx_error(s->ctx, MS_EPARSE, "checkpoint %s: line %d: time record out of order", l->path,
					    lineno);
		return push_event(s->ctx, l, &e);
	}
	if (tag == 'b')
		return 0; /* for people: the replay finds the best programs again */
	return ms_ctx_error(s->ctx, MS_EPARSE, "checkpoint %s: line %d: unknown record '%c'", l->path, lineno, tag);
}

/* The first differing settings line, for the message. */
static int header_mismatch(ms_synth *s, const char *have, size_t have_len)
{
	const char *want = s->header;
	size_t i = 0, j = 0;
	int lineno = 2;
	while (i < have_len && want[j]) {
		size_t a = i, b = j;
		while (i < have_len && have[i] != '\n')
			i++;
		while (want[j] && want[j] != '\n')
			j++;
		if (i - a != j - b || memcmp(have + a, want + b, i - a) != 0)
			return ms_ctx_error(s->ctx, MS_EINVAL,
					    "checkpoint %s: line %d records '%.*s' but this search has '%.*s' (resume with the "
					    "same settings, or start a new checkpoint)",
					    s->log.path, lineno, (int)(i - a), have + a, (int)(j - b), want + b);
		i++, j += want[j] == '\n';
		lineno++;
	}
	return ms_ctx_error(s->ctx, MS_EINVAL, "checkpoint %s: its settings (%d lines) differ from this search's",
			    s->log.path, lineno - 2);
}

static int load(ms_synth *s)
{
	syn_log *l = &s->log;
	char *buf = NULL;
	size_t len = 0;
	int rc = ms_read_file_upto(s->ctx, l->path, "checkpoint", SIZE_MAX, &buf, &len);
	if (rc < 0)
		return rc;
	size_t ml = strlen(MAGIC), hl = strlen(s->header);
	const char *begin = strstr(buf, "\nbegin\n");
	if (len < ml || memcmp(buf, MAGIC, ml) != 0 || !begin) {
		rc = ms_ctx_error(s->ctx, MS_EPARSE, "checkpoint %s: not a search checkpoint (or its header is incomplete)",
				  l->path);
		goto done;
	}
	size_t have_len = (size_t)(begin + 1 - (buf + ml));
	if (have_len != hl || memcmp(buf + ml, s->header, hl) != 0) {
		rc = header_mismatch(s, buf + ml, have_len);
		goto done;
	}
	int lineno = 2;
	for (const char *c = buf + ml; c <= begin; c++)
		lineno += *c == '\n';
	size_t pos = (size_t)(begin + 7 - buf), good = pos;
	while (pos < len) {
		char *nl = memchr(buf + pos, '\n', len - pos);
		if (!nl)
			break; /* a line cut short by a kill */
		*nl = 0;
		rc = parse_line(s, buf + pos, (size_t)(nl - (buf + pos)), lineno);
		if (rc < 0)
			goto done;
		if (rc == 1) {
			if ((size_t)(nl + 1 - buf) < len) {
				rc = ms_ctx_error(s->ctx, MS_EPARSE, "checkpoint %s: line %d is damaged and not the last line",
						  l->path, lineno);
				goto done;
			}
			rc = 0;
			break;
		}
		pos = (size_t)(nl + 1 - buf);
		good = pos;
		lineno++;
	}
	if (good < len && truncate(l->path, (off_t)good) != 0)
		rc = ms_ctx_error(s->ctx, MS_EIO, "checkpoint %s: cannot drop its damaged last line: %s", l->path,
				  strerror(errno));
done:
	ms_ctx_mfree(s->ctx, buf);
	return rc;
}

static int create(ms_synth *s)
{
	syn_log *l = &s->log;
	size_t pl = strlen(l->path);
	char *tmp = ms_ctx_malloc(s->ctx, pl + 8);
	if (!tmp)
		return ms_ctx_error(s->ctx, MS_ENOMEM, "checkpoint: out of memory");
	snprintf(tmp, pl + 8, "%s.tmp", l->path);
	int rc = 0;
	FILE *f = fopen(tmp, "wb");
	if (!f) {
		rc = ms_ctx_error(s->ctx, MS_EIO, "checkpoint %s: cannot create: %s", tmp, strerror(errno));
		goto done;
	}
	int bad = fputs(MAGIC, f) < 0 || fputs(s->header, f) < 0 || fputs("begin\n", f) < 0 || fflush(f) != 0 ||
		  fsync(fileno(f)) != 0;
	if (fclose(f) != 0 || bad) {
		remove(tmp);
		rc = ms_ctx_error(s->ctx, MS_EIO, "checkpoint %s: write failed", tmp);
		goto done;
	}
	if (rename(tmp, l->path) != 0) {
		remove(tmp);
		rc = ms_ctx_error(s->ctx, MS_EIO, "checkpoint %s: cannot rename %s into place: %s", l->path, tmp,
				  strerror(errno));
	}
done:
	ms_ctx_mfree(s->ctx, tmp);
	return rc;
}

int syn_log_open(ms_synth *s)
{
	syn_log *l = &s->log;
	int rc;
	l->path = ms_ctx_strdup(s->ctx, s->o.checkpoint);
	if (!l->path)
		return ms_ctx_error(s->ctx, MS_ENOMEM, "checkpoint: out of memory");
	l->sync = s->o.checkpoint_sync;
	if (access(l->path, F_OK) == 0) {
		if (!s->o.resume) {
			rc = ms_ctx_error(s->ctx, MS_EINVAL, "checkpoint %s exists (resume it, or remove it to start afresh)",
					  l->path);
			goto fail;
		}
		if ((rc = load(s)) < 0)
			goto fail;
	} else if ((rc = create(s)) < 0) {
		goto fail;
	}
	l->f = fopen(l->path, "ab");
	if (!l->f) {
		rc = ms_ctx_error(s->ctx, MS_EIO, "checkpoint %s: cannot open for appending: %s", l->path, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	syn_log_free(s->ctx, l);
	return rc;
}
