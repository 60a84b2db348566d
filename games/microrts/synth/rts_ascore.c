/* The action score A (rts_ascore.h). */
#include "rts_ascore.h"

#include <stdio.h>
#include <string.h>

#include "microsynth/rts_dsl.h"
#include "core/vec.h"
#include "games/microrts/engine/rts.h"

#define PAIRS_MAX 1024 /* a decision's pairs: one per unit at most, and maps hold fewer */

/* One recorded decision: the state the oracle saw and its pairs [first, first + n) of the shard. */
typedef struct entry {
	ms_rts_state *s;
	long first;
	int n;
} entry;

typedef struct shard {
	int seat;
	entry *e;
	int n_e, cap_e;
	ms_rts_pair *pairs;
	int n_p, cap_p;
} shard;

struct rts_ascore {
	ms_ctx *ctx;
	int n;
	shard *sh;
	const ms_rts_utt *utt; /* every entry's state's table */
	ms_rts_utt *own_utt;
};

int rts_ascore_new(ms_ctx *ctx, int n_shards, const ms_rts_utt *utt, int version, int conflict, rts_ascore **out)
{
	rts_ascore *a = ms_ctx_calloc(ctx, 1, sizeof *a);
	int rc;
	*out = NULL;
	if (!a || !(a->sh = ms_ctx_calloc(ctx, (size_t)n_shards, sizeof *a->sh))) {
		ms_ctx_mfree(ctx, a);
		return ms_ctx_error(ctx, MS_ENOMEM, "action score: out of memory");
	}
	a->ctx = ctx;
	a->n = n_shards;
	if (!utt && (rc = ms_rts_utt_new(ctx, &a->own_utt, version, conflict))) {
		rts_ascore_free(a);
		return rc;
	}
	a->utt = utt ? utt : a->own_utt;
	*out = a;
	return MS_OK;
}

void rts_ascore_free(rts_ascore *a)
{
	if (!a)
		return;
	for (int k = 0; k < a->n; k++) {
		for (int i = 0; i < a->sh[k].n_e; i++)
			ms_rts_state_free(a->sh[k].e[i].s);
		ms_ctx_mfree(a->ctx, a->sh[k].e);
		ms_ctx_mfree(a->ctx, a->sh[k].pairs);
	}
	ms_ctx_mfree(a->ctx, a->sh);
	ms_rts_utt_free(a->own_utt);
	ms_ctx_mfree(a->ctx, a);
}

/*
 * One decision into shard sh: the state (adopted: the caller hands over a
 * copy, freed here on failure) and its n pairs. Waits (NONE, which the
 * abstraction layer gives every free unit left without an action) are not
 * kept: an idle program would reproduce them all. No action, no entry.
 */
static int add_entry(rts_ascore *a, shard *sh, ms_rts_state *s, const ms_rts_pair *pairs, int n)
{
	int k = 0, rc = MS_OK;
	for (int i = 0; i < n; i++)
		k += pairs[i].action.type != MS_RTS_NONE;
	if (k > 0 &&
	    !(rc = ms_vec_grow(a->ctx, (void **)&sh->e, &sh->cap_e, (long long)sh->n_e + 1, sizeof *sh->e)) &&
	    !(rc = ms_vec_grow(a->ctx, (void **)&sh->pairs, &sh->cap_p, (long long)sh->n_p + k, sizeof *sh->pairs))) {
		entry *e = &sh->e[sh->n_e++];
		/* the same table, but one that outlives the match that recorded the state */
		s->utt = a->utt;
		e->s = s;
		e->first = sh->n_p;
		e->n = k;
		for (int i = 0; i < n; i++)
			if (pairs[i].action.type != MS_RTS_NONE)
				sh->pairs[sh->n_p++] = pairs[i];
		return MS_OK;
	}
	ms_rts_state_free(s);
	return rc;
}

typedef struct rec_ud {
	rts_ascore *a;
	shard *sh;
} rec_ud;

/* The decisions hook: a copy of the state and the oracle's pairs. */
static int on_decisions(void *ud, const ms_rts_state *s, const ms_rts_pair *const pairs[2], const int n[2])
{
	rec_ud *r = ud;
	ms_rts_state *copy;
	int rc;
	for (int i = 0; i < n[r->sh->seat]; i++)
		if (pairs[r->sh->seat][i].action.type != MS_RTS_NONE) {
			if ((rc = ms_rts_state_clone(r->a->ctx, &copy, s)))
				return rc;
			return add_entry(r->a, r->sh, copy, pairs[r->sh->seat], n[r->sh->seat]);
		}
	return MS_OK; /* nothing but waits: no copy */
}

