/*
 * Unit type tables read from the official JSON (UnitTypeTable.toJSON) and
 * XML (UnitTypeTable.toxml) forms: the accessors that plug cJSON and
 * libxml2 into the field reader of utt.c. Kept apart from utt.c so that
 * the engine builds without either library (the JNI bridge does).
 */
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/xml.h"
#include "games/microrts/engine/utt_internal.h"
#include "games/microrts/engine/rts_xml.h"

static int json_int(ms_ctx *ctx, const char *what, const void *node, const char *key, int required, int *out)
{
	if (!required && !cJSON_GetObjectItemCaseSensitive(node, key))
		return MS_OK;
	return ms_json_get_int(ctx, what, node, key, out);
}

static int json_bool(ms_ctx *ctx, const char *what, const void *node, const char *key, int required, int *out)
{
	if (!required && !cJSON_GetObjectItemCaseSensitive(node, key))
		return MS_OK;
	return ms_json_get_bool(ctx, what, node, key, out);
}

static int json_names(ms_ctx *ctx, const char *what, const void *node, const char *key,
		      char names[][MS_RTS_TYPE_NAME_MAX], int *n)
{
	const cJSON *arr, *e;
	int rc = ms_json_get_array(ctx, what, node, key, &arr);

	if (rc)
		return rc;
	*n = 0;
	cJSON_ArrayForEach(e, arr) {
		if (!cJSON_IsString(e) || strlen(e->valuestring) >= MS_RTS_TYPE_NAME_MAX)
			return ms_ctx_error(ctx, MS_EPARSE, "%s: '%s' holds a non-name", what, key);
		if (*n >= MS_RTS_MAX_TYPES)
			return ms_ctx_error(ctx, MS_ERANGE, "%s: '%s' lists too many types", what, key);
		snprintf(names[(*n)++], MS_RTS_TYPE_NAME_MAX, "%s", e->valuestring);
	}
	return MS_OK;
}

static int xml_int(ms_ctx *ctx, const char *what, const void *node, const char *key, int required, int *out)
{
	if (!required && !ms_xml_has_attr((xmlNodePtr)node, key))
		return MS_OK;
	return ms_xml_attr_int(ctx, what, (xmlNodePtr)node, key, out);
}

static int xml_bool(ms_ctx *ctx, const char *what, const void *node, const char *key, int required, int *out)
{
	if (!required && !ms_xml_has_attr((xmlNodePtr)node, key))
		return MS_OK;
	return ms_xml_attr_bool(ctx, what, (xmlNodePtr)node, key, out);
}

/* Children <KEY type="NAME"> (produces / producedBy). */
static int xml_names(ms_ctx *ctx, const char *what, const void *node, const char *key,
		     char names[][MS_RTS_TYPE_NAME_MAX], int *n)
{
	*n = 0;
	for (xmlNodePtr c = ms_xml_child((xmlNodePtr)node, key); c; c = ms_xml_next(c, key)) {
		int rc;
		if (*n >= MS_RTS_MAX_TYPES)
			return ms_ctx_error(ctx, MS_ERANGE, "%s: too many <%s> elements", what, key);
		if ((rc = ms_xml_attr_str(ctx, what, c, "type", names[*n], MS_RTS_TYPE_NAME_MAX)))
			return rc;
		(*n)++;
	}
	return MS_OK;
}

static const rts_type_reader json_reader = { json_int, json_bool, json_names, 0 };
static const rts_type_reader xml_reader = { xml_int, xml_bool, xml_names, 1 };

int ms_rts_utt_from_json(ms_ctx *ctx, ms_rts_utt **out, const char *text, size_t len)
{
	const char *what = "unit type table";
	cJSON *root = NULL;
	const cJSON *types, *e;
	ms_rts_utt *u = NULL;
	rts_pending_names *pn = NULL;
	int rc;

	*out = NULL;
	rc = ms_json_parse(ctx, what, text, len, &root);
	if (rc)
		return rc;
	u = rts_utt_alloc(ctx);
	pn = ms_ctx_calloc(ctx, 1, sizeof(*pn));
	if (!u || !pn) {
		rc = MS_ENOMEM;
		goto cleanup;
	}
	u->version = 0;
	u->conflict_policy = MS_RTS_CONFLICT_CANCEL_BOTH;
	if ((rc = json_int(ctx, what, root, "moveConflictResolutionStrategy", 0, &u->conflict_policy)) ||
	    (rc = ms_json_get_array(ctx, what, root, "unitTypes", &types)))
		goto cleanup;
	cJSON_ArrayForEach(e, types) {
		const char *name;
		char where[64];

		snprintf(where, sizeof(where), "%s: unitTypes[%d]", what, u->n_types);
		if ((rc = ms_json_get_string(ctx, where, e, "name", &name)) ||
		    (rc = rts_utt_read_type(ctx, &json_reader, e, where, name, u, pn)))
			goto cleanup;
	}
	if ((rc = rts_utt_complete(ctx, u, pn, what)))
		goto cleanup;
	*out = u;
	u = NULL;
cleanup:
	ms_ctx_mfree(ctx, pn);
	ms_rts_utt_free(u);
	cJSON_Delete(root);
	return rc;
}

int rts_utt_from_xml(ms_ctx *ctx, ms_rts_utt **out, const char *what, xmlNodePtr node)
{
	ms_rts_utt *u = rts_utt_alloc(ctx);
	rts_pending_names *pn = ms_ctx_calloc(ctx, 1, sizeof(*pn));
	int rc = MS_OK;

	*out = NULL;
	if (!u || !pn) {
		rc = MS_ENOMEM;
		goto cleanup;
	}
	if ((rc = ms_xml_attr_int(ctx, what, node, "moveConflictResolutionStrategy", &u->conflict_policy)))
		goto cleanup;
	for (xmlNodePtr c = ms_xml_child(node, "rts.units.UnitType"); c; c = ms_xml_next(c, "rts.units.UnitType")) {
		char name[MS_RTS_TYPE_NAME_MAX];

		if ((rc = ms_xml_attr_str(ctx, what, c, "name", name, sizeof(name))) ||
		    (rc = rts_utt_read_type(ctx, &xml_reader, c, what, name, u, pn)))
			goto cleanup;
	}
	if ((rc = rts_utt_complete(ctx, u, pn, what)))
		goto cleanup;
	*out = u;
	u = NULL;
cleanup:
	ms_ctx_mfree(ctx, pn);
	ms_rts_utt_free(u);
	return rc;
}
