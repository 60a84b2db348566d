/*
 * A memo table: buckets of two entries (one 64-byte line), the newer entry
 * first. A hit moves its entry to the front and a store pushes the older
 * one out, so each bucket keeps its two most recently used keys.
 */
#define _DEFAULT_SOURCE
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "microsynth/memo.h"

/* Tables are read at random, so a big one on 4 KiB pages misses the TLB
 * too: it sits on 2 MiB pages where the system gives them (Linux's
 * transparent huge pages; 1-2% of a 24x24 field search). */
#define HUGE_PAGE ((size_t)2 << 20)

typedef struct memo_entry {
	uint64_t key[2]; /* key[1] has bit 0 set: an all-zero key is a free entry */
	uint32_t val[4];
} memo_entry;

struct ms_memo {
	ms_ctx *ctx;
	void *raw;       /* the allocation; e is aligned within it */
	memo_entry *e;   /* 2 * (mask + 1) entries */
	uint64_t mask;   /* buckets - 1 */
	size_t bytes;
	ms_memo_stats st;
};

int ms_memo_new(ms_ctx *ctx, ms_memo **out, unsigned bits)
{
	ms_memo *m;
	size_t n;

	if (!out)
		return ms_ctx_error(ctx, MS_EINVAL, "memo: no place for the table");
	*out = NULL;
	if (!bits)
		bits = MS_MEMO_DEFAULT_BITS;
	if (bits < MS_MEMO_MIN_BITS || bits > MS_MEMO_MAX_BITS)
		return ms_ctx_error(ctx, MS_ERANGE, "memo: %u bits outside [%d, %d]", bits, MS_MEMO_MIN_BITS,
				    MS_MEMO_MAX_BITS);
	n = (size_t)1 << bits;
	m = ms_ctx_calloc(ctx, 1, sizeof(*m));
	if (!m)
		return ms_ctx_error(ctx, MS_ENOMEM, "memo: out of memory");
	m->ctx = ctx;
	m->bytes = n * sizeof(memo_entry);
	size_t align = m->bytes >= HUGE_PAGE ? HUGE_PAGE : 64;
	m->raw = ms_ctx_malloc(ctx, m->bytes + align);
	if (!m->raw) {
		ms_ctx_mfree(ctx, m);
		return ms_ctx_error(ctx, MS_ENOMEM, "memo: out of memory for 2^%u entries", bits);
	}
	m->e = (memo_entry *)(((uintptr_t)m->raw + align - 1) & ~(uintptr_t)(align - 1));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	if (align == HUGE_PAGE)
		(void)madvise(m->e, m->bytes, MADV_HUGEPAGE); /* a hint: 4 KiB pages if refused */
#endif
	m->mask = (uint64_t)(n / 2 - 1);
	ms_memo_clear(m);
	*out = m;
	return MS_OK;
}

void ms_memo_free(ms_memo *m)
{
	if (!m)
		return;
	ms_ctx_mfree(m->ctx, m->raw);
	ms_ctx_mfree(m->ctx, m);
}

void ms_memo_clear(ms_memo *m)
{
	if (!m)
		return;
	memset(m->e, 0, m->bytes);
	memset(&m->st, 0, sizeof(m->st));
}

void ms_memo_get_stats(const ms_memo *m, ms_memo_stats *out)
{
	if (m)
		*out = m->st;
	else
		memset(out, 0, sizeof(*out));
}

int ms_memo_get(ms_memo *m, const uint64_t key[2], uint32_t val[4])
{
	memo_entry *b = &m->e[2 * (key[0] & m->mask)];
	uint64_t k1 = key[1] | 1;

	m->st.lookups++;
	if (b[0].key[0] == key[0] && b[0].key[1] == k1) {
		memcpy(val, b[0].val, sizeof(b[0].val));
		m->st.hits++;
		return 1;
	}
	if (b[1].key[0] == key[0] && b[1].key[1] == k1) {
		memo_entry t = b[1];
		b[1] = b[0];
		b[0] = t;
		memcpy(val, t.val, sizeof(t.val));
		m->st.hits++;
		return 1;
	}
	return 0;
}

void ms_memo_put(ms_memo *m, const uint64_t key[2], const uint32_t val[4])
{
	memo_entry *b = &m->e[2 * (key[0] & m->mask)];
	uint64_t k1 = key[1] | 1;

	m->st.stores++;
	if (!(b[0].key[0] == key[0] && b[0].key[1] == k1))
		b[1] = b[0];
	b[0].key[0] = key[0];
	b[0].key[1] = k1;
	memcpy(b[0].val, val, sizeof(b[0].val));
}