int rts_ascore_record(rts_ascore *a, ms_match *m, int shard_i, int seat, ms_match_player oracle, ms_match_player opp)
{
	shard *sh = &a->sh[shard_i];
	rec_ud r = { a, sh };
	ms_bot_hooks h = { NULL, on_decisions, &r };
	ms_match_player pl[2];
	ms_match_result res;
	sh->seat = seat;
	pl[seat] = oracle;
	pl[1 - seat] = opp;
	return ms_match_play_hooked(m, pl, &h, &res);
}

long rts_ascore_actions(const rts_ascore *a, int shard_i)
{
	long n = 0;
	for (int k = 0; k < a->n; k++)
		if (shard_i < 0 || k == shard_i)
			n += a->sh[k].n_p;
	return n;
}

static int same_action(const ms_rts_action *x, const ms_rts_action *y)
{
	return x->type == y->type && x->parameter == y->parameter && x->x == y->x && x->y == y->y &&
	       x->unit_type == y->unit_type;
}

int rts_ascore_eval(const rts_ascore *a, ms_ctx *ctx, const ms_dsl_prog *p, int shard_i, double *matched,
		    double *total)
{
	const shard *sh = &a->sh[shard_i];
	ms_rts_dsl_interp *it = NULL;
	ms_rts_pair *mine = ms_ctx_malloc(ctx, PAIRS_MAX * sizeof *mine);
	long hits = 0;
	int rc = mine ? ms_rts_dsl_interp_new(ctx, &it, p, 0, NULL) : MS_ENOMEM;

	*matched = 0;
	*total = (double)sh->n_p;
	for (int i = 0; rc == MS_OK && i < sh->n_e; i++) {
		const entry *e = &sh->e[i];
		int n = 0;
		rc = ms_rts_dsl_decide(it, sh->seat, e->s, mine, PAIRS_MAX, &n);
		if (rc == MS_EILLEGAL) {
			rc = MS_OK; /* the program fails in this match: the rest is missed */
			break;
		}
		for (int k = 0; rc == MS_OK && k < e->n; k++) {
			const ms_rts_pair *o = &sh->pairs[e->first + k];
			for (int j = 0; j < n; j++)
				if (mine[j].unit.id == o->unit.id) {
					hits += same_action(&mine[j].action, &o->action);
					break;
				}
		}
	}
	ms_rts_dsl_interp_free(it);
	ms_ctx_mfree(ctx, mine);
	*matched = (double)hits;
	return rc;
}

/* ---- data set files -------------------------------------------------------- */

#ifdef MS_NO_FILE_IO
/* the JNI bridge's library reads and writes no files (no zlib, no cJSON) */
int rts_ascore_save(const rts_ascore *a, const char *path, const char *const *maps, int n_maps, const char *oracle,
		    const char *opponent)
{
	(void)maps, (void)n_maps, (void)oracle, (void)opponent;
	return ms_ctx_error(a->ctx, MS_EUNSUPPORTED, "data set %s: this build writes no files", path);
}

int rts_ascore_load(ms_ctx *ctx, rts_ascore **out, const char *path, const char *const *maps, int n_maps,
		    const ms_rts_utt *utt, int version, int conflict)
{
	(void)maps, (void)n_maps, (void)utt, (void)version, (void)conflict;
	*out = NULL;
	return ms_ctx_error(ctx, MS_EUNSUPPORTED, "data set %s: this build reads no files", path);
}
#else
#include <zlib.h>

#include <cjson/cJSON.h>

#include "core/file.h"
#include "core/json.h"

#define DATASET_FORMAT "microsynth-rts-dataset/1"

static int put_line(gzFile g, const char *text)
{
	return gzputs(g, text) >= 0 && gzputc(g, '\n') == '\n' ? MS_OK : MS_EIO;
}

