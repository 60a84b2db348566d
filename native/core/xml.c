#include "core/xml.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

/* Hostile input must not reach the network, expand entities into a
 * billion laughs, or write to stderr from inside the library. */
#define MS_XML_OPTIONS (XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA)

static int parse_error(ms_ctx *ctx, const char *what, xmlParserCtxtPtr p)
{
	const xmlError *e = p ? xmlCtxtGetLastError(p) : NULL;
	char msg[200];
	size_t n;

	if (!e || !e->message)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: not well-formed XML", what);
	snprintf(msg, sizeof(msg), "%s", e->message);
	n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		msg[--n] = '\0';
	return ms_ctx_error(ctx, MS_EPARSE, "%s: line %d, column %d: %s", what, e->line, e->int2, msg);
}

static int finish(ms_ctx *ctx, const char *what, xmlParserCtxtPtr p, xmlDocPtr doc, xmlDocPtr *out)
{
	int rc = MS_OK;

	if (!doc || !p->wellFormed) {
		rc = parse_error(ctx, what, p);
		if (doc)
			xmlFreeDoc(doc);
		doc = NULL;
	}
	xmlFreeParserCtxt(p);
	*out = doc;
	return rc;
}

int ms_xml_read_memory(ms_ctx *ctx, const char *what, const char *buf, size_t len, xmlDocPtr *out)
{
	xmlParserCtxtPtr p;
	xmlDocPtr doc;

	*out = NULL;
	if (!buf)
		return ms_ctx_error(ctx, MS_EINVAL, "%s: no text", what);
	if (len > INT_MAX)
		return ms_ctx_error(ctx, MS_ERANGE, "%s: document of %zu bytes is too large", what, len);
	p = xmlNewParserCtxt();
	if (!p)
		return ms_ctx_error(ctx, MS_ENOMEM, "%s: out of memory creating the XML parser", what);
	doc = xmlCtxtReadMemory(p, buf, (int)len, what, NULL, MS_XML_OPTIONS);
	return finish(ctx, what, p, doc, out);
}

int ms_xml_read_file(ms_ctx *ctx, const char *path, xmlDocPtr *out)
{
	FILE *f;
	char *data = NULL;
	size_t len = 0, cap = 0;
	int rc;

	*out = NULL;
	/* Read ourselves so a missing file is MS_EIO with errno's words, not a
	 * parse error. */
	f = fopen(path, "rb");
	if (!f)
		return ms_ctx_error(ctx, MS_EIO, "%s: cannot open: %s", path, strerror(errno));
	for (;;) {
		size_t got;
		if (cap - len < 4096) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *nd = ms_ctx_realloc(ctx, data, ncap);
			if (!nd) {
				fclose(f);
				ms_ctx_mfree(ctx, data);
				return MS_ENOMEM;
			}
			data = nd;
			cap = ncap;
		}
		got = fread(data + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fclose(f);
		ms_ctx_mfree(ctx, data);
		return ms_ctx_error(ctx, MS_EIO, "%s: read error", path);
	}
	fclose(f);
	rc = ms_xml_read_memory(ctx, path, data, len, out);
	ms_ctx_mfree(ctx, data);
	return rc;
}

static int named(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && (!name || xmlStrcmp(n->name, (const xmlChar *)name) == 0);
}

xmlNodePtr ms_xml_child(xmlNodePtr node, const char *name)
{
	for (xmlNodePtr c = node ? node->children : NULL; c; c = c->next)
		if (named(c, name))
			return c;
	return NULL;
}

xmlNodePtr ms_xml_next(xmlNodePtr node, const char *name)
{
	for (xmlNodePtr c = node ? node->next : NULL; c; c = c->next)
		if (named(c, name))
			return c;
	return NULL;
}

int ms_xml_root(ms_ctx *ctx, const char *what, xmlDocPtr doc, const char *name, xmlNodePtr *out)
{
	xmlNodePtr r = xmlDocGetRootElement(doc);

	*out = NULL;
	if (!r)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: empty document", what);
	if (!named(r, name))
		return ms_ctx_error(ctx, MS_EPARSE, "%s: line %ld: root element is <%s>, expected <%s>",
				    what, xmlGetLineNo(r), (const char *)r->name, name);
	*out = r;
	return MS_OK;
}