static int save_header(ms_ctx *ctx, gzFile g, const char *const *maps, int n_maps, const char *oracle,
		       const char *opponent)
{
	cJSON *h = cJSON_CreateObject(), *m = cJSON_CreateStringArray(maps, n_maps);
	char *text = NULL;
	int rc = MS_ENOMEM;
	if (h && m && cJSON_AddStringToObject(h, "format", DATASET_FORMAT) &&
	    cJSON_AddStringToObject(h, "oracle", oracle ? oracle : "") &&
	    cJSON_AddStringToObject(h, "opponent", opponent ? opponent : "")) {
		cJSON_AddItemToObject(h, "maps", m);
		m = NULL;
		if (!(rc = ms_json_print(ctx, h, &text)))
			rc = put_line(g, text);
	}
	ms_ctx_mfree(ctx, text);
	cJSON_Delete(m);
	cJSON_Delete(h);
	return rc;
}

/* One entry's line: its state and actions as the official toJSON writes them. */
static int save_entry(ms_ctx *ctx, gzFile g, int map, int seat, const ms_rts_state *s, const ms_rts_pair *pairs,
		      int n)
{
	char *st = NULL, *acts = NULL;
	int rc = ms_rts_state_to_json(ctx, &st, s, MS_RTS_JSON_CONSTANTS);
	if (!rc)
		rc = ms_rts_player_action_to_json(ctx, &acts, s, pairs, n);
	if (!rc && (gzprintf(g, "{\"map\":%d,\"seat\":%d,\"state\":", map, seat) <= 0 || gzputs(g, st) < 0 ||
		    gzputs(g, ",\"actions\":") < 0 || gzputs(g, acts) < 0 || gzputs(g, "}\n") < 0))
		rc = MS_EIO;
	ms_ctx_mfree(ctx, st);
	ms_ctx_mfree(ctx, acts);
	return rc;
}

int rts_ascore_save(const rts_ascore *a, const char *path, const char *const *maps, int n_maps, const char *oracle,
		    const char *opponent)
{
	size_t len = strlen(path);
	gzFile g = gzopen(path, len > 3 && !strcmp(path + len - 3, ".gz") ? "wb9" : "wbT");
	int rc;
	if (!g)
		return ms_ctx_error(a->ctx, MS_EIO, "data set %s: cannot open for writing", path);
	rc = save_header(a->ctx, g, maps, n_maps, oracle, opponent);
	for (int k = 0; rc == MS_OK && k < a->n && k / 2 < n_maps; k++)
		for (int i = 0; rc == MS_OK && i < a->sh[k].n_e; i++) {
			const entry *e = &a->sh[k].e[i];
			rc = save_entry(a->ctx, g, k / 2, a->sh[k].seat, e->s, a->sh[k].pairs + e->first, e->n);
		}
	if (gzclose(g) != Z_OK && rc == MS_OK)
		rc = MS_EIO;
	return rc ? ms_ctx_error(a->ctx, rc, "data set %s: %s", path,
				 rc == MS_EIO ? "write failed" : ms_ctx_last_error(a->ctx))
		  : MS_OK;
}

/* The problem's index of the file's map `name`, or -1. */
static int map_index(const char *name, const char *const *maps, int n_maps)
{
	for (int i = 0; i < n_maps; i++)
		if (!strcmp(name, maps[i]))
			return i;
	return -1;
}

/* The header: the format, and each of the file's maps as one of the problem's (into idx). */
static int load_header(ms_ctx *ctx, const char *path, const char *line, const char *const *maps, int n_maps,
		       int **idx, int *n_idx)
{
	cJSON *h = NULL, *m;
	int rc = ms_json_parse(ctx, path, line, strlen(line), &h), k = 0;
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(h, "format");
	const cJSON *ms = cJSON_GetObjectItemCaseSensitive(h, "maps");
	if (rc)
		return rc;
	if (!cJSON_IsString(f) || strcmp(f->valuestring, DATASET_FORMAT) || !cJSON_IsArray(ms)) {
		cJSON_Delete(h);
		return ms_ctx_error(ctx, MS_EPARSE, "data set %s: line 1: not a %s header (\"format\", \"maps\")", path,
				    DATASET_FORMAT);
	}
	if (!(*idx = ms_ctx_calloc(ctx, (size_t)cJSON_GetArraySize(ms) + 1, sizeof **idx))) {
		cJSON_Delete(h);
		return ms_ctx_error(ctx, MS_ENOMEM, "data set %s: out of memory", path);
	}
	cJSON_ArrayForEach(m, ms)
	{
		int i = cJSON_IsString(m) ? map_index(m->valuestring, maps, n_maps) : -1;
		if (i < 0) {
			rc = ms_ctx_error(ctx, MS_EINVAL, "data set %s: map %s is not a --map of this run", path,
					  cJSON_IsString(m) ? m->valuestring : "(not a string)");
			break;
		}
		(*idx)[k++] = i;
	}
	*n_idx = k;
	cJSON_Delete(h);
	return rc;
}

/* One entry line into its shard. */
static int load_entry(rts_ascore *a, const char *path, long lineno, const char *line, const int *idx, int n_idx,
		      ms_rts_pair *buf)
{
	ms_ctx *ctx = a->ctx;
	cJSON *j = NULL;
	char *st = NULL, *acts = NULL;
	ms_rts_state *s = NULL;
	int rc = ms_json_parse(ctx, path, line, strlen(line), &j), n = 0, map = -1, seat = -1;
	if (rc)
		return rc;
	if (ms_json_get_int(ctx, path, j, "map", &map) || map < 0 || map >= n_idx ||
	    ms_json_get_int(ctx, path, j, "seat", &seat) || (seat != 0 && seat != 1) ||
	    !cJSON_GetObjectItemCaseSensitive(j, "state") || !cJSON_GetObjectItemCaseSensitive(j, "actions"))
		rc = ms_ctx_error(ctx, MS_EPARSE, "data set %s: line %ld: needs \"map\" (an index of the header's maps), "
				  "\"seat\" (0 or 1), \"state\" and \"actions\"", path, lineno);
	if (!rc && (!(st = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(j, "state"))) ||
		    !(acts = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(j, "actions")))))
		rc = ms_ctx_error(ctx, MS_ENOMEM, "data set %s: out of memory", path);
	if (!rc && (rc = ms_rts_state_from_json(ctx, &s, a->utt, st, strlen(st), 0)))
		rc = ms_ctx_error(ctx, rc, "data set %s: line %ld: state: %s", path, lineno, ms_ctx_last_error(ctx));
	if (!rc && (rc = ms_rts_player_action_from_json(ctx, s, acts, strlen(acts), buf, PAIRS_MAX, &n)))
		rc = ms_ctx_error(ctx, rc, "data set %s: line %ld: actions: %s", path, lineno, ms_ctx_last_error(ctx));
	if (!rc) {
		shard *sh = &a->sh[idx[map] * 2 + seat];
		sh->seat = seat;
		rc = add_entry(a, sh, s, buf, n);
		s = NULL; /* adopted (or freed) */
	}
	ms_rts_state_free(s);
	cJSON_free(st);
	cJSON_free(acts);
	cJSON_Delete(j);
	return rc;
}

int rts_ascore_load(ms_ctx *ctx, rts_ascore **out, const char *path, const char *const *maps, int n_maps,
		    const ms_rts_utt *utt, int version, int conflict)
{
	char *text = NULL, *line, *nl;
	size_t len;
	int *idx = NULL, n_idx = 0, rc;
	long lineno = 1;
	ms_rts_pair *buf = NULL;
	rts_ascore *a = NULL;
	*out = NULL;
	/* data sets of a few maps run to tens of MB; 2 GiB bounds a damaged one */
	if ((rc = ms_read_file(ctx, path, "data set", (size_t)1 << 31, &text, &len)))
		return rc;
	if (!(nl = strchr(text, '\n')))
		rc = ms_ctx_error(ctx, MS_EPARSE, "data set %s: no header line", path);
	else
		*nl = 0, rc = load_header(ctx, path, text, maps, n_maps, &idx, &n_idx);
	if (!rc && !(rc = rts_ascore_new(ctx, n_maps * 2, utt, version, conflict, &a)) &&
	    !(buf = ms_ctx_malloc(ctx, PAIRS_MAX * sizeof *buf)))
		rc = ms_ctx_error(ctx, MS_ENOMEM, "data set %s: out of memory", path);
	for (line = nl ? nl + 1 : NULL; !rc && line && *line; line = nl ? nl + 1 : NULL) {
		lineno++;
		if ((nl = strchr(line, '\n')))
			*nl = 0;
		if (*line)
			rc = load_entry(a, path, lineno, line, idx, n_idx, buf);
	}
	if (!rc && rts_ascore_actions(a, -1) == 0)
		rc = ms_ctx_error(ctx, MS_EINVAL, "data set %s: no action of the oracle to compare", path);
	ms_ctx_mfree(ctx, buf);
	ms_ctx_mfree(ctx, idx);
	ms_ctx_mfree(ctx, text);
	if (rc)
		rts_ascore_free(a);
	else
		*out = a;
	return rc;
}
#endif