int ms_xml_need_child(ms_ctx *ctx, const char *what, xmlNodePtr node, const char *name, xmlNodePtr *out)
{
	*out = ms_xml_child(node, name);
	if (!*out)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: line %ld: <%s> has no <%s> element",
				    what, xmlGetLineNo(node), (const char *)node->name, name);
	return MS_OK;
}

int ms_xml_has_attr(xmlNodePtr node, const char *attr)
{
	return xmlHasProp(node, (const xmlChar *)attr) != NULL;
}

/* Fetches the attribute's value or records a "missing" error. */
static int get(ms_ctx *ctx, const char *what, xmlNodePtr node, const char *attr, xmlChar **out)
{
	*out = xmlGetProp(node, (const xmlChar *)attr);
	if (!*out)
		return ms_ctx_error(ctx, MS_EPARSE, "%s: line %ld: <%s> lacks attribute '%s'",
				    what, xmlGetLineNo(node), (const char *)node->name, attr);
	return MS_OK;
}

int ms_xml_attr_long(ms_ctx *ctx, const char *what, xmlNodePtr node, const char *attr, int64_t *out)
{
	xmlChar *v;
	char *end;
	long long x;
	int rc = get(ctx, what, node, attr, &v);

	if (rc)
		return rc;
	errno = 0;
	x = strtoll((const char *)v, &end, 10);
	if (end == (char *)v || *end != '\0' || errno == ERANGE || v[0] == ' ' || v[0] == '\t') {
		rc = ms_ctx_error(ctx, MS_EPARSE, "%s: line %ld: <%s %s=\"%.40s\">: not an integer",
				  what, xmlGetLineNo(node), (const char *)node->name, attr, (const char *)v);
	} else {
		*out = (int64_t)x;
	}
	xmlFree(v);
	return rc;
}

int ms_xml_attr_int(ms_ctx *ctx, const char *what, xmlNodePtr node, const char *attr, int *out)
{
	int64_t x;
	int rc = ms_xml_attr_long(ctx, what, node, attr, &x);

	if (rc)
		return rc;
	if (x < INT_MIN || x > INT_MAX)
		return ms_ctx_error(ctx, MS_ERANGE, "%s: line %ld: <%s %s=\"%lld\">: out of range",
				    what, xmlGetLineNo(node), (const char *)node->name, attr, (long long)x);
	*out = (int)x;
	return MS_OK;
}

int ms_xml_attr_bool(ms_ctx *ctx, const char *what, xmlNodePtr node, const char *attr, int *out)
{
	xmlChar *v;
	int rc = get(ctx, what, node, attr, &v);

	if (rc)
		return rc;
	if (xmlStrcmp(v, (const xmlChar *)"true") == 0)
		*out = 1;
	else if (xmlStrcmp(v, (const xmlChar *)"false") == 0)
		*out = 0;
	else
		rc = ms_ctx_error(ctx, MS_EPARSE, "%s: line %ld: <%s %s=\"%.40s\">: expected true or false",
				  what, xmlGetLineNo(node), (const char *)node->name, attr, (const char *)v);
	xmlFree(v);
	return rc;
}

int ms_xml_attr_str(ms_ctx *ctx, const char *what, xmlNodePtr node, const char *attr, char *out, size_t size)
{
	xmlChar *v;
	size_t n;
	int rc = get(ctx, what, node, attr, &v);

	if (rc)
		return rc;
	n = strlen((const char *)v);
	if (n >= size)
		rc = ms_ctx_error(ctx, MS_ERANGE, "%s: line %ld: <%s> attribute '%s' is longer than %zu bytes",
				  what, xmlGetLineNo(node), (const char *)node->name, attr, size - 1);
	else
		memcpy(out, v, n + 1);
	xmlFree(v);
	return rc;
}
